"""The tuner's search space and samplers: bounds, candidates, the 1% rule, every sampler by name."""

from __future__ import annotations

import optuna
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import CONNECT4, make_game
from heuristics import get_spec
from search.agents import make_agent
from search.budget import Limit
from tuning.samplers import SAMPLERS, OnePercentSampler, make_sampler
from tuning.space import SearchSpace, bounds_around, parse_bounds


def test_the_space_covers_every_weight_within_its_registered_bounds() -> None:
    space = SearchSpace.build(CONNECT4, "c4_features")
    spec = get_spec("c4_features")
    assert space.names == (*spec.weight_names, "branching", "depth")
    for param, weight in zip(space.params, spec.weights):
        assert (param.low, param.high, param.log, param.default) == (weight.low, weight.high, weight.log, weight.default)
    branching = space.params[-2]
    assert (branching.low, branching.high) == (2, 7)  # q = 7 on a 7-column board means every move


def test_candidates_become_agents_with_exactly_those_settings() -> None:
    space = SearchSpace.build(CONNECT4, "c4_features")
    values = {**space.defaults(), "f4_col_d": 123.5, "branching": 3, "depth": 6}
    candidate = space.candidate(values, Limit(nodes=2000))
    agent = make_agent(candidate.spec(), CONNECT4)
    assert agent.evaluator.weights["f4_col_d"] == 123.5
    assert agent.limit == candidate.limit == Limit(depth=6, branching=3, nodes=2000)
    assert space.candidate({**values, "branching": 7}).limit.branching is None  # the top of the range is "all moves"
    assert make_agent(space.candidate(space.defaults()).spec(), CONNECT4).evaluator.weights == get_spec("c4_features").defaults


def test_explicit_branching_bounds_are_real_q_values() -> None:
    space = SearchSpace.build(make_game("mnk", 9, 9, 5), "windows", bounds=parse_bounds("branching=2:5"))
    assert space.candidate({"branching": 5}).limit.branching == 5


@pytest.mark.parametrize(
    ("bounds", "message"),
    [("good=10:5", "make no sense"), ("good=-1:5", "allowed range"), ("depth=1.5:4", "integers"), ("what=1:2", "unknown")],
)
def test_bad_bounds_are_refused_with_the_name(bounds: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SearchSpace.build(make_game("mnk", 5, 5, 4), "windows", bounds=parse_bounds(bounds))


def test_bounds_syntax_and_refusing_heuristics() -> None:
    with pytest.raises(ValueError, match="name=low:high"):
        parse_bounds("depth=2-6")
    with pytest.raises(ValueError, match="k"):
        SearchSpace.build(make_game("mnk", 9, 9, 5), "c4_features")  # the paper's features are for k = 4


def _toy(trial: optuna.Trial) -> float:
    x = trial.suggest_float("x", 1.0, 100.0, log=True)
    n = trial.suggest_int("n", 1, 8)
    return -abs(x - 30.0) - abs(n - 5)


@pytest.mark.parametrize("name", SAMPLERS)
def test_every_sampler_runs_and_starts_from_the_enqueued_defaults(name: str) -> None:
    sampler = make_sampler(name, seed=0, start={"x": 10.0, "n": 2})
    study = optuna.create_study(direction="maximize", sampler=sampler)
    study.enqueue_trial({"x": 10.0, "n": 2})
    study.optimize(_toy, n_trials=6)
    assert study.trials[0].params == {"x": 10.0, "n": 2}
    assert len(study.trials) == 6 and study.best_value >= study.trials[0].value


def test_onepercent_moves_one_parameter_of_the_incumbent_by_one_percent() -> None:
    study = optuna.create_study(direction="maximize", sampler=OnePercentSampler({"x": 10.0, "n": 2}, seed=3))
    study.optimize(_toy, n_trials=30)
    trials = study.trials
    assert trials[0].params == {"x": 10.0, "n": 2}
    for i in range(1, len(trials)):
        incumbent = max(trials[:i], key=lambda t: (t.value, -t.number))
        x0, n0 = incumbent.params["x"], incumbent.params["n"]
        x1, n1 = trials[i].params["x"], trials[i].params["n"]
        moved_x = x1 != x0
        assert moved_x != (n1 != n0)  # exactly one parameter moves
        if moved_x:
            assert x1 == pytest.approx(x0 * 1.01) or x1 == pytest.approx(x0 * 0.99)
        else:
            assert abs(n1 - n0) == 1 or n1 in (1, 8)  # integers move one step (clipped at the bounds)
    assert study.best_value > trials[0].value  # it climbs


def test_bad_sampler_requests_are_named() -> None:
    with pytest.raises(ValueError, match="unknown sampler 'annealing'"):
        make_sampler("annealing", 0, {})
    with pytest.raises(ValueError, match="single-objective"):
        make_sampler("cmaes", 0, {}, objectives=2)


def test_a_candidates_weight_file_carries_its_search_settings(tmp_path) -> None:
    from heuristics import save_weights
    from search.agents import AlphaBetaAgent

    game = make_game("mnk", 9, 9, 5)
    space = SearchSpace.build(game, "windows")
    candidate = space.candidate({**space.defaults(), "branching": 6, "depth": 3}, Limit(nodes=500, radius=2))
    save_weights(candidate.weight_file(game, {"study": "t"}), tmp_path / "w.json")
    agent = AlphaBetaAgent(game, weights=tmp_path / "w.json")
    assert agent.limit == Limit(depth=3, branching=6, nodes=500, radius=2)


def test_onepercent_in_a_shared_study_proposes_as_one_process_would() -> None:
    # Two workers (two sampler objects, as two processes would hold) taking turns on one study propose exactly
    # what one worker alone proposes: the sampler keeps no state of its own between trials.
    def run(workers: int) -> list[dict]:
        storage = optuna.storages.InMemoryStorage()
        studies = [optuna.create_study(storage=storage, study_name="s", direction="maximize", load_if_exists=True,
                                       sampler=OnePercentSampler({"x": 10.0, "n": 2}, seed=5)) for _ in range(workers)]  # fmt: skip
        studies[0].enqueue_trial({"x": 10.0, "n": 2})
        for i in range(12):
            studies[i % workers].optimize(_toy, n_trials=1)
        return [t.params for t in studies[0].trials]

    alone, shared = run(1), run(2)
    assert shared == alone
    assert len({(p["x"], p["n"]) for p in shared}) > 6  # and it moves


@pytest.mark.parametrize("game_name", ["connect4", "gomoku", "tictactoe"])
def test_weights_that_cannot_change_an_evaluation_on_a_game_are_not_searched(game_name: str) -> None:
    # the claim behind WeightSpec.applies, checked: a weight left out never changes the evaluation there
    import numpy as np

    from heuristics import Evaluator
    from heuristics.defaults import PRESET_GAMES

    game = PRESET_GAMES[game_name]
    space = SearchSpace.build(game, "threats", tune=("weights",))
    spec = get_spec("threats")
    left_out = [w.name for w in spec.weights if w.name not in space.names]
    assert left_out and all(not w.applies(game) for w in spec.weights if w.name in left_out)
    rng = np.random.default_rng(5)
    base = Evaluator("threats", game)
    for _ in range(150):
        position = game.position("")
        for _ in range(int(rng.integers(0, min(game.n_cells - 1, 30)))):
            if position.is_terminal():
                break
            position.play(int(rng.choice(position.legal_moves())))
        if position.is_terminal():
            continue
        changed = Evaluator("threats", game, {name: spec.defaults[name] * 3 + 7 for name in left_out})
        assert changed.evaluate(position) == base.evaluate(position), (game_name, position.move_string())


def test_a_box_around_weights_scales_large_ones_and_widens_small_ones_within_the_registered_bounds() -> None:
    weights = {**get_spec("threats").defaults, "w1_later": 198.9, "w2_now": 100.0, "squares": 3.7, "tempo": -40.0}
    bounds = parse_bounds(bounds_around(CONNECT4, "threats", weights))
    assert bounds["w2_now"] == (50.0, 160.0)  # [0.5x, 1.6x]
    assert bounds["w1_later"] == (99.45, 200.0)  # 1.6x = 318 clipped to the registered 200
    assert bounds["squares"] == (0.0, 10.0)  # below the floor: [min(0, 2x), max(10, 2x)]
    assert bounds["tempo"] == (-64.0, -20.0)  # a negative weight: the same factors, low and high swapped
    assert bounds["centre_2"] == (0.0, 10.0)  # 0 stays reachable
    assert "open_k1" not in bounds and "w4_now" not in bounds  # free-board and k >= 5 weights are not searched on 6x7
    with pytest.raises(ValueError, match="0 < low < 1 < high"):
        bounds_around(CONNECT4, "threats", weights, low=1.2)
    with pytest.raises(ValueError, match="'tempo'"):
        bounds_around(CONNECT4, "threats", {k: v for k, v in weights.items() if k != "tempo"})


@pytest.mark.parametrize("name, value, message", [
    ("scale", 1e308, "scale=1e.308 puts .* outside its registered range"),  # printed infinite bounds, exit 0
    ("scale", 3.0, "scale=3 puts w1_later=198.9 at 596.7, outside its registered range \\[0, 200\\]"),
    ("floor", float("nan"), "floor=nan is not a finite number"),  # was accepted
    ("high", float("inf"), "high=inf is not a finite number"),
    ("low", float("-inf"), "low=-inf is not a finite number"),
    ("scale", -1.0, "scale > 0"),
])  # fmt: skip
def test_a_box_refuses_factors_that_are_not_finite_or_put_a_weight_out_of_range(name: str, value: float, message: str) -> None:
    weights = {**get_spec("threats").defaults, "w1_later": 198.9}
    with pytest.raises(ValueError, match=message):
        bounds_around(CONNECT4, "threats", weights, **{name: value})


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_the_box_is_a_valid_space_that_holds_its_centre(data: st.DataObject) -> None:
    spec = get_spec("threats")
    weights = {w.name: data.draw(st.floats(w.low, w.high), label=w.name) for w in spec.weights}
    space = SearchSpace.build(CONNECT4, "threats", tune=("weights",), bounds=parse_bounds(bounds_around(CONNECT4, "threats", weights)))
    for param in space.params:
        assert param.low <= weights[param.name] <= param.high
        assert spec.weights[spec.weight_names.index(param.name)].low <= param.low < param.high


def test_the_script_prints_the_box_of_a_shipped_file(capsys: pytest.CaptureFixture[str]) -> None:
    from heuristics import load_weights
    from scripts.bounds_around import main

    assert main(["connect4-threats-tuned", "--low", "0.8", "--high", "1.25"]) == 0
    shipped = load_weights("connect4-threats-tuned")
    assert capsys.readouterr().out.strip() == bounds_around(CONNECT4, "threats", shipped.weights, 0.8, 1.25)
    with pytest.raises(SystemExit) as exit_info:
        main(["connect4-threats-tuned", "--high", "0.9"])
    assert exit_info.value.code == 2 and "high=0.9" in capsys.readouterr().err


def test_a_scaled_box_is_the_box_of_the_scaled_weights_and_the_scaled_player_picks_the_same_moves() -> None:
    from search.agents import AlphaBetaAgent
    from tuning.labels import load_labels

    weights = {**get_spec("threats").defaults, "w1_later": 198.9, "odd_first": 982.6, "tempo": 90.9}  # two near their bound
    half = {name: 0.5 * value for name, value in weights.items()}
    assert bounds_around(CONNECT4, "threats", weights, scale=0.5) == bounds_around(CONNECT4, "threats", half)
    assert parse_bounds(bounds_around(CONNECT4, "threats", weights, scale=0.5))["w1_later"] == (49.73, 159.1)  # 198.9: room above
    with pytest.raises(ValueError, match="scale=0"):
        bounds_around(CONNECT4, "threats", weights, scale=0.0)
    labels = load_labels(game=CONNECT4)
    agents = [AlphaBetaAgent(CONNECT4, heuristic="threats", weights=w, nodes=400, seed=3) for w in (weights, half)]
    for index in range(0, len(labels.positions), len(labels.positions) // 60):
        moves = set()
        for agent in agents:
            agent.reset()
            moves.add(agent.select_move(labels.position(index)))
        assert len(moves) == 1, labels.positions[index].moves
