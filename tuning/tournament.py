"""The m,n,k tournament of the University of Bologna's 2021/22 algorithms course, replayed: its configurations, rules and scoring.

Rules (from the Bologna project report): every pair of players plays 4 games per
configuration, 2 as first player; a win as first player scores 2, a win as
second 3, a draw 1, a loss 0; a move over the time limit (1 s) or an illegal
move forfeits the game, and the opponent scores the win it would have made
(2 as first player, 3 as second).  A configuration is ``M,N,K``: M rows, N
columns, K in a row.

Agents are specs (:func:`search.agents.make_agent`).  An alpha-beta spec
without a budget of its own (no ``depth``, ``nodes`` or ``time_ms``), and a
weight file, search for :data:`BUDGET_SHARE` of the limit; other specs play
as written and answer for their own time.  Each agent plays the warm-up
positions of every configuration untimed before its games
(:func:`search.agents.warmup.warm_up`: the empty board, a middle game, a win, a
block, forks), so that compiling or loading the kernels of every code path
is not charged to a timed move (a real tournament would charge it; this one
compares search, not start-up).

One optional departure from the tournament's rules: ``max_plies`` adjudicates a
game that reaches that many plies without a winner as a draw (reason
``ply cap``).  The tournament plays every game to the end; on 50,50,10 and
70,70,10 that can take thousands of 1 s moves, and a replay that wants all
25 configurations in an hour caps them and says so in its report.

Example:
    >>> result = play_configuration((3, 3, 3), ["perfect", "random:seed=1"], limit_ms=2000, games=2)
    >>> result.points["perfect"] >= 3 and result.points["random:seed=1"] == 0   # the solver never loses
    True
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from games import Action, KInARow, Position, make_game
from search.agents import AgentType, make_agent
from search.agents.spec import parse_spec
from search.agents.warmup import warm_up

CONFIGURATIONS: tuple[tuple[int, int, int], ...] = (
    (3, 3, 3), (4, 3, 3), (4, 4, 3), (4, 4, 4), (5, 4, 4), (5, 5, 4), (5, 5, 5), (6, 4, 4), (6, 5, 4), (6, 6, 4),
    (6, 6, 5), (6, 6, 6), (7, 4, 4), (7, 5, 4), (7, 6, 4), (7, 7, 4), (7, 5, 5), (7, 6, 5), (7, 7, 5), (7, 7, 6),
    (7, 7, 7), (8, 8, 4), (10, 10, 5), (50, 50, 10), (70, 70, 10),
)  # fmt: skip
"""The tournament's 25 configurations, (M rows, N columns, K), in its order."""
WIN_FIRST, WIN_SECOND, DRAW, LOSS = 2, 3, 1, 0
"""Points of a game: a win as first player, a win as second, a draw, a loss."""
GAMES_PER_PAIR = 4
"""Games each pair plays per configuration, half of them as first player."""
BUDGET_SHARE = 0.9
"""The share of the time limit an alpha-beta agent without a budget of its own searches for."""


def game_points(winner: Optional[int]) -> tuple[int, int]:
    """The points of (first player, second player) when ``winner`` (0 first, 1 second, None draw) takes the game.

    Example:
        >>> game_points(0), game_points(1), game_points(None)
        ((2, 0), (0, 3), (1, 1))
    """
    if winner is None:
        return DRAW, DRAW
    return (WIN_FIRST, LOSS) if winner == 0 else (LOSS, WIN_SECOND)


def budgeted(spec: str, time_ms: float) -> str:
    """``spec`` with a time budget of ``time_ms`` if it is alpha-beta without one (module docstring), else ``spec``.

    Example:
        >>> budgeted("alphabeta:heuristic=mics", 900), budgeted("alphabeta", 900.5)
        ('alphabeta:heuristic=mics,time_ms=900', 'alphabeta:time_ms=900.5')
        >>> budgeted("alphabeta:depth=2", 900), budgeted("rules", 900)
        ('alphabeta:depth=2', 'rules')
    """
    parsed = parse_spec(spec)
    if parsed.kind is None:
        return f"alphabeta:weights={parsed.path},time_ms={time_ms:g}"
    if parsed.kind != "alphabeta" or {"depth", "nodes", "time_ms"} & set(parsed.options):
        return spec
    text = spec.strip().rstrip(",")
    separator = "," if parsed.options else ("" if text.endswith(":") else ":")
    return f"{text}{separator}time_ms={time_ms:g}"


@dataclass(frozen=True)
class GameRecord:
    """One game: who played first, how it ended, the points and the slowest move of each side."""

    first: str
    """The first player's label."""
    second: str
    winner: Optional[int]
    """0 if the first player won, 1 the second, None for a draw."""
    reason: str
    """``k in a row``, ``draw``, ``ply cap`` (a draw by adjudication), ``time`` (a move over the limit), ``illegal`` (a move that is not legal) or ``error`` (the agent failed)."""
    detail: str
    """What the forfeiting side did, in words (empty otherwise)."""
    moves: tuple[Action, ...]
    seconds: float
    slowest: tuple[float, float]
    """The longest move of each side, in seconds (0 for a side that never moved)."""

    @property
    def points(self) -> tuple[int, int]:
        """(first player's, second player's) points."""
        return game_points(self.winner)


def play_timed_game(game: KInARow, first: AgentType, second: AgentType, limit_s: float, labels: tuple[str, str],
                    clock: Callable[[], float] = time.perf_counter, max_plies: Optional[int] = None,
                    start: Sequence[Action] = ()) -> GameRecord:  # fmt: skip
    """Play one game from the empty board, or after the opening ``start``, under the tournament's rules (module docstring).

    Each agent gets a copy of the position, so it cannot change the game;
    a move is timed around its ``select_move`` call.  A game still open
    after ``max_plies`` plies (None: no cap; the opening counts) is a draw by
    adjudication.  With ``start``, ``first`` is the side to move after it and
    ``winner`` 0 means ``first`` won.
    """
    if max_plies is not None and max_plies < 1:
        raise ValueError(f"max_plies must be a positive number of plies or None; got {max_plies!r}")
    position = Position(game)
    for action in start:
        position.play(action)
    if position.is_terminal():
        raise ValueError(f"the opening {game.format_moves(start)!r} already ends the game")
    agents, slowest = (first, second), [0.0, 0.0]
    offset = len(start) & 1  # the side to move after the opening is ``first``
    started = clock()
    while not position.is_terminal() and (max_plies is None or position.ply < max_plies):
        side = (position.ply - offset) & 1
        before = clock()
        try:
            action = agents[side].select_move(position.copy())
        except Exception as exc:  # noqa: BLE001 - a failing agent forfeits, it does not stop the tournament
            slowest[side] = max(slowest[side], clock() - before)
            return _forfeit(position, side, "error", f"{type(exc).__name__}: {exc}", labels, started, clock, slowest)
        took = clock() - before
        slowest[side] = max(slowest[side], took)
        if took > limit_s:
            detail = f"move {position.ply + 1} took {took * 1000:.0f} ms, over the {limit_s * 1000:.0f} ms limit"
            return _forfeit(position, side, "time", detail, labels, started, clock, slowest)
        if not position.is_legal(action):
            detail = f"move {position.ply + 1} was {action!r}, not a legal move"
            return _forfeit(position, side, "illegal", detail, labels, started, clock, slowest)
        position.play(action)
    reason = "draw" if position.winner is None else "k in a row"
    if not position.is_terminal():
        reason = "ply cap"
    winner = None if position.winner is None else (position.winner - offset) & 1
    return GameRecord(labels[0], labels[1], winner, reason, "", tuple(position.moves), clock() - started,
                      (slowest[0], slowest[1]))  # fmt: skip


def _forfeit(position: Position, side: int, reason: str, detail: str, labels: tuple[str, str], started: float,
             clock: Callable[[], float], slowest: list[float]) -> GameRecord:  # fmt: skip
    """The record of a game ``side`` forfeits: the opponent wins."""
    return GameRecord(labels[0], labels[1], 1 - side, reason, f"{labels[side]}: {detail}", tuple(position.moves),
                      clock() - started, (slowest[0], slowest[1]))  # fmt: skip


@dataclass
class ConfigurationResult:
    """Every game of one configuration, the points and slowest moves by agent label."""

    config: tuple[int, int, int]
    playable: bool
    reason: str = ""
    """Why the configuration cannot be played (empty if it can)."""
    games: list[GameRecord] = field(default_factory=list)
    points: dict[str, int] = field(default_factory=dict)
    slowest: dict[str, float] = field(default_factory=dict)
    """Each agent's longest move over the configuration's games, in seconds."""
    refused: dict[str, str] = field(default_factory=dict)
    """Agents that cannot play this board, with the reason (they forfeit every game)."""

    @property
    def name(self) -> str:
        """``M,N,K``."""
        return ",".join(map(str, self.config))


def labels_of(specs: Sequence[str]) -> list[str]:
    """A distinct label per spec: the spec itself, numbered (``#2``, ...) when it repeats."""
    labels: list[str] = []
    for spec in specs:
        label, n = spec, 1
        while label in labels:
            n += 1
            label = f"{spec} #{n}"
        labels.append(label)
    return labels


def play_configuration(config: tuple[int, int, int], specs: Sequence[str], limit_ms: float = 1000.0,
                       games: int = GAMES_PER_PAIR, seed: int = 0,
                       build: Callable[[str, KInARow, int], AgentType] = make_agent,
                       max_plies: Optional[int] = None,
                       on_game: Optional[Callable[[ConfigurationResult], None]] = None) -> ConfigurationResult:  # fmt: skip
    """Every pair of ``specs`` plays ``games`` games (first player alternating, the lower index first) on ``config``.

    Args:
        config: (M rows, N columns, K).
        specs: agent specs (time budgets added as the module docstring says).
        limit_ms: the time limit of a move.
        games: games per pair.
        seed: agents are seeded from it, the game's number and their side.
        build: how a spec becomes an agent (tests plant agents through it).
        max_plies: adjudicate games still open after this many plies as draws (None: play them out).
        on_game: called with the result so far after each finished game (a report written as games end holds
            exactly the finished ones: an interrupted game, a KeyboardInterrupt, is never recorded).
    """
    result = ConfigurationResult(config, playable=True)
    try:
        game = make_game("mnk", *config)
    except ValueError as exc:
        return ConfigurationResult(config, playable=False, reason=str(exc))
    labels = labels_of(specs)
    agents: dict[str, AgentType] = {}
    for label, spec in zip(labels, specs):
        try:
            agents[label] = build(budgeted(spec, limit_ms * BUDGET_SHARE), game, seed)
            _warm_up(agents[label], game)
        except Exception as exc:  # noqa: BLE001 - an agent that cannot play this board forfeits its games here
            result.refused[label] = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
    result.points = {label: 0 for label in labels}
    result.slowest = {label: 0.0 for label in labels}
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            for number in range(games):
                pair = (labels[i], labels[j]) if number % 2 == 0 else (labels[j], labels[i])
                record = _one_game(game, pair, agents, result.refused, limit_ms / 1000, seed + number, max_plies)
                result.games.append(record)
                for side, label in enumerate(pair):
                    result.points[label] += record.points[side]
                    result.slowest[label] = max(result.slowest[label], record.slowest[side])
                if on_game is not None:
                    on_game(result)
    return result


def _warm_up(agent: AgentType, game: KInARow) -> None:
    """The untimed warm-up moves (module docstring); then the agent is reset."""
    warm_up(agent, game)


def _one_game(game: KInARow, pair: tuple[str, str], agents: dict[str, AgentType], refused: dict[str, str],
              limit_s: float, seed: int, max_plies: Optional[int]) -> GameRecord:  # fmt: skip
    """One game of ``pair`` (first, second); an agent that could not be built forfeits before its first move."""
    for side, label in enumerate(pair):
        if label in refused:
            return GameRecord(pair[0], pair[1], 1 - side, "error", f"{label}: cannot play {game}: {refused[label]}",
                              (), 0.0, (0.0, 0.0))  # fmt: skip
    first, second = agents[pair[0]], agents[pair[1]]
    for side, agent in enumerate((first, second)):
        agent.reset()
        agent.seed(seed * 2 + side)
    return play_timed_game(game, first, second, limit_s, pair, max_plies=max_plies)
