"""Array kernels for every k-in-a-row board, with or without gravity.

The board is a flat ``int8`` array of ``rows * cols`` cells in row-major
order, row 0 at the top (the layout of the observation planes and of every
printed board)::

    cols = 4, rows = 3          cell = row * cols + col
        col 0  1  2  3
    row 0   0  1  2  3          0 = empty
    row 1   4  5  6  7          1 = a stone of the first player
    row 2   8  9 10 11          2 = a stone of the second player

With gravity a stone dropped in column ``c`` lands on the lowest empty cell,
``(rows - 1 - heights[c]) * cols + c``, where ``heights[c]`` counts the
stones already in that column.  ``heights`` is kept for every board (it is
simply "stones per column"), so the same play/undo kernels serve both rules.

Winning means ``k`` *or more* in a row (freestyle gomoku), or with the
exact-k rule (``rules.exact_k``, gomoku's "standard" rule) exactly ``k``:
an overline does not win.  A game ends at the first winning line, so only
lines through the last stone need checking.

Every kernel takes the game as one :class:`games._rules.Rules` value
(``rules``), never as loose sizes.

Kernels trust their inputs (the :class:`games.Position` facade validates);
preconditions are stated and asserted, which matters with
``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games._jit import JIT
from games._rng import _below
from games._rules import Rules

# (row step, col step) of the four line directions: horizontal, vertical and
# the two diagonals.  The opposite half-line is walked with the negated step.
_DIRECTIONS = np.array([[0, 1], [1, 0], [1, 1], [1, -1]], dtype=np.int64)


@njit(**JIT)
def _run_length(board: np.ndarray, rows: int, cols: int, cell: int, dr: int, dc: int) -> int:
    """Length of the run of ``board[cell]``'s stones through ``cell`` along ±(dr, dc).

    board : int8[rows * cols], ``board[cell]`` must be a stone.
    """
    stone = board[cell]
    row, col = cell // cols, cell % cols
    length = 1
    for sign in (1, -1):
        r, c = row + sign * dr, col + sign * dc
        while 0 <= r < rows and 0 <= c < cols and board[r * cols + c] == stone:
            length += 1
            r += sign * dr
            c += sign * dc
    return length


@njit(**JIT)
def _wins_through(board: np.ndarray, rules: Rules, cell: int) -> bool:
    """True if the stone on ``cell`` makes a winning line: ``k`` or more in a row (exactly ``k`` with ``exact_k``).

    board : int8[rows * cols], ``board[cell]`` must be a stone.
    Only the four lines through ``cell`` are walked: O(k) work.
    """
    assert board[cell] != 0
    for d in range(4):
        length = _run_length(board, rules.rows, rules.cols, cell, _DIRECTIONS[d, 0], _DIRECTIONS[d, 1])
        if length == rules.k or (length > rules.k and not rules.exact_k):
            return True
    return False


@njit(**JIT)
def _drop_cell(heights: np.ndarray, rows: int, cols: int, col: int) -> int:
    """The cell a stone dropped in ``col`` lands on (the column must not be full).

    heights : int32[cols], stones per column.
    """
    assert heights[col] < rows
    return (rows - 1 - heights[col]) * cols + col


@njit(**JIT)
def _action_cell(action: int, heights: np.ndarray, rows: int, cols: int, gravity: bool) -> int:
    """The cell a legal ``action`` puts its stone on: the landing cell of a column, or the cell itself."""
    return _drop_cell(heights, rows, cols, action) if gravity else action


@njit(**JIT)
def _cell_of(action: int, heights: np.ndarray, rules: Rules) -> int:
    """:func:`_action_cell` for a game given as ``rules``."""
    return _action_cell(action, heights, rules.rows, rules.cols, rules.gravity)


@njit(**JIT)
def _playable(board: np.ndarray, heights: np.ndarray, rows: int, cols: int, gravity: bool, cell: int) -> bool:
    """True if ``cell`` is empty and a stone can be put there now ("available" in the seeds).

    Without gravity every empty cell is playable; with gravity only the
    lowest empty cell of each column.
    """
    if board[cell] != 0:
        return False
    if not gravity:
        return True
    return cell // cols == rows - 1 - heights[cell % cols]


@njit(**JIT)
def _play(
    board: np.ndarray,
    heights: np.ndarray,
    history: np.ndarray,
    keys: np.ndarray,
    zobrist: np.ndarray,
    ply: int,
    cell: int,
    rules: Rules,
) -> bool:
    """Put the stone of the side to move on the empty ``cell``; return True if it wins.

    board : int8[rows * cols]          heights : int32[cols]
    history : int32[rows * cols], cells played, ``history[:ply]`` valid
    keys : uint64[rows * cols + 1], ``keys[p]`` is the Zobrist key after p plies
    zobrist : uint64[2, rows * cols]
    O(1) apart from the O(k) win check; nothing is copied.
    """
    assert board[cell] == 0
    stone = 1 + (ply & 1)
    board[cell] = stone
    heights[cell % rules.cols] += 1
    history[ply] = cell
    keys[ply + 1] = keys[ply] ^ zobrist[stone - 1, cell]
    return _wins_through(board, rules, cell)


@njit(**JIT)
def _undo(board: np.ndarray, heights: np.ndarray, history: np.ndarray, ply: int, cols: int) -> int:
    """Take back ply ``ply - 1`` (``ply`` > 0 stones on the board); return its cell.

    Keys need no update: ``keys[ply - 1]`` still holds the earlier key.
    """
    assert ply > 0
    cell = history[ply - 1]
    board[cell] = 0
    heights[cell % cols] -= 1
    return cell


@njit(**JIT)
def _legal_moves(board: np.ndarray, heights: np.ndarray, rows: int, gravity: bool, out: np.ndarray) -> int:
    """Write the legal actions into ``out``, in increasing order; return how many.

    With gravity an action is a column that is not full; without, an empty cell.
    out : int64[cols] with gravity, int64[rows * cols] without.
    """
    n = 0
    if gravity:
        for col in range(heights.shape[0]):
            if heights[col] < rows:
                out[n] = col
                n += 1
        return n
    return _empty_cells(board, out)


@njit(**JIT)
def _empty_cells(board: np.ndarray, out: np.ndarray) -> int:
    """Write the empty cells into ``out`` (int64[rows * cols]), in increasing order; return how many."""
    n = 0
    for cell in range(board.shape[0]):
        if board[cell] == 0:
            out[n] = cell
            n += 1
    return n


@njit(**JIT)
def _random_playout(
    board: np.ndarray,
    heights: np.ndarray,
    ply: int,
    rules: Rules,
    rng: np.ndarray,
) -> tuple[int, int]:
    """Play uniformly random moves to the end; return ``(winner, final ply)``.

    ``winner`` is 0 or 1 for the first or second player and -1 for a draw.
    ``board`` and ``heights`` are modified in place (pass copies); the
    position must not be over.  rng : uint64[1] SplitMix64 state.

    The open moves sit in a pool from which a draw removes an entry by
    swapping in the last one, so each move costs O(1) plus the O(k) win check.
    """
    rows, cols, gravity = rules.rows, rules.cols, rules.gravity
    pool = np.empty(board.shape[0], dtype=np.int64)
    n = _legal_moves(board, heights, rows, gravity, pool)
    while n > 0:
        i = _below(rng, n)
        if gravity:
            col = pool[i]
            cell = _drop_cell(heights, rows, cols, col)
            if heights[col] + 1 == rows:  # the column fills up: retire it
                n -= 1
                pool[i] = pool[n]
        else:
            cell = pool[i]
            n -= 1
            pool[i] = pool[n]
        board[cell] = 1 + (ply & 1)
        heights[cell % cols] += 1
        ply += 1
        if _wins_through(board, rules, cell):
            return (ply - 1) & 1, ply
    return -1, ply


@njit(**JIT)
def _count_heights(board: np.ndarray, cols: int, heights: np.ndarray) -> None:
    """Fill ``heights`` (int32[cols]) with the number of stones in each column of ``board``."""
    heights[:] = 0
    for cell in range(board.shape[0]):
        if board[cell] != 0:
            heights[cell % cols] += 1


@njit(**JIT)
def _expand_boards(boards: np.ndarray, ply: int, rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All children of a set of non-terminal boards that each hold ``ply`` stones.

    boards : int8[n, rows * cols].
    Returns ``(children, parent, ended)``: int8[m, rows * cols] child boards,
    int64[m] index of each child's parent, and int8[m] with 1 where the move
    won, 2 where it filled the board without winning (a draw), 0 otherwise.
    """
    rows, cols, gravity = rules.rows, rules.cols, rules.gravity
    n, n_cells = boards.shape
    heights = np.zeros(cols, dtype=np.int32)
    moves = np.empty(n_cells, dtype=np.int64)
    total = 0
    for b in range(n):
        _count_heights(boards[b], cols, heights)
        total += _legal_moves(boards[b], heights, rows, gravity, moves)
    children = np.empty((total, n_cells), dtype=np.int8)
    parent = np.empty(total, dtype=np.int64)
    ended = np.zeros(total, dtype=np.int8)
    stone = 1 + (ply & 1)
    m = 0
    for b in range(n):
        _count_heights(boards[b], cols, heights)
        count = _legal_moves(boards[b], heights, rows, gravity, moves)
        for j in range(count):
            cell = _action_cell(moves[j], heights, rows, cols, gravity)
            children[m] = boards[b]
            children[m, cell] = stone
            parent[m] = b
            if _wins_through(children[m], rules, cell):
                ended[m] = 1
            elif ply + 1 == n_cells:
                ended[m] = 2
            m += 1
    return children, parent, ended
