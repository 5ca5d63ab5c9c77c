"""Benchmark the gomoku engine's pattern classification: the memo of scanned patterns against scanning every time.

Boards whose line keys fit the pattern table (k <= 5, and k = 6 freestyle) look every pattern up; longer k
(exact-k k >= 6, freestyle k >= 7) classify by a scan of the segment, kept in a memo
(:func:`heuristics._gomoku_lines.pattern_memo`).  For each board, in the same run: the engine with the memo
(``memo_bits`` its default) and without (``memo_bits=0``, the scan every time, the old path), each
searching the one-stone-in-the-centre position, a fresh engine (an empty memo) per run, ``--time-ms``
each after an untimed search that compiles the kernels: nodes/s, depth reached and the ratio new/old.
Tabled boards (15,15,5) are in the table as a control: both paths are the same code there (ratio ~1).

Run it with ``python -m scripts.bench_gomoku_patterns [--sizes 15,15,5 50,50,10 70,70,10] [--time-ms 1000]``
(a trailing ``x`` on a size plays exact-k: ``20,20,6x``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from typing import Optional, Sequence

from games import MNK
from heuristics._gomoku_lines import MEMO_BITS, uses_table
from search.budget import Limit
from search.gomoku.engine import GomokuEngine


def parse_size(text: str) -> tuple[int, int, int, bool]:
    """``"rows,cols,k"`` (``x`` at the end: exact-k) as ``(rows, cols, k, exact_k)``."""
    exact = text.endswith("x")
    try:
        rows, cols, k = (int(part) for part in text.rstrip("x").split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size {text!r} is not rows,cols,k (optionally ending in x)") from None
    return rows, cols, k, exact


def measure(size: tuple[int, int, int, bool], memo_bits: int, time_ms: int) -> tuple[float, int]:
    """``(nodes/s, depth)`` of a fresh engine's search of one stone in the centre for ``time_ms``."""
    rows, cols, k, exact = size
    game = MNK(rows, cols, k, exact_k=exact)
    position = game.position([(rows // 2) * cols + cols // 2])
    engine = GomokuEngine(game, memo_bits=memo_bits)
    result = engine.search(position, Limit(time_ms=time_ms))
    return result.nodes / max(result.seconds, 1e-9), result.depth


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="+", type=parse_size,
                        default=[parse_size(s) for s in ("15,15,5", "50,50,10", "70,70,10", "20,20,6x")])  # fmt: skip
    parser.add_argument("--time-ms", type=int, default=1000, help="search time of each run (default 1000)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each path, interleaved; medians (default 3)")
    args = parser.parse_args(argv)
    print(f"gomoku engine, one stone in the centre, {args.time_ms} ms a search, median of {args.repeats}; "
          f"load average {os.getloadavg()[0]:.2f}")  # fmt: skip
    print(f"{'board':>12} {'path':>6} {'old nodes/s':>12} {'new nodes/s':>12} {'ratio':>6} {'old depth':>9} {'new depth':>9}")
    for size in args.sizes:
        for bits in (0, MEMO_BITS):  # compile, and the memo's code paths, untimed
            GomokuEngine(MNK(*size[:3], exact_k=size[3]), memo_bits=bits).search(
                MNK(*size[:3], exact_k=size[3]).position([0]), Limit(depth=2))
        old: list[tuple[float, int]] = []
        new: list[tuple[float, int]] = []
        for _ in range(args.repeats):
            old.append(measure(size, 0, args.time_ms))
            new.append(measure(size, MEMO_BITS, args.time_ms))
        old_rate, new_rate = statistics.median(r for r, _ in old), statistics.median(r for r, _ in new)
        name = ",".join(map(str, size[:3])) + ("x" if size[3] else "")
        path = "table" if uses_table(size[2], size[3]) else "memo"
        print(f"{name:>12} {path:>6} {old_rate:>12,.0f} {new_rate:>12,.0f} {new_rate / old_rate:>5.2f}x "
              f"{statistics.median(d for _, d in old):>9} {statistics.median(d for _, d in new):>9}", flush=True)  # fmt: skip
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
