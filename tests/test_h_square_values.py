"""Kang et al.'s Heuristics-2 (heuristics/_square_values.py): the paper's matrix, a naive reference, _order."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from games import MNK, Connect4, KInARow
from heuristics._lines import window_table
from heuristics._square_values import SPEC, _evaluate, _order, square_value_table
from tests import naive_kang
from tests.positions import random_position

# Seed 000, section 3.3.2, as printed in the paper (top row first).
PAPER_MATRIX = [
    [3, 4, 5, 7, 5, 4, 3],
    [4, 6, 8, 10, 8, 6, 4],
    [5, 8, 11, 13, 11, 8, 5],
    [5, 8, 11, 13, 11, 8, 5],
    [4, 6, 8, 10, 8, 6, 4],
    [3, 4, 5, 7, 5, 4, 3],
]

ONE = np.array([1.0])


def test_the_6x7_table_is_the_papers_matrix() -> None:
    table = square_value_table(6, 7, 4)
    assert table.shape == (6, 7) and table.dtype.kind == "i"
    assert table.tolist() == PAPER_MATRIX


def test_small_tables_by_hand() -> None:
    assert square_value_table(3, 3, 3).tolist() == [[3, 2, 3], [2, 4, 2], [3, 2, 3]]
    assert square_value_table(1, 5, 2).tolist() == [[1, 2, 2, 2, 1]]
    assert square_value_table(2, 2, 3).tolist() == [[0, 0], [0, 0]]  # no window fits


@settings(deadline=None, max_examples=20)
@given(st.integers(1, 8), st.integers(1, 8), st.integers(2, 6))
def test_tables_match_brute_force(rows: int, cols: int, k: int) -> None:
    expected = [[naive_kang.windows_through(rows, cols, k, r, c) for c in range(cols)] for r in range(rows)]
    assert square_value_table(rows, cols, k).tolist() == expected


def test_positions_by_hand() -> None:
    game = Connect4()
    windows = window_table(6, 7, 4)
    for moves, me, expected in (("", 1, 0.0), ("4", 1, 7.0), ("4", 2, -7.0), ("44", 1, 7 - 10.0), ("4431", 2, 10 + 3 - 7 - 5.0)):
        pos = game.position(moves)
        assert _evaluate(pos._board, pos._heights, 6, 7, 4, True, me, ONE, windows) == expected
    ttt = MNK(3, 3, 3).position("b2 a1")  # x in the centre (4), o in a corner (3)
    assert _evaluate(ttt._board, ttt._heights, 3, 3, 3, False, 1, np.array([2.5]), window_table(3, 3, 3)) == 2.5 * (4 - 3)


GAMES: tuple[KInARow, ...] = (Connect4(), Connect4(5, 6, 4), Connect4(6, 7, 5), MNK(3, 3, 3), MNK(7, 7, 5), MNK(4, 9, 3), MNK(9, 9, 5))


@settings(deadline=None, max_examples=80)
@given(st.integers(0, len(GAMES) - 1), st.integers(0, 2**32 - 1), st.sampled_from([1.0, 0.5, 3.0]))
def test_evaluate_and_order_match_the_naive_reference(game_index: int, seed: int, scale: float) -> None:
    game = GAMES[game_index]
    pos = random_position(game, seed)
    grid = naive_kang.grid_of(pos._board, game.rows, game.cols)
    windows = window_table(game.rows, game.cols, game.k)
    args = (pos._board, pos._heights, game.rows, game.cols, game.k, game.gravity)
    w = np.array([scale])
    for me in (1, 2):
        assert _evaluate(*args, me, w, windows) == naive_kang.square_values(grid, game.k, me, scale)
    table = square_value_table(game.rows, game.cols, game.k)
    for cell in range(game.n_cells):
        r, c = divmod(cell, game.cols)
        if naive_kang.available(grid, game.gravity, r, c):
            assert _order(*args, 1 + pos.to_move, w, windows, cell) == scale * table[r, c]


def test_scale_zero_switches_it_off() -> None:
    pos = Connect4().position("4431")
    windows = window_table(6, 7, 4)
    assert _evaluate(pos._board, pos._heights, 6, 7, 4, True, 1, np.array([0.0]), windows) == 0.0
    assert _order(pos._board, pos._heights, 6, 7, 4, True, 1, np.array([0.0]), windows, 39) == 0.0


def test_spec_covers_every_size() -> None:
    assert SPEC.weight_names == ("scale",) and SPEC.defaults == {"scale": 1.0}
    for game in (Connect4(), MNK(15, 15, 5), MNK(3, 3, 3), Connect4(4, 5, 3)):
        assert SPEC.refuse(game) is None
