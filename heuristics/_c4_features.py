"""Kang et al.'s Connect-4 feature heuristic, "Heuristics-1" (their 2019 JILSA paper, section 3.3.1).

What the paper says (section 3.3.1 and its
Figures 5-10): the board value is the sum of the values of four kinds of
features, positive for the side we score for and negative for the opponent.

- **F1, four connected**: a win, valued "Infinity".
- **F2, three connected**: the two squares adjacent to the three along its line
  decide the value: both *available* -> "Infinity" (the win is unstoppable,
  Figure 6 left); one available -> 900,000 (Figure 6 middle); none -> 0
  (Figure 6 right).  A square is available when a stone can be put there
  *now*: with gravity, (b,2) above an empty (b,1) is not (Figure 7).  Special
  case (Figure 8): three stones of a 4-line with one square missing inside,
  (b,1)-(c,2)-(e,4) with (d,3) empty, is valued 900,000.
- **F3, two connected**, three situations (Figure 9): both adjacent squares
  available (the highest value); one side available, valued by "the number of
  available squares to the two connected men's right till an unavailable
  square" (more squares, higher score); neither side available (the lowest).
  "The value for Feature 3 should be much lower than Feature 2."
- **F4, a single stone** not adjacent to any friendly stone (Figure 10),
  valued by its column: d highest, then c/e, then b/f, then a/g, "much lower
  than Feature 3".

Each feature is a weight; a weight of 0 switches the feature off (the paper's
Tables 7 and 8 play single features and combinations).

Decisions where the paper is vague (Table 2, the values, did not survive in the
text we have; every number below except 900,000 is ours):

- "Infinity" is a finite weight: ``f1_four`` = 1e8 per fully owned 4-window
  (a run of five holds two), clearly above everything else; the search scores
  real wins itself.  The paper values the open three "Infinity" as well (the
  win cannot be stopped), so ``f2_three_open`` defaults to the same 1e8: an
  open three scores as a win.  The two stay separate weights for the tuner.
- "Connected" means along one of the four lines (horizontal, vertical, both
  diagonals); F2 and F3 count *maximal* runs of exactly three or two stones
  (the squares just before and after the run are not the owner's); a run of
  four or more is F1 only.  Adjacent squares off the board are unavailable.
- The broken three is any 4-window holding three own stones and one empty
  square at position 2 or 3 (``OO.O`` or ``O.OO`` along the line).  The gap
  need *not* be available: in the paper's own example (Figure 8) (d,2) is still
  empty, so (d,3) cannot be played yet, and the paper values it 900,000 all
  the same.  A gap at the end of the window (``OOO.``) is the connected three
  above, not a broken three.
- Features are counted independently, as the paper's flowchart sums "all the
  features" it detects: the two stones (b,1)-(c,2) of the broken three are
  also an F3 two, ``OO.OO`` holds two broken threes, a lone stone may be part
  of a broken three and still score F4.
- F3 defaults: open two ``f3_two_open`` = 50,000; one side available
  ``f3_two_side`` = 10,000 per available square, counted outward from the two
  up to the first unavailable square and **at most 2 squares** (only the two
  squares next to the two can make a four with it when the other side is
  shut; the cap also keeps ``_order`` local); no side available
  ``f3_two_closed`` = 0.  So F3 is well below F2's 900,000.
- F4 defaults 400 (d), 300 (c/e), 200 (b/f), 100 (a/g): well below F3's
  10,000.  "Adjacent" is the 8-neighbourhood.  Other widths use the distance
  from the centre: ``abs(2 * col - (cols - 1)) // 2`` = 0, 1, 2, >= 3 picks
  the d, c/e, b/f, a/g weight.  On even widths the two middle columns both
  have distance 0 (6 columns: a b c d e f -> 2 1 0 0 1 2), so mirror symmetry
  holds for every width.
- ``_order`` is the exact change of this evaluation when ``me`` plays
  ``cell``: only features whose squares include ``cell`` or, with gravity,
  the square above it (which becomes available) can change, and every
  feature lies within 2 squares before and 3 after its first stone along its
  line, so the kernel re-scores at most 42 line anchors and the 3x3 neighbourhood:
  O(k^2).  Wins score ``f1_four``, blocking a half-open three scores its
  900,000, giving the opponent an available end costs.

Sizes refused: every ``k`` other than 4 (the features are defined for four in
a row).  Every ``rows x cols``, with or without gravity, is covered.
"""

# Kernels return elements of untyped NumPy arrays, which mypy reads as Any; numba types them itself.
# mypy: disable-error-code="no-any-return"
from __future__ import annotations

from typing import Mapping, Optional

import numpy as np
from numba import njit

from games import KInARow
from games._board import _playable
from games._jit import JIT, JIT_INLINE
from heuristics.spec import HeuristicSpec, WeightSpec, n_windows

NAME = "c4_features"
K = 4
"""The only k the features are defined for."""

# Positions in ``weights`` (the order of SPEC.weights).  Plain ints: they never change.
_F1_FOUR = 0
_F2_OPEN = 1
_F2_HALF = 2
_F2_CLOSED = 3
_F2_BROKEN = 4
_F3_OPEN = 5
_F3_SIDE = 6
_F3_CLOSED = 7
_F4_D = 8
"""F4 weights follow in order d, c/e, b/f, a/g: ``_F4_D + min(distance, 3)``."""
N_FEATURES = 12
"""Weights, and feature counts, per evaluation."""
_SIDE_CAP = 2
"""At most this many available squares are counted on the open side of a one-sided two (k - 2)."""


def _refuse(game: KInARow) -> Optional[str]:
    if game.k != K:
        return f"{NAME} is defined for k={K}; got k={game.k} in {game}"
    return None


def _max_abs(game: KInARow, w: Mapping[str, float]) -> float:
    """The ``bound`` of SPEC (heuristics.bounds): ``|evaluate|`` never exceeds it on ``game``'s board."""
    # Per player and feature: F1 and the broken three count windows (<= n_windows), F2/F3 count maximal runs
    # (<= one per cell and direction: 4 cells), F4 lone stones (<= cells); f3_two_side counts up to 2 squares.
    per_feature = n_windows(game) + 4 * game.n_cells
    return 2 * per_feature * (sum(abs(v) for v in w.values()) + abs(w["f3_two_side"]))


SPEC = HeuristicSpec(
    name=NAME,
    summary="Kang et al. features: fours, open/half/closed and broken threes, twos by open squares, lone stones by column",
    source="Kang, Wang, Hu 2019 (JILSA 11:15-31), section 3.3.1 Heuristics-1",
    weights=(
        WeightSpec("f1_four", 1e8, 1e6, 1e10, log=True, doc="F1: per 4-window fully owned (paper: infinity)"),
        WeightSpec("f2_three_open", 1e8, 1e5, 1e10, log=True, doc="F2: three in a row, both end squares available (paper: infinity)"),
        WeightSpec("f2_three_half", 900_000.0, 1e4, 1e8, log=True, doc="F2: three in a row, one end square available (paper: 900,000)"),
        WeightSpec("f2_three_closed", 0.0, 0.0, 1e5, doc="F2: three in a row, no end square available (paper: 0)"),
        WeightSpec("f2_broken_three", 900_000.0, 1e4, 1e8, log=True, doc="F2: three stones in a 4-window with an empty inner gap (paper: 900,000)"),
        WeightSpec("f3_two_open", 50_000.0, 1e2, 1e6, log=True, doc="F3: two in a row, both end squares available"),
        WeightSpec("f3_two_side", 10_000.0, 1e1, 1e6, log=True, doc="F3: two in a row open on one side, per available square there (at most 2)"),
        WeightSpec("f3_two_closed", 0.0, 0.0, 1e4, doc="F3: two in a row, no end square available"),
        WeightSpec("f4_col_d", 400.0, 1.0, 1e4, log=True, doc="F4: lone stone in the centre column (d)"),
        WeightSpec("f4_col_ce", 300.0, 1.0, 1e4, log=True, doc="F4: lone stone one column from the centre (c, e)"),
        WeightSpec("f4_col_bf", 200.0, 1.0, 1e4, log=True, doc="F4: lone stone two columns from the centre (b, f)"),
        WeightSpec("f4_col_ag", 100.0, 1.0, 1e4, log=True, doc="F4: lone stone three or more columns from the centre (a, g)"),
    ),
    refuse=_refuse,
    bound=_max_abs,
)


@njit(**JIT)
def _stone_at(board: np.ndarray, rows: int, cols: int, xcell: int, xstone: int, r: int, c: int) -> int:
    """Stone on (r, c) of ``board`` with ``xcell`` set to ``xstone`` (xcell -1: none); -1 off the board."""
    if r < 0 or r >= rows or c < 0 or c >= cols:
        return -1
    cell = r * cols + c
    if cell == xcell:
        return xstone
    return board[cell]


@njit(**JIT)
def _available(board: np.ndarray, heights: np.ndarray, rows: int, cols: int, gravity: bool, xcell: int, r: int, c: int) -> bool:
    """True if (r, c) is on the board, empty and playable now, on ``board`` with a stone added on ``xcell``.

    heights : int32[cols], stones per column of ``board`` (without ``xcell``).
    """
    if r < 0 or r >= rows or c < 0 or c >= cols:
        return False
    cell = r * cols + c
    if xcell < 0:
        return _playable(board, heights, rows, cols, gravity, cell)
    if cell == xcell or board[cell] != 0:
        return False
    if not gravity:
        return True
    height = heights[c] + (1 if xcell % cols == c else 0)
    return r == rows - 1 - height


@njit(**JIT)
def _anchor_features(board, heights, rows, cols, gravity, xcell, xstone, r, c, dr, dc):  # type: ignore[no-untyped-def]
    """The line features (F1, broken three, F2, F3) whose first stone is (r, c) along (dr, dc).

    Returns ``(window, run, times)``: ``window`` is ``_F1_FOUR`` or
    ``_F2_BROKEN`` for the 4-window starting here (-1: neither), ``run`` the
    weight index of the maximal run starting here (-1: none) and ``times``
    how often that run's weight counts (the available squares of a one-sided
    two, else 1).  The features belong to the owner of (r, c); nothing if it
    is empty.  Reads only the squares ``(r, c) + t * (dr, dc)`` for ``t`` in
    -2..3 (the footprint ``_order`` relies on).  xcell, xstone: a stone added
    to ``board`` (-1: none).
    """
    p = _stone_at(board, rows, cols, xcell, xstone, r, c)
    window, run, times = -1, -1, 1
    if p <= 0:
        return window, run, times
    # The 4-window starting here: F1 four or a broken three (OO.O / O.OO).
    if 0 <= r + 3 * dr < rows and 0 <= c + 3 * dc < cols:
        own = 0
        gap = -1
        for i in range(K):
            s = _stone_at(board, rows, cols, xcell, xstone, r + i * dr, c + i * dc)
            if s == p:
                own += 1
            elif s == 0:
                gap = i
        if own == K:
            window = _F1_FOUR
        elif own == K - 1 and (gap == 1 or gap == 2):
            window = _F2_BROKEN
    # The maximal run starting here: F2 three or F3 two.
    if _stone_at(board, rows, cols, xcell, xstone, r - dr, c - dc) != p:
        length = 1
        while length < K and _stone_at(board, rows, cols, xcell, xstone, r + length * dr, c + length * dc) == p:
            length += 1
        if length == 2 or length == 3:
            before = _available(board, heights, rows, cols, gravity, xcell, r - dr, c - dc)
            after = _available(board, heights, rows, cols, gravity, xcell, r + length * dr, c + length * dc)
            if length == 3:
                if before and after:
                    run = _F2_OPEN
                elif before or after:
                    run = _F2_HALF
                else:
                    run = _F2_CLOSED
            elif before and after:
                run = _F3_OPEN
            elif before or after:
                # Walk outward from the open end over available squares, at most _SIDE_CAP.
                sign = -1 if before else 1
                sr = r - dr if before else r + 2 * dr
                sc = c - dc if before else c + 2 * dc
                n = 0
                while n < _SIDE_CAP and _available(board, heights, rows, cols, gravity, xcell, sr + sign * n * dr, sc + sign * n * dc):
                    n += 1
                run, times = _F3_SIDE, n
            else:
                run = _F3_CLOSED
    return window, run, times


@njit(**JIT)
def _anchor_value(board, heights, rows, cols, gravity, weights, xcell, xstone, r, c, dr, dc):  # type: ignore[no-untyped-def]
    """Unsigned value of the line features whose first stone is (r, c) along (dr, dc) (see ``_anchor_features``)."""
    window, run, times = _anchor_features(board, heights, rows, cols, gravity, xcell, xstone, r, c, dr, dc)
    value = 0.0
    if window >= 0:
        value += weights[window]
    if run >= 0:
        value += weights[run] * times
    return value


@njit(**JIT)
def _lone_group(cols: int, c: int) -> int:
    """F4 weight offset of column ``c``: 0 for d (the centre), 1 for c/e, 2 for b/f, 3 for a/g and beyond."""
    return min(abs(2 * c - (cols - 1)) // 2, 3)


@njit(**JIT_INLINE)  # takes arrays: see games._jit.JIT_INLINE
def _weighted_sum(weights, counts):  # type: ignore[no-untyped-def]
    """``sum(weights[i] * counts[i])`` in index order.

    counts : 12 integers (an array or a tuple), signed feature counts in SPEC
    order.  Every evaluator of these features combines its counts in this
    order (this array kernel here, the bitboard kernel of ``_c4_bits`` in the
    same sum written out), so they agree to the last bit whatever the weights.
    """
    total = 0.0
    for i in range(N_FEATURES):
        total += weights[i] * counts[i]
    return total


@njit(**JIT)
def _single_value(board, rows, cols, weights, xcell, xstone, r, c):  # type: ignore[no-untyped-def]
    """Unsigned F4 value of the stone on (r, c): its column weight if no friendly stone touches it, else 0."""
    p = _stone_at(board, rows, cols, xcell, xstone, r, c)
    if p <= 0:
        return 0.0
    for rr in range(max(r - 1, 0), min(r + 2, rows)):
        for cc in range(max(c - 1, 0), min(c + 2, cols)):
            cell = rr * cols + cc
            s = xstone if cell == xcell else board[cell]
            if s == p and (rr != r or cc != c):
                return 0.0
    return weights[_F4_D + _lone_group(cols, c)]


@njit(**JIT)
def _signed(p: int, me: int, value: float) -> float:
    """``value`` for ``me``'s stone, ``-value`` for the opponent's, 0 for no stone."""
    if p <= 0:
        return 0.0
    return value if p == me else -value


@njit(**JIT)
def _is_lone(board, rows, cols, r, c):  # type: ignore[no-untyped-def]
    """True if no stone of the owner of (r, c) touches it (8-neighbourhood)."""
    p = board[r * cols + c]
    for rr in range(max(r - 1, 0), min(r + 2, rows)):
        for cc in range(max(c - 1, 0), min(c + 2, cols)):
            if board[rr * cols + cc] == p and (rr != r or cc != c):
                return False
    return True


@njit(**JIT)
def _evaluate(board, heights, rows, cols, k, gravity, me, weights, windows):  # type: ignore[no-untyped-def]
    """Sum of the F1-F4 feature values over the board, ``me``'s minus the opponent's.

    board : int8[rows * cols]; heights : int32[cols]; weights : float64[12] in SPEC order;
    windows : unused (the features are found along lines).  k must be 4.
    The features are counted first (own minus opponent's, per weight) and
    weighted once, in ``_weighted_sum``.
    """
    assert k == K
    counts = np.zeros(N_FEATURES, dtype=np.int64)
    for r in range(rows):
        for c in range(cols):
            p = board[r * cols + c]
            if p == 0:
                continue
            sign = 1 if p == me else -1
            if _is_lone(board, rows, cols, r, c):
                counts[_F4_D + _lone_group(cols, c)] += sign
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                window, run, times = _anchor_features(board, heights, rows, cols, gravity, -1, 0, r, c, dr, dc)
                if window >= 0:
                    counts[window] += sign
                if run >= 0:
                    counts[run] += sign * times
    return _weighted_sum(weights, counts)


@njit(**JIT)
def _anchor_delta(board, heights, rows, cols, gravity, me, weights, cell, r, c, dr, dc):  # type: ignore[no-untyped-def]
    """Change of the signed anchor value at (r, c) along (dr, dc) when ``me`` plays ``cell``."""
    if r < 0 or r >= rows or c < 0 or c >= cols:
        return 0.0
    before = _signed(board[r * cols + c], me, _anchor_value(board, heights, rows, cols, gravity, weights, -1, 0, r, c, dr, dc))
    p_after = _stone_at(board, rows, cols, cell, me, r, c)
    after = _signed(p_after, me, _anchor_value(board, heights, rows, cols, gravity, weights, cell, me, r, c, dr, dc))
    return after - before


@njit(**JIT)
def _order(board, heights, rows, cols, k, gravity, me, weights, windows, cell):  # type: ignore[no-untyped-def]
    """Exact change of ``_evaluate`` (``me``'s view) when ``me`` plays ``cell``: O(k^2).

    cell : an empty, playable cell.  Features anchored up to 3 squares before
    and 2 after ``cell`` on each line through it (and, with gravity, through the
    square above, which becomes available) and the 3x3 lone-stone block are
    re-scored with the stone added.
    """
    assert k == K and board[cell] == 0
    r0, c0 = cell // cols, cell % cols
    has_above = gravity and r0 > 0
    delta = 0.0
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        # An anchor at (r, c) reads (r, c) + t * (dr, dc) for t in -2..3.
        for t in range(-2, 4):
            delta += _anchor_delta(board, heights, rows, cols, gravity, me, weights, cell, r0 - t * dr, c0 - t * dc, dr, dc)
        if has_above and dc != 0:
            # The square above becomes available.  (Its vertical line is the one
            # through ``cell``, and with gravity every square above ``cell`` is
            # empty, so no vertical anchor is missing.)
            for t in range(-2, 4):
                delta += _anchor_delta(board, heights, rows, cols, gravity, me, weights, cell, r0 - 1 - t * dr, c0 - t * dc, dr, dc)
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            r, c = r0 + dr, c0 + dc
            if 0 <= r < rows and 0 <= c < cols:
                before = _signed(board[r * cols + c], me, _single_value(board, rows, cols, weights, -1, 0, r, c))
                p_after = _stone_at(board, rows, cols, cell, me, r, c)
                after = _signed(p_after, me, _single_value(board, rows, cols, weights, cell, me, r, c))
                delta += after - before
    return delta
