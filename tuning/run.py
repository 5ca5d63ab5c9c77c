"""``python -m tuning.run``: tune a heuristic's weights, q and depth by self-play, confirm, export.

An Optuna study whose trials are candidate configurations playing paired
games (each opening twice, colours swapped) against a baseline:

1. **Search.**  The space is every weight of the heuristic within its
   registered bounds plus ``branching`` (q) and ``depth`` (``--tune``).  The
   paper's defaults are the first trial.  By default both sides get the same
   node budget per move (``--nodes``), so depth and q trade off inside it
   instead of "deeper always wins"; ``--mode pareto`` instead maximises the
   score and minimises nodes per move (two objectives, no budget).  Each
   trial reports after every pair, so the pruner stops hopeless trials.
2. **Confirmation.**  The best trials of the search were selected on noisy
   results and look better than they are (the winner's curse).  The top
   ``--confirm-top`` are replayed with fresh games on held-out openings the
   search never saw; the best confirmed one is exported only if the 95%
   lower bound of its confirmation Elo is above 0.  Otherwise the run says
   so, keeps the candidate in the run directory, and exits with code 3.
3. **Output.**  The weight file (``--out``, provenance included), and a run
   directory with the openings, ``trials.csv``, ``confirmation.csv``,
   ``summary.md`` and PNG plots.

The study lives in an Optuna storage (``sqlite:///runs/tuning.db`` by
default).  ``--trials N`` is the study's target: a run plays trials until
the study holds N finished (complete or pruned) trials, its own and those
of earlier runs and other workers, so re-running the same command after a
kill finishes the job instead of doubling it.  Several processes or
machines running the same command against one storage (a PostgreSQL URL
across machines) share the study.  A run killed mid-trial loses nothing: the
storage commits trial by trial, a dead process's RUNNING trial is failed
(at once on the same host, by the heartbeat elsewhere) and queued again,
confirmations already played are stored in the study and reused, and files
are written atomically.  See :mod:`tuning._study`.

Exit codes: 0 a confirmed improvement was exported; 3 none was found; 2 bad input; 130 interrupted.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import re
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Optional, Sequence

import optuna
from optuna.exceptions import ExperimentalWarning
from optuna.trial import FrozenTrial, TrialState

from games import KInARow, make_game
from games.errors import GameError
from heuristics import get_spec, load_weights, save_weights
from heuristics.errors import HeuristicError
from search.agents import AgentSpecError, default_heuristic, make_agent
from tuning._study import claim, create_or_load, finished, open_storage, recover, redact, sampler_seed, stop_at
from tuning.match import MatchResult, MatchRunner
from tuning.openings import OpeningBook, make_openings, write_text_atomic
from tuning.samplers import SAMPLERS, make_sampler
from tuning.space import TUNABLE, Candidate, SearchSpace, parse_bounds
from tuning.stats import Estimate, pentanomial

EXIT_NO_IMPROVEMENT = 3
"""Exit code when no candidate confirms a significant improvement."""
EXIT_INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT), as shells report it."""
PRUNERS = ("wilcoxon", "median", "none")


@dataclass(frozen=True)
class Setup:
    """Everything the run needs, checked before any game is played."""

    args: argparse.Namespace
    game: KInARow
    space: SearchSpace
    baseline: str
    book: OpeningBook
    run_dir: Path
    out: Path
    storage_url: str
    storage: optuna.storages.BaseStorage


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m tuning.run",
        description="Tune a heuristic's weights, branching factor and depth by self-play against a baseline "
        "(an Optuna study), confirm the best on held-out openings, and export a weight file.",
    )
    g = p.add_argument_group("game and heuristic")
    g.add_argument("--game", default="connect4", choices=("connect4", "mnk"))
    g.add_argument("--rows", type=int)
    g.add_argument("--cols", type=int)
    g.add_argument("--k", type=int)
    g.add_argument("--heuristic", help="evaluator to tune (default: c4_features for k=4 Connect-4, windows otherwise)")
    g.add_argument("--baseline", help="weight file or agent spec to beat (default: the heuristic's default weights, "
                   "searching to the node budget in fair mode, to depth 4 in pareto mode)")
    s = p.add_argument_group("search space and cost")
    s.add_argument("--tune", default=",".join(TUNABLE), help="what to tune: any of weights,branching,depth (default all)")
    s.add_argument("--mode", default="fair", choices=("fair", "pareto"),
                   help="fair: same node budget for both sides (default); pareto: score vs nodes per move")
    s.add_argument("--nodes", type=int, default=1000, help="node budget per move in fair mode (default 1000)")
    s.add_argument("--depth-range", default="1,8", help="depth range searched, 'low,high' (default 1,8)")
    s.add_argument("--bounds", help="narrower bounds, 'name=low:high,...' (weights, depth, branching)")
    s.add_argument("--random-every", type=int, help="both sides play a random move every N-th move (diversity)")
    s.add_argument("--radius", type=int, help="m,n,k: both sides consider only cells within this distance of a stone")
    t = p.add_argument_group("study")
    t.add_argument("--trials", type=int, default=100,
                   help="the study's target: run trials until the study holds this many finished (complete or pruned) "
                   "trials, counting earlier runs and other workers on it (default 100)")
    t.add_argument("--timeout", type=float, help="stop starting new trials after this many seconds")
    t.add_argument("--pairs", type=int, default=150, help="game pairs per trial, at most (default 150)")
    t.add_argument("--sampler", default=None, choices=SAMPLERS, help="default tpe (nsga2 in pareto mode)")
    t.add_argument("--pruner", default="wilcoxon", choices=PRUNERS, help="default wilcoxon (none in pareto mode)")
    t.add_argument("--storage", default="sqlite:///runs/tuning.db", help="Optuna storage URL")
    t.add_argument("--study", help="study name (default <game>-<heuristic>-<mode>); the same name resumes")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    c = p.add_argument_group("openings and confirmation")
    c.add_argument("--plies", type=int, default=4, help="random plies per opening (default 4)")
    c.add_argument("--confirm-top", type=int, default=3, help="best trials replayed on held-out openings (default 3)")
    c.add_argument("--confirm-pairs", type=int, default=350, help="pairs per confirmation (default 350)")
    o = p.add_argument_group("output")
    o.add_argument("--out", help="weight file to export (default <run-dir>/<game>-<heuristic>-tuned.json; "
                   "copy it into weights/ to ship it)")
    o.add_argument("--run-dir", help="folder for openings, tables, plots (default runs/<study>)")
    o.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def game_tag(game: KInARow) -> str:
    """``connect4``, ``tictactoe``, ``gomoku`` for the presets, else e.g. ``mnk-9x9x5``."""
    presets = {("connect4", 6, 7, 4): "connect4", ("mnk", 3, 3, 3): "tictactoe", ("mnk", 15, 15, 5): "gomoku"}
    return presets.get((game.kind, game.rows, game.cols, game.k), f"{game.kind}-{game.rows}x{game.cols}x{game.k}")


def _int_pair(text: str, name: str) -> tuple[int, int]:
    try:
        low, high = (int(x) for x in text.split(","))
    except ValueError:
        raise ValueError(f"{name} {text!r} must be two integers 'low,high'") from None
    if not 1 <= low < high:
        raise ValueError(f"{name} {text!r} must satisfy 1 <= low < high")
    return low, high


def _check_positive(args: argparse.Namespace) -> None:
    for name in ("trials", "pairs", "nodes", "confirm_pairs", "plies", "workers", "random_every", "timeout", "radius"):
        value = getattr(args, name)
        low = 0 if name == "plies" else 1
        if value is not None and value < low:
            raise ValueError(f"--{name.replace('_', '-')} {value} must be at least {low}")
    if args.confirm_top < 1:
        raise ValueError(f"--confirm-top {args.confirm_top} must be at least 1")


def _baseline(args: argparse.Namespace, game: KInARow, heuristic: str, max_depth: int) -> tuple[str, int, Optional[int]]:
    """(baseline agent spec, its depth, its q): the start point of the search takes the baseline's settings.

    The default baseline is the heuristic's default weights.  In fair mode it
    searches every move until the node budget is spent (its depth is only
    capped by the top of the depth range), so the budget binds both sides and
    a candidate cannot win by simply spending more nodes; in pareto mode it
    searches to depth 4, the paper's depth.
    """
    nodes = args.nodes if args.mode == "fair" else None
    if args.baseline is None:
        defaults = get_spec(heuristic).defaults
        depth = max_depth if args.mode == "fair" else 4
        return Candidate(heuristic, defaults, depth, None, nodes, args.random_every, args.radius).spec(), depth, None
    if args.baseline.endswith(".json") or Path(args.baseline).is_file():
        loaded = load_weights(args.baseline, game)
        depth = loaded.search.depth or 4
        spec = Candidate(loaded.heuristic, loaded.weights, depth, loaded.search.branching, nodes, args.random_every,
                         args.radius).spec()  # fmt: skip
        return spec, depth, loaded.search.branching
    make_agent(args.baseline, game)  # a bad spec fails here with the valid names and keys
    return args.baseline, 4, None


def _check_writable(path: Path) -> None:
    """Fail now, not after an hour of games, if ``path`` cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=path.parent)
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        raise ValueError(f"cannot write {path}: {error.strerror or error}") from None
    if path.is_dir():
        raise ValueError(f"cannot write {path}: it is a folder")


def prepare(args: argparse.Namespace) -> Setup:
    """Check every argument and build the run's pieces; raises ValueError with a one-line message."""
    _check_positive(args)
    game = make_game(args.game, args.rows, args.cols, args.k)
    heuristic = args.heuristic or default_heuristic(game)
    get_spec(heuristic)  # unknown heuristic: the registry's error lists the known ones
    tune = tuple(filter(None, (x.strip() for x in args.tune.split(","))))
    depth_range = _int_pair(args.depth_range, "--depth-range")
    baseline, depth, branching = _baseline(args, game, heuristic, depth_range[1])
    space = SearchSpace.build(game, heuristic, tune, depth_range,
                              bounds=parse_bounds(args.bounds), default_depth=depth, default_branching=branching)  # fmt: skip
    study = args.study or f"{game_tag(game)}-{heuristic}-{args.mode}"
    if not re.fullmatch(r"[A-Za-z0-9_.\-]+", study):
        raise ValueError(f"--study {study!r}: use letters, digits, '.', '_' and '-' only (it names the run folder)")
    args.study = study
    run_dir = Path(args.run_dir or Path("runs") / study)
    # never into weights/ by default: a first run must not overwrite the shipped, tracked files
    out = Path(args.out or run_dir / f"{game_tag(game)}-{heuristic}-tuned.json")
    for path in (out, run_dir / "summary.md"):
        _check_writable(path)
    nodes = args.nodes if args.mode == "fair" else None
    make_agent(space.candidate(space.defaults(), nodes, args.random_every, args.radius).spec(), game)  # budgets
    storage = open_storage(args.storage)
    storage.get_all_studies()  # reachable? (before any file is written or game played)
    return Setup(args, game, space, baseline, _book(args, game, run_dir), run_dir, out, args.storage, storage)


def _book(args: argparse.Namespace, game: KInARow, run_dir: Path) -> OpeningBook:
    """The run's openings: loaded from the run folder when it has them (a resumed run), else drawn from the seed."""
    book_path = run_dir / "openings.json"
    if book_path.exists():
        book = OpeningBook.load(book_path)
        if book.game != game or len(book.tuning) < args.pairs or len(book.heldout) < args.confirm_pairs:
            raise ValueError(f"{book_path} holds openings for {book.game} ({len(book.tuning)} tuning, "
                             f"{len(book.heldout)} held out); this run needs {game} with {args.pairs} and "
                             f"{args.confirm_pairs}: use another --study or --run-dir")  # fmt: skip
        return book
    total = args.pairs + args.confirm_pairs
    say(f"drawing {total} openings of {args.plies} plies, each checked by a depth-4 search "
        "(a first run also compiles the search kernels: about a minute, cached after that) ...")  # fmt: skip
    started = time.perf_counter()
    book = make_openings(game, total, args.plies, args.seed, heldout=args.confirm_pairs / total)
    say(f"openings ready in {time.perf_counter() - started:.0f} s")
    return book


def say(message: str) -> None:
    """A progress line on stderr (stdout keeps the results)."""
    print(f"tuning.run: {message}", file=sys.stderr, flush=True)


def _study_attrs(setup: Setup) -> dict[str, Any]:
    a = setup.args
    g = setup.game
    return {"game": f"{g.kind} {g.rows}x{g.cols} k={g.k}", "heuristic": setup.space.heuristic, "mode": a.mode,
            "baseline": setup.baseline, "nodes": a.nodes if a.mode == "fair" else None, "params": list(setup.space.names),
            "seed": a.seed}  # fmt: skip


def open_study(setup: Setup, storage: optuna.storages.BaseStorage) -> tuple[optuna.Study, bool]:
    """``(study, created)``: create the study or resume it, refusing to mix runs of different settings.

    Only the process that creates the study queues the paper's defaults and
    seeds its sampler with ``--seed``; one that resumes or joins a study gets
    a fresh seed (see :func:`tuning._study.sampler_seed`), so it proposes new
    configurations instead of replaying the first run's.
    """
    args = setup.args
    up, down = optuna.study.StudyDirection.MAXIMIZE, optuna.study.StudyDirection.MINIMIZE
    directions = [up] if args.mode == "fair" else [up, down]
    sampler_name = args.sampler or ("tpe" if args.mode == "fair" else "nsga2")
    pruner_name = args.pruner if args.mode == "fair" else "none"
    pruner: optuna.pruners.BasePruner = {
        "wilcoxon": lambda: optuna.pruners.WilcoxonPruner(p_threshold=0.1, n_startup_steps=max(2, args.pairs // 4)),
        "median": lambda: optuna.pruners.MedianPruner(n_startup_trials=3, n_warmup_steps=max(2, args.pairs // 4)),
        "none": optuna.pruners.NopPruner,
    }[pruner_name]()
    study, created = create_or_load(storage, args.study, directions, pruner)
    if list(study.directions) != directions:
        raise ValueError(f"study {args.study!r} was created with other settings (mode); use another --study")
    attrs = _study_attrs(setup)
    if created:
        for key, value in attrs.items():
            study.set_user_attr(key, value)
        study.enqueue_trial(setup.space.defaults(), user_attrs={"start": "paper defaults"})
    else:
        old = study.user_attrs
        changed = [k for k, v in attrs.items() if k in old and old[k] != v and k != "seed"]
        if changed:
            what = ", ".join(f"{k}: {old.get(k)!r} then, {attrs[k]!r} now" for k in changed)
            raise ValueError(f"study {args.study!r} was created with other settings ({what}); use another --study")
    seed = sampler_seed(args.seed, created, len(study.trials))
    study.sampler = make_sampler(sampler_name, seed, setup.space.defaults(), len(directions))
    return study, created


class Progress:
    """A tqdm bar over games with games/s and ETA; a no-op without tqdm or with ``--no-progress``."""

    def __init__(self, total: int, enabled: bool) -> None:
        self._bar: Any = None
        self.games = 0
        self.started = time.perf_counter()
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                return
            self._bar = tqdm(total=total, unit="game", dynamic_ncols=True, file=sys.stderr)

    def advance(self, games: int, note: str = "") -> None:
        """Count finished games."""
        self.games += games
        if self._bar is not None:
            self._bar.update(games)
            if note:
                self._bar.set_postfix_str(note, refresh=False)

    def shrink(self, games: int) -> None:
        """Take ``games`` that will not be played (a pruned trial's rest) off the total, so the bar ends at 100%."""
        if self._bar is not None and games > 0:
            self._bar.total = max(self._bar.n, self._bar.total - games)
            self._bar.refresh()

    def replan(self, games: int) -> None:
        """From now on, ``games`` more are expected."""
        if self._bar is not None:
            self._bar.total = self._bar.n + games
            self._bar.refresh()

    def close(self) -> None:
        """Finish the bar at what was played (a timeout or an early stop is not shown as a stall)."""
        if self._bar is not None:
            self._bar.total = self._bar.n
            self._bar.refresh()
            self._bar.close()

    @property
    def rate(self) -> float:
        """Games per second so far."""
        return self.games / max(time.perf_counter() - self.started, 1e-9)


def make_objective(setup: Setup, study: optuna.Study, runner: MatchRunner, progress: Progress) -> Any:
    """The Optuna objective: play the trial's candidate against the baseline on the tuning openings."""
    args = setup.args
    nodes = args.nodes if args.mode == "fair" else None
    prune = args.mode == "fair" and args.pruner != "none"
    per_pair = args.pruner == "wilcoxon"

    def objective(trial: optuna.Trial) -> Any:
        claim(study, trial)  # so a resume can tell this trial's process is dead
        candidate = setup.space.candidate(setup.space.suggest(trial), nodes, args.random_every, args.radius)
        trial.set_user_attr("spec", candidate.spec())
        pruned = False

        def on_pair(result: MatchResult) -> bool:
            nonlocal pruned
            progress.advance(2, f"trial {trial.number}")
            if not prune:
                return False
            step = len(result.pairs) - 1
            # Wilcoxon compares trials opening by opening; the median pruner compares running means.
            trial.report(result.pairs[-1].total / 2 if per_pair else result.score, step)
            pruned = trial.should_prune()
            return pruned

        result = runner.match(setup.game, candidate.spec(), setup.baseline, setup.book.tuning[: args.pairs],
                              args.pairs, args.seed, on_pair=on_pair)  # fmt: skip
        _record(trial, result)
        if pruned:
            progress.shrink(2 * (args.pairs - len(result.pairs)))
            raise optuna.TrialPruned(f"pruned after {len(result.pairs)} pairs")
        if args.mode == "pareto":
            return result.score, result.nodes_per_move(0)
        return result.score

    return objective


def _record(trial: optuna.Trial, result: MatchResult) -> None:
    estimate = result.estimate()
    trial.set_user_attr("pairs", len(result.pairs))
    trial.set_user_attr("games", result.games)
    trial.set_user_attr("pentanomial", result.pentanomial)
    trial.set_user_attr("elo", _finite(estimate.elo))
    trial.set_user_attr("nodes_per_move", round(result.nodes_per_move(0), 1))


def _finite(x: float) -> Optional[float]:
    return round(x, 2) if math.isfinite(x) else None


@dataclass(frozen=True)
class Confirmation:
    """A top trial replayed on the held-out openings: W/D/L and pentanomial counts of the candidate."""

    trial: FrozenTrial
    candidate: Candidate
    wdl: tuple[int, int, int]
    pentanomial: tuple[int, ...]

    @property
    def estimate(self) -> Estimate:
        """Elo over the baseline from the pair counts, with its 95% interval."""
        return pentanomial(list(self.pentanomial))


def top_trials(study: optuna.Study, count: int) -> list[FrozenTrial]:
    """The best completed trials, distinct configurations only (fair: by score; pareto: the front by score)."""
    complete = [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)) if t.values]
    if len(study.directions) > 1:
        complete = list(study.best_trials)
    ranked = sorted(complete, key=lambda t: (-t.values[0], t.number))
    chosen: list[FrozenTrial] = []
    seen: set[str] = set()
    for trial in ranked:
        key = json.dumps(trial.params, sort_keys=True)
        if key not in seen:
            seen.add(key)
            chosen.append(trial)
        if len(chosen) == count:
            break
    return chosen


CONFIRMATION_SEED_OFFSET = 1_000_003
"""Confirmation games use ``--seed`` plus this: fresh games, not replays of the search's."""


def confirm(setup: Setup, study: optuna.Study, runner: MatchRunner, progress: Progress) -> list[Confirmation]:
    """Replay the top trials with fresh games (a new seed) on the held-out openings.

    Each finished confirmation is stored in the study (a user attribute keyed
    by trial, with its seed, pair count and spec), so a run killed during
    confirmation, or a second worker, reuses it instead of replaying it.
    """
    args = setup.args
    nodes = args.nodes if args.mode == "fair" else None
    seed = args.seed + CONFIRMATION_SEED_OFFSET
    confirmations = []
    for trial in top_trials(study, args.confirm_top):
        candidate = setup.space.candidate(trial.params, nodes, args.random_every, args.radius)
        key = f"confirmation:{trial.number}"
        settings = {"seed": seed, "pairs": args.confirm_pairs, "spec": candidate.spec()}
        stored = study.user_attrs.get(key)
        if isinstance(stored, dict) and all(stored.get(k) == v for k, v in settings.items()):
            progress.shrink(2 * args.confirm_pairs)
            confirmations.append(Confirmation(trial, candidate, tuple(stored["wdl"]), tuple(stored["pentanomial"])))
            continue
        note = f"confirming trial {trial.number}"

        def on_pair(result: MatchResult) -> bool:
            progress.advance(2, note)
            return False

        result = runner.match(setup.game, candidate.spec(), setup.baseline, setup.book.heldout, args.confirm_pairs,
                              seed=seed, on_pair=on_pair)  # fmt: skip
        study.set_user_attr(key, {**settings, "wdl": list(result.wdl), "pentanomial": result.pentanomial})
        confirmations.append(Confirmation(trial, candidate, result.wdl, tuple(result.pentanomial)))
    return confirmations


def package_version() -> str:
    """The installed ``alphabeta-gym`` version, or ``unknown`` when run from a bare checkout."""
    try:
        return version("alphabeta-gym")
    except PackageNotFoundError:
        return "unknown"


def export(setup: Setup, study: optuna.Study, best: Confirmation, path: Path) -> Path:
    """Write the confirmed candidate as a weight file with its provenance (atomically)."""
    e = best.estimate
    total_games = sum(int(t.user_attrs.get("games", 0)) for t in study.get_trials(deepcopy=False))
    provenance = {
        "tool": "python -m tuning.run", "study": setup.args.study, "storage": redact(setup.storage_url),
        "trial": best.trial.number, "games": total_games, "baseline": setup.baseline, "mode": setup.args.mode,
        "confirmation": {"elo": _finite(e.elo), "elo_low": _finite(e.elo_low), "elo_high": _finite(e.elo_high),
                         "los": round(e.los, 4), "pairs": e.n, "games": e.games, "openings": "held-out"},
        "seed": setup.args.seed, "package_version": package_version(),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }  # fmt: skip
    return save_weights(best.candidate.weight_file(setup.game, provenance), path)


def _csv_text(rows: list[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    if rows:
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return buffer.getvalue()


def trial_rows(study: optuna.Study) -> list[dict[str, Any]]:
    """One dict per trial: number, state, values, games, Elo, nodes/move, parameters."""
    names = sorted({n for t in study.trials for n in t.params})
    rows = []
    for t in study.trials:
        row: dict[str, Any] = {"number": t.number, "state": t.state.name}
        for i, v in enumerate(t.values or [None] * len(study.directions)):
            row["score" if i == 0 else "nodes_per_move_objective"] = v
        row.update({k: t.user_attrs.get(k) for k in ("pairs", "games", "elo", "nodes_per_move")})
        row["pentanomial"] = " ".join(map(str, t.user_attrs.get("pentanomial", [])))
        row.update({n: t.params.get(n) for n in names})
        rows.append(row)
    return rows


def write_plots(study: optuna.Study, run_dir: Path) -> list[str]:
    """PNG plots via optuna.visualization.matplotlib; returns notes on plots that could not be drawn."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from optuna.visualization import matplotlib as ovm
    except ImportError:
        return ["no plots: matplotlib is not installed (pip install matplotlib, or the 'tuning' extra)"]
    notes = []
    plots: dict[str, Any] = {}
    if len(study.directions) == 1:
        plots["history.png"] = lambda: ovm.plot_optimization_history(study)
        plots["importances.png"] = lambda: ovm.plot_param_importances(study)
    else:
        plots["pareto_front.png"] = lambda: ovm.plot_pareto_front(study, target_names=["score", "nodes per move"])
        plots["importances.png"] = lambda: ovm.plot_param_importances(study, target=lambda t: t.values[0], target_name="score")
    for name, draw in plots.items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                axes = draw()
            figure = axes.figure if hasattr(axes, "figure") else axes.flat[0].figure
            figure.set_size_inches(8, 5)
            temp = run_dir / f".{name}.tmp.png"
            figure.savefig(temp, dpi=100, bbox_inches="tight")
            os.replace(temp, run_dir / name)
            plt.close(figure)
        except Exception as error:  # e.g. importances need two completed trials with varied parameters
            notes.append(f"no {name}: {str(error).splitlines()[0] if str(error) else type(error).__name__}")
    return notes


def summary_markdown(setup: Setup, study: optuna.Study, confirmations: list[Confirmation], verdict: str,
                     notes: list[str], seconds: float, games: int) -> str:  # fmt: skip
    """The run's ``summary.md``: settings, top trials, confirmations, verdict."""
    a = setup.args
    states = {s.name: sum(t.state == s for t in study.trials) for s in TrialState}
    lines = [
        f"# Tuning run: study `{a.study}`", "",
        f"- game: {setup.game}; heuristic: `{setup.space.heuristic}`; mode: {a.mode}"
        + (f", node budget {a.nodes} per move for both sides" if a.mode == "fair" else ""),
        f"- baseline: `{setup.baseline}`",
        f"- tuned: {', '.join(setup.space.names)}",
        f"- trials in the study: {len(study.trials)} ({', '.join(f'{k.lower()} {v}' for k, v in states.items() if v)})",
        f"- this invocation: {games} games in {seconds:.0f} s ({games / max(seconds, 1e-9):.1f} games/s), seed {a.seed}",
        f"- openings: {len(setup.book.tuning)} for tuning, {len(setup.book.heldout)} held out, {setup.book.plies} plies",
        "", "## Confirmation on held-out openings (fresh games)", "",
        "| trial | search score | confirmation pairs | W/D/L | Elo | 95% interval | LOS |", "|---|---|---|---|---|---|---|",
    ]  # fmt: skip
    for c in confirmations:
        w, d, l = c.wdl
        e = c.estimate
        lines.append(f"| {c.trial.number} | {c.trial.values[0]:.3f} | {e.n} | {w}/{d}/{l} | {e.elo:+.1f} | "
                     f"[{e.elo_low:+.1f}, {e.elo_high:+.1f}] | {e.los:.1%} |")  # fmt: skip
    lines += ["", "## Verdict", "", verdict, ""]
    if notes:
        lines += ["## Notes", ""] + [f"- {n}" for n in notes] + [""]
    lines += ["Browse the study with [optuna-dashboard](https://github.com/optuna/optuna-dashboard) "
              "(`pip install optuna-dashboard`): `optuna-dashboard " + redact(setup.storage_url) + "`", ""]
    return "\n".join(lines)


def print_table(confirmations: list[Confirmation]) -> None:
    """The end-of-run table on stdout."""
    print(f"{'trial':>5} {'search':>7} {'pairs':>5} {'W/D/L':>11} {'Elo':>7} {'95% interval':>18} {'LOS':>6}")
    for c in confirmations:
        e = c.estimate
        print(f"{c.trial.number:>5} {c.trial.values[0]:>7.3f} {e.n:>5} {'/'.join(map(str, c.wdl)):>11} "
              f"{e.elo:>+7.1f} {f'[{e.elo_low:+.1f}, {e.elo_high:+.1f}]':>18} {e.los:>6.1%}")  # fmt: skip


def run(setup: Setup) -> int:
    """Optimise, confirm, export and report; returns the exit code."""
    args = setup.args
    study, created = open_study(setup, setup.storage)
    setup.book.save(setup.run_dir / "openings.json")
    failed, queued = recover(study)
    done = finished(study)
    remaining = max(0, args.trials - done)
    if not created:
        say(f"resuming study {args.study!r} in {redact(setup.storage_url)}: {done} finished trials"
            + (f", {failed} of a dead process failed" if failed else "") + (f", {queued} queued again" if queued else "")
            + f"; {remaining} more to reach --trials {args.trials}")  # fmt: skip
    total = remaining * args.pairs * 2 + args.confirm_top * args.confirm_pairs * 2
    progress = Progress(total, not args.no_progress)
    started = time.perf_counter()
    with MatchRunner(args.workers) as runner:
        if remaining:
            study.optimize(make_objective(setup, study, runner, progress), n_trials=remaining, timeout=args.timeout,
                           callbacks=[stop_at(args.trials)], catch=(), gc_after_trial=False)  # fmt: skip
        progress.replan(2 * args.confirm_top * args.confirm_pairs)  # trials other workers ran or a timeout cut off
        confirmations = confirm(setup, study, runner, progress)
    progress.close()
    seconds = time.perf_counter() - started
    write_text_atomic(setup.run_dir / "trials.csv", _csv_text(trial_rows(study)))
    write_text_atomic(setup.run_dir / "confirmation.csv", _csv_text([
        {"trial": c.trial.number, "spec": c.candidate.spec(), "pairs": c.estimate.n, "wdl": "/".join(map(str, c.wdl)),
         "pentanomial": " ".join(map(str, c.pentanomial)), "elo": c.estimate.elo, "elo_low": c.estimate.elo_low,
         "elo_high": c.estimate.elo_high, "los": c.estimate.los} for c in confirmations]))  # fmt: skip
    best = max(confirmations, key=lambda c: (c.estimate.elo_low, c.estimate.elo), default=None)
    code = EXIT_NO_IMPROVEMENT
    if best is None:
        verdict = "No trial completed, so nothing was confirmed or exported."
    else:
        save_weights(best.candidate.weight_file(setup.game, {"trial": best.trial.number, "study": args.study}),
                     setup.run_dir / "candidate.json")  # fmt: skip
        e = best.estimate
        if e.elo_low > 0:
            path = export(setup, study, best, setup.out)
            verdict = (f"Trial {best.trial.number} confirmed: Elo {e.elo:+.1f} [{e.elo_low:+.1f}, {e.elo_high:+.1f}] "
                       f"over the baseline on {e.n} held-out pairs. Exported to {path}.")  # fmt: skip
            code = 0
        else:
            verdict = (f"No significant improvement: the best confirmation (trial {best.trial.number}) is Elo {e.elo:+.1f} "
                       f"[{e.elo_low:+.1f}, {e.elo_high:+.1f}], whose 95% lower bound is not above 0. Nothing exported; "
                       f"the candidate is kept in {setup.run_dir / 'candidate.json'}.")  # fmt: skip
    notes = write_plots(study, setup.run_dir)
    write_text_atomic(setup.run_dir / "summary.md",
                      summary_markdown(setup, study, confirmations, verdict, notes, seconds, progress.games))  # fmt: skip
    print_table(confirmations)
    print(verdict)
    print(f"{progress.games} games in {seconds:.0f} s ({progress.rate:.1f} games/s); run folder {setup.run_dir}")
    print(f"Browse the study (pip install optuna-dashboard): optuna-dashboard {redact(setup.storage_url)}")
    if code == 0 and setup.out.resolve().parent != (Path("weights")).resolve():
        print(f"To ship it: cp {setup.out} weights/")
    return code


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``python -m tuning.run``."""
    # heartbeats and the Wilcoxon pruner are marked experimental; the run relies on them knowingly
    warnings.filterwarnings("ignore", category=ExperimentalWarning)
    # Optuna logs a failed trial with its traceback at WARNING: a trial failed by Ctrl-C is reported by one line
    # of ours instead, and any other failure is raised (catch=()) with its traceback anyway
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        try:
            setup = prepare(args)
        except (ValueError, GameError, HeuristicError, AgentSpecError, OSError) as error:
            parser.error(str(error))
        try:
            return run(setup)
        except ValueError as error:  # settings that clash with a resumed study
            parser.error(str(error))
    except KeyboardInterrupt:
        say("interrupted. The study keeps every finished trial and confirmation; the trial under way is failed "
            "and queued again. Run the same command to resume.")  # fmt: skip
        return EXIT_INTERRUPTED
    return 2


if __name__ == "__main__":
    sys.exit(main())
