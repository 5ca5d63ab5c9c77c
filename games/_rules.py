"""The rules parameters every kernel receives: one value built from the game description.

Kernels never take loose ``rows, cols, k, gravity`` scalars from their
callers; they take a :class:`Rules`, built in one place
(:attr:`games.KInARow.rules`), and read its fields.  A rule variant is a
field here, a field of the game description, and a branch in the win test
(:func:`games._board._wins_through`, :func:`games._bits._has_run`,
:func:`games._bits._winning_cells`): nothing else needs to learn about it.

Every field is an ``int`` so that numba sees one homogeneous tuple type
(``Rules(int64 x 5)``): a kernel compiled for it is cached once and serves
every game.

Example:
    >>> from games import MNK
    >>> MNK(15, 15, 5, exact_k=True).rules
    Rules(rows=15, cols=15, k=5, gravity=0, exact_k=1)
"""

from __future__ import annotations

from typing import NamedTuple


class Rules(NamedTuple):
    """A game's rules as the kernels see them (a numba named tuple of ints)."""

    rows: int
    """Board height."""
    cols: int
    """Board width."""
    k: int
    """Stones in a row that win."""
    gravity: int
    """1: stones fall to the lowest empty cell of a column (Connect-4); 0: any empty cell (m,n,k)."""
    exact_k: int
    """1: exactly ``k`` in a row wins and an overline (more than ``k``) does not; 0: ``k`` or more wins."""


def make_rules(rows: int, cols: int, k: int, gravity: bool, exact_k: bool) -> Rules:
    """The one builder of :class:`Rules` (called by :attr:`games.KInARow.rules`, which validated the sizes)."""
    return Rules(int(rows), int(cols), int(k), int(bool(gravity)), int(bool(exact_k)))
