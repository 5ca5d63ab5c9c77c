"""Merge label sets of one board into one: every training part, and the first set's held-out split kept as it is.

    python -m scripts.merge_labels tuning/data/connect4-6x7.labels.jsonl.gz more.labels.jsonl.gz --out merged.labels.jsonl.gz

A fit gains from more positions, but a rate measured on its held-out split is
comparable with earlier ones only if that split is the same.  So the merged
set is the first set's training positions, then every other set's positions
(training and held-out alike) that are not among those already taken nor
among the first set's held-out positions (up to the board's symmetries), then
the first set's held-out positions, recorded as the held-out split.  Rows keep
their labels; the header records the sources.  Sets of different sources may
be merged (the header then names each); the result is exact only if all are.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional, Sequence

from scripts._args import run_interruptible
from tuning.labels import FORMAT, VERSION, LabelledPosition, LabelSet, load_labels, write_labels
from tuning.openings import canonical_key


def merge(sets: Sequence[LabelSet]) -> tuple[list[LabelledPosition], int]:
    """``(positions, held out)``: see the module docstring.

    Raises:
        ValueError: fewer than one set, or sets of different games.
    """
    if not sets:
        raise ValueError("no label set to merge")
    game = sets[0].game
    other = next((s.game for s in sets if s.game != game), None)
    if other is not None:
        raise ValueError(f"cannot merge sets of {game} and {other}")
    heldout = list(sets[0].heldout)
    seen = {canonical_key(game.position(p.moves)) for p in heldout}
    train: list[LabelledPosition] = []
    for labels, positions in [(sets[0], sets[0].train)] + [(s, s.positions) for s in sets[1:]]:
        for p in positions:
            key = canonical_key(labels.game.position(p.moves))
            if key not in seen:
                seen.add(key)
                train.append(p)
    return train + heldout, len(heldout)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Merge and write; 2 on a bad argument."""
    parser = argparse.ArgumentParser(prog="python -m scripts.merge_labels", description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", help="label files of one board; the first one's held-out split is kept")
    parser.add_argument("--out", required=True, help="the merged .jsonl.gz file (written atomically)")
    args = parser.parse_args(argv)
    try:
        sets = [load_labels(path) for path in args.sets]
        positions, heldout = merge(sets)
    except ValueError as exc:
        parser.error(str(exc))
    exact = all(s.exact for s in sets)
    header = {"format": FORMAT, "version": VERSION, "game": sets[0].game.to_record(), "count": len(positions),
              "heldout": heldout, "source": {"name": "solver" if exact else "merged",
                                             "merged": [{"file": Path(a).name, "source": s.source, "count": len(s.positions)}
                                                        for a, s in zip(args.sets, sets)]},
              "command": "python -m scripts.merge_labels " + " ".join(args.sets)}  # fmt: skip
    rows = [(p.moves, p.score, _scores(p, sets[0].game.n_actions) if exact else None, p.win_probability) for p in positions]
    write_labels(args.out, header, rows)
    print(f"wrote {len(positions)} positions of {sets[0].game} ({heldout} held out, from {args.sets[0]}) to {args.out}")
    return 0


def _scores(position: LabelledPosition, actions: int) -> list[Optional[int]]:
    return [position.move_scores.get(a) for a in range(actions)]


if __name__ == "__main__":
    sys.exit(run_interruptible("merge_labels", main, None))
