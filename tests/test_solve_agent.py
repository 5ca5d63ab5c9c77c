"""PerfectAgent: best exact moves, random among equals, and its ``perfect`` spec."""

from __future__ import annotations

import numpy as np
import pytest

from games import GOMOKU, MNK, TIC_TAC_TOE, Connect4, KInARow, Position
from search import Agent
from search.agents import KINDS, AgentSpecError, make_agent
from search.agents.simple import RandomAgent, RuleBasedAgent
from search.solve import PerfectAgent, solve


def play(game: KInARow, first: Agent, second: Agent) -> Position:
    position = game.position()
    for agent in (first, second):
        agent.reset()
    while not position.is_terminal():
        agent = first if position.ply % 2 == 0 else second
        before = position.moves
        move = agent.select_move(position)
        assert position.moves == before
        position.play(move)
    return position


def test_the_chosen_move_keeps_the_exact_score() -> None:
    """Along a game against random play, each move is one of the best, and the value never drops."""
    game = Connect4(5, 4, 4)
    perfect, opponent = PerfectAgent(game, seed=1), RandomAgent(seed=2)
    position = game.position()
    while not position.is_terminal():
        if position.ply % 2 == 0:
            before = solve(position).score
            move = perfect.select_move(position)
            assert perfect.last_result is not None and move in perfect.last_result.best_moves
            assert perfect.last_result.move_scores[move] == before
        else:
            move = opponent.select_move(position)
        position.play(move)


@pytest.mark.parametrize("weak", [False, True])
def test_perfect_play_never_loses_tic_tac_toe(weak: bool) -> None:
    for seed in range(6):
        perfect = PerfectAgent(TIC_TAC_TOE, weak=weak, seed=seed)
        for opponent in (RandomAgent(seed=seed), RuleBasedAgent(seed=seed)):
            assert play(TIC_TAC_TOE, perfect, opponent).winner != 1
            assert play(TIC_TAC_TOE, opponent, perfect).winner != 0
    assert play(TIC_TAC_TOE, PerfectAgent(TIC_TAC_TOE, seed=0), PerfectAgent(TIC_TAC_TOE, seed=1)).is_draw()


def test_perfect_first_player_wins_4_4_3_as_fast_as_the_value_says() -> None:
    game = MNK(4, 4, 3)
    value = solve(game.position()).score
    for seed in range(4):
        final = play(game, PerfectAgent(game, seed=seed), PerfectAgent(game, seed=seed + 10))
        assert final.winner == 0
        assert (game.n_cells + 1 - (final.ply - 1)) // 2 == value  # strong mode: the fastest forced win


def test_same_seed_same_game_and_seeds_vary_the_choice_among_equals() -> None:
    game = MNK(3, 4, 3)

    def moves(seed: int) -> list[int]:
        return play(game, PerfectAgent(game, seed=seed), RandomAgent(seed=seed)).moves

    assert moves(5) == moves(5)
    first_moves = {PerfectAgent(TIC_TAC_TOE, seed=s).select_move(TIC_TAC_TOE.position()) for s in range(20)}
    assert len(first_moves) > 1 and first_moves <= set(range(9))  # every opening draws: ties broken at random


def test_perfect_spec() -> None:
    assert "perfect" in tuple(KINDS)
    agent = make_agent("perfect:weak=1,tt=4096,seed=3", TIC_TAC_TOE)
    assert isinstance(agent, PerfectAgent) and agent.weak and agent.solver.tt_size == 4096
    assert isinstance(agent, Agent)
    with pytest.raises(AgentSpecError, match="weak=2 must be 0 or 1"):
        make_agent("perfect:weak=2", TIC_TAC_TOE)
    with pytest.raises(AgentSpecError, match="valid keys are nodes, seed, time_ms, tt, weak"):
        make_agent("perfect:depth=3", TIC_TAC_TOE)
    with pytest.raises(AgentSpecError, match="use one of alphabeta, minimax, random, rules, perfect"):
        make_agent("perfekt", TIC_TAC_TOE)
    with pytest.raises(ValueError, match="m,n,k 15,15,5 has 240"):
        make_agent("perfect", GOMOKU)


def test_positions_it_cannot_play() -> None:
    agent = PerfectAgent(TIC_TAC_TOE)
    with pytest.raises(ValueError, match="is over"):
        agent.select_move(TIC_TAC_TOE.position("a1 b1 a2 b2 a3"))
    with pytest.raises(ValueError, match="plays m,n,k 3,3,3"):
        agent.select_move(MNK(3, 4, 3).position())


def test_reset_is_a_new_stamp_not_a_clear() -> None:
    """PerfectAgent.reset (Solver.reset) leaves the table's memory alone, yet solves as from an empty table."""
    game = MNK(4, 4, 3)
    agent = PerfectAgent(game, tt_size=1 << 12, seed=0)
    position = game.position("a1")
    agent.select_move(position)
    table = agent.solver._tt.copy()
    assert table.any()
    agent.reset()
    assert np.array_equal(agent.solver._tt, table)  # O(1): nothing written
    fresh = PerfectAgent(game, tt_size=1 << 12, seed=0)
    agent.seed(0)
    assert agent.select_move(position) == fresh.select_move(position)
    assert agent.last_result is not None and fresh.last_result is not None
    assert (agent.last_result.move_scores, agent.last_result.nodes) == (fresh.last_result.move_scores,
                                                                        fresh.last_result.nodes)  # fmt: skip


def test_an_alphabeta_agent_with_solve_ms_plays_exact_moves_where_the_solver_fits() -> None:
    from games import MNK
    from search.agents import make_agent
    from search.solve import Solver
    from tests.positions import random_position

    game = MNK(4, 4, 4)
    agent = make_agent("alphabeta:heuristic=mics,depth=1,tss_nodes=0,solve_ms=5000", game)
    solver = Solver(game)
    for seed in range(12):
        position = random_position(game, seed)
        best = solver.solve(position, moves=True)
        move = agent.select_move(position)
        assert best.move_scores[move] == max(best.move_scores.values()), position.move_string()
    # a board the solver does not fit: the option is ignored and the search plays
    big = make_agent("alphabeta:heuristic=mics,depth=1,solve_ms=50", MNK(15, 15, 5))
    assert big.select_move(MNK(15, 15, 5).position("h8")) in MNK(15, 15, 5).position("h8").legal_moves()
