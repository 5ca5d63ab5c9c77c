"""The ``patterns`` evaluator (seed 003, COMP 472 heuristic 1): hand-worked shapes, reference, order."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import MNK, Connect4, KInARow
from heuristics._lines import window_table
from heuristics._patterns import SPEC, _evaluate, _order
from tests import naive_comp472 as naive
from tests.positions import random_position

NAMES = SPEC.weight_names
DEFAULTS = np.array([w.default for w in SPEC.weights])


def board_of(picture: list[str]) -> tuple[np.ndarray, np.ndarray, int, int]:
    """A board from rows of '.', 'x' (stone 1), 'o' (stone 2), top row first."""
    rows, cols = len(picture), len(picture[0])
    board = np.array([".xo".index(ch) for line in picture for ch in line], dtype=np.int8)
    heights = (board.reshape(rows, cols) != 0).sum(axis=0).astype(np.int32)
    return board, heights, rows, cols


def unit(name: str) -> np.ndarray:
    """Weights counting one shape: that weight 1, every other 0."""
    w = np.zeros(len(NAMES))
    w[NAMES.index(name)] = 1.0
    return w


def evaluate(picture: list[str], k: int, me: int = 1, weights: np.ndarray = DEFAULTS, gravity: bool = False) -> float:
    board, heights, rows, cols = board_of(picture)
    return _evaluate(board, heights, rows, cols, k, gravity, me, weights, window_table(rows, cols, k))


# --------------------------------------------------------------- by hand
# One-row boards, k = 4: the row is the only line longer than one cell; each
# stone also sits alone on three one-cell lines (column, two diagonals), each
# "@O@", an unavailable-1.  Counts are net, x's minus o's.
ONE_ROW = [
    (".xxx...", {"alive_3": 1, "unavailable_1": 9}),  # XOOOX; @XOOO is not a dead-3
    ("xxx....", {"dead_3": 1, "unavailable_1": 9}),  # @OOOX (the edge is @)
    ("xx.x...", {"dead_3": 1, "unavailable_1": 9}),  # @OOXO
    ("x.xx...", {"dead_3": 1, "alive_2": 1, "unavailable_1": 9}),  # @OXOO, and XOOXX from the last two
    ("...xxxo", {"dead_3": 1, "unavailable_1": 9 - 4}),  # XOOO@ (mirror); o: "@O@" and 3 more
    ("x.xx.xx", {"dead_3": 2, "unavailable_1": 15}),  # @OXOO from the left, OXOO@ from the right
    (".xx.x..", {"unavailable_1": 9}),  # XOOXOX: an open broken three is in none of the seed's shapes
    ("..xx...", {"alive_2": 2, "unavailable_1": 6}),  # XXOOX and XOOXX overlap: two occurrences
    (".x.x...", {"alive_2": 1, "unavailable_1": 6}),  # XOXOX
    ("x.x....", {"dead_2": 1, "unavailable_1": 6}),  # @OXOX, the seed's example
    ("xx.....", {"dead_2": 1, "unavailable_1": 6}),  # @OOXX
    ("xxxx...", {"four_connected": 1, "unavailable_1": 12}),
    ("oxxxo..", {"unavailable_3": 1, "unavailable_1": 9 - 7}),  # @OOO@; o: "@O@" on the left, 6 more
    ("oxxo...", {"unavailable_2": 1, "unavailable_1": 6 - 7}),  # @OO@; o: "@O@" on the left, 6 more
    ("oxo....", {"unavailable_1": 4 - 7}),  # x: @O@ on the row too
]


@pytest.mark.parametrize("row, counts", ONE_ROW)
def test_one_row_shape_counts(row: str, counts: dict[str, int]) -> None:
    for name in NAMES:
        assert evaluate([row], 4, me=1, weights=unit(name)) == counts.get(name, 0), name
        assert evaluate([row], 4, me=2, weights=unit(name)) == -counts.get(name, 0), name


def test_one_row_default_scores() -> None:
    # x: alive-3 (10,000) and nine unavailable-1 (-900)
    assert evaluate([".xxx..."], 4, me=1) == 9_100.0
    assert evaluate([".xxx..."], 4, me=2) == -9_100.0
    # x: dead-3 @OOXO + 9 x unavailable-1 = 100; o: "@O@" on the row + 3 more = -400
    assert evaluate(["oxx.x.."], 4, me=1) == 100.0 + 400.0
    # x: unavailable-3 and 9 unavailable-1 = -1,000; o: "@O@" (left) and "@OXX@" (no shape), 6 unavailable-1
    assert evaluate(["oxxxo.."], 4, me=1) == -1_000.0 - (-700.0)


# Seven by seven, k = 4.  x holds a horizontal dead-3 (o at its left end) and a
# vertical dead-3 (o at its top) crossing at d4 = (3, 3); the anti-diagonals
# through the other x stones carry alive-2s (XXOOX/XOOXX and XOXOX).
CROSS = [
    "...o...",
    "...x...",
    "...x...",
    "oxxx...",
    ".......",
    ".......",
    ".......",
]
# Three x stones in an L: every pair is an alive-2, each stone in two directions.
ELL = [
    ".......",
    ".......",
    ".......",
    "...xx..",
    "...x...",
    ".......",
    ".......",
]


def test_double_dead_3_and_dead_3_alive_2() -> None:
    assert evaluate(CROSS, 4, weights=unit("double_dead_3")) == 1.0  # (3, 3) only
    assert evaluate(CROSS, 4, weights=unit("dead_3_alive_2")) == 4.0  # the four other x stones
    assert evaluate(CROSS, 4, weights=unit("double_alive_2")) == 0.0
    assert evaluate(CROSS, 4, weights=unit("dead_3")) == 2.0
    assert evaluate(CROSS, 4, weights=unit("alive_2")) == 3.0  # XXOOX, XOOXX, XOXOX
    # o: both its stones on one anti-diagonal "@OXXO@": dead-2 read from each end
    assert evaluate(CROSS, 4, weights=unit("dead_2")) == -2.0


def test_double_alive_2() -> None:
    assert evaluate(ELL, 4, weights=unit("alive_2")) == 6.0  # two per line, three lines
    assert evaluate(ELL, 4, weights=unit("double_alive_2")) == 3.0
    assert evaluate(ELL, 4, weights=unit("dead_3_alive_2")) == 0.0
    # same shapes in colour o: the score negates
    swapped = [row.replace("x", "o") for row in ELL]
    assert evaluate(swapped, 4, weights=unit("double_alive_2")) == -3.0


def test_generalised_k() -> None:
    # k = 5: "3" means four stones (XOOOOX alive), "2" means three (XOOXOX alive)
    assert evaluate([".xxxx..."], 5, weights=unit("alive_3")) == 1.0
    assert evaluate([".xx.x..."], 5, weights=unit("alive_2")) == 1.0
    # k = 5: unavailable_2 is @OOO@, unavailable_1 every shorter run (plus 3 one-cell lines a stone)
    assert evaluate(["xxx"], 5, weights=unit("unavailable_2")) == 1.0
    assert evaluate(["xx"], 5, weights=unit("unavailable_1")) == 1.0 + 2 * 3
    assert evaluate(["x"], 5, weights=unit("unavailable_1")) == 4.0
    # k = 3: "3" means two stones
    assert evaluate([".xx.."], 3, weights=unit("alive_3")) == 1.0
    assert evaluate(["xx..."], 3, weights=unit("dead_3")) == 1.0


def test_order_by_hand() -> None:
    board, heights, rows, cols = board_of([".xx...."])
    # x on cell 3: XOOXX (alive-2, 1,000) becomes XOOOX (alive-3, 10,000); the new
    # stone's three one-cell lines each become "@O@" (-300)
    assert _order(board, heights, rows, cols, 4, False, 1, DEFAULTS, window_table(rows, cols, 4), 3) == 8_700.0
    # o there: x loses its alive-2 (+1,000 for o); o's stone gets "@O@" on its three one-cell lines
    assert _order(board, heights, rows, cols, 4, False, 2, DEFAULTS, window_table(rows, cols, 4), 3) == 1_000.0 - 300.0


def test_gravity_ignored() -> None:
    pos = Connect4().position("4455433")
    args = (pos._board, pos._heights, 6, 7, 4)
    me = 1 + pos.to_move
    table = window_table(6, 7, 4)
    assert _evaluate(*args, True, me, DEFAULTS, table) == _evaluate(*args, False, me, DEFAULTS, table)


def test_zero_weight_switches_feature_off() -> None:
    pos = MNK(7, 7, 4).position("d4 a1 e4 a2 c3 g7 d5 b7 e5 f6 c6")
    board, heights = pos._board, pos._heights
    table = window_table(7, 7, 4)
    full = _evaluate(board, heights, 7, 7, 4, False, 1, DEFAULTS, table)
    for i, name in enumerate(NAMES):
        weights = DEFAULTS.copy()
        weights[i] = 0.0
        alone = _evaluate(board, heights, 7, 7, 4, False, 1, unit(name), table)
        assert _evaluate(board, heights, 7, 7, 4, False, 1, weights, table) == full - DEFAULTS[i] * alone, name
    assert _evaluate(board, heights, 7, 7, 4, False, 1, np.zeros(len(NAMES)), table) == 0.0


def test_refusals() -> None:
    assert SPEC.refuse(MNK(3, 3, 2)) == "patterns is defined for k >= 3 (its 'two' shapes hold k-2 stones); got k=2 in m,n,k 3,3,2"
    assert SPEC.refuse(Connect4()) is None
    assert SPEC.refuse(MNK(15, 15, 5)) is None
    assert SPEC.refuse(MNK(3, 3, 3)) is None


def test_spec_defaults_are_the_seeds() -> None:
    assert SPEC.defaults == {
        "four_connected": 100_000.0, "alive_3": 10_000.0, "dead_3": 1_000.0, "double_dead_3": 10_000.0,
        "alive_2": 1_000.0, "dead_2": 500.0, "double_alive_2": 10_000.0, "dead_3_alive_2": 10_000.0,
        "unavailable_3": -100.0, "unavailable_2": -100.0, "unavailable_1": -100.0,
    }  # fmt: skip


# ------------------------------------------------------------ reference
GAMES: list[KInARow] = [Connect4(), Connect4(5, 4, 3), MNK(3, 3, 3), MNK(6, 6, 4), MNK(4, 9, 5), MNK(8, 5, 4)]


def random_weights(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.round(rng.uniform(-3, 3, len(NAMES)) * 8) / 8  # exact in binary: sums compare exactly


@settings(deadline=None, max_examples=100)
@given(st.sampled_from(GAMES), st.integers(0, 2**32 - 1), st.booleans())
def test_evaluate_matches_reference(game: KInARow, seed: int, defaults: bool) -> None:
    pos = random_position(game, seed)
    weights = DEFAULTS if defaults else random_weights(seed)
    wd = dict(zip(NAMES, weights))
    grid = naive.to_grid(pos._board, game.rows, game.cols)
    table = window_table(game.rows, game.cols, game.k)
    for me in (1, 2):
        got = _evaluate(pos._board, pos._heights, game.rows, game.cols, game.k, game.gravity, me, weights, table)
        assert got == naive.patterns_evaluate(grid, game.rows, game.cols, game.k, me, wd)


@settings(deadline=None, max_examples=30)
@given(st.sampled_from(GAMES), st.integers(0, 2**32 - 1), st.booleans())
def test_order_matches_reference(game: KInARow, seed: int, defaults: bool) -> None:
    pos = random_position(game, seed)
    weights = DEFAULTS if defaults else random_weights(seed)
    wd = dict(zip(NAMES, weights))
    grid = naive.to_grid(pos._board, game.rows, game.cols)
    table = window_table(game.rows, game.cols, game.k)
    me = 1 + pos.to_move
    for move in pos.legal_moves():
        cell = (game.rows - 1 - int(pos._heights[move])) * game.cols + move if game.gravity else move
        got = _order(pos._board, pos._heights, game.rows, game.cols, game.k, game.gravity, me, weights, table, cell)
        assert got == naive.patterns_order(grid, game.rows, game.cols, game.k, me, wd, cell)
