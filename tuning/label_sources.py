"""Where a label set's values come from: the exact solver, a deep search, or the outcome of self-play.

A label is the probability that the side to move wins (1 a win, 1/2 a draw,
0 a loss), the target of Texel's fit (:mod:`tuning.texel`).  Three sources
make them, each from positions of self-play games (:func:`tuning._generate.generate`
plays the games in parallel and keeps each position once, up to symmetry):

- ``solver``: the exact value and the exact value of every move
  (:mod:`search.solve`), from varied self-play (random, rules and shallow
  alpha-beta players).  Connect-4 boards whose bitboard fits 64 bits and small
  m,n,k boards only, and only from the ply on where solving is fast
  (``min_ply``).  The only source the blunder rate (:mod:`tuning.blunders`) can use.
- ``search``: the value of a deep search (``deep``, by default the board's
  strongest default evaluator at 20 times the tuner's node budget) of quiet
  positions of games between decent players (``player``).  A proven win or
  loss is 1 or 0; any other score ``s`` becomes ``sigmoid(s / scale)``, with
  the scale fitted so that the deep scores best predict the outcomes of the
  games the positions came from (Texel's ``K``, fitted on the training part).
- ``selfplay``: the outcome of the game each quiet position came from, as in
  Texel's original method: cheap, and noisy (a game's result says little
  about a position 30 plies before its end).

A position is **quiet** when neither side can win with its next stone:
tactics a search sees at once make poor examples for a static evaluation.

Another source (an opening book, say) joins with :func:`register_source`;
each labels one self-play game at a time, in a worker process, and may
finish the whole set in the parent (:meth:`LabelSource.finish`).

Which source for which game: measured, not assumed.  See the tuning guide's
label comparison; :func:`default_source` encodes the result.
"""

from __future__ import annotations

import functools
import math
from dataclasses import asdict, dataclass, replace
from typing import Any, Callable, ClassVar, Optional, Sequence

import numpy as np

from games import KInARow, Position
from games._board import _wins_through
from heuristics import get_spec
from search.agents import AgentType, make_agent
from search.agents.openings import canonical_key, default_opening_radius, random_move
from search.protocol import WIN_SCORE, is_win_score
from tuning._logistic import fit_scale


@dataclass(frozen=True)
class Row:
    """One labelled position, as a label file stores it.

    Attributes:
        moves: the move string from the empty board.
        score: the solver's exact score (``solver``), the deep search's score rounded (``search``), or the
            outcome of the game, 1 / 0 / -1 (``selfplay``); all from the side to move.
        move_scores: the exact score of every action (None where illegal), ``solver`` only.
        target: the probability that the side to move wins, the fit's target.
        outcome: the result of the self-play game the position came from, from the side to move (1 / 0.5 / 0),
            where the source played one.
        game: the self-play game's number (the held-out split never cuts a game in two).
    """

    moves: str
    score: int
    move_scores: Optional[list[Optional[int]]]
    target: float
    outcome: Optional[float] = None
    game: int = 0


def immediate_win(position: Position, player: int) -> bool:
    """True if ``player`` (0 or 1) would win by putting a stone on some cell playable now.

    The side not to move cannot be played for through :class:`games.Position`, so the stone goes on a copy of
    the board and the rules' own win test (the games package's kernel) judges it.
    """
    game = position.game
    grid = position.board()
    board, rules = grid.ravel(), game.rules
    for action in position.legal_moves():
        if game.gravity:  # the lowest empty cell of the column (row 0 is the top)
            cell = int(np.flatnonzero(grid[:, action] == 0)[-1]) * game.cols + action
        else:
            cell = action
        board[cell] = player + 1
        won = _wins_through(board, rules, cell)
        board[cell] = 0
        if won:
            return True
    return False


def is_quiet(position: Position) -> bool:
    """Neither side can win with its next stone (no win to take, none to block)."""
    return not (immediate_win(position, position.to_move) or immediate_win(position, 1 - position.to_move))


@functools.lru_cache(maxsize=8)
def _agent(game: KInARow, spec: str, side: int) -> AgentType:
    """A worker's agents, built once per process (``side`` keys it only: two of one spec in a game)."""
    return make_agent(spec, game)


def _fresh(game: KInARow, spec: str, side: int, seed: int) -> AgentType:
    agent = _agent(game, spec, side)
    agent.reset()
    agent.seed(seed)
    return agent


def strongest_default(game: KInARow) -> str:
    """The evaluator whose defaults play best on ``game`` at the tuner's budgets: ``gomoku`` where the gomoku
    engine plays it (a free board with ``4 <= k <= 15``; on 9,9,5 at 1000 nodes it beat the ``threats`` defaults by
    131 Elo [+88, +166] over 50 pairs), ``threats`` elsewhere (on Connect-4 it beats every other evaluator's
    defaults; the tuning guide's gauntlet tables)."""
    from search.agents.alphabeta import uses_gomoku_engine

    return "gomoku" if uses_gomoku_engine(game, "gomoku") else "threats"


class LabelSource:
    """A way to label positions; subclasses set :attr:`name` and implement :meth:`label_game`.

    Instances are frozen dataclasses (they travel to worker processes).
    """

    name: ClassVar[str] = ""
    exact: ClassVar[bool] = False
    """True if every label is the game-theoretic value (and move values are stored): blunder rates need it."""

    def refuse(self, game: KInARow) -> Optional[str]:
        """None if the source can label ``game``; else why not (one line)."""
        return None

    def label_game(self, game: KInARow, seed: int, number: int) -> list[Row]:
        """Play self-play game ``number`` (seeded by ``(seed, number)``) and label some of its positions."""
        raise NotImplementedError

    def finish(self, rows: list[Row], train: int) -> tuple[list[Row], dict[str, Any]]:
        """The set's last step, in the parent: all rows in game order (the first ``train`` of them for fitting),
        returned with any setting found on the way (recorded in the header)."""
        return rows, {}

    def settings(self) -> dict[str, Any]:
        """The header's record of this source (name and settings)."""
        return {"name": self.name, **asdict(self)}  # type: ignore[call-overload]


SOURCES: dict[str, Callable[..., LabelSource]] = {}
"""Label sources by name: a factory ``(game, **options) -> LabelSource`` each."""


def register_source(name: str, factory: Callable[..., LabelSource]) -> None:
    """Make ``name`` a source ``python -m tuning.labels --source`` and the tuner accept."""
    SOURCES[name] = factory


def make_source(name: str, game: KInARow, **options: Any) -> LabelSource:
    """The source called ``name`` for ``game``, with ``options`` (None values are the source's defaults).

    Raises:
        ValueError: an unknown name, or a source that cannot label ``game`` (one line each).
    """
    if name not in SOURCES:
        raise ValueError(f"unknown label source {name!r}: choose from {', '.join(SOURCES)}")
    source = SOURCES[name](game, **{k: v for k, v in options.items() if v is not None})
    why = source.refuse(game)
    if why is not None:
        raise ValueError(f"--source {name}: {why}")
    return source


# --------------------------------------------------------------------------- the exact solver

CONVENTION = ("strong scores from the side to move: 0 draw; (n_cells + 1 - stones before the winning stone) // 2 "
              "if the side to move wins, the negative if it loses; move scores likewise, illegal moves null")  # fmt: skip


@dataclass(frozen=True)
class SolverSource(LabelSource):
    """Exact values from varied self-play (see :mod:`tuning._generate` for the budget by ply)."""

    name: ClassVar[str] = "solver"
    exact: ClassVar[bool] = True
    min_ply: int = 0
    """No position with fewer stones is labelled."""
    full_ply: int = 0
    """Plies from ``min_ply`` up to here (excluded) are labelled in ``early_share`` of the games only."""
    early_share: float = 0.1
    agents: tuple[str, ...] = ()
    random_rates: tuple[float, ...] = (0.0, 0.05, 0.15, 0.3, 1.0)
    """Per-game probability that a move (after the opening) is uniformly random, drawn among these."""
    opening_plies: int = 4
    """Each game starts with 0 to this many uniformly random plies."""
    tt_size: int = 1 << 22

    def refuse(self, game: KInARow) -> Optional[str]:
        from search.solve import solvable

        return solvable(game)

    def settings(self) -> dict[str, Any]:
        return {**super().settings(), "mode": "strong", "convention": CONVENTION}

    def label_game(self, game: KInARow, seed: int, number: int) -> list[Row]:
        rng = np.random.default_rng((seed, number))
        trajectory = varied_game(game, self.agents, self.random_rates, self.opening_plies, rng)
        floor = self.min_ply if rng.random() < self.early_share else self.full_ply
        fresh, seen = [], set()
        for position in trajectory:
            key = canonical_key(position)
            if position.ply >= floor and key not in seen:
                seen.add(key)
                fresh.append(position)
        solver = _solver(game, self.tt_size)
        # Late positions first: their table entries make the earlier ones of the same game cheap.
        return list(reversed([_solved(solver, position, number) for position in reversed(fresh)]))


@functools.lru_cache(maxsize=2)
def _solver(game: KInARow, tt_size: int) -> Any:
    from search.solve import Solver

    return Solver(game, tt_size)


def _solved(solver: Any, position: Position, number: int) -> Row:
    result = solver.solve(position, moves=True)
    scores: list[Optional[int]] = [None] * position.game.n_actions
    for action, score in result.move_scores.items():
        scores[action] = score
    value = (result.score > 0) - (result.score < 0)
    return Row(position.move_string(), int(result.score), scores, (value + 1) / 2, None, number)


def varied_game(game: KInARow, specs: Sequence[str], rates: Sequence[float], opening_plies: int,
                rng: np.random.Generator) -> list[Position]:  # fmt: skip
    """One varied self-play game: every position from the empty board to the last one before the end.

    Two players drawn from ``specs``, 0 to ``opening_plies`` random plies, then each move random with a
    probability drawn from ``rates``: openings, middle games and endings of strong and weak play all appear.
    """
    # one agent per spec, as the shipped sets were made: two sides of one spec share it (the second seed holds)
    sides = [_fresh(game, specs[int(rng.integers(len(specs)))], 0, int(rng.integers(2**31))) for _ in (0, 1)]
    rate = rates[int(rng.integers(len(rates)))]
    opening = int(rng.integers(opening_plies + 1))
    radius = default_opening_radius(game)
    position, seen = game.position(), []
    while not position.is_terminal():
        seen.append(position.copy())
        if position.ply < opening or rng.random() < rate:
            move = random_move(position, rng, radius)
        else:
            move = sides[position.ply % 2].select_move(position)
        position.play(move)
    return seen


def solver_source(game: KInARow, min_ply: Optional[int] = None, **options: Any) -> SolverSource:
    """The solver source with the defaults for ``game`` (Connect-4: from ply 8 on 6x7, later on larger boards).

    Raises:
        ValueError: ``min_ply`` outside ``0 .. n_cells - 1``.
    """
    gravity = game.gravity
    if min_ply is None:
        min_ply = solver_min_ply(game)
    if isinstance(min_ply, bool) or not 0 <= min_ply < game.n_cells:
        raise ValueError(f"--min-ply {min_ply} must be from 0 to {game.n_cells - 1} (stones on the board)")
    full_ply = max(min_ply, min_ply + 2) if gravity else min_ply
    heuristics = [h for h in ("c4_features", "square_values", "windows") if get_spec(h).refuse(game) is None][:2]
    depths = range(1, 7) if gravity else range(1, 5)
    agents = ("random", "rules") + tuple(f"alphabeta:heuristic={h},depth={d}" for h in heuristics for d in depths)
    return SolverSource(min_ply=min_ply, full_ply=full_ply, agents=agents, **options)


def solver_min_ply(game: KInARow) -> int:
    """The first ply the solver labels on ``game``: where a position takes it about a second at most.

    Connect-4 6x7: ply 8 (2.4 s on average there, 0.2 s from ply 11); each cell more pushes it about a ply
    later (7x8: measured in the tuning guide).  m,n,k boards the solver handles are small: from the empty board.
    """
    if not game.gravity:
        return 0
    return max(0, 8 + (game.n_cells - 42) * 6 // 7)


register_source("solver", solver_source)


# --------------------------------------------------------------------------- deep search and outcomes


@dataclass(frozen=True)
class PlayedSource(LabelSource):
    """Quiet positions of games between decent players, labelled by the game's outcome (``selfplay``).

    Each game opens with 2 to ``opening_plies`` random plies (near the stones on a large m,n,k board), then both
    sides play ``player``, each move random with probability ``random_rate``; the positions after the opening
    are labelled, a share ``keep`` of the quiet ones.
    """

    name: ClassVar[str] = "selfplay"
    player: str = ""
    random_rate: float = 0.05
    opening_plies: int = 6
    keep: float = 1.0

    def label_game(self, game: KInARow, seed: int, number: int) -> list[Row]:
        rng = np.random.default_rng((seed, number))
        positions, outcome = self._play(game, rng)
        rows = []
        for position in positions:
            mover_result = outcome if position.to_move == 0 else 1.0 - outcome
            row = self._label(position, mover_result, number)
            if row is not None:
                rows.append(row)
        return rows

    def _play(self, game: KInARow, rng: np.random.Generator) -> tuple[list[Position], float]:
        """The game's labelled candidates (quiet, after the opening, kept by chance) and the first player's result."""
        sides = [_fresh(game, self.player, side, int(rng.integers(2**31))) for side in (0, 1)]
        opening = int(rng.integers(2, self.opening_plies + 1))
        radius = default_opening_radius(game)
        position, kept = game.position(), []
        while not position.is_terminal():
            if position.ply >= opening and rng.random() < self.keep and is_quiet(position):
                kept.append(position.copy())
            if position.ply < opening or rng.random() < self.random_rate:
                move = random_move(position, rng, radius)
            else:
                move = sides[position.ply % 2].select_move(position)
            position.play(move)
        first = 0.5 if position.winner is None else (1.0 if position.winner == 0 else 0.0)
        return kept, first

    def _label(self, position: Position, result: float, number: int) -> Optional[Row]:
        return Row(position.move_string(), int(round(2 * result - 1)), None, result, result, number)


@dataclass(frozen=True)
class SearchSource(PlayedSource):
    """Quiet positions of games between decent players, labelled by a deep search's value (``search``)."""

    name: ClassVar[str] = "search"
    deep: str = ""
    keep: float = 0.3

    def _label(self, position: Position, result: float, number: int) -> Optional[Row]:
        agent = _fresh(position.game, self.deep, 0, 0)
        agent.select_move(position)
        last = getattr(agent, "last_result", None)  # an alpha-beta agent's search result (its score)
        score = float(last.score) if last is not None else 0.0
        if is_win_score(score):
            target = 1.0 if score > 0 else 0.0
        else:
            target = math.nan  # set by finish(), once the scale is fitted
        rounded = int(max(-WIN_SCORE, min(WIN_SCORE, round(score))))
        return Row(position.move_string(), rounded, None, target, result, number)

    def finish(self, rows: list[Row], train: int) -> tuple[list[Row], dict[str, Any]]:
        """Fit the logistic scale of the deep scores on the training rows' outcomes, and set every open target."""
        open_rows = [r for r in rows[:train] if math.isnan(r.target) and r.outcome is not None]
        scores = np.array([r.score for r in open_rows], dtype=np.float64)
        outcomes = np.array([r.outcome for r in open_rows], dtype=np.float64)
        scale = fit_scale(scores, outcomes) if len(open_rows) else 1.0
        done = [replace(r, target=_sigmoid(r.score / scale)) if math.isnan(r.target) else r for r in rows]
        return done, {"scale": scale, "proven": sum(not math.isnan(r.target) for r in rows)}


def _sigmoid(x: float) -> float:
    return float(1.0 / (1.0 + math.exp(-max(-700.0, min(700.0, x)))))


def default_player(game: KInARow, nodes: int = 1000) -> str:
    """The self-play player of the ``search`` and ``selfplay`` sources: the strongest default at ``nodes`` (the
    generic search on a large free board looks within 2 cells of a stone, as the engine does by itself)."""
    name = strongest_default(game)
    radius = ",radius=2" if default_opening_radius(game) is not None and name != "gomoku" else ""
    return f"alphabeta:heuristic={name},nodes={nodes}{radius}"


def played_source(game: KInARow, player: Optional[str] = None, nodes: int = 1000, **options: Any) -> PlayedSource:
    """The ``selfplay`` source for ``game``: games of :func:`default_player` (or ``player``)."""
    make_agent(player or default_player(game, nodes), game)  # a bad spec fails here, in the parent
    return PlayedSource(player=player or default_player(game, nodes), **options)


def search_source(game: KInARow, player: Optional[str] = None, deep: Optional[str] = None, nodes: int = 1000,
                  **options: Any) -> SearchSource:  # fmt: skip
    """The ``search`` source for ``game``: games of ``player``, values of ``deep`` (20 times the budget by default)."""
    player = player or default_player(game, nodes)
    deep = deep or default_player(game, 20 * nodes)
    for spec in (player, deep):
        make_agent(spec, game)
    return SearchSource(player=player, deep=deep, **options)


register_source("selfplay", played_source)
register_source("search", search_source)


def default_source(game: KInARow) -> str:
    """The source the tuner makes labels with when ``game`` has none: the solver where it labels fast, else
    the source whose fit played best in the measured comparison (the tuning guide's label table)."""
    from search.solve import solvable

    if solvable(game) is None and (not game.gravity or game.n_cells <= 42):
        return "solver"
    return "search"


__all__ = ["SOURCES", "LabelSource", "PlayedSource", "Row", "SearchSource", "SolverSource", "default_player",
           "default_source", "immediate_win", "is_quiet", "make_source", "register_source", "strongest_default",
           "varied_game"]  # fmt: skip
