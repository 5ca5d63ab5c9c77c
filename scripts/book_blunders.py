"""Blunder rates of agents on held-out solver-labelled positions: what the opening book and book labels change.

The positions: a label file (``--heldout``, say ``python -m tuning.labels
--min-ply 6 --seed 101``, a seed no shipped set used), less every position
that one of the ``--exclude`` files holds up to the mirror (the sets the
weights were fitted to), kept between ``--min-ply`` and ``--max-ply`` stones.
Each agent spec is judged on them as ``python -m tuning.blunders`` judges it
(:func:`tuning.blunders.blunder_rate`, seed 0): its blunder rate with the 95%
Wilson interval, overall and by band of plies::

    python -m scripts.book_blunders runs/book/heldout-seed101.labels.jsonl.gz \\
        --exclude tuning/data/connect4-6x7.labels.jsonl.gz --exclude runs/book/book-and-shipped.labels.jsonl.gz \\
        "alphabeta:weights=connect4-threats-tuned,nodes=1000" "alphabeta:weights=connect4-threats-tuned,nodes=1000,book=1"
    python -m scripts.book_blunders tuning/data/connect4-6x7.labels.jsonl.gz --last 1600 \
        "alphabeta:weights=connect4-threats-tuned,nodes=1000" "alphabeta:weights=connect4-threats-tuned,nodes=1000,book=1"

(the second: the shipped set's last 1,600 positions, which the Texel fit behind the shipped file held out).
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from games import CONNECT4
from scripts._report import print_machine_and_command, print_table
from tuning.blunders import Rate, blunder_rate
from tuning.labels import LabelSet, load_labels
from tuning.openings import canonical_key


def heldout_positions(heldout: LabelSet, exclude: Sequence[LabelSet], min_ply: int, max_ply: int,
                      last: Optional[int] = None) -> LabelSet:  # fmt: skip
    """``heldout`` (its ``last`` positions only, if given) without the positions of ``exclude`` (up to the mirror),
    and only those of ``min_ply`` to ``max_ply`` stones."""
    taken = {canonical_key(CONNECT4.position(p.moves)) for s in exclude for p in s.positions}
    pool = heldout.positions if last is None else heldout.positions[-last:]
    kept = tuple(p for p in pool if min_ply <= p.ply <= max_ply
                 and canonical_key(CONNECT4.position(p.moves)) not in taken)  # fmt: skip
    return LabelSet(heldout.game, heldout.header, kept)


def _rate(rate: Rate) -> str:
    return f"{100 * rate.rate:.2f}% [{100 * rate.ci_low:.2f}, {100 * rate.ci_high:.2f}] ({rate.blunders}/{rate.moves})"


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Print each agent's blunder rate on the held-out positions, overall and by band."""
    parser = argparse.ArgumentParser(prog="python -m scripts.book_blunders", description=__doc__.split("\n\n")[0])
    parser.add_argument("heldout", help="the held-out label file")
    parser.add_argument("specs", nargs="+", help="agent specs or weight files to judge")
    parser.add_argument("--exclude", action="append", default=[], help="a label file whose positions are left out (repeat it)")
    parser.add_argument("--min-ply", type=int, default=6, help="fewest stones (default 6)")
    parser.add_argument("--max-ply", type=int, default=30, help="most stones (default 30)")
    parser.add_argument("--band-width", type=int, default=6, help="plies per band (default 6)")
    parser.add_argument("--last", type=int, help="only the last N positions of the file (a fit's held-out tail)")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    args = parser.parse_args(argv)
    try:
        labels = heldout_positions(load_labels(args.heldout, game=CONNECT4),
                                   [load_labels(path, game=CONNECT4) for path in args.exclude], args.min_ply, args.max_ply,
                                   args.last)  # fmt: skip
    except ValueError as exc:
        parser.error(str(exc))
    print_machine_and_command(argv)
    print(f"{len(labels.positions)} held-out positions of {args.min_ply} to {args.max_ply} stones")
    rows = []
    for spec in args.specs:
        report = blunder_rate(spec, labels, band_width=args.band_width, seed=0)
        bands = [f"{band.low}-{band.high}: {_rate(band)}" for band in report.bands if band.moves]
        rows.append([spec, _rate(report.overall), "; ".join(bands)])
    print_table(["agent", "blunder rate", "by plies"], rows, args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
