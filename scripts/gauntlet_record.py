"""Play a weight file against every evaluator at its defaults (its node budget) and record the table in the file.

    python -m scripts.gauntlet_record runs/c4-long/connect4-threats-tuned.json                # print the table
    python -m scripts.gauntlet_record runs/c4-long/connect4-threats-tuned.json --write        # and store it in the file

A run tuned against a few opponents (``tuning.run --opponents``) is confirmed
against those only; this replays the check of every shipped default (each
member's 95% lower bound above 0) and, with ``--write``, stores it in the
file's provenance as ``gauntlet`` (written atomically).  The logic is
:func:`tuning.gauntlet.play_defaults`; each row is what
``python -m tuning.match FILE "alphabeta:heuristic=NAME,nodes=N" --pairs P --seed S`` prints.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import Optional, Sequence

from heuristics import load_weights, save_weights
from scripts._args import int_range
from tuning._sigint import exit_at_once_on_ctrl_c
from tuning.gauntlet import play_defaults


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Print the table (and store it with ``--write``); 2 on a bad argument, 1 if a member is not beaten, 130 on Ctrl-C."""
    parser = argparse.ArgumentParser(prog="python -m scripts.gauntlet_record", description=__doc__.splitlines()[0])
    parser.add_argument("weights", help="a weight file with a node or time budget in its search section")
    parser.add_argument("--pairs", type=int_range(1, 20_000), default=200, help="pairs per member (default 200)")
    parser.add_argument("--seed", type=int_range(0), default=0, help="seeds the openings and the agents (default 0)")
    parser.add_argument("--workers", type=int_range(1, 256), help="worker processes (default: all cores)")
    parser.add_argument("--write", action="store_true", help="store the table in the file's provenance as 'gauntlet'")
    args = parser.parse_args(argv)
    with exit_at_once_on_ctrl_c("gauntlet_record: interrupted, nothing written"):
        try:
            loaded = load_weights(args.weights)
            record = play_defaults(args.weights, args.pairs, args.seed, args.workers)
        except ValueError as exc:
            parser.error(str(exc))
        print(f"{args.weights} against every default at {record['budget']}, {args.pairs} pairs each (seed {args.seed})")
        for name, row in record["members"].items():
            elo, low, high = (f"{v:+7.1f}" if v is not None else "   +inf" for v in (row["elo"], row["elo_low"], row["elo_high"]))
            print(f"  {name:15s} Elo {elo} [{low}, {high}]  W/D/L {row['wdl']}  pentanomial {row['pentanomial']}")
        if args.write:
            save_weights(replace(loaded, provenance={**loaded.provenance, "gauntlet": record}), args.weights)
            print(f"stored in {args.weights} (provenance.gauntlet)")
    return 0 if all(row["elo_low"] is not None and row["elo_low"] > 0 for row in record["members"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
