"""A plain ``alphabeta`` on a free board with k >= 4 plays the m,n,k default setting (mics, radius 2, top-6)."""

from __future__ import annotations

import pytest

from games import CONNECT4, GOMOKU, MNK, TIC_TAC_TOE, Connect4
from search.agents import MNK_DEFAULT, make_agent, uses_mnk_default
from search.budget import Limit
from search.solve import solve

SMALL = MNK(5, 5, 4)


@pytest.mark.parametrize("game", [SMALL, MNK(7, 7, 5), GOMOKU, MNK(15, 15, 5, exact_k=True), MNK(70, 70, 10)])
def test_plain_alphabeta_on_free_boards_plays_mics_top_6_within_radius_2(game):
    agent = make_agent("alphabeta", game)
    assert uses_mnk_default(game)
    assert agent.evaluator.name == "mics"
    assert agent.limit == Limit(depth=4, branching=MNK_DEFAULT.branching, radius=MNK_DEFAULT.radius)


@pytest.mark.parametrize("game", [CONNECT4, Connect4(5, 6, 4), TIC_TAC_TOE])
def test_gravity_and_short_rows_keep_their_defaults(game):
    agent = make_agent("alphabeta", game)
    assert not uses_mnk_default(game)
    assert agent.evaluator.name != "mics"
    assert agent.limit == Limit(depth=4)


def test_a_key_given_replaces_only_its_own_default():
    agent = make_agent("alphabeta:radius=1,branching=3,time_ms=200", GOMOKU)
    assert agent.limit == Limit(branching=3, time_ms=200.0, radius=1)
    assert make_agent("alphabeta:depth=2", GOMOKU).limit == Limit(depth=2, branching=6, radius=2)


@pytest.mark.parametrize("spec", ["alphabeta:heuristic=mics", "alphabeta:heuristic=windows,depth=3"])
def test_a_heuristic_given_switches_the_default_setting_off(spec):
    agent = make_agent(spec, GOMOKU)
    assert agent.limit.branching is None and agent.limit.radius is None


def test_weight_overrides_by_name_apply_to_the_default_heuristic():
    agent = make_agent("alphabeta:depth=2", GOMOKU)
    name = agent.evaluator.spec.weight_names[0]
    tuned = make_agent(f"alphabeta:depth=2,{name}=7", GOMOKU)
    assert tuned.evaluator.weights[name] == 7.0 and tuned.limit == agent.limit


def test_the_default_plays_as_the_explicit_recommended_spec():
    position = GOMOKU.position("h8 h9 i8 g7 j9")
    plain = make_agent("alphabeta:depth=3", GOMOKU, seed=5)
    explicit = make_agent("alphabeta:heuristic=mics,radius=2,branching=6,depth=3", GOMOKU, seed=5)
    assert plain.select_move(position) == explicit.select_move(position)
    assert plain.last_result is not None and explicit.last_result is not None
    assert (plain.last_result.score, plain.last_result.nodes) == (explicit.last_result.score, explicit.last_result.nodes)


def test_a_timed_default_tries_the_solver_first_where_it_fits():
    position = SMALL.position("c3 b2 c2 c4 b3 d3 a1 e5 a5 e1")  # 15 empty cells: solved in milliseconds
    exact = solve(position, moves=True)  # first: the solver's kernels are compiled outside the agent's clock
    agent = make_agent("alphabeta:time_ms=5000", SMALL, seed=0)
    assert agent.select_move(position) in exact.best_moves
    assert agent.last_result is not None
    assert agent.last_result.depth == SMALL.n_cells - position.ply  # the solver's move, not the search's
    assert make_agent("alphabeta:depth=2", SMALL)._solver is None  # no time, no solver (nor its table)
