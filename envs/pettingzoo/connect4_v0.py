"""``connect4_v0``: Connect-4 of any size for two learners, PettingZoo's ``env()`` / ``raw_env()`` shape."""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from envs.pettingzoo._aec import KInARowAEC
from envs.pettingzoo._parallel import KInARowParallel
from games import C4_COLS, C4_K, C4_ROWS, Connect4


def raw_env(rows: int = C4_ROWS, cols: int = C4_COLS, k: int = C4_K, exact_k: bool = False, **options: Any) -> KInARowAEC:
    """The unwrapped AEC env; ``options``: ``illegal_action``, ``illegal_reward``, ``render_mode`` (see :class:`KInARowAEC`)."""
    return KInARowAEC(Connect4(rows, cols, k, exact_k), name="connect4_v0", **options)


def env(**kwargs: Any) -> wrappers.OrderEnforcingWrapper:
    """``raw_env(**kwargs)`` behind PettingZoo's ``OrderEnforcingWrapper`` (reset before step, no stale calls)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


def parallel_env(rows: int = C4_ROWS, cols: int = C4_COLS, k: int = C4_K, **options: Any) -> KInARowParallel:
    """The parallel-API env (self-play with both seats in one step); ``options`` as for :class:`KInARowParallel`."""
    return KInARowParallel(Connect4(rows, cols, k), name="connect4_v0", **options)
