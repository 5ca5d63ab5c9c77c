"""The ``threats`` evaluator (heuristics/_threats.py, _threats_bits.py): hand-worked boards, the naive reference,
the bitboard kernel to the bit, the colour dual, ``_order``, and search with it."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import CONNECT4, MNK, Connect4, KInARow
from games._bits import _from_board
from heuristics import Evaluator
from heuristics._lines import window_table
from heuristics._threats import N_FEATURES, SPEC, _evaluate, _order, colour_dual
from heuristics._threats_bits import N_CONSTS, _evaluate_bits, constants, fits
from search import minimax, plies_to_end, search
from search.alphabeta._bitnegamax import N_BIT_CONSTS, N_BIT_WEIGHTS
from tests import naive_threats
from tests.positions import board_from, random_position
from tests.test_bitsearch import gravity_fill

NAMES = SPEC.weight_names


def only(**weights: float) -> np.ndarray:
    """All weights 0 except the ones named."""
    return np.array([weights.get(n, 0.0) for n in NAMES], dtype=np.float64)


def score(picture: str, weights: np.ndarray, me: int = 1, gravity: bool = True, k: int = 4) -> float:
    board, heights, rows, cols = board_from(picture)
    return float(_evaluate(board, heights, rows, cols, k, gravity, me, weights, window_table(rows, cols, k)))


EMPTY4 = "....... " * 4

# ---------------------------------------------------------------- hand-worked boards


def test_a_playable_threat_is_a_win_for_the_mover_and_a_block_for_the_waiting_side() -> None:
    board = EMPTY4 + "....... xxx...."
    assert score(board, only(threat_now_mover=1, threat_now_waiting=10), me=1) == 1
    assert score(board, only(threat_now_mover=1, threat_now_waiting=10), me=2) == -10
    assert score(board, only(w1_now=1, w1_later=10, w2_now=100)) == 1 + 100  # windows a-d (xxx.) and b-e (xx..)
    assert score(board, only(odd_first=1, even_first=1, stacked=1, multi_threat=1)) == 0  # playable: no parity


def test_allis_parity_counts_threats_that_wait_by_row_and_colour() -> None:
    # x's (c,3) completes a-b-_-d on row 3 (odd) and floats over an empty column: stone 1's odd threat.
    board = "....... ....... ....... xx.x... oo.x... xx.o..."
    assert score(board, only(odd_first=1), me=1) == 1
    assert score(board, only(odd_first=1), me=2) == -1
    assert score(board, only(even_first=1, odd_second=1, even_second=1, stacked=1, under_opponent=1)) == 0
    assert score(board, only(odd_first=1), gravity=False) == 0  # no gravity, no parity


def test_a_threat_over_an_opponent_threat_does_not_count_and_the_lower_one_is_under() -> None:
    # o's (c,1) is playable; x's (c,2) sits right above it: not a parity threat, and o's is under it.
    board = EMPTY4 + "xx.x... oo.o..."
    assert score(board, only(even_first=1, odd_second=1)) == 0
    assert score(board, only(under_opponent=1)) == -1
    assert score(board, only(threat_now_waiting=1), me=1) == -1


def test_stacked_threats_and_a_double_threat() -> None:
    board = EMPTY4 + "xxx.... xxx...."  # (d,1) playable, (d,2) right above it
    assert score(board, only(stacked=1)) == 1
    assert score(board, only(multi_threat=1)) == 1
    assert score(board, only(even_first=1)) == 1  # (d,2): row 2, waits, nothing of o's below
    assert score(board, only(threat_now_mover=1)) == 1


def test_free_board_threat_classes() -> None:
    empty = "....... " * 6
    assert score(empty + ".xxx...", only(open_k1=1), gravity=False) == 1  # .xxx. between two empty cells
    assert score(empty + "oxxx...", only(open_k1=1), gravity=False) == 0  # closed on the left
    assert score(empty + "..xx...", only(open_k2_mover=1), gravity=False) == 2  # ..xx. and .xx..
    assert score(empty + "..xx...", only(open_k2_waiting=1), me=2, gravity=False) == -2
    assert score(empty + "..xx...", only(open_k1=1, open_k2_mover=1), gravity=True) == 0  # gravity: not counted


def test_fork_cells_need_two_directions() -> None:
    # Two x stones on a row: their k-2 windows all lie along the row, no cell is covered twice over.
    assert score(EMPTY4 + "....... .xx....", only(fork_cells=1)) == 0
    # Add two x stones in column d above the row: (row 3, col d) completes a row and a column window.
    fork = "....... ...x... ...x... .xx.... ....... ....... ......."
    assert score(fork, only(fork_cells=1), gravity=False) == 1
    assert score(fork, only(fork_cells=1), me=2, gravity=False) == -1


def test_cell_terms_match_square_values_and_column_groups() -> None:
    board = EMPTY4 + "....... x.....o"
    assert score(board, only(squares=1)) == 0  # the two corners have the same window count
    assert score(EMPTY4 + "....... ...x..o", only(squares=1)) == 7 - 3  # the paper's matrix: 7 and 3
    assert score(EMPTY4 + "....... ..xx..o", only(centre_0=1, centre_1=10, centre_3=100)) == 1 + 10 - 100
    assert score(EMPTY4 + "....... .......", only(tempo=5), me=2) == 5


# ---------------------------------------------------------------- the naive reference and the bitboards

SIZES: list[KInARow] = [Connect4(), Connect4(5, 4, 3), Connect4(6, 7, 5), Connect4(4, 5, 2), Connect4(7, 9, 4),
                        MNK(3, 3, 3), MNK(7, 7, 4), MNK(9, 9, 5), MNK(5, 8, 4), MNK(4, 4, 2)]  # fmt: skip


@pytest.mark.parametrize("game", SIZES, ids=str)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_kernel_equals_the_naive_reference(game: KInARow, seed: int) -> None:
    rng = np.random.default_rng(seed)
    pos = random_position(game, seed)
    weights = rng.random(N_FEATURES) * 10.0 ** rng.integers(0, 4, size=N_FEATURES)
    me = 1 + pos.to_move
    got = _evaluate(pos._board, pos._heights, game.rows, game.cols, game.k, game.gravity, me, weights,
                    window_table(game.rows, game.cols, game.k))  # fmt: skip
    expected = naive_threats.evaluate(list(pos._board), game.rows, game.cols, game.k, game.gravity, me,
                                      dict(zip(NAMES, weights)))  # fmt: skip
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-9)  # the kernel adds in another order


@pytest.mark.parametrize("game", [Connect4(), Connect4(5, 4, 3), Connect4(6, 7, 5), Connect4(4, 5, 2),
                                  Connect4(7, 8, 4), Connect4(3, 9, 3), Connect4(12, 4, 4), Connect4(8, 7, 7)],
                         ids=str)  # fmt: skip
def test_the_bitboard_kernel_equals_the_array_kernel_to_the_bit(game: KInARow) -> None:
    assert fits(game.rows, game.cols, game.k)
    rng = np.random.default_rng(game.rows * 100 + game.cols * 10 + game.k)
    consts = constants(game.rows, game.cols, game.k)
    windows = window_table(game.rows, game.cols, game.k)
    for trial in range(200):
        if trial % 2:
            pos = random_position(game, int(rng.integers(2**32)))
            board, heights, ply = pos._board, pos._heights, pos.ply
        else:
            board, heights = gravity_fill(game, rng)
            ply = int(heights.sum())  # the bitboard kernel reads the colour to move off the stone count
        weights = rng.random(N_FEATURES) * 10.0 ** rng.integers(0, 8, size=N_FEATURES)  # any other sum order shows
        current, mask = _from_board(board, game.rows, game.cols, ply)
        expected = _evaluate(board, heights, game.rows, game.cols, game.k, True, 1 + (ply & 1), weights, windows)
        assert _evaluate_bits(np.uint64(current), np.uint64(mask), game.rows, game.k, consts, weights) == expected


def test_where_the_bitboard_kernel_applies() -> None:
    assert fits(6, 7, 4) and fits(7, 8, 4) and fits(8, 7, 7)
    assert not fits(8, 8, 4)  # 72 bits
    assert not fits(6, 7, 8)  # 8 stones overflow the 3-bit counters
    assert not fits(20, 3, 4)  # shifts of 3 * 22 bits
    assert N_BIT_CONSTS == N_CONSTS and N_BIT_WEIGHTS == N_FEATURES


# ---------------------------------------------------------------- contract: colour dual, _order


@pytest.mark.parametrize("game", [Connect4(), Connect4(5, 6, 3), MNK(7, 7, 4), MNK(9, 9, 5)], ids=str)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_colour_swap_negates_the_value_under_the_dual_weights(game: KInARow, seed: int) -> None:
    rng = np.random.default_rng(seed)
    pos = random_position(game, seed)
    weights = dict(zip(NAMES, rng.integers(0, 100, size=N_FEATURES).astype(float)))
    dual = colour_dual(weights)
    windows = window_table(game.rows, game.cols, game.k)
    swapped = np.where(pos._board == 0, 0, 3 - pos._board).astype(np.int8)
    me = 1 + pos.to_move

    def value(board: np.ndarray, w: dict[str, float]) -> float:
        vector = np.array([w[n] for n in NAMES])
        return float(_evaluate(board, pos._heights, game.rows, game.cols, game.k, game.gravity, me, vector, windows))

    assert value(swapped, weights) == -value(pos._board, dual)
    assert colour_dual(dual) == weights


@pytest.mark.parametrize("game", [Connect4(), Connect4(6, 7, 5), MNK(7, 7, 4), MNK(9, 9, 5)], ids=str)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_order_is_the_change_of_the_window_squares_and_centre_terms(game: KInARow, seed: int) -> None:
    rng = np.random.default_rng(seed)
    pos = random_position(game, seed)
    w = rng.integers(1, 50, size=N_FEATURES).astype(float)
    for m in range(4):
        w[2 * m + 1] = w[2 * m]  # later = now: the window terms do not depend on what is playable
    keep = {f"w{m}_{t}" for m in range(1, 5) for t in ("now", "later")} | {"squares"} | {f"centre_{i}" for i in range(4)}
    weights = np.array([x if n in keep else 0.0 for n, x in zip(NAMES, w)])
    windows = window_table(game.rows, game.cols, game.k)
    me = 1 + pos.to_move
    args = (game.rows, game.cols, game.k, game.gravity, me, weights, windows)
    before = _evaluate(pos._board, pos._heights, *args)
    for action in pos.legal_moves():
        board = pos._board.copy()
        heights = pos._heights.copy()
        if game.gravity:
            cell = (game.rows - 1 - heights[action]) * game.cols + action
            heights[action] += 1
        else:
            cell = action
        board[cell] = me
        expected = _evaluate(board, heights, *args) - before
        assert _order(pos._board, pos._heights, *args, cell) == pytest.approx(expected, rel=1e-12, abs=1e-9)


# ---------------------------------------------------------------- search


@pytest.mark.parametrize("game", [MNK(3, 3, 3), MNK(5, 5, 4), Connect4(8, 8, 4), Connect4(20, 3, 4)], ids=str)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), depth=st.integers(1, 3))
def test_search_with_threats_equals_plain_minimax_on_array_boards(game: KInARow, seed: int, depth: int) -> None:
    h = Evaluator("threats", game)
    pos = random_position(game, seed, seed % min(game.n_cells - 2, 12))
    expected, _ = minimax(pos, h, depth)
    result = search(pos, h, depth=depth)
    assert result.score == expected or (result.depth < depth and plies_to_end(result.score) is not None)


@pytest.mark.parametrize("moves, plies", [("445566", 1), ("44556", 2), ("4455", 3)])
def test_forced_results_at_the_shortest_distance(moves: str, plies: int) -> None:
    h = Evaluator("threats", CONNECT4)
    result = search(CONNECT4.position(moves), h, depth=6)
    assert plies_to_end(result.score) == plies and (result.score > 0) == (plies % 2 == 1)


def test_the_evaluator_pickles_with_its_colour_dual() -> None:
    """Agents and envs are pickled (worker pools, env copies): the spec's colour_dual must be a named function."""
    h = Evaluator("threats", CONNECT4)
    clone = pickle.loads(pickle.dumps(h))
    pos = CONNECT4.position("4453")
    assert clone.evaluate(pos) == h.evaluate(pos) and clone.spec.colour_dual is colour_dual
