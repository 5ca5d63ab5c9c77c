"""The names of moves and columns: what a position and a game's rules both need, so neither imports the other for it.

Columns are named ``a``, ``b``, ... ``z``, ``aa``, ``ab``, ... (the Connect-4 paper's notation extended past 26
columns, as spreadsheets do); an m,n,k cell is its column's letters and its row from the bottom (``e5``).
"""

from __future__ import annotations

Action = int
"""A column (gravity games) or a cell index ``row * cols + col`` (m,n,k)."""


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def column_name(col: int) -> str:
    """The letters of 0-based column ``col``: ``a`` .. ``z``, then ``aa``, ``ab`` ... (bijective base 26).

    Example:
        >>> [column_name(c) for c in (0, 25, 26, 27, 51, 52, 99)]
        ['a', 'z', 'aa', 'ab', 'az', 'ba', 'cv']
    """
    name = ""
    number = col + 1
    while number > 0:
        number, digit = divmod(number - 1, 26)
        name = _LETTERS[digit] + name
    return name


def column_index(name: str) -> int:
    """The 0-based column of letters ``name`` (the inverse of :func:`column_name`; any case)."""
    number = 0
    for letter in name.lower():
        number = number * 26 + _LETTERS.index(letter) + 1
    return number - 1
