"""Every script's bad arguments: a one-line usage error naming the value and exit code 2, before any work."""

from __future__ import annotations

import importlib
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent

BAD = [
    ("bench_compile", "--timeout", "0"),
    ("bench_envs", "--seconds", "0"),
    ("bench_envs", "--seconds", "-1"),
    ("bench_envs", "--seconds", "nan"),
    ("bench_envs", "--seconds", "inf"),
    ("bench_envs", "--rounds", "0"),
    ("bench_envs", "--num-envs", "0"),
    ("bench_envs", "--seed", "-1"),
    ("bench_games", "--seconds", "0"),
    ("bench_games", "--seconds", "nan"),
    ("bench_games", "--seed", "-3"),
    ("bench_heuristics", "--positions", "0"),
    ("bench_heuristics", "--seconds", "-inf"),
    ("bench_search", "--depth", "0"),
    ("bench_search", "--depth", "43"),
    ("bench_search", "--easyai-depth", "-2"),
    ("bench_search", "--easyai-deep", "-1"),
    ("bench_search", "--repeats", "0"),
    ("bench_search", "--node-depths", "6,x"),
    ("bench_search", "--node-depths", "0,6"),
    ("bench_solve", "--limit", "0"),
    ("bench_solve", "--limit", "-1"),
    ("bench_solve", "--tt-size", "0"),
    ("bench_solve", "--tt-size", "3.5"),
    ("bench_tuning", "--workers", "0"),
    ("bench_tuning", "--seconds", "nan"),
    ("bench_tuning", "--seconds", "0"),
    ("reproduce_paper", "--games", "1"),
    ("reproduce_paper", "--games", "-4"),
    ("reproduce_paper", "--perfect-games", "0"),
    ("reproduce_paper", "--workers", "0"),
    ("reproduce_paper", "--seed", "-1"),
    ("reproduce_paper", "--random-every", "-1"),
    ("reproduce_paper", "--plies", "0"),
    ("reproduce_paper", "--plies", "13"),
    ("reproduce_paper", "--depths", "2,x"),
    ("reproduce_paper", "--depths", "0"),
    ("reproduce_paper", "--figure-games", "0"),
    ("reproduce_paper", "--perfect-depth", "0"),
    ("reproduce_paper", "--perfect-plies", "7"),
    ("train_maskable_ppo", "--n-envs", "0"),
    ("train_maskable_ppo", "--random-steps", "-1"),
    ("train_maskable_ppo", "--alphabeta-steps", "-5"),
    ("train_maskable_ppo", "--eval-games", "0"),
    ("train_maskable_ppo", "--seed", "-1"),
    ("compare_samplers", "--seeds", "0"),
    ("compare_samplers", "--trials", "-1"),
    ("compare_samplers", "--confirm-pairs", "0"),
    ("compare_samplers", "--first-seed", "-1"),
]


SCRIPTS = sorted(p.stem for p in (ROOT / "scripts").glob("[a-z]*.py"))


HELP_EACH = """
import contextlib, io, json, runpy, sys, traceback
found = {}
for name in json.loads(sys.stdin.read()):
    out, err, status = io.StringIO(), io.StringIO(), None
    sys.argv = [name, "--help"]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            runpy.run_module(f"scripts.{name}", run_name="__main__", alter_sys=True)  # as python -m scripts.<name>
        except SystemExit as stop:
            status = stop.code
        except BaseException:
            traceback.print_exc()
            status = "raised"
    found[name] = [status, out.getvalue(), err.getvalue()]
print(json.dumps(found))
"""


@pytest.fixture(scope="module")
def helps() -> dict[str, list[object]]:
    """``name: [exit status, stdout, stderr]`` of every script's ``--help`` as ``__main__``, in one process started
    from the repository root without PYTHONPATH (one interpreter's start-up and imports, not one per script)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run([sys.executable, "-c", HELP_EACH], input=json.dumps(SCRIPTS), capture_output=True, text=True,
                            env=env, cwd=ROOT, timeout=300)  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    found: dict[str, list[object]] = json.loads(result.stdout.splitlines()[-1])
    return found


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_script_runs_as_a_module_without_pythonpath(name: str, helps: dict[str, list[object]]) -> None:
    status, out, err = helps[name]
    assert status == 0, str(err)[-2000:]
    assert str(out).startswith("usage: ") and "Traceback" not in str(err)
    assert inspect.signature(script(name).main).parameters["argv"].default is None


def script(name: str) -> ModuleType:
    """A script's module, ``scripts.<name>`` (what ``python -m scripts.<name>`` runs)."""
    return importlib.import_module(f"scripts.{name}")


def usage_error(name: str, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``main(argv)``, assert it exits with code 2, and return its one-line error."""
    with pytest.raises(SystemExit) as exit_info:
        script(name).main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if "error:" in line]
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize("name, flag, value", BAD, ids=[f"{n} {f} {v}" for n, f, v in BAD])
def test_bad_value_is_a_usage_error_naming_it(name: str, flag: str, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = (["table9"] if name == "reproduce_paper" else []) + [f"{flag}={value}"]
    assert f"argument {flag}: '{value}'" in usage_error(name, argv, capsys)


@pytest.mark.parametrize("name", ["reproduce_paper", "train_maskable_ppo"])
def test_unwritable_output_is_refused_before_any_work(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    flag, target = ("--out", blocker / "results") if name == "reproduce_paper" else ("--save", blocker / "model.zip")
    argv = (["all"] if name == "reproduce_paper" else []) + [flag, str(target)]
    message = usage_error(name, argv, capsys)
    assert f"argument {flag}: '{target}' cannot be created: {blocker} is not a folder" in message
    assert blocker.read_text() == "not a folder\n"


def test_save_into_an_existing_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "model.zip").mkdir()
    message = usage_error("train_maskable_ppo", ["--save", str(tmp_path / "model")], capsys)
    assert f"'{tmp_path / 'model.zip'}' is a folder" in message  # SB3 appends .zip: the check is on the real file


def test_the_shared_types_accept_what_they_should() -> None:
    from scripts._args import int_list, int_range, positive_float, writable_dir, writable_file

    assert positive_float("1e-3") == 0.001 and int_range(2, 5)("5") == 5 and int_range(0)("0") == 0
    assert int_list(1, 12)("8,2,4,2") == (2, 4, 8)
    assert writable_dir(str(ROOT / "runs" / "not" / "yet")) == ROOT / "runs" / "not" / "yet"
    assert writable_file("model") == Path.cwd() / "model"
    assert not (ROOT / "runs" / "not").exists()  # checking creates nothing


def test_tiny_training_run_saves_a_loadable_model_atomically(tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO

    target = tmp_path / "new" / "model"  # no suffix: saved as model.zip, as SB3 names it; the folder is created
    argv = ["--random-steps", "0", "--alphabeta-steps", "0", "--eval-games", "1", "--n-envs", "1", "--save", str(target)]
    assert script("train_maskable_ppo").main(argv) == 0
    assert sorted(p.name for p in target.parent.iterdir()) == ["model.zip"]  # no temporary file left behind
    umask = os.umask(0)
    os.umask(umask)
    assert (target.parent / "model.zip").stat().st_mode & 0o777 == 0o666 & ~umask  # not mkstemp's 0600
    model = MaskablePPO.load(target.parent / "model.zip", device="cpu")
    assert model.observation_space.shape == (2, 6, 7)


def test_tuned_transfer_plays_every_budget_against_every_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    tuned = ROOT / "weights" / "connect4-c4_features-tuned.json"
    argv = ["--pairs", "1", "--budgets", "50,3ms", "--files", str(tuned), "--workers", "1", "--out", str(tmp_path)]
    assert script("tuned_transfer").main(argv) == 0
    rows = json.loads((tmp_path / "transfer.json").read_text())
    assert [r["budget"] for r in rows] == ["nodes=50", "time_ms=3"]
    assert all(len(r["members"]) == r["pairs"] >= 4 for r in rows)  # one pair per default evaluator
    assert "connect4-c4_features-tuned.json (c4_features)" in capsys.readouterr().out


def test_tuned_transfer_refuses_a_bad_budget(capsys: pytest.CaptureFixture[str]) -> None:
    assert "'fast' is neither a node count" in usage_error("tuned_transfer", ["--budgets", "1000,fast"], capsys)


def test_run_interruptible_turns_ctrl_c_into_one_line_and_130(capsys: pytest.CaptureFixture[str]) -> None:
    from scripts._args import run_interruptible

    def interrupted(argv: object) -> int:
        print("partial output")
        raise KeyboardInterrupt

    assert run_interruptible("scripts.demo", lambda argv: len(argv or []), ["a", "b"]) == 2  # the main's own code
    assert run_interruptible("scripts.demo", interrupted, None) == 130
    out, err = capsys.readouterr()
    assert (out, err) == ("partial output\n", "scripts.demo: interrupted\n")
