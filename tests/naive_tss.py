"""Slow, obvious references for threat-space search (search/_tss.py): plain Python AND-OR search over a flat list.

Independent of the kernels' shortcuts: win cells are found by trying every
empty cell of the whole board, fours by trying every empty cell, the
defender's replies are *every* empty cell (no "it must block" reasoning), and
nothing is replayed.  Boards are flat lists, row 0 at the top, 0 empty, 1/2
stones; ``me`` is the attacker's stone.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def wins_at(board: list[int], rows: int, cols: int, k: int, exact: bool, cell: int) -> bool:
    """True if the stone on ``cell`` has k in a row through it (exactly k with ``exact``)."""
    stone = board[cell]
    r0, c0 = divmod(cell, cols)
    for dr, dc in DIRECTIONS:
        run = 1
        for sign in (1, -1):
            r, c = r0 + sign * dr, c0 + sign * dc
            while 0 <= r < rows and 0 <= c < cols and board[r * cols + c] == stone:
                run += 1
                r, c = r + sign * dr, c + sign * dc
        if run == k or (run > k and not exact):
            return True
    return False


def win_cells(board: list[int], rows: int, cols: int, k: int, exact: bool, stone: int) -> list[int]:
    """Every empty cell where ``stone`` would win at once."""
    out = []
    for e, v in enumerate(board):
        if v == 0:
            board[e] = stone
            if wins_at(board, rows, cols, k, exact, e):
                out.append(e)
            board[e] = 0
    return out


def is_four(board: list[int], rows: int, cols: int, k: int, exact: bool, stone: int, cell: int) -> bool:
    """True if playing ``cell`` leaves ``stone`` a win cell (and does not win already)."""
    board[cell] = stone
    result = not wins_at(board, rows, cols, k, exact, cell) and bool(win_cells(board, rows, cols, k, exact, stone))
    board[cell] = 0
    return result


Moves = Callable[[list[int], int], list[int]]


def proves(board: list[int], rows: int, cols: int, k: int, exact: bool, me: int, depth: int, attacker_moves: Moves) -> bool:
    """True if ``me`` (to move) wins within ``depth`` plies whatever the defender plays.

    The attacker tries only ``attacker_moves(board, me)`` (any restriction keeps
    a True answer sound); the defender tries every empty cell, except that
    facing a single win cell only the block is tried (every other reply loses
    to it on the next move, which the attacker's node checks first).  Memoised.
    """
    opp = 3 - me

    @lru_cache(maxsize=None)
    def attack(key: tuple[int, ...], left: int) -> bool:
        b = list(key)
        if left < 1:
            return False
        if win_cells(b, rows, cols, k, exact, me):
            return True
        if left < 3:
            return False
        for m in attacker_moves(b, me):
            b[m] = me
            ok = defend(tuple(b), left - 1)
            b[m] = 0
            if ok:
                return True
        return False

    @lru_cache(maxsize=None)
    def defend(key: tuple[int, ...], left: int) -> bool:
        b = list(key)
        if win_cells(b, rows, cols, k, exact, opp):
            return False  # the defender wins at once
        threats = win_cells(b, rows, cols, k, exact, me)
        if len(threats) >= 2:
            return left >= 2  # one stone blocks one cell; the attacker takes another
        # With one threat, any other reply loses at once (the attacker's next node sees the win cell):
        # trying only the block gives the same answer, faster.
        replies = threats or [e for e, v in enumerate(b) if v == 0]
        if not replies:
            return False
        for x in replies:
            b[x] = opp
            ok = attack(tuple(b), left - 1)
            b[x] = 0
            if not ok:
                return False
        return True

    return attack(tuple(board), depth)


def four_moves(rows: int, cols: int, k: int, exact: bool) -> Moves:
    """The attacker's moves of a VCF: every empty cell that makes a four."""
    return lambda b, me: [e for e, v in enumerate(b) if v == 0 and is_four(b, rows, cols, k, exact, me, e)]


def all_moves(b: list[int], me: int) -> list[int]:
    """Every empty cell (full-width minimax for the attacker)."""
    return [e for e, v in enumerate(b) if v == 0]


def shortest_vcf(board: list[int], rows: int, cols: int, k: int, exact: bool, me: int, max_depth: int) -> int:
    """Plies of the shortest VCF within ``max_depth`` (attacker plays fours, defender anything), 0 if none."""
    moves = four_moves(rows, cols, k, exact)
    for depth in range(1, max_depth + 1, 2):
        if proves(board, rows, cols, k, exact, me, depth, moves):
            return depth
    return 0


def line_is_forced_vcf(board: list[int], rows: int, cols: int, k: int, exact: bool, me: int, line: list[int]) -> bool:
    """True if ``line`` (attacker and defender moves alternating, ending with the win) is a forced win.

    At every attacker step the line's move is played; at every defender step
    *every* empty cell is tried: the line's own reply must be the only one
    that does not lose at once, and the defender must have no win of its own.
    """
    b = list(board)
    opp = 3 - me
    for i in range(0, len(line) - 1, 2):
        a = line[i]
        if b[a] != 0:
            return False
        b[a] = me
        if wins_at(b, rows, cols, k, exact, a):
            return False  # a win before the line's end: the line is misreported
        if win_cells(b, rows, cols, k, exact, opp):
            return False
        for x in [e for e, v in enumerate(b) if v == 0]:
            b[x] = opp
            answered = not win_cells(b, rows, cols, k, exact, me)
            b[x] = 0
            if answered and x != line[i + 1]:
                return False  # another defence survives the next move: the line is not forced
        b[line[i + 1]] = opp
    last = line[-1]
    if b[last] != 0:
        return False
    b[last] = me
    return wins_at(b, rows, cols, k, exact, last)


def near_moves(rows: int, cols: int) -> Moves:
    """The attacker's empty cells next to one of its stones (a restriction: sound for proving a win)."""

    def moves(b: list[int], me: int) -> list[int]:
        out = []
        for e, v in enumerate(b):
            if v != 0:
                continue
            r0, c0 = divmod(e, cols)
            if any(
                0 <= r0 + dr < rows and 0 <= c0 + dc < cols and b[(r0 + dr) * cols + c0 + dc] == me
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
            ):
                out.append(e)
        return out

    return moves
