"""Threat-space search kernels: VCF (victory by continuous fours) and VCT (fours and threes).

Boards are the flat ``int8`` arrays of :mod:`games._board` (row-major, row 0
at the top, 0 empty, 1/2 stones), m,n,k boards without gravity, ``k >= 4``.
``me`` is the attacker's stone, ``3 - me`` the defender's.

Vocabulary (Allis, van den Herik and Huntjens 1993)::

    win cell   an empty cell where a player would win at once (the game's win test,
               exact-k aware: with exact_k a cell that would make an overline is not one)
    four       an attacker move after which the attacker has a win cell: the defender
               must take it (two win cells, a double four, win outright)
    three      a non-four attacker move after which the attacker, moving again, has a VCF

Why the defender's replies are few.  Before a four the defender has no win
cell (the attacker blocks the defender's four first, and may block only by a
four in VCF), so after the four the defender's one non-losing move is the
attacker's win cell.  Win cells appear only on the four lines through the
last stone, within ``k - 1`` of it, because a stone changes only runs through
itself: that is why the kernels look for new win cells near the last move
and scan the whole board only at the root.  After a *three* every defender
move is tried (all empty cells): the VCT is claimed only if each one loses.
Most of them are disposed of by replaying the three's VCF line (a cheap,
exact re-check on the real board); the rest get a full search.  So a claimed
win is always a forced win; a missed one (budget, depth, the move classes)
only makes the search incomplete.

Depths count plies from the node to the winning move included: a win cell
is 1, a double four 3 (four, block, win), a four then a double four 5.

Recursive kernels are called with int64 values, never literals (``np.int64(0)``,
not ``0``): a literal compiles a second signature of the recursive kernel, and
numba's cache then loads a broken one (a segmentation fault in the next process).

Return values: plies to the win (> 0) or 0 (none found).  ``stats`` is
``int64[4]``: nodes so far, the node budget, 1 once the budget or the time ran out
(then every kernel returns 0 at once, and 0 means "unknown"), and the deadline in
nanoseconds of ``time.perf_counter()`` (0: none), read every :data:`CLOCK_NODES` nodes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games._board import _wins_through
from games._jit import JIT
from games._rules import Rules
from search._clock import _now

_DIRS = np.array([[0, 1], [1, 0], [1, 1], [1, -1]], dtype=np.int64)

GLOBAL = -1
"""``dcell`` value: look for the defender's win cells on the whole board (the root)."""
NONE = -2
"""``dcell`` value: the defender has no win cell (the attacker just blocked, or passed)."""
CLOCK_NODES = 1024
"""Nodes between two reads of the clock against a deadline (a few milliseconds at the search's node rate; a read
costs a microsecond or two)."""


@njit(**JIT)
def _wins(board: np.ndarray, rows: int, cols: int, k: int, exact_k: int, cell: int) -> bool:
    """The game's win test for the stone on ``cell`` (free boards), the one place the kernels call it."""
    return bool(_wins_through(board, Rules(rows, cols, k, 0, exact_k), cell))


@njit(**JIT)
def _win_cells_near(board: np.ndarray, rows: int, cols: int, k: int, exact_k: int, stone: int, cell: int,
                    out: np.ndarray) -> int:
    """Win cells of ``stone`` on the four lines through ``cell``, within ``k - 1`` of it; return how many.

    board : int8[rows * cols] (restored on return).  out : int64[8 * k].
    A new win cell's run contains ``cell``, so its neighbour toward ``cell``
    is ``stone``: the cheap pre-test that skips most cells.
    """
    n = 0
    r0, c0 = cell // cols, cell % cols
    for d in range(4):
        dr, dc = _DIRS[d, 0], _DIRS[d, 1]
        for s in range(-(k - 1), k):
            if s == 0:
                continue
            r, c = r0 + s * dr, c0 + s * dc
            if r < 0 or r >= rows or c < 0 or c >= cols or board[r * cols + c] != 0:
                continue
            step = -1 if s > 0 else 1
            if board[(r + step * dr) * cols + c + step * dc] != stone:
                continue
            e = r * cols + c
            board[e] = stone
            if _wins(board, rows, cols, k, exact_k, e):
                out[n] = e
                n += 1
            board[e] = 0
    return n


@njit(**JIT)
def _win_cells_all(board: np.ndarray, rows: int, cols: int, k: int, exact_k: int, stone: int, out: np.ndarray) -> int:
    """Every win cell of ``stone`` on the board (at most ``out.size`` recorded); return how many were recorded.

    out : int64[m]; the root needs only to know 0, 1 or "2 or more".
    """
    n = 0
    for e in range(rows * cols):
        if board[e] != 0:
            continue
        board[e] = stone
        if _wins(board, rows, cols, k, exact_k, e):
            out[n] = e
            n += 1
        board[e] = 0
        if n == out.size:
            break
    return n


@njit(**JIT)
def _defender_wins(board: np.ndarray, rows: int, cols: int, k: int, exact_k: int, opp: int, dcell: int,
                   out: np.ndarray) -> int:
    """The defender's win cells the attacker must face: near ``dcell``, on the whole board, or none."""
    if dcell == NONE:
        return 0
    if dcell == GLOBAL:
        return int(_win_cells_all(board, rows, cols, k, exact_k, opp, out[:2]))
    return int(_win_cells_near(board, rows, cols, k, exact_k, opp, dcell, out))


@njit(**JIT)
def _candidates(board: np.ndarray, rows: int, cols: int, k: int, stone: int, lo: int, hi: int, out: np.ndarray) -> int:
    """Empty cells of the k-windows holding ``lo..hi`` of ``stone``'s stones and none of the other's.

    out : int64[rows * cols], filled best first (a cell in more windows, and
    in fuller ones, comes earlier); returns how many.  A four needs such a
    window with ``k - 2`` stones (a superset: the caller checks), a three
    one with ``k - 3``.
    """
    n_cells = rows * cols
    weight = np.zeros(n_cells, dtype=np.int64)
    for d in range(4):
        dr, dc = _DIRS[d, 0], _DIRS[d, 1]
        for start in range(n_cells):
            r0, c0 = start // cols, start % cols
            r1, c1 = r0 + (k - 1) * dr, c0 + (k - 1) * dc
            if r1 >= rows or c1 < 0 or c1 >= cols:
                continue
            own = 0
            blocked = False
            for i in range(k):
                v = board[(r0 + i * dr) * cols + c0 + i * dc]
                if v == stone:
                    own += 1
                elif v != 0:
                    blocked = True
                    break
            if blocked or own < lo or own > hi:
                continue
            for i in range(k):
                e = (r0 + i * dr) * cols + c0 + i * dc
                if board[e] == 0:
                    weight[e] += 1 << (2 * (own - lo))  # a fuller window counts four times as much
    n = 0
    for e in range(n_cells):
        if weight[e] > 0:
            j = n  # insertion sort, heaviest first: the lists are short
            while j > 0 and weight[out[j - 1]] < weight[e]:
                out[j] = out[j - 1]
                j -= 1
            out[j] = e
            n += 1
    return n


@njit(**JIT)
def _spend(stats: np.ndarray) -> bool:
    """Count one node; False (and the abort flag set) once the budget is spent or the deadline passed."""
    if stats[0] >= stats[1]:
        stats[2] = 1
        return False
    stats[0] += 1
    if stats[3] > 0 and stats[0] % CLOCK_NODES == 0 and _now() * 1e9 >= stats[3]:
        stats[2] = 1
        return False
    return True


@njit(**JIT)
def _vcf(board: np.ndarray, rows: int, cols: int, k: int, exact_k: int, me: int, depth: int, dcell: int,
         stats: np.ndarray, pv: np.ndarray, ply: int) -> int:
    """Plies to a win by continuous fours within ``depth`` plies, or 0; the line goes to ``pv[ply:]``.

    board : int8[rows * cols], attacker ``me`` to move, restored on return.
    dcell : the defender's last stone (its new win cells are near it), or
    GLOBAL at the root (also checks the attacker's own win cells), or NONE.
    Off the root the attacker has no win cell (every four was answered).
    pv : int64[>= ply + depth].  stats : see the module docstring.
    """
    if depth < 1 or stats[2]:
        return 0
    opp = 3 - me
    buf = np.empty(8 * k, dtype=np.int64)
    if dcell == GLOBAL and _win_cells_all(board, rows, cols, k, exact_k, me, buf[:1]) > 0:
        pv[ply] = buf[0]
        return 1
    if depth < 3:
        return 0
    nd = _defender_wins(board, rows, cols, k, exact_k, opp, dcell, buf)
    if nd >= 2:
        return 0
    cands = np.empty(rows * cols, dtype=np.int64)
    if nd == 1:
        cands[0] = buf[0]  # the defender's four must be blocked, and the block must be a four
        nc = 1
    else:
        nc = _candidates(board, rows, cols, k, me, k - 2, k - 2, cands)
    block = np.full(nc, -1, dtype=np.int64)
    for i in range(nc):  # first pass: a double four wins in 3, the shortest there is
        m = cands[i]
        if not _spend(stats):
            return 0
        board[m] = me
        nt = _win_cells_near(board, rows, cols, k, exact_k, me, m, buf)
        board[m] = 0
        if nt >= 2:
            pv[ply], pv[ply + 1], pv[ply + 2] = m, buf[0], buf[1]
            return 3
        if nt == 1:
            block[i] = buf[0]
    if depth < 5:
        return 0
    for i in range(nc):
        t = block[i]
        if t < 0:
            continue
        m = cands[i]
        if not _spend(stats):
            return 0
        board[m], board[t] = me, opp  # the four and its one answer
        r = int(_vcf(board, rows, cols, k, exact_k, me, depth - 2, t, stats, pv, ply + 2))
        board[m], board[t] = 0, 0
        if r > 0:
            pv[ply], pv[ply + 1] = m, t
            return r + 2
        if stats[2]:
            return 0
    return 0


@njit(**JIT)
def _replay(board: np.ndarray, rows: int, cols: int, k: int, exact_k: int, me: int, line: np.ndarray, n: int,
            dcell: int, stats: np.ndarray, out: np.ndarray) -> int:
    """Re-check a VCF line's attacker moves on this board; plies to the win, or 0 if it no longer forces one.

    line : int64[n], a line found by :func:`_vcf` (attacker moves at even
    indices, the last being the win).  The defender's answers are recomputed,
    so the check is exact whatever stone was added since; out : int64[n]
    receives the line as replayed.  board is restored on return.
    """
    opp = 3 - me
    buf = np.empty(8 * k, dtype=np.int64)
    placed = np.empty(n, dtype=np.int64)
    n_placed = 0
    result = 0
    i = 0
    while i + 2 < n and stats[2] == 0:
        a = line[i]
        nd = _defender_wins(board, rows, cols, k, exact_k, opp, dcell, buf)
        if nd >= 2 or (nd == 1 and buf[0] != a) or board[a] != 0 or not _spend(stats):
            break
        board[a] = me
        placed[n_placed] = a
        n_placed += 1
        out[i] = a
        nt = _win_cells_near(board, rows, cols, k, exact_k, me, a, buf)
        if nt == 0:
            break
        if nt >= 2:
            out[i + 1], out[i + 2] = buf[0], buf[1]
            result = i + 3
            break
        board[buf[0]] = opp
        placed[n_placed] = buf[0]
        n_placed += 1
        out[i + 1] = buf[0]
        dcell = buf[0]
        i += 2
    for j in range(n_placed):
        board[placed[j]] = 0
    return result


@njit(**JIT)
def _defence_order(board: np.ndarray, line: np.ndarray, n_line: int, out: np.ndarray) -> int:
    """Every empty cell, those of the three's VCF ``line`` first (the likely refutations); return how many.

    out : int64[rows * cols].
    """
    n_cells = board.shape[0]
    seen = np.zeros(n_cells, dtype=np.bool_)
    n = 0
    for j in range(n_line):
        e = line[j]
        if board[e] == 0 and not seen[e]:
            seen[e] = True
            out[n] = e
            n += 1
    for e in range(n_cells):
        if board[e] == 0 and not seen[e]:
            out[n] = e
            n += 1
    return n


@njit(**JIT)
def _vct(board: np.ndarray, rows: int, cols: int, k: int, exact_k: int, me: int, depth: int, dcell: int,
         stats: np.ndarray, pv: np.ndarray, ply: int) -> int:
    """Plies to a win by fours and threes within ``depth`` plies against every defence, or 0.

    Arguments as :func:`_vcf`.  The line in ``pv[ply:]`` follows the
    defence that lasts longest.  VCF is tried first at every node.  After a
    three every empty cell is a defence (the defender has no win cell here):
    the three's VCF line is replayed first for each, and where it no longer
    works a full search within ``depth - 2`` plies decides.
    """
    r = int(_vcf(board, rows, cols, k, exact_k, me, depth, dcell, stats, pv, ply))
    if r > 0 or stats[2] or depth < 5:
        return r
    opp = 3 - me
    n_cells = rows * cols
    buf = np.empty(8 * k, dtype=np.int64)
    nd = _defender_wins(board, rows, cols, k, exact_k, opp, dcell, buf)
    if nd >= 2:
        return 0
    cands = np.empty(n_cells, dtype=np.int64)
    if nd == 1:
        cands[0] = buf[0]
        nc = 1
    else:
        nc = _candidates(board, rows, cols, k, me, k - 3, k - 2, cands)
    line = np.empty(depth + 1, dtype=np.int64)
    child = np.empty(depth + 1, dtype=np.int64)
    for i in range(nc):
        m = cands[i]
        if not _spend(stats):
            return 0
        board[m] = me
        nt = _win_cells_near(board, rows, cols, k, exact_k, me, m, buf)
        r = 0
        if nt == 1:  # a four: one answer, then threes may follow (a double four was VCF's)
            t = buf[0]
            board[t] = opp
            r = int(_vct(board, rows, cols, k, exact_k, me, depth - 2, t, stats, pv, ply + 2))
            board[t] = 0
            if r > 0:
                pv[ply + 1] = t
                r += 2
        elif nt == 0:
            n_line = _vcf(board, rows, cols, k, exact_k, me, depth - 2, np.int64(NONE), stats, line, np.int64(0))
            if n_line > 0:  # a three: every defender move must lose (inline: numba's cache breaks mutual recursion)
                order = np.empty(n_cells, dtype=np.int64)
                n_order = _defence_order(board, line, n_line, order)
                worst = 0
                for j in range(n_order):
                    x = order[j]
                    if not _spend(stats):
                        worst = 0
                        break
                    board[x] = opp
                    rx = _replay(board, rows, cols, k, exact_k, me, line, n_line, x, stats, child)
                    if rx == 0 and stats[2] == 0:
                        rx = _vct(board, rows, cols, k, exact_k, me, depth - 2, x, stats, child, np.int64(0))
                    board[x] = 0
                    if rx == 0:
                        worst = 0
                        break
                    if rx > worst:  # the longest resistance is the line to show
                        worst = rx
                        pv[ply + 1] = x
                        pv[ply + 2 : ply + 2 + rx] = child[:rx]
                r = worst + 2 if worst > 0 else 0
        board[m] = 0
        if r > 0:
            pv[ply] = m
            return r
        if stats[2]:
            return 0
    return 0


@njit(**JIT)
def _threat_search(board: np.ndarray, rows: int, cols: int, k: int, exact_k: int, me: int, max_depth: int,
                   node_budget: int, vct: int, pv: np.ndarray, deadline: float) -> tuple[int, int, bool]:
    """Iterative deepening (1, 3, 5, ... plies) of VCF (``vct`` 0) or VCT (1); return ``(plies, nodes, stopped)``.

    plies : the shortest win found (0: none).  stopped : the budget ran out or
    ``deadline`` (a ``time.perf_counter()`` time; inf: none) passed (then 0
    means "unknown").  The shallowest depth that succeeds is taken, so a VCF
    line is a shortest one.
    pv : int64[max_depth + 1].  ``vct`` is an int, not a bool: Python passes an int and the gomoku search an
    ``np.int64``, one signature (a bool from Python and a literal ``True`` from a kernel are two).
    """
    stats = np.zeros(4, dtype=np.int64)
    stats[1] = node_budget
    if deadline < 1e12:
        stats[3] = max(np.int64(deadline * 1e9), np.int64(1))
    depth = np.int64(1)  # a literal 1 is typed Literal[int](1) on numba's first pass: _vct and _vcf would compile twice
    while depth <= max_depth:
        if vct:
            r = _vct(board, rows, cols, k, exact_k, me, depth, np.int64(GLOBAL), stats, pv, np.int64(0))
        else:
            r = _vcf(board, rows, cols, k, exact_k, me, depth, np.int64(GLOBAL), stats, pv, np.int64(0))
        if r > 0 or stats[2]:
            return r, stats[0], stats[2] == 1
        depth += 2
    return 0, stats[0], False
