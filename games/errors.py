"""Errors raised by the game core.

All of them subclass :class:`ValueError`, so callers that only care about
"bad input" can catch that, while tools that want to tell the cases apart can
catch the specific class.  Messages quote the offending value and, where one
exists, the position it was applied to.
"""

from __future__ import annotations


class GameError(ValueError):
    """Base class for every error raised by :mod:`games`."""


class InvalidGameError(GameError):
    """A game description with impossible sizes, e.g. ``k`` larger than the board."""


class IllegalMoveError(GameError):
    """A move that is not legal in the position it was played in."""


class NotationError(GameError):
    """A move or move string that cannot be parsed in the game's notation."""
