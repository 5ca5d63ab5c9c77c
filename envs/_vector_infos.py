"""The batched vector env's infos in Gymnasium's vector layout, read out of the batch's arrays in one numba call.

Gymnasium's vector envs report ``infos[key]`` (one entry per board) and
``infos["_key"]`` (a bool array: which boards report the key).  Built with
numpy, the six keys of every step, their masks and the batched searches'
``opponent_search`` took about twenty array operations a step; the kernel
below fills the same arrays (same values, dtypes and zeros where a board
does not report) in one pass over the boards.  Boards whose opponent
reports its search as a dict (per-board Python opponents) are left to
Gymnasium's own merging (:meth:`gymnasium.vector.VectorEnv._add_info`): the
kernel only says whether there are any.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from envs import _kernels as K
from envs._batch import BoardBatch
from games._jit import JIT

INFO_KEYS = ("action_mask", "agent_player", "agent_action", "opponent_action", "winner", "illegal_action")
"""The keys every step's infos hold, in this order (each followed by its ``_key`` mask)."""


@njit(**JIT)
def _fill_infos(meta, mask, present, stat_kind, stat_depth, stat_nodes, stat_score, action_mask, agent_player,  # type: ignore[no-untyped-def]
                agent_action, opponent_action, winner, illegal, searched, depth, nodes, score):  # fmt: skip
    """Fill the info arrays of the boards where ``present`` is True, zeros elsewhere; True if a present board's search
    stats are a dict (``stat_kind == 2``).

    meta : int64[n, N_META], mask : int8[n, n_actions], present : bool[n]
    stat_kind : int8[n], stat_depth, stat_nodes : int64[n], stat_score : float64[n]   (envs._turns.OpponentTurns)
    action_mask : int8[n, n_actions]; agent_player, agent_action, opponent_action, winner : int64[n]; illegal : bool[n]
    searched : bool[n] (present and searched in a batch); depth, nodes : int64[n], score : float64[n]   (outputs)
    """
    dicts = False
    for i in range(meta.shape[0]):
        on = present[i]
        for a in range(mask.shape[1]):
            action_mask[i, a] = mask[i, a] if on else 0
        agent_player[i] = meta[i, K.M_STONE] - 1 if on else 0
        agent_action[i] = meta[i, K.M_PLAYED] if on else 0
        opponent_action[i] = meta[i, K.M_OPP] if on else 0
        winner[i] = meta[i, K.M_WINNER] if on else 0
        illegal[i] = on and meta[i, K.M_ILLEGAL] != 0
        kind = stat_kind[i] if on else 0
        dicts = dicts or kind == 2
        searched[i] = kind == 1
        depth[i] = stat_depth[i] if kind == 1 else 0
        nodes[i] = stat_nodes[i] if kind == 1 else 0
        score[i] = stat_score[i] if kind == 1 else 0.0
    return dicts


def batch_infos(batch: BoardBatch, which: np.ndarray) -> tuple[dict[str, Any], bool]:
    """The infos of the boards ``which`` (int64 indices), and whether per-board search dicts remain to be merged.

    ``opponent_search`` (``depth``, ``nodes``, ``score`` and their masks) is
    there when some board of ``which`` replied with a batched search and no
    board's stats are a dict; with such dicts it is left out for the caller.
    """
    n = batch.n
    if which.size == n:  # every board reports (the common case)
        present = np.ones(n, dtype=bool)
    else:
        present = np.zeros(n, dtype=bool)
        present[which] = True
    values = [np.empty_like(batch.mask)] + [np.empty(n, dtype=np.int64) for _ in range(4)] + [np.empty(n, dtype=bool)]
    searched = np.empty(n, dtype=bool)
    search = [np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.float64)]
    dicts = _fill_infos(batch.meta, batch.mask, present, batch.stat_kind, batch.stat_depth, batch.stat_nodes,
                        batch.stat_score, *values, searched, *search)  # fmt: skip
    infos: dict[str, Any] = {}
    for key, value in zip(INFO_KEYS, values):
        infos[key] = value
        infos[f"_{key}"] = present.copy()
    if batch.groups.groups and not dicts and searched.any():  # only opponents that search report
        infos["opponent_search"] = {"depth": search[0], "_depth": searched.copy(), "nodes": search[1],
                                    "_nodes": searched.copy(), "score": search[2], "_score": searched.copy()}  # fmt: skip
        infos["_opponent_search"] = searched
    return infos, bool(dicts) and bool(batch.groups.groups)
