"""Search agents and agent specs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import search.tt as tt_module
from games import CONNECT4, GOMOKU, TIC_TAC_TOE, KInARow, Position
from heuristics import Evaluator, WeightFileError, save_weights
from search import Agent, Limit, TranspositionTable
from search.agents import AgentSpecError, AlphaBetaAgent, MinimaxAgent, make_agent
from search.agents.simple import RandomAgent, RuleBasedAgent
from search.agents.spec import weight_file_of
from search.tt import TableSizeError


def play(game: KInARow, first: Agent, second: Agent, opening: str = "") -> Position:
    """Play one game to the end; the agents alternate from the opening on."""
    pos = game.position(opening)
    for agent in (first, second):
        agent.reset()
    while not pos.is_terminal():
        agent = first if pos.ply % 2 == len(game.parse_moves(opening)) % 2 else second
        before = pos.moves
        move = agent.select_move(pos)
        assert pos.moves == before  # agents never mutate the position they are given
        pos.play(move)
    return pos


def test_same_seed_same_game() -> None:
    def game(seed: int) -> list[int]:
        a = make_agent("alphabeta:heuristic=c4_features,depth=3,random_every=3", CONNECT4, seed=seed)
        b = make_agent("alphabeta:heuristic=square_values,depth=3,random_every=3", CONNECT4, seed=seed + 1)
        return play(CONNECT4, a, b).moves

    assert game(1) == game(1)
    assert len({tuple(game(s)) for s in range(4)}) > 1  # the random moves make games differ


def test_random_every_n_moves() -> None:
    agent = AlphaBetaAgent(CONNECT4, "square_values", depth=2, random_every=3, seed=0)
    pos = CONNECT4.position()
    searched = []
    for _ in range(6):
        pos.play(agent.select_move(pos))
        searched.append(agent.last_result is not None)
    assert searched == [True, True, False, True, True, False]
    agent.reset()
    agent.select_move(CONNECT4.position())
    assert agent.last_result is not None


def test_alphabeta_agent_finds_the_saving_move_and_keeps_its_table() -> None:
    agent = AlphaBetaAgent(CONNECT4, "square_values", depth=4)
    assert agent.select_move(CONNECT4.position("51617")) == 3
    assert agent.table.keys.any()


def test_reset_forgets_the_table_without_touching_it() -> None:
    """reset() is O(1) (a new generation), yet the next game searches as from a fresh table."""
    agent = AlphaBetaAgent(CONNECT4, "c4_features", depth=5)
    agent.select_move(CONNECT4.position("4453"))
    entries = agent.table._entries.copy()
    agent.reset()
    assert np.array_equal(agent.table._entries, entries)  # not one byte written: no O(size) clear
    fresh = AlphaBetaAgent(CONNECT4, "c4_features", depth=5)
    for moves in ("4453", "44"):  # the first was stored before the reset: it must miss, not be reused
        position = CONNECT4.position(moves)
        agent.seed(1), fresh.seed(1)  # the same root tie-breaking noise
        agent.select_move(position), fresh.select_move(position)
        assert agent.last_result is not None and fresh.last_result is not None
        assert (agent.last_result.move, agent.last_result.score, agent.last_result.nodes) == (
            fresh.last_result.move, fresh.last_result.score, fresh.last_result.nodes)  # fmt: skip
        agent.reset(), fresh.reset()


def test_alphabeta_beats_random_and_minimax_agrees_on_the_only_move() -> None:
    for colour in (0, 1):
        ab = AlphaBetaAgent(CONNECT4, depth=2, seed=colour)
        rnd = RandomAgent(seed=colour)
        pos = play(CONNECT4, ab, rnd) if colour == 0 else play(CONNECT4, rnd, ab)
        assert pos.winner == colour
    pos = TIC_TAC_TOE.position("a1 b2 b1")
    assert TIC_TAC_TOE.format_move(MinimaxAgent(TIC_TAC_TOE, depth=2).select_move(pos)) == "c1"


def test_tic_tac_toe_perfect_search_always_draws() -> None:
    x = AlphaBetaAgent(TIC_TAC_TOE, "windows", depth=9, seed=1)
    o = AlphaBetaAgent(TIC_TAC_TOE, "windows", depth=9, seed=2)
    assert play(TIC_TAC_TOE, x, o).is_draw()


def test_specs_build_the_right_agents(tmp_path: Path) -> None:
    ab = make_agent("alphabeta:heuristic=c4_features,depth=6,branching=4,f1_four=0,tt=1024", CONNECT4)
    assert isinstance(ab, AlphaBetaAgent) and isinstance(ab, Agent)
    assert (ab.limit.depth, ab.limit.branching, ab.evaluator.name, ab.evaluator.weights["f1_four"]) == (6, 4, "c4_features", 0.0)
    assert ab.table.size == 1024
    assert make_agent("alphabeta", CONNECT4).evaluator.name == "c4_features"
    assert make_agent("alphabeta", GOMOKU).evaluator.name == "gomoku"  # a plain alphabeta plays the gomoku engine here
    assert isinstance(make_agent("random", CONNECT4), RandomAgent)
    assert isinstance(make_agent("rules:seed=3", CONNECT4), RuleBasedAgent)
    mm = make_agent("minimax:depth=2", TIC_TAC_TOE)
    assert isinstance(mm, MinimaxAgent) and mm.depth == 2
    timed = make_agent("alphabeta:time_ms=50,nodes=1000", CONNECT4)
    assert isinstance(timed, AlphaBetaAgent) and timed.limit == Limit(time_ms=50.0, nodes=1000)

    tuned = Evaluator("square_values", CONNECT4, {"scale": 3.0}).to_weight_file(Limit(depth=5, branching=3).to_dict())
    path = save_weights(tuned, tmp_path / "tuned.json")
    from_file = make_agent(str(path), CONNECT4)
    assert isinstance(from_file, AlphaBetaAgent)
    assert (from_file.evaluator.weights, from_file.limit) == ({"scale": 3.0}, Limit(depth=5, branching=3))
    deeper = make_agent(f"alphabeta:weights={path},depth=2", CONNECT4)
    assert isinstance(deeper, AlphaBetaAgent) and deeper.limit == Limit(depth=2, branching=3)
    with pytest.raises(WeightFileError, match="the file is for Connect-4 6x7 k=4, not m,n,k 3,3,3"):
        make_agent(str(path), TIC_TAC_TOE)


@pytest.mark.parametrize(
    "spec, error, message",
    [
        ("magic", AgentSpecError, "unknown agent 'magic' in spec 'magic': use one of alphabeta, minimax, random, rules"),
        ("alphabeta:deep=3", AgentSpecError, "unknown key(s) 'deep' for 'alphabeta'.*valid keys are book, branching, depth"),
        ("random:depth=3", AgentSpecError, "unknown key(s) 'depth' for 'random'.*valid keys are seed"),
        ("alphabeta:depth", AgentSpecError, "'depth' is not key=value"),
        ("alphabeta:depth=x", AgentSpecError, "depth='x' is not a number"),
        ("alphabeta:f1_four=big", AgentSpecError, "f1_four='big' is not a number"),
        ("alphabeta:depth=1_0", AgentSpecError, "depth='1_0' is not a number: give an integer in plain digits 0-9"),
        ("alphabeta:depth=\u0663", AgentSpecError, "depth='\u0663' is not a number: give an integer in plain digits"),
        ("alphabeta:time_ms=1_000", AgentSpecError, "time_ms='1_000' is not a number: give plain digits 0-9"),
        ("alphabeta:f1_four=\u0663.5", AgentSpecError, "f1_four='\u0663.5' is not a number"),
        ("random:seed=\uff11", AgentSpecError, "seed='\uff11' is not a number"),
        ("alphabeta:depth=0", ValueError, "depth=0 must be a positive integer"),
        ("alphabeta:heuristic=h9", ValueError, "unknown heuristic 'h9': choose one of"),
        ("alphabeta:random_every=0", ValueError, "random_every=0"),
        ("minimax:depth=-1", ValueError, "depth=-1"),
        ("missing.json", WeightFileError, "cannot read"),
        ("alphabeta:depth=2,depth=3", AgentSpecError, "key 'depth' is given twice (depth=2 and depth=3)"),
        ("alphabeta:f1_four=1,f1_four=2", AgentSpecError, "key 'f1_four' is given twice"),
        ("alphabeta:nodes=1180591620717411303424", ValueError,
         "nodes=1180591620717411303424 must be a positive integer of at most 2\\*\\*63 - 1 = 9223372036854775807"),
        ("alphabeta:tt=17179869184", TableSizeError, "tt_size=17179869184 asks for 549755813888 bytes (512 GiB)"),
        ("alphabeta:tt=0", TableSizeError, "tt_size=0 must be an integer from 1 to"),
        ("perfect:tt=17179869184", TableSizeError, "tt_size=17179869184 asks for 137438953472 bytes (128 GiB)"),
        ("random:seed=-1", ValueError, "seed=-1 is negative: a seed must be a non-negative integer or None"),
        ("alphabeta:seed=-1", ValueError, "seed=-1 is negative"),
        ("minimax:seed=-1", ValueError, "seed=-1 is negative"),
    ],
)
def test_bad_specs_say_what_is_allowed(spec: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_agent(spec, CONNECT4)


def test_agents_refuse_other_games_and_finished_positions() -> None:
    agent = AlphaBetaAgent(CONNECT4, depth=2)
    with pytest.raises(ValueError, match="plays Connect-4 6x7 k=4"):
        agent.select_move(TIC_TAC_TOE.position())
    with pytest.raises(ValueError, match="is over"):
        agent.select_move(CONNECT4.position("1212121"))


def test_a_weight_file_given_as_the_last_key_is_still_a_spec(tmp_path: Path) -> None:
    """One grammar: the first word decides, so ``weights=...json`` at the end does not turn the spec into a path."""
    record = Evaluator("windows", CONNECT4, {"good": 7.0}).to_weight_file(Limit(depth=5).to_dict())
    path = save_weights(record, tmp_path / "w.json")
    for spec in (f"alphabeta:depth=2,weights={path}", f"alphabeta:weights={path}", f" alphabeta : weights={path} "):
        agent = make_agent(spec, CONNECT4)
        assert isinstance(agent, AlphaBetaAgent) and agent.evaluator.weights["good"] == 7.0
        assert agent.limit.depth == (2 if "depth=2" in spec else 5)
    assert weight_file_of(str(path)) == str(path) and weight_file_of(f"alphabeta:weights={path}") is None


def test_numpy_numbers_work_wherever_python_numbers_do() -> None:
    agent = AlphaBetaAgent(CONNECT4, "square_values", {"scale": np.float32(2.0)}, depth=np.int64(3),
                           nodes=np.int64(10**6), branching=np.int32(5), tt_size=np.int64(1024),
                           random_every=np.int64(4), seed=np.int64(1))  # fmt: skip
    assert agent.evaluator.weights["scale"] == 2.0 and agent.table.size == 1024
    assert agent.select_move(CONNECT4.position("51617")) == 3
    agent.seed(np.uint32(2))
    minimax = MinimaxAgent(TIC_TAC_TOE, depth=np.int64(2), seed=np.int64(0))
    assert TIC_TAC_TOE.format_move(minimax.select_move(TIC_TAC_TOE.position("a1 b2 b1"))) == "c1"
    assert RandomAgent(seed=np.int64(1)).select_move(CONNECT4.position()) in range(7)


def test_budgets_beyond_int64_are_refused_when_the_agent_is_built() -> None:
    with pytest.raises(ValueError, match="nodes=1180591620717411303424 must be a positive integer of at most 2"):
        AlphaBetaAgent(CONNECT4, nodes=2**70)
    with pytest.raises(ValueError, match="time_ms=10000000000000000000...\\(401 characters\\) is too large for a float"):
        AlphaBetaAgent(CONNECT4, time_ms=10**400)


def test_a_failed_table_allocation_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def out_of_memory(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(tt_module.np, "zeros", out_of_memory)
    with pytest.raises(TableSizeError, match="tt_size: cannot allocate a table of .* bytes .* asked for, not available now"):
        TranspositionTable(1 << 20)


def test_alphabeta_repr_shows_the_spec_and_the_settings() -> None:
    agent = make_agent("alphabeta: depth=2,random_every=3", CONNECT4)
    assert repr(agent) == ("AlphaBetaAgent(spec='alphabeta: depth=2,random_every=3', game=Connect-4 6x7 k=4, "
                           "heuristic='c4_features', limit=Limit(depth=2), random_every=3)")  # fmt: skip
    assert repr(AlphaBetaAgent(TIC_TAC_TOE, depth=3)).startswith("AlphaBetaAgent(game=m,n,k 3,3,3, heuristic='windows'")
