"""Rebuild the opening book's shallow table (``search/solve/data/connect4-shallow-6ply.npz``) with the exact solver.

The 12-ply book (``pip install "alphabeta-gym[book]"``) gives the score of
every 12-stone position; a position of 7 to 11 stones then solves in well
under a millisecond, but one of 0 to 6 stones still takes up to some 70 ms
(the empty board).  This script solves every 6x7 position of up to
:data:`~search.solve.book.SHALLOW_PLY` stones (nobody has won, the side to
move cannot win at once, one of each pair of mirror images) with
:class:`search.solve.Solver`, deepest first, each stone count over the
12-ply book and the counts already solved, and writes their scores.  The
result depends on nothing but the positions' exact values: the same file on
every run.

Run it from the repository root (about half a minute)::

    python -m scripts.make_book --out search/solve/data/connect4-shallow-6ply.npz
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from games import CONNECT4, Position
from scripts._args import writable_file
from scripts._files import atomic_path
from search.solve import Solver
from search.solve.book import BOOK_PLY, SHALLOW_FILE, SHALLOW_PLY, BookError, Connect4Book, load_book


def positions_by_ply(deepest: int) -> list[list[Position]]:
    """Every 6x7 position of 0 to ``deepest`` stones that the book holds, one per mirror pair, by stone count."""
    book = load_book(shallow=False)
    levels: list[list[Position]] = [[CONNECT4.position()]]
    for _ in range(deepest):
        seen: dict[int, Position] = {}
        for position in levels[-1]:
            for move in position.legal_moves():
                child = position.copy()
                child.play(move)
                if child.winner is None:
                    seen.setdefault(min(book.codes(child)), child)
        levels.append([seen[code] for code in sorted(seen)])
    return [[p for p in level if not p.winning_moves()] for level in levels]


def build(deepest: int = SHALLOW_PLY, log: Optional[io.TextIOBase] = None) -> tuple[np.ndarray, np.ndarray]:
    """The shallow table's sorted codes and scores (see :func:`search.solve.book.read_shallow`)."""
    deep = load_book(shallow=False)
    levels = positions_by_ply(deepest)
    keys = np.zeros(0, dtype=np.uint32)
    scores = np.zeros(0, dtype=np.int8)
    for ply in range(deepest, -1, -1):
        started = time.perf_counter()
        merged = np.concatenate((deep.keys, keys))
        order = np.argsort(merged, kind="stable")
        book = Connect4Book(deep.path, merged[order], np.concatenate((deep.scores, scores))[order],
                            tuple(range(ply + 1, deepest + 1)) + (BOOK_PLY,))  # fmt: skip
        solver = Solver(CONNECT4, book=book)
        results = solver.solve_batch(levels[ply], fresh=False).results
        keys = np.concatenate((keys, np.array([min(deep.codes(p)) for p in levels[ply]], dtype=np.uint32)))
        scores = np.concatenate((scores, np.array([r.score for r in results], dtype=np.int8)))
        if log is not None:
            print(f"ply {ply}: {len(levels[ply])} positions in {time.perf_counter() - started:.1f} s", file=log)
    order = np.argsort(keys)
    return keys[order], scores[order]


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Build the shallow table and write it atomically to ``--out``."""
    parser = argparse.ArgumentParser(prog="python -m scripts.make_book", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=writable_file, default=SHALLOW_FILE, help=f"the table to write (default {SHALLOW_FILE})")
    args = parser.parse_args(argv)
    try:
        keys, scores = build(log=sys.stderr)  # type: ignore[arg-type]
    except BookError as exc:
        parser.exit(1, f"{parser.prog}: {exc}\n")
    with atomic_path(Path(args.out)) as temp:
        with open(temp, "wb") as stream:  # a file object: np.savez would add ".npz" to a bare name
            np.savez_compressed(stream, keys=keys, scores=scores, plies=np.array([SHALLOW_PLY]))
    print(f"{args.out}: {keys.size} positions of 0 to {SHALLOW_PLY} stones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
