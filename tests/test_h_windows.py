"""The ``windows`` evaluator (seed 003, COMP 472 heuristic 2): hand-worked windows, reference, incremental."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import MNK, Connect4, KInARow
from heuristics._lines import window_table
from heuristics._windows import (
    SPEC,
    _apply,
    _cell_windows,
    _evaluate,
    _order,
    _score_from_counts,
    _window_counts,
)
from tests import naive_comp472 as naive
from tests.positions import random_position

NAMES = SPEC.weight_names
DEFAULTS = np.array([w.default for w in SPEC.weights])


def weights_with(**changes: float) -> np.ndarray:
    w = DEFAULTS.copy()
    for name, value in changes.items():
        w[NAMES.index(name)] = value
    return w


def evaluate(picture: list[str], k: int, me: int = 1, weights: np.ndarray = DEFAULTS) -> float:
    """Evaluate a board drawn as rows of '.', 'x' (stone 1), 'o' (stone 2), top row first."""
    rows, cols = len(picture), len(picture[0])
    board = np.array([".xo".index(ch) for line in picture for ch in line], dtype=np.int8)
    heights = (board.reshape(rows, cols) != 0).sum(axis=0).astype(np.int32)
    return _evaluate(board, heights, rows, cols, k, False, me, weights, window_table(rows, cols, k))


# --------------------------------------------------------------- by hand
# One-row boards of 5 cells, k = 4: two windows, cells 0-3 and 1-4.
# A window with c stones: danger 100 * (c/4) / (3/4) = 100c/3, goodness 50 c^2 / 9.
def test_report_formulas_by_hand() -> None:
    # x: windows with 3 and 2 stones: (150) + (200/9 + 200/3)
    assert evaluate(["xxx.."], 4) == pytest.approx(150 + 200 / 9 + 200 / 3)
    assert evaluate(["xxx.."], 4, me=2) == pytest.approx(-(150 + 200 / 9 + 200 / 3))
    # "xx.o.": x has 2 and 1, o has 1 and 1 (blocked windows count in the report)
    x = (200 / 9 + 200 / 3) + (50 / 9 + 100 / 3)
    o = 2 * (50 / 9 + 100 / 3)
    assert evaluate(["xx.o."], 4) == pytest.approx(x - o) == pytest.approx(50.0)
    # only goodness, only danger
    assert evaluate(["xxx.."], 4, weights=weights_with(danger=0)) == pytest.approx(50 + 200 / 9)
    assert evaluate(["xxx.."], 4, weights=weights_with(good=0)) == pytest.approx(100 + 200 / 3)


def test_blocked_scale() -> None:
    assert evaluate(["xx.o."], 4, weights=weights_with(blocked_scale=0)) == 0.0
    assert evaluate(["xx.o."], 4, weights=weights_with(blocked_scale=0.5)) == pytest.approx(25.0)
    # open windows are not scaled
    assert evaluate(["xxx.."], 4, weights=weights_with(blocked_scale=0)) == evaluate(["xxx.."], 4)


GENERIC = {"good": 0.0, "danger": 0.0, "missing_1": 1000.0, "missing_2": 100.0, "missing_3": 8.0}


def test_generic_form_by_hand() -> None:
    generic = weights_with(**GENERIC)
    assert evaluate(["xxx.."], 4, weights=generic) == 1100.0  # one and two stones short
    assert evaluate(["x...."], 4, weights=generic) == 8.0  # three short (cells 0-3 only)
    assert evaluate(["xx.o."], 4, weights=generic) == 0.0  # every window holds both colours
    assert evaluate(["xxxx."], 4, weights=generic) == 1000.0  # the complete window adds nothing
    # k = 6: one stone in a window is 5 short: missing_3 * decay^2
    assert evaluate(["x......"], 6, weights=weights_with(**GENERIC, missing_decay=0.5)) == 2.0
    assert evaluate(["x......"], 6, weights=weights_with(**GENERIC, missing_decay=0.0)) == 0.0
    # defaults: the generic weights are off, the report alone
    assert evaluate(["xxx.."], 4) == evaluate(["xxx.."], 4, weights=weights_with(missing_1=0, missing_2=0, missing_3=0))


def test_two_dimensions_by_hand() -> None:
    # 4x4, k = 4: 10 windows. x on a corner sits in 3 (row, column, diagonal), each with one stone.
    one = 50 / 9 + 100 / 3
    assert evaluate(["x...", "....", "....", "...."], 4) == pytest.approx(3 * one)
    # o in the opposite corner shares the diagonal: that window is 1 against 1, and cancels
    assert evaluate(["x...", "....", "....", "...o"], 4) == pytest.approx(0.0, abs=1e-9)


def test_order_by_hand() -> None:
    board = np.array([1, 1, 0, 0, 0], dtype=np.int8)
    heights = np.array([1, 1, 0, 0, 0], dtype=np.int32)
    table = window_table(1, 5, 4)
    # x on cell 2: window 0-3 goes from 2 to 3 stones, window 1-4 from 1 to 2
    gain = (150 - (200 / 9 + 200 / 3)) + ((200 / 9 + 200 / 3) - (50 / 9 + 100 / 3))
    assert _order(board, heights, 1, 5, 4, False, 1, DEFAULTS, table, 2) == pytest.approx(gain)
    # o on cell 2: o gets one stone in both windows, x's windows are not taken away (blocked_scale 1)
    assert _order(board, heights, 1, 5, 4, False, 2, DEFAULTS, table, 2) == pytest.approx(2 * (50 / 9 + 100 / 3))


def test_zero_weights() -> None:
    zero = np.zeros(len(NAMES))
    assert evaluate(["xxx..", "ooxo."], 4, weights=zero) == 0.0
    # every weight at 0 but one: that feature alone, checked against the reference
    grid = naive.to_grid(np.array([".xo".index(ch) for ch in "xxx..ooxo."], dtype=np.int8), 2, 5)
    for name in NAMES:
        w = DEFAULTS.copy()
        w[NAMES.index(name)] = 0.0
        expected = naive.windows_evaluate(grid, 2, 5, 4, 1, dict(zip(NAMES, w)))
        assert evaluate(["xxx..", "ooxo."], 4, weights=w) == pytest.approx(expected)


def test_spec() -> None:
    assert SPEC.defaults["good"] == 50.0 and SPEC.defaults["danger"] == 100.0
    for game in (Connect4(), MNK(3, 3, 2), MNK(15, 15, 5), Connect4(4, 5, 3)):
        assert SPEC.refuse(game) is None


# ------------------------------------------------------------ reference
GAMES: list[KInARow] = [Connect4(), Connect4(5, 4, 3), MNK(3, 3, 3), MNK(3, 4, 2), MNK(6, 6, 4), MNK(4, 9, 6), MNK(8, 5, 4)]


def random_weights(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([rng.uniform(w.low, w.high) for w in SPEC.weights])


@settings(deadline=None, max_examples=80)
@given(st.sampled_from(GAMES), st.integers(0, 2**32 - 1), st.booleans())
def test_evaluate_and_order_match_reference(game: KInARow, seed: int, defaults: bool) -> None:
    pos = random_position(game, seed)
    weights = DEFAULTS if defaults else random_weights(seed)
    wd = dict(zip(NAMES, weights))
    rows, cols, k = game.rows, game.cols, game.k
    grid = naive.to_grid(pos._board, rows, cols)
    table = window_table(rows, cols, k)
    for me in (1, 2):
        got = _evaluate(pos._board, pos._heights, rows, cols, k, game.gravity, me, weights, table)
        assert got == pytest.approx(naive.windows_evaluate(grid, rows, cols, k, me, wd), rel=1e-9, abs=1e-7)
    me = 1 + pos.to_move
    for move in pos.legal_moves():
        cell = (rows - 1 - int(pos._heights[move])) * cols + move if game.gravity else move
        got = _order(pos._board, pos._heights, rows, cols, k, game.gravity, me, weights, table, cell)
        assert got == pytest.approx(naive.windows_order(grid, rows, cols, k, me, wd, cell), rel=1e-9, abs=1e-7)


@settings(deadline=None, max_examples=100)
@given(st.sampled_from(GAMES), st.integers(0, 2**32 - 1), st.booleans())
def test_incremental_equals_from_scratch(game: KInARow, seed: int, defaults: bool) -> None:
    rng = np.random.default_rng(seed)
    weights = DEFAULTS if defaults else random_weights(seed)
    rows, cols, k = game.rows, game.cols, game.k
    table = window_table(rows, cols, k)
    cell_windows = _cell_windows(table, game.n_cells)
    pos = game.position()
    counts = _window_counts(pos._board, table)
    me = int(rng.integers(1, 3))
    score = 0.0
    cells: list[int] = []
    for _ in range(3 * game.n_cells):
        if cells and (pos.is_terminal() or rng.random() < 0.35):
            pos.undo()
            cell = cells.pop()
            score += _apply(counts, cell_windows, cell, len(cells) & 1, -1, k, me, weights)
        else:
            moves = pos.legal_moves()
            move = moves[int(rng.integers(len(moves)))]
            cell = (rows - 1 - int(pos._heights[move])) * cols + move if game.gravity else move
            score += _apply(counts, cell_windows, cell, len(cells) & 1, 1, k, me, weights)
            pos.play(move)
            cells.append(cell)
        scratch = _evaluate(pos._board, pos._heights, rows, cols, k, game.gravity, me, weights, table)
        assert np.array_equal(counts, _window_counts(pos._board, table))
        assert score == pytest.approx(scratch, rel=1e-9, abs=1e-6)
        assert _score_from_counts(counts, k, me, weights) == pytest.approx(scratch, rel=1e-12, abs=1e-9)


def test_cell_windows_table() -> None:
    table = window_table(6, 7, 4)
    cell_windows = _cell_windows(table, 42)
    # the C4-H2 square-value table is the number of windows through each square
    per_cell = (cell_windows >= 0).sum(axis=1).reshape(6, 7)
    assert per_cell[0].tolist() == [3, 4, 5, 7, 5, 4, 3]
    assert per_cell[2].tolist() == [5, 8, 11, 13, 11, 8, 5]
    for cell in range(42):
        for w in cell_windows[cell]:
            if w >= 0:
                assert cell in table[w]
