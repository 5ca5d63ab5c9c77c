"""The gomoku engine's incremental board state: line keys, patterns, threat classes, values, candidates.

One stone changes the segments of the cells within ``H`` (:func:`heuristics._gomoku_lines.half_width`)
along the four lines through it, and nothing else, so :func:`_make` and :func:`_unmake` update the keys,
patterns, classes and values of those ``8 H`` cells only: O(k) per move (the Bologna m,n,k project names
O(k) as the improvement on its O(k^2) update).  Unmake recomputes the same cells from the restored keys,
so the state after make + unmake equals the state before (``tests/test_gomoku_patterns.py`` checks it
against a from-scratch build after random sequences).

The state is a tuple of arrays, ``st``; ``n = rows * cols``, colour 0 is the first player (stone 1)::

    board : int8[n]          0 empty, 1, 2
    keys  : int64[4 n]       segment key of cell c in direction d at 4 c + d (heuristics._gomoku_lines)
    pats  : int8[8 n]        pattern code of (colour, cell, direction) at 4 (colour n + c) + d
    cls   : int8[2 n]        threat class (CLASS_*) of (colour, cell) at colour n + c
    val   : float64[2 n]     value of (colour, cell): sum of its pattern weights plus its class bonus
    idx   : int32[3 n]       near[c] (stones within a king's distance 2), the candidate list, each cell's
                             place in it (-1: not listed)
    meta  : int64[M_SIZE]    candidates listed, stones, Zobrist hash, then empty cells per (colour, class)
    sums  : float64[2]       sum of ``val`` over the empty cells, per colour

and the constants ``cfg = (geo, table, weights, zobrist, memo)``: ``geo`` int64[G_SIZE] (rows, cols, k,
exact_k, H, tabled), the pattern table, the weights (:data:`WEIGHT_NAMES` order), the Zobrist keys
(int64[2 n]) and the memo of scanned patterns where they are not tabled
(:func:`heuristics._gomoku_lines.pattern_memo`; a cache, so not quite constant, but it changes no value).
A cell is a *candidate* move if it is empty and has a stone within distance 2 or makes an open three or better for either colour (cells that make or break patterns, not only a radius).
"""

# Kernels return elements of untyped NumPy arrays, which mypy reads as Any; numba types them itself.
# mypy: disable-error-code="no-any-return"
from __future__ import annotations

import numpy as np
from numba import njit

from games._jit import JIT, JIT_INLINE
from heuristics._gomoku_lines import FIVE, FOUR, OPEN_FOUR, OPEN_THREE, WEAK, _as_first, _code_of, _memo_code

CLASS_NONE, CLASS_LOW, CLASS_OPEN_THREE, CLASS_DOUBLE_THREE, CLASS_FOUR, CLASS_FOUR_THREE, CLASS_WIN, CLASS_FIVE = map(
    np.int64, range(8)
)
N_CLASSES = 8
"""Threat classes of a cell for one colour, weakest first: nothing, a weak pattern, an open three, two
open threes, a four, a four and an open three, a sure win next move (an open four or two fours), a five.

int64s, not ints: numba types a global int as a literal, and a kernel called with a class (``_count(st, colour,
CLASS_FIVE)``) would compile once per class.  Kernels likewise pass ``np.int64(1)``, not ``1``, and cast the int32
or int8 cells and stones they read from arrays: one signature per kernel, one compile."""

M_CANDIDATES, M_STONES, M_HASH, M_COUNTS = 0, 1, 2, 3
M_SIZE = M_COUNTS + 2 * N_CLASSES
G_ROWS, G_COLS, G_K, G_EXACT, G_HALF, G_TABLED = range(6)
G_SIZE = 6

W_DOUBLE_THREE, W_FOUR_THREE, W_WIN, W_DEFENCE = 9, 10, 11, 12
WEIGHT_NAMES = ("weak", "two", "open_two", "three", "open_three", "four", "open_four",
                "double_three", "four_three", "double_four", "defence")  # fmt: skip
"""The gomoku evaluator's weights, in kernel order (:func:`kernel_weights` maps them to the layout above)."""

NEAR = 2
"""A cell within this king's distance of a stone is a candidate move."""

_DR = np.array([0, 1, 1, 1], dtype=np.int64)
_DC = np.array([1, 0, 1, -1], dtype=np.int64)


def kernel_weights(values: np.ndarray) -> np.ndarray:
    """The kernel's float64[13] from the named weights (``WEIGHT_NAMES`` order): per pattern code, the bonuses,
    then the ordering's share of the opponent's value of a cell (blocking)."""
    out = np.zeros(13, dtype=np.float64)
    out[1:8] = values[0:7]  # weak .. open_four by pattern code (NONE and FIVE score nothing: a five is a win)
    out[W_DOUBLE_THREE], out[W_FOUR_THREE], out[W_WIN], out[W_DEFENCE] = values[7], values[8], values[9], values[10]
    return out


@njit(**JIT)
def _class_of(pats: np.ndarray, base: int) -> int:
    """The threat class of the four pattern codes at ``pats[base:base + 4]``."""
    fives = fours = open_fours = threes = low = np.int64(0)  # a literal 0 would compile _grade for (0, 0, 0, 0, 0) too
    for d in range(4):
        code = pats[base + d]
        if code == FIVE:
            fives += 1
        elif code == OPEN_FOUR:
            open_fours += 1
        elif code == FOUR:
            fours += 1
        elif code == OPEN_THREE:
            threes += 1
        elif code >= WEAK:
            low += 1
    return _grade(fives, open_fours, fours, threes, low)


@njit(**JIT)
def _value_of(pats: np.ndarray, base: int, cls: int, weights: np.ndarray) -> float:
    """Value of a cell for one colour: its four pattern weights plus the bonus of its class."""
    value = 0.0
    for d in range(4):
        value += weights[pats[base + d]]
    if cls == CLASS_DOUBLE_THREE:
        value += weights[W_DOUBLE_THREE]
    elif cls == CLASS_FOUR_THREE:
        value += weights[W_FOUR_THREE]
    elif cls == CLASS_WIN:
        value += weights[W_WIN]
    return value


@njit(**JIT_INLINE)
def _list(idx: np.ndarray, meta: np.ndarray, n: int, cell: int, wanted: bool) -> None:
    """Put ``cell`` in the candidate list or take it out (O(1): the last entry fills the hole)."""
    place = idx[2 * n + cell]
    if wanted and place < 0:
        count = meta[M_CANDIDATES]
        idx[n + count] = cell
        idx[2 * n + cell] = count
        meta[M_CANDIDATES] = count + 1
    elif not wanted and place >= 0:
        last = meta[M_CANDIDATES] - 1
        moved = idx[n + last]
        idx[n + place] = moved
        idx[2 * n + moved] = place
        idx[2 * n + cell] = -1
        meta[M_CANDIDATES] = last


@njit(**JIT)
def _wanted(st, n: int, cell: int) -> bool:  # type: ignore[no-untyped-def]
    """True if ``cell`` belongs in the candidate list (empty, and near a stone or an open-three cell)."""
    board, cls, idx = st[0], st[3], st[5]
    if board[cell] != 0:
        return False
    return idx[cell] > 0 or cls[cell] >= CLASS_OPEN_THREE or cls[n + cell] >= CLASS_OPEN_THREE


@njit(**JIT)
def _count(st, n: int, cell: int, sign: int) -> None:  # type: ignore[no-untyped-def]
    """Add (sign 1) or remove (-1) ``cell``'s classes and values to the per-colour totals."""
    cls, val, meta, sums = st[3], st[4], st[6], st[7]
    for colour in range(2):
        meta[M_COUNTS + colour * N_CLASSES + cls[colour * n + cell]] += sign
        sums[colour] += sign * val[colour * n + cell]


@njit(**JIT)
def _refresh(st, cfg, n: int, cell: int, d: int) -> None:  # type: ignore[no-untyped-def]
    """Recompute ``cell``'s patterns in direction ``d`` (its key changed), then its classes and values."""
    board, keys, pats, cls, val = st[0], st[1], st[2], st[3], st[4]
    geo, table, weights, memo = cfg[0], cfg[1], cfg[2], cfg[4]
    empty = board[cell] == 0
    if empty:
        _count(st, n, cell, np.int64(-1))
    key = keys[4 * cell + d]
    for colour in range(2):
        base = 4 * (colour * n + cell)
        pats[base + d] = _code_of(key, colour, geo[G_HALF], geo[G_K], geo[G_EXACT] == 1, table, geo[G_TABLED] == 1,
                                  memo)  # fmt: skip
        c = _class_of(pats, base)
        cls[colour * n + cell] = c
        val[colour * n + cell] = _value_of(pats, base, c, weights)
    if empty:
        _count(st, n, cell, np.int64(1))


@njit(**JIT)
def _digit(offset: int, half: int) -> int:
    """The digit index of a cell at ``offset`` (-H..-1, 1..H) along a line (heuristics._gomoku_lines)."""
    return offset + half if offset < 0 else offset + half - 1


@njit(**JIT)
def _touch(st, cfg, cell: int, stone: int, sign: int) -> None:  # type: ignore[no-untyped-def]
    """Add (sign 1) or remove (-1) ``stone`` on ``cell`` in the keys of the cells whose segments hold it,
    and recompute those cells' patterns, classes and values, the totals and the candidate list.

    One function with every array unpacked once: each helper call taking arrays costs a reference count
    per array, which was most of the time of a move (14.6 us per make + unmake on 15x15 with helpers).
    """
    board, keys, pats, cls, val, idx, meta, sums = st
    geo, table, weights, memo = cfg[0], cfg[1], cfg[2], cfg[4]
    rows, cols, half, k = geo[G_ROWS], geo[G_COLS], geo[G_HALF], geo[G_K]
    exact, tabled = geo[G_EXACT] == 1, geo[G_TABLED] == 1
    n = rows * cols
    row, col = cell // cols, cell % cols
    for d in range(4):
        dr, dc = _DR[d], _DC[d]
        for j in range(-half, half + 1):
            r, c = row + j * dr, col + j * dc
            if j == 0 or r < 0 or r >= rows or c < 0 or c >= cols:
                continue
            other = r * cols + c
            digit = -j + half if j > 0 else -j + half - 1
            key = keys[4 * other + d] + sign * (np.int64(stone) << np.int64(2 * digit))
            keys[4 * other + d] = key
            empty = board[other] == 0
            for colour in range(2):
                at = colour * n + other
                if empty:
                    meta[M_COUNTS + colour * N_CLASSES + cls[at]] -= 1
                    sums[colour] -= val[at]
                base = 4 * at
                own_key = _as_first(key) if colour == 1 else key
                pats[base + d] = table[own_key] if tabled else _memo_code(own_key, half, k, exact, memo)
                value = 0.0
                for e in range(4):
                    value += weights[pats[base + e]]
                grade = _class_of(pats, base)
                cls[at] = grade
                val[at] = value + _bonus(grade, weights[W_DOUBLE_THREE], weights[W_FOUR_THREE], weights[W_WIN])
                if empty:
                    meta[M_COUNTS + colour * N_CLASSES + grade] += 1
                    sums[colour] += val[at]
            if empty:
                _list(idx, meta, n, other, idx[other] > 0 or cls[other] >= CLASS_OPEN_THREE
                      or cls[n + other] >= CLASS_OPEN_THREE)  # fmt: skip
    for r in range(max(0, row - NEAR), min(rows, row + NEAR + 1)):
        for c in range(max(0, col - NEAR), min(cols, col + NEAR + 1)):
            other = r * cols + c
            idx[other] += sign
            _list(idx, meta, n, other, board[other] == 0 and (idx[other] > 0 or cls[other] >= CLASS_OPEN_THREE
                                                              or cls[n + other] >= CLASS_OPEN_THREE))  # fmt: skip


@njit(**JIT)
def _grade(fives: int, open_fours: int, fours: int, threes: int, low: int) -> np.int64:
    """The threat class from the counts of a cell's four pattern codes."""
    if fives:
        return CLASS_FIVE
    if open_fours or fours >= 2:
        return CLASS_WIN
    if fours:
        return CLASS_FOUR_THREE if threes else CLASS_FOUR
    if threes:
        return CLASS_DOUBLE_THREE if threes >= 2 else CLASS_OPEN_THREE
    return CLASS_LOW if low else CLASS_NONE


@njit(**JIT)
def _bonus(grade: int, double_three: float, four_three: float, win: float) -> float:
    """The class bonus of a cell's value."""
    if grade == CLASS_DOUBLE_THREE:
        return double_three
    if grade == CLASS_FOUR_THREE:
        return four_three
    if grade == CLASS_WIN:
        return win
    return 0.0


@njit(**JIT)
def _make(st, cfg, cell: int, colour: int) -> None:  # type: ignore[no-untyped-def]
    """Play ``colour``'s stone (0 or 1) on the empty ``cell`` and update everything it changes: O(k + NEAR^2)."""
    board, meta = st[0], st[6]
    n = board.shape[0]
    _count(st, n, cell, np.int64(-1))
    board[cell] = colour + 1
    meta[M_STONES] += 1
    meta[M_HASH] ^= cfg[3][2 * cell + colour]
    _list(st[5], meta, n, cell, False)
    _touch(st, cfg, cell, colour + 1, np.int64(1))


@njit(**JIT)
def _unmake(st, cfg, cell: int) -> None:  # type: ignore[no-untyped-def]
    """Take the stone back from ``cell`` (the last one played): the exact inverse of :func:`_make`."""
    board, meta = st[0], st[6]
    n = board.shape[0]
    stone = board[cell]
    board[cell] = 0
    meta[M_STONES] -= 1
    meta[M_HASH] ^= cfg[3][2 * cell + stone - 1]
    _touch(st, cfg, cell, np.int64(stone), np.int64(-1))
    _count(st, n, cell, np.int64(1))
    _list(st[5], meta, n, cell, _wanted(st, n, cell))


@njit(**JIT)
def _init(st, cfg) -> None:  # type: ignore[no-untyped-def]
    """The empty board's state: keys hold the edges, every pattern and value computed, no candidates."""
    board, keys, idx, meta, sums = st[0], st[1], st[5], st[6], st[7]
    geo = cfg[0]
    rows, cols, half = geo[G_ROWS], geo[G_COLS], geo[G_HALF]
    n = rows * cols
    board[:] = 0
    idx[:n] = 0
    idx[2 * n :] = -1
    meta[:] = 0
    sums[:] = 0.0
    st[2][:] = 0
    for cell in range(n):
        row, col = cell // cols, cell % cols
        for d in range(4):
            key = np.int64(0)
            for j in range(-half, half + 1):
                r, c = row + j * _DR[d], col + j * _DC[d]
                if j != 0 and (r < 0 or r >= rows or c < 0 or c >= cols):
                    key |= np.int64(3) << np.int64(2 * _digit(j, half))
            keys[4 * cell + d] = key
    for cell in range(n):
        st[3][cell] = CLASS_NONE
        st[3][n + cell] = CLASS_NONE
        st[4][cell] = 0.0
        st[4][n + cell] = 0.0
        _count(st, n, cell, np.int64(1))  # counted as empty with class NONE, value 0 before the real values
        for d in range(4):
            _refresh(st, cfg, n, cell, d)
