"""The project's error hierarchy, and the errors raised by the game core.

Every package's errors derive from :class:`AlphabetaError`, itself a
:class:`ValueError` (bad input, as python-chess's errors are), so callers that
only care about "bad input" catch ``ValueError`` or ``AlphabetaError``, while
tools that want to tell the cases apart catch the specific class.  Messages
quote the offending value and, where one exists, the position it was applied
to.  The tree::

    AlphabetaError(ValueError)
        InvalidValueError        games.checks: a parameter outside its range (seeds, sizes, budgets)
        GameError                games: InvalidGameError, IllegalMoveError, NotationError
        HeuristicError           heuristics.errors: UnknownHeuristicError, UnsupportedGameError, WeightError, WeightFileError
        SearchError              search.errors: BudgetError, UnsolvableGameError, TableSizeError, AgentSpecError
        LabelFileError           tuning.labels
"""

from __future__ import annotations


class AlphabetaError(ValueError):
    """Base class of every error the project raises for bad input."""


class InvalidValueError(AlphabetaError):
    """A parameter outside what is allowed (the message names it, quotes the value and says what is allowed)."""


class GameError(AlphabetaError):
    """Base class for every error raised by :mod:`games`."""


class InvalidGameError(GameError):
    """A game description with impossible sizes, e.g. ``k`` larger than the board."""


class IllegalMoveError(GameError):
    """A move that is not legal in the position it was played in."""


class NotationError(GameError):
    """A move or move string that cannot be parsed in the game's notation."""
