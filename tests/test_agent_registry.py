"""Agent kinds and engines come through one registry: a new one is its own module plus one registration."""

from __future__ import annotations

from typing import Iterator, Optional

import numpy as np
import pytest

from games import CONNECT4, MNK, Action, KInARow, Position
from search.agents import KINDS, AgentSpecError, AlphaBetaAgent, make_agent
from search.agents.alphabeta import ENGINES, EngineEntry, SearchPlayer, engine_for, register_engine
from search.agents.registry import AgentKind, register_kind
from search.agents.spec import KIND_NAMES, parse_spec
from search.errors import SearchError
from search.result import SearchResult


class FirstLegal:
    """A kind registered by a test: plays the first (or the ``nth``) legal move."""

    def __init__(self, nth: int = 0) -> None:
        self.name, self.nth = "first_legal", nth

    def select_move(self, position: Position) -> Action:
        moves = position.legal_moves()
        return moves[min(self.nth, len(moves) - 1)]

    def reset(self) -> None:
        """Nothing kept."""

    def seed(self, seed: Optional[int]) -> None:
        """Nothing random."""


@pytest.fixture
def first_legal_kind() -> Iterator[None]:
    def build(spec: str, game: KInARow, options: dict[str, str], seed: Optional[int]) -> FirstLegal:
        from search.agents.registry import convert_options

        return FirstLegal(convert_options(spec, "first_legal", options).get("nth", 0))

    register_kind(AgentKind("first_legal", build, "the first legal move", keys=lambda: {"nth": int}))
    yield
    del KINDS["first_legal"]
    KIND_NAMES.remove("first_legal")


def test_the_built_in_kinds_are_registered_in_order() -> None:
    assert list(KINDS)[:5] == ["alphabeta", "minimax", "random", "rules", "perfect"] == KIND_NAMES[:5]
    assert list(ENGINES) == ["gomoku"]


def test_a_registered_kind_is_a_spec_name_everywhere(first_legal_kind: None) -> None:
    assert parse_spec("first_legal:nth=2").kind == "first_legal"
    assert make_agent("first_legal:nth=2", CONNECT4).select_move(CONNECT4.position()) == 2
    with pytest.raises(AgentSpecError, match="unknown key.*'depth'.*valid keys are nth"):
        make_agent("first_legal:depth=2", CONNECT4)
    with pytest.raises(AgentSpecError, match="nth='x' is not a number"):
        make_agent("first_legal:nth=x", CONNECT4)
    with pytest.raises(AgentSpecError, match="unknown agent 'nobody'.*alphabeta, minimax, random, rules, perfect, first_legal"):
        make_agent("nobody:x=1", CONNECT4)


def test_a_kind_name_is_registered_once_and_reads_as_a_name(first_legal_kind: None) -> None:
    with pytest.raises(SearchError, match="registered already"):
        register_kind(AgentKind("first_legal", lambda *args: FirstLegal()))
    with pytest.raises(SearchError, match="lower-case letters"):
        register_kind(AgentKind("my.agent", lambda *args: FirstLegal()))


class CornerPlayer:
    """An engine registered by a test: plays the lowest legal cell and says so in its result."""

    def __init__(self, game: KInARow, *args: object) -> None:
        self.resets = 0

    def move(self, position: Position, limit: object, rng: np.random.Generator) -> tuple[Action, SearchResult]:
        move = position.legal_moves()[0]
        return move, SearchResult(move, 0.0, 1, 1, 0.0, (move,))

    def reset(self) -> None:
        self.resets += 1


def test_an_engine_plays_where_it_says_and_adds_its_switches() -> None:
    entry = EngineEntry("corner", lambda game, heuristic: heuristic == "windows" and game.rows == 3, CornerPlayer,
                        ("corner_switch",))  # fmt: skip
    register_engine(entry)
    try:
        assert engine_for(MNK(3, 3, 3), "windows") is entry and engine_for(MNK(4, 4, 3), "windows") is None
        agent = make_agent("alphabeta:heuristic=windows,corner_switch=1", MNK(3, 3, 3))
        assert isinstance(agent, AlphaBetaAgent) and isinstance(agent.player, CornerPlayer)
        assert agent.select_move(MNK(3, 3, 3).position([4])) == 0 and agent.last_result.nodes == 1
        agent.reset()
        assert agent.player.resets == 1
        generic = make_agent("alphabeta:heuristic=windows,depth=2", MNK(4, 4, 3))
        assert isinstance(generic, AlphaBetaAgent) and isinstance(generic.player, SearchPlayer)
        with pytest.raises(SearchError, match="corner_switch set\\(s\\) the corner engine's"):
            make_agent("alphabeta:heuristic=windows,corner_switch=1", MNK(4, 4, 3))
        with pytest.raises(SearchError, match="registered already"):
            register_engine(entry)
    finally:
        del ENGINES["corner"]
