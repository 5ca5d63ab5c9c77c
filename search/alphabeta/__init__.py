"""The alpha-beta core: iterative-deepening negamax with a transposition table, over any registered heuristic.

Public API::

    from search.alphabeta import search, minimax, calibrate
    result = search(position, Evaluator("c4_features", CONNECT4), Limit(depth=6, branching=4))

:func:`search` runs on bitboards where the game fits a 64-bit word with gravity (Connect-4 and its kin,
:mod:`~search.alphabeta._bitnegamax`) and on array boards elsewhere (:mod:`~search.alphabeta._negamax`);
:func:`minimax` is the plain-minimax reference the tests hold it to.  :mod:`~search.alphabeta.engine`
documents the budgets; the kernels are private modules of this package.
"""

from search.alphabeta.engine import calibrate, generic_heuristic, minimax, minimax_scores, search, uses_bitboards

__all__ = ["calibrate", "generic_heuristic", "minimax", "minimax_scores", "search", "uses_bitboards"]
