"""The one search budget (search.budget.Limit): validation, immutability, dict and weight-file round trips, and its callers."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any, Optional

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import CONNECT4, TIC_TAC_TOE, make_game
from heuristics import Evaluator, WeightFileError, load_weights, save_weights
from heuristics.defaults import DEFAULT_SEARCH
from search import Limit, LimitError, minimax, search
from search.agents import KINDS, AlphaBetaAgent, make_agent
from search.alphabeta.engine import _search
from search.budget import FIELD_TYPES, FIELDS, load_weight_file
from tuning.gauntlet import WEIGHTS_DIR, default_gauntlet, member_spec
from tuning.space import Candidate

INT64_MAX = 2**63 - 1
WEIGHTS = Path(__file__).resolve().parents[1] / "weights"


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("depth", 0, "must be a positive integer of at most 2**63 - 1"),
        ("depth", -1, "must be a positive integer"),
        ("depth", True, "must be a positive integer"),  # a bool is a mistake, not a depth of 1
        ("depth", 2.5, "must be a positive integer"),
        ("depth", "4", "must be a positive integer"),
        ("nodes", 2**63, "must be a positive integer of at most 2**63 - 1"),
        ("nodes", 0, "must be a positive integer"),
        ("branching", 0, "must be a positive integer"),
        ("radius", -1, "must be a non-negative integer of at most 2**63 - 1"),
        ("radius", 1.0, "must be a non-negative integer"),
        ("time_ms", 0, "is not positive and finite: time_ms must be a positive finite number or None"),
        ("time_ms", -5.0, "is not positive and finite"),
        ("time_ms", math.nan, "is not positive and finite"),
        ("time_ms", math.inf, "is not positive and finite"),
        ("time_ms", "fast", "is not a number"),
        ("time_ms", 10**400, "is too large for a float"),
    ],
)
def test_each_bad_value_is_one_line_naming_the_field_the_value_and_what_is_allowed(name: str, value: Any,
                                                                                  allowed: str) -> None:  # fmt: skip
    with pytest.raises(LimitError) as info:
        Limit(**{name: value})
    message = str(info.value)
    assert info.value.field == name and "\n" not in message
    assert message.startswith(f"{name}={str(value)[:20] if isinstance(value, int) else repr(value)[:20]}"), message
    assert allowed in message, message


def test_values_are_normalised_and_the_limits_are_inclusive() -> None:
    limit = Limit(depth=np.int64(4), nodes=INT64_MAX, time_ms=np.int32(50), branching=1, radius=0)
    assert limit == Limit(depth=4, nodes=INT64_MAX, time_ms=50.0, branching=1, radius=0)
    assert type(limit.depth) is int and type(limit.time_ms) is float
    assert Limit() == Limit.from_dict({}) and not Limit().bounded and Limit(time_ms=1).bounded


def test_a_limit_is_frozen_keyword_only_and_revalidated_when_changed() -> None:
    limit = Limit(depth=4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        limit.depth = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        Limit(4)  # type: ignore[misc]
    assert limit.replace(nodes=100) == Limit(depth=4, nodes=100) and limit == Limit(depth=4)
    with pytest.raises(LimitError, match="depth=0 must be"):
        limit.replace(depth=0)
    assert hash(limit) == hash(Limit(depth=4)) and repr(limit) == "Limit(depth=4)"


def optional(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.none() | strategy


limits = st.builds(
    Limit,
    depth=optional(st.integers(1, INT64_MAX)),
    branching=optional(st.integers(1, INT64_MAX)),
    nodes=optional(st.integers(1, INT64_MAX)),
    time_ms=optional(st.floats(min_value=1e-300, max_value=1e300, allow_nan=False, allow_infinity=False)),
    radius=optional(st.integers(0, INT64_MAX)),
)


@given(limits)
def test_the_dict_round_trips_through_json(limit: Limit) -> None:
    data = limit.to_dict()
    assert tuple(data) == FIELDS
    assert Limit.from_dict(data) == limit
    assert Limit.from_dict(json.loads(json.dumps(data, allow_nan=False))) == limit
    assert Limit.from_dict({k: v for k, v in data.items() if v is not None}) == limit  # a missing name is None


@given(limits, limits)
def test_merged_over_takes_each_unset_setting_from_the_defaults(own: Limit, defaults: Limit) -> None:
    merged = own.merged_over(defaults)
    for name in FIELDS:
        mine = getattr(own, name)
        assert getattr(merged, name) == (getattr(defaults, name) if mine is None else mine)


def test_from_dict_refuses_unknown_names_and_non_mappings() -> None:
    with pytest.raises(LimitError, match="unknown field 'width'; allowed: depth, branching, nodes, time_ms, radius") as info:
        Limit.from_dict({"depth": 3, "width": 2})
    assert info.value.field == "width"
    with pytest.raises(LimitError, match="must be a mapping"):
        Limit.from_dict([("depth", 3)])  # type: ignore[arg-type]


def test_the_fields_and_their_types_come_from_the_type() -> None:
    assert FIELDS == ("depth", "branching", "nodes", "time_ms", "radius")  # the order weight files write
    assert FIELD_TYPES == {"depth": int, "branching": int, "nodes": int, "time_ms": float, "radius": int}
    assert set(FIELDS) <= set(KINDS["alphabeta"].keys())


# --- weight files ---------------------------------------------------------------------------------------------------


def test_the_default_files_search_section_is_what_the_type_writes() -> None:
    assert DEFAULT_SEARCH == Limit(depth=4).to_dict()  # heuristics cannot import search: this keeps them equal


def test_a_weight_file_round_trips_its_limit(tmp_path: Path) -> None:
    limit = Limit(depth=6, branching=3, nodes=20000, time_ms=12.5, radius=2)
    record = Evaluator("windows", TIC_TAC_TOE).to_weight_file(limit.to_dict(), {"study": "s"})
    path = save_weights(record, tmp_path / "w.json")
    assert json.loads(path.read_text())["search"] == limit.to_dict()
    loaded, read = load_weight_file(path, TIC_TAC_TOE)
    assert read == limit and loaded == record


@pytest.mark.parametrize("path", sorted(WEIGHTS.glob("*.json")), ids=lambda p: p.name)
def test_every_shipped_file_loads_and_saves_byte_identically_through_the_type(path: Path, tmp_path: Path) -> None:
    record, limit = load_weight_file(path)
    again = dataclasses.replace(record, search=limit.to_dict())  # written by the type, not copied through
    assert save_weights(again, tmp_path / path.name).read_bytes() == path.read_bytes()


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("depth", -1, "depth=-1 must be a positive integer"),
        ("branching", 2.5, "branching=2.5 must be a positive integer"),
        ("time_ms", "fast", "time_ms='fast' is not a number"),
        ("nodes", 2**70, "nodes=1180591620717411303424 must be a positive integer of at most 2**63 - 1"),
        ("time_ms", 10**400, "time_ms=10000000000000000000...(401 characters) is too large for a float"),
        ("depth", True, "depth=True must be a positive integer"),
        ("width", 3, "unknown field 'width'; allowed: depth, branching"),
    ],
)
def test_a_bad_search_section_names_the_file_and_the_field(tmp_path: Path, field: str, value: Any, problem: str) -> None:
    data = Evaluator("windows", CONNECT4).to_weight_file(Limit(depth=4).to_dict()).to_json()
    data["search"][field] = value
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    load_weights(path)  # heuristics carries the section as it is; search checks it
    with pytest.raises(WeightFileError) as info:
        load_weight_file(path)
    assert str(info.value).startswith(f"{path}: field 'search.{field}': {problem}"), str(info.value)
    with pytest.raises(WeightFileError, match=rf"field 'search.{field}'"):
        AlphaBetaAgent(CONNECT4, weights=path)


# --- search and minimax ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "moves", "budget"),
    [
        (CONNECT4, "", {"depth": 4}),
        (CONNECT4, "4453", {"depth": 6, "branching": 3}),
        (CONNECT4, "44", {"nodes": 2000}),
        (make_game("mnk", 7, 7, 4), "d4 c3", {"depth": 3, "radius": 1}),
        (TIC_TAC_TOE, "b2", {"depth": 9}),
    ],
)
def test_keywords_and_a_limit_search_identically(game: Any, moves: str, budget: dict[str, int]) -> None:
    evaluator = Evaluator("windows", game)
    position = game.position(moves)
    by_keywords = search(position, evaluator, **budget)
    by_limit = search(position, evaluator, limit=Limit(**budget))
    assert by_limit.move == by_keywords.move and by_limit.score == by_keywords.score
    assert (by_limit.depth, by_limit.nodes, by_limit.pv) == (by_keywords.depth, by_keywords.nodes, by_keywords.pv)
    if game.gravity:  # the array kernel agrees as well, through either form
        array = _search(position, evaluator, Limit(**budget), bitboards=False)
        assert array.nodes == _search(position, evaluator, bitboards=False, **budget).nodes


def test_search_refuses_both_forms_a_non_limit_and_no_stopping_budget() -> None:
    position, evaluator = CONNECT4.position(), Evaluator("windows", CONNECT4)
    with pytest.raises(ValueError, match=r"either as limit= or as keywords, not both \(limit=Limit\(depth=3\) and nodes\)"):
        search(position, evaluator, Limit(depth=3), nodes=100)
    with pytest.raises(ValueError, match="limit=4 must be a search.Limit or None"):
        search(position, evaluator, 4)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"give at least one budget: depth, nodes or time_ms \(got Limit\(branching=2\)\)"):
        search(position, evaluator, Limit(branching=2))
    with pytest.raises(LimitError, match="nodes=0 must be a positive integer"):
        search(position, evaluator, nodes=0)


def test_minimax_validates_through_the_type() -> None:
    position, evaluator = TIC_TAC_TOE.position(), Evaluator("windows", TIC_TAC_TOE)
    with pytest.raises(LimitError, match="depth=0 must be a positive integer"):
        minimax(position, evaluator, 0)
    with pytest.raises(LimitError, match="radius=-1 must be a non-negative integer"):
        minimax(position, evaluator, 2, radius=-1)


# --- agents, specs, candidates, gauntlets ---------------------------------------------------------------------------


def test_every_budget_key_of_a_spec_reaches_the_agents_limit() -> None:
    spec = "alphabeta:heuristic=windows,depth=5,branching=3,nodes=700,time_ms=40,radius=2,random_every=3"
    agent = make_agent(spec, TIC_TAC_TOE)
    assert isinstance(agent, AlphaBetaAgent) and agent.random_every == 3
    assert agent.limit == Limit(depth=5, branching=3, nodes=700, time_ms=40.0, radius=2)
    with pytest.raises(ValueError, match="branching=0 must be a positive integer"):
        make_agent("alphabeta:branching=0", CONNECT4)
    assert AlphaBetaAgent(CONNECT4).limit == Limit(depth=4)  # nothing bounds it: the default depth


def test_an_agents_budget_overrides_its_weight_files_field_by_field(tmp_path: Path) -> None:
    record = Evaluator("windows", CONNECT4).to_weight_file(Limit(depth=8, nodes=1000, branching=3).to_dict())
    path = save_weights(record, tmp_path / "w.json")
    assert AlphaBetaAgent(CONNECT4, weights=path).limit == Limit(depth=8, nodes=1000, branching=3)
    assert AlphaBetaAgent(CONNECT4, weights=path, branching=2).limit == Limit(depth=8, nodes=1000, branching=2)
    # a budget given by the caller replaces the file's depth cap, the file's other settings stay
    assert AlphaBetaAgent(CONNECT4, weights=path, time_ms=50).limit == Limit(nodes=1000, time_ms=50.0, branching=3)
    assert AlphaBetaAgent(CONNECT4, weights=path, limit=Limit(depth=2)).limit == Limit(depth=2, nodes=1000, branching=3)


def candidate(limit: Limit, random_every: Optional[int] = None) -> Candidate:
    return Candidate("windows", dict(Evaluator("windows", CONNECT4).weights), limit, random_every)


def test_a_candidate_carries_one_limit_into_its_spec_and_its_weight_file() -> None:
    limit = Limit(depth=8, branching=3, nodes=300, time_ms=50.0, radius=2)
    c = candidate(limit, random_every=3)
    agent = make_agent(c.spec(), CONNECT4)
    assert isinstance(agent, AlphaBetaAgent) and agent.limit == limit and agent.random_every == 3
    assert c.weight_file(CONNECT4).search == limit.to_dict()
    # the spec strings of earlier runs are unchanged (a resumed study compares its stored opponent specs)
    old = candidate(Limit(depth=4, branching=2, nodes=100, radius=1), random_every=3).spec()
    assert old.startswith("alphabeta:heuristic=windows,depth=4,branching=2,nodes=100,random_every=3,radius=1,")


def test_a_gauntlet_can_play_at_a_time_budget() -> None:
    budget = Limit(depth=42, time_ms=5.0)
    members = default_gauntlet(CONNECT4, budget, weights_dir=None)
    assert members and not any("tuned" in m for m in members)
    for member in members:
        agent = make_agent(member, CONNECT4)
        assert isinstance(agent, AlphaBetaAgent) and agent.limit == budget
    tuned_path = sorted(WEIGHTS_DIR.glob("connect4-*-tuned.json"))[0]
    _, tuned = load_weight_file(tuned_path)
    agent = make_agent(member_spec(str(tuned_path), CONNECT4, budget), CONNECT4)
    assert isinstance(agent, AlphaBetaAgent) and agent.limit == budget.replace(branching=tuned.branching)
    with_files = default_gauntlet(CONNECT4, budget)
    assert len(with_files) == len(members) + len(sorted(WEIGHTS_DIR.glob("connect4-*-tuned.json")))
