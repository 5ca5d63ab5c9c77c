"""Bitboard kernels for gravity boards with ``(rows + 1) * cols <= 64``.

Layout (Connect-4 6x7 shown; any rows x cols that fits works the same way).
Each column takes ``rows + 1`` consecutive bits, bottom cell first; the extra
top bit of each column (the sentinel row, ``.`` below) is always 0::

      col  0  1  2  3  4  5  6
         .  6 13 20 27 34 41 48      bit(col, row) = col * (rows + 1) + row
    row 5   5 12 19 26 33 40 47      row 0 is the bottom row here (the paper's
    row 4   4 11 18 25 32 39 46      row 1); the array boards of _board.py
    row 3   3 10 17 24 31 38 45      count rows from the top instead
    row 2   2  9 16 23 30 37 44
    row 1   1  8 15 22 29 36 43
    row 0   0  7 14 21 28 35 42

A position is two words, as in Pascal Pons' solver: ``mask`` has a 1 on
every stone and ``current`` a 1 on every stone of the side to move.

Worked example: 6x7 after the moves ``4453`` (columns 1-based): the first
player has (col 3, row 0) and (col 4, row 0), the second (col 3, row 1) and
(col 2, row 0).  The first player is to move, so::

    mask    = bits 14, 21, 22, 28 = 0x0000_0000_1060_4000
    current = bits 21, 28         = 0x0000_0000_1020_0000

Why the sentinel row: shifting a word by ``s`` moves every stone one step
along a line (1 = up, rows+1 = right, rows+2 = up-right, rows = down-right).
A run that would leave the board through the top lands on a sentinel bit,
which is never set, and a run leaving through the right or left side falls
off the end of the word, so no line ever wraps into another column.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games._jit import JIT
from games._rng import _below
from games._rules import Rules

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


def fits(rows: int, cols: int) -> bool:
    """True if a ``rows x cols`` gravity board fits this layout (with its sentinel row)."""
    return (rows + 1) * cols <= 64


@njit(**JIT)
def _bottom_mask(rows: int, cols: int) -> np.uint64:
    """A 1 on the bottom cell of every column."""
    m = _ZERO
    for col in range(cols):
        m |= _ONE << np.uint64(col * (rows + 1))
    return m


@njit(**JIT)
def _board_mask(rows: int, cols: int) -> np.uint64:
    """A 1 on every playable cell (everything but the sentinel row)."""
    # bottom * (2**rows - 1) repeats the column pattern 0b0111111 in every
    # column; the product cannot carry across columns.
    return _bottom_mask(rows, cols) * ((_ONE << np.uint64(rows)) - _ONE)


@njit(**JIT)
def _column_mask(rows: int, col: int) -> np.uint64:
    """A 1 on every playable cell of ``col``."""
    return ((_ONE << np.uint64(rows)) - _ONE) << np.uint64(col * (rows + 1))


@njit(**JIT)
def _top_cell(rows: int, col: int) -> np.uint64:
    """A 1 on the top playable cell of ``col``: set in ``mask`` iff the column is full."""
    return _ONE << np.uint64(rows - 1 + col * (rows + 1))


@njit(**JIT)
def _landing_cell(mask: np.uint64, rows: int, col: int) -> np.uint64:
    """The single bit where a stone dropped in ``col`` lands (column not full).

    Adding the column's bottom bit to ``mask`` carries through the stones
    already there and stops on the first empty cell.
    """
    return (mask + (_ONE << np.uint64(col * (rows + 1)))) & _column_mask(rows, col)


@njit(**JIT)
def _runs(stones: np.uint64, shift: int, k: int) -> np.uint64:
    """Bits where a run of ``k`` stones starts, along the line direction ``shift``.

    Doubling: ``r`` marks starts of runs of length ``length``; ``r & (r >>
    length*shift)`` marks runs of twice that.  The last step joins two runs of
    ``length >= k/2`` that overlap, so the whole thing takes O(log k) steps.
    Callers must skip directions where no line is ``k`` long (the shift would
    reach past the 64-bit word).
    """
    r = stones
    length = 1
    while 2 * length <= k:
        r &= r >> np.uint64(length * shift)
        length *= 2
    if length < k:
        r &= r >> np.uint64((k - length) * shift)
    return r


@njit(**JIT)
def _up(x: np.uint64, n: int) -> np.uint64:
    """``x << n``, 0 when the shift leaves the word (numba, like C, leaves n >= 64 undefined)."""
    return x << np.uint64(n) if n < 64 else _ZERO


@njit(**JIT)
def _down(x: np.uint64, n: int) -> np.uint64:
    """``x >> n``, 0 when the shift leaves the word."""
    return x >> np.uint64(n) if n < 64 else _ZERO


@njit(**JIT)
def _exact_runs(stones: np.uint64, shift: int, k: int, exact_k: int) -> np.uint64:
    """Starts of winning runs along ``shift``: ``k`` or more stones, or exactly ``k`` with ``exact_k``.

    A run of ``k`` starting at bit ``p`` is exactly ``k`` long when neither
    ``p - shift`` nor ``p + k * shift`` holds a stone (``stones << shift``
    has bit ``p`` set when ``p - shift`` does).
    """
    r = _runs(stones, shift, k)
    if exact_k:
        r &= ~_up(stones, shift) & ~_down(stones, k * shift)
    return r


@njit(**JIT)
def _has_run(stones: np.uint64, rules: Rules) -> bool:
    """True if ``stones`` contain a winning line: ``k`` or more in a row (exactly ``k`` with ``exact_k``).

    After a move this is the "lines through the last stone" check: the game
    would have ended at any earlier winning line, so any one found includes
    the new stone; four word-parallel tests beat walking the lines.
    """
    rows, cols, k, exact_k = rules.rows, rules.cols, rules.k, rules.exact_k
    if k <= rows and _exact_runs(stones, 1, k, exact_k) != _ZERO:  # vertical
        return True
    if k <= cols and _exact_runs(stones, rows + 1, k, exact_k) != _ZERO:  # horizontal
        return True
    if k <= min(rows, cols):
        if _exact_runs(stones, rows + 2, k, exact_k) != _ZERO:  # diagonal, up-right
            return True
        if _exact_runs(stones, rows, k, exact_k) != _ZERO:  # diagonal, down-right
            return True
    return False


@njit(**JIT)
def _winning_cells(stones: np.uint64, rules: Rules) -> np.uint64:
    """Every cell (empty or not) where one more stone gives ``stones`` a winning line (Pons' "winning position").

    Along a line with step ``s`` (1 up, ``rows + 1`` right, ``rows + 2``
    up-right, ``rows`` down-right), cell ``e`` wins when it has ``a`` own
    stones right behind it and ``k - 1 - a`` right ahead, for some ``a``:
    an AND of shifted copies per ``a`` (``stones << d*s`` has bit ``e`` set
    when cell ``e - d*s`` holds a stone).  With ``exact_k`` the cells just
    past both ends must not hold a stone.  A window leaving the board lands
    on a sentinel bit or off the word, never a stone, so no line wraps.  The
    result has bits on occupied cells, sentinels and past the board too:
    callers AND it with the empty (or playable) cells.

    Worked example (6x7, ``k = 4``, horizontal step 7): own stones on bits 7,
    14 and 21 (row 0 of columns 1-3).  ``stones << 7`` has bits 14, 21, 28
    and ``stones << 14`` bits 21, 28, 35: their AND with ``stones << 21``
    (28, 35, 42) is bit 28, column 4, with three own stones behind it; the
    mirrored pattern finds bit 0, column 0: the two cells that complete the row.

    Directions shorter than ``k`` are skipped, and with gravity the vertical
    needs only ``a = k - 1`` (nothing lies above an empty cell).  ``k = 4``
    without ``exact_k`` (Connect-4) takes an unrolled path, as Pons'
    ``compute_winning_position``: six times faster than the loops.
    """
    rows, cols, k, exact_k, gravity = rules.rows, rules.cols, rules.k, rules.exact_k, rules.gravity
    if k == 4 and not exact_k and 3 * (rows + 2) < 64:  # every shift below stays inside the word
        won = _ZERO
        for s in (np.uint64(1), np.uint64(rows + 1), np.uint64(rows + 2), np.uint64(rows)):
            if gravity and s == _ONE:
                won |= (stones << _ONE) & (stones << np.uint64(2)) & (stones << np.uint64(3))  # three below
                continue
            s2, s3 = s + s, s + s + s
            pair = (stones << s) & (stones << s2)  # two behind
            won |= pair & ((stones << s3) | (stones >> s))  # OOO. and OO.O
            pair = (stones >> s) & (stones >> s2)  # two ahead
            won |= pair & ((stones >> s3) | (stones << s))  # .OOO and O.OO
        return won
    won = _ZERO
    for d in range(4):
        if d == 0:
            s, length = 1, rows  # vertical
        elif d == 1:
            s, length = rows + 1, cols  # horizontal
        elif d == 2:
            s, length = rows + 2, min(rows, cols)  # diagonal up-right
        else:
            s, length = rows, min(rows, cols)  # diagonal down-right
        if length < k:
            continue
        first = k - 1 if gravity and d == 0 else 0
        for a in range(first, k):
            window = ~_ZERO
            for i in range(1, a + 1):
                window &= _up(stones, i * s)
            for i in range(1, k - a):
                window &= _down(stones, i * s)
            if exact_k:
                window &= ~_up(stones, (a + 1) * s) & ~_down(stones, (k - a) * s)
            won |= window
    return won


@njit(**JIT)
def _popcount(x: np.uint64) -> int:
    """Number of set bits (SWAR; numba has no portable popcount intrinsic)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(**JIT)
def _cell_bit(rows: int, row_from_top: int, col: int) -> np.uint64:
    """The bit of cell ``(row_from_top, col)`` (row 0 on top, as the array boards and observations have it)."""
    return _ONE << np.uint64(col * (rows + 1) + rows - 1 - row_from_top)


@njit(**JIT)
def _from_board(board: np.ndarray, rows: int, cols: int, ply: int) -> tuple[np.uint64, np.uint64]:
    """Convert an array board (see _board.py) to ``(current, mask)``.

    board : int8[rows * cols], row 0 at the top; ``ply`` stones on it.
    """
    current = _ZERO
    mask = _ZERO
    to_move = 1 + (ply & 1)
    for cell in range(rows * cols):
        stone = board[cell]
        if stone != 0:
            row_from_top, col = cell // cols, cell % cols
            bit = _cell_bit(rows, row_from_top, col)
            mask |= bit
            if stone == to_move:
                current |= bit
    return current, mask


@njit(**JIT)
def _random_playout_bb(current: np.uint64, mask: np.uint64, ply: int, rules: Rules, rng: np.ndarray) -> tuple[int, int]:
    """Play uniformly random moves to the end; return ``(winner, final ply)``.

    Same contract and same random choices as ``_board._random_playout`` with
    gravity (the open columns are drawn from the same swap-remove pool), so a
    seed gives the same game on either representation.
    """
    rows, cols = rules.rows, rules.cols
    pool = np.empty(cols, dtype=np.int64)
    n = 0
    for col in range(cols):
        if mask & _top_cell(rows, col) == _ZERO:
            pool[n] = col
            n += 1
    while n > 0:
        i = _below(rng, n)
        col = pool[i]
        bit = _landing_cell(mask, rows, col)
        if bit == _top_cell(rows, col):
            n -= 1
            pool[i] = pool[n]
        mask |= bit
        mine = current | bit
        ply += 1
        if _has_run(mine, rules):
            return (ply - 1) & 1, ply
        current = mine ^ mask  # the opponent's stones: they move next
    return -1, ply


@njit(**JIT)
def _expand_bb(
    currents: np.ndarray, masks: np.ndarray, ply: int, rules: Rules
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """All children of non-terminal positions ``(currents[i], masks[i])`` with ``ply`` stones.

    currents, masks : uint64[n].
    Returns ``(child_currents, child_masks, parent, ended)`` with ``ended`` 1
    where the move won, 2 where it filled the board without winning, else 0.
    """
    rows, cols = rules.rows, rules.cols
    n = currents.shape[0]
    total = 0
    for i in range(n):
        for col in range(cols):
            if masks[i] & _top_cell(rows, col) == _ZERO:
                total += 1
    child_currents = np.empty(total, dtype=np.uint64)
    child_masks = np.empty(total, dtype=np.uint64)
    parent = np.empty(total, dtype=np.int64)
    ended = np.zeros(total, dtype=np.int8)
    full = ply + 1 == rows * cols
    m = 0
    for i in range(n):
        for col in range(cols):
            if masks[i] & _top_cell(rows, col) != _ZERO:
                continue
            bit = _landing_cell(masks[i], rows, col)
            mine = currents[i] | bit
            child_masks[m] = masks[i] | bit
            child_currents[m] = mine ^ child_masks[m]
            parent[m] = i
            if _has_run(mine, rules):
                ended[m] = 1
            elif full:
                ended[m] = 2
            m += 1
    return child_currents, child_masks, parent, ended
