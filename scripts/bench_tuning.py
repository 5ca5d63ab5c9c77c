"""Benchmark the tuner's engine room: Connect-4 self-play games per second, with 1 and 2 workers.

Plays paired games (each random 4-ply opening twice, colours swapped) of the
paper's ``c4_features`` evaluator against itself through
:class:`tuning.match.MatchRunner`, the code path every tuning trial takes:

* at depth 4 (the paper's depth; the target is >= 20 games/s on 2 cores);
* at a 20,000-node budget per move (iterative deepening until it is spent).

Each configuration runs with 1 worker (the baseline: one process, no pool)
and with ``--workers`` processes in the same run, and prints games/s and the
speed-up over 1 worker.  Worker start-up (spawning, loading the compiled
kernels) is excluded: the pool plays one warm-up pair per worker first.

Run it with ``python -m scripts.bench_tuning [--workers 2] [--seconds 20] [--markdown]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Optional, Sequence

from games import CONNECT4
from scripts._args import positive_float, positive_int
from scripts._report import print_machine_and_command, print_table
from tuning.match import MatchRunner, PairTask
from tuning.openings import make_openings

CONFIGS = (
    ("c4_features, depth 4", "alphabeta:heuristic=c4_features,depth=4"),
    ("c4_features, 20,000 nodes/move", "alphabeta:heuristic=c4_features,nodes=20000"),
)


def games_per_second(runner: MatchRunner, spec: str, openings: list[tuple[int, ...]], seconds: float) -> tuple[float, int, float]:
    """(games/s, games, nodes per move) of ``spec`` against itself, playing waves of pairs for about ``seconds``."""
    warm = [PairTask(CONNECT4, spec, spec, openings[i], 0, i) for i in range(runner.workers)]
    list(runner.play(warm))
    pairs, nodes, searched = 0, 0, 0
    started = time.perf_counter()
    index = runner.workers
    while time.perf_counter() - started < seconds:
        wave = [PairTask(CONNECT4, spec, spec, openings[(index + i) % len(openings)], 0, index + i)
                for i in range(2 * runner.workers)]  # fmt: skip
        for pair in runner.play(wave):
            pairs += 1
            nodes += sum(pair.nodes)
            searched += sum(pair.searched)
        index += len(wave)
    elapsed = time.perf_counter() - started
    return 2 * pairs / elapsed, 2 * pairs, nodes / max(searched, 1)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Measure every configuration with 1 and ``--workers`` workers and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=positive_int, default=2, help="workers of the parallel run (default 2)")
    parser.add_argument("--seconds", type=positive_float, default=20.0, help="wall time per measurement (default 20)")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = parser.parse_args(argv)
    openings = list(make_openings(CONNECT4, 300, plies=4, seed=0, heldout=0.0).tuning)
    rows = []
    for label, spec in CONFIGS:
        rates = {}
        for workers in (1, args.workers):
            with MatchRunner(workers) as runner:
                rate, games, nodes = games_per_second(runner, spec, openings, args.seconds)
            rates[workers] = rate
            rows.append((label, str(workers), f"{games:,}", f"{nodes:,.0f}", f"{rate:.1f}", f"{rate / rates[1]:.2f}x"))
    print_table(("configuration", "workers", "games", "nodes/move", "games/s", "vs 1 worker"), rows, args.markdown)
    print()
    print_machine_and_command(argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
