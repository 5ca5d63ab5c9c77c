"""``python -m weights --list``: the weight files shipped with the package, by the names that select them.

Any name listed here can stand where a weight file is accepted
(``alphabeta:weights=connect4-threats-tuned``, an env's
``opponent="connect4-threats-tuned"``, ``python -m tuning.match``,
``python -m envs.play``, ``python -m envs.rate``).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Mapping, Optional, Sequence

from heuristics.weights import load_weights, shipped_weight_files

DEFAULT_DEPTH = 4
"""The depth an alpha-beta agent searches when neither its spec nor its weight file sets a budget
(``search.agents.AlphaBetaAgent``; this data package does not import the search to ask)."""


def budget(search: Mapping[str, Any]) -> str:
    """The search settings an agent of the file plays with: those the file sets, or the agents' default depth."""
    settings = [f"{key} {value:g}" if isinstance(value, float) else f"{key} {value}"
                for key, value in search.items() if value is not None]  # fmt: skip
    return ", ".join(settings) if settings else f"depth {DEFAULT_DEPTH} (no search settings: the agents' default)"


def main(argv: Optional[Sequence[str]] = None) -> int:
    """List the shipped weight files (name, game, heuristic, the budget its agent searches with); return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m weights", description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list the shipped files (the default action)")
    parser.add_argument("--paths", action="store_true", help="print each file's path too")
    args = parser.parse_args(argv)
    files = shipped_weight_files()
    width = max(map(len, files))
    for name, path in files.items():
        record = load_weights(path)
        line = f"{name:<{width}}  {str(record.game):<20}  {record.heuristic:<13}  {budget(record.search)}"
        print(f"{line}  {path}" if args.paths else line)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
