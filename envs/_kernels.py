"""Numba kernels that reset and step a batch of boards, the agent's move and the opponent's reply together.

One environment is a batch of one board; a batched vector environment is a
batch of N.  Both run the same kernels, so a seed gives the same episode
either way.  The rules are the game core's: cells, gravity and the win test
come from :mod:`games._board`, random draws from :mod:`games._rng`.

State of board ``i`` (every kernel takes the arrays of all boards and an
index list ``which`` of the boards to touch):

board : int8[n, rows * cols]      0 empty, 1 first player's stone, 2 second's (row 0 on top)
heights : int32[n, cols]          stones per column
history : int64[n, rows * cols]   actions played so far, ``history[i, :meta[i, M_PLY]]``
meta : int64[n, N_META]           see the ``M_*`` columns below
rng : uint64[n]                   one SplitMix64 state per board (who starts, random moves)
obs : int8[n, 2, rows, cols]      plane 0 the agent's stones, plane 1 the opponent's
mask : int8[n, n_actions]         1 where the agent may play; all 0 once the episode is over
reward : float64[n]               the agent's reward for the last reset or step
params : int64[N_PARAMS]          see the ``P_*`` indices below

A board whose opponent is not the built-in random player stops after the
agent's move with ``meta[i, M_PENDING] = 1``; Python asks the opponent (an
agent object or a callable) and :func:`_reply_boards` plays its answer.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games._board import _action_cell, _wins_through
from games._jit import JIT
from games._rng import _below

# meta columns
M_PLY, M_STONE, M_OVER, M_WINNER, M_ILLEGAL, M_PLAYED, M_OPP, M_PENDING = range(8)
N_META = 8
# params indices
P_ROWS, P_COLS, P_K, P_GRAVITY, P_ILLEGAL, P_OPP_RANDOM, P_SIDE = range(7)
N_PARAMS = 7
# params[P_ILLEGAL]: what an illegal agent action does inside the kernel ("raise" is refused in Python first)
ILLEGAL_LOSE, ILLEGAL_RANDOM = 0, 1
# params[P_SIDE]: which side the agent takes at reset
SIDE_FIRST, SIDE_SECOND, SIDE_RANDOM = 0, 1, 2


@njit(**JIT)
def _is_legal(board: np.ndarray, heights: np.ndarray, rows: int, gravity: bool, action: int) -> bool:
    """True if ``action`` (inside the action space) is playable on this board row."""
    if gravity:
        return bool(heights[action] < rows)
    return bool(board[action] == 0)


@njit(**JIT)
def _random_legal(board: np.ndarray, heights: np.ndarray, rows: int, cols: int, gravity: bool, state: np.ndarray) -> int:
    """A uniformly random legal action (the board must have one), drawn from ``state`` (uint64[1]).

    Counts the legal actions, draws an index, then walks to it: no scratch array.
    """
    n_actions = cols if gravity else rows * cols
    count = 0
    for a in range(n_actions):
        if _is_legal(board, heights, rows, gravity, a):
            count += 1
    pick = _below(state, count)
    for a in range(n_actions):
        if _is_legal(board, heights, rows, gravity, a):
            if pick == 0:
                return a
            pick -= 1
    return -1  # unreachable when a legal action exists


@njit(**JIT)
def _place(board: np.ndarray, heights: np.ndarray, history: np.ndarray, meta: np.ndarray, params: np.ndarray,
           action: int, stone: int) -> int:  # fmt: skip
    """Play a legal ``action`` with ``stone`` on one board; return 1 if it wins, 2 if it fills the board, else 0."""
    rows, cols, k = params[P_ROWS], params[P_COLS], params[P_K]
    cell = _action_cell(action, heights, rows, cols, params[P_GRAVITY] != 0)
    board[cell] = stone
    heights[cell % cols] += 1
    history[meta[M_PLY]] = action
    meta[M_PLY] += 1
    if _wins_through(board, rows, cols, k, cell):
        return 1
    return 2 if meta[M_PLY] == rows * cols else 0


@njit(**JIT)
def _observe(board: np.ndarray, heights: np.ndarray, stone: int, over: bool, params: np.ndarray,
             obs: np.ndarray, mask: np.ndarray) -> None:  # fmt: skip
    """Write one board seen by ``stone``: obs int8[2, rows, cols] (own, other) and mask int8[n_actions]."""
    rows, cols = params[P_ROWS], params[P_COLS]
    gravity = params[P_GRAVITY] != 0
    for r in range(rows):
        for c in range(cols):
            v = board[r * cols + c]
            obs[0, r, c] = 1 if v == stone else 0
            obs[1, r, c] = 1 if v == 3 - stone else 0
    for a in range(mask.shape[0]):
        mask[a] = 0 if over else (1 if _is_legal(board, heights, rows, gravity, a) else 0)


@njit(**JIT)
def _end(meta: np.ndarray, reward: np.ndarray, i: int, outcome: int, mover: int) -> None:
    """Record the outcome of ``mover``'s move (1 win, 2 draw, 0 game on) on board ``i``."""
    if outcome == 0:
        return
    meta[i, M_OVER] = 1
    if outcome == 1:
        meta[i, M_WINNER] = mover - 1
        reward[i] = 1.0 if mover == meta[i, M_STONE] else -1.0


@njit(**JIT)
def _opponent_random_move(board, heights, history, meta, rng, reward, params, i):  # type: ignore[no-untyped-def]
    """The built-in random opponent moves on board ``i``."""
    rows, cols = params[P_ROWS], params[P_COLS]
    stone = 3 - meta[i, M_STONE]
    action = _random_legal(board[i], heights[i], rows, cols, params[P_GRAVITY] != 0, rng[i : i + 1])
    meta[i, M_OPP] = action
    _end(meta, reward, i, _place(board[i], heights[i], history[i], meta[i], params, action, stone), stone)


@njit(**JIT)
def _after_opponent_turn(board, heights, history, meta, rng, obs, mask, reward, params, i):  # type: ignore[no-untyped-def]
    """It is the opponent's turn on board ``i``: the random opponent moves now, any other is left pending."""
    if params[P_OPP_RANDOM]:
        _opponent_random_move(board, heights, history, meta, rng, reward, params, i)
        _observe(board[i], heights[i], meta[i, M_STONE], meta[i, M_OVER] != 0, params, obs[i], mask[i])
    else:
        meta[i, M_PENDING] = 1


@njit(**JIT)
def _reset_boards(board, heights, history, meta, rng, obs, mask, reward, which, params):  # type: ignore[no-untyped-def]
    """Empty the boards in ``which`` (int64[m]), choose the agent's side, and let a first-moving opponent move.

    ``rng[i]`` must already hold the new episode's state.
    """
    for j in range(which.shape[0]):
        i = which[j]
        board[i, :] = 0
        heights[i, :] = 0
        meta[i, :] = 0
        meta[i, M_WINNER] = -1
        meta[i, M_PLAYED] = -1
        meta[i, M_OPP] = -1
        reward[i] = 0.0
        side = params[P_SIDE]
        if side == SIDE_RANDOM:
            side = _below(rng[i : i + 1], 2)
        meta[i, M_STONE] = 1 + side
        if side == SIDE_SECOND:
            _after_opponent_turn(board, heights, history, meta, rng, obs, mask, reward, params, i)
        else:
            _observe(board[i], heights[i], meta[i, M_STONE], False, params, obs[i], mask[i])


@njit(**JIT)
def _step_boards(board, heights, history, meta, rng, obs, mask, reward, actions, which, params, illegal_reward):  # type: ignore[no-untyped-def]
    """Play the agent's ``actions[i]`` (int64[n], inside the action space) on the boards in ``which``, then the replies.

    An illegal action ends the episode with ``illegal_reward`` (ILLEGAL_LOSE)
    or is replaced by a random legal one (ILLEGAL_RANDOM); both set M_ILLEGAL.
    """
    rows, cols = params[P_ROWS], params[P_COLS]
    gravity = params[P_GRAVITY] != 0
    for j in range(which.shape[0]):
        i = which[j]
        stone = meta[i, M_STONE]
        meta[i, M_ILLEGAL] = 0
        meta[i, M_OPP] = -1
        meta[i, M_PENDING] = 0
        reward[i] = 0.0
        action = actions[i]
        if not _is_legal(board[i], heights[i], rows, gravity, action):
            meta[i, M_ILLEGAL] = 1
            if params[P_ILLEGAL] == ILLEGAL_LOSE:
                meta[i, M_PLAYED] = -1
                meta[i, M_OVER] = 1
                meta[i, M_WINNER] = 2 - stone  # forfeit: the opponent's player index
                reward[i] = illegal_reward
                _observe(board[i], heights[i], stone, True, params, obs[i], mask[i])
                continue
            action = _random_legal(board[i], heights[i], rows, cols, gravity, rng[i : i + 1])
        meta[i, M_PLAYED] = action
        _end(meta, reward, i, _place(board[i], heights[i], history[i], meta[i], params, action, stone), stone)
        if meta[i, M_OVER]:
            _observe(board[i], heights[i], stone, True, params, obs[i], mask[i])
        else:
            _after_opponent_turn(board, heights, history, meta, rng, obs, mask, reward, params, i)


@njit(**JIT)
def _reply_boards(board, heights, history, meta, obs, mask, reward, replies, which, params):  # type: ignore[no-untyped-def]
    """Play the pending opponents' legal ``replies[i]`` on the boards in ``which`` and observe them."""
    for j in range(which.shape[0]):
        i = which[j]
        stone = 3 - meta[i, M_STONE]
        meta[i, M_PENDING] = 0
        meta[i, M_OPP] = replies[i]
        _end(meta, reward, i, _place(board[i], heights[i], history[i], meta[i], params, replies[i], stone), stone)
        _observe(board[i], heights[i], meta[i, M_STONE], meta[i, M_OVER] != 0, params, obs[i], mask[i])


@njit(**JIT)
def _observe_as(board, heights, stone, params, obs, mask):  # type: ignore[no-untyped-def]
    """One board (a running game) seen by ``stone``: what a callable opponent receives."""
    _observe(board, heights, stone, False, params, obs, mask)
