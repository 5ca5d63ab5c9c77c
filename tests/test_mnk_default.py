"""A plain ``alphabeta`` on a free board plays the gomoku engine for 4 <= k <= 15, the m,n,k default setting (mics,
radius 2, top-6) for longer lines, and the generic defaults elsewhere."""

from __future__ import annotations

import pytest

from games import CONNECT4, GOMOKU, MNK, TIC_TAC_TOE, Connect4
from search.agents import MNK_DEFAULT, default_heuristic, make_agent, uses_gomoku_engine, uses_mnk_default
from search.agents.spec import AgentSpecError
from search.alphabeta.engine import generic_heuristic
from search.budget import Limit
from search.errors import SearchError
from search.gomoku.engine import ENGINE_WEIGHTS, FUTILITY, FUTILITY_CELLS, SWITCH_NAMES, GomokuEngine
from search.solve import solve

# the engine's kernels compile once, on the worker of every module that searches with it
pytestmark = pytest.mark.xdist_group("gomoku")

SMALL = MNK(5, 5, 4)
LONG = MNK(20, 20, 16)  # longer lines than the engine's keys hold


@pytest.mark.parametrize("game", [SMALL, MNK(7, 7, 5), GOMOKU, MNK(15, 15, 5, exact_k=True), MNK(70, 70, 10)])
def test_plain_alphabeta_on_free_boards_plays_the_gomoku_engine_with_its_tuned_table(game):
    agent = make_agent("alphabeta", game)
    assert uses_gomoku_engine(game, None) and not uses_mnk_default(game)
    assert agent.gomoku is not None and agent.evaluator.name == default_heuristic(game) == "gomoku"
    assert agent.evaluator.weights == ENGINE_WEIGHTS
    assert agent.limit == Limit(depth=4)
    assert generic_heuristic(game) == "mics"  # where the generic search runs on it (the solver's fallback)


def test_plain_alphabeta_on_lines_longer_than_the_engine_plays_mics_top_6_within_radius_2():
    agent = make_agent("alphabeta", LONG)
    assert uses_mnk_default(LONG) and not uses_gomoku_engine(LONG, None)
    assert agent.gomoku is None and agent.evaluator.name == "mics"
    assert agent.limit == Limit(depth=4, branching=MNK_DEFAULT.branching, radius=MNK_DEFAULT.radius)


@pytest.mark.parametrize("game", [CONNECT4, Connect4(5, 6, 4), TIC_TAC_TOE])
def test_gravity_and_short_rows_keep_their_defaults(game):
    agent = make_agent("alphabeta", game)
    assert not uses_mnk_default(game)
    assert agent.evaluator.name != "mics"
    assert agent.limit == Limit(depth=4)


def test_a_key_given_replaces_only_its_own_default():
    agent = make_agent("alphabeta:radius=1,branching=3,time_ms=200", LONG)
    assert agent.limit == Limit(branching=3, time_ms=200.0, radius=1)
    assert make_agent("alphabeta:depth=2", LONG).limit == Limit(depth=2, branching=6, radius=2)


@pytest.mark.parametrize("spec", ["alphabeta:heuristic=mics", "alphabeta:heuristic=windows,depth=3"])
@pytest.mark.parametrize("game", [GOMOKU, LONG])
def test_a_heuristic_given_switches_the_default_setting_off(spec, game):
    agent = make_agent(spec, game)
    assert agent.gomoku is None and agent.limit.branching is None and agent.limit.radius is None


def test_weight_overrides_by_name_apply_to_the_default_heuristic():
    for game in (GOMOKU, LONG):
        agent = make_agent("alphabeta:depth=2", game)
        name = agent.evaluator.spec.weight_names[0]
        tuned = make_agent(f"alphabeta:depth=2,{name}=7", game)
        assert tuned.evaluator.weights[name] == 7.0 and tuned.limit == agent.limit
        assert (tuned.gomoku is None) == (agent.gomoku is None)


@pytest.mark.parametrize(
    "game, plain_spec, explicit_spec",
    [(GOMOKU, "alphabeta:depth=3", "alphabeta:heuristic=gomoku,depth=3"),
     (LONG, "alphabeta:depth=2", "alphabeta:heuristic=mics,radius=2,branching=6,depth=2")],
)  # fmt: skip
def test_the_default_plays_as_the_explicit_spec(game, plain_spec, explicit_spec):
    position = game.position("h8 h9 i8 g7 j9")
    plain, explicit = make_agent(plain_spec, game, seed=5), make_agent(explicit_spec, game, seed=5)
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


def test_the_batched_opponent_kernels_leave_the_gomoku_engine_alone():
    # they run the generic search: a batched plain alphabeta on a free board would not play as it does alone
    from envs.batched import AlphaBetaBatch

    assert not AlphaBetaBatch.supports(make_agent("alphabeta:depth=2,tss_nodes=0", GOMOKU))
    assert AlphaBetaBatch.supports(make_agent("alphabeta:depth=2,tss_nodes=0,heuristic=mics", GOMOKU))


def test_spec_keys_set_the_engine_threat_switches_and_the_defaults_stay_for_the_rest():
    agent = make_agent("alphabeta:horizon_vct=7,shallow_vct_ply=3,vct_budget=500,lmr=2,threat_width=4,futility=77,razor=9",
                       GOMOKU)
    fresh = GomokuEngine(GOMOKU, tt_bits=10)
    assert agent.gomoku is not None
    engine = agent.gomoku
    assert (engine.horizon_vct, engine.shallow_vct_ply, engine.vct_budget, engine.lmr, engine.threat_width,
            engine.futility, engine.razor) == (7, 3, 500, 2, 4, 77, 9)  # fmt: skip
    for name in set(SWITCH_NAMES) - {"horizon_vct", "shallow_vct_ply", "vct_budget", "lmr", "threat_width", "futility", "razor"}:
        assert getattr(agent.gomoku, name) == getattr(fresh, name), name


def test_reverse_futility_pruning_is_on_by_default_up_to_15_by_15_and_a_spec_sets_it_anywhere():
    assert FUTILITY > 0 and FUTILITY_CELLS == 15 * 15
    for game, expected in ((MNK(7, 7, 5), FUTILITY), (GOMOKU, FUTILITY), (MNK(15, 16, 5), 0), (MNK(20, 20, 5), 0)):
        agent = make_agent("alphabeta", game)
        assert agent.gomoku is not None and (agent.gomoku.futility, agent.gomoku.razor) == (expected, 0), game
    assert make_agent("alphabeta:futility=0", GOMOKU).gomoku.futility == 0  # type: ignore[union-attr]
    assert make_agent("alphabeta:futility=40", MNK(20, 20, 5)).gomoku.futility == 40  # type: ignore[union-attr]
    assert GomokuEngine(MNK(20, 20, 5), tt_bits=10, futility=7).futility == 7


@pytest.mark.parametrize(
    ("spec", "game", "error", "match"),
    [("alphabeta:horizon_vct=-1", GOMOKU, ValueError, "horizon_vct=-1 must be a non-negative integer"),
     ("alphabeta:shallow_vct_ply=500", GOMOKU, ValueError, "shallow_vct_ply=500 must be an integer from 0 to 128"),
     ("alphabeta:lmr=5", GOMOKU, ValueError, "lmr=5 must be an integer from 0 to 4"),
     ("alphabeta:futility=-3", GOMOKU, ValueError, "futility=-3 must be an integer from 0 to 1000000000000"),
     ("alphabeta:futility=3000000000000000000", GOMOKU, ValueError, "futility=3000000000000000000 must be an integer"),
     ("alphabeta:razor=-1", GOMOKU, ValueError, "razor=-1 must be an integer from 0 to 1000000000000"),
     ("alphabeta:horizon_vct=many", GOMOKU, AgentSpecError, "horizon_vct='many' is not a number"),
     ("alphabeta:horizon_vct=0", CONNECT4, SearchError, "horizon_vct set.*plays the generic search on Connect-4"),
     ("alphabeta:heuristic=mics,shallow_vcf=0", GOMOKU, SearchError, "shallow_vcf set.*generic search on m,n,k 15,15,5"),
     ("alphabeta:horizon_vct=0", LONG, SearchError, "generic search on m,n,k 20,20,16")],
)  # fmt: skip
def test_engine_switches_are_refused_with_the_bad_value_or_where_the_engine_does_not_play(spec, game, error, match):
    with pytest.raises(error, match=match):
        make_agent(spec, game)


def test_a_bad_switch_is_refused_before_the_engine_and_its_table_are_built(monkeypatch):
    import search.gomoku.player

    def no_engine(*args, **kwargs):
        raise AssertionError("the engine was built before the switches were checked")

    monkeypatch.setattr(search.gomoku.player, "GomokuEngine", no_engine)
    with pytest.raises(ValueError, match="vct_ply=-3 must be"):
        make_agent("alphabeta:vct_ply=-3", GOMOKU)


def test_an_unknown_engine_switch_is_named_with_the_switches():
    with pytest.raises(SearchError, match="unknown gomoku engine switch.*'vcf'.*the switches are horizon_vcf, horizon_vct"):
        GomokuEngine(GOMOKU, tt_bits=10).set_switches({"vcf": 3})
