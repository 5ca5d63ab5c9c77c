"""The c4_features heuristic (``_c4_features``) on the bitboards of ``games._bits``: the same counts, word-parallel.

Layout: a gravity board of ``rows x cols`` with ``(rows + 1) * cols <= 64``,
bit ``col * (rows + 1) + row``, row 0 at the bottom, the top bit of every
column a sentinel that is never set (see ``games._bits``)::

      col  0  1  2  3  4  5  6          line direction      shift s
         .  6 13 20 27 34 41 48         vertical (up)           1
    row 5   5 12 19 26 33 40 47         horizontal (right)      H = rows + 1
    ...                                 diagonal up-right       H + 1
    row 0   0  7 14 21 28 35 42         diagonal down-right     H - 1

For a set of stones ``P``, ``P >> s`` has a 1 on every square whose
neighbour one step along the line is in ``P`` (``P << s``: the neighbour one
step back).  A step off the top or bottom of a column lands on a sentinel
bit, a step off the left or right edge falls out of the word, so a pattern
never continues across an edge: ANDing shifted copies finds every line
pattern at once, and ``popcount`` counts it.  Every pattern below is anchored
at its first square (the run start / window start), so each is counted once.

Worked example, the features of ``_c4_features`` in bit form for one shift
``s`` (``E``: empty squares, ``A``: available squares, the lowest empty
square of each column)::

    four            P & P>>s & P>>2s & P>>3s
    broken three    P & E>>s & P>>2s & P>>3s   |   P & P>>s & E>>2s & P>>3s
    run of three    P & ~(P<<s) & P>>s & P>>2s & ~(P>>3s), ends A<<s and A>>3s
    run of two      P & ~(P<<s) & P>>s & ~(P>>2s),         ends A<<s and A>>2s

The features do not depend on which way a line is walked (a run's two ends,
a window's mirror image are the same feature), so one shift per line
orientation finds what the array kernel finds from its anchors.  Counts,
own minus opponent's, are weighted in ``_c4_features._weighted_sum``'s order
(written out in :func:`_value`): the two kernels return the same float, bit
for bit (the tests compare them).  :func:`_evaluate_columns` evaluates the
position plus one stone in each column at once, vectorized over the columns
(a search's leaves below one node).

Shift amounts reach ``3 * (rows + 2)``, so callers use this kernel only for
``rows <= 19`` (:func:`fits`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from games._jit import JIT, JIT_INLINE
from heuristics._c4_features import _lone_group

_ONE = np.uint64(1)
_ZERO = np.uint64(0)

C_BOTTOM, C_BOARD, C_LONE = 0, 1, 2
"""Indices into ``consts`` (see :func:`constants`): bottom squares, all squares, F4 column groups d, c/e, b/f, a/g."""
N_CONSTS = C_LONE + 4
LANES = 8
"""Columns :func:`_evaluate_columns` evaluates per pass: its ``out`` holds a multiple of this (:func:`lanes_for`)."""


_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(**JIT)
def _count(x: np.uint64) -> np.int64:
    """Set bits of ``x``, as an int64.

    The SWAR sum of ``games._bits._popcount``, which LLVM compiles to one
    ``popcnt`` instruction (LLVM inlines it into every caller: no call is
    left around it, see ``games._jit``), cast with ``np.int64`` (``int()`` of a uint64
    stays a uint64, which numba would mix with int64 into float).
    """
    x = x - ((x >> _ONE) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


def fits(rows: int, cols: int) -> bool:
    """True if this kernel handles a ``rows x cols`` gravity board (bitboard layout, shifts below 64)."""
    return (rows + 1) * cols <= 64 and 3 * (rows + 2) < 64


@lru_cache(maxsize=64)
def constants(rows: int, cols: int) -> np.ndarray:
    """The masks the kernel needs, read-only ``uint64[N_CONSTS]`` (see the ``C_*`` indices)."""
    height = rows + 1
    consts = np.zeros(N_CONSTS, dtype=np.uint64)
    for col in range(cols):
        column = ((1 << rows) - 1) << (col * height)
        consts[C_BOTTOM] |= np.uint64(1 << (col * height))
        consts[C_BOARD] |= np.uint64(column)
        consts[C_LONE + _lone_group(cols, col)] |= np.uint64(column)
    consts.setflags(write=False)
    return consts


@njit(**JIT)
def _line_counts(own: np.uint64, empty: np.uint64, available: np.uint64, s: np.uint64):  # type: ignore[no-untyped-def]
    """Counts of ``own``'s line features along shift ``s``.

    Returns ``(four, three_open, three_half, three_closed, broken, two_open,
    two_side, two_closed)``; ``two_side`` counts the available squares
    beyond the open end of each one-sided two, at most 2 (``_SIDE_CAP``).
    """
    s2, s3 = s + s, s + s + s
    next1, next2, next3 = own >> s, own >> s2, own >> s3
    four = _count(own & next1 & next2 & next3)
    # O.OO and OO.O differ in their second square, so they never overlap: one count for both
    broken = _count(own & next3 & (((empty >> s) & next2) | (next1 & (empty >> s2))))
    start = own & ~(own << s)  # the square before is not own: a maximal run starts here
    before = available << s
    three = start & next1 & next2 & ~next3
    after3 = available >> s3
    three_open = _count(three & before & after3)
    three_half = _count(three & (before ^ after3))
    three_closed = _count(three & ~(before | after3))
    two = start & next1 & ~next2
    after2 = available >> s2
    two_open = _count(two & before & after2)
    only_before = two & before & ~after2
    only_after = two & after2 & ~before
    # One side open: the end square counts, and the next one out if it is available too (the two
    # sides are disjoint sets of runs, so each pair of counts is one count of a union).
    two_side = _count(only_before | only_after) + _count((only_before & (available << s2)) | (only_after & (available >> s3)))
    two_closed = _count(two & ~(before | after2))
    return four, three_open, three_half, three_closed, broken, two_open, two_side, two_closed


@njit(**JIT)
def _lone(own: np.uint64, height: np.uint64) -> np.uint64:
    """``own``'s stones with no own stone among their 8 neighbours (F4).

    The sentinel row and the word's ends keep neighbours from wrapping, as for lines.
    """
    up, right = _ONE, height
    up_right, down_right = height + _ONE, height - _ONE
    near = ((own << up) | (own >> up) | (own << right) | (own >> right)
            | (own << up_right) | (own >> up_right) | (own << down_right) | (own >> down_right))  # fmt: skip
    return own & ~near


@njit(**JIT)
def _vertical_counts(own: np.uint64, available: np.uint64):  # type: ignore[no-untyped-def]
    """``_line_counts`` along the columns (shift 1), for gravity positions: most features cannot occur there.

    With gravity the square below a stone is never empty, so a vertical run
    has no open end below and a vertical broken three has a floating stone:
    threes are half-open (the square above is available) or closed, twos
    one-sided with one available square at most (the next square up floats)
    or closed.  Returns the same 8 counts.
    """
    next1, next2, next3 = own >> _ONE, own >> np.uint64(2), own >> np.uint64(3)
    four = _count(own & next1 & next2 & next3)
    start = own & ~(own << _ONE)
    three = start & next1 & next2 & ~next3
    after3 = available >> np.uint64(3)
    two = start & next1 & ~next2
    after2 = available >> np.uint64(2)
    return (four, 0, _count(three & after3), _count(three & ~after3), 0, 0, _count(two & after2),
            _count(two & ~after2))  # fmt: skip


@njit(**JIT_INLINE)  # in each evaluator's body, so that LLVM can vectorize _evaluate_columns' loop (see there)
def _player_counts(own, empty, available, rows, lone_groups):  # type: ignore[no-untyped-def]
    """The 12 feature counts of ``own`` in SPEC (weight) order; ``lone_groups``: the 4 F4 column masks."""
    height = np.uint64(rows + 1)
    f1, f2o, f2h, f2c, br, f3o, f3s, f3c = _vertical_counts(own, available)
    for s in (height, height + _ONE, height - _ONE):
        a, b, c, d, e, f, g, h = _line_counts(own, empty, available, s)
        f1 += a
        f2o += b
        f2h += c
        f2c += d
        br += e
        f3o += f
        f3s += g
        f3c += h
    lone = _lone(own, height)
    return (f1, f2o, f2h, f2c, br, f3o, f3s, f3c, _count(lone & lone_groups[0]), _count(lone & lone_groups[1]),
            _count(lone & lone_groups[2]), _count(lone & lone_groups[3]))  # fmt: skip


@njit(**JIT_INLINE)  # the body of both evaluators below (see _evaluate_columns)
def _value(me, mask, rows, consts, weights):  # type: ignore[no-untyped-def]
    """:func:`_evaluate_bits`' value: the counts of both players, weighted.

    The weighted sum is ``_c4_features._weighted_sum``'s, written out: the
    same products added in the same order from 0.0, so the same float to the
    bit; a loop indexing the weights tuple compiles to a branch table per
    weight, which costs a third of an evaluation and keeps LLVM from
    vectorizing :func:`_evaluate_columns`.
    """
    full = consts[C_BOARD]
    empty = full & ~mask
    available = (mask + consts[C_BOTTOM]) & full  # adding the bottom row carries to each column's first empty square
    lone_groups = (consts[C_LONE], consts[C_LONE + 1], consts[C_LONE + 2], consts[C_LONE + 3])
    a = _player_counts(me, empty, available, rows, lone_groups)
    b = _player_counts(me ^ mask, empty, available, rows, lone_groups)
    total = 0.0
    total += weights[0] * (a[0] - b[0])
    total += weights[1] * (a[1] - b[1])
    total += weights[2] * (a[2] - b[2])
    total += weights[3] * (a[3] - b[3])
    total += weights[4] * (a[4] - b[4])
    total += weights[5] * (a[5] - b[5])
    total += weights[6] * (a[6] - b[6])
    total += weights[7] * (a[7] - b[7])
    total += weights[8] * (a[8] - b[8])
    total += weights[9] * (a[9] - b[9])
    total += weights[10] * (a[10] - b[10])
    total += weights[11] * (a[11] - b[11])
    return total


@njit(**JIT)
def _evaluate_bits(me, mask, rows, consts, weights):  # type: ignore[no-untyped-def]
    """c4_features value for the owner of ``me`` (a subset of ``mask``, the occupied squares).

    me, mask : uint64, a gravity position (stones only on stones or the
    bottom row); consts : the ``N_CONSTS`` masks of :func:`constants`,
    weights : the 12 weights in SPEC order, each an array or a tuple (the
    search passes tuples: plain values, which numba passes without reference
    counting).  Equal to ``_c4_features._evaluate`` on the same position, bit for bit.
    """
    return _value(me, mask, rows, consts, weights)


def lanes_for(cols: int) -> int:
    """The length of :func:`_evaluate_columns`' ``out`` for ``cols`` columns: ``cols`` rounded up to :data:`LANES`."""
    return -(-cols // LANES) * LANES


@njit(**JIT)
def _evaluate_columns(me, mask, playable, rows, cols, consts, weights, out):  # type: ignore[no-untyped-def]
    """``out[c]`` = :func:`_evaluate_bits` ``(me, mask | s)`` for every column ``c``, ``s`` its square in ``playable``.

    playable : uint64, at most one square per column (each column's first
    empty square: the moves of the side not owning ``me``); a column without
    one gets the value of ``mask`` itself.  out : float64[lanes_for(cols)],
    contiguous; entries from ``cols`` on are scratch.

    Why: a search's leaves below one node are the node's position plus one
    stone in each column.  With the evaluator's body inlined here (numba's
    IR inlining of ``_value`` and ``_player_counts``) the loop over
    :data:`LANES` columns has no call left in it, and LLVM vectorizes it:
    one lane per column, popcounts included where the CPU has them for
    vectors (AVX-512 VPOPCNTQ).  Each lane does the scalar evaluator's
    integer counts and its float sum in its order, so every value is the
    scalar one to the bit.  Evaluating all columns costs less than
    evaluating a few of them one by one, so a caller that may stop early
    (an alpha-beta cutoff) still evaluates all of them here first.
    """
    height = rows + 1
    for base in range(0, cols, LANES):
        for lane in range(LANES):
            col = base + lane
            # Lanes past the last column take column 0's shift (a shift past 63 bits is undefined) and no square.
            column = ((_ONE << np.uint64(rows)) - _ONE) << np.uint64((col if col < cols else 0) * height)
            square = playable & column if col < cols else _ZERO
            out[col] = _value(me, mask | square, rows, consts, weights)
