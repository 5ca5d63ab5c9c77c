"""Incremental evaluation for free boards: state the array search updates per move instead of rescanning the board.

The Bologna m,n,k project updates its MICS values in O(k^2) per move and
names O(k) as the improvement; the COMP 472 report's section 4.1, "solution 3": one move
changes only the lines through its cell).  Without gravity a stone at ``cell``
changes only what lies on the four lines through it within ``k - 1`` cells,
so the search keeps per-evaluator totals and updates them on every make and
unmake:

* ``windows``: the stone counts of every k-window (``w_counts``), the
  histogram of count pairs (``w_hist``) and the pair values (``w_pairs``).  A
  move touches the ``<= 4 k`` windows through its cell, O(1) each; a leaf is
  ``_histogram_score``, O(k^2) whatever the board; a candidate's ordering
  score is the exact score change, read from the counts in O(k) per direction
  (the same terms, in the same order, as ``_windows._order``).
* ``mics``: for every empty cell, player and direction, the Bologna project's four
  direction values and the in-line double flag (``m_stats``: the per-cell,
  per-direction line codes of the Bologna project), and integer totals of the board value
  (``m_totals``, see ``_mics._N_TOTALS``).  A move recomputes, for the
  ``<= 2 (k - 1)`` cells on each line through it, that one direction, all of
  them in one O(k) pass over the line (``_line_stats``: O(k) per direction
  and player, the improvement the Bologna project names over its O(k^2)), and moves each
  touched cell's value in the totals.  A leaf is ``_totals_value``, O(k); an
  ordering score combines the cell's stored directions, O(1) plus its 8
  neighbours; a depth-1 node values its leaf children with ``_value_after``
  (the update applied to a copy of the totals, no make and unmake).
* ``patterns``: player 1's shape counts minus player 2's (``p_counts``, the
  integers ``_patterns._evaluate`` weights once with ``_score``) and, per
  player, stone and direction, how many dead-(k-1) and alive-(k-2)
  occurrences cover each stone (``p_cover``, for the double shapes).  A move
  rescans the ``2k + 1`` cells centred on it on each line, before and after,
  in O(k) (``_patterns_lines._touching``), and moves the counts of the
  occurrences touching it and the cover of the stones they hold; a leaf is
  ``_score``, O(1) in the board (a depth-1 node values its leaf children
  with ``_value_after``, the update on a copy of the counts); an ordering score is the same O(k) scan of
  the candidate's lines (``_patterns_lines._order_counts``, where
  ``_patterns._order`` takes O(k^2)).  Nothing of ``patterns`` is left out.
* every free board searched with a radius: the number of stones within the
  radius of each cell (``near``), so that move generation reads one counter per
  cell instead of scanning a (2r + 1)^2 square.

Exactness.  The from-scratch evaluators sum the same integer histograms and
totals with the same float operations (``_windows._evaluate``,
``_mics._evaluate``, ``_patterns._evaluate`` and ``_order``), and integer updates do not depend on the order of
moves, so incremental and from-scratch values are equal bit for bit, and the
search's values, moves and node counts are unchanged (tests/test_incremental.py).

The state is one tuple of arrays (``_new_state``), allocated by the search
kernel at its root: it lives in no global, so every kernel stays cacheable.
Unused parts are empty arrays of the same types.  ``meta[0]`` is the
evaluator kind (``NONE``, ``WINDOWS``, ``MICS``, ``PATTERNS``) and ``meta[1]`` is 1 when
``near`` is kept.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games._board import _empty_cells
from games._jit import JIT
from games._rules import Rules
from heuristics._mics import (
    _N_TOTALS,
    _add_class,
    _class_of,
    _combine,
    _fill_direction,
    _order_value,
    _powers,
    _tiers,
    _totals_value,
)
from heuristics._mics_lines import _line_stats
from heuristics._patterns import _N_SHAPES, _score
from heuristics._patterns_lines import _move as _patterns_move
from heuristics._patterns_lines import _order_counts
from heuristics._windows import _histogram_score, _pair_table
from heuristics.registry import kernel_id

NONE, WINDOWS, MICS, PATTERNS = 0, 1, 2, 3
"""Evaluator kinds of the incremental state (``meta[0]``)."""
_HID_WINDOWS = kernel_id("windows")
_HID_MICS = kernel_id("mics")
_HID_PATTERNS = kernel_id("patterns")
SUPPORTED: tuple[str, ...] = ("windows", "mics", "patterns")
"""Evaluators with an incremental state (heuristics.registry.INCREMENTAL must list the same)."""


@njit(**JIT)
def _kind(hid: int, rules: Rules) -> int:
    """Which incremental state evaluator ``hid`` keeps on ``rules``' boards (NONE with gravity)."""
    if rules.gravity != 0:
        return NONE
    if hid == _HID_WINDOWS:
        return WINDOWS
    if hid == _HID_MICS:
        return MICS
    if hid == _HID_PATTERNS:
        return PATTERNS
    return NONE


@njit(**JIT)
def _new_state(hid: int, board: np.ndarray, rules: Rules, radius: int, enabled: bool, weights: np.ndarray,
               windows: np.ndarray) -> tuple[np.ndarray, ...]:  # fmt: skip
    """The state of ``board``, built from scratch (the tuple in the order of the names below).

    board : int8[cells]; weights : float64[n_weights]; windows : int32[n_windows, k].
    ``enabled`` False (the search's from-scratch switch) keeps nothing.
    meta : int64[2]; w_counts : int32[2, n_windows]; w_hist : int64[(k+1)^2];
    w_start : int32[cells * 4], the window starting at a cell in a direction (-1: none);
    w_pairs : float64[(k+1)^2]; m_stats : int64[2, cells, 4, 5]; m_totals : int64[_N_TOTALS + k]; near : int32[cells];
    m_class : int8[2, cells], how each empty cell entered the totals (``_mics._class_of``);
    m_powers : float64[k + 2] (``_mics._powers``); m_work_totals : int64[_N_TOTALS + k] and
    m_work_stats : int64[4, 5], scratch of ``_value_after``; m_line : int64[7, 8k + 2] and
    m_line_out : int64[2k - 1, 5], scratch of ``_line_stats``; p_counts : int64[11];
    p_cover : int32[2, cells, 8]; p_work : int64[6, 2k + 2] and p_order : int64[11], scratch of
    ``_patterns_lines``.  ``p_counts`` and ``p_cover`` are built by playing the stones in cell order
    (the update does not depend on the order of moves: the tests build them both ways).
    """
    rows, cols, k = rules.rows, rules.cols, rules.k
    cells = rows * cols
    kind = _kind(hid, rules) if enabled else NONE
    meta = np.zeros(2, dtype=np.int64)
    meta[0] = kind
    w_n = windows.shape[0] if kind == WINDOWS else 0
    w_counts = np.zeros((2, w_n), dtype=np.int32)
    w_hist = np.zeros((k + 1) * (k + 1) if kind == WINDOWS else 0, dtype=np.int64)
    w_start = np.full(cells * 4 if kind == WINDOWS else 0, -1, dtype=np.int32)
    w_pairs = np.zeros(0, dtype=np.float64)
    if kind == WINDOWS:
        w_pairs = _pair_table(k, weights)
        for w in range(w_n):
            a = 0
            b = 0
            for i in range(k):
                v = board[windows[w, i]]
                a += v == 1
                b += v == 2
            w_counts[0, w], w_counts[1, w] = a, b
            w_hist[a * (k + 1) + b] += 1
            first, second = windows[w, 0], windows[w, 1]
            dr, dc = second // cols - first // cols, second % cols - first % cols
            d = 0 if dr == 0 else (1 if dc == 0 else (2 if dc == 1 else 3))
            w_start[first * 4 + d] = w
    m_stats = np.zeros((2, cells if kind == MICS else 0, 4, 5), dtype=np.int64)
    m_totals = np.zeros(_N_TOTALS + k if kind == MICS else 0, dtype=np.int64)
    m_class = np.zeros((2, cells if kind == MICS else 0), dtype=np.int8)
    m_powers = _powers(k, weights) if kind == MICS else np.zeros(0, dtype=np.float64)
    if kind == MICS:
        _, _, cap = _tiers(weights)
        for cell in range(cells):
            if board[cell] == 0:
                _mics_add(board, rows, cols, k, cell, weights, cap, m_stats, m_totals, m_class, m_powers)
    near_on = kind != NONE and radius > 0  # only with an evaluation state: others keep the plain search
    meta[1] = int(near_on)
    near = np.zeros(cells if near_on else 0, dtype=np.int32)
    if near_on:
        for cell in range(cells):
            if board[cell] != 0:
                _near_add(near, rows, cols, cell, radius, 1)
    m_work_totals = np.zeros(m_totals.shape[0], dtype=np.int64)
    m_work_stats = np.zeros((4, 5), dtype=np.int64)
    m_line = np.zeros((7, 8 * k + 2) if kind == MICS else (7, 0), dtype=np.int64)
    m_line_out = np.zeros((2 * k - 1 if kind == MICS else 0, 5), dtype=np.int64)
    p_counts = np.zeros(_N_SHAPES if kind == PATTERNS else 0, dtype=np.int64)
    p_cover = np.zeros((2, cells if kind == PATTERNS else 0, 8), dtype=np.int32)
    p_work = np.zeros((6, 2 * k + 2 if kind == PATTERNS else 0), dtype=np.int64)
    p_order = np.zeros(p_counts.shape[0], dtype=np.int64)
    if kind == PATTERNS:
        replay = np.zeros(cells, dtype=np.int8)
        for cell in range(cells):
            if board[cell] != 0:
                replay[cell] = board[cell]
                _patterns_move(replay, rows, cols, k, cell, 0, p_counts, p_cover, p_work, True)
    return (meta, w_counts, w_hist, w_start, w_pairs, m_stats, m_totals, near, m_class, m_powers, m_work_totals,
            m_work_stats, m_line, m_line_out, p_counts, p_cover, p_work, p_order)  # fmt: skip


@njit(**JIT)
def _near_add(near: np.ndarray, rows: int, cols: int, cell: int, radius: int, sign: int) -> None:
    """Count a stone at ``cell`` (sign 1) or forget it (sign -1) in every cell within ``radius`` king moves."""
    r0, c0 = cell // cols, cell % cols
    for r in range(max(0, r0 - radius), min(rows, r0 + radius + 1)):
        for c in range(max(0, c0 - radius), min(cols, c0 + radius + 1)):
            near[r * cols + c] += sign


@njit(**JIT)
def _mics_add(board, rows, cols, k, cell, weights, cap, m_stats, m_totals, m_class, m_powers):  # type: ignore[no-untyped-def]
    """Recompute empty ``cell``'s four directions for both players and add its values to the totals."""
    for p in range(2):
        stats = m_stats[p, cell]
        for d in range(4):
            _fill_direction(board, rows, cols, k, cell, p + 1, d, stats[d])
        tier, raw = _combine(stats, k, weights, m_powers)
        m_class[p, cell] = _class_of(tier, raw, cap)
        _add_class(m_totals, 1 - 2 * p, stats, m_class[p, cell])


@njit(**JIT)
def _mics_move(board, rows, cols, k, cell, weights, m_stats, m_totals, m_class, m_powers, m_line, m_line_out, work):  # type: ignore[no-untyped-def]
    """Update the MICS state after ``board[cell]`` changed (a play or an undo: the board is already new).

    ``m_class`` keeps how each cell entered the totals, so taking it out needs no float work.
    """
    _, _, cap = _tiers(weights)
    if board[cell] != 0:  # played: the cell leaves the sum (its stored values are stale from now on)
        for p in range(2):
            _add_class(m_totals, 2 * p - 1, m_stats[p, cell], m_class[p, cell])
    else:  # undone: the cell's directions are recomputed and it joins the sum again
        _mics_add(board, rows, cols, k, cell, weights, cap, m_stats, m_totals, m_class, m_powers)
    _relines(board, rows, cols, k, cell, weights, cap, m_stats, m_totals, m_class, m_powers, m_line, m_line_out, work,
             True)  # literal: _relines compiles once per value, on purpose (see search.alphabeta._negamax's _move calls)  # fmt: skip


@njit(**JIT)
def _relines(board, rows, cols, k, cell, weights, cap, m_stats, totals, m_class, m_powers, line, line_out, work, commit):  # type: ignore[no-untyped-def]
    """Move into ``totals`` the new values of the empty cells on the four lines through ``cell`` (``board`` is new).

    Only direction d of the empty cells within k - 1 on line d can see the
    changed cell, so each such cell's old value leaves ``totals`` and its value
    with that one direction recomputed (``_line_stats``, one O(k) pass per line
    and player) enters.  With ``commit`` the new direction and class are stored
    in ``m_stats`` and ``m_class`` (a make or unmake); without, they go through
    ``work`` (int64[4, 5] scratch) and the stored state is left as it is (a
    value after a move that is not made).
    """
    r0, c0 = cell // cols, cell % cols
    for d in range(4):
        dr = 0 if d == 0 else 1
        dc = 1 if d == 0 else (0 if d == 1 else (1 if d == 2 else -1))
        for p in range(2):
            _line_stats(board, rows, cols, k, cell, p + 1, d, line, line_out)
            for t in range(1 - k, k):
                r, c = r0 + t * dr, c0 + t * dc
                if t == 0 or not (0 <= r < rows and 0 <= c < cols) or board[r * cols + c] != 0:
                    continue
                x = r * cols + c
                stats = m_stats[p, x]
                _add_class(totals, 2 * p - 1, stats, m_class[p, x])
                new = stats if commit else work
                if not commit:
                    work[:] = stats
                new[d, :] = line_out[t + k - 1]
                tier, raw = _combine(new, k, weights, m_powers)
                klass = _class_of(tier, raw, cap)
                if commit:
                    m_class[p, x] = klass
                _add_class(totals, 1 - 2 * p, new, klass)


@njit(**JIT)
def _windows_move(rules, cell, player, sign, w_counts, w_hist, w_start):  # type: ignore[no-untyped-def]
    """Add (sign 1) or remove (sign -1) ``player``'s stone at ``cell`` in the window counts and their histogram."""
    rows, cols, k = rules.rows, rules.cols, rules.k
    row, col = cell // cols, cell % cols
    for d in range(4):
        dr = 0 if d == 0 else 1
        dc = 1 if d == 0 else (0 if d == 1 else (1 if d == 2 else -1))
        for s in range(k):
            r0, c0 = row - s * dr, col - s * dc
            if not (0 <= r0 < rows and 0 <= c0 < cols):
                continue
            w = w_start[(r0 * cols + c0) * 4 + d]
            if w < 0:
                continue
            w_hist[w_counts[0, w] * (k + 1) + w_counts[1, w]] -= 1
            w_counts[player - 1, w] += sign
            w_hist[w_counts[0, w] * (k + 1) + w_counts[1, w]] += 1


@njit(**JIT)
def _move(state, board, rules, cell, player, sign, radius, weights):  # type: ignore[no-untyped-def]
    """Update ``state`` after ``player`` played (sign 1) or took back (sign -1) ``cell``; ``board`` is already updated."""
    meta, w_counts, w_hist, w_start, m_stats, m_totals, near, m_class, m_powers = (
        state[0], state[1], state[2], state[3], state[5], state[6], state[7], state[8], state[9])  # fmt: skip
    if meta[0] == WINDOWS:
        _windows_move(rules, cell, player, sign, w_counts, w_hist, w_start)
    elif meta[0] == MICS:
        _mics_move(board, rules.rows, rules.cols, rules.k, cell, weights, m_stats, m_totals, m_class, m_powers,
                   state[12], state[13], state[11])  # fmt: skip
    elif meta[0] == PATTERNS:
        _patterns_move(board, rules.rows, rules.cols, rules.k, cell, 0 if sign == 1 else player, state[14], state[15],
                       state[16], True)  # fmt: skip
    if meta[1] != 0:
        _near_add(near, rules.rows, rules.cols, cell, radius, sign)


@njit(**JIT)
def _value(state, rules, me, weights):  # type: ignore[no-untyped-def]
    """The evaluator's value for ``me`` (equal bit for bit to ``heuristics._dispatch._evaluate``); state kind not NONE."""
    meta, w_hist, w_pairs, m_totals = state[0], state[2], state[4], state[6]
    if meta[0] == WINDOWS:
        total = _histogram_score(w_hist, w_pairs)
    elif meta[0] == PATTERNS:
        total = _score(state[14], weights)
    else:
        total = _totals_value(m_totals, rules.k, weights)
    return total if me == 1 else -total


@njit(**JIT)
def _order(state, board, rules, me, weights, cell):  # type: ignore[no-untyped-def]
    """The evaluator's ordering score of ``me`` playing empty ``cell`` (equal bit for bit to ``_dispatch._order``)."""
    meta, w_counts, w_start, w_pairs, m_stats, m_powers = state[0], state[1], state[3], state[4], state[5], state[9]
    rows, cols, k = rules.rows, rules.cols, rules.k
    if meta[0] == WINDOWS:  # _windows._order's terms in its order, counts read instead of counted
        row, col = cell // cols, cell % cols
        change = 0.0
        for d in range(4):
            dr = 0 if d == 0 else 1
            dc = 1 if d == 0 else (0 if d == 1 else (1 if d == 2 else -1))
            for s in range(k):
                r0, c0 = row - s * dr, col - s * dc
                if not (0 <= r0 < rows and 0 <= c0 < cols):
                    continue
                w = w_start[(r0 * cols + c0) * 4 + d]
                if w < 0:
                    continue
                own, opp = w_counts[me - 1, w], w_counts[2 - me, w]
                change += w_pairs[(own + 1) * (k + 1) + opp] - w_pairs[own * (k + 1) + opp]
        return change  # own/opp are the mover's counts, so the stone-1 table reads from the mover's side
    if meta[0] == PATTERNS:
        _order_counts(board, rows, cols, k, cell, me, state[17], state[16])
        return _score(state[17], weights)
    # MICS: _mics._order with the cell's stored directions in place of _player_cell
    tier_me, raw_me = _combine(m_stats[me - 1, cell], k, weights, m_powers)
    tier_op, raw_op = _combine(m_stats[2 - me, cell], k, weights, m_powers)
    return _order_value(board, rows, cols, cell, weights, tier_me, raw_me, tier_op, raw_op)


@njit(**JIT)
def _generate_near(board: np.ndarray, near: np.ndarray, out: np.ndarray) -> int:
    """``search.alphabeta._negamax._generate``'s list with a radius on a board with stones, from the ``near`` counters.

    Writes the empty cells with a stone within the radius, in cell order, into ``out``;
    all empty cells if there are none.  Returns how many.
    """
    n = 0
    for cell in range(board.shape[0]):
        if board[cell] == 0 and near[cell] > 0:
            out[n] = cell
            n += 1
    return n if n > 0 else _empty_cells(board, out)


@njit(**JIT)
def _value_after(state, board, rules, cell, player, weights):  # type: ignore[no-untyped-def]
    """MICS, patterns: the value for the side to move after ``player`` plays empty ``cell``, leaving the state as it is.

    Equal bit for bit to ``_move`` then ``_value`` (the same integer totals), at
    about half the cost of ``_move`` there and back: the search's frontier
    nodes use it for their children, the leaves.  ``board`` is unchanged on return.
    """
    rows, cols, k = rules.rows, rules.cols, rules.k
    if state[0][0] == PATTERNS:  # _patterns_lines._move on a copy of the counts, the cover left as it is
        counts = state[17]
        counts[:] = state[14]
        board[cell] = player
        _patterns_move(board, rows, cols, k, cell, 0, counts, state[15], state[16], False)
        board[cell] = 0
        value = _score(counts, weights)
        return value if player == 2 else -value
    m_stats, m_totals, m_class, m_powers, totals, work = state[5], state[6], state[8], state[9], state[10], state[11]
    _, _, cap = _tiers(weights)
    totals[:] = m_totals
    board[cell] = player
    for p in range(2):
        _add_class(totals, 2 * p - 1, m_stats[p, cell], m_class[p, cell])
    _relines(board, rows, cols, k, cell, weights, cap, m_stats, totals, m_class, m_powers, state[12], state[13], work,
             False)  # fmt: skip
    board[cell] = 0
    total = _totals_value(totals, k, weights)
    return total if player == 2 else -total  # the side to move after the play is the other player
