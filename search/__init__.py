"""Negamax alpha-beta search, plain minimax, and agents.

Public API::

    from search import search, minimax, Limit, TranspositionTable, WIN_SCORE
    result = search(position, Evaluator("c4_features", CONNECT4), Limit(depth=6, branching=4))
    result = search(position, Evaluator("c4_features", CONNECT4), depth=6, branching=4)   # the same search
    result.move, result.score, result.depth, result.nodes, result.pv
"""

__distribution__ = "alphabeta-gym"  # games._commands.check_packages reads this line

try:  # first: a command interrupted while importing ends in one line, and packages named like ours must be ours
    from games import _commands  # isort: skip
except ImportError as error:  # a foreign `games` (a folder in the working directory, say) shadows alphabeta-gym's
    raise (error if error.name != "games" else ImportError(f"alphabeta-gym's 'games' is shadowed: {error}: rename that")) from None
_commands.check_packages()
from search.alphabeta.engine import SearchResult, TranspositionTable, calibrate, minimax, minimax_scores, search
from search.budget import Limit, LimitError
from search.protocol import HEURISTIC_LIMIT, WIN_SCORE, Agent, is_win_score, plies_to_end

__all__ = [
    "Agent", "HEURISTIC_LIMIT", "Limit", "LimitError", "SearchResult", "TranspositionTable", "WIN_SCORE", "calibrate",
    "is_win_score", "minimax", "minimax_scores", "plies_to_end", "search",
]  # fmt: skip
