"""The gomoku engine's pattern table under the tuner: specs that name its weights, exact-k openings, the shipped files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from games import KInARow, make_game
from heuristics import load_weights
from heuristics._gomoku import SPEC as GOMOKU_SPEC
from search.agents import AgentSpecError, AlphaBetaAgent, make_agent
from search.agents.openings import OpeningBook
from search.gomoku.engine import ENGINE_WEIGHTS, GomokuEngine

# Every test module that searches with the gomoku engine runs on one worker: on a fresh clone its kernels (a minute
# of compiling) then compile once, not in both workers at the same time.
pytestmark = pytest.mark.xdist_group("gomoku")

ROOT = Path(__file__).resolve().parents[1]
FREESTYLE = make_game("gomoku")
EXACT = make_game("gomoku", exact_k=True)
SHIPPED = {"gomoku-gomoku-tuned.json": FREESTYLE, "mnk-15x15x5-exact-gomoku-tuned.json": EXACT}
DEFAULTS = "alphabeta:heuristic=gomoku,depth=8,nodes=1000"  # the engine at its default table, on either rule


@pytest.mark.parametrize(
    "game", [FREESTYLE, EXACT, make_game("mnk", rows=20, cols=20, k=5), make_game("mnk", rows=9, cols=9, k=4)]
)
def test_the_engine_plays_the_tuned_table_where_no_weights_are_given(game: KInARow) -> None:
    agent = make_agent("alphabeta:heuristic=gomoku,nodes=300", game)
    assert isinstance(agent, AlphaBetaAgent) and agent.gomoku is not None
    assert agent.evaluator.weights == ENGINE_WEIGHTS != GOMOKU_SPEC.defaults
    assert np.array_equal(agent.gomoku.cfg[2], GomokuEngine(game, tt_bits=10).cfg[2])  # the table the kernel reads
    partial = make_agent("alphabeta:heuristic=gomoku,nodes=300,open_three=40", game)
    assert isinstance(partial, AlphaBetaAgent)
    assert partial.evaluator.weights == {**ENGINE_WEIGHTS, "open_three": 40.0}  # the rest from the tuned table


def test_the_generic_search_keeps_the_heuristics_defaults() -> None:
    for game in (make_game("connect4"), make_game("connect4", rows=5, cols=5, k=4)):
        agent = make_agent("alphabeta:heuristic=gomoku,depth=2", game)
        assert isinstance(agent, AlphaBetaAgent) and agent.gomoku is None
        assert agent.evaluator.weights == GOMOKU_SPEC.defaults


def test_the_engine_table_is_the_shipped_tuned_file_to_four_digits() -> None:
    shipped = load_weights(ROOT / "weights" / "gomoku-gomoku-tuned.json", FREESTYLE).weights
    assert list(ENGINE_WEIGHTS) == list(GOMOKU_SPEC.weight_names) and set(shipped) == set(ENGINE_WEIGHTS)
    for name, value in shipped.items():
        assert ENGINE_WEIGHTS[name] == float(f"{value:.4g}"), name


def test_the_pattern_weight_weak_is_a_number_in_an_alphabeta_spec() -> None:
    # the tuner writes every weight as a float; ``weak`` was read as the perfect agent's 0|1 flag and refused
    agent = make_agent("alphabeta:heuristic=gomoku,nodes=300,weak=1.5,open_three=40", FREESTYLE)
    assert isinstance(agent, AlphaBetaAgent) and agent.gomoku is not None
    assert agent.evaluator.weights["weak"] == 1.5 and agent.evaluator.weights["open_three"] == 40.0
    assert make_agent("perfect:weak=1", make_game("tictactoe")) is not None
    with pytest.raises(AgentSpecError, match="weak='1.5'"):
        make_agent("perfect:weak=1.5", make_game("tictactoe"))


def test_an_exact_k_opening_book_keeps_its_rule() -> None:
    book = OpeningBook(EXACT, plies=2, seed=0, tuning=((112, 113),), heldout=((96, 97),))
    assert OpeningBook.from_json(book.to_json()) == book  # a resumed exact-k run reads back its own game
    free = OpeningBook(FREESTYLE, plies=2, seed=0, tuning=((112, 113),), heldout=((96, 97),))
    assert "exact_k" not in free.to_json()["game"] and OpeningBook.from_json(free.to_json()).game == FREESTYLE


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_the_shipped_gomoku_file_beat_the_gauntlet_and_its_defaults(name: str) -> None:
    shipped = load_weights(ROOT / "weights" / name, SHIPPED[name])  # the file names its rule: a wrong one fails here
    provenance = shipped.provenance
    confirmation = provenance["confirmation"]
    assert provenance["tool"] == "python -m tuning.run" and confirmation["openings"] == "held-out"
    assert confirmation["elo_low"] > 0 and confirmation["elo_low"] < confirmation["elo"] < confirmation["elo_high"]
    members = confirmation["members"]
    assert {"square_values", "patterns", "windows", "mics", "threats", "gomoku"} <= set(members)
    assert all(m["elo_high"] is None or m["elo_high"] > 0 for m in members.values())  # worse than none (None: +inf)
    defaults = provenance["defaults_match"]  # the pattern table's own defaults, beaten significantly on fresh openings
    assert defaults["elo_low"] > 0 and defaults["wins"] > defaults["losses"] and name in defaults["command"]
    assert shipped.heuristic == "gomoku" and shipped.search["nodes"] is not None


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_the_shipped_gomoku_file_plays_with_the_gomoku_engine(name: str) -> None:
    game = SHIPPED[name]
    tuned, defaults = make_agent(name.removesuffix(".json"), game), make_agent(DEFAULTS, game)
    assert isinstance(tuned, AlphaBetaAgent) and isinstance(defaults, AlphaBetaAgent) and tuned.gomoku is not None
    assert tuned.evaluator.weights == load_weights(ROOT / "weights" / name).weights != defaults.evaluator.weights
    position = game.position()
    for move in (112, 113):  # the centre and its neighbour, then the agents in turn
        position.play(move)
    for ply in range(6):
        agent = tuned if ply % 2 == 0 else defaults
        move = agent.select_move(position)
        assert move in position.legal_moves()
        position.play(move)
    assert position.ply == 8 and not position.is_terminal()
