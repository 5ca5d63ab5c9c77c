"""The one layout of the search kernels' settings: an ``int64`` array read and written by both kernels.

The array kernel (:mod:`search.alphabeta._negamax`) and the bitboard kernel
(:mod:`search.alphabeta._bitnegamax`) take the same ``settings`` array: what to search
with (``S_HID`` .. ``S_TT_GENERATION``), the counters the kernel writes back
(``S_NODES``, ``S_ABORTED``), the bitboard kernel's plan (``S_ARRAY`` ..
``S_ORDER_DEPTH``) and, from ``S_SQUARE_VALUES``, the ``square_values``
table in bitboard order (64 entries).  The game itself is not here: it
travels as :class:`games._rules.Rules`.  :func:`new_settings` is the one
builder, used by :mod:`search.alphabeta.engine`.
"""

from __future__ import annotations

import numpy as np

(
    S_HID,  # heuristic kernel id (heuristics.registry)
    S_BRANCHING,  # q: search only the q best-ordered moves at a node (0: all)
    S_RADIUS,  # m,n,k: only cells within this king-move distance of a stone (0: all)
    S_NODE_LIMIT,  # stop when the node count reaches it (0: no limit)
    S_USE_TT,  # 1: use the transposition table
    S_ORDERING,  # 1: order moves (table move, blocks, killers, heuristic, history)
    S_CHECK_TIME,  # 1: read the clock against the deadline
    S_TIME_MASK,  # read the clock when nodes & mask == 0 (2**j - 1)
    S_TT_GENERATION,  # a table slot is valid only if its stamp equals this
    S_NODES,  # written: nodes visited so far
    S_ABORTED,  # written: 1 once a budget stopped the search
    S_ARRAY,  # bitboard kernel: keep the array board in step (for an array evaluator)
    S_BIT_EVAL,  # bitboard kernel: the heuristic evaluates the bitboards themselves
    S_ORDER_DEPTH,  # bitboard kernel: smallest node depth using the heuristic's ordering score
    S_FROM_SCRATCH,  # array kernel: 1 forces from-scratch evaluation (no incremental state, heuristics._incremental)
) = range(15)
S_SQUARE_VALUES = 16
"""First of the 64 entries of ``square_values`` by bit (bitboard kernel)."""
N_SETTINGS = S_SQUARE_VALUES + 64


def new_settings(hid: int, *, branching: int = 0, radius: int = 0, use_tt: bool = True, ordering: bool = True,
                 tt_generation: int = 1) -> np.ndarray:  # fmt: skip
    """A settings array for heuristic ``hid``: no node or time limit yet, counters zero."""
    settings = np.zeros(N_SETTINGS, dtype=np.int64)
    settings[S_HID] = hid
    settings[S_BRANCHING] = branching
    settings[S_RADIUS] = radius
    settings[S_USE_TT] = int(use_tt)
    settings[S_ORDERING] = int(ordering)
    settings[S_TT_GENERATION] = tt_generation
    return settings
