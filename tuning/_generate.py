"""Generation of a label set: varied self-play, deduplication up to symmetry, exact labels from the solver.

Every game pairs two agents drawn from a pool (random, the rule-based
player, alpha-beta with two heuristics at depths 1 to 6), starts with a few
uniformly random plies and replaces each later move by a random one with a
per-game probability (0 to 0.3, or 1: a wholly random game), so openings, middle games and endings of strong and
weak play all appear.  Each non-terminal position of the game that is not
yet in the set (up to the board's symmetries) is solved with
``moves=True``: its exact score and the score of every legal move.

Budget (measured on this project's machine, Connect-4 6x7, self-play
positions, strong solve of all moves, table kept across a game's positions
solved from the last one back, on the shared 2-core machine under load):
ply 6-7 about 2-4 s (idle) and more, ply 8 2.4 s on average (21 s at worst),
ply 9 1.2 s, ply 10 0.4 s, ply 11-12 0.2 s, ply 13 and later under 0.05 s;
ply 5 and below takes minutes.  So Connect-4 positions start at ``min_ply`` =
8, and plies 8 and 9 (below ``full_ply`` = 10) are labelled in only
``early_share`` (a tenth) of the games: the opening phase stays present while
a game costs about a second on average instead of four.  m,n,k
boards small enough for the solver are cheap from the empty board.

Everything random comes from ``numpy.random.default_rng((seed, game_number))``
and the agents are searched by depth, never by time: a seed gives the same set.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any, Optional, TextIO

import numpy as np

from games import KInARow, Position
from heuristics import get_spec
from search.agents import AgentType, make_agent
from search.solve import DEFAULT_TT_SIZE, Solver
from tuning.openings import canonical_key

Row = tuple[str, int, list[Optional[int]]]
STALE_GAMES = 5000
"""Generation stops after this many games in a row without a new position (the game has no more to give)."""

CONVENTION = ("strong scores from the side to move: 0 draw; (n_cells + 1 - stones before the winning stone) // 2 "
              "if the side to move wins, the negative if it loses; move scores likewise, illegal moves null")  # fmt: skip


@dataclass(frozen=True)
class GenerationSettings:
    """How the self-play positions are drawn (recorded in the file's header)."""

    min_ply: int
    """No position with fewer stones is labelled."""
    full_ply: int
    """Plies from ``min_ply`` up to here (excluded) are labelled in ``early_share`` of the games only."""
    early_share: float
    agents: tuple[str, ...]
    random_rates: tuple[float, ...] = (0.0, 0.05, 0.15, 0.3, 1.0)
    """Per-game probability that a move (after the opening) is uniformly random, drawn among these."""
    opening_plies: int = 4
    """Each game starts with 0 to this many uniformly random plies."""
    tt_size: int = DEFAULT_TT_SIZE

    @classmethod
    def for_game(cls, game: KInARow, min_ply: Optional[int] = None) -> GenerationSettings:
        """The defaults for ``game`` (see the module docstring), optionally another ``min_ply``.

        Raises:
            ValueError: the solver does not handle ``game``, or ``min_ply`` is outside ``0 .. n_cells - 1``.
        """
        Solver(game, tt_size=1 << 9)  # refuses games the solver cannot hold, with its own message
        gravity = game.kind == "connect4"
        if min_ply is None:
            min_ply = 8 if gravity else 0
        if isinstance(min_ply, bool) or not 0 <= min_ply < game.n_cells:
            raise ValueError(f"--min-ply {min_ply} must be from 0 to {game.n_cells - 1} (stones on the board)")
        full_ply = max(min_ply, 10) if gravity else min_ply
        heuristics = [h for h in ("c4_features", "square_values", "windows") if get_spec(h).refuse(game) is None][:2]
        depths = range(1, 7) if gravity else range(1, 5)
        agents = ("random", "rules") + tuple(f"alphabeta:heuristic={h},depth={d}" for h in heuristics for d in depths)
        return cls(min_ply, full_ply, 0.1, agents)


class _Players:
    """The agent pool, built once per spec and reset and reseeded for every game."""

    def __init__(self, game: KInARow, specs: tuple[str, ...]) -> None:
        self.game, self.specs = game, specs
        self._agents: dict[str, AgentType] = {}

    def get(self, spec: str, seed: int) -> AgentType:
        agent = self._agents.get(spec)
        if agent is None:
            agent = self._agents[spec] = make_agent(spec, self.game, seed=seed)
        agent.reset()
        agent.seed(seed)
        return agent


def self_play(game: KInARow, players: _Players, settings: GenerationSettings, rng: np.random.Generator) -> list[Position]:
    """One varied self-play game: every position from the empty board to the last one before the end."""
    sides = [players.get(players.specs[int(rng.integers(len(players.specs)))], int(rng.integers(2**31))) for _ in range(2)]
    rate = settings.random_rates[int(rng.integers(len(settings.random_rates)))]
    opening = int(rng.integers(settings.opening_plies + 1))
    position, seen = game.position(), []
    while not position.is_terminal():
        seen.append(position.copy())
        if position.ply < opening or rng.random() < rate:
            moves = position.legal_moves()
            move = moves[int(rng.integers(len(moves)))]
        else:
            move = sides[position.ply % 2].select_move(position)
        position.play(move)
    return seen


def _label(solver: Solver, position: Position) -> Row:
    result = solver.solve(position, moves=True)
    scores: list[Optional[int]] = [None] * position.game.n_actions
    for action, score in result.move_scores.items():
        scores[action] = score
    return position.move_string(), result.score, scores


def generate(game: KInARow, count: int, seed: int, settings: GenerationSettings, command: str,
             progress: Optional[TextIO] = None) -> tuple[dict[str, Any], list[Row]]:  # fmt: skip
    """Label up to ``count`` distinct positions; return the header (without format and version) and the rows.

    Stops early, with fewer rows, once ``STALE_GAMES`` games in a row bring no new position (tiny games).
    """
    solver, players = Solver(game, settings.tt_size), _Players(game, settings.agents)
    seen: set[bytes] = set()
    rows: list[Row] = []
    started, game_number, stale = time.perf_counter(), 0, 0
    while len(rows) < count and stale < STALE_GAMES:
        rng = np.random.default_rng((seed, game_number))
        trajectory = self_play(game, players, settings, rng)
        floor = settings.min_ply if rng.random() < settings.early_share else settings.full_ply
        fresh = []
        for position in trajectory:
            key = canonical_key(position)
            if position.ply >= floor and key not in seen:
                seen.add(key)
                fresh.append(position)
        fresh = fresh[: count - len(rows)]
        # Late positions first: their table entries make the earlier ones of the same game cheap.
        rows.extend(reversed([_label(solver, position) for position in reversed(fresh)]))
        game_number, stale = game_number + 1, 0 if fresh else stale + 1
        if progress is not None and (game_number % 100 == 0 or len(rows) >= count):
            print(f"{game_number} games, {len(rows)} positions, {time.perf_counter() - started:.0f} s", file=progress)
    header = {
        "game": game.to_record(), "count": len(rows), "seed": seed,
        "command": command, "games": game_number,
        "solver": {"mode": "strong", "tt_size": settings.tt_size, "convention": CONVENTION},
        "generator": {**asdict(settings), "dedup": "board symmetries (tuning.openings.canonical_key)"},
    }  # fmt: skip
    return header, rows
