"""Book positions as labels: Connect-4 6x7 positions of up to 12 stones, labelled exactly through the opening book.

The shipped label set starts at 8 stones (and mostly at 10): before the
opening book (:mod:`search.solve.book`), the solver took minutes on a
position of 5 stones or fewer, so early positions were too dear to label.
With the book, every move of a position of up to 11 stones is scored in
milliseconds (the book's scores, or a small search over them), and a
12-stone position in a fraction of a second (its moves lead to 13 stones,
past the book).  This module draws such positions from the same varied
self-play as :mod:`tuning.labels` (the agents, random rates and openings of
:mod:`tuning._generate`), keeps those of ``min_ply`` to ``max_ply`` stones not
yet seen up to the mirror, and writes them in the label format of
:mod:`tuning.labels`, so that every tool reading label sets (the Texel fit,
the blunder rate) takes them as they are.

Fitting on them (the hook is the label file itself): ``--merge`` writes the
book positions followed by the positions of other label files (a book
position those files hold, up to the mirror, is left out), so that ``python -m tuning.fit --data``
fits on both; the merged file's held-out split is the last file's, so the fit
holds out exactly the positions it held out before (the split takes the last
positions of the file)::

    python -m tuning.book_labels --count 4000 --seed 1 --out runs/book/book.labels.jsonl.gz \\
        --merge tuning/data/connect4-6x7.labels.jsonl.gz
    python -m tuning.fit --heuristic threats --data runs/book/book.labels.jsonl.gz
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path
from typing import Any, Optional, Sequence, TextIO

import numpy as np

from games import CONNECT4
from search.solve import Solver
from search.solve.book import BOOK_PLY, BookError, require_book
from tuning._generate import split_point
from tuning.label_sources import Row, _solved, solver_source, varied_game
from tuning.labels import DEFAULT_HELDOUT, FORMAT, VERSION, LabelSet, load_labels, write_labels
from tuning.openings import canonical_key

DEFAULT_MIN_PLY = 4
"""Book labels start at this many stones by default (below it there are few distinct positions)."""

Line = tuple[str, int, Optional[list[Optional[int]]], float]
"""One row of a label file: moves, exact score, move scores over the action space, target."""


def book_labels(count: int, seed: int, min_ply: int = DEFAULT_MIN_PLY, max_ply: int = BOOK_PLY,
                progress: Optional[TextIO] = None) -> tuple[dict[str, Any], list[Row]]:  # fmt: skip
    """Label up to ``count`` distinct 6x7 positions of ``min_ply`` to ``max_ply`` stones from varied self-play.

    Returns the header fields (without format and version) and the rows, in game order, as the label
    generator does.  Stops early once 200 games in a row bring nothing new.

    Raises:
        BookError: the opening book is not installed.
        ValueError: ``min_ply``/``max_ply`` outside ``0 <= min_ply <= max_ply <= 12``.
    """
    if not 0 <= min_ply <= max_ply <= BOOK_PLY:
        raise ValueError(f"plies {min_ply} to {max_ply}: book labels need 0 <= min ply <= max ply <= {BOOK_PLY}")
    require_book()
    source = solver_source(CONNECT4, min_ply=min_ply)  # the agents, random rates and openings of the shipped set
    solver = Solver(CONNECT4, source.tt_size, book=True)
    seen: set[bytes] = set()
    rows: list[Row] = []
    started, games, stale = time.perf_counter(), 0, 0
    while len(rows) < count and stale < 200:
        rng = np.random.default_rng((seed, games))
        fresh = []
        for position in varied_game(CONNECT4, source.agents, source.random_rates, source.opening_plies, rng):
            key = canonical_key(position)
            if min_ply <= position.ply <= max_ply and key not in seen:
                seen.add(key)
                fresh.append(position)
        rows.extend(_solved(solver, position, games) for position in fresh[: count - len(rows)])
        games, stale = games + 1, 0 if fresh else stale + 1
        if progress is not None and (games % 100 == 0 or len(rows) >= count):
            print(f"{games} games, {len(rows)} positions, {time.perf_counter() - started:.0f} s", file=progress)
    header = {
        "game": CONNECT4.to_record(), "count": len(rows), "heldout": len(rows) - split_point(rows, DEFAULT_HELDOUT),
        "seed": seed, "games": games,
        "source": {**source.settings(), "book": "search.solve.book", "max_ply": max_ply},
        "dedup": "board symmetries (tuning.openings.canonical_key)",
    }  # fmt: skip
    return header, rows


def merged_rows(first: Sequence[Row], others: Sequence[LabelSet]) -> list[Line]:
    """The rows of ``first`` that none of ``others`` holds (up to the mirror), then every position of ``others`` in
    order: the other files stay whole, so a fit's held-out tail is the one it had on them alone."""
    rest = [(p.moves, p.score, _scores(s, p.move_scores), p.win_probability)
            for s in others for p in s.positions]  # fmt: skip
    taken = {canonical_key(CONNECT4.position(row[0])) for row in rest}
    own = [(r.moves, r.score, r.move_scores, r.target) for r in first]
    return [row for row in own if canonical_key(CONNECT4.position(row[0])) not in taken] + rest


def _scores(labels: LabelSet, move_scores: dict[int, int]) -> list[Optional[int]]:
    """A position's move scores as a row's list over the action space (None where illegal)."""
    return [move_scores.get(action) for action in range(labels.game.n_actions)]


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Write a book label file (optionally merged with other label files); return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m tuning.book_labels", description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, required=True, help="book positions to label")
    parser.add_argument("--seed", type=int, default=0, help="seed of the self-play (default 0)")
    parser.add_argument("--out", required=True, help="the .jsonl.gz file to write (atomically)")
    parser.add_argument("--min-ply", type=int, default=DEFAULT_MIN_PLY, help=f"fewest stones (default {DEFAULT_MIN_PLY})")
    parser.add_argument("--max-ply", type=int, default=BOOK_PLY, help=f"most stones (default and at most {BOOK_PLY})")
    parser.add_argument("--merge", nargs="*", default=[], help="label files whose positions follow the book's")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error(f"--count {args.count} must be a positive integer")
    out = Path(args.out)
    if not out.parent.is_dir():
        parser.error(f"--out {args.out}: folder {str(out.parent)!r} does not exist")
    try:
        others = [load_labels(path, game=CONNECT4) for path in args.merge]
        header, rows = book_labels(args.count, args.seed, args.min_ply, args.max_ply, None if args.quiet else sys.stderr)
    except (BookError, ValueError) as exc:  # a LabelFileError is a ValueError too
        parser.error(str(exc))
    lines = merged_rows(rows, others)
    book_count = len(lines) - sum(len(s.positions) for s in others)
    command = "python -m tuning.book_labels " + shlex.join(sys.argv[1:] if argv is None else list(argv))
    if others:  # the last file's held-out tail is the merged file's: a fit holds out what it held out before
        header["heldout"] = others[-1].heldout_count
    header = {"format": FORMAT, "version": VERSION, **header, "count": len(lines), "command": command,
              "merged": [{"file": str(path), "positions": len(s.positions)} for path, s in zip(args.merge, others)]}  # fmt: skip
    write_labels(out, header, lines)
    print(f"wrote {len(lines)} labelled positions to {out}: {book_count} from the book"
          + (f", then {len(lines) - book_count} from {', '.join(args.merge)}" if args.merge else ""))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
