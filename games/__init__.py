"""The k-in-a-row game family: Connect-4 (gravity) and m,n,k games, on numba kernels.

Public API::

    from games import Connect4, MNK, TIC_TAC_TOE, GOMOKU, Position
    pos = Connect4().position("4453")     # play from the empty board
    pos.play(3); pos.undo()               # O(1) push/pop
    pos.legal_moves(), pos.winner, pos.key(), pos.planes()

Rules live here and nowhere else: heuristics, search and the environments
all go through :class:`Position` or the kernels behind it.
"""

# First of all: a command of this project interrupted while it imports ends in one line, not a traceback, and a
# package named like one of ours that is not ours (PyPI's envs, a folder in the working directory) is refused.
from games import _commands  # isort: skip

__distribution__ = "alphabeta-gym"
_commands.install()
_commands.check_packages()

# The command line ``python -m games.perft`` is a module named as the function: loaded first, so that importing it
# later (``from games.perft import main``) finds it loaded and does not rebind ``games.perft`` to the module.
from games import perft as _perft_cli  # noqa: F401  # isort: skip
from games._perft import PerftRow, perft
from games.errors import AlphabetaError, GameError, IllegalMoveError, InvalidGameError, NotationError
from games.playout import PlayoutStats, random_playout, random_playouts
from games.position import Player, Position
from games.rules import (
    C4_COLS,
    C4_K,
    C4_ROWS,
    CONNECT4,
    GAME_KINDS,
    GOMOKU,
    MAX_SIDE,
    MNK,
    TIC_TAC_TOE,
    Action,
    Connect4,
    KInARow,
    game_from_record,
    make_game,
)

__all__ = [
    "Action", "AlphabetaError", "C4_COLS", "C4_K", "C4_ROWS", "CONNECT4", "Connect4", "GAME_KINDS", "GOMOKU", "GameError",
    "IllegalMoveError", "InvalidGameError", "KInARow", "MAX_SIDE", "MNK", "NotationError", "PerftRow",
    "Player", "PlayoutStats", "Position", "TIC_TAC_TOE", "game_from_record", "make_game", "perft", "random_playout",
    "random_playouts",
]  # fmt: skip
