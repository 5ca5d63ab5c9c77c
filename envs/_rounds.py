"""Rating one player on a ladder: the adaptive rounds, the fit and its interval, the result (:func:`envs.rating.rate`).

Kept apart from the games so the statistics can be checked on simulated
players of known rating (``tests/test_rating.py``): :func:`play_rounds` takes
the game-playing as a function, and :func:`fit_player` sees only numbers.

* A round is up to ``batch`` pairs (each opening played twice, colours
  swapped) against one rung: the rung rated nearest the current estimate, or
  the next of the rungs asked for.  Adaptive rounds start short and double
  (1, 1, 2, 4, ... pairs, then ``batch``), so the first games, against the
  ladder's median rung, only point the way: the bulk is played near the
  player's level, where the Elo model holds best.  Spending a small budget
  on one far rung made a rating hinge on a rare result (one lucky point of
  20 against a rung 1,000 Elo above put random play at +606 [+224, +842]).
  The last round plays what is left, so exactly ``games`` games are played.
* A rung that *is* the player (the same agent with the same settings) is
  never chosen: a player rated against itself scores 50% and gets the
  rung's own number back, which says nothing.  :attr:`Rating.note` says so.
* The Elo maximises the likelihood with the rungs' ratings fixed and one
  virtual draw (:data:`PRIOR_DRAWS`) shared by the rungs met in proportion to
  the games against them; the 95%
  interval is the likelihood-ratio interval (:func:`envs._bt.rate_against`),
  finite and of positive width even after all wins or all losses.  It leaves
  out the rungs' own uncertainty.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from envs._bt import rate_against

PRIOR_DRAWS = 1.0
"""Virtual draws between neighbouring rungs (calibration) and between a rated player and each rung it met."""
MAX_GAMES = 1_000_000
"""The most games one rating may ask for: a million games of the fastest rungs already take hours on one core."""


@dataclass(frozen=True)
class Rating:
    """A player's Elo on a ladder with its 95% interval, and the games behind it.

    Attributes:
        table: per rung met: ``(rung name, rung Elo, games, player's points, expected points at elo)``.
        note: what the reader must know about how the number was made (empty if nothing).
    """

    name: str
    elo: float
    low: float
    high: float
    games: int
    table: tuple[tuple[str, float, int, float, float], ...]
    note: str = ""

    def describe(self) -> str:
        """One line: the Elo with its interval."""
        return f"{self.name}: Elo {self.elo:+.0f} [95% CI {self.low:+.0f}, {self.high:+.0f}] from {self.games} games"

    def report(self) -> str:
        """The Elo line, the note if any, and the per-rung score table (Markdown; scores are the player's)."""
        lines = [self.describe(), *([self.note] if self.note else []), "",
                 "| rung | rung Elo | games | player's score | expected |", "| --- | ---: | ---: | ---: | ---: |"]  # fmt: skip
        for name, rung_elo, games, points, expected in self.table:
            lines.append(f"| {name} | {rung_elo:+.0f} | {games} | {points / games:.1%} | {expected / games:.1%} |")
        return "\n".join(lines)


def check_counts(games: int, batch: int) -> None:
    """Refuse a game count the rating cannot honour, or a round size of no use.

    Raises:
        ValueError: ``games`` odd, below 2 or above :data:`MAX_GAMES`; ``batch`` below 1 or above half that.
    """
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or not 2 <= games <= MAX_GAMES or games % 2:
        raise ValueError(f"games={games!r}: give an even number from 2 to {MAX_GAMES:,} "
                         "(games are played in pairs, each opening with both colours)")  # fmt: skip
    if isinstance(batch, bool) or not isinstance(batch, (int, np.integer)) or not 1 <= batch <= MAX_GAMES // 2:
        raise ValueError(f"batch={batch!r}: give the pairs per round, from 1 to {MAX_GAMES // 2:,}")


def fit_player(elo: Union[Sequence[float], np.ndarray], points: np.ndarray, played: np.ndarray) -> tuple[float, float, float]:
    """The player's Elo and 95% interval from its points and games against each rung (see the module docstring)."""
    met = np.flatnonzero(played)
    # One virtual draw in all, shared by the rungs met in proportion to the games against them: one draw per rung
    # met pulled a player who met many rungs (the adaptive rounds walk down or up the ladder) toward their middle.
    prior = PRIOR_DRAWS * played[met] / played[met].sum()
    return rate_against(np.asarray(elo, dtype=float)[met], points[met], played[met], prior_draws=prior)


def play_rounds(elo: Union[Sequence[float], np.ndarray], play: Callable[[int, int, int], float], games: int, batch: int,
                chosen: Sequence[int] = (), skip: Sequence[int] = ()) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Play ``games`` games in rounds; return the points and games against each rung.

    Args:
        elo: the rungs' ratings.
        play: ``play(rung, round number, pairs)`` plays that many pairs and returns the player's points.
        chosen: rungs to play in turn (empty: the rung nearest the estimate each round).
        skip: rungs never chosen adaptively (the player itself).
    """
    ratings = np.asarray(elo, dtype=float)
    allowed = np.array([i for i in range(len(ratings)) if i not in set(skip)], dtype=int)
    if not chosen and not len(allowed):
        raise ValueError("every rung of the ladder is the player itself: there is no one to rate it against")
    points, played = np.zeros(len(ratings)), np.zeros(len(ratings))
    estimate = float(np.median(ratings))
    left, number = games // 2, 0
    while left:
        if chosen:
            rung = int(chosen[number % len(chosen)])
        else:
            rung = int(allowed[np.argmin(np.abs(ratings[allowed] - estimate))])
        pairs = min(batch, left) if chosen else min(batch, left, max(1, int(played.sum()) // 2))
        points[rung] += play(rung, number, pairs)
        played[rung] += 2 * pairs
        estimate = fit_player(ratings, points, played)[0]
        left, number = left - pairs, number + 1
    return points, played


def agent_settings(agent: Any) -> Optional[tuple[Any, ...]]:
    """What decides an agent's play (its kind, heuristic, weights, budget, noise), or None for a policy.

    Two agents with equal settings play the same games (seeded alike): a rung with the player's settings is the player.
    """
    eps = 0.0
    if hasattr(agent, "inner") and hasattr(agent, "eps"):  # envs._players.NoisyAgent
        agent, eps = agent.inner, float(agent.eps)
    if hasattr(agent, "policy"):  # a PolicyAgent: its callable cannot be compared
        return None
    evaluator = getattr(agent, "evaluator", None)
    weights = None if evaluator is None else (evaluator.name, tuple(np.asarray(evaluator.weight_array).tolist()))
    names = ("limit", "depth", "radius", "random_every", "tss_nodes", "solve_ms", "weak", "time_ms", "nodes")
    return (type(agent).__name__, eps, weights, *(repr(getattr(agent, name, None)) for name in names))
