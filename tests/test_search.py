"""Alpha-beta search: equal to minimax, shortest wins, budgets, tables, determinism."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import CONNECT4, GOMOKU, MNK, TIC_TAC_TOE, Connect4, KInARow
from heuristics import NAMES, Evaluator, get_spec
from search import WIN_SCORE, TranspositionTable, minimax, plies_to_end, search
from tests.naive_search import naive_negamax
from tests.positions import random_position

SHAPES: list[KInARow] = [Connect4(), Connect4(5, 4, 3), Connect4(4, 5, 4), MNK(3, 3, 3), MNK(4, 4, 3), MNK(5, 5, 4)]
CASES = [(name, game) for name in NAMES for game in SHAPES if get_spec(name).refuse(game) is None]


@pytest.mark.parametrize("name, game", CASES, ids=[f"{n}-{g}" for n, g in CASES])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), depth=st.integers(1, 4))
def test_alphabeta_equals_minimax_and_the_naive_reference(name: str, game: KInARow, seed: int, depth: int) -> None:
    h = Evaluator(name, game)
    pos = random_position(game, seed, seed % min(game.n_cells - 2, 14))
    expected, _ = minimax(pos, h, depth)
    if game.gravity or depth <= 2:  # the Python reference is too slow for wide trees
        assert expected == naive_negamax(pos, h, depth)
    for use_tt in (True, False):
        for ordering in (True, False):
            result = search(pos, h, depth=depth, use_tt=use_tt, ordering=ordering)
            reachable = min(depth, game.n_cells - pos.ply)  # the search stops at the end of the game
            assert result.depth == reachable or plies_to_end(result.score) is not None
            if result.depth == reachable:
                assert result.score == expected, (use_tt, ordering)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), depth=st.integers(1, 4))
def test_depth_4_and_radius_on_mnk(seed: int, depth: int) -> None:
    """Minimax kernel == naive reference (to depth 2: Python is slow), alpha-beta == minimax (to depth 4)."""
    game = MNK(5, 5, 4)
    h = Evaluator("windows", game)
    pos = random_position(game, seed, 3 + seed % 6)
    for radius in (None, 1, 2):
        expected, _ = minimax(pos, h, depth, radius=radius)
        if depth <= 2:
            assert expected == naive_negamax(pos, h, depth, radius=radius)
        result = search(pos, h, depth=depth, radius=radius, rng=np.random.default_rng(seed))
        assert result.score == expected or (result.depth < depth and plies_to_end(result.score) is not None)


def test_pruning_and_ordering_save_nodes() -> None:
    h = Evaluator("square_values", CONNECT4)
    pos = CONNECT4.position("4453")
    _, plain = minimax(pos, h, 6)
    unordered = search(pos, h, depth=6, ordering=False, use_tt=False).nodes
    ordered = search(pos, h, depth=6).nodes
    assert ordered < unordered < plain


def test_tic_tac_toe_is_a_draw() -> None:
    result = search(TIC_TAC_TOE.position(), Evaluator("windows", TIC_TAC_TOE), depth=9)
    assert result.score == 0 and result.depth == 9 and len(result.pv) >= 1


@pytest.mark.parametrize("moves", ["a1 a2", "b2 a1", "a1 b2 c3", "b2 a1 c2", "a1 b1 b2"])
def test_forced_results_are_found_at_the_shortest_distance(moves: str) -> None:
    """Searched to the end, the score equals the exact value, distance to the win included."""
    pos = TIC_TAC_TOE.position(moves)
    h = Evaluator("windows", TIC_TAC_TOE)
    exact = naive_negamax(pos, h, 9)
    result = search(pos, h, depth=9)
    assert result.score == exact and plies_to_end(result.score) == plies_to_end(exact)
    if moves == "a1 a2":  # x took a corner, o an adjacent edge: x wins, in 5 plies with best play
        assert result.score == WIN_SCORE - 5


def test_connect4_win_in_one_and_a_lost_position() -> None:
    h = Evaluator("c4_features", CONNECT4)
    win_now = search(CONNECT4.position("445566"), h, depth=4)  # x: d1 e1 f1, c1 and g1 both win
    assert win_now.score == WIN_SCORE - 1 and win_now.move in (2, 6)
    lost = search(CONNECT4.position("44556"), h, depth=4)  # o to move cannot stop both c1 and g1
    assert lost.score == -(WIN_SCORE - 2) and plies_to_end(lost.score) == 2


def test_connect4_the_only_saving_move() -> None:
    pos = CONNECT4.position("51617")  # x: e1 f1 g1; o to move must take d1
    h = Evaluator("square_values", CONNECT4)
    result = search(pos, h, depth=4)
    assert result.move == 3 and plies_to_end(result.score) is None
    assert search(pos, h, depth=4, branching=1).move == 3  # a forced block is never pruned by q


def test_the_saving_move_is_the_only_non_losing_move() -> None:
    # Tic-tac-toe: x a1, b1 (threatens c1); o to move must play c1.
    pos = TIC_TAC_TOE.position("a1 b2 b1")
    result = search(pos, Evaluator("mics", TIC_TAC_TOE), depth=7)
    assert TIC_TAC_TOE.format_move(result.move) == "c1"
    assert result.score == 0  # the rest of the game is a draw with best play
    for move in pos.legal_moves():
        if move != result.move:
            child = pos.copy()
            child.play(move)
            assert naive_negamax(child, Evaluator("mics", TIC_TAC_TOE), 2) > 0  # x then wins


def test_branching_limits_the_width_but_keeps_immediate_wins() -> None:
    h = Evaluator("square_values", CONNECT4)
    assert search(CONNECT4.position("445566"), h, depth=3, branching=1).score == WIN_SCORE - 1
    wide = search(CONNECT4.position("44"), h, depth=6)
    narrow = search(CONNECT4.position("44"), h, depth=6, branching=2)
    assert narrow.nodes < wide.nodes


def test_node_budget_is_never_exceeded_after_depth_one() -> None:
    h = Evaluator("windows", CONNECT4)
    for budget in (50, 500, 5000):
        result = search(CONNECT4.position("44"), h, nodes=budget)
        assert result.nodes <= budget and result.depth >= 1
    tiny = search(CONNECT4.position("44"), h, nodes=1)
    assert tiny.depth == 1 and tiny.nodes <= 1 + 7  # the documented overshoot: one depth-1 iteration


def test_time_budget_is_honoured_loosely() -> None:
    h = Evaluator("c4_features", CONNECT4)
    search(CONNECT4.position(), h, depth=2)  # compile outside the measurement
    for ms in (20, 100):
        elapsed = []
        for _ in range(3):  # the best of three: a loaded machine may stall any one run
            started = time.perf_counter()
            result = search(CONNECT4.position(), h, time_ms=ms)
            elapsed.append((time.perf_counter() - started) * 1000)
            assert result.depth >= 1
        assert min(elapsed) <= ms * 1.1 + 5 + 10  # the promise is 10% + 5 ms; 10 ms of slack for the test


def test_transposition_table_is_reusable_and_clearable() -> None:
    h = Evaluator("windows", CONNECT4)
    table = TranspositionTable(1 << 12)
    pos = CONNECT4.position("44")
    first = search(pos, h, depth=5, tt=table)
    again = search(pos, h, depth=5, tt=table)
    assert again.score == first.score and again.nodes < first.nodes
    table.clear()
    assert search(pos, h, depth=5, tt=table).nodes == first.nodes
    assert TranspositionTable(1000).size == 1024
    with pytest.raises(ValueError, match="tt_size=0 must be an integer from 1 to"):
        TranspositionTable(0)


def test_seeded_tie_breaking_is_deterministic() -> None:
    h = Evaluator("square_values", GOMOKU)
    pos = GOMOKU.position("h8")
    moves = {search(pos, h, depth=1, radius=1, rng=np.random.default_rng(s)).move for s in range(12)}
    assert len(moves) > 1  # 8 neighbours of equal value: ties are broken at random ...
    same = {search(pos, h, depth=1, radius=1, rng=np.random.default_rng(5)).move for _ in range(3)}
    assert len(same) == 1  # ... but the same seed picks the same move


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({}, "give at least one budget"),
        ({"depth": 0}, "depth=0 must be a positive integer"),
        ({"nodes": -5}, "nodes=-5 must be a positive integer"),
        ({"depth": 2, "branching": 0}, "branching=0"),
        ({"time_ms": float("nan")}, "time_ms=nan"),
        ({"depth": 2, "radius": -1}, "radius=-1"),
    ],
)
def test_bad_arguments(kwargs: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError, match=message):
        search(CONNECT4.position(), Evaluator("windows", CONNECT4), **kwargs)


def test_finished_positions_and_wrong_evaluators_are_refused() -> None:
    with pytest.raises(ValueError, match="is over"):
        search(TIC_TAC_TOE.position("a1 b1 a2 b2 a3"), Evaluator("windows", TIC_TAC_TOE), depth=2)
    with pytest.raises(ValueError, match="evaluator is for"):
        search(CONNECT4.position(), Evaluator("windows", TIC_TAC_TOE), depth=2)


def test_principal_variation_is_legal_and_ends_in_the_forced_win() -> None:
    pos = TIC_TAC_TOE.position("a1 a2")  # x wins in 5 plies with best play
    h = Evaluator("windows", TIC_TAC_TOE)
    result = search(pos, h, depth=9)
    assert result.pv[0] == result.move and len(result.pv) == 5
    line = pos.copy()
    for move in result.pv:
        line.play(move)  # raises if the PV is not a legal line
    assert line.winner == 0  # it ends with x's winning move
    deep = search(CONNECT4.position("4453"), Evaluator("square_values", CONNECT4), depth=6)
    assert deep.pv[0] == deep.move and 1 <= len(deep.pv) <= 6
    replay = CONNECT4.position("4453")
    for move in deep.pv:
        replay.play(move)


def test_calibrate_turns_a_time_limit_into_a_node_budget() -> None:
    from search import calibrate

    h = Evaluator("square_values", CONNECT4)
    rate = calibrate(h, seconds=0.05)
    assert rate > 1000  # nodes per second; any numba build manages far more
    started = time.perf_counter()
    result = search(CONNECT4.position(), h, nodes=int(rate * 0.05))
    assert result.nodes <= int(rate * 0.05)
    assert time.perf_counter() - started < 0.05 * 10  # loose: the rate depends on the position searched
