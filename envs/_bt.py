"""Bradley-Terry (logistic Elo) maximum-likelihood fits with draws counted as half a win, as Ordo does.

The model: player ``i`` scores ``p_ij = 1 / (1 + 10 ** (-(r_i - r_j) / 400))``
against player ``j``.  A draw is half a win and half a loss, so the results of
a pairing reduce to ``s_ij`` (``i``'s points) out of ``n_ij`` games and the
log-likelihood is ``sum s_ij log p_ij + (n_ij - s_ij) log(1 - p_ij)``.  (A
Davidson model would add a draw parameter; counting draws as half keeps one
parameter per player and is what Ordo reports.)

Two things keep the maximum finite when a player wins or loses everything:
the fit is anchored (one player's rating is fixed), and ``prior_draws``
virtual draws are added to chosen pairings (BayesElo's prior, but only where
the caller puts it: between neighbouring ladder rungs, or between a rated
player and each rung it met).  The 95% intervals are likelihood-ratio
(profile-likelihood) intervals: every rating whose log-likelihood, the other
free ratings re-fitted, is within ``chi2(0.95) / 2`` of the maximum.  Unlike
the observed-information (normal) interval they follow the likelihood's skew,
so a player that wins or loses (nearly) everything gets an interval reaching
far out on the side the data cannot close, not a narrow symmetric one.

Example:
    >>> import numpy as np
    >>> scores = np.array([[0.0, 30.0], [70.0, 0.0]]); games = np.array([[0, 100], [100, 0]])
    >>> fit = fit_ratings(scores, games, anchor=0)
    >>> round(float(fit.ratings[1]), 1)   # 70% over 100 games: 400 log10(7/3)
    147.2
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Callable, Optional, Union

import numpy as np
from scipy.optimize import brentq, minimize

ELO_SCALE = 400.0 / math.log(10.0)
"""Elo points per natural-log unit of the odds: ``r = ELO_SCALE * x``."""


def _chi2_one_dof(confidence: float) -> float:
    """The ``confidence`` quantile of the chi-squared law with one degree of freedom: the square of the normal's
    two-sided quantile (the standard library's normal: ``scipy.stats`` took 0.65 s to import)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2.0) ** 2


@dataclass(frozen=True)
class Fit:
    """Ratings with their 95% intervals (``low``/``high``; the anchor's are its rating)."""

    ratings: np.ndarray
    low: np.ndarray
    high: np.ndarray


def expected_score(diff: np.ndarray | float) -> np.ndarray:
    """The expected score of a player ``diff`` Elo stronger."""
    result: np.ndarray = 1.0 / (1.0 + np.power(10.0, -np.asarray(diff, dtype=float) / 400.0))
    return result


def _check(scores: np.ndarray, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s, n = np.asarray(scores, dtype=float), np.asarray(games, dtype=float)
    if s.ndim != 2 or s.shape[0] != s.shape[1] or s.shape != n.shape:
        raise ValueError(f"scores {s.shape} and games {n.shape} must be square matrices of one shape")
    if np.any(n < 0) or np.any(s < 0) or np.any(s > n) or not np.allclose(n, n.T) or not np.allclose(s + s.T, n):
        raise ValueError("games must be symmetric and non-negative, and scores[i, j] + scores[j, i] == games[i, j]")
    return s, n


def _negative_loglik(x: np.ndarray, s: np.ndarray, n: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """(-log-likelihood, its gradient, its Hessian) in natural units ``x`` (all players)."""
    diff = x[:, None] - x[None, :]
    p = 1.0 / (1.0 + np.exp(-diff))
    # log p and log(1 - p) through logaddexp: exact even when a gap makes p round to 0 or 1
    value = float(np.sum(s * -np.logaddexp(0.0, -diff) + (n - s) * -np.logaddexp(0.0, diff))) / 2.0
    gradient = np.sum(s - n * p, axis=1)
    weights = n * p * (1.0 - p)
    hessian = np.diag(weights.sum(axis=1)) - weights
    return -value, -gradient, hessian


def _maximise(s: np.ndarray, n: np.ndarray, known: dict[int, float],
              guess: Optional[np.ndarray] = None) -> tuple[np.ndarray, float]:  # fmt: skip
    """The ratings (natural units, all players) maximising the log-likelihood with ``known`` players fixed
    (natural units), and that maximum; ``guess`` (all players) starts the search."""
    size = s.shape[0]
    free = np.array([i for i in range(size) if i not in known], dtype=int)
    base = np.zeros(size)
    for i, value in known.items():
        base[i] = value

    def full(y: np.ndarray) -> np.ndarray:
        x = base.copy()
        x[free] = y
        return x

    def objective(y: np.ndarray) -> tuple[float, np.ndarray]:
        value, gradient, _ = _negative_loglik(full(y), s, n)
        return value, gradient[free]

    def hessian(y: np.ndarray) -> np.ndarray:
        block: np.ndarray = _negative_loglik(full(y), s, n)[2][np.ix_(free, free)]
        return block

    if not len(free):
        return base, -_negative_loglik(base, s, n)[0]
    start = guess[free] if guess is not None else np.full(len(free), float(np.mean(base[list(known)])))
    result = minimize(objective, start, jac=True, hess=hessian, method="trust-exact", options={"gtol": 1e-9})
    return full(result.x), -float(result.fun)


def fit_ratings(scores: np.ndarray, games: np.ndarray, anchor: int, anchor_rating: float = 0.0,
                fixed: Optional[dict[int, float]] = None, confidence: float = 0.95) -> Fit:  # fmt: skip
    """The maximum-likelihood Elo ratings of every player from pairwise results, with profile-likelihood intervals.

    A free player's interval is every rating whose profile log-likelihood (the
    others re-fitted) is within ``chi2(confidence) / 2`` of the maximum: it
    follows the likelihood's skew where a player wins or loses nearly
    everything, where the observed-information interval is too narrow and
    symmetric (or, without a prior, of zero width).

    Args:
        scores: ``scores[i, j]`` the points ``i`` took from ``j`` (a draw is 1/2), virtual draws included.
        games: ``games[i, j]`` the games between them (symmetric).
        anchor: the player whose rating is fixed at ``anchor_rating``.
        fixed: more players with known ratings (rating one player against a fixed ladder).
        confidence: the intervals' level.

    Raises:
        ValueError: mismatched or inconsistent matrices, a player with no games, or a player whose
            maximum-likelihood rating is infinite (it won or lost everything: add virtual draws).
    """
    s, n = _check(scores, games)
    size = s.shape[0]
    known = {i: rating / ELO_SCALE for i, rating in {anchor: anchor_rating, **(fixed or {})}.items()}
    free = [i for i in range(size) if i not in known]
    idle = [i for i in free if n[i].sum() == 0]
    if idle:
        raise ValueError(f"players {idle} have no games: their ratings are not defined")
    extreme = [i for i in free if s[i].sum() in (0.0, n[i].sum())]
    if extreme:
        raise ValueError(f"players {extreme} won or lost every game: their ratings are not finite; add virtual draws")
    x, top = _maximise(s, n, known)
    if not np.all(np.isfinite(x)) or np.max(np.abs(x)) > 50.0:  # 50 natural units = 8,700 Elo: a diverging fit
        raise ValueError("some rating is not finite (a group of players won or lost every game): add virtual draws")
    drop = _chi2_one_dof(confidence) / 2.0
    ratings, low, high = x * ELO_SCALE, (x * ELO_SCALE).copy(), (x * ELO_SCALE).copy()
    for i in free:

        def excess(value: float, i: int = i) -> float:
            return _maximise(s, n, {**known, i: value / ELO_SCALE}, x)[1] - top + drop

        low[i], high[i] = _root(excess, ratings[i], -50.0), _root(excess, ratings[i], 50.0)
    for i, rating in {anchor: anchor_rating, **(fixed or {})}.items():
        ratings[i] = low[i] = high[i] = rating  # exactly as given, not rounded through the natural units
    return Fit(ratings, low, high)


# ------------------------------------------------------------------ one player against fixed ratings
CHI2_95 = 3.841458820694124
"""The 95% point of the chi-squared law with one degree of freedom: the likelihood-ratio interval's drop (x2)."""


def _player_loglik(rating: float, opponents: np.ndarray, points: np.ndarray, games: np.ndarray) -> float:
    """The log-likelihood of a player rated ``rating`` scoring ``points`` of ``games`` against fixed ``opponents``."""
    diff = (rating - opponents) / ELO_SCALE
    return float(np.sum(points * -np.logaddexp(0.0, -diff) + (games - points) * -np.logaddexp(0.0, diff)))


def _slope(rating: float, opponents: np.ndarray, points: np.ndarray, games: np.ndarray) -> float:
    """d loglik / d rating, in natural units (positive below the maximum, negative above: the loglik is concave)."""
    return float(np.sum(points - games * expected_score(rating - opponents)))


def _root(function: Callable[[float], float], start: float, step: float) -> float:
    """A root of a monotone ``function`` that changes sign between ``start`` and ``start + k * step`` for some k."""
    far = start + step
    while function(far) * function(start) > 0:
        start, far = far, far + step
        step *= 2.0
        if abs(far) > 1e5:  # 100,000 Elo: the likelihood never turns (a player won or lost every game)
            raise ValueError("a rating or a bound is not finite: some player won or lost every game; add virtual draws")
    return float(brentq(function, min(start, far), max(start, far), xtol=1e-3))


def rate_against(opponents: np.ndarray, points: np.ndarray, games: np.ndarray,
                 prior_draws: Union[float, np.ndarray] = 1.0, confidence: float = 0.95) -> tuple[float, float, float]:  # fmt: skip
    """A player's Elo against opponents of fixed ratings, with its likelihood-ratio interval.

    ``prior_draws`` virtual draws against each opponent (a number, or one per opponent) are added (a
    BayesElo-like prior: they keep the maximum finite when the player wins or
    loses everything).  The interval is every rating whose log-likelihood is
    within ``chi2(confidence) / 2`` of the maximum (a likelihood-ratio, or
    profile-likelihood, interval: unlike the observed-information interval,
    it follows the likelihood's skew, so after all losses to a strong
    opponent it reaches far down, where the truth may lie, instead of
    sitting symmetric and narrow around the estimate).

    Args:
        opponents: the opponents' Elo ratings.
        points, games: the player's points (a draw is 1/2) and games against each.

    Returns:
        ``(elo, low, high)``, finite and ``low < elo < high``.

    Raises:
        ValueError: mismatched arrays, negative counts, points above games, or no games and no prior.
    """
    r, s, n = (np.asarray(a, dtype=float).ravel() for a in (opponents, points, games))
    prior = np.broadcast_to(np.asarray(prior_draws, dtype=float), r.shape) if np.ndim(prior_draws) == 0 \
        else np.asarray(prior_draws, dtype=float).ravel()  # fmt: skip
    if not r.shape == s.shape == n.shape == prior.shape or np.any(n < 0) or np.any(s < 0) or np.any(s > n) or np.any(prior < 0):
        raise ValueError("opponents, points and games must match in length, with 0 <= points <= games, prior_draws >= 0")
    s, n = s + prior / 2, n + prior
    if n.sum() == 0 or s.sum() in (0.0, n.sum()):
        raise ValueError("no games and no prior draws, or only wins or only losses without a prior: the Elo is not finite")
    drop = _chi2_one_dof(confidence) / 2.0
    start = float(np.mean(r))
    elo = _root(lambda x: _slope(x, r, s, n), start, 400.0 if _slope(start, r, s, n) > 0 else -400.0)
    top = _player_loglik(elo, r, s, n)

    def excess(x: float) -> float:
        return _player_loglik(x, r, s, n) - top + drop

    return elo, _root(excess, elo, -100.0), _root(excess, elo, 100.0)
