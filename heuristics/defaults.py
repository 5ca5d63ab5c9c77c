"""The default weight files shipped in the ``weights`` data package, and the command that writes them.

``python -m heuristics.defaults [--out FOLDER]`` writes one file per
evaluator and preset game it covers, named ``<game>-<heuristic>.json``
(``connect4`` is 6x7 k=4, ``tictactoe`` 3,3,3, ``gomoku`` 15,15,5), by
default into the package's ``weights`` folder (:func:`heuristics.weights.shipped_weights_folder`,
the repository's ``weights/`` in a checkout).  A test
checks that the shipped files equal what this module generates, so they
cannot drift from the registry's defaults.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Optional, Sequence

from games import CONNECT4, GOMOKU, TIC_TAC_TOE, KInARow
from heuristics.registry import HEURISTICS
from heuristics.weights import WeightFile, save_weights, shipped_weights_folder

PRESET_GAMES: dict[str, KInARow] = {"connect4": CONNECT4, "tictactoe": TIC_TAC_TOE, "gomoku": GOMOKU}
DEFAULT_SEARCH: dict[str, Any] = {"depth": 4, "branching": None, "nodes": None, "time_ms": None, "radius": None}
"""Depth 4: the depth of the Connect-4 paper's feature experiments (its situation 2).

The search section as ``search.Limit(depth=4).to_dict()`` writes it (this
package sits below ``search`` and cannot import it; ``tests/test_budget.py``
checks the two agree).
"""


def game_tag(game: KInARow) -> str:
    """The name weight files use for ``game``: the preset's (``connect4``...), else e.g. ``mnk-9x9x5``.

    Example:
        >>> from games import MNK
        >>> game_tag(CONNECT4), game_tag(MNK(9, 9, 5))
        ('connect4', 'mnk-9x9x5')
    """
    variant = "-exact" if game.exact_k else ""
    return next((tag for tag, preset in PRESET_GAMES.items() if preset == game),
                f"{game.kind}-{game.rows}x{game.cols}x{game.k}{variant}")  # fmt: skip


def default_weight_files() -> dict[str, WeightFile]:
    """``{file name: record}`` for every (preset game, evaluator) pair the evaluator covers."""
    files = {}
    for tag, game in PRESET_GAMES.items():
        for name, spec in HEURISTICS.items():
            if spec.refuse(game) is None:
                files[f"{tag}-{name}.json"] = WeightFile(game, name, spec.defaults, DEFAULT_SEARCH)
    return files


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Write the default weight files; return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m heuristics.defaults", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None,
                        help="folder to write into (default: the package's weights folder, weights/ in a checkout)")
    args = parser.parse_args(argv)
    if args.out is None:
        args.out = shipped_weights_folder()
    if not args.out.is_dir():
        parser.error(f"--out {args.out}: not an existing folder")
    for file_name, record in default_weight_files().items():
        print(save_weights(record, args.out / file_name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
