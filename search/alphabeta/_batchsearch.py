"""Alpha-beta replies for many boards in one numba call: a loop over boards calling the bitboard search.

Each board's search is the one :func:`search.alphabeta.engine.search` runs for a
seeded :class:`search.agents.AlphaBetaAgent` with a depth and/or node budget
(no time budget) on a gravity board that fits 64 bits: the bitboard
kernel's whole iterative deepening (:func:`search.alphabeta._bitnegamax._iterate`),
with the same settings, the same fresh per-search buffers (killers and
history start empty), the same per-board transposition table kept across a
game's moves, and the same root tie-break noise.  So the move, the score,
the depth and the node count are those of the Python path, to the bit
(``tests/test_batch_opponents.py`` checks it).

Every board ``b`` owns a slice of each buffer (``work[b]``, ``tt_keys[b]``,
...), so the boards are independent and :func:`_bit_replies_parallel` can
search them on several threads (``numba.prange``).

The array kernel (:func:`search.alphabeta._negamax._negamax`, every other board) is
not called from here: it is recursive, and numba cannot link a caller to
its cached code in a new process ("LLVM ERROR: Symbol not found:
.numba.unresolved$..._negamax", which aborts the interpreter), so
:class:`envs.batched.AlphaBetaBatch` runs its iterations from Python, board
by board, as the engine does; only the board set-up (:func:`_board_from_obs`)
comes from here.

Arguments (``m`` boards pending, ``n`` boards in all; ``b = boards[j]``):

boards : int64[m], obs : int8[m, 2, rows, cols] (plane 0 the stones of the side to move, row 0 on top)
rules : games._rules.Rules
depth_cap : int (0: none), node_budget : int (0: none)
template : int64[N_SETTINGS], the settings every search starts from; settings : int64[n, N_SETTINGS] (scratch)
consts : uint64[N_BIT_CONSTS], weights : float64[n_weights], weights_pad : float64[N_BIT_WEIGHTS],
    windows : int32[n_windows, k]
tt_keys .. tt_stamps : [n, size] (each row one board's table), generation : int64[n] (each table's stamp)
noise : float64[n, r, n_actions] root tie-break noise (already scaled), cursor : int64[n], the row of
    ``noise[b]`` the next search takes (advanced here)
board : int8[n, cells], heights : int32[n, cols] (scratch, rebuilt from ``obs``)
work : int64[n, *work_shape], frames : uint64[n, max_ply + 1, 3], keys : float64[n, max_ply + 1, cols],
    bounds : float64[n, max_ply + 1, 4], pv_out : int64[n, max_ply + 2],
    values : float64[n, heuristics._c4_bits.lanes_for(cols)] (the written-out search's leaf values, scratch)
out_move, out_depth, out_nodes : int64[m], out_score : float64[m]
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from games._bits import _cell_bit
from games._jit import JIT, JIT_PARALLEL
from search._settings import S_ARRAY, S_BRANCHING, S_NODES, S_TT_GENERATION
from search.alphabeta import _bitnegamax as bn
from search.alphabeta._twoply import _two_ply
from search.alphabeta.engine import MAX_DEPTH

_ZERO = np.uint64(0)


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
def _bits_from_obs(obs: np.ndarray, rows: int, cols: int) -> tuple[np.uint64, np.uint64, int]:
    """``(current, mask, ply)`` of the mover's planes, as ``_from_board`` gives them from ``_board_from_obs``'s board."""
    current, mask, ply = _ZERO, _ZERO, 0
    for c in range(cols):
        for r in range(rows):
            bit = _cell_bit(rows, r, c)
            if obs[0, r, c]:
                current |= bit
                mask |= bit
                ply += 1
            elif obs[1, r, c]:
                mask |= bit
                ply += 1
    return current, mask, ply


@njit(**JIT)
def _zobrist_key(board: np.ndarray, zobrist: np.ndarray) -> np.uint64:
    """The Zobrist key of ``board`` (games.Position.key: XOR of ``zobrist[stone - 1, cell]`` over the stones)."""
    key = np.uint64(0)
    for cell in range(board.shape[0]):
        if board[cell]:
            key ^= zobrist[board[cell] - 1, cell]
    return key


@njit(**JIT)
def _root(j, boards, obs, rules, depth_cap, template, settings, generation, noise, cursor, board, heights):  # type: ignore[no-untyped-def]
    """Set up pending board ``j``: its array board, settings and root noise; return ``(b, ply, max_depth, noise row)``."""
    b = boards[j]
    rows, cols = rules.rows, rules.cols
    ply = _board_from_obs(obs[j], rows, cols, board[b], heights[b])
    remaining = rows * cols - ply
    max_depth = min(depth_cap if depth_cap > 0 else remaining, remaining, MAX_DEPTH)
    s = settings[b]
    s[:] = template
    s[S_TT_GENERATION] = generation[b]
    row = cursor[b]
    cursor[b] = row + 1
    return b, ply, max_depth, row


@njit(**JIT)
def _bit_one(j, boards, obs, rules, depth_cap, node_budget, template, settings, consts, weights, weights_pad, windows,  # type: ignore[no-untyped-def]
             tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, generation, noise, cursor, board, heights,
             work, frames, keys, bounds, pv_out, values, two_ply, table_ply, out_move, out_score, out_depth, out_nodes):  # fmt: skip
    """Search pending board ``j`` with the bitboard kernel as engine._bit_search would; write its results at ``j``."""
    # _root without the array board where the search does not read it (S_ARRAY: an array evaluator kept in step)
    b, rows, cols = boards[j], rules.rows, rules.cols
    current, mask, ply = _bits_from_obs(obs[j], rows, cols)
    if template[S_ARRAY]:
        _board_from_obs(obs[j], rows, cols, board[b], heights[b])
    remaining = rows * cols - ply
    max_depth = min(depth_cap if depth_cap > 0 else remaining, remaining, MAX_DEPTH)
    w, kb = work[b], keys[b]
    row = cursor[b]
    cursor[b] = row + 1
    # _twoply: the same search written out for depths 1 and 2, where no earlier search of the episode can have
    # stored this search's positions (roots two stones apart: a depth-2 search stores its root and the children).
    fast = two_ply and max_depth >= 1 and ply >= table_ply[b] + 2
    table_ply[b] = max(table_ply[b], ply)
    if fast:
        const6 = (consts[0], consts[1], consts[2], consts[3], consts[4], consts[5])
        w12 = (weights_pad[0], weights_pad[1], weights_pad[2], weights_pad[3], weights_pad[4], weights_pad[5],
               weights_pad[6], weights_pad[7], weights_pad[8], weights_pad[9], weights_pad[10], weights_pad[11])  # fmt: skip
        move, score, depth, nodes = _two_ply(current, mask, ply, max_depth, template[S_BRANCHING], rules, const6, w12,
                                             noise[b, row], tt_keys[b, ::1], tt_scores[b, ::1], tt_depths[b, ::1],
                                             tt_flags[b, ::1], tt_moves[b, ::1], tt_stamps[b, ::1], generation[b],
                                             w[0:2], w[2:5], kb[0:2], values[b])  # fmt: skip
        out_move[j], out_score[j], out_depth[j], out_nodes[j] = move, score, depth, nodes
        return
    s = settings[b]
    s[:] = template
    s[S_TT_GENERATION] = generation[b]
    max_ply = w.shape[0] - 2
    at = 2 * cols
    # engine._BitBuffers: no killers yet, history counters zero.  Only what this search can read is reset:
    # killers of the plies with children (ply < max_depth) and one history counter per column, not the
    # whole buffer (46 rows of work on Connect-4, a cache line each, for the 2 or 3 a depth-2 search reads).
    for p in range(min(max_depth + 1, max_ply)):
        w[p, at + bn.K_KILLER] = -1
        w[p, at + bn.K_KILLER_2] = -1
    for c in range(cols):
        w[max_ply, c] = 0
        w[max_ply + 1, c] = 0
    kb[max_ply, :] = noise[b, row, :cols]
    # engine._bit_search's signature exactly, so that _iterate compiles once for both: a bool, not the literal False,
    # and the table rows as strided ("A") arrays, the layout of search.tt.TranspositionTable's fields.  The array
    # board always, even for a bitboard evaluator (whose search elsewhere takes None and compiles without the array
    # evaluators, search.alphabeta._bitnegamax): measured with None here, the 256-board env with a depth-2
    # opponent stepped 17% slower (scripts/bench_envs.py --clock cpu, three runs each way: 320-337k steps/s
    # against 383-403k), so this kernel keeps the specialisation it was tuned with.
    depth, score = bn._iterate(current, mask, ply, max_depth, node_budget, np.bool_(False), 0.0, np.inf, rules, s, consts,
                               weights, weights_pad, windows, board[b], heights[b], tt_keys[b, ::1], tt_scores[b, ::1],
                               tt_depths[b, ::1], tt_flags[b, ::1], tt_moves[b, ::1], tt_stamps[b, ::1], w, frames[b], kb,
                               bounds[b], pv_out[b])  # fmt: skip
    out_move[j], out_score[j], out_depth[j], out_nodes[j] = pv_out[b, 1], score, depth, s[S_NODES]


@njit(**JIT)
def _bit_replies(boards, obs, rules, depth_cap, node_budget, template, settings, consts, weights, weights_pad, windows,  # type: ignore[no-untyped-def]
                 tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, generation, noise, cursor, board, heights,
                 work, frames, keys, bounds, pv_out, values, two_ply, table_ply, out_move, out_score, out_depth, out_nodes):  # fmt: skip
    """Search every pending board with the bitboard kernel, one after the other."""
    for j in range(boards.shape[0]):
        _bit_one(j, boards, obs, rules, depth_cap, node_budget, template, settings, consts, weights, weights_pad, windows,
                 tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, generation, noise, cursor, board, heights,
                 work, frames, keys, bounds, pv_out, values, two_ply, table_ply, out_move, out_score, out_depth, out_nodes)  # fmt: skip


@njit(**JIT_PARALLEL)  # cache=False: a parallel kernel (games._jit.JIT_PARALLEL)
def _bit_replies_parallel(boards, obs, rules, depth_cap, node_budget, template, settings, consts, weights, weights_pad,  # type: ignore[no-untyped-def]
                          windows, tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, generation, noise, cursor,
                          board, heights, work, frames, keys, bounds, pv_out, values, two_ply, table_ply, out_move, out_score,
                          out_depth, out_nodes):  # fmt: skip
    """:func:`_bit_replies` with the boards spread over numba's threads (each board touches only its own slices)."""
    for j in prange(boards.shape[0]):  # j is a uint64 here: passed as int64, as in _bit_replies (one compile of _bit_one)
        _bit_one(np.int64(j), boards, obs, rules, depth_cap, node_budget, template, settings, consts, weights, weights_pad, windows,
                 tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, generation, noise, cursor, board, heights,
                 work, frames, keys, bounds, pv_out, values, two_ply, table_ply, out_move, out_score, out_depth, out_nodes)  # fmt: skip
