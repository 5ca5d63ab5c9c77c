"""MICS direction values of every cell near a move, in one O(k) pass over the line (the Bologna project's O(k) update).

The Bologna m,n,k project updates its per-cell values in O(k^2) per move and names O(k) as
the improvement.  A stone changes, in each of the four directions, the
direction values (``heuristics._mics._direction``) of the empty cells within
``k - 1`` of it on that line; :func:`_line_stats` computes all of them from
one pass over the ``<= 4k - 3`` cells of the line instead of walking the
board for each cell.  Used by :mod:`heuristics._incremental`; tested equal to
``_direction`` cell by cell (through the incremental state, tests/test_incremental.py).
"""

from __future__ import annotations

from numba import njit

from games._jit import JIT, JIT_INLINE


@njit(**JIT)
def _line_stats(board, rows, cols, k, cell, player, d, line, out):  # type: ignore[no-untyped-def]
    """``_mics._direction`` of ``player`` along direction ``d`` for every empty cell within ``k - 1`` of ``cell``: O(k).

    One pass over the line (``n <= 4k - 3`` cells) builds prefix sums of own
    stones and of empty cells' positions and the next opponent stone.  A
    target's windows are the starts ``[first, last]``, both nondecreasing
    along the line, so one sliding set serves every target: a monotone deque
    gives the minimum missing count, a histogram of missing counts its
    multiplicity, and a count of distinct "other empty cell" sums among the
    windows lacking 2 the in-line double.  Each window enters and leaves the
    set once: O(k) per line, O(1) per target.
    out : int64[2k - 1, 5], row ``t + k - 1`` for the cell ``t`` steps along the line (rows of
    non-empty or off-board cells, and of ``cell`` itself, are not written);
    line : int64[7, 8k + 2] scratch (prefix sums, next opponent, cells, deque, histogram, sum counts).
    """
    dr = 0 if d == 0 else 1
    dc = 1 if d == 0 else (0 if d == 1 else (1 if d == 2 else -1))
    r0, c0 = cell // cols, cell % cols
    opponent = 3 - player
    reach = 2 * k - 2  # a target is within k - 1 of cell, and sees k - 1 further
    lo = 0
    while lo > -reach and 0 <= r0 + (lo - 1) * dr < rows and 0 <= c0 + (lo - 1) * dc < cols:
        lo -= 1
    hi = 0
    while hi < reach and 0 <= r0 + (hi + 1) * dr < rows and 0 <= c0 + (hi + 1) * dc < cols:
        hi += 1
    n = hi - lo + 1
    own_sum, empty_pos_sum, next_opp, vals, deque, hist, sums = line[0], line[1], line[2], line[3], line[4], line[5], line[6]
    own_sum[0] = 0
    empty_pos_sum[0] = 0
    for i in range(n):  # index i is the cell lo + i steps along the line
        t = lo + i
        v = board[(r0 + t * dr) * cols + c0 + t * dc]
        vals[i] = v
        own_sum[i + 1] = own_sum[i] + (1 if v == player else 0)
        empty_pos_sum[i + 1] = empty_pos_sum[i] + (i if v == 0 else 0)
    next_opp[n] = n  # the line's end (board edge or beyond every target's reach) stops like an opponent stone
    for i in range(n - 1, -1, -1):
        next_opp[i] = i if vals[i] == opponent else next_opp[i + 1]
    hist[: k + 2] = 0
    sums[: 2 * n + 1] = 0
    head = 0  # the deque is deque[head:tail], window starts with nondecreasing missing counts
    tail = 0
    set_lo = 0  # the set holds the windows starting in [set_lo, set_hi)
    set_hi = 0
    distinct = 0  # distinct empty-position sums among the set's windows lacking 2
    last_opp = -1
    for i in range(n):
        if vals[i] == opponent:
            last_opp = i
            continue
        t = lo + i
        if vals[i] != 0 or t == 0 or t < 1 - k or t > k - 1:
            continue
        row = out[t + k - 1]
        back = min(k - 1, i - last_opp - 1)
        ahead = min(k - 1, next_opp[i] - i - 1)
        first, last = i - back, min(i, i + ahead - k + 1)
        if last < first:
            row[0], row[1], row[2], row[3], row[4] = 0, 0, k + 1, 0, 0
            continue
        if first > set_hi:  # nothing shared with the last target's windows: empty the set, start at first
            while set_lo < set_hi:
                distinct -= _leave(set_lo, k, own_sum, empty_pos_sum, hist, sums)
                set_lo += 1
            head = tail = 0
            set_lo = set_hi = first
        while set_lo < first:
            distinct -= _leave(set_lo, k, own_sum, empty_pos_sum, hist, sums)
            set_lo += 1
        while head < tail and deque[head] < first:
            head += 1
        while set_hi <= last:  # enter window set_hi
            missing = k - (own_sum[set_hi + k] - own_sum[set_hi])
            hist[missing] += 1
            if missing == 2:
                pos_sum = empty_pos_sum[set_hi + k] - empty_pos_sum[set_hi]
                sums[pos_sum] += 1
                distinct += sums[pos_sum] == 1
            while tail > head and k - (own_sum[deque[tail - 1] + k] - own_sum[deque[tail - 1]]) > missing:
                tail -= 1
            deque[tail] = set_hi
            tail += 1
            set_hi += 1
        best = k - (own_sum[deque[head] + k] - own_sum[deque[head]])
        friendly = own_sum[i + ahead + 1] - own_sum[i - back]
        # Windows lacking 2 hold the target and one other empty cell: distinct sums are distinct other cells.
        row[0], row[1], row[2], row[3], row[4] = friendly, last - first + 1, best, hist[best], int(distinct >= 2)


@njit(**JIT_INLINE)  # takes arrays: see games._jit.JIT_INLINE
def _leave(s, k, own_sum, empty_pos_sum, hist, sums):  # type: ignore[no-untyped-def]
    """Take window ``s`` out of ``_line_stats``' set; return 1 if an empty-position sum left the set, else 0."""
    missing = k - (own_sum[s + k] - own_sum[s])
    hist[missing] -= 1
    if missing == 2:
        pos_sum = empty_pos_sum[s + k] - empty_pos_sum[s]
        sums[pos_sum] -= 1
        return 1 if sums[pos_sum] == 0 else 0
    return 0
