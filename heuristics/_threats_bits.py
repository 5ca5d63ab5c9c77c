"""The ``threats`` evaluator (``_threats``) on the bitboards of ``games._bits``: the same counts, word-parallel.

Layout (as ``heuristics._c4_bits``): a gravity board of ``rows x cols``
with ``(rows + 1) * cols <= 64``, bit ``col * (rows + 1) + row``, row 0 at
the bottom, the top bit of every column a sentinel that is never set::

      col  0  1  2  3  4  5  6          line direction      shift s
         .  6 13 20 27 34 41 48         vertical (up)           1
    row 5   5 12 19 26 33 40 47         horizontal (right)      H = rows + 1
    ...                                 diagonal up-right       H + 1
    row 0   0  7 14 21 28 35 42         diagonal down-right     H - 1

``X >> (i * s)`` has a 1 on every square whose i-th neighbour along the line
is in ``X``; off the board a step lands on a sentinel or leaves the word.
So, with ``free = squares & ~opponent`` (own or empty):

* ``live = AND_i free >> (i * s)``, i < k: the k-windows starting on each
  square that hold no opponent stone (and lie on the board);
* ``now = AND_i (own | playable) >> (i * s)``: those whose empty squares
  are all playable (``playable = (mask + bottom) & squares``: the add
  carries up each column to its first empty square);
* the own stones per window, bit-sliced: three counter words ``b0, b1, b2``
  take ``own >> (i * s)`` through a ripple-carry adder, one bit per
  window start; ``count == c`` is an AND of the three words or their
  complements, and ``popcount`` counts windows.

Worked example (6x7, k = 4, horizontal, s = 7): own stones on bits 0, 7, 14
(row 0, columns 0-2), bit 21 empty and playable.  ``free`` has 0, 7, 14, 21
...; ``live`` has bit 0 (window 0-7-14-21); the counter words give 3 at bit
0, so ``k - 3 = 1``: a ``w1_now`` window.  Its empty square is a threat:
``_winning_cells(own)`` (``games._bits``) has bit 21.

The threat squares of a player are the empty squares covered by its windows
with ``k - 1`` own stones (``OR_i W << (i * s)``, the same cover as fork
squares below).  They give the rest with a few word operations:
playable threats ``T & playable``, two or more ``T & (T - 1) != 0``,
stacked ``T & (T << 1)``, and the squares above (below) a threat of the
other player by smearing its word up (down) the columns one step at a time,
masked by the squares so nothing crosses a sentinel into the next column.
Fork squares: per direction, the squares covered by a ``k - 2`` window
(``OR_i W << (i * s)``), then a two-word saturating counter over the four
directions.  Cell terms are popcounts against constant masks: centre
column groups, and the square values bit-sliced into planes (``squares =
sum_j 2**j * popcount(own & plane_j)``).

The counts equal ``_threats``' array kernel's and go through the same
``_threats._weighted_sum``: the two return the same float, bit for bit (the
tests compare them).  :func:`fits` says where this kernel applies (k <= 7:
three counter bits; every shift below 64); elsewhere the search evaluates
the array board.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from games._jit import JIT
from heuristics._c4_bits import _count
from heuristics._square_values import square_value_table
from heuristics._threats import _weighted_sum, centre_group

_ONE = np.uint64(1)
_ZERO = np.uint64(0)

C_BOTTOM, C_BOARD, C_ODD, C_CENTRE, C_PLANE = 0, 1, 2, 3, 7
"""Indices into ``consts`` (:func:`constants`): bottom squares, all squares, odd rows (1, 3, ... from the
bottom), the 4 centre column groups, the 5 bit planes of the square values."""
N_PLANES = 5
"""Square values below 32 (at most 4 * MAX_K = 28 windows through a square)."""
N_CONSTS = C_PLANE + N_PLANES
MAX_K = 7
"""Three counter bits count at most 7 own stones per window."""


def fits(rows: int, cols: int, k: int) -> bool:
    """True if this kernel handles a ``rows x cols`` gravity board with ``k`` (layout, counter width, shifts < 64)."""
    return (rows + 1) * cols <= 64 and 2 <= k <= MAX_K and (k - 1) * (rows + 2) < 64


@lru_cache(maxsize=64)
def constants(rows: int, cols: int, k: int) -> np.ndarray:
    """The masks the kernel needs, read-only ``uint64[N_CONSTS]`` (see the ``C_*`` indices)."""
    height = rows + 1
    values = square_value_table(rows, cols, k)  # row 0 at the top
    assert int(values.max(initial=0)) < 1 << N_PLANES
    consts = np.zeros(N_CONSTS, dtype=np.uint64)
    for col in range(cols):
        for row in range(rows):  # row 0 at the bottom
            bit = np.uint64(1 << (col * height + row))
            consts[C_BOARD] |= bit
            if row == 0:
                consts[C_BOTTOM] |= bit
            if row % 2 == 0:
                consts[C_ODD] |= bit
            consts[C_CENTRE + centre_group(rows, cols, True, rows - 1 - row, col)] |= bit
            for j in range(N_PLANES):
                if int(values[rows - 1 - row, col]) >> j & 1:
                    consts[C_PLANE + j] |= bit
    consts.setflags(write=False)
    return consts


@njit(**JIT)
def _smear(x: np.uint64, board: np.uint64, rows: int, up: bool) -> np.uint64:
    """The squares strictly above (``up``) or below some square of ``x`` in its column.

    One step at a time, masked by ``board``: a step off a column lands on a
    sentinel (or leaves the word) and is dropped, so nothing reaches the next column.
    """
    out = _ZERO
    if x == _ZERO:
        return out
    for _ in range(rows - 1):
        x = ((x << _ONE) if up else (x >> _ONE)) & board
        out |= x
    return out


@njit(**JIT)
def _windows4(own: np.uint64, free: np.uint64, nowok: np.uint64, empty: np.uint64, height: int):  # type: ignore[no-untyped-def]
    """:func:`_windows` for k = 4, unrolled: a 4-input adder per direction (twice as fast as the loops)."""
    n1, n2, n3, a1, a2, a3 = 0, 0, 0, 0, 0, 0
    threats, one, two = _ZERO, _ZERO, _ZERO
    h = np.uint64(height)
    for s in (_ONE, h, h + _ONE, h - _ONE):
        s2, s3 = s + s, s + s + s
        live = free & (free >> s) & (free >> s2) & (free >> s3)
        now = nowok & (nowok >> s) & (nowok >> s2) & (nowok >> s3)
        x1, x2, x3 = own >> s, own >> s2, own >> s3
        # count = (own + x1) + (x2 + x3): two half adders, then their sum's bits 0 and 1 (4 has both 0).
        lo_a, hi_a, lo_b, hi_b = own ^ x1, own & x1, x2 ^ x3, x2 & x3
        ones = lo_a ^ lo_b
        twos = hi_a ^ hi_b ^ (lo_a & lo_b)
        eq3, eq2, eq1 = live & ones & twos, live & ~ones & twos, live & ones & ~twos
        n1 += _count(eq3 & now)
        a1 += _count(eq3)
        n2 += _count(eq2 & now)
        a2 += _count(eq2)
        n3 += _count(eq1 & now)
        a3 += _count(eq1)
        threats |= (eq3 | (eq3 << s) | (eq3 << s2) | (eq3 << s3)) & empty
        cover = (eq2 | (eq2 << s) | (eq2 << s2) | (eq2 << s3)) & empty
        two |= one & cover  # a second direction covers it
        one |= cover
    return n1, a1 - n1, n2, a2 - n2, n3, a3 - n3, 0, 0, threats, two


@njit(**JIT)
def _windows(own: np.uint64, free: np.uint64, nowok: np.uint64, empty: np.uint64, height: int, k: int):  # type: ignore[no-untyped-def]
    """Window counts of ``own`` and its threat and fork squares, over the four directions.

    Returns ``(n1, l1, n2, l2, n3, l3, n4, l4, threats, forks)``: ``nM`` /
    ``lM`` count the "now" / "later" windows with ``M = min(k - own stones,
    4)``; ``threats``: the empty squares completing a window; ``forks``:
    empty squares covered by ``k - 2`` windows along two or more directions.
    Scalars only (no arrays): a call from the search passes no reference-counted argument.
    """
    if k == 4:
        return _windows4(own, free, nowok, empty, height)
    n1, n2, n3, n4, a1, a2, a3, a4 = 0, 0, 0, 0, 0, 0, 0, 0
    threats, one, two = _ZERO, _ZERO, _ZERO
    for d in range(4):
        s = np.uint64(1 if d == 0 else (height if d == 1 else (height + 1 if d == 2 else height - 1)))
        live, now = free, nowok
        b0, b1, b2 = own, _ZERO, _ZERO  # the counter after the window's first square
        for i in range(1, k):
            sh = np.uint64(i) * s
            live &= free >> sh
            now &= nowok >> sh
            x = own >> sh
            carry = b0 & x
            b0 ^= x
            carry2 = b1 & carry
            b1 ^= carry
            b2 |= carry2  # at most 7 stones (MAX_K): no carry out of b2
        for c in range(1, k):
            eq = live & (b0 if c & 1 else ~b0) & (b1 if c & 2 else ~b1) & (b2 if c & 4 else ~b2)
            m = k - c
            if m == 1:
                n1 += _count(eq & now)
                a1 += _count(eq)
            elif m == 2:
                n2 += _count(eq & now)
                a2 += _count(eq)
            elif m == 3:
                n3 += _count(eq & now)
                a3 += _count(eq)
            else:
                n4 += _count(eq & now)
                a4 += _count(eq)
            if m <= 2:
                cover = eq
                for i in range(1, k):
                    cover |= eq << (np.uint64(i) * s)
                cover &= empty
                if m == 1:
                    threats |= cover
                else:
                    two |= one & cover  # a second direction covers it
                    one |= cover
    return n1, a1 - n1, n2, a2 - n2, n3, a3 - n3, n4, a4 - n4, threats, two


@njit(**JIT)
def _cells(own: np.uint64, consts):  # type: ignore[no-untyped-def]
    """``(squares, centre_0, .., centre_3)`` of ``own``: the square values (bit planes) and centre group counts."""
    # Unrolled: a tuple indexed by a loop variable costs a memory round trip per access.
    squares = (_count(own & consts[C_PLANE]) + (_count(own & consts[C_PLANE + 1]) << 1)
               + (_count(own & consts[C_PLANE + 2]) << 2) + (_count(own & consts[C_PLANE + 3]) << 3)
               + (_count(own & consts[C_PLANE + 4]) << 4))  # fmt: skip
    return (squares, _count(own & consts[C_CENTRE]), _count(own & consts[C_CENTRE + 1]),
            _count(own & consts[C_CENTRE + 2]), _count(own & consts[C_CENTRE + 3]))  # fmt: skip


@njit(**JIT)
def _threat_counts(mine: np.uint64, theirs: np.uint64, playable: np.uint64, consts, rows: int):  # type: ignore[no-untyped-def]
    """``(playable, multi, odd, even, stacked, under)`` of the threat squares ``mine`` against ``theirs``."""
    if mine == _ZERO:  # the common case before the endgame: skip the smears
        return 0, 0, 0, 0, 0, 0
    board = consts[C_BOARD]
    live = mine & ~playable & ~_smear(theirs, board, rows, True)  # none of theirs lower in the column
    return (_count(mine & playable), 1 if mine & (mine - _ONE) != _ZERO else 0, _count(live & consts[C_ODD]),
            _count(live & ~consts[C_ODD]), _count(mine & (mine << _ONE)),
            _count(mine & _smear(theirs, board, rows, False)))  # fmt: skip


@njit(**JIT)
def _evaluate_bits(me, mask, rows, k, consts, weights):  # type: ignore[no-untyped-def]
    """``threats`` value for the side to move, whose stones are ``me`` (a subset of ``mask``, the occupied squares).

    me, mask : uint64, a gravity position; which colour moves is read off the
    stone count (even: stone 1, the first player); consts : the ``N_CONSTS``
    masks of :func:`constants`; weights : the ``N_FEATURES`` weights in SPEC
    order, an array or a tuple.  Equal to ``_threats._evaluate`` on the same
    position, bit for bit.
    """
    board = consts[C_BOARD]
    opp = me ^ mask
    empty = board & ~mask
    playable = (mask + consts[C_BOTTOM]) & board  # adding the bottom row carries to each column's first empty square
    height = rows + 1
    a = _windows(me, board & ~opp, me | playable, empty, height, k)
    b = _windows(opp, board & ~me, opp | playable, empty, height, k)
    ta = _threat_counts(a[8], b[8], playable, consts, rows)
    tb = _threat_counts(b[8], a[8], playable, consts, rows)
    ca, cb = _cells(me, consts), _cells(opp, consts)
    # Parity counts by colour: me is stone 1 (first) when the stone count is even.
    first = _count(mask) % 2 == 0
    f_odd, f_even = (ta[2], ta[3]) if first else (-tb[2], -tb[3])
    s_odd, s_even = (-tb[2], -tb[3]) if first else (ta[2], ta[3])
    counts = (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4], a[5] - b[5], a[6] - b[6], a[7] - b[7],
              ta[0], -tb[0], ta[1] - tb[1], _count(a[9]) - _count(b[9]), f_odd, f_even, s_odd, s_even,
              ta[4] - tb[4], ta[5] - tb[5], 0, 0, 0, ca[0] - cb[0], ca[1] - cb[1], ca[2] - cb[2], ca[3] - cb[3],
              ca[4] - cb[4], 1)  # fmt: skip
    return _weighted_sum(weights, counts)
