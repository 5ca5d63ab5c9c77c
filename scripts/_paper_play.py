"""The games behind ``reproduce_paper.py``: agent specs of the paper's players, and the worker-side loops.

Paired games (each opening twice, colours swapped) go through
:class:`tuning.match.MatchRunner`.  Two things it does not do live here, as
picklable tasks for a spawned pool:

* :func:`play_fixed_game`: one game in which the first-named player always
  moves first (the paper's Table 6 protocol);
* :func:`profile_game`: one self-play game that measures, at every position,
  the nodes and time of plain minimax, of alpha-beta without table and
  ordering, and of the full alpha-beta agent (the paper's Figures 12 and 13);
* :func:`opening_value`: an opening's exact value (the solver), to pick the
  balanced openings of the games against perfect play.

Imported as ``from scripts._paper_play import ...``: the repository root is on
the path of the script (``python -m scripts.reproduce_paper``) and of its spawned workers.
"""

from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass
from typing import Callable, Iterator, Optional, Sequence, TypeVar

from games import CONNECT4, Position
from heuristics import Evaluator, get_spec, load_weights
from search.agents import AlphaBetaAgent
from search.alphabeta.engine import TranspositionTable, minimax, search
from search.solve import solve
from tuning.match import cached_agent, play_game

FEATURE_GROUPS: dict[str, tuple[str, ...]] = {
    "F1": ("f1_four",),
    "F2": ("f2_three_open", "f2_three_half", "f2_three_closed", "f2_broken_three"),
    "F3": ("f3_two_open", "f3_two_side", "f3_two_closed"),
    "F4": ("f4_col_d", "f4_col_ce", "f4_col_bf", "f4_col_ag"),
}
"""The paper's four features (Table 1) as groups of ``c4_features`` weights."""


def alphabeta_spec(heuristic: str, depth: int, random_every: int = 0, weights: Optional[dict[str, float]] = None) -> str:
    """The agent spec of an alpha-beta player searching to a fixed ``depth`` (no node budget, all moves).

    Weights go into the spec by name (``repr`` keeps every digit), so a tuned
    weight file's node budget and branching factor are *not* inherited: the
    paper's comparisons are at equal depth.
    """
    parts = [f"heuristic={heuristic}", f"depth={depth}"]
    if random_every:
        parts.append(f"random_every={random_every}")
    parts += [f"{name}={value!r}" for name, value in sorted((weights or {}).items())]
    return "alphabeta:" + ",".join(parts)


def feature_weights(features: Sequence[str]) -> dict[str, float]:
    """``c4_features`` weights with only the paper's ``features`` (e.g. ``("F4", "F3")``) on, at their defaults."""
    unknown = [f for f in features if f not in FEATURE_GROUPS]
    if unknown:
        raise ValueError(f"unknown feature(s) {unknown}: use {', '.join(FEATURE_GROUPS)}")
    keep = {name for f in features for name in FEATURE_GROUPS[f]}
    return {w.name: (w.default if w.name in keep else 0.0) for w in get_spec("c4_features").weights}


def file_weights(path: str) -> dict[str, float]:
    """The weights of a Connect-4 weight file (its search settings are ignored, see :func:`alphabeta_spec`)."""
    return dict(load_weights(path, CONNECT4).weights)


@dataclass(frozen=True)
class FixedGame:
    """One game, ``spec_first`` to move after ``opening`` (picklable task)."""

    spec_first: str
    spec_second: str
    opening: tuple[int, ...]
    seeds: tuple[int, int]


@dataclass(frozen=True)
class FixedResult:
    """The first player's score (1, 1/2, 0), the plies played, and each side's search nodes and searched moves."""

    score: float
    plies: int
    nodes: tuple[int, int]
    searched: tuple[int, int]


def play_fixed_game(task: FixedGame) -> FixedResult:
    """Play one game of :class:`FixedGame` with freshly reset agents."""
    first = cached_agent(CONNECT4, task.spec_first, 0, task.seeds[0])
    second = cached_agent(CONNECT4, task.spec_second, 1, task.seeds[1])
    score, plies, nodes, searched = play_game(CONNECT4.position(task.opening), first, second)
    return FixedResult(score, plies, (nodes[0], nodes[1]), (searched[0], searched[1]))


@dataclass(frozen=True)
class ProfileGame:
    """A ``c4_features`` self-play game at ``depth``, profiled at every position (picklable task)."""

    depth: int
    opening: tuple[int, ...]
    seeds: tuple[int, int]
    random_every: int


PROFILES = ("minimax", "alpha-beta", "alpha-beta + TT + ordering")
"""What :func:`profile_game` measures: no pruning; pruning only (the paper's); our agent's full search."""


@dataclass(frozen=True)
class MoveProfile:
    """Nodes and seconds of each of :data:`PROFILES` at the position before ply ``ply`` (1-based)."""

    ply: int
    nodes: tuple[int, int, int]
    seconds: tuple[float, float, float]


def profile_position(position: Position, depth: int) -> MoveProfile:
    """Search ``position`` to ``depth`` the three ways of :data:`PROFILES` and time each.

    The alpha-beta rows count every iteration of the iterative deepening
    (what the agent really pays).  The full search gets an agent-sized table,
    emptied before the clock starts, so its time is the search's, not the
    table's allocation.
    """
    evaluator, table = _profiling_tools()
    started = time.perf_counter()
    _, mm_nodes = minimax(position, evaluator, depth)
    mm_seconds = time.perf_counter() - started
    bare = search(position, evaluator, depth=depth, use_tt=False, ordering=False)
    table.clear()
    full = search(position, evaluator, depth=depth, tt=table)
    return MoveProfile(position.ply + 1, (mm_nodes, bare.nodes, full.nodes), (mm_seconds, bare.seconds, full.seconds))


_TOOLS: list[tuple[Evaluator, TranspositionTable]] = []


def _profiling_tools() -> tuple[Evaluator, TranspositionTable]:
    """The default ``c4_features`` evaluator and a table, built once per process; the first call also runs
    each of the three searches once, so no measured move pays for loading the compiled kernels."""
    if not _TOOLS:
        evaluator, table = Evaluator("c4_features", CONNECT4), TranspositionTable(1 << 18)
        warm = CONNECT4.position("44")
        minimax(warm, evaluator, 2)
        search(warm, evaluator, depth=2, use_tt=False, ordering=False)
        search(warm, evaluator, depth=2, tt=table)
        _TOOLS.append((evaluator, table))
    return _TOOLS[0]


def profile_game(task: ProfileGame) -> list[MoveProfile]:
    """Play the opening's moves, then ``c4_features`` self-play at ``depth``; profile the position before every ply."""
    spec = alphabeta_spec("c4_features", task.depth, task.random_every)
    agents = [cached_agent(CONNECT4, spec, side, seed) for side, seed in enumerate(task.seeds)]
    position = CONNECT4.position()
    profiles = []
    while not position.is_terminal():
        profiles.append(profile_position(position, task.depth))
        if position.ply < len(task.opening):
            position.play(task.opening[position.ply])
        else:
            agent = agents[(position.ply - len(task.opening)) % 2]
            assert isinstance(agent, AlphaBetaAgent)
            position.play(agent.select_move(position))
    return profiles


Task = TypeVar("Task")
Result = TypeVar("Result")


def opening_value(opening: Sequence[int]) -> float:
    """The exact value of the position after ``opening`` for the side to move: 1 won, 1/2 drawn, 0 lost."""
    score = solve(CONNECT4.position(opening), weak=True).score
    return 1.0 if score > 0 else (0.0 if score < 0 else 0.5)


class Pool:
    """A spawned worker pool (``workers=1``: in-process) that maps tasks in order."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool = multiprocessing.get_context("spawn").Pool(workers) if workers > 1 else None

    def imap(self, function: Callable[[Task], Result], tasks: Sequence[Task]) -> Iterator[Result]:
        """Results of ``function`` over ``tasks``, in task order."""
        if self._pool is None:
            return map(function, tasks)
        return self._pool.imap(function, tasks)

    def close(self) -> None:
        """Stop the workers."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
