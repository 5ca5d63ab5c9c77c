"""Which sampler tunes best?  Several seeds per sampler, the same game budget, every result confirmed.

For each sampler and seed this runs one whole tuning job
(:func:`tuning.run.tune`: search, then confirmation of the best candidate
against the gauntlet on held-out openings) with the pruner off, so every run
plays the same number of search games (``--trials x --pairs`` pairs; SPSA
adds one trial that scores its final theta).  A run's result is the pooled
confirmed Elo of its best candidate against the gauntlet, the number the
tuner exports on.  Per sampler the script reports the mean over seeds with a
95% t-interval, the median and the range, and the difference of every
sampler's mean from the paper's 1% rule (``onepercent``) with a Welch
interval: the rule is beaten only where that interval lies above 0.

Studies live in ``OUT/samplers.db``: re-running the same command resumes
(finished runs and confirmations are reused).

``--around-fit`` compares the samplers as the default run uses them: the
weights fitted to the board's labels queued after the defaults, the search
in a box around the fit, CMA-ES and SPSA starting from it (the labels must
exist: shipped, cached, or made once with ``python -m tuning.labels``).
``--opponent SPEC`` plays and confirms against that one agent instead of the
gauntlet, so the table reads as the margin over it (the strongest member's
defaults, say); ``--game``, ``--rows``, ``--cols``, ``--k`` pick the board.

Run it with ``python -m scripts.compare_samplers [--samplers tpe,cmaes,gp,spsa,onepercent,random]
[--seeds 5] [--trials 20] [--pairs 20] [--confirm-pairs 50] [--out runs/samplers]``.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from scipy import stats

from games.cli import add_game_arguments
from scripts._args import non_negative_int, positive_int, writable_dir
from scripts._files import write_text_atomic
from scripts._report import print_machine_and_command, print_table
from tuning.run import TuneConfig, tune
from tuning.samplers import SAMPLERS

DEFAULT_SAMPLERS = ("tpe", "cmaes", "gp", "spsa", "onepercent", "random")
BASELINE = "onepercent"


@dataclass(frozen=True)
class RunResult:
    """One tuning run: its best confirmed candidate's pooled Elo against the gauntlet, with the interval."""

    sampler: str
    seed: int
    elo: float
    elo_low: float
    elo_high: float
    exported: bool
    seconds: float


def run_one(args: argparse.Namespace, sampler: str, seed: int) -> RunResult:
    """One tuning job; its output goes to ``OUT/<sampler>-s<seed>/log.txt``."""
    name = f"{sampler}-s{seed}"
    run_dir = args.out / name
    run_dir.mkdir(parents=True, exist_ok=True)
    config = TuneConfig(game=args.game, rows=args.rows, cols=args.cols, k=args.k, exact_k=args.exact_k, heuristic=args.heuristic,
                        sampler=sampler, seed=seed, pruner="none", trials=args.trials, pairs=args.pairs, confirm_top=1,
                        confirm_pairs=args.confirm_pairs, nodes=args.nodes, workers=args.workers, progress=False,
                        study=name, run_dir=run_dir, out=run_dir / "tuned.json",
                        opponents=(args.opponent,) if args.opponent else None,
                        warm_start="fit" if args.around_fit else "none", label_budget=0.0, incumbent="none",
                        confirm_fit=False,  # the search's own best: what tells the samplers apart
                        storage=f"sqlite:///{args.out / 'samplers.db'}")  # fmt: skip
    started = time.perf_counter()
    with open(run_dir / "log.txt", "w") as log, contextlib.redirect_stdout(log):
        code = tune(config)
    with open(run_dir / "confirmation.csv") as handle:
        rows = list(csv.DictReader(handle))
    best = max(rows, key=lambda r: (float(r["elo_low"]), float(r["elo"])))
    return RunResult(sampler, seed, float(best["elo"]), float(best["elo_low"]), float(best["elo_high"]), code == 0,
                     time.perf_counter() - started)  # fmt: skip


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean of ``values`` with its 95% t-interval (nan bounds for fewer than two values)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.nan, math.nan
    half = stats.t.ppf(0.975, n - 1) * stats.tstd(values) / math.sqrt(n)
    return mean, mean - half, mean + half


def welch_interval(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """(difference of means a - b, low, high): Welch's 95% interval for unequal variances."""
    diff = sum(a) / len(a) - sum(b) / len(b)
    va, vb = stats.tvar(a) / len(a), stats.tvar(b) / len(b)
    if va + vb == 0:
        return diff, diff, diff
    dof = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    half = stats.t.ppf(0.975, dof) * math.sqrt(va + vb)
    return diff, diff - half, diff + half


def summarise(results: list[RunResult]) -> tuple[list[list[str]], str]:
    """The per-sampler table rows and a verdict on the winner and on the 1% rule."""
    by_sampler: dict[str, list[float]] = {}
    for r in results:
        by_sampler.setdefault(r.sampler, []).append(r.elo)
    rows, means = [], {}
    for sampler, elos in by_sampler.items():
        mean, low, high = mean_interval(elos)
        means[sampler] = mean
        exported = sum(r.exported for r in results if r.sampler == sampler)
        versus = ""
        if BASELINE in by_sampler and sampler != BASELINE and len(elos) > 1 and len(by_sampler[BASELINE]) > 1:
            d, dl, dh = welch_interval(elos, by_sampler[BASELINE])
            versus = f"{d:+.1f} [{dl:+.1f}, {dh:+.1f}]"
        rows.append([sampler, str(len(elos)), f"{mean:+.1f}", f"[{low:+.1f}, {high:+.1f}]", f"{sorted(elos)[len(elos) // 2]:+.1f}",
                     f"{min(elos):+.1f} .. {max(elos):+.1f}", f"{exported}/{len(elos)}", versus])  # fmt: skip
    winner = max(means, key=lambda s: means[s])
    verdict = f"Highest mean confirmed Elo: {winner} ({means[winner]:+.1f})."
    if BASELINE in by_sampler and winner != BASELINE and len(by_sampler[winner]) > 1 and len(by_sampler[BASELINE]) > 1:
        d, dl, dh = welch_interval(by_sampler[winner], by_sampler[BASELINE])
        beaten = "beats" if dl > 0 else "does not significantly beat"
        verdict += f" It {beaten} the paper's 1% rule: {d:+.1f} Elo [{dl:+.1f}, {dh:+.1f}] (Welch, 95%)."
    return rows, verdict


def box_plot(results: list[RunResult], path: Path) -> Optional[str]:
    """A box plot of the confirmed Elo per sampler, the runs as points; returns a note if it cannot be drawn."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "no plot: matplotlib is not installed (the 'tuning' extra)"
    samplers = list(dict.fromkeys(r.sampler for r in results))
    data = [[r.elo for r in results if r.sampler == s] for s in samplers]
    figure, axes = plt.subplots(figsize=(8, 4.5))
    axes.boxplot(data)
    axes.set_xticks(range(1, len(samplers) + 1), samplers)
    for i, values in enumerate(data, start=1):
        axes.scatter([i] * len(values), values, s=14, color="black", zorder=3)
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_ylabel("confirmed Elo against the gauntlet")
    axes.set_title("Samplers at an equal game budget (one point per seed)")
    temp = path.with_name(f".{path.name}.tmp.png")
    figure.savefig(temp, dpi=100, bbox_inches="tight")
    plt.close(figure)
    temp.replace(path)
    return None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scripts.compare_samplers", description=__doc__.splitlines()[0])
    parser.add_argument("--samplers", default=",".join(DEFAULT_SAMPLERS), help="comma-separated sampler names")
    parser.add_argument("--seeds", type=positive_int, default=5, help="seeds per sampler (default 5)")
    parser.add_argument("--first-seed", type=non_negative_int, default=0, help="seeds run from this one (default 0)")
    parser.add_argument("--trials", type=positive_int, default=20, help="trials per run (default 20)")
    parser.add_argument("--pairs", type=positive_int, default=20, help="game pairs per trial (default 20)")
    parser.add_argument("--confirm-pairs", type=positive_int, default=50, help="held-out openings per member (default 50)")
    parser.add_argument("--nodes", type=positive_int, default=1000, help="node budget per move (default 1000)")
    parser.add_argument("--heuristic", help="the evaluator to tune (default: the tuner's default)")
    add_game_arguments(parser)
    parser.add_argument("--around-fit", action="store_true",
                        help="start from the fit to the board's labels and search a box around it, as the default run does")
    parser.add_argument("--opponent", help="play and confirm against this one agent spec instead of the gauntlet")
    parser.add_argument("--workers", type=positive_int, help="match workers (default: all cores)")
    parser.add_argument("--out", type=writable_dir, default=Path("runs/samplers"), help="output folder (default runs/samplers)")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run every (sampler, seed), then print and save the comparison."""
    parser = _parser()
    args = parser.parse_args(argv)
    samplers = [s.strip() for s in args.samplers.split(",") if s.strip()]
    unknown = [s for s in samplers if s not in SAMPLERS]
    if unknown or not samplers:
        parser.error(f"--samplers {args.samplers!r}: choose from {', '.join(SAMPLERS)}")
    args.out.mkdir(parents=True, exist_ok=True)
    print_machine_and_command(argv)
    results = []
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        for sampler in samplers:
            result = run_one(args, sampler, seed)
            results.append(result)
            print(f"{sampler:>10} seed {seed}: Elo {result.elo:+.1f} [{result.elo_low:+.1f}, {result.elo_high:+.1f}]"
                  f"{' (exported)' if result.exported else ''} in {result.seconds:.0f} s", flush=True)  # fmt: skip
    rows, verdict = summarise(results)
    header = ["sampler", "runs", "mean Elo", "95% interval", "median", "range", "exported", f"vs {BASELINE} (Welch)"]
    print_table(header, rows, args.markdown)
    print(verdict)
    note = box_plot(results, args.out / "samplers.png")
    if note:
        print(note)
    write_text_atomic(args.out / "samplers.json", json.dumps([r.__dict__ for r in results], indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
