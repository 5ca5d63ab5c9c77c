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

from gymnasium.envs.registration import register

from envs.connect4_env import Connect4Env
from envs.core import KInARowEnv
from envs.mnk_env import GomokuEnv, MNKEnv, TicTacToeEnv

ENV_IDS = ("alphabeta/Connect4-v0", "alphabeta/MNK-v0", "alphabeta/TicTacToe-v0", "alphabeta/Gomoku-v0")

register(id="alphabeta/Connect4-v0", entry_point="envs.connect4_env:Connect4Env",
         vector_entry_point="envs.vector:connect4_vector_env")  # fmt: skip
register(id="alphabeta/MNK-v0", entry_point="envs.mnk_env:MNKEnv", vector_entry_point="envs.vector:mnk_vector_env")
register(id="alphabeta/TicTacToe-v0", entry_point="envs.mnk_env:TicTacToeEnv",
         vector_entry_point="envs.vector:tictactoe_vector_env")  # fmt: skip
register(id="alphabeta/Gomoku-v0", entry_point="envs.mnk_env:GomokuEnv", vector_entry_point="envs.vector:gomoku_vector_env")

__all__ = ["Connect4Env", "ENV_IDS", "GomokuEnv", "KInARowEnv", "MNKEnv", "TicTacToeEnv"]
