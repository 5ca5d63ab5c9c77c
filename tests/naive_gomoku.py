"""Slow references for the gomoku engine: line patterns from the rules themselves, and plain negamax.

The patterns here are defined by what the stones would do, not by windows and keys: a FIVE is a move that
wins along the line (a run of k or more, exactly k under exact-k), a FOUR/OPEN_FOUR a move after which one
or two-plus different cells of the line win, an OPEN_THREE a move after which one more stone can make an
OPEN_FOUR.  Only the closed-three/two/weak levels are counted on k-windows (their definition).
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from heuristics._gomoku_lines import FIVE, FOUR, NONE, OPEN_FOUR, OPEN_THREE, THREE, TWO, WEAK

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def line(board: np.ndarray, rows: int, cols: int, cell: int, d: int, reach: int) -> list[tuple[int, int]]:
    """``(offset, cell)`` of the on-board cells within ``reach`` of ``cell`` along direction ``d``."""
    dr, dc = DIRECTIONS[d]
    row, col = divmod(cell, cols)
    return [(j, (row + j * dr) * cols + col + j * dc) for j in range(-reach, reach + 1)
            if 0 <= row + j * dr < rows and 0 <= col + j * dc < cols]  # fmt: skip


def run_length(board: np.ndarray, rows: int, cols: int, cell: int, d: int) -> int:
    """Length of the run of ``board[cell]``'s stones through ``cell`` along direction ``d``."""
    dr, dc = DIRECTIONS[d]
    row, col = divmod(cell, cols)
    stone, length = board[cell], 1
    for sign in (1, -1):
        r, c = row + sign * dr, col + sign * dc
        while 0 <= r < rows and 0 <= c < cols and board[r * cols + c] == stone:
            length, r, c = length + 1, r + sign * dr, c + sign * dc
    return length


def wins_along(board: np.ndarray, rows: int, cols: int, k: int, exact: bool, cell: int, d: int) -> bool:
    """True if the stone on ``cell`` makes a winning run along ``d``."""
    length = run_length(board, rows, cols, cell, d)
    return length == k if exact else length >= k


def completions(board: np.ndarray, rows: int, cols: int, k: int, exact: bool, cell: int, d: int, stone: int) -> int:
    """Empty cells of ``cell``'s line (the stone on it) where ``stone`` would then win through ``cell``."""
    found = 0
    for _, other in line(board, rows, cols, cell, d, k):
        if board[other] == 0:
            board[other] = stone
            found += wins_along(board, rows, cols, k, exact, cell, d)
            board[other] = 0
    return found


def pattern(board: np.ndarray, rows: int, cols: int, k: int, exact: bool, cell: int, d: int, stone: int) -> int:
    """The pattern code ``stone`` makes on empty ``cell`` along ``d`` (heuristics._gomoku_lines names)."""
    board = board.copy()
    board[cell] = stone
    return _placed(board, rows, cols, k, exact, cell, d, stone, 2)


def _placed(board: np.ndarray, rows: int, cols: int, k: int, exact: bool, cell: int, d: int, stone: int, look: int) -> int:
    if wins_along(board, rows, cols, k, exact, cell, d):
        return FIVE
    done = completions(board, rows, cols, k, exact, cell, d, stone)
    if done:
        return OPEN_FOUR if done >= 2 else FOUR
    best = _best_window(board, rows, cols, k, exact, cell, d, stone)
    if best is None or best <= 1:
        return NONE
    missing = k - best
    if missing >= 4:
        return WEAK
    code = THREE if missing == 2 else TWO
    if look > 0:
        wanted = OPEN_FOUR if code == THREE else OPEN_THREE
        for _, other in line(board, rows, cols, cell, d, k):
            if board[other] == 0:
                board[other] = stone
                got = _placed(board, rows, cols, k, exact, cell, d, stone, look - 1)
                board[other] = 0
                if got == wanted:
                    return code + 1
    return code


def _best_window(board: np.ndarray, rows: int, cols: int, k: int, exact: bool, cell: int, d: int,
                 stone: int) -> Optional[int]:  # fmt: skip
    """Most own stones in a k-window through ``cell`` along ``d`` with no other stone (and, exact-k, no own
    stone just outside it); None if there is none."""
    cells = dict(line(board, rows, cols, cell, d, k))
    best: Optional[int] = None
    for start in range(-k + 1, 1):
        window = [cells.get(j) for j in range(start, start + k)]
        if any(c is None or board[c] not in (0, stone) for c in window):
            continue
        if exact and any(cells.get(j) is not None and board[cells[j]] == stone for j in (start - 1, start + k)):
            continue
        own = sum(board[c] == stone for c in window if c is not None)
        best = own if best is None else max(best, own)
    return best


def negamax(engine, colour: int, depth: int, ply: int = 0) -> float:  # type: ignore[no-untyped-def]
    """Plain negamax (no pruning, no table) over the gomoku engine's rules: its threat exits, forced replies,
    threat extension, move generation and static value, walked with its make/unmake (``engine``: a GomokuEngine)."""
    from heuristics._gomoku_state import _make, _unmake
    from search.gomoku import _search as gs

    st, cfg, ctx = engine.st, engine.cfg, engine.ctx
    decided, value, forced = gs._threat_exits(st, colour, ply)
    if decided:
        return float(value)
    if forced >= 0:
        _make(st, cfg, forced, colour)
        value = -negamax(engine, 1 - colour, depth, ply + 1)
        _unmake(st, cfg, forced)
        return value
    extra = 0
    if depth == 0 and gs._threatened(st, colour):
        depth, extra = 1, 1  # the tree's threat extension: the answers to an open three or a four-three, once a line
    if depth <= 0:
        return float(gs._evaluate(st, colour))
    n = st[0].shape[0]
    moves, order = np.zeros(n, np.int32), np.zeros(n)
    count = gs._gen(st, cfg, ctx, colour, ply, -1, moves, order)
    best = -np.inf
    for cell in list(moves[:count]):
        _make(st, cfg, int(cell), colour)
        best = max(best, -negamax(engine, 1 - colour, depth - 1 - extra, ply + 1))
        _unmake(st, cfg, int(cell))
    return best
