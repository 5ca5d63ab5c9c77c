"""The game options every command line shares: ``--game`` (or a positional game), ``--rows``, ``--cols``, ``--k``, ``--exact-k``.

One block, so every CLI offers every game kind of the registry (:data:`games.rules.GAME_KINDS`) and
turns a bad combination into the same one-line usage error (exit code 2)::

    parser = argparse.ArgumentParser()
    add_game_arguments(parser)
    args = parser.parse_args(argv)
    game = game_from_args(parser, args)   # parser.error(...) on "mnk" without --k, k=9 on 6x7, ...

Example:
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> add_game_arguments(parser)
    >>> game_from_args(parser, parser.parse_args(["--game", "mnk", "--rows", "4", "--cols", "5", "--k", "3"]))
    MNK(rows=4, cols=5, k=3)
"""

from __future__ import annotations

import argparse
from typing import Optional, Union

from games.errors import GameError
from games.rules import GAME_KINDS, KInARow, make_game

ArgumentContainer = Union[argparse.ArgumentParser, "argparse._ArgumentGroup"]


def add_game_arguments(parser: ArgumentContainer, *, positional: bool = False, default: Optional[str] = "connect4") -> None:
    """Add the game kind (``--game``, or a positional ``game`` with ``positional=True``) and the board sizes.

    Args:
        parser: an argument parser or group.
        positional: the kind is the first positional argument (``python -m games.perft mnk ...``).
        default: the kind when ``--game`` is not given (None: leave it to the caller).
    """
    kinds = ", ".join(GAME_KINDS)
    if positional:
        parser.add_argument("game", choices=GAME_KINDS, help=f"game family: {kinds}")
    else:
        shown = f" (default {default})" if default else ""
        parser.add_argument("--game", choices=GAME_KINDS, default=default, help=f"game family: {kinds}{shown}")
    parser.add_argument("--rows", type=int, help="board rows (connect4 default 6; required for mnk)")
    parser.add_argument("--cols", type=int, help="board columns (connect4 default 7; required for mnk)")
    parser.add_argument("--k", type=int, help="stones in a row to win (connect4 default 4; required for mnk)")
    parser.add_argument("--exact-k", action="store_true",
                        help="the exact-k rule: exactly k in a row wins, an overline does not (standard gomoku)")  # fmt: skip


def game_from_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> KInARow:
    """The game the parsed options describe; a bad combination ends in ``parser.error`` (exit code 2)."""
    try:
        return make_game(args.game, args.rows, args.cols, args.k, exact_k=bool(getattr(args, "exact_k", False)))
    except GameError as error:
        parser.error(str(error))
