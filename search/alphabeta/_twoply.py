"""The batched opponent's depth-1 and depth-2 searches on Connect-4 bitboards, written out for that depth.

A depth-2 (or depth-1) alpha-beta reply of :mod:`search.alphabeta._batchsearch` runs
the general bitboard search (:func:`search.alphabeta._bitnegamax._iterate`): iterative
deepening, a frame stack walked by a four-phase loop, a transposition-table
probe at every interior node.  At these depths most of that is bookkeeping
for a tree of at most ``1 + cols + cols**2`` nodes, and the probes are cache
misses (each board's table is its own megabyte-sized row).  :func:`_two_ply`
plays the same search move for move, with the tree's shape known in
advance, and the same result to the bit: move, score, completed depth,
node count, and the same table entries written in the same order.

Layout (``games._bits``, Pascal Pons' position)::

      col  0  1  2  3  4  5  6
         .  6 13 20 27 34 41 48      bit(col, row) = col * (rows + 1) + row, row 0 at the bottom;
    row 5   5 12 19 26 33 40 47      the top bit of each column (.) is a sentinel, never set
    ...
    row 0   0  7 14 21 28 35 42

What the general search does at these depths, and how it is kept here
(``_bitnegamax._search``; ``d`` is a node's remaining depth):

* **Iteration 1** (root, ``d = 1``): a winning move is played at once
  (score ``WIN_SCORE - 1``, one node, the search stops); else every
  playable column is a leaf, evaluated in place in the order of
  :func:`_order`, the first best kept; the root is stored (depth 1, exact).
* **Iteration 2** (``d = 2``): the root's probe finds iteration 1's entry,
  whose move is ordered first (``_TT_BONUS``).  Moves losing in two plies
  are dropped (``d >= 2``); if none is left the root scores
  ``-(WIN_SCORE - 2)`` on its first playable column.  Each child is a
  depth-1 node: a full board scores 0, a win for its mover
  ``WIN_SCORE - 2``, else its leaves are evaluated in order with
  fail-soft alpha-beta (a cutoff updates the ply's killers and adds 1 to
  the history counter of its column) and the child is stored.  After the
  first child each one is searched with a null window around the best so
  far (principal variation search); one that fails high is searched again
  with the full window.
* **The re-search is not repeated here.**  A child that fails high under
  the null window had no leaf at or above its beta, so no cutoff: all its
  leaves were evaluated and its value is exact.  The re-search (the child's
  own entry ordered first, window ``(-inf, -best)``) visits the same leaves,
  gets the same value, the same best move, no cutoff (killers and history
  unchanged), and stores the entry again as exact.  So its nodes are added
  and its store is written without evaluating anything twice.
* **No probe can hit, so none is made.**  Within one search the only hits
  are the root's (iteration 1's entry, read above) and a re-searched child's
  own entry.  A hit on an entry of an earlier search needs the same
  position, but a search stores positions of ``stones`` and ``stones + 1``
  stones only: :func:`_two_ply` is called only where every earlier search of
  the episode had a root of at least two stones fewer (the caller tracks it,
  ``table_ply``), so none of its positions can be there.  The stores are
  still written, so that a later search that is not eligible (a position
  searched twice) reads the table the general search would have left.

* **A node's leaves are evaluated at once.**  The leaves below the root
  (iteration 1) and below each child are the node's position plus one stone
  in each column: :func:`heuristics._c4_bits._evaluate_columns` evaluates
  them all in one vectorized pass (about the cost of one or two evaluations
  one by one), and the ordered loop reads the values, stopping at a cutoff as
  before.  The values are the scalar evaluator's, to the bit.
* **The table slots are prefetched.**  A batch's tables are megabytes (one
  per board), so a store mostly misses the caches: the root's and the
  children's slots are known at the start and asked for then.

The stores go to the table in the general search's order except that
iteration 1's root entry is written only when the root is not stored
again at the end (the same slot, overwritten before anything reads it).

Arguments of :func:`_two_ply`:

current, mask : uint64, the root (Pons' two words); stones : its stone count (>= 1 empty square left)
max_depth : 1 or 2; q : the branching limit (0: none); rules : games._rules.Rules
consts : (uint64,) * 6, heuristics._c4_bits' constants; weights : (float64,) * 12, c4_features' weights
noise : float64[>= cols], the root's tie-break noise (already scaled)
tt_keys : uint64[size], tt_scores : float64[size], tt_depths, tt_flags, tt_moves, tt_stamps : int32[size]
    (the board's table); generation : the table's current stamp
moves : int64[2, cols], ties : int64[3, cols] (row 2: the history counters of ply 1), keys : float64[2, cols],
    values : float64[heuristics._c4_bits.lanes_for(cols)]: scratch
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games._bits import _winning_cells
from games._jit import JIT
from heuristics._c4_bits import C_BOARD, C_BOTTOM, _evaluate_columns
from search.alphabeta._bitops import _clip, _column, _first_column, _prefetch, _tt_slot
from search.alphabeta._negamax import _BLOCK_BONUS, _KILLER_BONUS, _TT_BONUS, EXACT, LOWER, UPPER, _to_tt
from search.protocol import HEURISTIC_LIMIT, WIN_SCORE

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(**JIT)
def _order(candidates, blocks, tt_move, killer, killer_2, ply, rows, cols, noise, ties, moves, keys) -> int:  # type: ignore[no-untyped-def]
    """Sort the ``candidates`` columns into ``moves[ply]`` as ``_search`` orders them where the heuristic's ordering
    score is off (depth below ``S_ORDER_DEPTH``); return how many.

    Keys: the killer, block and table bonuses, plus the root's noise (``ply == 0``);
    ties: the history counter of ply 1 (``ties[2]``; 0 at the root, whose counters no cutoff ever raises);
    then the lower column.  Insertion sort, best first, as ``_search``.
    """
    n = 0
    for col in range(cols):
        square = candidates & _column(rows, col)
        if square == _ZERO:
            continue
        key = 0.0
        if col == killer or col == killer_2:
            key += _KILLER_BONUS
        hist = ties[2, col] if ply == 1 else 0
        if square & blocks != _ZERO:
            key += _BLOCK_BONUS
        if col == tt_move:
            key += _TT_BONUS
        if ply == 0:
            key += noise[col]
        i = n
        while i > 0 and (key > keys[ply, i - 1] or (key == keys[ply, i - 1] and hist > ties[ply, i - 1])):
            keys[ply, i], moves[ply, i], ties[ply, i] = keys[ply, i - 1], moves[ply, i - 1], ties[ply, i - 1]
            i -= 1
        keys[ply, i], moves[ply, i], ties[ply, i] = key, col, hist
        n += 1
    return n


@njit(**JIT)
def _store(tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, key, score, ply, depth, move, flag, generation):  # type: ignore[no-untyped-def]
    """Write one table entry as ``_search`` does when it leaves a node (always replace)."""
    slot = _tt_slot(key, tt_keys.shape[0])
    tt_keys[slot] = key
    tt_scores[slot] = _to_tt(score, ply)
    tt_depths[slot] = depth
    tt_moves[slot] = move
    tt_flags[slot] = flag
    tt_stamps[slot] = generation


@njit(**JIT)
def _two_ply(current, mask, stones, max_depth, q, rules, consts, weights, noise, tt_keys, tt_scores, tt_depths,  # type: ignore[no-untyped-def]
             tt_flags, tt_moves, tt_stamps, generation, moves, ties, keys, values):  # fmt: skip
    """``(move, score, depth, nodes)`` of the bitboard search to ``max_depth`` (1 or 2) with c4_features on the
    bitboards, no node or time budget, no probe able to hit an earlier search's entry (see the module docstring)."""
    assert 1 <= max_depth <= 2
    rows, cols = rules.rows, rules.cols
    cells = rows * cols
    bottom, full = consts[C_BOTTOM], consts[C_BOARD]
    playable = (mask + bottom) & full  # the carry stops on each column's first empty square
    nodes = 1
    wins = _winning_cells(current, rules) & playable
    if wins != _ZERO:  # iteration 1 plays it and the search stops (a proven result)
        return _first_column(wins, rows), WIN_SCORE - 1, 1, nodes
    opponent = current ^ mask
    threats = _winning_cells(opponent, rules) & (full & ~mask)  # the opponent's winning squares
    blocks = threats & playable
    key = current + mask
    # The slots this search may store to (the root, each child): asked for now, they arrive during the evaluations.
    size = tt_keys.shape[0]
    _prefetch(tt_keys, _tt_slot(key, size))
    if max_depth == 2:
        for col in range(cols):
            square = playable & _column(rows, col)
            if square != _ZERO:
                _prefetch(tt_keys, _tt_slot(opponent + (mask | square), size))

    # Iteration 1: every move a leaf, no cutoff (full window), no table move (nothing to hit).
    n = _order(playable, blocks, -1, -1, -1, 0, rows, cols, noise, ties, moves, keys)
    count = q if 0 < q < n else n
    if stones + 1 < cells:  # every child's evaluation at once (see the module docstring)
        _evaluate_columns(opponent, mask, playable, rows, cols, consts, weights, values)
    best, best_move = -np.inf, -1
    for j in range(count):
        col = moves[0, j]
        nodes += 1
        score = 0.0 if stones + 1 == cells else -_clip(values[col], HEURISTIC_LIMIT)
        if score > best:
            best, best_move = score, col
    if max_depth == 1:
        _store(tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, key, best, 0, 1, best_move, EXACT, generation)
        return best_move, best, 1, nodes

    # Iteration 2.  The root's probe hits iteration 1's entry: its move first.
    nodes += 1
    candidates = playable
    if blocks & (blocks - _ONE) != _ZERO:  # two threats: no saving move
        candidates = _ZERO
    elif blocks != _ZERO:
        candidates = blocks
    candidates &= ~(threats >> _ONE)  # not right below an opponent's winning square
    if candidates == _ZERO:
        _store(tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, key, best, 0, 1, best_move, EXACT, generation)
        return _first_column(playable, rows), -(WIN_SCORE - 2), 2, nodes
    n = _order(candidates, blocks, best_move, -1, -1, 0, rows, cols, noise, ties, moves, keys)
    count = q if 0 < q < n else n
    for col in range(cols):
        ties[2, col] = 0  # ply 1's history counters: fresh per search
    killer, killer_2 = -1, -1  # ply 1's killers
    best, best_move = -np.inf, -1
    for j in range(count):
        col = moves[0, j]
        child_mask = mask | (playable & _column(rows, col))
        # The child's window: full for the first move, else null around the best so far.
        alpha, beta, null = -np.inf, -best, False
        if j > 0 and best > -np.inf and np.nextafter(best, np.inf) < np.inf:
            alpha, null = -np.nextafter(best, np.inf), True
        # The child (ply 1, depth 1), its mover the root's opponent.
        child_nodes = 1
        stored = False
        child_best, child_move = 0.0, -1
        if stones + 1 == cells:
            child_best = 0.0
        else:
            child_playable = (child_mask + bottom) & full
            mine = opponent  # the child's mover
            theirs = mine ^ child_mask  # the root's mover, with its new stone
            if _winning_cells(mine, rules) & child_playable != _ZERO:
                child_best = WIN_SCORE - 2
            else:
                child_blocks = _winning_cells(theirs, rules) & (full & ~child_mask) & child_playable
                m = _order(child_playable, child_blocks, -1, killer, killer_2, 1, rows, cols, noise, ties, moves, keys)
                leaves = q if 0 < q < m else m
                if stones + 2 < cells:  # every leaf's evaluation at once, whatever the cutoff leaves unread
                    _evaluate_columns(theirs, child_mask, child_playable, rows, cols, consts, weights, values)
                child_best = -np.inf
                for i in range(leaves):
                    leaf = moves[1, i]
                    child_nodes += 1
                    score = 0.0 if stones + 2 == cells else -_clip(values[leaf], HEURISTIC_LIMIT)
                    if score > child_best:
                        child_best, child_move = score, leaf
                        if score > alpha and score >= beta:  # cutoff: a killer, and the history counter
                            if leaf != killer:
                                killer_2, killer = killer, leaf
                            ties[2, leaf] += 1
                            break
                flag = UPPER if child_best <= alpha else (LOWER if child_best >= beta else EXACT)
                _store(tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, mine + child_mask, child_best, 1, 1,
                       child_move, flag, generation)  # fmt: skip
                stored = True
        nodes += child_nodes
        score = -child_best
        if null and best < score:  # failed high: the full-window re-search (see the module docstring)
            nodes += child_nodes
            if stored:
                _store(tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, opponent + child_mask, child_best, 1, 1,
                       child_move, EXACT, generation)  # fmt: skip
        if score > best:
            best, best_move = score, col
    _store(tt_keys, tt_scores, tt_depths, tt_flags, tt_moves, tt_stamps, key, best, 0, 2, best_move, EXACT, generation)
    return best_move, best, 2, nodes
