"""Match statistics: Elo, confidence intervals, LOS and the SPRT, from trinomial or pentanomial counts.

Two ways to count a match:

* **trinomial**: wins, draws, losses of single games;
* **pentanomial**: game *pairs* (one opening played twice, colours swapped)
  by the pair's total score 0, 1/2, 1, 3/2, 2, i.e. counts
  ``[LL, LD, WL+DD, WD, WW]``.  A pair cancels most of the bias of the
  opening, so its variance is smaller and the interval honest; fishtest and
  OpenBench report pentanomial statistics for that reason.

The point estimate is the one fishtest and OpenBench report: the score ``s``
is the mean of the per-game (trinomial) or per-pair-average (pentanomial)
outcomes and Elo the logistic ``-400 log10(1/s - 1)``.  The interval is the
normal one *after padding the counts* in the manner of Agresti and Coull
("Approximate is better than 'exact' for interval estimation of binomial
proportions", The American Statistician 52(2), 1998): ``z^2/2`` pseudo-wins
and as many pseudo-losses are added (``z^2/4`` pairs to each extreme
pentanomial bin), so a one-sided result (4 wins in 4 games) gets a wide
interval that still holds 1/2, not the zero-width ``[+inf, +inf]`` of the
plain normal interval, while a match of hundreds of pairs keeps the
fishtest interval to within a fraction of an Elo.  The score interval maps
to an interval for Elo.  :func:`score_interval` is the one function every
decision of the project takes its interval from.  The SPRT is the generalised SPRT on *normalised* Elo
(nElo: the score's distance from 1/2 in units of its per-game standard
deviation, times 800/ln 10), whose log-likelihood ratio is
``n (m1 - m0)(2 s - m0 - m1) / (2 var)`` with ``m0, m1`` the scores the two
bounds predict.

Example (the published OpenBench numbers this module is tested against):
    >>> estimate = pentanomial([398, 4112, 7672, 4336, 430])
    >>> round(estimate.elo, 2), round(estimate.elo_error, 2)
    (2.95, 2.18)
    >>> round(sprt_llr([398, 4112, 7672, 4336, 430], 0.0, 3.0), 2)
    2.96
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Sequence

_NORMAL = NormalDist()
"""The standard normal (the standard library's: ``scipy.stats`` took 0.65 s to import, in every command line)."""
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Per-game average score of a game pair in each pentanomial bin."""
GAME_SCORES = (1.0, 0.5, 0.0)
"""Score of a win, a draw and a loss (trinomial order W, D, L)."""
NELO_SCALE = 800.0 / math.log(10.0)
"""nElo = (score - 1/2) / per-game standard deviation * NELO_SCALE."""
REGULARIZATION = 1e-3
"""Pseudo-count added to every bin by :func:`sprt_llr` (fishtest's), on top of the Agresti-Coull padding."""
Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""
SPRT_PSEUDO_PAIRS = Z95 * Z95 / 4.0
"""Pairs added to each extreme pentanomial bin (z^2/2 games to each of W and L) before an SPRT's LLR: the
95% Agresti-Coull padding, so a few one-sided pairs cannot end a test (10 double wins give LLR +0.37 on [0, 5])."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (``(0, 1)`` without trials).

    Example:
        >>> [round(x, 4) for x in wilson(0, 10)]
        [0.0, 0.2775]
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"successes={successes} must be within 0..trials={trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    denominator = 1 + z * z / trials
    # the bounds are exactly 0 with no successes and 1 with no failures: rounding must not move them inside
    low = 0.0 if successes == 0 else max(0.0, (centre - half) / denominator)
    high = 1.0 if successes == trials else min(1.0, (centre + half) / denominator)
    return low, high


def elo_from_score(score: float) -> float:
    """Logistic Elo difference for an expected score in (0, 1); +-inf at the ends."""
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"score {score!r} must be within [0, 1]")
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger (the inverse of :func:`elo_from_score`)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@dataclass(frozen=True)
class Estimate:
    """A match's score and Elo with a confidence interval.

    Attributes:
        n: games (trinomial) or game pairs (pentanomial).
        games: games played.
        score: mean score per game, in [0, 1].
        score_low, score_high: the score's confidence interval.
        elo, elo_low, elo_high: the same in Elo.
        los: likelihood of superiority, P(true score > 1/2).
        confidence: the interval's level.
    """

    n: int
    games: int
    score: float
    score_low: float
    score_high: float
    elo: float
    elo_low: float
    elo_high: float
    los: float
    confidence: float

    @property
    def elo_error(self) -> float:
        """Half the Elo interval's width: the "+-" of "Elo 2.95 +- 2.18" (inf when a bound is infinite)."""
        if math.isinf(self.elo_high) or math.isinf(self.elo_low):
            return math.inf
        return (self.elo_high - self.elo_low) / 2.0

    def describe(self) -> str:
        """One line: Elo with its interval, score and LOS."""
        pct = round(self.confidence * 100)
        return (f"Elo {self.elo:+.1f} +- {self.elo_error:.1f} ({pct}% CI [{self.elo_low:+.1f}, {self.elo_high:+.1f}]), "
                f"score {self.score:.3f}, LOS {self.los:.1%}")  # fmt: skip


def _check_counts(counts: Sequence[int], size: int, what: str) -> list[int]:
    values = [int(c) for c in counts]
    if len(values) != size or any(c < 0 for c in values) or any(c != v for c, v in zip(counts, values)):
        raise ValueError(f"{what} counts {list(counts)!r} must be {size} non-negative integers")
    return values


def _moments(counts: Sequence[float], outcomes: Sequence[float]) -> tuple[float, float, float]:
    """(n, mean, variance of one sample) of outcomes observed ``counts`` times."""
    n = sum(counts)
    if n == 0:
        return 0, 0.5, 0.0
    mean = sum(c * x for c, x in zip(counts, outcomes)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, outcomes)) / n
    return n, mean, var


def padded(counts: Sequence[float], z: float = Z95) -> list[float]:
    """``counts`` (trinomial W, D, L or 5 pentanomial bins) with the Agresti-Coull padding of ``z``.

    ``z^2/2`` pseudo-wins and ``z^2/2`` pseudo-losses: to W and L of a
    trinomial count, as ``z^2/4`` double wins and double losses to a
    pentanomial one (a pair is two games).

    Example:
        >>> [round(c, 2) for c in padded([0, 0, 0, 0, 2])]
        [0.96, 0.0, 0.0, 0.0, 2.96]
    """
    values = [float(c) for c in counts]
    pad = z * z / 2.0 if len(values) == 3 else z * z / 4.0
    values[0] += pad
    values[-1] += pad
    return values


def score_interval(counts: Sequence[int], confidence: float = 0.95) -> tuple[float, float]:
    """The interval of the mean score per game, from trinomial ``(W, D, L)`` or pentanomial counts.

    The normal interval of the padded counts (see :func:`padded`), widened
    if need be to hold the observed score: it never collapses at 0% or 100%,
    and it is ``(0, 1)`` before any game.  The shared interval of every
    decision (confirmation, the incumbent test, the rating ladder).

    Example:
        >>> low, high = score_interval([4, 0, 0])  # 4 wins in 4 games do not exclude 1/2
        >>> round(low, 3), high
        (0.454, 1.0)
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence {confidence!r} must be within (0, 1)")
    values, outcomes, _ = _outcomes(counts)
    if sum(values) == 0:
        return 0.0, 1.0
    z = _NORMAL.inv_cdf(0.5 + confidence / 2.0)
    observed = _moments(values, outcomes)[1]
    n, mean, var = _moments(padded(values, z), outcomes)
    half = z * math.sqrt(var / n)
    return max(0.0, min(observed, mean - half)), min(1.0, max(observed, mean + half))


def _estimate(counts: Sequence[int], games_per_sample: int, confidence: float) -> Estimate:
    values, outcomes, _ = _outcomes(counts)
    n, mean, var = _moments(values, outcomes)
    if n == 0:
        return Estimate(0, 0, 0.5, 0.0, 1.0, 0.0, -math.inf, math.inf, 0.5, confidence)
    low, high = score_interval(values, confidence)
    # LOS from the padded counts too, so that a one-sided handful of games is not "100% superior"
    n_pad, mean_pad, var_pad = _moments(padded(values), outcomes)
    los = _NORMAL.cdf((mean_pad - 0.5) / math.sqrt(var_pad / n_pad))
    return Estimate(int(n), int(n) * games_per_sample, mean, low, high, elo_from_score(mean), elo_from_score(low),
                    elo_from_score(high), los, confidence)  # fmt: skip


def trinomial(wins: int, draws: int, losses: int, confidence: float = 0.95) -> Estimate:
    """Score and Elo of single games counted as wins, draws, losses."""
    return _estimate(_check_counts((wins, draws, losses), 3, "trinomial"), 1, confidence)


def pentanomial(counts: Sequence[int], confidence: float = 0.95) -> Estimate:
    """Score and Elo of game pairs counted by total score ``[0, 1/2, 1, 3/2, 2]``."""
    return _estimate(_check_counts(counts, 5, "pentanomial"), 2, confidence)


def _outcomes(counts: Sequence[int]) -> tuple[list[int], Sequence[float], float]:
    """Counts, their outcomes and the factor turning one sample's sd into one game's (sqrt 2 for a pair)."""
    if len(counts) == 5:
        return _check_counts(counts, 5, "pentanomial"), PAIR_SCORES, math.sqrt(2.0)
    if len(counts) == 3:
        return _check_counts(counts, 3, "trinomial"), GAME_SCORES, 1.0
    raise ValueError(f"counts {list(counts)!r} must be trinomial (W, D, L) or pentanomial (5 pair bins)")


def sprt_llr(counts: Sequence[int], nelo0: float, nelo1: float) -> float:
    """Log-likelihood ratio of H1 (nElo = ``nelo1``) against H0 (nElo = ``nelo0``).

    ``counts`` are trinomial ``(W, D, L)`` or pentanomial (5 pair bins); the
    generalised SPRT with the score and variance estimated from the counts
    padded as for the interval (:data:`SPRT_PSEUDO_PAIRS`; each bin also
    regularised by :data:`REGULARIZATION`), so that a handful of one-sided
    pairs cannot end a test.  Zero before any game.
    """
    if nelo1 <= nelo0:
        raise ValueError(f"SPRT bounds [{nelo0}, {nelo1}] must satisfy elo0 < elo1")
    values, outcomes, per_game = _outcomes(counts)
    if sum(values) == 0:
        return 0.0
    # A tiny pseudo-count in every bin (as fishtest does) keeps the variance positive whatever the counts; the
    # Agresti-Coull padding keeps two double wins from looking like a decided test (their variance is ~0).
    pad = SPRT_PSEUDO_PAIRS * (2.0 if len(values) == 3 else 1.0)
    regularised = [v + REGULARIZATION for v in values]
    regularised[0] += pad
    regularised[-1] += pad
    n_reg, mean, var = _moments(regularised, outcomes)
    game_sd = math.sqrt(var) * per_game
    m0 = 0.5 + nelo0 / NELO_SCALE * game_sd
    m1 = 0.5 + nelo1 / NELO_SCALE * game_sd
    return n_reg * (m1 - m0) * (2.0 * mean - m0 - m1) / (2.0 * var)


def normalized_elo(counts: Sequence[int]) -> float:
    """nElo of trinomial or pentanomial counts: (score - 1/2) / per-game sd * 800 / ln 10."""
    values, outcomes, per_game = _outcomes(counts)
    n, mean, var = _moments(values, outcomes)
    if n == 0 or var <= 0.0:
        return 0.0 if n == 0 or mean == 0.5 else math.copysign(math.inf, mean - 0.5)
    return (mean - 0.5) / (math.sqrt(var) * per_game) * NELO_SCALE


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test between two normalised-Elo hypotheses.

    Args:
        elo0, elo1: H0 and H1, in nElo (elo0 < elo1).
        alpha: the chance of accepting H1 when H0 holds (a false positive).
        beta: the chance of accepting H0 when H1 holds (a false negative).
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT bounds elo0={self.elo0}, elo1={self.elo1}: elo0 must be below elo1")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 0.5:
                raise ValueError(f"SPRT {name}={value!r} must be within (0, 0.5)")

    @property
    def lower(self) -> float:
        """Accept H0 once the LLR falls to this bound, log(beta / (1 - alpha))."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 once the LLR reaches this bound, log((1 - beta) / alpha)."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[int]) -> float:
        """The log-likelihood ratio of the counts so far."""
        return sprt_llr(counts, self.elo0, self.elo1)

    def decide(self, counts: Sequence[int]) -> str:
        """``"H1"`` (better by at least elo1), ``"H0"`` (not better than elo0) or ``"continue"``."""
        llr = self.llr(counts)
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return "continue"


def parse_sprt(text: str) -> tuple[float, float]:
    """``"elo0,elo1"`` from a command line as two floats, elo0 < elo1 (raises ValueError otherwise)."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        elo0, elo1 = float(parts[0]), float(parts[1])
    except ValueError:
        raise ValueError(f"SPRT bounds {text!r} must be two numbers 'elo0,elo1', e.g. '0,5'") from None
    if not elo0 < elo1:
        raise ValueError(f"SPRT bounds {text!r}: elo0 must be below elo1")
    return elo0, elo1
