"""Replay the Connect-4 experiments of Kang, Wang and Hu (2019) with many games and 95% intervals.

The paper (JILSA 11:15-31) compares its feature heuristic H1
(``c4_features``) with the square-value heuristic H2 (``square_values``) on
6x7 Connect-4, from 10 to 100 games per pairing and no intervals.  Each
sub-command replays one experiment, writes ``<name>.md`` (the table, the
settings, the paper's claims with a verdict each), ``<name>.json`` (the
counts) and PNG plots into ``--out`` (default ``runs/paper/``, git-ignored;
``--out docs/results`` regenerates the committed results), and prints the
table.  Every input, ``--tuned`` included, is checked before any game; an
experiment's files appear only once it has finished (it writes into a hidden
staging folder whose files are then renamed into ``--out``), so an
experiment that fails or is interrupted leaves the previous files in place:

* ``table6``: H1 against itself at depths 2, 4, 6, 8, every pair.  First the
  paper's protocol: the first-named player always moves first, from the
  empty board, both sides playing a random move every third own move.  Then
  colours alternated: each randomised opening played twice, colours swapped.
* ``figures``: Figures 12 and 13, nodes and time per move along H1 self-play
  games at depth 4 and 6, for plain minimax (no pruning), alpha-beta (no
  table, no ordering: the paper's) and our agent's alpha-beta (table and
  ordering), averaged over games.
* ``table7`` / ``table8``: depth 4, H1 with one feature (F1..F4), then with
  F4+F3, F4+F3+F2, all, and F1+F2, against H2.
* ``table9``: H1 against H2 at equal depths 2, 4, 6, 8.
* ``tuned``: beyond the paper, the tuned weights (``python -m tuning.run``)
  against the paper's defaults and against H2 at depths 2, 4, 6, 8.
* ``perfect``: beyond the paper, every Connect-4 evaluator against the exact
  solver (agent spec ``perfect``).
* ``all``: everything, plus ``run.md`` with the wall time of each part.

Except ``table6``'s first part, every cell plays colour-swapped pairs over
randomised 4-ply openings (distinct up to mirroring, not decided by a 4-ply
search); both sides also play a random move every ``--random-every`` own
moves (3 by default, as in the paper; 0 turns it off).  The ``tuned`` and
``perfect`` games play none: the tuner judged its weights without them, and
a random move against perfect play only measures the random move.  Cells share openings and seeds, so they
differ only by the players.

This module is the command line and the orchestration; the experiments live in
``_paper_tables`` (Tables 6-9), ``_paper_figures`` (Figures 12-13) and
``_paper_beyond`` (tuned, perfect), over ``_paper_run`` (settings, pools,
outputs), ``_paper_play`` (the games) and ``_paper_report`` (cells, verdicts,
plots).  Usage::

    python -m scripts.reproduce_paper all --out docs/results   # 1000 games per cell (200 vs perfect play)
    python -m scripts.reproduce_paper table9 --games 400 --workers 2
    python -m scripts.reproduce_paper all --quick --out /tmp/paper   # smoke run
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable, Optional, Sequence

from games import CONNECT4
from heuristics import WeightFileError, load_weights
from scripts._args import int_list, int_range, non_negative_int, positive_int, writable_dir
from scripts._files import staged_folder, write_text_atomic
from scripts._paper_beyond import perfect, tuned
from scripts._paper_figures import figures
from scripts._paper_report import markdown_table
from scripts._paper_run import (
    DEFAULT_OUT,
    ROOT,
    STAND_IN_WEIGHTS,
    TUNED_WEIGHTS,
    Output,
    Run,
    Settings,
    cpu_seconds,
    settings_text,
)
from scripts._paper_tables import table6, table7, table8, table9
from tuning.match import default_workers

PAPER_DEPTHS_TEXT = "2,4,6,8"
EXPERIMENTS = ("table6", "figures", "table7", "table8", "table9", "tuned", "perfect")
QUICK_GAMES = 2
"""--quick: one pair (or two single games) per cell, one profiled game per figure ..."""
QUICK_DEPTHS = "2,4"
"""... and depths 2 and 4 only, unless --depths says otherwise (every file is still written)."""


RUNNERS: dict[str, Callable[[Run], Output]] = {
    "table6": table6, "figures": figures, "table7": table7, "table8": table8, "table9": table9,
    "tuned": tuned, "perfect": perfect,
}  # fmt: skip


def run_summary(run: Run, outputs: Sequence[Output], seconds: float) -> str:
    """``run.md``: what ``all`` ran, its wall time per experiment and in total."""
    workers = run.settings.workers
    rows = [[o.name, f"{o.games:,}", f"{o.seconds:,.0f}", f"{o.cpu_seconds:,.0f}", f"{o.cpu_seconds / workers:,.0f}",
             f"{o.games / o.seconds:.2f}" if o.seconds > 0 and o.games else "-"] for o in outputs]  # fmt: skip
    cpu = sum(o.cpu_seconds for o in outputs)
    return "\n\n".join([
        "# The whole reproduction",
        settings_text(run),
        markdown_table(["experiment", "games", "wall s", "CPU s", f"CPU s / {workers} workers", "games/s (wall)"], rows, left=1),
        f"Total: {sum(o.games for o in outputs):,} games in {seconds:,.0f} s wall ({seconds / 60:.1f} min) on "
        f"{workers} worker(s); {cpu:,.0f} CPU seconds, i.e. about {cpu / workers / 60:.1f} min on {workers} idle cores. "
        "Wall time on a shared machine depends on the other jobs; CPU time does not (much).",
    ])  # fmt: skip


DEPTH = int_range(1, 12)
"""Search depths the experiments accept (depth 12 already takes the agents seconds per move)."""


def tuned_file(text: str) -> Path:
    """``--tuned``: a readable Connect-4 ``c4_features`` weight file (checked with :func:`heuristics.load_weights`)."""
    path = Path(text).expanduser().resolve()
    try:
        heuristic = load_weights(path, CONNECT4).heuristic
    except WeightFileError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if heuristic != "c4_features":
        raise argparse.ArgumentTypeError(f"{text}: a {heuristic} weight file; the tuned experiments need c4_features weights")
    return path


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.reproduce_paper",
        description="Replay the Connect-4 experiments of Kang, Wang and Hu (2019): Tables 6-9, Figures 12-13, "
        "and two beyond the paper (tuned weights, perfect play), with 95%% intervals.",
    )
    parser.add_argument("experiment", choices=(*EXPERIMENTS, "all"), help="which experiment ('all': every one)")
    parser.add_argument("--games", type=int_range(2), default=1000,
                        help="games per cell (default 1000; paired cells round up to even)")
    parser.add_argument("--perfect-games", type=int_range(2), default=200,
                        help="games per evaluator against perfect play (default 200: the solver makes them the slowest)")
    parser.add_argument("--workers", type=positive_int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seeds the openings and every agent (default 0)")
    parser.add_argument("--random-every", type=non_negative_int, default=3,
                        help="in the paper's experiments both sides play a random move every N own moves, as the paper "
                        "(default 3; 0: never); tuned and perfect never do")
    parser.add_argument("--plies", type=int_range(1, 12), default=4, help="random plies per opening, 1..12 (default 4)")
    parser.add_argument("--depths", type=int_list(1, 12),
                        help=f"depths of Tables 6 and 9 and of the tuned comparison, each 1..12 (default {PAPER_DEPTHS_TEXT}, "
                        f"with --quick {QUICK_DEPTHS})")  # fmt: skip
    parser.add_argument("--figure-games", type=positive_int, help="self-play games per figure (default games/10, at most 100)")
    parser.add_argument("--perfect-depth", type=DEPTH, default=4, help="depth of the evaluators against perfect play (default 4)")
    parser.add_argument("--perfect-plies", type=int_range(8, 20), default=10,
                        help="random plies of the openings played against perfect play, 8..20 (default 10: the solver "
                        "needs well under a second per move from there, against up to minutes from 4 plies)")
    parser.add_argument("--tuned", type=tuned_file, help=f"tuned c4_features weight file (default "
                        f"{TUNED_WEIGHTS.relative_to(ROOT)}; while it does not exist, {STAND_IN_WEIGHTS.relative_to(ROOT)} "
                        "stands in)")  # fmt: skip
    parser.add_argument("--out", type=writable_dir, default=str(DEFAULT_OUT),
                        help=f"output folder (default {DEFAULT_OUT.relative_to(ROOT)}, git-ignored; --out docs/results "
                        "regenerates the committed results)")  # fmt: skip
    parser.add_argument("--quick", action="store_true",
                        help=f"smoke run: {QUICK_GAMES} games per cell, 1 game per figure, depths {QUICK_DEPTHS}")  # fmt: skip
    return parser


def parse_settings(argv: Sequence[str]) -> Settings:
    """Check the whole command line, ``--tuned``'s content included, before anything runs.

    argparse exits with code 2 and a one-line message naming the bad value.
    """
    parser = _parser()
    args = parser.parse_args(argv)
    depths = args.depths or int_list(1, 12)(QUICK_DEPTHS if args.quick else PAPER_DEPTHS_TEXT)
    tuned = args.tuned
    if tuned is None:  # the default file is checked too; while it does not exist, the experiments use the stand-in
        tuned = TUNED_WEIGHTS
        if TUNED_WEIGHTS.exists():
            try:
                tuned = tuned_file(str(TUNED_WEIGHTS))
            except argparse.ArgumentTypeError as error:
                parser.error(f"argument --tuned (default): {error}")
    games = QUICK_GAMES if args.quick else args.games
    figure_games = 1 if args.quick else (args.figure_games or min(100, max(2, args.games // 10)))
    return Settings(games, args.workers or default_workers(), args.seed, args.random_every, args.plies, depths, figure_games,
                    args.perfect_depth, args.perfect_plies,
                    QUICK_GAMES if args.quick else args.perfect_games, tuned, args.out, args.quick, tuple(argv),
                    args.experiment)  # fmt: skip


def run_experiment(run: Run, name: str) -> Output:
    """Run one experiment in a staging folder and move its files into the output folder only once it has finished."""
    began, began_cpu = time.perf_counter(), cpu_seconds()
    with staged_folder(run.settings.out, name) as staging:
        run.out = staging
        try:
            output = RUNNERS[name](run)
        finally:
            run.out = run.settings.out
    output.files = [run.settings.out / path.name for path in output.files]
    output.seconds, output.cpu_seconds = time.perf_counter() - began, cpu_seconds() - began_cpu
    return output


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the chosen experiment(s), print each table, write the output folder (default runs/paper)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    settings = parse_settings(argv)
    names = EXPERIMENTS if settings.experiment == "all" else (settings.experiment,)
    run = Run(settings)
    outputs, started = [], time.perf_counter()
    try:
        for name in names:
            output = run_experiment(run, name)
            outputs.append(output)
            print(output.markdown, end="\n\n", flush=True)
    finally:
        run.close()
    if len(names) > 1:
        summary = run_summary(run, outputs, time.perf_counter() - started)
        write_text_atomic(settings.out / "run.md", summary + "\n")
        print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
