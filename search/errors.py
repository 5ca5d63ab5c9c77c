"""Errors raised by :mod:`search` (searches, agents, the solver): :class:`games.errors.AlphabetaError` subclasses.

They are ``ValueError`` too, so callers catching that keep working.  Bad game
input found by :mod:`games` (an illegal move, a bad move string) stays a
:class:`games.errors.GameError`.
"""

from __future__ import annotations

from games.errors import AlphabetaError


class SearchError(AlphabetaError):
    """Base class of the errors raised by :mod:`search`: e.g. a position of another game, or one that is over."""


class BudgetError(SearchError):
    """A search budget that cannot be used: none given, or a depth, node, time, branching or radius value out of range."""


class UnsolvableGameError(SearchError):
    """A game the exact solver does not handle (the message says why: gravity, board too large for its bitboard)."""


class OpeningError(SearchError):
    """Openings that cannot be drawn or read: a malformed openings file, too few distinct openings, a bad fraction."""
