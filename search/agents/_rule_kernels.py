"""The rule-based player's kernels: legality, threats, forks, dangers and ways to win on the array board.

:mod:`search.agents.simple` applies the rules (win, block, fork, stop forks,
most ways to win); these kernels answer its questions.  Speed: once rules 1
and 2 have not fired, neither side has a threat, so any threat that appears
after stones land on cells ``a`` and ``b`` lies within ``k - 1`` cells of
``a`` or ``b`` on one of their four lines (their "star", or just above one
of them under gravity); the kernels scan only those stars, so a fork test
costs O(k^2) instead of a board scan.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games._board import _DIRECTIONS, _action_cell, _playable, _wins_through
from games._jit import JIT
from games._rules import Rules

# ----------------------------------------------------------------- kernels
# Shared arguments: board int8[rows * cols] (0 empty, 1 and 2 the players'
# stones), heights int32[cols] (stones per column), ``stone`` the mover (1 or
# 2), ``gravity`` the rule.  Action masks are int8[n_actions], 1 = in the set.
# Kernels place stones temporarily and take them back before returning.


@njit(**JIT)
def _is_legal(board: np.ndarray, heights: np.ndarray, rows: int, gravity: bool, action: int) -> bool:
    """True if ``action`` is playable (column not full, or cell empty)."""
    if gravity:
        return bool(heights[action] < rows)
    return bool(board[action] == 0)


@njit(**JIT)
def _wins_at(board: np.ndarray, rules: Rules, cell: int, stone: int) -> bool:
    """True if ``stone`` on the empty ``cell`` would win (the game's win test)."""
    board[cell] = stone
    won: bool = _wins_through(board, rules, cell)
    board[cell] = 0
    return won


@njit(**JIT)
def _is_threat(
    board: np.ndarray, heights: np.ndarray, rules: Rules, cell: int, stone: int
) -> bool:
    """True if ``cell`` is playable now and ``stone`` would win there."""
    rows, cols, gravity = rules.rows, rules.cols, rules.gravity
    if not _playable(board, heights, rows, cols, gravity, cell):
        return False  # taken, or an empty cell higher up its column
    return bool(_wins_at(board, rules, cell, stone))


@njit(**JIT)
def _in_star(cols: int, k: int, centre: int, cell: int) -> bool:
    """True if ``cell`` is on a line through ``centre`` at most ``k - 1`` cells away."""
    dr = abs(cell // cols - centre // cols)
    dc = abs(cell % cols - centre % cols)
    return bool((dr == 0 or dc == 0 or dr == dc) and max(dr, dc) < k)


@njit(**JIT)
def _star_threats(
    board: np.ndarray, heights: np.ndarray, rules: Rules, stone: int, a: int, b: int
) -> int:
    """Count the distinct threats of ``stone`` in the stars of cells ``a`` and ``b`` (``b = -1``: ``a`` only).

    Precondition: no threat existed before the stones on ``a`` and ``b``
    landed, so every threat now lies in their stars (module docstring).
    """
    rows, cols, k = rules.rows, rules.cols, rules.k
    count = 0
    for centre, other in ((a, -1), (b, a)):
        if centre < 0:
            continue
        row, col = centre // cols, centre % cols
        for d in range(4):
            for sign in (1, -1):
                dr, dc = sign * _DIRECTIONS[d, 0], sign * _DIRECTIONS[d, 1]
                for step in range(1, k):
                    r, c = row + step * dr, col + step * dc
                    if not (0 <= r < rows and 0 <= c < cols):
                        break
                    cell = r * cols + c
                    # No early stop at an enemy stone: the cell beyond may win
                    # along another line, and ``a``'s whole star must be seen
                    # for the test below to skip exactly what was counted.
                    if other >= 0 and _in_star(cols, k, other, cell):
                        continue  # already counted in the star of ``a``
                    if _is_threat(board, heights, rules, cell, stone):
                        count += 1
    return count


@njit(**JIT)
def _winning_actions(
    board: np.ndarray, heights: np.ndarray, rules: Rules, stone: int, out: np.ndarray
) -> int:
    """Mark in ``out`` the legal actions with which ``stone`` wins at once; return how many."""
    rows, cols, gravity = rules.rows, rules.cols, rules.gravity
    n = 0
    for action in range(out.shape[0]):
        out[action] = 0
        if _is_legal(board, heights, rows, gravity, action):
            if _wins_at(board, rules, _action_cell(action, heights, rows, cols, gravity), stone):
                out[action] = 1
                n += 1
    return n


@njit(**JIT)
def _safe_actions(
    board: np.ndarray, heights: np.ndarray, rules: Rules, stone: int, out: np.ndarray
) -> int:
    """Mark the legal actions after which the opponent cannot win at once (all legal ones if none is); return how many.

    Called once the opponent has no threat, so only the cell above a move,
    which gravity makes playable, can become one.
    """
    rows, cols, gravity = rules.rows, rules.cols, rules.gravity
    n = 0
    legal = 0
    for action in range(out.shape[0]):
        out[action] = 0
        if not _is_legal(board, heights, rows, gravity, action):
            continue
        legal += 1
        cell = _action_cell(action, heights, rows, cols, gravity)
        above = cell - cols
        if not (gravity and above >= 0 and _wins_at(board, rules, above, 3 - stone)):
            out[action] = 1
            n += 1
    if n == 0:  # every move loses: play on anyway
        for action in range(out.shape[0]):
            out[action] = 1 if _is_legal(board, heights, rows, gravity, action) else 0
        n = legal
    return n


@njit(**JIT)
def _fork_actions(
    board: np.ndarray,
    heights: np.ndarray,
    rules: Rules,
    stone: int,
    allowed: np.ndarray,
    out: np.ndarray,
) -> int:
    """Mark the ``allowed`` legal actions after which ``stone`` has two or more threats; return how many.

    Precondition: neither player has a threat now.
    """
    rows, cols, gravity = rules.rows, rules.cols, rules.gravity
    n = 0
    for action in range(out.shape[0]):
        out[action] = 0
        if allowed[action] and _is_legal(board, heights, rows, gravity, action):
            cell = _action_cell(action, heights, rows, cols, gravity)
            board[cell] = stone
            heights[action % cols] += 1  # ``action % cols`` is the column under both rules
            # np.int64(-1): an int64 as _dangers passes (a literal -1 would compile the kernel a second time)
            if _star_threats(board, heights, rules, stone, cell, np.int64(-1)) >= 2:
                out[action] = 1
                n += 1
            board[cell] = 0
            heights[action % cols] -= 1
    return n


@njit(**JIT)
def _dangers(
    board: np.ndarray,
    heights: np.ndarray,
    rules: Rules,
    stone: int,
    cell: int,
    replies: np.ndarray,
) -> int:
    """After ``stone`` lands on ``cell``: the ``replies`` that leave the opponent a fork and us no threat.

    A reply that wins outright counts ``replies.shape[0]`` dangers, more than all forks together.
    Precondition: neither player has a threat before the stone on ``cell``.
    """
    rows, cols, gravity = rules.rows, rules.cols, rules.gravity
    enemy = 3 - stone
    danger = 0
    board[cell] = stone
    heights[cell % cols] += 1
    for reply in range(replies.shape[0]):
        if not (replies[reply] and _is_legal(board, heights, rows, gravity, reply)):
            continue
        target = _action_cell(reply, heights, rows, cols, gravity)
        if _wins_at(board, rules, target, enemy):
            danger += replies.shape[0]
            continue
        board[target] = enemy
        heights[target % cols] += 1
        if _star_threats(board, heights, rules, enemy, target, cell) >= 2:
            if _star_threats(board, heights, rules, stone, cell, target) == 0:
                danger += 1
        board[target] = 0
        heights[target % cols] -= 1
    board[cell] = 0
    heights[cell % cols] -= 1
    return danger


@njit(**JIT)
def _fork_defences(
    board: np.ndarray, heights: np.ndarray, rules: Rules, stone: int,
    allowed: np.ndarray, replies: np.ndarray, out: np.ndarray,
) -> int:  # fmt: skip
    """Mark the ``allowed`` legal actions with the fewest :func:`_dangers`; return how many."""
    rows, cols, gravity = rules.rows, rules.cols, rules.gravity
    best = -1
    n = 0
    for action in range(out.shape[0]):
        out[action] = 0
        if not (allowed[action] and _is_legal(board, heights, rows, gravity, action)):
            continue
        danger = _dangers(board, heights, rules, stone, _action_cell(action, heights, rows, cols, gravity), replies)
        if best < 0 or danger < best:
            best = danger
            out[:action] = 0
            n = 0
        if danger == best:
            out[action] = 1
            n += 1
    return n


@njit(**JIT)
def _window_counts(board: np.ndarray, rows: int, cols: int, k: int, cell: int, stone: int) -> tuple[int, int]:
    """``(ways, own)``: the k-windows through ``cell`` free of enemy stones, and ``stone``'s stones in them."""
    row, col = cell // cols, cell % cols
    ways = 0
    own = 0
    for d in range(4):
        dr, dc = _DIRECTIONS[d, 0], _DIRECTIONS[d, 1]
        for first in range(-(k - 1), 1):  # offset of the window's first cell from ``cell``
            mine = 0
            open_window = True
            for i in range(first, first + k):
                r, c = row + i * dr, col + i * dc
                if not (0 <= r < rows and 0 <= c < cols) or board[r * cols + c] == 3 - stone:
                    open_window = False
                    break
                mine += board[r * cols + c] == stone
            if open_window:
                ways += 1
                own += mine
    return ways, own


@njit(**JIT)
def _most_ways(
    board: np.ndarray,
    heights: np.ndarray,
    rules: Rules,
    stone: int,
    candidates: np.ndarray,
    out: np.ndarray,
) -> int:
    """Write into ``out`` the ``candidates`` with the most (ways, own stones); return how many."""
    rows, cols, k, gravity = rules.rows, rules.cols, rules.k, rules.gravity
    best_ways, best_own = -1, -1
    n = 0
    for action in range(candidates.shape[0]):
        if not candidates[action]:
            continue
        ways, own = _window_counts(board, rows, cols, k, _action_cell(action, heights, rows, cols, gravity), stone)
        if ways > best_ways or (ways == best_ways and own > best_own):
            best_ways, best_own = ways, own
            n = 0
        if ways == best_ways and own == best_own:
            out[n] = action
            n += 1
    return n


# ----------------------------------------------------------------- facade
