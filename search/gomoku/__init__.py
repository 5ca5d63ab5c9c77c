"""The gomoku engine, its threat-space search and its puzzles: free boards with ``4 <= k <= 15``.

Public API::

    from search.gomoku import GomokuEngine, find_vcf, find_vct, load_puzzles
    engine = GomokuEngine(MNK(15, 15, 5))              # pattern evaluation, threats inside the search, PVS
    result = engine.search(position, Limit(time_ms=1000))
    find_vcf(position).win                             # a forced win by continuous fours?

Modules: :mod:`~search.gomoku.engine` (the engine and its switches), :mod:`~search.gomoku.player` (the engine
as an alpha-beta agent plays it: threat searches around it, time shares), :mod:`~search.gomoku.threats` (VCF
and VCT, after Allis), :mod:`~search.gomoku.puzzles` (the shipped forced-win puzzles); the kernels are the
private ``_search`` and ``_tss``.  The Gomocup protocol that plays it in managers is :mod:`search.piskvork`.
"""

from search.gomoku.engine import ENGINE_WEIGHTS, SWITCH_NAMES, GomokuEngine
from search.gomoku.puzzles import Puzzle, load_puzzles
from search.gomoku.threats import ThreatResult, find_vcf, find_vct

__all__ = ["ENGINE_WEIGHTS", "GomokuEngine", "Puzzle", "SWITCH_NAMES", "ThreatResult", "find_vcf", "find_vct", "load_puzzles"]
