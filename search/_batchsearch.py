"""Alpha-beta replies for many boards in one numba call: a loop over boards calling the search kernels.

Each board's search is the one :func:`search.engine.search` runs for a
seeded :class:`search.agents.AlphaBetaAgent` with a depth and/or node budget
(no time budget): the bitboard kernel's whole iterative deepening
(:func:`search._bitnegamax._iterate`) for gravity boards that fit 64 bits,
else the array kernel (:func:`search._negamax._negamax`) one iteration at a
time, with the same settings, the same fresh per-search buffers (killers
and history start empty), the same per-board transposition table kept
across a game's moves, and the same root tie-break noise.  So the move, the
score, the depth and the node count are those of the Python path, to the
bit (``tests/test_batch_opponents.py`` checks it).

Every board ``b`` owns a slice of each buffer (``work[b]``, ``tt_keys[b]``,
...), so the boards are independent and :func:`_replies_parallel` can
search them on several threads (``numba.prange``).

Arguments (``m`` boards pending, ``n`` boards in all; ``b = boards[j]``):

boards : int64[m], obs : int8[m, 2, rows, cols] (plane 0 the stones of the side to move, row 0 on top)
rules : games._rules.Rules; bits : use the bitboard kernel
depth_cap : int (0: none), node_budget : int (0: none)
template : int64[N_SETTINGS], the settings every search starts from; settings : int64[n, N_SETTINGS] (scratch)
consts : uint64[N_BIT_CONSTS], weights : float64[n_weights], weights_pad : float64[N_BIT_WEIGHTS],
    windows : int32[n_windows, k], zobrist : uint64[2, cells]
tt_keys .. tt_stamps : [n, size] (each row one board's table), generation : int64[n] (each table's stamp)
noise : float64[n, c, n_actions] root tie-break noise (already scaled), cursor : int64[n], the row of
    ``noise[b]`` the next search takes (advanced here)
board : int8[n, cells], heights : int32[n, cols] (scratch, rebuilt from ``obs``)
bitboard kernel: work : int64[n, *work_shape], frames : uint64[n, max_ply + 1, 3],
    keys : float64[n, max_ply + 1, cols], bounds : float64[n, max_ply + 1, 4], pv_out : int64[n, max_ply + 2]
array kernel: move_buf, hist_buf, order_buf : int64[n, max_ply, n_actions], key_buf : float64[...],
    killers : int32[n, max_ply, 2], history : int64[n, 2, n_actions], pv : int32[n, max_ply, max_ply],
    pv_len : int32[n, max_ply]
out_move, out_depth, out_nodes : int64[m], out_score : float64[m]
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from games._bits import _from_board
from games._jit import JIT, JIT_PARALLEL
from search import _bitnegamax as bn
from search import _negamax as nm
from search._settings import S_ABORTED, S_CHECK_TIME, S_NODE_LIMIT, S_NODES, S_TT_GENERATION
from search.engine import MAX_DEPTH
from search.protocol import HEURISTIC_LIMIT


@njit(**JIT)
def _board_from_obs(obs: np.ndarray, rows: int, cols: int, board: np.ndarray, heights: np.ndarray) -> int:
    """Fill ``board`` (int8[cells], games._board layout) and ``heights`` from the mover's planes; return the ply."""
    ply = 0
    for r in range(rows):
        for c in range(cols):
            ply += obs[0, r, c] + obs[1, r, c]
    mover = 1 + (ply & 1)  # the first player moves on even plies
    heights[:] = 0
    for r in range(rows):
        for c in range(cols):
            cell = r * cols + c
            stone = mover if obs[0, r, c] else (3 - mover if obs[1, r, c] else 0)
            board[cell] = stone
            if stone:
                heights[c] += 1
    return ply


@njit(**JIT)
def _zobrist_key(board: np.ndarray, zobrist: np.ndarray) -> np.uint64:
    """The Zobrist key of ``board`` (games.Position.key: XOR of ``zobrist[stone - 1, cell]`` over the stones)."""
    key = np.uint64(0)
    for cell in range(board.shape[0]):
        if board[cell]:
            key ^= zobrist[board[cell] - 1, cell]
    return key


@njit(**JIT)
def _reply_one(j, boards, obs, rules, bits, depth_cap, node_budget, template, settings, consts, weights, weights_pad,  # type: ignore[no-untyped-def]
               windows, zobrist, tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, generation, noise, cursor,
               board, heights, work, frames, keys, bounds, pv_out, move_buf, key_buf, hist_buf, order_buf, killers,
               history, pv, pv_len, out_move, out_score, out_depth, out_nodes):  # fmt: skip
    """Search pending board ``j`` (board ``boards[j]``) as engine.search would; write its results at ``j``."""
    b = boards[j]
    rows, cols = rules.rows, rules.cols
    bd, hts = board[b], heights[b]
    ply = _board_from_obs(obs[j], rows, cols, bd, hts)
    remaining = rows * cols - ply
    max_depth = min(depth_cap if depth_cap > 0 else remaining, remaining, MAX_DEPTH)
    s = settings[b]
    s[:] = template
    s[S_TT_GENERATION] = generation[b]
    root_noise = noise[b, cursor[b]]
    cursor[b] += 1
    if bits:
        w = work[b]
        max_ply = w.shape[0] - 2
        at = 2 * cols
        for p in range(max_ply):  # engine._BitBuffers: no killers yet, history counters zero
            w[p, at + bn.K_KILLER] = -1
            w[p, at + bn.K_KILLER_2] = -1
        w[max_ply, :] = 0
        w[max_ply + 1, :] = 0
        kb = keys[b]
        kb[max_ply, :] = root_noise[:cols]
        current, mask = _from_board(bd, rows, cols, ply)
        depth, score = bn._iterate(current, mask, ply, max_depth, node_budget, False, 0.0, np.inf, rules, s, consts,
                                   weights, weights_pad, windows, bd, hts, tt_keys[b], tt_scores[b], tt_depths[b],
                                   tt_flags[b], tt_moves[b], tt_stamps[b], w, frames[b], kb, bounds[b],
                                   pv_out[b])  # fmt: skip
        out_move[j], out_score[j], out_depth[j] = pv_out[b, 1], score, depth
        out_nodes[j] = s[S_NODES]
        return
    kl, hist = killers[b], history[b]
    kl[:, :] = -1  # engine._Buffers: fresh per search, kept across its iterations
    hist[:, :] = 0
    key = _zobrist_key(bd, zobrist)
    best_move, best_score, best_depth = -1, 0.0, 0
    for d in range(1, max_depth + 1):  # engine._search's loop over the array kernel, without a clock
        first = best_depth == 0
        s[S_NODE_LIMIT] = 0 if first else node_budget  # the depth-1 iteration always completes
        s[S_CHECK_TIME] = 0
        score = nm._negamax(bd, hts, key, ply, 0, d, -np.inf, np.inf, rules, s, weights, windows, zobrist, tt_keys[b],
                            tt_scores[b], tt_depths[b], tt_flags[b], tt_moves[b], tt_stamps[b], kl, hist, pv[b],
                            pv_len[b], move_buf[b], key_buf[b], hist_buf[b], order_buf[b], np.inf,
                            root_noise)  # fmt: skip
        if s[S_ABORTED]:
            break
        best_move, best_score, best_depth = pv[b, 0, 0], score, d
        if abs(score) > HEURISTIC_LIMIT or (node_budget > 0 and s[S_NODES] >= node_budget):
            break
    out_move[j], out_score[j], out_depth[j], out_nodes[j] = best_move, best_score, best_depth, s[S_NODES]


@njit(**JIT)
def _replies(boards, obs, rules, bits, depth_cap, node_budget, template, settings, consts, weights, weights_pad,  # type: ignore[no-untyped-def]
             windows, zobrist, tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, generation, noise, cursor,
             board, heights, work, frames, keys, bounds, pv_out, move_buf, key_buf, hist_buf, order_buf, killers, history,
             pv, pv_len, out_move, out_score, out_depth, out_nodes):  # fmt: skip
    """Search every pending board, one after the other (see the module docstring for the arguments)."""
    for j in range(boards.shape[0]):
        _reply_one(j, boards, obs, rules, bits, depth_cap, node_budget, template, settings, consts, weights, weights_pad,
                   windows, zobrist, tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, generation, noise,
                   cursor, board, heights, work, frames, keys, bounds, pv_out, move_buf, key_buf, hist_buf, order_buf,
                   killers, history, pv, pv_len, out_move, out_score, out_depth, out_nodes)  # fmt: skip


@njit(**JIT_PARALLEL)  # cache=False: numba cannot cache parallel (prange) kernels reliably; compiled once per process
def _replies_parallel(boards, obs, rules, bits, depth_cap, node_budget, template, settings, consts, weights,  # type: ignore[no-untyped-def]
                      weights_pad, windows, zobrist, tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps,
                      generation, noise, cursor, board, heights, work, frames, keys, bounds, pv_out, move_buf, key_buf,
                      hist_buf, order_buf, killers, history, pv, pv_len, out_move, out_score, out_depth,
                      out_nodes):  # fmt: skip
    """:func:`_replies` with the boards spread over numba's threads (each board touches only its own slices)."""
    for j in prange(boards.shape[0]):
        _reply_one(j, boards, obs, rules, bits, depth_cap, node_budget, template, settings, consts, weights, weights_pad,
                   windows, zobrist, tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, generation, noise,
                   cursor, board, heights, work, frames, keys, bounds, pv_out, move_buf, key_buf, hist_buf, order_buf,
                   killers, history, pv, pv_len, out_move, out_score, out_depth, out_nodes)  # fmt: skip
