"""Match statistics against published numbers, exact small cases, and an SPRT error-rate simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tuning.stats import (
    NELO_SCALE,
    PAIR_SCORES,
    Sprt,
    elo_from_score,
    normalized_elo,
    parse_sprt,
    pentanomial,
    score_from_elo,
    score_interval,
    sprt_llr,
    trinomial,
)

OPENBENCH_COUNTS = [398, 4112, 7672, 4336, 430]
"""A pentanomial result as OpenBench reports it: Elo 2.95 +- 2.18, LLR 2.96 for nElo bounds [0, 3]."""


def test_published_pentanomial_elo_and_interval() -> None:
    estimate = pentanomial(OPENBENCH_COUNTS)
    assert estimate.n == sum(OPENBENCH_COUNTS) and estimate.games == 2 * estimate.n
    assert estimate.elo == pytest.approx(2.95, abs=0.005)
    assert estimate.elo_error == pytest.approx(2.18, abs=0.005)
    assert estimate.elo_low < estimate.elo < estimate.elo_high
    assert estimate.los > 0.99  # +2.95 +- 2.18 at 95% excludes 0 comfortably


def test_published_normalized_elo_llr() -> None:
    assert sprt_llr(OPENBENCH_COUNTS, 0.0, 3.0) == pytest.approx(2.96, abs=0.005)


def test_elo_and_score_are_inverse_with_the_textbook_points() -> None:
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert score_from_elo(400.0) == pytest.approx(10 / 11)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    with pytest.raises(ValueError, match="1.5"):
        elo_from_score(1.5)


@given(st.floats(min_value=-800, max_value=800))
def test_score_from_elo_round_trips(elo: float) -> None:
    assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo, abs=1e-6)


def test_trinomial_by_hand() -> None:
    # 6 wins, 2 draws, 2 losses: score 0.7; the interval pads z^2/2 = 1.9208 wins and losses (Agresti-Coull):
    # 7.9208 / 2 / 3.9208 over n = 13.8416, mean 0.64306, variance from those counts
    estimate = trinomial(6, 2, 2)
    assert estimate.score == pytest.approx(0.7)
    pad = 1.959964**2 / 2
    n = 10 + 2 * pad
    mean = (6 + pad + 1) / n
    var = ((6 + pad) * (1 - mean) ** 2 + 2 * (0.5 - mean) ** 2 + (2 + pad) * mean**2) / n
    half = 1.959964 * math.sqrt(var / n)
    assert estimate.score_low == pytest.approx(mean - half, abs=1e-5)
    assert estimate.score_high == pytest.approx(mean + half, abs=1e-5)
    assert estimate.elo == pytest.approx(elo_from_score(0.7))


def test_even_results_are_zero_elo_with_los_one_half() -> None:
    for estimate in (trinomial(10, 5, 10), pentanomial([3, 10, 20, 10, 3])):
        assert estimate.elo == pytest.approx(0.0, abs=1e-9)
        assert estimate.los == pytest.approx(0.5)
        assert estimate.elo_low == pytest.approx(-estimate.elo_high)


def test_pairs_tighten_the_interval_when_openings_are_biased() -> None:
    # Every pair is one win and one loss (the opening decides): 0 Elo, and the
    # pentanomial interval is narrow (only the padding's width) while the trinomial one is wide.
    pairs = pentanomial([0, 0, 100, 0, 0])
    games = trinomial(100, 0, 100)
    assert 0.0 < pairs.elo_error < 10 and games.elo_error > 40


@pytest.mark.parametrize("counts", [[0, 0, 0, 0, 2], [2, 0, 0, 0, 0], [0, 0, 0, 0, 1], [0, 0, 0, 1, 1]])
def test_a_few_one_sided_pairs_do_not_exclude_equal_strength(counts: list[int]) -> None:
    # 4 wins in 4 games: an exact two-sided test does not reject 1/2 (p = 1/8), nor may the interval
    estimate = pentanomial(counts)
    assert estimate.score_low < 0.5 < estimate.score_high
    assert math.isfinite(estimate.elo_low if estimate.score > 0.5 else estimate.elo_high)
    assert 0.02 < estimate.los < 0.98
    assert trinomial(4, 0, 0).score_low < 0.5 < trinomial(0, 0, 4).score_high


def test_a_long_one_sided_match_is_decided() -> None:
    estimate = pentanomial([0, 0, 0, 0, 30])
    assert estimate.score_low > 0.5 and estimate.elo_low > 100 and estimate.los > 0.999


@given(st.lists(st.integers(min_value=0, max_value=40), min_size=5, max_size=5).filter(lambda c: sum(c) > 0))
def test_the_interval_always_holds_the_observed_score(counts: list[int]) -> None:
    low, high = score_interval(counts)
    estimate = pentanomial(counts)
    assert 0.0 <= low <= estimate.score <= high <= 1.0
    assert low < high


def test_sprt_does_not_end_on_a_handful_of_one_sided_pairs() -> None:
    sprt = Sprt(0.0, 5.0)
    assert all(sprt.decide([0, 0, 0, 0, k]) == "continue" for k in range(1, 11))
    assert sprt.decide([0, 0, 0, 0, 200]) == "H1"


@given(st.lists(st.integers(min_value=0, max_value=50), min_size=5, max_size=5).filter(lambda c: sum(c) > 0))
def test_pentanomial_los_agrees_with_llr_sign(counts: list[int]) -> None:
    estimate = pentanomial(counts)
    nelo = normalized_elo(counts)
    if estimate.score > 0.5:
        assert estimate.los > 0.5 and nelo > 0
    elif estimate.score < 0.5:
        assert estimate.los < 0.5 and nelo < 0
    # the LLR for bounds [0, 2] favours H1 exactly when the nElo is above their midpoint, 1
    llr = sprt_llr(counts, 0.0, 2.0)
    if llr != 0.0 and not math.isclose(nelo, 1.0):
        assert (llr > 0) == (nelo > 1.0)


def test_bad_counts_and_bounds_are_named() -> None:
    with pytest.raises(ValueError, match=r"\[1, 2\]"):
        pentanomial([1, 2])
    with pytest.raises(ValueError, match="-1"):
        trinomial(-1, 0, 0)
    with pytest.raises(ValueError, match="elo0 < elo1"):
        sprt_llr([1, 1, 1], 5.0, 0.0)
    with pytest.raises(ValueError, match="'5'"):
        parse_sprt("5")
    with pytest.raises(ValueError, match="alpha"):
        Sprt(0.0, 5.0, alpha=0.7)
    assert parse_sprt("0,5") == (0.0, 5.0)


def _tilted(base: np.ndarray, nelo: float) -> np.ndarray:
    """The exponential tilt of ``base`` over the pair scores whose nElo is exactly ``nelo`` (bisection)."""
    x = np.array(PAIR_SCORES)

    def nelo_of(lam: float) -> float:
        p = base * np.exp(lam * x)
        p /= p.sum()
        mean = float(p @ x)
        sd = math.sqrt(float(p @ (x - mean) ** 2)) * math.sqrt(2.0)
        return (mean - 0.5) / sd * NELO_SCALE

    lo, hi = -5.0, 5.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if nelo_of(mid) < nelo else (lo, mid)
    p = base * np.exp(lo * x)
    return p / p.sum()


def _sprt_outcomes(probs: np.ndarray, sprt: Sprt, runs: int, rng: np.random.Generator, batch: int = 10) -> np.ndarray:
    """Run ``runs`` SPRTs on pairs drawn from ``probs`` (checked every ``batch`` pairs): True where H1 was accepted."""
    counts = np.zeros((runs, 5), dtype=np.int64)
    decided = np.full(runs, -1)
    for _ in range(20000):
        active = np.flatnonzero(decided < 0)
        if active.size == 0:
            break
        counts[active] += rng.multinomial(batch, probs, size=active.size)
        for i in active:
            verdict = sprt.decide(counts[i])
            if verdict != "continue":
                decided[i] = verdict == "H1"
    assert (decided >= 0).all()
    return decided.astype(bool)


def test_sprt_error_rates_stay_within_alpha_and_beta() -> None:
    rng = np.random.default_rng(2026)
    sprt = Sprt(0.0, 20.0, alpha=0.05, beta=0.05)
    base = np.array([0.05, 0.25, 0.4, 0.25, 0.05])
    runs = 300
    slack = 3 * math.sqrt(0.05 * 0.95 / runs)  # three standard errors of a Monte Carlo rate
    false_positive = _sprt_outcomes(_tilted(base, sprt.elo0), sprt, runs, rng).mean()
    false_negative = 1.0 - _sprt_outcomes(_tilted(base, sprt.elo1), sprt, runs, rng).mean()
    assert false_positive <= sprt.alpha + slack
    assert false_negative <= sprt.beta + slack
    # and it has power: a clearly better player is accepted nearly always
    assert _sprt_outcomes(_tilted(base, 2 * sprt.elo1), sprt, 100, rng).mean() > 0.95


def test_each_constant_of_the_stats_module_has_its_own_docstring() -> None:
    import ast
    from pathlib import Path

    import tuning.stats

    body = ast.parse(Path(tuning.stats.__file__).read_text()).body
    docs = {}
    for node, after in zip(body, body[1:]):
        if isinstance(node, ast.Assign) and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            docs[node.targets[0].id] = after.value.value  # type: ignore[attr-defined]
    assert docs["NELO_SCALE"].startswith("nElo = ") and "NELO_SCALE" in docs["NELO_SCALE"]
    assert "pseudo-count" in docs["REGULARIZATION"].lower()


def test_the_normal_and_chi2_quantiles_equal_scipys() -> None:
    """The standard library's normal stands in for scipy.stats: the same quantiles and CDF to 12 digits."""
    from scipy.stats import chi2, norm

    from envs._bt import _chi2_one_dof
    from tuning.stats import _NORMAL

    for p in (0.5, 0.8, 0.9, 0.95, 0.975, 0.99, 0.999):
        assert _NORMAL.inv_cdf(p) == pytest.approx(norm.ppf(p), rel=1e-12)
        assert _chi2_one_dof(p) == pytest.approx(chi2.ppf(p, 1), rel=1e-12)
    for x in (-3.0, -0.5, 0.0, 1.3, 4.0):
        assert _NORMAL.cdf(x) == pytest.approx(norm.cdf(x), rel=1e-12)


def test_the_tuning_and_rating_command_lines_do_not_import_scipy_stats() -> None:
    """scipy.stats costs 0.65 s of every start (measured with python -X importtime); nothing they run needs it."""
    import subprocess
    import sys

    code = "import sys, tuning.run, tuning.match, envs.rate, envs.rating; print('scipy.stats' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.split() == ["False"], done.stderr
