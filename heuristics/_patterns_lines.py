"""``patterns`` shape counts near one cell in O(k) per line: the incremental update and the ordering score.

Part of the incremental evaluation (the Bologna m,n,k project updates its per-cell values in O(k^2) per move and
names O(k) as the improvement).  Every shape of ``heuristics._patterns`` spans
at most ``k + 1`` cells of a line, so a stone at ``cell`` changes only the
occurrences that *touch* it, and they all lie in the ``2k + 1`` cells centred
on it.  :func:`_touching` finds them in one pass: prefix sums of own stones
and of walls (``@``: opponent stones and the board's edge) and the end of
each run of own stones make every shape test O(1), and there are O(k)
candidate places.  ``_patterns._order`` rescans the same segment shape by
shape, O(k) per place and O(k^2) per line; it is the reference the tests
compare with.

Double shapes.  A stone's double bonuses depend on the directions in which
it is one of the ``O`` cells of a dead-(k-1) or alive-(k-2) occurrence.  The
state keeps, per player, stone and direction, how many such occurrences
cover it (``cover``: int32[2, cells, 8], entry ``d`` for dead-(k-1) and
``4 + d`` for alive-(k-2)); an occurrence covers a contiguous range, so the
changes of all the stones on a line go into a difference array and are read
back in one pass.  A cell that is not a stone of that player always has zero
cover, so the double counts are just the sum of every cell's bonuses.  A
stone other than the moved one lies on one line through the moved cell, so
its cover changes in one direction per move: ``_move`` with ``write`` False
gives the counts after a move without changing the cover (the search's
leaves, ``heuristics._incremental._value_after``).

work : int64[6, 2k + 2] scratch, rows ``_VALS`` (the segment), ``_OWN`` and
``_WALL`` (prefix sums), ``_NEXT`` (end of the run of own stones from each
place), ``_DEAD`` and ``_ALIVE`` (difference arrays of cover changes).
"""

from __future__ import annotations

from numba import njit

from games._jit import JIT
from heuristics._patterns import (
    _ALIVE_2,
    _ALIVE_3,
    _DEAD_2,
    _DEAD_3,
    _FOUR,
    _OFF_BOARD,
    _UNAVAILABLE_1,
    _UNAVAILABLE_2,
    _UNAVAILABLE_3,
    _add_doubles,
)

_VALS, _OWN, _WALL, _NEXT, _DEAD, _ALIVE = 0, 1, 2, 3, 4, 5
"""Rows of the ``work`` scratch array."""


@njit(**JIT)
def _fill_segment(board, rows, cols, k, cell, d, vals):  # type: ignore[no-untyped-def]
    """``vals[t + k]`` = the board ``t`` steps from ``cell`` along direction ``d``, for ``|t| <= k`` (3 off the board)."""
    dr = 0 if d == 0 else 1
    dc = 1 if d == 0 else (0 if d == 1 else (1 if d == 2 else -1))
    r0, c0 = cell // cols, cell % cols
    for t in range(-k, k + 1):
        r, c = r0 + t * dr, c0 + t * dc
        vals[t + k] = board[r * cols + c] if 0 <= r < rows and 0 <= c < cols else _OFF_BOARD


@njit(**JIT)
def _touching(k, p, counts, sign, cover_sign, work):  # type: ignore[no-untyped-def]
    """Add ``sign`` times player ``p``'s occurrences touching the centre of the segment ``work[_VALS, :2k+1]`` to ``counts``.

    The shapes are ``_patterns._scan_line``'s.  Each dead-(k-1) and
    alive-(k-2) occurrence also adds ``cover_sign`` over its range of ``O``
    cells to the difference arrays ``work[_DEAD]`` and ``work[_ALIVE]`` (the
    caller zeroes them).  Returns how many dead-(k-1) and alive-(k-2)
    occurrences have the centre among their ``O`` cells.  O(k).
    """
    n = 2 * k + 1
    vals, own, wall, nxt, dead, alive = work[_VALS], work[_OWN], work[_WALL], work[_NEXT], work[_DEAD], work[_ALIVE]
    own[0] = 0
    wall[0] = 0
    for i in range(n):
        v = vals[i]
        own[i + 1] = own[i] + (1 if v == p else 0)
        wall[i + 1] = wall[i] + (1 if v != 0 and v != p else 0)
    nxt[n] = n  # a run reaching the segment's end is longer than any counted shape
    for i in range(n - 1, -1, -1):
        nxt[i] = nxt[i + 1] if vals[i] == p else i
    centre_dead = 0
    centre_alive = 0
    for i in range(1, k + 1):  # k in a row over [i, i + k - 1]
        if own[i + k] - own[i] == k:
            counts[_FOUR] += sign
    for i in range(k + 1):  # the (k + 1)-cell shapes over [i, i + k]
        a, b = vals[i], vals[i + k]
        if a == 0 and b == 0 and wall[i + k] - wall[i + 1] == 0:  # alive: X, no @, X
            c = own[i + k] - own[i + 1]
            if c == k - 1:
                counts[_ALIVE_3] += sign
            elif c == k - 2:
                counts[_ALIVE_2] += sign
                alive[i + 1] += cover_sign
                alive[i + k] -= cover_sign
                centre_alive += 1 if 1 <= i <= k - 1 else 0
        if a != 0 and a != p and vals[i + 1] == p and wall[i + k + 1] - wall[i + 1] == 0:  # dead, @ at i
            c = own[i + k + 1] - own[i + 1]
            if c == k - 1:
                counts[_DEAD_3] += sign
                dead[i + 1] += cover_sign
                dead[i + k + 1] -= cover_sign
                centre_dead += 1 if i <= k - 1 else 0
            elif c == k - 2:
                counts[_DEAD_2] += sign
        if b != 0 and b != p and vals[i + k - 1] == p and wall[i + k] - wall[i] == 0:  # dead, @ at i + k
            c = own[i + k] - own[i]
            if c == k - 1:
                counts[_DEAD_3] += sign
                dead[i] += cover_sign
                dead[i + k] -= cover_sign
                centre_dead += 1 if i >= 1 else 0
            elif c == k - 2:
                counts[_DEAD_2] += sign
        if a != 0 and a != p and vals[i + 1] == p:  # unavailable: @ at i, a run of own stones, @ at j
            j = nxt[i + 1]
            r = j - i - 1
            if j < n and j >= k and vals[j] != 0 and r <= k - 1:
                if r == k - 1:
                    counts[_UNAVAILABLE_3] += sign
                elif r == k - 2:
                    counts[_UNAVAILABLE_2] += sign
                else:
                    counts[_UNAVAILABLE_1] += sign
    return centre_dead, centre_alive


@njit(**JIT)
def _mark(row):  # type: ignore[no-untyped-def]
    """A stone's direction bits (``_patterns._scan_line``'s ``marks``) from its cover counts (int32[8])."""
    mark = 0
    for j in range(8):
        if row[j] > 0:
            mark |= 1 << j
    return mark


@njit(**JIT)
def _cover_add(row, d, dead, alive, counts, sign, write):  # type: ignore[no-untyped-def]
    """Change one stone's cover in direction ``d`` by ``dead``/``alive`` and move its double bonuses (times ``sign``).

    ``write`` False leaves ``row`` as it is (``_value_after``): a stone off
    the moved cell lies on one line through it, so it changes once per move.
    """
    before = _mark(row)
    after = before & ~((1 << d) | (16 << d))
    after |= (1 << d if row[d] + dead > 0 else 0) | (16 << d if row[4 + d] + alive > 0 else 0)
    if write:
        row[d] += dead
        row[4 + d] += alive
    if after != before:
        _add_doubles(before, counts, -sign)
        _add_doubles(after, counts, sign)


@njit(**JIT)
def _move(board, rows, cols, k, cell, old, counts, cover, work, write):  # type: ignore[no-untyped-def]
    """Update the state after ``board[cell]`` changed from ``old`` (a play or an undo: the board is already new).

    counts : int64[11], player 1's shape counts minus player 2's (``_patterns._evaluate``'s);
    cover : int32[2, cells, 8] (module docstring).  O(k) per direction and player.
    ``write`` False updates ``counts`` only, leaving ``cover`` as it was (``_value_after``).
    """
    n = 2 * k + 1
    vals = work[_VALS]
    step_r = (0, 1, 1, 1)
    step_c = (1, 0, 1, -1)
    new = board[cell]
    mover = new if new != 0 else old
    centre = cover[mover - 1, cell]
    if old != 0:  # undone: the stone's doubles leave the counts, its cover goes back to zero below
        _add_doubles(_mark(centre), counts, -1 if old == 1 else 1)
    centre_mark = 0
    for d in range(4):
        _fill_segment(board, rows, cols, k, cell, d, vals)
        step = step_r[d] * cols + step_c[d]
        for p in range(1, 3):
            s = 1 if p == 1 else -1
            work[_DEAD, :] = 0
            work[_ALIVE, :] = 0
            vals[k] = old
            _touching(k, p, counts, -s, -1, work)
            vals[k] = new
            dead, alive = _touching(k, p, counts, s, 1, work)
            if p == new:  # the new stone is an O of exactly the occurrences that cover it now
                centre_mark |= (1 << d if dead > 0 else 0) | (16 << d if alive > 0 else 0)
                if write:
                    centre[d], centre[4 + d] = dead, alive
            elif p == old and write:
                centre[d], centre[4 + d] = 0, 0
            run_dead = 0
            run_alive = 0
            for t in range(n):
                run_dead += work[_DEAD, t]
                run_alive += work[_ALIVE, t]
                if t != k and vals[t] == p and (run_dead != 0 or run_alive != 0):
                    _cover_add(cover[p - 1, cell + (t - k) * step], d, run_dead, run_alive, counts, s, write)
    if new != 0:
        _add_doubles(centre_mark, counts, 1 if new == 1 else -1)


@njit(**JIT)
def _order_counts(board, rows, cols, k, cell, me, counts, work):  # type: ignore[no-untyped-def]
    """``_patterns._order``'s counts (own minus opponent change on the 4 lines, the new stone's doubles) in O(k) a line.

    board : int8[cells], ``board[cell]`` empty; counts : int64[11] is overwritten.
    """
    counts[:] = 0
    vals = work[_VALS]
    mark = 0
    for d in range(4):
        _fill_segment(board, rows, cols, k, cell, d, vals)
        for p in (me, 3 - me):
            s = 1 if p == me else -1
            vals[k] = 0
            _touching(k, p, counts, -s, 0, work)
            vals[k] = me
            dead, alive = _touching(k, p, counts, s, 0, work)
            if p == me:
                mark |= (1 << d if dead > 0 else 0) | (16 << d if alive > 0 else 0)
    _add_doubles(mark, counts, 1)
