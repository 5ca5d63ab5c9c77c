"""The gomoku engine as an alpha-beta agent plays it: threat-space searches around the engine, and their time shares.

An :class:`search.agents.AlphaBetaAgent` on a free board with ``4 <= k <= 15`` (heuristic ``gomoku`` or none)
moves through a :class:`GomokuPlayer`: its own VCF or VCT proved at the root is played at once; else the engine
(:class:`search.gomoku.GomokuEngine`) searches, and its move is checked against the opponent's VCF and VCT
(:func:`search.gomoku.threats.guard_threats`: else the engine's next best move that leaves none).  The shares
of a timed move and the threat searches' budgets below are this player's own settings; the agent registry
(:mod:`search.agents.kinds`) registers the player once, with the spec keys it adds (:data:`SWITCH_NAMES`).
"""

from __future__ import annotations

import time
from typing import Mapping, Optional

import numpy as np

from games import Action, KInARow, Position
from heuristics import Evaluator
from heuristics._gomoku import refuse_game
from search.budget import Limit
from search.gomoku.engine import ENGINE_WEIGHTS, SWITCH_NAMES, TT_SLOT_BYTES, GomokuEngine, check_switches, phase_seconds
from search.gomoku.threats import DEFAULT_VCT_DEPTH, guard_threats, threat_move
from search.result import SearchResult
from search.tt import check_table_size

__all__ = [
    "ENGINE_WEIGHTS", "GOMOKU_GUARD_NODES", "GOMOKU_GUARD_VCT_DEPTH", "GOMOKU_TSS_NODES", "GUARD_CANDIDATES",
    "GUARD_SHARE", "GomokuPlayer", "SWITCH_NAMES", "check_switches",
]  # fmt: skip

GUARD_SHARE = 0.15
"""Share of a timed gomoku-engine move kept for the check that it leaves the opponent no VCF or VCT."""
GOMOKU_TSS_NODES = 20_000
"""The gomoku engine's threat-search budget (``tss_nodes`` not given): its own VCF and VCT at the root, and each
check of the opponent's after a candidate move (some 20-70 ms on 15x15; the attacks that won or lost the engine's
games from balanced openings took 5,000 to 65,000 nodes to find, beyond the generic agents' 2,000)."""
GOMOKU_GUARD_NODES = 2_000_000
"""The timed gomoku engine's check of its move against the opponent's VCF and VCT (``tss_nodes`` not given): this
many nodes at most, and the clock stops it first (it runs to the move's deadline, :func:`search.gomoku.engine.phase_seconds`).
The attacks that decided the engine's games at 1 s a move from balanced openings took the threat search 29,000 to
166,000 nodes (0.1 to 0.6 s) to prove, where the check had 20,000; the engine's iterations stop at half the move, so
the rest of the move is the check's."""
GOMOKU_GUARD_VCT_DEPTH = 13
"""The longest opponent's VCT (plies) the timed gomoku engine's check looks for, with :data:`GOMOKU_GUARD_NODES`
(untimed it keeps :data:`search.gomoku.threats.DEFAULT_VCT_DEPTH`): five of the six games the engine lost in one seed of the
balanced-openings match were lost to 13-ply VCTs the 11-ply check had not seen."""
GUARD_CANDIDATES = 16
"""Moves the gomoku engine's threat guard checks at most (the engine's best first) when no clock bounds it."""


class GomokuPlayer:
    """The gomoku engine with the threat searches around it, as an alpha-beta agent's way of choosing a move.

    Args:
        game: a free board with ``4 <= k <= 15`` (:meth:`plays`).
        evaluator: the ``gomoku`` evaluator whose weights the engine's pattern table takes.
        tt_size: the engine's table slots (at least 1,024; :data:`search.gomoku.engine.TT_SLOT_BYTES` each).
        tss_nodes: the threat searches' node budget (None: :data:`GOMOKU_TSS_NODES`, and with a clock the check
            gets :data:`GOMOKU_GUARD_NODES`); also the engine's root VCF budget when given.
        switches: the engine's threat-search switches by name (:data:`SWITCH_NAMES`), checked first.
    """

    name = "gomoku"
    switch_names = SWITCH_NAMES
    """The spec keys this player adds to ``alphabeta`` (integers)."""

    def __init__(self, game: KInARow, evaluator: Evaluator, tt_size: int, tss_nodes: Optional[int] = None,
                 switches: Optional[Mapping[str, int]] = None) -> None:  # fmt: skip
        checked = check_switches(switches or {})  # before the table: a bad value costs no allocation
        slots = check_table_size("tt_size", tt_size, TT_SLOT_BYTES)
        self.tss_nodes = tss_nodes
        self.engine = GomokuEngine(game, evaluator.weights, tt_bits=max(10, slots.bit_length() - 1))
        if tss_nodes is not None:
            self.engine.root_vcf = tss_nodes
        self.engine.set_switches(checked)

    @staticmethod
    def plays(game: KInARow, heuristic: str) -> bool:
        """True on a free board (no gravity) with ``4 <= k <= 15`` when the agent's heuristic is ``gomoku``."""
        return heuristic == "gomoku" and refuse_game(game) is None

    @staticmethod
    def default_weights() -> Mapping[str, float]:
        """The weights under those given by name: the engine's tuned table (:data:`ENGINE_WEIGHTS`)."""
        return ENGINE_WEIGHTS

    def move(self, position: Position, limit: Limit, rng: Optional[np.random.Generator] = None) -> tuple[Action, SearchResult]:
        """The engine's move, with the threat searches around it (module docstring).  Both search with the
        player's ``tss_nodes`` (None: :data:`GOMOKU_TSS_NODES`, and with a clock the check gets
        :data:`GOMOKU_GUARD_NODES` up to the move's deadline and looks for VCTs up to
        :data:`GOMOKU_GUARD_VCT_DEPTH` plies); the engine gets the time the first left, less
        :data:`GUARD_SHARE` of the move for the guard.  ``rng`` is not used: the engine breaks ties by its own order.

        Returns:
            The move to play, and the search that chose it (the root threat search's proof, or the engine's
            search, whose move the guard may have replaced).
        """
        nodes = GOMOKU_TSS_NODES if self.tss_nodes is None else self.tss_nodes
        wide = self.tss_nodes is None and limit.time_ms is not None
        guard_nodes = GOMOKU_GUARD_NODES if wide else nodes
        guard_depth = GOMOKU_GUARD_VCT_DEPTH if wide else DEFAULT_VCT_DEPTH
        begun = time.perf_counter()
        # the threat searches stop at the engine's own margin (measured lateness aside), the check after the search too
        deadline = None if limit.time_ms is None else begun + phase_seconds(position.game, limit.time_ms)
        proved = threat_move(position, nodes, deadline)
        if proved is not None:
            return proved.move, proved
        most = GUARD_CANDIDATES
        if limit.time_ms is not None:
            most = len(position.legal_moves())
            spent_ms = (time.perf_counter() - begun) * 1000.0
            limit = limit.replace(time_ms=max(limit.time_ms * (1.0 - GUARD_SHARE) - spent_ms, 1.0))
        result = self.engine.search(position, limit)
        order = self.engine.root_order[1 : most + 1]
        move, _ = guard_threats(position, result.move, order, guard_nodes, deadline, guard_depth)
        return move, result

    def reset(self) -> None:
        """A new game: the engine's table and pattern state start afresh."""
        self.engine.reset()
