"""The exact solver: benchmark scores, known m,n,k values, a naive reference, full-depth alpha-beta, the API."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import CONNECT4, GOMOKU, MNK, TIC_TAC_TOE, Connect4, KInARow, Position
from games.playout import random_open_position
from heuristics import Evaluator
from search.alphabeta.engine import search
from search.protocol import WIN_SCORE
from search.solve import Solver, solvable, solve
from tests.naive_solve import naive_score

DATA = Path(__file__).parent / "data" / "connect4"
SAMPLE_EVERY = 20  # 50 positions of each set; the benchmark runs all of them


def benchmark_sample(name: str) -> list[tuple[str, int]]:
    lines = (DATA / name).read_text().split("\n")
    return [(moves, int(score)) for moves, score in (line.split() for line in lines[::SAMPLE_EVERY] if line)]


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1"])
def test_sample_of_the_benchmark_sets_scores_exactly(name: str) -> None:
    sample = benchmark_sample(name)
    assert len(sample) == 50
    solver = Solver(CONNECT4)
    weak_nodes = strong_nodes = 0
    for moves, expected in sample:
        position = CONNECT4.position(moves)
        solver.reset()
        strong = solver.solve(position)
        solver.reset()
        weak = solver.solve(position, weak=True)
        assert strong.score == expected and weak.score == sign(expected), moves
        weak_nodes, strong_nodes = weak_nodes + weak.nodes, strong_nodes + strong.nodes
    # Fewer in all, not on every position: the weak solve's own probes (near the ends of the range, then
    # around 0) sometimes cost more than the strong bisection's.
    assert weak_nodes < strong_nodes


def test_a_tiny_table_only_costs_nodes() -> None:
    """512 slots force constant replacement: the scores stay exact."""
    small, large = Solver(CONNECT4, tt_size=512), Solver(CONNECT4)
    small_nodes = large_nodes = 0
    for moves, expected in benchmark_sample("Test_L2_R1")[:20]:
        position = CONNECT4.position(moves)
        small.reset()
        large.reset()
        a, b = small.solve(position), large.solve(position)
        assert a.score == b.score == expected
        small_nodes, large_nodes = small_nodes + a.nodes, large_nodes + b.nodes
    assert small_nodes > large_nodes


@pytest.mark.parametrize(
    ("rows", "cols", "k", "outcome"),
    [(3, 3, 3, 0), (4, 3, 3, 1), (3, 4, 3, 1), (4, 4, 3, 1), (4, 4, 4, 0), (5, 4, 4, 0), (4, 5, 4, 0)],
)
def test_mnk_values_from_the_empty_board(rows: int, cols: int, k: int, outcome: int) -> None:
    """Known values: tic-tac-toe and 4,4,4 and 5,4,4 are draws, 4,3,3 and 4,4,3 first-player wins."""
    game = MNK(rows, cols, k)
    strong, weak = solve(game.position()), solve(game.position(), weak=True)
    assert sign(strong.score) == weak.score == outcome
    assert weak.nodes <= strong.nodes


def test_transposed_boards_have_the_same_score() -> None:
    assert solve(MNK(4, 3, 3).position()).score == solve(MNK(3, 4, 3).position()).score
    assert solve(MNK(4, 5, 4).position()).score == solve(MNK(5, 4, 4).position()).score


def test_tic_tac_toe_scores_match_the_naive_reference() -> None:
    position = TIC_TAC_TOE.position()
    assert solve(position).score == naive_score(position) == 0
    result = solve(TIC_TAC_TOE.position("a1"), moves=True)
    naive = {}
    for move in TIC_TAC_TOE.position("a1").legal_moves():
        child = TIC_TAC_TOE.position("a1")
        child.play(move)
        naive[move] = -naive_score(child)
    assert dict(result.move_scores) == naive
    assert result.best_moves == (4,)  # after a corner, only the centre holds the draw


SMALL_GAMES = [Connect4(4, 4, 3), Connect4(4, 5, 4), Connect4(5, 4, 4), Connect4(3, 6, 3), Connect4(6, 7, 4),
               Connect4(7, 8, 4), Connect4(6, 7, 5), Connect4(20, 3, 4), Connect4(1, 26, 4),  # 64 bits; generic k; tall
               MNK(3, 3, 3), MNK(3, 4, 3), MNK(4, 4, 3), MNK(4, 4, 4), MNK(5, 5, 4), MNK(2, 10, 3)]  # fmt: skip


def late_position(game: KInARow, seed: int, empty: int) -> Position:
    """A random position, not over, with exactly ``empty`` empty cells.

    Each step plays a random move among those that do not end the game (a plain random walk on 7x8 Connect-4
    rarely survives 47 plies); a walk with no such move left starts again.
    """
    rng = np.random.default_rng(seed)
    for _ in range(1000):
        position = random_open_position(game, empty, rng)
        if position is not None:
            return position
    raise AssertionError(f"no random walk of {game} reached {empty} empty cells")


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(SMALL_GAMES), st.integers(0, 10**6), st.sampled_from([512, 1 << 16]))
def test_solver_matches_the_naive_reference(game: KInARow, seed: int, tt_size: int) -> None:
    position = late_position(game, seed, empty=9 if game.gravity else 8)
    expected = naive_score(position)
    solver = Solver(game, tt_size=tt_size)
    assert solver.solve(position).score == expected
    solver.reset()  # the weak solve on its own, with no bound left by the strong one
    assert solver.solve(position, weak=True).score == sign(expected)
    assert position.ply == len(position.moves) and not position.is_terminal()  # left unchanged


def alpha_beta_as_solver_score(position: Position, score: float) -> int:
    """Turn a full-depth search score (``WIN_SCORE - plies``, or 0) into the benchmark convention."""
    if score == 0:
        return 0
    plies = round(WIN_SCORE - abs(score))
    stones_before_winning_stone = position.ply + plies - 1
    value = (position.game.n_cells + 1 - stones_before_winning_stone) // 2
    return value if score > 0 else -value


@pytest.mark.parametrize("game", [CONNECT4, Connect4(5, 4, 4), MNK(4, 4, 4)], ids=str)
def test_full_depth_alpha_beta_agrees_with_the_solver(game: KInARow) -> None:
    evaluator = Evaluator("square_values", game)
    checked = 0
    for seed in range(12):
        position = late_position(game, seed, empty=18 if game.gravity else 12)
        result = search(position, evaluator, depth=game.n_cells - position.ply)
        assert alpha_beta_as_solver_score(position, result.score) == solve(position).score, position.move_string()
        checked += 1
    assert checked == 12


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 999))
def test_mirrored_connect4_positions_score_the_same(line: int) -> None:
    moves = (DATA / "Test_L2_R1").read_text().split("\n")[line].split()[0]
    mirrored = "".join(str(CONNECT4.cols + 1 - int(c)) for c in moves)
    assert solve(CONNECT4.position(moves)).score == solve(CONNECT4.position(mirrored)).score


def test_move_scores_are_the_children_scores() -> None:
    position = CONNECT4.position("2252576253462244111563365343671351441")  # End-Easy, score -1
    result = solve(position, moves=True)
    assert result.score == -1 == max(result.move_scores.values())
    for move, score in result.move_scores.items():
        child = position.copy()
        child.play(move)
        expected = (CONNECT4.n_cells + 1 - position.ply) // 2 if child.winner is not None else -solve(child).score
        assert score == expected
    assert result.best_moves == tuple(m for m, s in sorted(result.move_scores.items()) if s == result.score)


def test_a_win_at_once_costs_no_node_and_nodes_are_reproducible() -> None:
    win_now = solve(CONNECT4.position("121212"))  # x plays 1 and wins
    assert (win_now.score, win_now.nodes) == ((CONNECT4.n_cells + 1 - 6) // 2, 0)
    position = CONNECT4.position("5554224333234511764415115")
    first, second = solve(position), solve(position)  # solve() empties the table first
    assert first.nodes == second.nodes > 0


def test_bad_inputs_raise_clear_errors() -> None:
    assert solvable(CONNECT4) is None and solvable(MNK(5, 5, 4)) is None
    with pytest.raises(ValueError, match="rows \\+ 1\\) \\* cols <= 32"):
        Solver(GOMOKU)
    with pytest.raises(ValueError, match="rows \\+ 1\\) \\* cols <= 64"):
        Solver(Connect4(8, 8, 4))
    with pytest.raises(ValueError, match="tt_size=100 must be an integer from 512"):
        Solver(CONNECT4, tt_size=100)
    with pytest.raises(ValueError, match="is over \\(won by x\\)"):
        solve(CONNECT4.position("1212121"))
    with pytest.raises(ValueError, match="this solver is for Connect-4 6x7"):
        Solver(CONNECT4).solve(TIC_TAC_TOE.position())


def test_solve_keeps_at_most_a_few_solvers() -> None:
    from search.solve import SOLVER_CACHE_SIZE, _solver

    games = [MNK(3, 3, 3), MNK(3, 3, 2), MNK(2, 3, 2), MNK(3, 2, 2)][: SOLVER_CACHE_SIZE + 1]
    for game in games:
        assert solve(game.position()).score == solve(game.position()).score  # the second call reuses the solver
    assert _solver.cache_info().currsize == SOLVER_CACHE_SIZE  # each 32 MB: the oldest game's was dropped
    assert _solver(games[-1]) is _solver(games[-1])
