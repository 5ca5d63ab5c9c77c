"""PettingZoo AEC environments for two learners: ``connect4_v0`` and ``mnk_v0`` (needs the ``rl`` extra).

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

__all__ = ["KInARowAEC", "connect4_v0", "mnk_v0"]
