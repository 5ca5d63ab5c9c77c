"""Print a ``--bounds`` text for ``python -m tuning.run``: a box around a weight file's weights.

    python -m scripts.bounds_around connect4-threats-tuned                  # [0.5x, 1.6x], small weights [0, 10]
    python -m scripts.bounds_around connect4-threats-tuned --scale 0.5      # the same player, room above weights at a bound
    python -m tuning.run ... --bounds "$(python -m scripts.bounds_around connect4-threats-tuned)"

The rule is :func:`tuning.space.bounds_around`'s; the tuning guide's long
Connect-4 recipe uses it to keep a run near the shipped file.
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from heuristics import load_weights
from tuning.space import bounds_around


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Print the bounds text for the file's game and heuristic; 2 on a bad file or factor."""
    parser = argparse.ArgumentParser(prog="python -m scripts.bounds_around", description=__doc__.splitlines()[0])
    parser.add_argument("weights", help="a weight file, or a shipped file's name (python -m weights --list)")
    parser.add_argument("--low", type=float, default=0.5, help="lower factor, below 1 (default 0.5)")
    parser.add_argument("--high", type=float, default=1.6, help="upper factor, above 1 (default 1.6)")
    parser.add_argument("--floor", type=float, default=10.0,
                        help="weights below this in absolute value range over [min(0, 2x), max(floor, 2x)] (default 10)")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply the weights first: the same moves, more room below the registered bounds (default 1)")
    args = parser.parse_args(argv)
    try:
        loaded = load_weights(args.weights)
        print(bounds_around(loaded.game, loaded.heuristic, loaded.weights, args.low, args.high, args.floor,
                            args.scale))
    except ValueError as exc:
        parser.error(str(exc))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
