"""End-to-end runs of ``python -m tuning.run`` on tiny budgets: export, resume, SIGKILL, bad input, PostgreSQL."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

import optuna
import pytest

from games import CONNECT4
from heuristics import load_weights
from search.agents import AlphaBetaAgent
from tests.inprocess import run_main
from tests.interrupts import default_sigint
from tuning.run import EXIT_NO_IMPROVEMENT, main

# 8 confirmation pairs: the fewest on which beating random is significant even with one drawn or split pair; TPE, whose
# queued start points (incumbent, defaults, fit) these tests follow (the default, SPSA, has its own tests)
TINY = ["--heuristic", "square_values", "--pairs", "3", "--confirm-top", "2", "--confirm-pairs", "8", "--plies", "2",
        "--workers", "1", "--nodes", "300", "--depth-range", "1,4", "--no-progress", "--sampler", "tpe"]  # fmt: skip


def tuner(tmp: Path, *extra: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run the tuner as a user would, in ``tmp`` with its SQLite file there."""
    command = [sys.executable, "-m", "tuning.run", *TINY, "--storage", f"sqlite:///{tmp / 'study.db'}", *extra]
    return subprocess.run(command, cwd=tmp, capture_output=True, text=True, timeout=timeout)


def run_together(command: list[str], tmp: Path) -> tuple[list[Path], list[tuple[str, str]]]:
    """Start ``command`` twice at once, in folders ``a`` and ``b`` (two machines sharing a storage).

    Both must finish with a verdict: 0 (exported) or 3 (no significant improvement).  Which it is depends on
    the configurations tried, and the process that joins the study draws its sampler's seed from fresh entropy
    (so that it does not replay the first one's proposals): demanding 0 of both made the test fail now and then.
    """
    folders = [tmp / "a", tmp / "b"]
    for folder in folders:
        folder.mkdir()
    processes = [subprocess.Popen(command, cwd=f, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for f in folders]
    outputs = [p.communicate(timeout=900) for p in processes]
    failed = [(f.name, p.returncode, out, err) for f, p, (out, err) in zip(folders, processes, outputs)
              if p.returncode not in (0, EXIT_NO_IMPROVEMENT)]  # fmt: skip
    if failed:  # pytest.fail prints its message whole (an assertion's message is cut to a few lines without -vv)
        pytest.fail("\n\n".join(f"process in {name!r} exited {code}\n--- stdout ---\n{out}\n--- stderr ---\n{err}"
                                for name, code, out, err in failed), pytrace=False)  # fmt: skip
    return folders, outputs


def trials(tmp: Path, study: str) -> list[optuna.trial.FrozenTrial]:
    return optuna.load_study(study_name=study, storage=f"sqlite:///{tmp / 'study.db'}").trials


def test_a_confirmed_run_exports_a_loadable_weight_file_and_resumes(tmp_path: Path) -> None:
    first = tuner(tmp_path, "--trials", "2", "--baseline", "random", "--study", "s", "--out", "tuned.json")
    assert first.returncode == 0, first.stderr
    assert "confirmed" in first.stdout and "optuna-dashboard" in first.stdout
    exported = load_weights(tmp_path / "tuned.json", CONNECT4)
    assert exported.heuristic == "square_values" and exported.search["nodes"] == 300
    provenance = exported.provenance
    assert provenance["study"] == "s" and provenance["seed"] == 0 and provenance["confirmation"]["pairs"] == 8
    assert provenance["trial"] in (0, 1) and provenance["games"] >= 2 and "package_version" in provenance
    agent = AlphaBetaAgent(CONNECT4, weights=tmp_path / "tuned.json", seed=1)
    assert agent.select_move(CONNECT4.position("44")) in range(7)
    run_dir = tmp_path / "runs" / "s"
    for name in ("openings.json", "trials.csv", "confirmation.csv", "summary.md", "candidate.json", "history.png"):
        assert (run_dir / name).is_file(), name
    assert trials(tmp_path, "s")[0].params["scale"] == 1.0  # the paper's defaults come first
    assert "Confirmation on held-out openings" in (run_dir / "summary.md").read_text()

    # --trials is the study's target: the same command again plays no trial, keeps the record and reports it
    summary = (run_dir / "summary.md").read_bytes()
    same = tuner(tmp_path, "--trials", "2", "--baseline", "random", "--study", "s", "--out", "tuned.json")
    assert same.returncode == 0, same.stderr
    assert "study 's' complete (2 finished trials; raise --trials to continue)" in same.stdout
    assert "Trial" in same.stdout and "confirmed" in same.stdout  # the recorded verdict, with its exit code
    assert "games in" not in same.stdout and [t.number for t in trials(tmp_path, "s")] == [0, 1]
    assert (run_dir / "summary.md").read_bytes() == summary  # the first run's record is not overwritten
    assert load_weights(tmp_path / "tuned.json", CONNECT4).provenance["confirmation"] == provenance["confirmation"]

    again = tuner(tmp_path, "--trials", "3", "--baseline", "random", "--study", "s", "--out", "tuned.json")
    assert again.returncode == 0, again.stderr
    assert [t.number for t in trials(tmp_path, "s")] == [0, 1, 2]
    assert len((run_dir / "trials.csv").read_text().splitlines()) == 1 + 3


def test_a_first_run_exports_under_runs_and_leaves_weights_alone(tmp_path: Path) -> None:
    (tmp_path / "weights").mkdir()
    run = tuner(tmp_path, "--trials", "1", "--baseline", "random", "--study", "first")
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "runs" / "first" / "connect4-square_values-tuned.json").is_file()
    assert not any((tmp_path / "weights").iterdir())
    assert "cp runs/first/connect4-square_values-tuned.json weights/" in run.stdout
    assert "drawing 11 openings" in run.stderr  # no silent start: the user is told what takes the time


@pytest.mark.slow  # two runs (the confirmed run's test resumes too): about 15 s
def test_a_resume_proposes_new_configurations(tmp_path: Path) -> None:
    first = tuner(tmp_path, "--trials", "4", "--study", "r", "--baseline", "random", "--pruner", "none")
    assert first.returncode == 0, first.stderr
    resumed = tuner(tmp_path, "--trials", "8", "--study", "r", "--baseline", "random", "--pruner", "none")
    assert resumed.returncode == 0, resumed.stderr
    done = trials(tmp_path, "r")
    assert len(done) == 8
    assert len({json.dumps(t.params, sort_keys=True) for t in done}) == 8  # the resume did not replay trials 1-3
    defaults = [t for t in done if t.user_attrs.get("start") == "paper defaults"]
    assert [t.number for t in defaults] == [0]


def test_no_significant_improvement_exits_3_and_exports_nothing(tmp_path: Path) -> None:
    # one trial, the paper's defaults, which is the baseline itself: nothing can be better
    run = tuner(tmp_path, "--trials", "1", "--study", "same", "--out", "t.json")
    assert run.returncode == EXIT_NO_IMPROVEMENT, run.stderr
    assert "No significant improvement" in run.stdout
    assert "This is a result, not a failure: 1 trial found nothing" in run.stdout  # plain words, then what to try
    assert "--trials 2 carries the study on" in run.stdout
    assert "Another sampler may find what this one missed: --sampler spsa or --sampler cmaes (a new" in run.stdout
    assert not (tmp_path / "t.json").exists()
    assert (tmp_path / "runs" / "same" / "candidate.json").is_file()


@pytest.mark.slow  # three tuner processes, one killed mid-run: about 35 s
def test_a_killed_run_resumes_cleanly(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "tuning.run", *TINY, "--storage", f"sqlite:///{tmp_path / 'study.db'}",
               "--study", "k", "--trials", "200", "--pairs", "30", "--plies", "4", "--out", "t.json"]  # fmt: skip
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 240
        while time.time() < deadline:
            time.sleep(1)
            assert process.poll() is None, "the tuner ended before it could be killed"
            try:
                done = [t for t in trials(tmp_path, "k") if t.state.is_finished()]
            except Exception:  # the study may not exist yet
                continue
            if len(done) >= 2 and any(t.state == optuna.trial.TrialState.RUNNING for t in trials(tmp_path, "k")):
                break
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait(timeout=30)
    before = trials(tmp_path, "k")
    finished_before = sum(t.state.is_finished() for t in before)
    killed = [t for t in before if t.state == optuna.trial.TrialState.RUNNING]
    assert finished_before >= 2 and len(killed) == 1
    # resumed at once (the killed trial's heartbeat is still fresh): its dead owner is noticed, the trial failed
    # and played again with the same parameters, and nothing is left RUNNING
    target = str(sum(t.state in (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED) for t in before) + 2)
    resumed = tuner(tmp_path, "--study", "k", "--trials", target, "--pairs", "30", "--plies", "4", "--out", "t.json")
    assert resumed.returncode in (0, EXIT_NO_IMPROVEMENT), resumed.stderr
    assert "1 of a dead process failed, 1 queued again" in resumed.stderr
    after = trials(tmp_path, "k")
    assert [t.number for t in after] == list(range(len(after)))
    assert not [t.number for t in after if t.state == optuna.trial.TrialState.RUNNING]
    assert after[killed[0].number].state == optuna.trial.TrialState.FAIL
    retries = [t for t in after if t.system_attrs.get("failed_trial") == killed[0].number]
    assert len(retries) == 1 and retries[0].state.is_finished() and retries[0].params == killed[0].params
    assert all(t.values is not None for t in after if t.state == optuna.trial.TrialState.COMPLETE)
    assert not list(tmp_path.glob("**/*.tmp")) and not list(tmp_path.glob("**/.*.tmp.png"))


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--heuristic", "nonsense"], "nonsense"),
        (["--bounds", "scale=5:1"], "make no sense"),
        (["--bounds", "depth=0:3"], "allowed range"),
        (["--bounds", "nope=1:2"], "unknown parameter"),
        (["--tune", "weights,speed"], "speed"),
        (["--storage", "postgresql://nobody:secret@127.0.0.1:1/none"], "cannot open storage"),
        (["--out", "/proc/forbidden/t.json"], "cannot write"),
        (["--baseline", "alphabeta:depht=3"], "depht"),
        (["--pairs", "0"], "--pairs 0"),
        (["--game", "mnk"], "rows"),
        (["--incumbent", "missing.json"], "missing.json"),
        (["--incumbent", str(Path(__file__).resolve().parents[1] / "weights" / "connect4-c4_features-tuned.json")],
         "holds 'c4_features' weights; this run tunes 'square_values'"),
        (["--incumbent-sprt", "5,0"], "'5,0'"),
        (["--incumbent-pairs", "0"], "--incumbent-pairs 0"),
    ],
)
def test_bad_input_is_one_clear_line_before_any_game(tmp_path: Path, monkeypatch, capsys, extra, message) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main([*TINY, "--storage", f"sqlite:///{tmp_path / 'db.sqlite'}", *extra])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert message in error and "secret" not in error
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").rglob("*.json"))


def test_a_baseline_for_another_game_is_refused(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    other = Path(__file__).resolve().parents[1] / "weights" / "tictactoe-windows.json"
    with pytest.raises(SystemExit) as exit_info:
        main([*TINY, "--storage", f"sqlite:///{tmp_path / 'db.sqlite'}", "--baseline", str(other)])
    assert exit_info.value.code == 2
    assert "tictactoe-windows.json" in capsys.readouterr().err


@pytest.mark.slow  # a two-objective run and its plots: about 8 s
def test_pareto_mode_is_two_objective_and_plots_the_front(tmp_path: Path) -> None:
    run = tuner(tmp_path, "--mode", "pareto", "--trials", "3", "--study", "p", "--baseline", "random", "--out", "t.json")
    assert run.returncode == 0, run.stderr
    done = [t for t in trials(tmp_path, "p") if t.values is not None]
    assert done and all(len(t.values) == 2 and t.values[1] > 0 for t in done)  # score, nodes per move
    assert (tmp_path / "runs" / "p" / "pareto_front.png").is_file()


@pytest.mark.slow  # two runs: about 12 s
def test_resuming_with_other_settings_is_refused(tmp_path: Path) -> None:
    assert tuner(tmp_path, "--trials", "1", "--study", "x", "--baseline", "random").returncode == 0
    clash = tuner(tmp_path, "--trials", "1", "--study", "x", "--baseline", "random", "--nodes", "500")
    assert clash.returncode == 2 and "other settings" in clash.stderr and "nodes" in clash.stderr


POSTGRES_URL = os.environ.get("ALPHABETA_TEST_POSTGRES")


@pytest.mark.skipif(not POSTGRES_URL and not os.environ.get("CI"), reason="set ALPHABETA_TEST_POSTGRES (.ci/run does)")
def test_two_tuners_share_one_postgresql_study(tmp_path: Path) -> None:
    assert POSTGRES_URL, "CI must provide a PostgreSQL server: .ci/run starts one and sets ALPHABETA_TEST_POSTGRES"
    study = f"shared-{os.getpid()}-{time.time_ns()}"
    # the CI server trusts local connections, so a password in the URL is accepted and must never be shown
    url = POSTGRES_URL + ("&" if "?" in POSTGRES_URL else "?") + "password=hunter2"
    command = [sys.executable, "-m", "tuning.run", *TINY, "--storage", url, "--study", study, "--trials", "6",
               "--baseline", "random"]  # fmt: skip
    folders, outputs = run_together(command + ["--out", "t.json"], tmp_path)
    shared = optuna.load_study(study_name=study, storage=POSTGRES_URL).trials
    assert 6 <= len(shared) <= 7  # --trials is the shared target: none lost (one may overshoot while the other ends)
    assert sorted(t.number for t in shared) == list(range(len(shared)))
    assert all(t.state.is_finished() for t in shared)
    assert sum(t.user_attrs.get("start") == "paper defaults" for t in shared) == 1
    assert len({json.dumps(t.params, sort_keys=True) for t in shared}) == len(shared)
    written = [p.read_text() for f in folders for p in f.rglob("*") if p.is_file() and p.suffix in (".json", ".md", ".csv")]
    assert written and not any("hunter2" in text for text in written + [o + e for o, e in outputs])
    assert json.loads((folders[0] / "runs" / study / "openings.json").read_text()) == json.loads(
        (folders[1] / "runs" / study / "openings.json").read_text()
    )  # both machines drew the same openings from the seed


@pytest.mark.parametrize("name", ["connect4-c4_features-tuned.json", "connect4-threats-tuned.json"])
def test_the_shipped_tuned_file_is_a_confirmed_improvement(name: str) -> None:
    shipped = load_weights(Path(__file__).resolve().parents[1] / "weights" / name, CONNECT4)
    confirmation = shipped.provenance["confirmation"]
    assert shipped.provenance["tool"] == "python -m tuning.run" and confirmation["openings"] == "held-out"
    assert confirmation["elo_low"] > 0 and confirmation["elo_low"] < confirmation["elo"] < confirmation["elo_high"]
    assert shipped.search["nodes"] is not None  # tuned at a node budget, and played at it


def test_an_exported_file_is_an_env_opponent(tmp_path: Path) -> None:
    import gymnasium as gym

    import envs  # noqa: F401  (registers the alphabeta/ ids)

    run = tuner(tmp_path, "--trials", "1", "--baseline", "random", "--study", "env", "--out", "tuned.json")
    assert run.returncode == 0, run.stderr
    env = gym.make("alphabeta/Connect4-v0", opponent=str(tmp_path / "tuned.json"), agent_plays="second")
    observation, info = env.reset(seed=3)
    assert observation.sum() == 1 and info["opponent_action"] in range(7)  # the tuned agent opened
    terminated = truncated = False
    while not (terminated or truncated):
        legal = [int(a) for a in range(7) if info["action_mask"][a]]
        observation, reward, terminated, truncated, info = env.step(legal[0])
    assert reward in (-1.0, 0.0, 1.0)


def _interrupt_when_playing(command: list[str], cwd: Optional[Path], ready, env: Optional[dict[str, str]] = None,
                            settle: float = 1.0, signum: int = signal.SIGINT, group: bool = True,
                            seen: Optional[set[int]] = None) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """Start ``command`` in its own process group, wait until ``ready()`` and ``settle`` seconds more, check that it
    still runs, then send ``signum``: to the whole group (``group``, as a terminal's Ctrl-C does) or to the command
    alone (as ``kill PID`` and job schedulers do).  ``seen`` collects the command's child processes (its workers)."""
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                               start_new_session=True, preexec_fn=default_sigint)  # fmt: skip
    try:
        deadline = time.time() + 240
        while not ready() and time.time() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.5)
        time.sleep(settle)
        assert process.poll() is None, process.communicate()
        if seen is not None:
            seen.update(_children(process.pid))
        if group:
            os.killpg(process.pid, signum)
        else:
            os.kill(process.pid, signum)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux ``/proc``)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we looked
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize(("signum", "group", "code", "word"),
                         [(signal.SIGINT, True, 130, "interrupted"),  # Ctrl-C in a terminal: the whole process group
                          (signal.SIGTERM, False, 143, "terminated")])  # timeout, kill, a job scheduler: the tuner alone
def test_ctrl_c_or_sigterm_ends_the_tuner_with_one_message_and_stops_its_workers(tmp_path: Path, signum: int, group: bool,
                                                                                 code: int, word: str) -> None:  # fmt: skip
    command = [sys.executable, "-m", "tuning.run", *[a for a in TINY if a != "--no-progress"], "--storage",
               f"sqlite:///{tmp_path / 'study.db'}", "--study", "c", "--trials", "200", "--pairs", "30", "--plies", "4",
               "--workers", "2", "--out", "t.json"]  # fmt: skip

    def playing() -> bool:
        try:
            return any(t.state == optuna.trial.TrialState.RUNNING for t in trials(tmp_path, "c"))
        except Exception:  # no study yet
            return False

    workers: set[int] = set()
    try:
        done = _interrupt_when_playing(command, tmp_path, playing, signum=signum, group=group, seen=workers)
        assert done.returncode == code, done.stderr
        assert "Traceback" not in done.stderr and "leaked" not in done.stderr, done.stderr
        lines = done.stderr.split("\n")  # the bar redraws its line with carriage returns: a message must follow a newline
        assert any(line.startswith(f"tuning.run: {word}") for line in lines), done.stderr
        bar = next(i for i, line in enumerate(lines) if "games [" in line)  # after the start-up lines: one message
        assert len([line for line in lines[bar:] if line.startswith("tuning.run: ")]) == 1, done.stderr
        left = trials(tmp_path, "c")
        assert not [t for t in left if t.state == optuna.trial.TrialState.RUNNING]  # the trial under way was failed
        assert [t for t in left if t.state == optuna.trial.TrialState.FAIL and t.params]  # and is queued on a resume
        assert len(workers) >= 2
        deadline = time.time() + 20
        while any(_alive(w) for w in workers) and time.time() < deadline:
            time.sleep(0.2)
        assert not [w for w in workers if _alive(w)], "worker processes outlived the tuner"
    finally:
        for worker in workers:  # never leave an orphan behind, whatever failed
            if _alive(worker):
                os.kill(worker, signal.SIGKILL)


@pytest.mark.slow  # a match started, then interrupted: about 10 s (the tuner's own Ctrl-C test stays in the default run)
def test_ctrl_c_ends_a_match_with_one_message_and_exit_130(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "tuning.match", "alphabeta:heuristic=square_values,depth=6",
               "alphabeta:heuristic=square_values,depth=6", "--pairs", "100000", "--workers", "2"]  # fmt: skip
    started = time.time()
    done = _interrupt_when_playing(command, tmp_path, lambda: time.time() - started > 8)
    assert done.returncode == 130 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip() == "tuning.match: interrupted"


@pytest.mark.slow  # two tuners at once: about 15 s
def test_two_tuners_starting_together_queue_the_defaults_once(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "tuning.run", *TINY, "--storage", f"sqlite:///{tmp_path / 'study.db'}",
               "--study", "two", "--trials", "4", "--baseline", "random", "--confirm-top", "1"]  # fmt: skip
    folders, outputs = run_together(command + ["--out", "t.json"], tmp_path)
    shared = trials(tmp_path, "two")
    assert sum(t.user_attrs.get("start") == "paper defaults" for t in shared) == 1
    assert len({json.dumps(t.params, sort_keys=True) for t in shared}) == len(shared)  # no worker replayed another


def test_the_progress_bar_ends_at_100_percent_when_trials_are_pruned(capsys) -> None:
    from tuning.run import Progress

    bar = Progress(total=100, enabled=True)
    bar.advance(10)
    bar.shrink(60)  # a pruned trial's unplayed pairs
    bar.advance(10)
    bar.replan(20)  # the confirmation
    bar.advance(15)  # one confirmation ends early
    bar.close()
    last = capsys.readouterr().err.replace("\r", "\n").strip().splitlines()[-1]
    assert "100%" in last and "35/35" in last, last


def test_the_objective_is_pluggable_and_a_config_runs_without_a_command_line(tmp_path: Path, monkeypatch) -> None:
    from tuning.run import TuneConfig, tune

    monkeypatch.chdir(tmp_path)
    seen = []

    def planted(setup, study, runner, progress):  # no games: a known function of the weight
        def objective(trial):
            scale = setup.space.suggest(trial)["scale"]
            seen.append(trial.number)
            return -abs(scale - 2.0)

        return objective

    config = TuneConfig(heuristic="square_values", trials=6, pairs=3, confirm_top=1, confirm_pairs=8, plies=2, workers=1, sampler="tpe",
                        nodes=300, depth_range=(1, 4), tune=("weights",), baseline="random", progress=False,
                        storage=f"sqlite:///{tmp_path / 'study.db'}", study="planted")  # fmt: skip
    assert tune(config, objective_factory=planted) == 0  # the confirmation still plays real games, against random
    done = trials(tmp_path, "planted")
    assert seen == [t.number for t in done] and all(t.value == -abs(t.params["scale"] - 2.0) for t in done)
    assert (tmp_path / "runs" / "planted" / "connect4-square_values-tuned.json").is_file()


@pytest.mark.parametrize(
    ("options", "message"),
    [({"pairs": 0}, "--pairs 0"), ({"timeout": float("nan")}, "--timeout nan"), ({"depth_range": (3, 2)}, "--depth-range 3,2"),
     ({"tune": ("speed",)}, "--tune 'speed'"), ({"mode": "fast"}, "--mode 'fast'"), ({"workers": 0}, "--workers 0")],
)
def test_a_config_names_the_bad_option(options, message) -> None:
    from tuning.run import TuneConfig

    with pytest.raises(ValueError, match=re.escape(message)):
        TuneConfig(**options)
@pytest.mark.parametrize("nodes", [str(2**70), "9223372036854775808"])
def test_a_node_budget_beyond_64_bits_fails_before_the_study_exists(tmp_path: Path, monkeypatch, capsys, nodes) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main([*TINY, "--storage", f"sqlite:///{tmp_path / 'db.sqlite'}", "--nodes", nodes])
    assert exit_info.value.code == 2
    assert "nodes" in capsys.readouterr().err.strip().splitlines()[-1]
    assert not (tmp_path / "db.sqlite").exists()


@pytest.mark.slow  # a label set's Texel fit, then a run: about 15 s
def test_a_warm_start_queues_the_texel_fit_after_the_defaults(tmp_path: Path) -> None:
    from tuning.texel import warm_start_weights

    run = tuner(tmp_path, "--heuristic", "c4_features", "--tune", "weights", "--warm-start", "fit", "--trials", "2",
                "--baseline", "random", "--study", "warm", "--out", "t.json", "--incumbent", "none")  # fmt: skip
    assert run.returncode in (0, EXIT_NO_IMPROVEMENT), run.stderr
    assert "fitting c4_features's weights to 6,400 labelled positions" in run.stderr
    first, second = trials(tmp_path, "warm")[:2]
    assert first.user_attrs["start"] == "paper defaults" and second.user_attrs["start"] == "texel fit"
    fitted = warm_start_weights(CONNECT4, "c4_features")
    assert second.params == pytest.approx({name: fitted[name] for name in second.params})
    assert second.params != first.params


def test_a_fit_without_labels_fails_before_any_opening_naming_the_boards_and_the_command(tmp_path: Path, monkeypatch,
                                                                                           capsys) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main([*TINY, "--storage", f"sqlite:///{tmp_path / 'db.sqlite'}", "--game", "mnk", "--rows", "9", "--cols", "9",
              "--k", "5", "--heuristic", "windows", "--warm-start", "fit", "--label-budget", "0"])  # fmt: skip
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert exit_info.value.code == 2 and "9x9" in last and "--label-budget 0" in last
    assert "connect4-6x7 (shipped)" in last and "python -m tuning.labels --game mnk --rows 9 --cols 9 --k 5" in last
    assert "drawing" not in err  # before any opening is drawn
    assert not (tmp_path / "db.sqlite").exists() and not (tmp_path / "runs").exists()  # and nothing left behind


def test_a_missing_label_file_fails_before_any_opening(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main([*TINY, "--storage", f"sqlite:///{tmp_path / 'db.sqlite'}", "--labels", "nowhere.jsonl.gz"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and "nowhere.jsonl.gz: no such label file" in err.strip().splitlines()[-1]
    assert "drawing" not in err and not (tmp_path / "db.sqlite").exists()


def test_a_fit_on_a_board_without_labels_makes_them_first_and_the_next_run_reuses_them(tmp_path: Path,
                                                                                       monkeypatch) -> None:  # fmt: skip
    # a cache of its own: another test on the same worker may have made this board's set in the worker's cache
    monkeypatch.setenv("ALPHABETA_GYM_CACHE", str(tmp_path / "cache"))
    board = ["--game", "connect4", "--rows", "4", "--cols", "5", "--heuristic", "windows", "--warm-start", "fit", "--label-budget", "5"]
    first = tuner(tmp_path, *board, "--trials", "2", "--baseline", "random", "--study", "made", "--out", "t.json")
    assert first.returncode in (0, EXIT_NO_IMPROVEMENT), first.stderr
    err = first.stderr
    # it says what it will do and for how long before drawing the openings, then makes the set, fits, draws
    assert err.index("making them with the solver source for 5 s") < err.index("tuning.run: labelled ") < err.index("tuning.run: fitting") \
        < err.index("drawing")
    cached = Path(os.environ["ALPHABETA_GYM_CACHE"]) / "labels" / "connect4-4x5-solver.labels.jsonl.gz"
    assert cached.is_file()
    fitted = [t for t in trials(tmp_path, "made") if t.user_attrs.get("start") == "texel fit"]
    assert len(fitted) == 1
    again = tuner(tmp_path, *board, "--trials", "1", "--baseline", "random", "--study", "again", "--out", "u.json")
    assert again.returncode in (0, EXIT_NO_IMPROVEMENT), again.stderr
    assert "connect4-4x5-solver.labels.jsonl.gz (Texel's method" in again.stderr and "making" not in again.stderr


def test_the_shipped_threats_file_beat_every_default_and_the_file_it_replaced() -> None:
    shipped = load_weights(Path(__file__).resolve().parents[1] / "weights" / "connect4-threats-tuned.json", CONNECT4)
    members = shipped.provenance["confirmation"]["members"]
    defaults = {name: m for name, m in members.items() if "(tuned)" not in name}
    assert set(defaults) == {"c4_features", "square_values", "patterns", "windows", "mics", "threats"}
    assert all(m["elo_low"] > 0 for m in defaults.values())  # each default beaten significantly at confirmation
    incumbent = shipped.provenance["incumbent"]  # and the file it replaced, in the SPRT against it
    assert incumbent["file"] == "weights/connect4-threats-tuned.json" and incumbent["verdict"] == "H1"
    assert incumbent["elo_low"] > 0 and incumbent["sprt_nelo"] == [0.0, 5.0]
    gauntlet = shipped.provenance["gauntlet"]  # scripts.gauntlet_record: each default at the file's budget, 200 pairs
    assert set(gauntlet["members"]) == set(defaults) and gauntlet["pairs"] >= 200
    assert gauntlet["budget"]["nodes"] == shipped.search["nodes"] and gauntlet["budget"]["depth"] is None
    assert all(m["elo_low"] > 0 for m in gauntlet["members"].values())
    assert gauntlet["members"]["threats"]["elo"] >= 100  # the goal: +100 over the strongest default


ROOT = Path(__file__).resolve().parents[1]
SHIPPED_THREATS = ROOT / "weights" / "connect4-threats-tuned.json"


@pytest.mark.slow  # a run and its incumbent test: about 10 s
def test_a_strong_incumbent_that_a_tiny_run_cannot_beat_is_never_reported_beaten(tmp_path: Path) -> None:
    # The run tunes only the depth of threats' *default* weights (the shipped file's weights are out of its reach):
    # every candidate beats random, and every candidate is weaker than the shipped file, which is the incumbent.
    run = tuner(tmp_path, "--heuristic", "threats", "--tune", "depth", "--depth-range", "1,3", "--baseline", "random",
                "--confirm-pairs", "8", "--trials", "3", "--incumbent", str(SHIPPED_THREATS), "--incumbent-pairs", "40",
                "--study", "champ")  # fmt: skip
    assert run.returncode == EXIT_NO_IMPROVEMENT, run.stderr
    assert "No improvement over weights/connect4-threats-tuned.json" in run.stdout and "SPRT on nElo [0, 5]" in run.stdout
    assert "cp " not in run.stdout and "Exported" not in run.stdout
    if "no decision within the cap" in run.stdout:
        assert "the same command with --incumbent-pairs 160 plays only that test" in run.stdout
    assert not (tmp_path / "runs" / "champ" / "connect4-threats-tuned.json").exists()
    first = trials(tmp_path, "champ")[0]
    assert first.user_attrs["start"] == "incumbent" and first.params == {"depth": 3}  # the file's 7, within 1..3


def test_a_weak_incumbent_is_beaten_and_the_export_records_the_test(tmp_path: Path) -> None:
    weak = tmp_path / "weak.json"
    shipped = json.loads(SHIPPED_THREATS.read_text())
    weak.write_text(json.dumps({**shipped, "search": {**shipped["search"], "depth": 1}, "provenance": {}}))
    run = tuner(tmp_path, "--heuristic", "threats", "--tune", "depth", "--depth-range", "3,4", "--baseline", "random",
                "--confirm-pairs", "8", "--trials", "2", "--incumbent", str(weak), "--incumbent-pairs", "200",
                "--incumbent-sprt", "0,60", "--study", "weak", "--out", "t.json")  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "it beat weak.json" in run.stdout and "accepted H1" in run.stdout  # named relative to the working folder
    record = load_weights(tmp_path / "t.json", CONNECT4).provenance["incumbent"]
    assert record["verdict"] == "H1" and record["elo_low"] > 0 and record["sprt_nelo"] == [0.0, 60.0]
    # the study is complete, but a longer incumbent test is a new check: it is played, not read from the record
    longer = tuner(tmp_path, "--heuristic", "threats", "--tune", "depth", "--depth-range", "3,4", "--baseline", "random",
                   "--confirm-pairs", "8", "--trials", "2", "--incumbent", str(weak), "--incumbent-pairs", "300",
                   "--incumbent-sprt", "0,60", "--study", "weak", "--out", "t.json")  # fmt: skip
    assert longer.returncode == 0 and "complete" not in longer.stdout and "games in" in longer.stdout, longer.stdout


@pytest.mark.slow  # two runs: about 7 s
def test_two_pairs_confirm_nothing(tmp_path: Path) -> None:
    # 2 pairs of double wins against random do not exclude equal strength at 95%: no export on them
    run = tuner(tmp_path, "--trials", "1", "--baseline", "random", "--confirm-pairs", "2", "--study", "two",
                "--out", "t.json")  # fmt: skip
    assert run.returncode == EXIT_NO_IMPROVEMENT, run.stdout + run.stderr
    assert "[+inf, +inf]" not in run.stdout and not (tmp_path / "t.json").exists()


@pytest.mark.slow  # a run: about 7 s
def test_the_summary_numbers_a_repeated_opponent_as_the_table_does(tmp_path: Path) -> None:
    run = tuner(tmp_path, "--trials", "1", "--opponents", "random", "random", "--study", "twice", "--out", "t.json")
    assert run.returncode in (0, EXIT_NO_IMPROVEMENT), run.stderr
    summary = (tmp_path / "runs" / "twice" / "summary.md").read_text()
    assert "`random`, `random #2`" in summary and "| `random #2` |" in summary


@pytest.mark.parametrize(
    ("tool", "args"),
    [("tuning.run", [*TINY, "--study", "cold", "--trials", "5"]),
     # the same handler in the other two commands: about 6 s each, left to the slow run
     pytest.param("tuning.blunders", ["alphabeta:heuristic=threats,depth=4"], marks=pytest.mark.slow),
     pytest.param("tuning.fit", ["--heuristic", "threats"], marks=pytest.mark.slow)],
)
def test_ctrl_c_while_numba_compiles_is_one_line_and_exit_130(tmp_path: Path, tool: str, args: list[str]) -> None:
    # an empty numba cache: the command is compiling its kernels when Ctrl-C comes, the case numba's compiler
    # callbacks used to turn into a 24-line traceback, or swallow (the run went on and exited 0)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache"), "PYTHONPATH": str(ROOT)}
    extra = ["--storage", f"sqlite:///{tmp_path / 'study.db'}", "--run-dir", str(tmp_path / "run")] if tool == "tuning.run" else []
    started = time.time()
    done = _interrupt_when_playing([sys.executable, "-m", tool, *args, *extra], None, lambda: time.time() - started > 6.0,
                                   env=env, settle=0.0)  # fmt: skip
    assert done.returncode == 130, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "interrupted" in done.stderr.strip().splitlines()[-1], done.stderr


@pytest.mark.parametrize("extra", [["--pairs", str(2**70)], ["--pairs", str(2**70), "--sprt", "0,5"], ["--workers", "10000"],
                                   ["--openings", str(10**12)]])
def test_a_count_beyond_the_machine_is_refused_at_once(extra: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from tuning.match import main as match_main

    started = time.time()
    status, _, err = run_main(match_main, ["alphabeta:depth=1", "random", *extra], capsys)
    assert status == 2 and time.time() - started < 60, err
    last = err.strip().splitlines()[-1]
    assert extra[0] in last and "must be an integer from 1 to" in last and "Traceback" not in err


@pytest.mark.parametrize(("options", "message"), [({"workers": 10_000}, "--workers 10000"),
                                                   ({"pairs": 2**70}, f"--pairs {2**70}"),
                                                   ({"incumbent_pairs": 0}, "--incumbent-pairs 0"),
                                                   ({"incumbent_sprt": (5.0, 0.0)}, "--incumbent-sprt 5,0")])
def test_the_tuner_bounds_its_counts_too(options, message) -> None:
    from tuning.run import TuneConfig

    with pytest.raises(ValueError, match=re.escape(message)):
        TuneConfig(**options)


def test_the_eta_comes_from_the_trials_cost_not_the_planned_games() -> None:
    from tuning.progress import Progress

    now = [0.0]
    bar = Progress(total=60 * 160, enabled=False, trials=60, tail=2000, clock=lambda: now[0])
    assert bar.eta() is None and "ETA after 3 trials" in bar.status()  # nothing measured yet: no time promised
    for seconds, games in ((2.0, 20), (2.0, 20), (8.0, 160)):  # two pruned trials, one played in full
        now[0] += seconds
        bar.advance(games)
        bar.trial_done()
    # 57 trials left at the mean 4 s each, then 2000 games at the 200 games / 12 s observed
    assert bar.eta() == pytest.approx(57 * 4.0 + 2000 / (200 / 12.0))
    assert bar.status().startswith("trials 3/60, 16.7 games/s, ETA 0:05:48")


def test_quick_fills_its_preset_only_where_no_option_was_given() -> None:
    from tuning.config import QUICK
    from tuning.run import _parser, config_from_args

    config = config_from_args(_parser().parse_args(["--quick", "--trials", "9"]))
    assert config.quick and config.trials == 9  # given: kept
    assert (config.pairs, config.confirm_pairs, config.incumbent_pairs, config.label_budget) == (
        QUICK["pairs"], QUICK["confirm_pairs"], QUICK["incumbent_pairs"], 0.0)  # the rest: the preset
    plain = config_from_args(_parser().parse_args([]))
    assert not plain.quick and plain.trials == 60 and plain.pairs == 80


def test_a_quick_look_plays_the_whole_pipeline_and_says_what_it_cannot_show(tmp_path: Path) -> None:
    run = tuner(tmp_path, "--quick", "--game", "connect4", "--rows", "4", "--cols", "5", "--trials", "2")
    assert run.returncode in (0, EXIT_NO_IMPROVEMENT), run.stderr
    summary = (tmp_path / "runs" / "connect4-4x5x4-square_values-fair-quick" / "summary.md").read_text()
    assert "## A quick look, not a tuning run" in summary and "What it cannot show: a real improvement" in summary
    assert "the strongest of the 7 opponents" in run.stdout  # the verdict leads with the strongest member
    assert "the `square_values` defaults" in summary  # no tuned file ships for 4x5: the defaults are the incumbent
    if run.returncode == EXIT_NO_IMPROVEMENT:
        assert "This was a quick look (--quick)" in run.stdout


def test_a_pruned_trial_shows_its_estimate_not_its_last_pair() -> None:
    from tuning._report import trial_rows

    study = optuna.create_study(direction="maximize")
    trial = study.ask()
    for step, score in enumerate((0.75, 1.0, 0.5, 1.0)):  # the last pair was a double win
        trial.report(score, step)
    trial.set_user_attr("score", 0.8125)  # what record() keeps: the mean over the pairs played
    trial.set_user_attr("elo", 117.0)
    study.tell(trial, state=optuna.trial.TrialState.PRUNED)
    assert study.trials[0].value == 1.0  # Optuna keeps the last report as a pruned trial's value
    (row,) = trial_rows(study)
    assert row["state"] == "PRUNED" and row["score"] == 0.8125 and row["elo"] == 117.0


def test_the_bar_plans_for_the_trials_the_timeout_leaves_room_for() -> None:
    from tuning.progress import Progress

    now = [0.0]
    bar = Progress(total=60 * 160, enabled=False, trials=60, tail=600, clock=lambda: now[0], timeout=100.0)
    for _ in range(3):  # three trials of 10 s and 20 games each
        now[0] += 10.0
        bar.advance(20)
        bar.trial_done()
    # 70 s left at 10 s a trial: room for 7 trials, not 57; then 600 games at 60 games / 30 s
    assert bar.trials_left() == 7
    assert bar.eta() == pytest.approx(7 * 10.0 + 600 / 2.0)
    assert "trials 3/60 (--timeout leaves room for 10)" in bar.status()
    now[0] = 200.0  # past the timeout: nothing left to start
    assert bar.trials_left() == 0


def test_the_margin_over_the_strongest_opponent_leads_the_verdict() -> None:
    from types import SimpleNamespace

    from tuning._confirm import Confirmation, Versus
    from tuning.run import _margins

    weak = Versus("square_values", (20, 0, 0), (0, 0, 0, 0, 10))
    strong = Versus("threats", (9, 2, 9), (1, 2, 4, 2, 1))
    pool = Versus("pool", (29, 2, 9), (1, 2, 4, 2, 11))
    best = Confirmation(SimpleNamespace(number=4), None, pool, (weak, strong))  # type: ignore[arg-type]
    text = _margins(SimpleNamespace(opponents=("a", "b")), best)  # type: ignore[arg-type]
    assert text.startswith("Elo +0.0 [") and "over threats, the strongest of the 2 opponents" in text
    assert text.index("threats") < text.index("over all 2 together")


def test_the_defaults_are_the_incumbent_where_no_tuned_file_ships() -> None:
    from search.budget import Limit
    from tuning._incumbent import find_incumbent
    from tuning.space import SearchSpace

    big = __import__("games").make_game("connect4", 7, 8, 4)
    space = SearchSpace.build(big, "threats", default_depth=8)
    incumbent = find_incumbent(None, big, "threats", space, Limit(depth=8, nodes=1000), None)
    assert incumbent is not None and incumbent.path is None and incumbent.name == "the threats defaults"
    assert incumbent.point == space.defaults()
    assert find_incumbent(None, big, "threats", space, Limit(depth=8, nodes=1000), None, defaults=False) is None
    shipped = find_incumbent(None, CONNECT4, "threats", SearchSpace.build(CONNECT4, "threats", default_depth=8),
                             Limit(depth=8, nodes=1000), None)  # fmt: skip
    assert shipped is not None and shipped.name == "weights/connect4-threats-tuned.json"
    forced = find_incumbent("defaults", CONNECT4, "threats", SearchSpace.build(CONNECT4, "threats", default_depth=8),
                            Limit(depth=8, nodes=1000), None)  # fmt: skip
    assert forced is not None and forced.path is None


def test_the_default_sampler_starts_from_the_fit_and_its_last_theta_and_the_fit_are_both_confirmed(tmp_path: Path) -> None:
    from tuning.run import TuneConfig

    assert TuneConfig().sampler_name == "spsa" and TuneConfig(mode="pareto").sampler_name == "nsga2"
    board = ["--game", "connect4", "--rows", "4", "--cols", "5", "--heuristic", "windows", "--label-budget", "5"]
    run = tuner(tmp_path, *board, "--sampler", "spsa", "--trials", "3", "--baseline", "random", "--study", "s",
                "--out", "t.json")  # fmt: skip
    assert run.returncode in (0, EXIT_NO_IMPROVEMENT), run.stderr
    done = trials(tmp_path, "s")
    final = [t.number for t in done if t.user_attrs.get("spsa") == "final"]
    fit = [t.number for t in done if t.user_attrs.get("start") == "texel fit"]
    assert len(final) == 1 and len(fit) == 1 and len(done) == 5  # three iterations, the last theta, the fit
    confirmed = (tmp_path / "runs" / "s" / "confirmation.csv").read_text()
    assert all(f"\n{n}," in confirmed for n in final + fit)
