"""Blunder rates of several agents on one label set's held-out positions, as a Markdown table (the guide's numbers).

    python -m scripts.blunder_table                       # the shipped agents at 1000 nodes, Connect-4 6x7
    python -m scripts.blunder_table rules random --game tictactoe
    python -m scripts.blunder_table --positions all       # every position, the fitted ones too (flatters a fit)
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from games.cli import add_game_arguments, game_from_args
from tuning.blunders import POSITIONS, BlunderReport, blunder_rate, chosen_positions, describe_positions, spread
from tuning.labels import default_path, load_labels

DEFAULT_AGENTS = (
    "alphabeta:heuristic=square_values,nodes=1000",
    "alphabeta:heuristic=c4_features,nodes=1000",
    "alphabeta:weights=weights/connect4-c4_features-tuned.json,nodes=1000",
    "alphabeta:heuristic=threats,nodes=1000",
    "weights/connect4-threats-tuned.json",
    "rules",
    "random",
)


def _percent(rate: float) -> str:
    return f"{100 * rate:.2f}"


def table(reports: Sequence[BlunderReport], specs: Sequence[str]) -> str:
    """The reports as Markdown: overall rate with its interval, then one column per ply band."""
    bands = [f"plies {b.low}-{b.high}" for b in reports[0].bands]
    lines = ["| agent | moves | blunders | rate % [95% CI] | " + " | ".join(bands) + " |",
             "| --- | ---: | ---: | ---: | " + " | ".join("---:" for _ in bands) + " |"]  # fmt: skip
    for spec, report in zip(specs, reports):
        o = report.overall
        cells = [_percent(b.rate) for b in report.bands]
        lines.append(f"| `{spec}` | {o.moves} | {o.blunders} | {_percent(o.rate)} [{_percent(o.ci_low)}, "
                     f"{_percent(o.ci_high)}] | " + " | ".join(cells) + " |")  # fmt: skip
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the agents on the label set and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agents", nargs="*", default=list(DEFAULT_AGENTS), help="agent specs or weight files")
    add_game_arguments(parser)
    parser.add_argument("--data", help="a label file (default: the shipped set of the game)")
    parser.add_argument("--positions", choices=POSITIONS, default="heldout",
                        help="heldout: the set's held-out split, positions no fit used (default); all; train")
    parser.add_argument("--limit", type=int, help="at most this many positions, evenly spread")
    args = parser.parse_args(argv)
    try:
        game = game_from_args(parser, args)
        labels = load_labels(args.data or default_path(game), game)
        positions = spread(chosen_positions(labels, args.positions), args.limit)
        reports = [blunder_rate(spec, labels, positions=positions) for spec in args.agents]
    except ValueError as exc:
        parser.error(str(exc))
    print(f"{describe_positions(labels, args.positions, len(positions))}, {args.data or default_path(game).name}\n")
    print(table(reports, args.agents))
    return 0


if __name__ == "__main__":
    sys.exit(main())
