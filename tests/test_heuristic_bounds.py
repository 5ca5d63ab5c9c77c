"""The evaluation bound of heuristics.bounds: sound on real positions, and huge weights refused before they overflow."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import CONNECT4, GOMOKU, MNK, TIC_TAC_TOE, Connect4, KInARow
from heuristics import HEURISTICS, Evaluator, WeightError, WeightFile, check_weights
from heuristics.bounds import EVALUATION_LIMIT, WIN_SCORE, max_abs_evaluation
from heuristics.registry import get_spec
from heuristics.spec import n_windows
from search import HEURISTIC_LIMIT
from search import WIN_SCORE as SEARCH_WIN_SCORE
from search.protocol import is_win_score
from tests.positions import random_position

GAMES: list[KInARow] = [CONNECT4, TIC_TAC_TOE, GOMOKU, Connect4(5, 4, 3), MNK(4, 6, 4)]


def test_the_limit_is_the_search_s() -> None:
    assert (SEARCH_WIN_SCORE, HEURISTIC_LIMIT) == (WIN_SCORE, EVALUATION_LIMIT)
    assert not is_win_score(np.nextafter(EVALUATION_LIMIT, 0)) and is_win_score(np.nextafter(EVALUATION_LIMIT, np.inf))


def test_window_counts() -> None:
    # 6x7, k=4: 24 horizontal, 21 vertical, 12 + 12 diagonal (the 69 windows of the paper's square table)
    assert n_windows(CONNECT4) == 69 and n_windows(TIC_TAC_TOE) == 8 and n_windows(MNK(2, 9, 3)) == 14 + 0 + 0 + 0


@pytest.mark.parametrize("game", [CONNECT4, TIC_TAC_TOE, GOMOKU])
def test_defaults_and_the_whole_tuning_range_pass_with_room_to_spare(game: KInARow) -> None:
    for name, spec in HEURISTICS.items():
        if spec.refuse(game) is None:
            for corner in (spec.defaults, {w.name: w.high for w in spec.weights}, {w.name: w.low for w in spec.weights}):
                assert max_abs_evaluation(name, game, corner) < EVALUATION_LIMIT / 10, (name, corner)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.sampled_from(sorted(HEURISTICS)), st.integers(0, 2**32 - 1),
       st.floats(0.0, 1.0), st.booleans())  # fmt: skip
def test_the_bound_holds_on_random_positions_and_weights(game: KInARow, name: str, seed: int, where: float,
                                                          negate: bool) -> None:  # fmt: skip
    spec = get_spec(name)
    if spec.refuse(game) is not None:
        return
    rng = np.random.default_rng(seed)
    # anywhere in (and at the ends of) the tuning ranges, sometimes negated: the bound takes absolute values
    weights = {w.name: w.low + (w.high - w.low) * float(rng.choice([0.0, where, 1.0, rng.random()])) for w in spec.weights}
    if negate:
        weights = {n: -v for n, v in weights.items()}
    try:
        evaluator = Evaluator(name, game, weights)
    except WeightError:
        assert max_abs_evaluation(name, game, check_weights(name, weights)) >= EVALUATION_LIMIT
        return
    bound = max_abs_evaluation(name, game, evaluator.weights)
    for plies in (None, game.n_cells - 1, 3):
        position = random_position(game, seed, plies)
        assert abs(evaluator.evaluate(position)) <= bound


@pytest.mark.parametrize("name", sorted(HEURISTICS))
def test_weights_that_would_overflow_are_refused_with_the_reason(name: str) -> None:
    spec = get_spec(name)
    game = CONNECT4 if spec.refuse(CONNECT4) is None else GOMOKU
    huge = {w.name: 1e308 for w in spec.weights}
    with pytest.raises(WeightError, match=f"weights of {name} too large for .*evaluations must stay below 1e\\+14, "
                                          "a tenth of the search's win score 1e\\+15"):  # fmt: skip
        Evaluator(name, game, huge)
    with pytest.raises(WeightError, match="scale the weights down by a factor of more than"):
        WeightFile(game, name, huge)
    first = spec.weights[0].name
    with pytest.raises(WeightError, match="too large for"):
        Evaluator(name, game, {first: 1e300})


def test_mics_base_is_refused_only_where_it_would_overflow() -> None:
    # mics_base ** k: harmless at k=5, inf (then inf * 0 = nan in the kernel) at k=26
    assert Evaluator("mics", GOMOKU, {"mics_base": 1e10}).weights["mics_base"] == 1e10
    with pytest.raises(WeightError, match="too large for m,n,k 26,26,26"):
        Evaluator("mics", MNK(26, 26, 26), {"mics_base": 1e20})


def test_numpy_weights_are_plain_numbers() -> None:
    h = Evaluator("windows", CONNECT4, {"good": np.float32(60.0), "danger": np.int64(90)})
    assert h.weights["good"] == 60.0 and type(h.weights["good"]) is float and h.weights["danger"] == 90.0
    with pytest.raises(WeightError, match="weight 'good' = np.True_ is not a finite number"):
        Evaluator("windows", CONNECT4, {"good": np.True_})
    with pytest.raises(WeightError, match="weight 'good' = 10000000000000000000...\\(401 characters\\) is too large"):
        Evaluator("windows", CONNECT4, {"good": 10**400})
