"""PettingZoo environments for two learners: ``connect4_v0`` and ``mnk_v0`` (needs the ``rl`` extra).

Each module has ``env()``/``raw_env()`` (the AEC API, :class:`KInARowAEC`) and
``parallel_env()`` (the parallel API, :class:`KInARowParallel`: both agents
send an action each step, the one to move plays).

Example:
    >>> from envs.pettingzoo import connect4_v0
    >>> env = connect4_v0.env(rows=6, cols=7, k=4)
    >>> env.reset(seed=0)
    >>> obs, reward, terminated, truncated, info = env.last()
    >>> obs["observation"].shape, obs["action_mask"].tolist()
    ((2, 6, 7), [1, 1, 1, 1, 1, 1, 1])
"""

from envs.pettingzoo import connect4_v0, mnk_v0
from envs.pettingzoo._aec import KInARowAEC
from envs.pettingzoo._parallel import KInARowParallel

__all__ = ["KInARowAEC", "KInARowParallel", "connect4_v0", "mnk_v0"]
