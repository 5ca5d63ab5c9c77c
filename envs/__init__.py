"""Gymnasium environments for the k-in-a-row games, with alpha-beta (or any other) opponents.

``import envs`` registers, in the ``alphabeta`` namespace:

=========================  ============================================  ===========================
id                         game                                          class
=========================  ============================================  ===========================
alphabeta/Connect4-v0      Connect-4, ``rows``/``cols``/``k`` (6, 7, 4)  :class:`Connect4Env`
alphabeta/MNK-v0           m,n,k, ``rows``, ``cols``, ``k`` required     :class:`MNKEnv`
alphabeta/TicTacToe-v0     3,3,3                                         :class:`TicTacToeEnv`
alphabeta/Gomoku-v0        freestyle gomoku 15,15,5                      :class:`GomokuEnv`
=========================  ============================================  ===========================

Each also has a batched vector entry point (:mod:`envs.vector`):
``gym.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point")``.
The PettingZoo AEC versions for two learners are in :mod:`envs.pettingzoo`
(needs the ``rl`` extra), and ``python -m envs.play`` plays in a terminal.
"""

__distribution__ = "alphabeta-gym"  # games._commands.check_packages reads this line

try:  # first: a command interrupted while importing ends in one line, and packages named like ours must be ours
    from games import _commands  # isort: skip
except ImportError as error:  # a foreign `games` (a folder in the working directory, say) shadows alphabeta-gym's
    raise (error if error.name != "games" else ImportError(f"alphabeta-gym's 'games' is shadowed: {error}: rename that")) from None
_commands.check_packages()
from gymnasium.envs.registration import register

from envs.connect4_env import Connect4Env
from envs.core import EpisodeNotStarted, KInARowEnv
from envs.mnk_env import GomokuEnv, MNKEnv, TicTacToeEnv

# gym.make adds no OrderEnforcing and no PassiveEnvChecker: the env refuses step() and render() before reset()
# itself (EpisodeNotStarted, a ResetNeeded as OrderEnforcing raises), and the tests run Gymnasium's check_env and
# SB3's on it; the two wrappers' pass-through calls were 0.3-0.4 us of a 5 us Connect-4 step.
# gym.make(..., disable_env_checker=False) still adds the checker.
_ENTRY_POINTS = (
    ("alphabeta/Connect4-v0", "envs.connect4_env:Connect4Env", "envs.vector:connect4_vector_env"),
    ("alphabeta/MNK-v0", "envs.mnk_env:MNKEnv", "envs.vector:mnk_vector_env"),
    ("alphabeta/TicTacToe-v0", "envs.mnk_env:TicTacToeEnv", "envs.vector:tictactoe_vector_env"),
    ("alphabeta/Gomoku-v0", "envs.mnk_env:GomokuEnv", "envs.vector:gomoku_vector_env"),
)
ENV_IDS = tuple(env_id for env_id, _, _ in _ENTRY_POINTS)
for _id, _entry, _vector_entry in _ENTRY_POINTS:
    register(id=_id, entry_point=_entry, vector_entry_point=_vector_entry, order_enforce=False, disable_env_checker=True)

__all__ = ["Connect4Env", "ENV_IDS", "EpisodeNotStarted", "GomokuEnv", "KInARowEnv", "MNKEnv", "TicTacToeEnv"]
