"""Errors raised by :mod:`heuristics`; all are :class:`games.errors.AlphabetaError` (so ``ValueError``) subclasses."""

from __future__ import annotations

from games.errors import AlphabetaError


class HeuristicError(AlphabetaError):
    """Base class for every error raised by :mod:`heuristics`."""


class UnknownHeuristicError(HeuristicError):
    """A heuristic name that is not registered (the message lists the registered ones)."""


class UnsupportedGameError(HeuristicError):
    """A heuristic asked to evaluate a board size its definition does not cover."""


class WeightError(HeuristicError):
    """Weights with unknown or missing names, or values that are not finite numbers."""


class WeightFileError(HeuristicError):
    """A weight file that cannot be read; the message names the file and the field."""
