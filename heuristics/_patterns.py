"""``patterns``: the COMP 472 shape heuristic (alive and dead threes and twos).

Source: Huang and Li's COMP 472 report on the Double Card game (a
connect-4-like game won by 4 in a row), section 2.2 "Heuristic 1".

What the report says.  Write a line of the board, for one player, with ``O``
for an own stone, ``X`` for an empty point and ``@`` for "the other side or
boundary"; turn the board into its 1-dimensional lines (rows, columns, both
diagonals), score each line and sum, once for each player; return the
AI's sum minus the human's.  The shapes and their values:

==================  ===========================================  =======
shape               report's examples                            value
==================  ===========================================  =======
four connected      ``OOOO``                                     100,000
alive-3             ``XOOOX``                                    10,000
dead-3              ``@OOOX``, ``@OOXO``, ``@OXOO`` "and so on"  1,000
double dead-3       "more than 1 Dead-3 starting from one        10,000
                    position"
alive-2             ``XOOXX``, ``XOXOX``, ``XXOOX`` "etc."       1,000
dead-2              ``@OXOX`` "etc."                             500
double alive-2      "more than 1 Alive-2 starting from one       10,000
                    position"
dead-3 and alive-2  "one side has a Dead-3, and one side has an  10,000
                    Alive-2"
unavailable-3/2/1   ``@OOO@``, ``@OO@``, ``@O@``                 -100 each
==================  ===========================================  =======

Decisions where the report is vague (each is what the kernels compute, and
what ``tests/naive_comp472.py`` recomputes by plain string matching):

* **Lines.** Every full line of the board in the four directions, padded
  with one ``@`` (the boundary) at each end.  ``@`` is an opponent stone or
  the boundary; ``X`` is any empty cell.  The report defines ``X`` as "empty
  point" with no word about support, so gravity is ignored: with or without
  it the score is the same.
* **Shapes for any k** ("3" means ``k - 1`` stones, "2" means ``k - 2``,
  "four" means ``k``).  For k = 4 these rules give exactly the report's
  examples plus their mirror images, nothing else:

  - *connected*: ``k`` consecutive own stones;
  - *alive-n*: ``k + 1`` cells, both end cells ``X``, no ``@``, exactly ``n``
    own stones (``XOOOX``; ``XOOXX``, ``XOXOX``, ``XXOOX``);
  - *dead-n*: ``@`` then an own stone then ``k - 1`` more cells, no ``@``
    after the first cell, exactly ``n`` own stones (``@OOOX``, ``@OOXO``,
    ``@OXOO``; ``@OOXX``, ``@OXOX``, ``@OXXO``), and the mirror images
    (``XOOO@`` ...).  The ``@`` must touch a stone: ``@XOOO`` is not a
    dead-3 because its three is scored by the rest of the line
    (``@XOOOX`` is an alive-3, ``@XOOO@`` the dead-3 ``OOO@`` read from the
    right);
  - *unavailable*: ``@``, a run of ``r`` own stones, ``@``, with
    ``1 <= r <= k - 1``; ``unavailable_3`` scores ``r = k - 1``,
    ``unavailable_2`` ``r = k - 2``, ``unavailable_1`` every shorter run.
* **Counting.** Every occurrence (shape and offset along the line) counts
  once, overlapping ones included: ``XXOOXX`` holds two alive-2
  (``XXOOX`` and ``XOOXX``), ``@OOXO@`` two dead-3 (one read from each
  end), five in a row two "four connected".
* **Double shapes.** "Position" means an own stone.  A stone takes part in
  a dead-3 (alive-2) *in direction d* when it is one of the ``O`` cells of
  some dead-3 (alive-2) occurrence on its line in direction d.  Each own
  stone then adds, at most once each: ``double_dead_3`` if it takes part in
  dead-3s in two or more directions; ``double_alive_2`` likewise for
  alive-2; ``dead_3_alive_2`` if it takes part in a dead-3 in one direction
  and an alive-2 in another.  These come on top of the single shapes'
  values (the report lists them as separate situations).
* **Score** = own total minus opponent total, no side-to-move bonus: it is
  antisymmetric in colour and, as the shape set is closed under reversal,
  symmetric under a left-right mirror.  Wins are not detected (the search
  scores them); a finished line still earns ``four_connected``.

Refused sizes: ``k < 3`` (a "two" would have ``k - 2 = 0`` stones).

``_order`` scores a cell by the change of the line-shape score (own minus
opponent, so both own gain and blocking count) on the four lines through
it, plus the double-shape bonuses the new stone itself earns; the other
stones' double shapes are left out to keep it O(k^2).

Every score is integer shape counts (player 1's minus player 2's, or a
move's change) weighted once by ``_score``: the incremental state of
``heuristics._incremental`` keeps the same counts, so its values are equal
bit for bit.
"""

# Kernels return elements of untyped NumPy arrays, which mypy reads as Any; numba types them itself.
# mypy: disable-error-code="no-any-return"
from __future__ import annotations

from typing import Mapping, Optional

import numpy as np
from numba import njit

from games import KInARow
from games._jit import JIT
from heuristics.spec import HeuristicSpec, WeightSpec

# Kernel indices into ``weights`` (the order of SPEC.weights).
_FOUR, _ALIVE_3, _DEAD_3, _DOUBLE_DEAD_3, _ALIVE_2, _DEAD_2 = 0, 1, 2, 3, 4, 5
_DOUBLE_ALIVE_2, _DEAD_3_ALIVE_2, _UNAVAILABLE_3, _UNAVAILABLE_2, _UNAVAILABLE_1 = 6, 7, 8, 9, 10

_N_SHAPES = 11
"""Length of the shape-count arrays: one count per weight, indexed like ``weights``."""

_OFF_BOARD = 3
"""Line buffer value of a cell beyond the board: ``@`` for both players."""


def _refuse(game: KInARow) -> Optional[str]:
    if game.k < 3:
        return f"patterns is defined for k >= 3 (its 'two' shapes hold k-2 stones); got k={game.k} in {game}"
    return None


def _max_abs(game: KInARow, w: Mapping[str, float]) -> float:
    """The ``bound`` of SPEC (heuristics.bounds): ``|evaluate|`` never exceeds it on ``game``'s board."""
    # Per player, direction and shape: at most 2 occurrences (a shape and its mirror) per cell of a padded line,
    # and a padded line has at most 3 cells per board cell; the double-shape bonuses count once per stone.
    return 2 * 2 * 4 * 3 * game.n_cells * sum(abs(v) for v in w.values())


SPEC = HeuristicSpec(
    name="patterns",
    summary="COMP 472 heuristic 1: alive/dead/unavailable threes and twos over every line, own minus opponent",
    source="COMP 472 report on the Double Card game (Huang, Li), section 2.2 (Heuristic 1)",
    weights=(
        WeightSpec("four_connected", 100_000.0, 0.0, 1_000_000.0, doc="k own stones in a row (OOOO), per occurrence"),
        WeightSpec("alive_3", 10_000.0, 0.0, 100_000.0, doc="k-1 stones open at both ends (XOOOX)"),
        WeightSpec("dead_3", 1_000.0, 0.0, 10_000.0, doc="k-1 stones blocked on one side (@OOOX, @OOXO, @OXOO, mirrors)"),
        WeightSpec("double_dead_3", 10_000.0, 0.0, 100_000.0, doc="bonus per stone in dead-3s in two or more directions"),
        WeightSpec("alive_2", 1_000.0, 0.0, 10_000.0, doc="k-2 stones open at both ends (XOOXX, XOXOX, XXOOX)"),
        WeightSpec("dead_2", 500.0, 0.0, 5_000.0, doc="k-2 stones blocked on one side (@OOXX, @OXOX, @OXXO, mirrors)"),
        WeightSpec("double_alive_2", 10_000.0, 0.0, 100_000.0, doc="bonus per stone in alive-2s in two or more directions"),
        WeightSpec("dead_3_alive_2", 10_000.0, 0.0, 100_000.0, doc="bonus per stone in a dead-3 and, in another direction, an alive-2"),
        WeightSpec("unavailable_3", -100.0, -1_000.0, 0.0, doc="k-1 stones shut in at both ends (@OOO@)"),
        WeightSpec("unavailable_2", -100.0, -1_000.0, 0.0, doc="k-2 stones shut in at both ends (@OO@)"),
        WeightSpec("unavailable_1", -100.0, -1_000.0, 0.0, doc="k-3 or fewer stones shut in at both ends (@O@)"),
    ),
    refuse=_refuse,
    bound=_max_abs,
)


@njit(**JIT)
def _scan_line(line: np.ndarray, cells: np.ndarray, n: int, k: int, p: int, counts: np.ndarray, sign: int,
               marks: np.ndarray, d: int) -> None:  # fmt: skip
    """Add ``sign`` times player ``p``'s shape counts over every occurrence inside ``line[:n]`` to ``counts``.

    line : int8[>= n], cell values along the line (0 empty, 1/2 stones, 3 off the board);
        for ``p``, ``O`` is ``p``, ``X`` is 0, ``@`` anything else.
    cells : int32[>= n], index into ``marks`` of each line position (only read at ``O``s).
    counts : int64[11], occurrences by weight index (SPEC order; the double-shape entries are not touched).
    marks : int32, bit ``d`` is or-ed in for the ``O``s of each dead-(k-1) occurrence,
        bit ``4 + d`` for each alive-(k-2) occurrence (d = the line's direction, 0..3).
    """
    for i in range(n):
        # k own stones in a row
        if i + k <= n:
            full = True
            for j in range(i, i + k):
                if line[j] != p:
                    full = False
                    break
            if full:
                counts[_FOUR] += sign
        if i + k < n:
            # alive-n: X, k-1 cells without @, X
            if line[i] == 0 and line[i + k] == 0:
                c = 0
                ok = True
                for j in range(i + 1, i + k):
                    v = line[j]
                    if v == p:
                        c += 1
                    elif v != 0:
                        ok = False
                        break
                if ok and c == k - 1:
                    counts[_ALIVE_3] += sign
                elif ok and c == k - 2:
                    counts[_ALIVE_2] += sign
                    for j in range(i + 1, i + k):
                        if line[j] == p:
                            marks[cells[j]] |= 16 << d
            # dead-n read forwards (@ at i) and backwards (@ at i + k)
            for side in range(2):
                wall = i if side == 0 else i + k
                first = i + 1 if side == 0 else i
                touch = i + 1 if side == 0 else i + k - 1
                v = line[wall]
                if v == 0 or v == p or line[touch] != p:
                    continue
                c = 0
                ok = True
                for j in range(first, first + k):
                    v = line[j]
                    if v == p:
                        c += 1
                    elif v != 0:
                        ok = False
                        break
                if ok and c == k - 1:
                    counts[_DEAD_3] += sign
                    for j in range(first, first + k):
                        if line[j] == p:
                            marks[cells[j]] |= 1 << d
                elif ok and c == k - 2:
                    counts[_DEAD_2] += sign
        # unavailable: @, r own stones, @
        v = line[i]
        if v != 0 and v != p and i + 1 < n and line[i + 1] == p:
            j = i + 1
            while j < n and line[j] == p:
                j += 1
            r = j - i - 1
            if j < n and line[j] != 0 and r <= k - 1:
                if r == k - 1:
                    counts[_UNAVAILABLE_3] += sign
                elif r == k - 2:
                    counts[_UNAVAILABLE_2] += sign
                else:
                    counts[_UNAVAILABLE_1] += sign


@njit(**JIT)
def _add_doubles(mark: int, counts: np.ndarray, sign: int) -> None:
    """Add ``sign`` times one stone's double shapes, read from its direction bits (see ``_scan_line``), to ``counts``."""
    dead = mark & 15
    alive = (mark >> 4) & 15
    n_dead = (dead & 1) + ((dead >> 1) & 1) + ((dead >> 2) & 1) + ((dead >> 3) & 1)
    n_alive = (alive & 1) + ((alive >> 1) & 1) + ((alive >> 2) & 1) + ((alive >> 3) & 1)
    if n_dead >= 2:
        counts[_DOUBLE_DEAD_3] += sign
    if n_alive >= 2:
        counts[_DOUBLE_ALIVE_2] += sign
    # a dead-3 and an alive-2 in two different directions
    if dead != 0 and alive != 0 and not (dead == alive and n_dead == 1):
        counts[_DEAD_3_ALIVE_2] += sign


@njit(**JIT)
def _score(counts: np.ndarray, weights: np.ndarray) -> float:
    """The weighted sum of shape counts, in weight order: the one float formula of every patterns score.

    counts : int64[11], weights : float64[11] (SPEC order).  Evaluation,
    ordering and the incremental state (heuristics._incremental) all count
    shapes as integers and score them here, so their values are equal bit for bit.
    """
    total = 0.0
    for s in range(counts.shape[0]):
        total += counts[s] * weights[s]
    return total


@njit(**JIT)
def _player_counts(board: np.ndarray, rows: int, cols: int, k: int, p: int, counts: np.ndarray, sign: int,
                   line: np.ndarray, cells: np.ndarray, marks: np.ndarray) -> None:  # fmt: skip
    """Add ``sign`` times player ``p``'s whole-board counts to ``counts``: every padded line's shapes and every stone's doubles.

    board : int8[rows * cols]; counts : int64[11]; line : int8[max(rows, cols) + 2], cells : int32[same],
    marks : int32[rows * cols] are scratch buffers.
    """
    marks[:] = 0
    for d in range(4):
        dr = 0 if d == 0 else 1
        dc = 1 if d == 0 else (0 if d == 1 else (1 if d == 2 else -1))
        for start in range(rows * cols):
            r, c = start // cols, start % cols
            if 0 <= r - dr < rows and 0 <= c - dc < cols:
                continue  # not the first cell of its line
            n = 1
            line[0] = _OFF_BOARD
            while 0 <= r < rows and 0 <= c < cols:
                line[n] = board[r * cols + c]
                cells[n] = r * cols + c
                n += 1
                r += dr
                c += dc
            line[n] = _OFF_BOARD
            _scan_line(line, cells, n + 1, k, p, counts, sign, marks, d)
    for cell in range(rows * cols):
        if board[cell] == p and marks[cell] != 0:
            _add_doubles(marks[cell], counts, sign)


@njit(**JIT)
def _evaluate(board: np.ndarray, heights: np.ndarray, rows: int, cols: int, k: int, gravity: bool,
              me: int, weights: np.ndarray, windows: np.ndarray) -> float:
    """Own minus opponent pattern total (heights, gravity and windows unused).

    board : int8[rows * cols]; weights : float64[11] in SPEC order.  The
    counts are player 1's minus player 2's, scored once and negated for
    player 2 (exactly what the incremental state does).
    """
    assert k >= 3 and (me == 1 or me == 2)
    size = max(rows, cols) + 2
    line = np.empty(size, dtype=np.int8)
    cells = np.zeros(size, dtype=np.int32)
    marks = np.zeros(rows * cols, dtype=np.int32)
    counts = np.zeros(_N_SHAPES, dtype=np.int64)
    _player_counts(board, rows, cols, k, 1, counts, 1, line, cells, marks)
    _player_counts(board, rows, cols, k, 2, counts, -1, line, cells, marks)
    total = _score(counts, weights)
    return total if me == 1 else -total


@njit(**JIT)
def _order(board: np.ndarray, heights: np.ndarray, rows: int, cols: int, k: int, gravity: bool,
           me: int, weights: np.ndarray, windows: np.ndarray, cell: int) -> float:
    """Change of the shape score on the 4 lines through ``cell`` if ``me`` plays it, plus its double bonus.

    board : int8[rows * cols], ``board[cell]`` empty.  Each line is cut to the 2k+1
    cells centred on ``cell`` (every shape touching ``cell`` fits in it): O(k^2)
    per line, the reference for the O(k) ``heuristics._patterns_lines._order_counts``.
    """
    assert board[cell] == 0 and k >= 3
    opp = 3 - me
    size = 2 * k + 1
    seg = np.empty(size, dtype=np.int8)
    idx = np.arange(size).astype(np.int32)
    marks = np.zeros(size, dtype=np.int32)
    counts = np.zeros(_N_SHAPES, dtype=np.int64)
    row, col = cell // cols, cell % cols
    for d in range(4):
        dr = 0 if d == 0 else 1
        dc = 1 if d == 0 else (0 if d == 1 else (1 if d == 2 else -1))
        for t in range(size):
            r, c = row + (t - k) * dr, col + (t - k) * dc
            seg[t] = board[r * cols + c] if 0 <= r < rows and 0 <= c < cols else _OFF_BOARD
        # after minus before, own minus opponent
        _scan_line(seg, idx, size, k, me, counts, -1, marks, d)
        _scan_line(seg, idx, size, k, opp, counts, 1, marks, d)
        seg[k] = me
        _scan_line(seg, idx, size, k, me, counts, 1, marks, d)
        _scan_line(seg, idx, size, k, opp, counts, -1, marks, d)
    # only marks[k] is read: the new stone, the one cell shared by the four segments
    _add_doubles(marks[k], counts, 1)
    return _score(counts, weights)
