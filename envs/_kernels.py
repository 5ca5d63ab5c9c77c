"""Numba kernels that reset and step a batch of boards, the agent's move and the opponent's reply together.

One environment is a batch of one board; a batched vector environment is a
batch of N.  Both run the same kernels, so a seed gives the same episode
either way.  The rules are the game core's: the landing cell and the win
test come from :mod:`games._board` (any board) or :mod:`games._bits`
(boards that fit 64 bits with a sentinel row, gravity or not: Connect-4 and
tic-tac-toe, where the win test is four word-parallel shifts, 1.3x the
tic-tac-toe env's steps/s of walking the lines), random draws from :mod:`games._rng`.

State of board ``i`` (every kernel takes the arrays of all boards and an
index list ``which`` of the boards to touch).  The first eight arrays, in
this order, open every entry kernel's arguments (:class:`envs._batch.BoardBatch`
keeps them as one tuple):

board : int8[n, rows * cols]      0 empty, 1 first player's stone, 2 second's (row 0 on top)
heights : int32[n, cols]          stones per column
stones : uint64[n, 2]             the two players' stones as bitboards (bit layout of games._bits; unused
                                  unless params[P_BITS])
history : int64[n, rows * cols]   actions played so far, ``history[i, :meta[i, M_PLY]]``
meta : int64[n, N_META]           see the ``M_*`` columns below
obs : int8[n, 2, rows, cols]      plane 0 the agent's stones, plane 1 the opponent's
mask : int8[n, n_actions]         1 where a move is legal; all 0 once the episode is over
reward : float64[n]               the agent's reward for the last reset or step
rng : uint64[n]                   one SplitMix64 state per board (who starts, random moves)
params : int64[N_PARAMS]          the environment's settings, see the ``P_*`` indices below
rules : games._rules.Rules        the game (its win test is games'; exact_k included)

The helpers are inlined into the entry kernels (``inline="always"``, numba
IR inlining): a helper taking half a dozen arrays cost about a third of a
step when called (measured with ``scripts/bench_envs.py``).

The observation and the mask are updated in place by each move (one cell of
the planes, one entry of the mask), not redrawn: O(1) per move instead of
O(rows * cols).

A board whose opponent is not the built-in random player stops after the
agent's move with ``meta[i, M_PENDING] = 1``; Python asks the opponent (an
agent object or a callable) and :func:`_reply_boards` plays its answer.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from games._bits import _cell_bit, _has_run
from games._board import _cell_of, _wins_through
from games._jit import JIT, JIT_INLINE, JIT_PARALLEL
from games._rng import _below
from games._rules import Rules

# meta columns
M_PLY, M_STONE, M_OVER, M_WINNER, M_ILLEGAL, M_PLAYED, M_OPP, M_PENDING = range(8)
N_META = 8
# params indices (P_OPEN_LO/HI: the random opening's plies, drawn uniformly from LO to HI at every reset)
P_ILLEGAL, P_OPP_RANDOM, P_SIDE, P_BITS, P_OPEN_LO, P_OPEN_HI = range(6)
N_PARAMS = 6
# params[P_ILLEGAL]: what an illegal agent action does inside the kernel ("raise" is refused in Python first)
ILLEGAL_LOSE, ILLEGAL_RANDOM = 0, 1
# params[P_SIDE]: which side the agent takes at reset
SIDE_FIRST, SIDE_SECOND, SIDE_RANDOM = 0, 1, 2
# outcomes of a move
GAME_ON, WON, DRAWN = 0, 1, 2


@njit(**JIT_INLINE)
def _random_legal(mask: np.ndarray, i: int, state: np.ndarray) -> int:
    """A uniformly random action with ``mask[i, a] == 1`` (there must be one), drawn from ``state`` (uint64[1]).

    Counts the legal actions, draws an index, then walks to it: no scratch array.
    """
    count = 0
    for a in range(mask.shape[1]):
        count += mask[i, a]
    pick = _below(state, count)
    for a in range(mask.shape[1]):
        if mask[i, a]:
            if pick == 0:
                return a
            pick -= 1
    return -1  # unreachable when a legal action exists


@njit(**JIT_INLINE)
def _place(board, heights, stones, history, meta, obs, mask, params, rules, i, action, stone):  # type: ignore[no-untyped-def]
    """Play the legal ``action`` with ``stone`` (1 or 2) on board ``i``; return GAME_ON, WON or DRAWN.

    Updates the board, heights, bitboards, history, ply, and the one cell of
    the observation and the one mask entry the move changes.
    """
    rows, cols = rules.rows, rules.cols
    if params[P_BITS]:
        # games._bits' layout, with gravity or not: the win test is _has_run's word-parallel shifts, which
        # each column's sentinel bit keeps from wrapping across columns.
        if rules.gravity:
            col = action
            row = rows - 1 - heights[i, col]
        else:
            row = action // cols
            col = action - row * cols
        stones[i, stone - 1] |= _cell_bit(rows, row, col)
        won = _has_run(stones[i, stone - 1], rules)
        cell = row * cols + col
        board[i, cell] = stone
    else:
        cell = _cell_of(action, heights[i], rules)
        row = cell // cols
        col = cell - row * cols
        board[i, cell] = stone
        won = _wins_through(board[i], rules, cell)
    heights[i, col] += 1
    # The action is no longer legal once its cell is taken (m,n,k) or its column full (gravity),
    # as games._board._legal_moves decides.
    if not rules.gravity or heights[i, col] == rows:
        mask[i, action] = 0
    history[i, meta[i, M_PLY]] = action
    meta[i, M_PLY] += 1
    obs[i, 0 if stone == meta[i, M_STONE] else 1, row, col] = 1
    if won:
        return WON
    return DRAWN if meta[i, M_PLY] == rows * cols else GAME_ON


@njit(**JIT_INLINE)
def _end(meta: np.ndarray, mask: np.ndarray, reward: np.ndarray, i: int, outcome: int, mover: int) -> None:
    """Record the outcome of ``mover``'s move on board ``i``: winner, reward, and an empty mask once over."""
    if outcome == GAME_ON:
        return
    meta[i, M_OVER] = 1
    mask[i, :] = 0
    if outcome == WON:
        meta[i, M_WINNER] = mover - 1
        reward[i] = 1.0 if mover == meta[i, M_STONE] else -1.0


@njit(**JIT_INLINE)
def _opponent_turn(board, heights, stones, history, meta, obs, mask, reward, rng, params, rules, i):  # type: ignore[no-untyped-def]
    """It is the opponent's turn on board ``i``: the built-in random opponent moves now, any other is left pending."""
    if not params[P_OPP_RANDOM]:
        meta[i, M_PENDING] = 1
        return
    stone = 3 - meta[i, M_STONE]
    action = _random_legal(mask, i, rng[i : i + 1])
    meta[i, M_OPP] = action
    _end(meta, mask, reward, i, _place(board, heights, stones, history, meta, obs, mask, params, rules, i, action, stone), stone)


@njit(**JIT_INLINE)
def _reset_board(board, heights, stones, history, meta, obs, mask, reward, rng, i, params, rules):  # type: ignore[no-untyped-def]
    """Board ``i``'s part of :func:`_reset_boards`."""
    board[i, :] = 0
    heights[i, :] = 0
    stones[i, :] = 0
    obs[i] = 0
    mask[i, :] = 1  # an empty board: every action is legal
    meta[i, :] = 0
    meta[i, M_WINNER] = -1
    meta[i, M_PLAYED] = -1
    meta[i, M_OPP] = -1
    reward[i] = 0.0
    side = params[P_SIDE]
    if side == SIDE_RANDOM:
        side = _below(rng[i : i + 1], 2)
    meta[i, M_STONE] = 1 + side
    # The opening: random moves for both sides before the agent's first decision.  Python caps the plies
    # (envs._batch.max_opening_plies) so that no move can complete a line yet: no outcome to check.
    plies = params[P_OPEN_LO]
    if params[P_OPEN_HI] > plies:
        plies += _below(rng[i : i + 1], params[P_OPEN_HI] - plies + 1)
    for ply in range(plies):
        _place(board, heights, stones, history, meta, obs, mask, params, rules, i, _random_legal(mask, i, rng[i : i + 1]),
               1 + ply % 2)  # fmt: skip
    if 1 + plies % 2 != meta[i, M_STONE]:
        _opponent_turn(board, heights, stones, history, meta, obs, mask, reward, rng, params, rules, i)


@njit(**JIT)
def _reset_boards(board, heights, stones, history, meta, obs, mask, reward, rng, which, params, rules):  # type: ignore[no-untyped-def]
    """Empty the boards in ``which`` (int64[m]), choose the agent's side, play the random opening (``params[P_OPEN_*]``
    plies), and let the opponent move if it is its turn.

    ``rng[i]`` must already hold the new episode's state.
    """
    for j in range(which.shape[0]):
        _reset_board(board, heights, stones, history, meta, obs, mask, reward, rng, which[j], params, rules)


@njit(**JIT_INLINE)
def _step_board(board, heights, stones, history, meta, obs, mask, reward, rng, actions, i, params, rules, illegal_reward):  # type: ignore[no-untyped-def]
    """Play the agent's ``actions[i]`` on board ``i``, then the reply (see :func:`_step_boards`)."""
    stone = meta[i, M_STONE]
    meta[i, M_ILLEGAL] = 0
    meta[i, M_OPP] = -1
    meta[i, M_PENDING] = 0
    reward[i] = 0.0
    action = actions[i]
    if mask[i, action] == 0:
        meta[i, M_ILLEGAL] = 1
        if params[P_ILLEGAL] == ILLEGAL_LOSE:
            meta[i, M_PLAYED] = -1
            meta[i, M_OVER] = 1
            meta[i, M_WINNER] = 2 - stone  # forfeit: the opponent's player index
            reward[i] = illegal_reward
            mask[i, :] = 0
            return
        action = _random_legal(mask, i, rng[i : i + 1])
    meta[i, M_PLAYED] = action
    _end(meta, mask, reward, i, _place(board, heights, stones, history, meta, obs, mask, params, rules, i, action, stone), stone)
    if not meta[i, M_OVER]:
        _opponent_turn(board, heights, stones, history, meta, obs, mask, reward, rng, params, rules, i)


@njit(**JIT)
def _step_boards(board, heights, stones, history, meta, obs, mask, reward, rng, actions, which, params, rules, illegal_reward):  # type: ignore[no-untyped-def]
    """Play the agent's ``actions[i]`` (int64[n], inside the action space) on the boards in ``which``, then the replies.

    An illegal action ends the episode with ``illegal_reward`` (ILLEGAL_LOSE)
    or is replaced by a random legal one (ILLEGAL_RANDOM); both set M_ILLEGAL.
    """
    for j in range(which.shape[0]):
        _step_board(board, heights, stones, history, meta, obs, mask, reward, rng, actions, which[j], params, rules,
                    illegal_reward)  # fmt: skip


@njit(**JIT_PARALLEL)  # cache=False: compiled once per process, and only for big batches (envs._batch.PARALLEL_STEP)
def _step_boards_parallel(board, heights, stones, history, meta, obs, mask, reward, rng, actions, which, params, rules, illegal_reward):  # type: ignore[no-untyped-def]
    """:func:`_step_boards` with the boards spread over numba's threads (each board touches only its own rows)."""
    for j in prange(which.shape[0]):
        _step_board(board, heights, stones, history, meta, obs, mask, reward, rng, actions, which[j], params, rules,
                    illegal_reward)  # fmt: skip


@njit(**JIT_INLINE)
def _reply_board(board, heights, stones, history, meta, obs, mask, reward, i, reply, params, rules):  # type: ignore[no-untyped-def]
    """Play the pending opponent's legal ``reply`` on board ``i``."""
    stone = 3 - meta[i, M_STONE]
    meta[i, M_PENDING] = 0
    meta[i, M_OPP] = reply
    _end(meta, mask, reward, i, _place(board, heights, stones, history, meta, obs, mask, params, rules, i, reply, stone), stone)


@njit(**JIT)
def _reply_boards(board, heights, stones, history, meta, obs, mask, reward, replies, which, params, rules):  # type: ignore[no-untyped-def]
    """Play the pending opponents' legal ``replies[i]`` on the boards in ``which``."""
    for j in range(which.shape[0]):
        i = which[j]
        _reply_board(board, heights, stones, history, meta, obs, mask, reward, i, replies[i], params, rules)


# ------------------------------------------------------------------------------------------------------------------
# One board in one buffer: the single environment's step.
#
# A kernel call costs about 0.03 us per argument it unboxes (each array is a struct built from a numpy object), so the
# fourteen arguments of _step_boards cost the single env 0.4 us a step where one array costs 0.06 us.  The single
# env's board therefore lives in one int64 buffer (the "arena", built by envs._one_board): a header of the rules and
# the offsets of the sections, then every state array of its one board as a section.  Python keeps numpy views of the
# sections (the same arrays, shapes and dtypes as a batch of one board); the kernels below take the buffer and make
# the same views inside numba, where a view is a few machine words, then run the batch kernels' helpers on board 0.
#
# Header words: the rules' fields, the agent's action, illegal_reward (float64 bits), then the word offset of each
# section in the order they are laid out (H_END: the buffer's length).
H_ROWS, H_COLS, H_K, H_GRAVITY, H_EXACT_K, H_ACTION, H_ILLEGAL_REWARD = range(7)
H_BOARD, H_HEIGHTS, H_STONES, H_HISTORY, H_META, H_OBS, H_MASK, H_REWARD, H_RNG, H_PARAMS, H_END = range(7, 18)
N_HEADER = 18


@njit(**JIT_INLINE)
def _section(arena: np.ndarray, h: int) -> np.ndarray:
    """The words of the section whose offset is header word ``h`` (it ends where the next section starts)."""
    return arena[arena[h] : arena[h + 1]]


@njit(**JIT_INLINE)
def _one_board(arena):  # type: ignore[no-untyped-def]
    """The state arrays of the buffer's board as a batch of one (views, no copy), its params, rules and illegal reward.

    arena : int64[N_HEADER + sections]   see the H_* header words above
    """
    rows, cols = arena[H_ROWS], arena[H_COLS]
    cells = rows * cols
    n_actions = cols if arena[H_GRAVITY] else cells
    rules = Rules(rows, cols, arena[H_K], arena[H_GRAVITY], arena[H_EXACT_K])
    # [None] adds the batch axis of one board for free; a reshape calls numba's reshape helper (36 ns, measured).
    board = _section(arena, H_BOARD).view(np.int8)[:cells][None, :]
    heights = _section(arena, H_HEIGHTS).view(np.int32)[:cols][None, :]
    stones = _section(arena, H_STONES).view(np.uint64)[None, :]
    history = _section(arena, H_HISTORY)[None, :]
    meta = _section(arena, H_META)[None, :]
    obs = _section(arena, H_OBS).view(np.int8)[: 2 * cells].reshape((2, rows, cols))[None, :, :, :]
    mask = _section(arena, H_MASK).view(np.int8)[:n_actions][None, :]
    reward = _section(arena, H_REWARD).view(np.float64)
    rng = _section(arena, H_RNG).view(np.uint64)
    illegal_reward = arena[H_ILLEGAL_REWARD : H_ILLEGAL_REWARD + 1].view(np.float64)[0]
    return board, heights, stones, history, meta, obs, mask, reward, rng, _section(arena, H_PARAMS), rules, illegal_reward


@njit(**JIT)
def _reset_one(arena):  # type: ignore[no-untyped-def]
    """:func:`_reset_boards` of the buffer's board (``arena``: int64[:], see the H_* header words)."""
    board, heights, stones, history, meta, obs, mask, reward, rng, params, rules, _ = _one_board(arena)
    _reset_board(board, heights, stones, history, meta, obs, mask, reward, rng, 0, params, rules)


@njit(**JIT)
def _step_one(arena, action):  # type: ignore[no-untyped-def]
    """:func:`_step_boards` of the buffer's board with the agent's ``action`` (int, inside the action space)."""
    board, heights, stones, history, meta, obs, mask, reward, rng, params, rules, illegal_reward = _one_board(arena)
    actions = arena[H_ACTION : H_ACTION + 1]
    actions[0] = action
    _step_board(board, heights, stones, history, meta, obs, mask, reward, rng, actions, 0, params, rules, illegal_reward)


@njit(**JIT)
def _reply_one(arena, reply):  # type: ignore[no-untyped-def]
    """:func:`_reply_boards` of the buffer's board with the pending opponent's legal ``reply`` (int)."""
    board, heights, stones, history, meta, obs, mask, reward, _, params, rules, _ = _one_board(arena)
    _reply_board(board, heights, stones, history, meta, obs, mask, reward, 0, reply, params, rules)
