"""``mnk_v0``: m,n,k games (tic-tac-toe, gomoku, ...) for two learners, PettingZoo's ``env()`` / ``raw_env()`` shape."""

from __future__ import annotations

from typing import Any, Optional

from pettingzoo.utils import wrappers

from envs.pettingzoo._aec import KInARowAEC
from envs.pettingzoo._parallel import KInARowParallel
from games import TIC_TAC_TOE, make_game


def raw_env(rows: Optional[int] = None, cols: Optional[int] = None, k: Optional[int] = None, exact_k: bool = False,
            **options: Any) -> KInARowAEC:  # fmt: skip
    """The unwrapped AEC env; ``options`` as for :class:`KInARowAEC`.

    Give all of ``rows``, ``cols`` and ``k`` (as ``alphabeta/MNK-v0`` needs),
    or none for tic-tac-toe (3,3,3); ``exact_k=True`` for the exact-k rule.

    Raises:
        InvalidGameError: some of ``rows``, ``cols``, ``k`` but not all (a
            silent default for the others would play another game than meant).
    """
    if rows is None and cols is None and k is None:
        rows, cols, k = TIC_TAC_TOE.rows, TIC_TAC_TOE.cols, TIC_TAC_TOE.k
    return KInARowAEC(make_game("mnk", rows, cols, k, exact_k=exact_k), name="mnk_v0", **options)


def env(**kwargs: Any) -> wrappers.OrderEnforcingWrapper:
    """``raw_env(**kwargs)`` behind PettingZoo's ``OrderEnforcingWrapper``."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


def parallel_env(rows: Optional[int] = None, cols: Optional[int] = None, k: Optional[int] = None,
                 **options: Any) -> KInARowParallel:  # fmt: skip
    """The parallel-API env; sizes as for :func:`raw_env` (none: tic-tac-toe), ``options`` as for :class:`KInARowParallel`."""
    if rows is None and cols is None and k is None:
        rows, cols, k = TIC_TAC_TOE.rows, TIC_TAC_TOE.cols, TIC_TAC_TOE.k
    return KInARowParallel(make_game("mnk", rows, cols, k), name="mnk_v0", **options)
