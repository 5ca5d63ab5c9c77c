"""What a search returns (:class:`SearchResult`) and how deep it may go (:data:`MAX_DEPTH`).

Shared by :func:`search.alphabeta.engine.search`, the kept per-agent searcher
(:mod:`search.alphabeta._bitsearcher`), the batched searches and the threat-space
search, so none of them has to import the engine for its result type.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import Action


@dataclass(frozen=True)
class SearchResult:
    """What a search found."""

    move: Action
    """Best move of the deepest completed iteration."""
    score: float
    """Its value from the side to move (see :mod:`search.protocol` for win scores)."""
    depth: int
    """Deepest completed iteration."""
    nodes: int
    """Nodes visited in all iterations, the aborted one included."""
    seconds: float
    pv: tuple[Action, ...]
    """Principal variation from the searched position (may stop short at a table hit)."""
    threat_depth: int = 0
    """Longest forced line (plies) a threat search proved, counted apart from :attr:`depth` (gomoku engine)."""
    threat_nodes: int = 0
    """Fours tried by the threat searches (gomoku engine; 0 elsewhere)."""
    selective_depth: int = 0
    """Deepest ply the tree reached with forced-reply extensions (gomoku engine; 0 elsewhere)."""


MAX_DEPTH = 128
"""The deepest iteration a search runs (boards with more empty cells than this stop there).

The array kernel's per-ply buffers are sized by the depth searched, not by
the cells left, so memory stays O(depth x cells): a 100x100 board needs a
few tens of MB, not the gigabytes of one row per empty cell."""
