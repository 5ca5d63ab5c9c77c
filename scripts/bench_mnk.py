"""Benchmark the m,n,k search per board size: depth reached and nodes/s in a time budget, incremental vs from scratch.

Issue 16, item 2.  For every board size (default: seed 001's tournament sizes
7,7,5 10,10,5 50,50,10 70,70,10 and gomoku's 15,15,5 and 26,26,6) and every
evaluator (``mics``, ``windows``, ``patterns``), from the position with one
stone in the centre, ``search(pos, Evaluator(h, MNK(m, n, k)), time_ms=T,
radius=R)`` runs twice in the same process: with the array kernel's
incremental evaluation (``heuristics._incremental``) and with it forced off
(``search.engine.INCREMENTAL = False``: every leaf and ordering score from
scratch, today's ``mics`` agent).  Both searches return the same values at
equal depth (tests/test_incremental.py); this prints how deep each gets and
how fast, with the ratios.  The kernels are compiled by a depth-1 search
first, so compile time is not counted.  No threat search is involved.

Run it with ``python -m scripts.bench_mnk [--sizes 15,15,5 70,70,10]
[--heuristics mics,windows] [--time-ms 1000] [--radius 2] [--markdown]``
(about 40 s at the defaults, plus compile time on a fresh checkout).
Numbers are wall-clock on whatever else the machine is doing: run it under
``flock /tmp/heavy.lock`` on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from dataclasses import dataclass
from typing import Optional, Sequence

import numba

import search.engine as engine
from games import MNK
from heuristics import NAMES, Evaluator
from search import search

SIZES: tuple[tuple[int, int, int], ...] = ((7, 7, 5), (10, 10, 5), (15, 15, 5), (26, 26, 6), (50, 50, 10), (70, 70, 10))
"""Default boards (rows, cols, k)."""
HEURISTICS: tuple[str, ...] = ("mics", "windows", "patterns")


@dataclass(frozen=True)
class Run:
    """One timed search: the depth completed, nodes visited and their rate."""

    depth: int
    nodes: int
    nodes_per_s: float


def parse_size(text: str) -> tuple[int, int, int]:
    """An argparse type for ``rows,cols,k`` naming a board the game core builds."""
    parts = text.split(",")
    if len(parts) != 3 or not all(p.strip().isdecimal() for p in parts):
        raise argparse.ArgumentTypeError(f"{text!r} is not a board size rows,cols,k (three whole numbers, e.g. 15,15,5)")
    rows, cols, k = (int(p) for p in parts)
    try:
        MNK(rows, cols, k)
    except ValueError as error:  # the game's own message names the bad value
        raise argparse.ArgumentTypeError(f"{text!r} is not a playable board: {error}") from None
    return rows, cols, k


def parse_heuristics(text: str) -> tuple[str, ...]:
    """An argparse type for a comma-separated list of registered evaluator names."""
    names = tuple(name.strip() for name in text.split(","))
    for name in names:
        if name not in NAMES:
            raise argparse.ArgumentTypeError(f"unknown heuristic {name!r}: choose from {', '.join(NAMES)}")
    return names


def positive_int(text: str) -> int:
    """An argparse type for an integer >= 1."""
    if not text.strip().isdecimal() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer >= 1")
    return int(text)


def non_negative_int(text: str) -> int:
    """An argparse type for an integer >= 0."""
    if not text.strip().isdecimal():
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer >= 0")
    return int(text)


def measure(size: tuple[int, int, int], heuristic: str, incremental: bool, time_ms: int, radius: int) -> Run:
    """Search the one-stone-in-the-centre position for ``time_ms`` with or without the incremental path."""
    rows, cols, k = size
    game = MNK(rows, cols, k)
    evaluator = Evaluator(heuristic, game)
    position = game.position()
    position.play((rows // 2) * cols + cols // 2)
    previous = engine.INCREMENTAL
    engine.INCREMENTAL = incremental
    try:
        search(position, evaluator, depth=1, radius=radius)  # compile or load the kernels: not timed
        result = search(position, evaluator, time_ms=time_ms, radius=radius)
    finally:
        engine.INCREMENTAL = previous
    return Run(result.depth, result.nodes, result.nodes / max(result.seconds, 1e-9))


def table(rows: list[list[str]], header: list[str], markdown: bool) -> str:
    """The rows as aligned text or a Markdown table."""
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])
    widths = [max(len(x) for x in column) for column in zip(header, *rows)]
    return "\n".join("  ".join(x.rjust(w) for x, w in zip(r, widths)) for r in [header, *rows])


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the benchmark and print the table; 0 on success (argparse exits 2 on bad input)."""
    parser = argparse.ArgumentParser(prog="python -m scripts.bench_mnk", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", type=parse_size, default=list(SIZES),
                        help="boards as rows,cols,k (default: " + " ".join(",".join(map(str, s)) for s in SIZES) + ")")
    parser.add_argument("--heuristics", type=parse_heuristics, default=HEURISTICS,
                        help="comma-separated evaluators (default mics,windows,patterns)")
    parser.add_argument("--time-ms", type=positive_int, default=1000, help="time budget per search (default 1000)")
    parser.add_argument("--radius", type=non_negative_int, default=2,
                        help="candidate cells within this many king moves of a stone (default 2; 0: all)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")  # fmt: skip
    args = parser.parse_args(argv)

    print(f"# bench_mnk: python {platform.python_version()}, numba {numba.__version__}, {os.cpu_count()} CPUs, "
          f"{args.time_ms} ms per search, radius {args.radius}, one stone in the centre")  # fmt: skip
    header = ["board", "heuristic", "depth scratch", "depth incr", "nodes/s scratch", "nodes/s incr", "speed-up"]
    rows: list[list[str]] = []
    for size in args.sizes:
        for heuristic in args.heuristics:
            scratch = measure(size, heuristic, False, args.time_ms, args.radius)
            incr = measure(size, heuristic, True, args.time_ms, args.radius)
            rows.append([",".join(map(str, size)), heuristic, str(scratch.depth), str(incr.depth),
                         f"{scratch.nodes_per_s:,.0f}", f"{incr.nodes_per_s:,.0f}",
                         f"{incr.nodes_per_s / max(scratch.nodes_per_s, 1e-9):.1f}x"])  # fmt: skip
            print(f"  done {rows[-1][0]} {heuristic}", file=sys.stderr, flush=True)
    print(table(rows, header, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
