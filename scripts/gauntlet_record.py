"""Play a weight file against every evaluator at its defaults (its node budget) and record the table in the file.

    python -m scripts.gauntlet_record runs/c4-long/connect4-threats-tuned.json                # print the table
    python -m scripts.gauntlet_record runs/c4-long/connect4-threats-tuned.json --write        # and store it in the file
    python -m scripts.gauntlet_record connect4-threats-tuned --out mine.json                  # a shipped file: store in a copy

A run tuned against a few opponents (``tuning.run --opponents``) is confirmed
against those only; this replays the check of every shipped default (each
member's 95% lower bound above 0) and, with ``--write``, stores it in the
file's provenance as ``gauntlet`` (written atomically): the file read, where
a path was given.  A shipped file (named without a path, or the copy inside the
installed package) is never written over: ``--out PATH`` writes the file with
its record to PATH instead (any file: ``--out`` implies ``--write``).  The logic is
:func:`tuning.gauntlet.play_defaults`; each row is what
``python -m tuning.match FILE "alphabeta:heuristic=NAME,nodes=N" --pairs P --seed S`` prints.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Optional, Sequence

from heuristics import load_weights, resolve_weight_file, save_weights, shipped_weight_files
from scripts._args import int_range
from tuning._sigint import exit_at_once_on_ctrl_c
from tuning.gauntlet import play_defaults


def _target(source: Path, given: str, write: bool, out: Optional[str]) -> Optional[Path]:
    """Where the table is stored: ``out``, else with ``write`` the file read (never a shipped one), else nowhere.

    Raises:
        ValueError: ``--write`` of a shipped file, or a target that cannot be written (the message says which).
    """
    if out is not None:
        target = Path(out)
    elif not write:
        return None
    elif is_shipped(source):
        raise ValueError(f"{given} is a shipped weight file ({source}): it is not written over; store the table in a "
                         "copy with --out PATH")  # fmt: skip
    else:
        target = source
    if target.is_dir():
        raise ValueError(f"--out {target}: is a folder; give a file path")
    if not os.access(target.parent if str(target.parent) else Path("."), os.W_OK):
        raise ValueError(f"{target}: cannot be written: its folder {target.parent} is not writable")
    return target


def is_shipped(path: Path) -> bool:
    """True if ``path`` is one of the shipped weight files (in the installed package, or the checkout's weights/)."""
    return any(path.resolve() == shipped.resolve() for shipped in shipped_weight_files().values())


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Print the table (and store it with ``--write``); 2 on a bad argument, 1 if a member is not beaten, 130 on Ctrl-C."""
    parser = argparse.ArgumentParser(prog="python -m scripts.gauntlet_record", description=__doc__.splitlines()[0])
    parser.add_argument("weights", help="a weight file with a node or time budget in its search section")
    parser.add_argument("--pairs", type=int_range(1, 20_000), default=200, help="pairs per member (default 200)")
    parser.add_argument("--seed", type=int_range(0), default=0, help="seeds the openings and the agents (default 0)")
    parser.add_argument("--workers", type=int_range(1, 256), help="worker processes (default: all cores)")
    parser.add_argument("--write", action="store_true", help="store the table in the file's provenance as 'gauntlet'")
    parser.add_argument("--out", help="write the file with its table to this path instead (a shipped file needs it)")
    args = parser.parse_args(argv)
    with exit_at_once_on_ctrl_c("gauntlet_record: interrupted, nothing written"):
        try:
            source = resolve_weight_file(args.weights)
            target = _target(source, args.weights, args.write, args.out)  # before minutes of games, not after
            loaded = load_weights(source)
            record = play_defaults(str(source), args.pairs, args.seed, args.workers)
        except ValueError as exc:
            parser.error(str(exc))
        print(f"{args.weights} against every default at {record['budget']}, {args.pairs} pairs each (seed {args.seed})")
        for name, row in record["members"].items():
            elo, low, high = (f"{v:+7.1f}" if v is not None else "   +inf" for v in (row["elo"], row["elo_low"], row["elo_high"]))
            print(f"  {name:15s} Elo {elo} [{low}, {high}]  W/D/L {row['wdl']}  pentanomial {row['pentanomial']}")
        if target is not None:
            save_weights(replace(loaded, provenance={**loaded.provenance, "gauntlet": record}), target)
            print(f"stored in {target} (provenance.gauntlet)")
    return 0 if all(row["elo_low"] is not None and row["elo_low"] > 0 for row in record["members"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
