"""Benchmark threat-space search against plain alpha-beta on constructed 15x15 gomoku wins.

For each constructed position (freestyle 15,15,5, x to move, a forced win of
known length; the same shapes as ``tests/test_tss.py``):

1. threat-space search: ``find_vcf`` (``find_vct`` for the double three,
   which has no VCF): the median time of ``--repeats`` runs to prove the win,
   nodes, nodes/s, the line's length;
2. plain alpha-beta in the same run: ``search`` with the agents' default
   heuristic at ``--radius``, depths 1, 2, ... (a fresh table each), until it
   proves the win (a win score), or ``--ab-seconds`` of its time are spent:
   the depth and time at which it first plays the threat search's first move,
   and the time to prove the win (``>cap`` if it did not within the cap).

Then VCF and VCT speed on ``--random`` random 20-ply 15x15 positions (mostly
no win: the budget ``--nodes`` is spent), nodes/s over all of them.
numba's compile/cache-load time is measured apart (first call).

Run it with ``PYTHONPATH=. python scripts/bench_tss.py [--repeats 5] [--ab-seconds 30] [--radius 2]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from typing import Optional, Sequence

import numba
import numpy as np

from games import MNK, Position
from heuristics import Evaluator
from search import TranspositionTable, is_win_score, search
from search.alphabeta.engine import generic_heuristic
from search.gomoku.threats import ThreatResult, find_vcf, find_vct

GAME = MNK(15, 15, 5)
FILLERS = [(0, 0), (0, 14), (14, 0), (14, 14), (0, 7), (14, 7), (7, 0), (7, 14)]
CASES = {  # name: (x stones, o stones before fillers, threat kind); (row, col), row 0 at the top
    "double four (3 plies)": ([(7, 3), (7, 4), (7, 5), (4, 6), (5, 6), (6, 6)], [(7, 2), (3, 6)], "vcf"),
    "four-three (5 plies)": ([(7, 3), (7, 4), (7, 5), (5, 6), (6, 6)], [(7, 2)], "vcf"),
    "three fours (7 plies)": ([(10, 2), (10, 3), (10, 4), (7, 5), (8, 5), (9, 6), (9, 7)], [(10, 1), (6, 5)], "vcf"),
    "double three (VCT, 5 plies)": ([(7, 5), (7, 6), (5, 7), (6, 7)], [], "vct"),
}


def build(xs: list[tuple[int, int]], os_: list[tuple[int, int]]) -> Position:
    """x on ``xs``, o on ``os_`` plus far-away fillers until x is to move."""
    os_ = os_ + FILLERS[: len(xs) - len(os_)]
    pos = GAME.position()
    for i in range(len(xs) + len(os_)):
        r, c = xs[i // 2] if i % 2 == 0 else os_[i // 2]
        pos.play(r * GAME.cols + c)
    return pos


def threat(pos: Position, kind: str, nodes: int) -> ThreatResult:
    """``find_vcf`` or ``find_vct`` (``kind``) with a node budget."""
    return (find_vcf if kind == "vcf" else find_vct)(pos, nodes=nodes)


def alpha_beta(pos: Position, move: int, radius: int, cap: float) -> tuple[str, str]:
    """(depth and seconds when alpha-beta first plays ``move``, seconds to a win score), '>cap' where not reached."""
    evaluator = Evaluator(generic_heuristic(GAME), GAME)
    spent, first, proved = 0.0, f">{cap:g}s", f">{cap:g}s"
    depth = 1
    while spent < cap and depth <= GAME.n_cells - pos.ply:
        start = time.perf_counter()
        result = search(pos, evaluator, depth=depth, radius=radius, tt=TranspositionTable(1 << 16), time_ms=(cap - spent) * 1000)
        spent += time.perf_counter() - start
        if result.depth < depth:
            break  # the time ran out inside this iteration
        if result.move == move and first.startswith(">"):
            first = f"d{depth} {spent:.3f}s"
        if is_win_score(result.score):
            proved = f"d{depth} {spent:.3f}s"
            break
        depth += 1
    return first, proved


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed runs of each threat search (median)")
    parser.add_argument("--ab-seconds", type=float, default=30.0, help="alpha-beta's time cap per position")
    parser.add_argument("--radius", type=int, default=2, help="alpha-beta's move radius (cells near stones)")
    parser.add_argument("--nodes", type=int, default=20_000, help="threat-search budget on the random positions")
    parser.add_argument("--random", type=int, default=20, help="random 20-ply positions for the speed line")
    args = parser.parse_args(argv)
    for name in ("repeats", "nodes"):
        if getattr(args, name) < 1:
            parser.error(f"--{name}={getattr(args, name)} must be a positive integer")
    if args.random < 0 or args.radius < 1 or not args.ab_seconds > 0:
        parser.error(f"--random={args.random} must be >= 0, --radius={args.radius} >= 1, --ab-seconds={args.ab_seconds} > 0")
    print(f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"numpy {np.__version__}, numba {numba.__version__}")  # fmt: skip
    print(f"Command: {' '.join(sys.argv if argv is None else ['bench_tss.py', *argv])}")
    start = time.perf_counter()
    find_vct(build(*CASES["double three (VCT, 5 plies)"][:2]), nodes=10)
    print(f"JIT warm-up (compile or cache load): {time.perf_counter() - start:.2f}s\n")
    header = ["position", "kind", "plies", "nodes", "TSS time", "nodes/s", "a-b: same move", "a-b: proves win"]
    rows = []
    for name, (xs, os_, kind) in CASES.items():
        pos = build(xs, os_)
        times, result = [], threat(pos, kind, 1_000_000)
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            result = threat(pos, kind, 1_000_000)
            times.append(time.perf_counter() - t0)
        assert result.win and result.move is not None
        median = statistics.median(times)
        first, proved = alpha_beta(pos, result.move, args.radius, args.ab_seconds)
        rows.append([name, kind, str(result.plies), str(result.nodes), f"{median * 1000:.3f} ms",
                     f"{result.nodes / median:,.0f}", first, proved])  # fmt: skip
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, ["-" * w for w in widths], *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)))
    rng = np.random.default_rng(0)
    positions = []
    for _ in range(args.random):
        pos = GAME.position()
        while pos.ply < 20:
            moves = pos.legal_moves()
            pos.play(moves[int(rng.integers(len(moves)))])
            if pos.is_terminal():
                pos.undo()
                break
        positions.append(pos)
    print(f"\nSpeed on {len(positions)} random 20-ply positions, budget {args.nodes} nodes each:")
    for kind in ("vcf", "vct"):
        nodes, seconds, wins = 0, 0.0, 0
        for pos in positions:
            t0 = time.perf_counter()
            result = threat(pos, kind, args.nodes)
            seconds += time.perf_counter() - t0
            nodes, wins = nodes + result.nodes, wins + result.win
        rate = nodes / seconds if seconds else 0.0
        print(f"  {kind}: {nodes} nodes in {seconds * 1000:.1f} ms = {rate:,.0f} nodes/s; wins proved in {wins}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
