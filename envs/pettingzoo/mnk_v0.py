"""``mnk_v0``: m,n,k games (tic-tac-toe, gomoku, ...) for two learners, PettingZoo's ``env()`` / ``raw_env()`` shape."""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from envs.pettingzoo._aec import KInARowAEC
from games import MNK


def raw_env(rows: int = 3, cols: int = 3, k: int = 3, **options: Any) -> KInARowAEC:
    """The unwrapped AEC env (tic-tac-toe by default); ``options`` as for :class:`KInARowAEC`."""
    return KInARowAEC(MNK(rows, cols, k), name="mnk_v0", **options)


def env(**kwargs: Any) -> wrappers.OrderEnforcingWrapper:
    """``raw_env(**kwargs)`` behind PettingZoo's ``OrderEnforcingWrapper``."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
