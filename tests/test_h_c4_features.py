"""Kang et al.'s Heuristics-1 (heuristics/_c4_features.py): hand-worked boards, a naive reference, _order, switches."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import MNK, Connect4, KInARow
from heuristics._c4_features import SPEC, _evaluate, _order
from heuristics._lines import window_table
from tests import naive_kang
from tests.positions import board_from, random_position

NAMES = SPEC.weight_names
DEFAULTS = SPEC.defaults


def vector(weights: dict[str, float]) -> np.ndarray:
    return np.array([weights[n] for n in NAMES], dtype=np.float64)


def only(**weights: float) -> np.ndarray:
    """All weights 0 except the ones named."""
    return vector({n: weights.get(n, 0.0) for n in NAMES})


def score(picture: str, weights: np.ndarray, me: int = 1, gravity: bool = True) -> float:
    board, heights, rows, cols = board_from(picture)
    return _evaluate(board, heights, rows, cols, 4, gravity, me, weights, window_table(rows, cols, 4))


EMPTY5 = "....... " * 5

# ---------------------------------------------------------------- hand-worked boards (6x7, gravity)


def test_f1_counts_every_fully_owned_four_window() -> None:
    assert score(EMPTY5 + "xxxx...", only(f1_four=1)) == 1
    assert score(EMPTY5 + "xxxxx..", only(f1_four=1)) == 2  # a five holds two windows
    assert score(EMPTY5 + "ooooo..", only(f1_four=1)) == -2
    assert score(EMPTY5 + "xxx.x..", only(f1_four=1)) == 0


def test_f2_the_three_boards_of_figure_6() -> None:
    f2 = only(f2_three_open=1, f2_three_half=10, f2_three_closed=100)
    assert score(EMPTY5 + "..xxx..", f2) == 1  # left: (b,1) and (f,1) available, unstoppable
    assert score(EMPTY5 + "xxx....", f2) == 10  # middle: only (d,1)
    assert score(EMPTY5 + "..oxxxo", f2) == 100  # right: both ends taken


def test_an_open_three_scores_as_a_win_with_default_weights() -> None:
    """The seed gives F1 (four) and the open three the same value, "Infinity"."""
    lone_stones = 2 * DEFAULTS["f4_col_ag"]  # o's (a,1) and (g,1) below are lone and on the edge
    open_three = score(EMPTY5 + "o.xxx.o", vector(DEFAULTS))
    four = score(EMPTY5 + "oxxxx.o", only(f1_four=DEFAULTS["f1_four"]))
    assert open_three == four - lone_stones == DEFAULTS["f1_four"] - lone_stones


def test_f2_the_right_board_of_figure_6_with_default_weights() -> None:
    # x's closed three is worth 0; o's (c,1) and (g,1) are lone stones: c is 300, g is 100.
    assert score(EMPTY5 + "..oxxxo", vector(DEFAULTS)) == -400


def test_f2_squares_that_cannot_be_played_now_are_unavailable_figure_7() -> None:
    f2 = only(f2_three_open=1, f2_three_half=10, f2_three_closed=100)
    # x's (c,2)-(d,2)-(e,2): (b,2) and (f,2) float over empty squares -> closed; o's row below is open.
    assert score("....... " * 4 + "..xxx.. ..ooo..", f2) == 100 - 1
    # Without gravity every empty square is available: both threes are open.
    assert score("....... " * 4 + "..xxx.. ..ooo..", f2, gravity=False) == 0


def test_f2_vertical_three() -> None:
    f2 = only(f2_three_open=1, f2_three_half=10, f2_three_closed=100)
    assert score("....... " * 3 + "x...... x...... x......", f2) == 10  # only the top end
    assert score("....... " * 2 + "o...... x...... x...... x......", f2) == 100


def test_f2_broken_three_of_figure_8_counts_with_the_gap_unavailable() -> None:
    # (b,1)-(c,2)-(e,4), (d,3) empty and not playable yet ((d,2) is empty).
    figure_8 = "....... ....... ....x.. ....o.. ..x.o.. .xooo.."
    assert score(figure_8, only(f2_broken_three=1)) == 1
    # ... and with (d,2) filled, (d,3) becomes available: still one broken three.
    assert score("....... ....... ....x.. ....o.. ..xoo.. .xooo..", only(f2_broken_three=1)) == 1
    assert score(EMPTY5 + "x.xx...", only(f2_broken_three=1)) == 1
    assert score(EMPTY5 + "xx.x...", only(f2_broken_three=1)) == 1
    assert score(EMPTY5 + "xx.xx..", only(f2_broken_three=1)) == 2  # two windows
    assert score(EMPTY5 + "xxx....", only(f2_broken_three=1)) == 0  # the gap at an end is a connected three
    assert score(EMPTY5 + "xoxx...", only(f2_broken_three=1)) == 0  # the gap must be empty


def test_f3_open_two_and_one_side_counts_available_squares() -> None:
    f3 = only(f3_two_open=100, f3_two_side=10, f3_two_closed=1)
    assert score(EMPTY5 + ".xx....", f3) == 100
    assert score(EMPTY5 + "oxx....", f3) == 20  # (d,1), (e,1): counted up to 2
    assert score(EMPTY5 + "oxx.o..", f3) == 10  # (d,1) then o's (e,1) stops the count
    assert score(EMPTY5 + "...oxx.", f3) == 10  # (g,1) then the edge
    assert score("....... " * 4 + "...x... ...x...", f3) == 10  # vertical: (d,3) yes, (d,4) not playable


def test_f3_closed_two_and_the_diagonal_two_between_the_edges() -> None:
    f3 = only(f3_two_open=100, f3_two_side=10, f3_two_closed=1)
    # x's (b,2)-(c,2): (a,2) is o, (d,2) floats -> closed (1).  o: (a,1)-(a,2) vertical with (a,3)
    # available, (a,4) not -> 10; (a,2)-(b,1) diagonal, both ends off the board -> closed (1).
    # o's (a,1)-(b,1)-(c,1) is a three, not F3.
    assert score("....... " * 4 + "oxx.... ooo....", f3) == 1 - 10 - 1


def test_f4_lone_stones_by_column() -> None:
    f4 = only(f4_col_d=1000, f4_col_ce=100, f4_col_bf=10, f4_col_ag=1)
    assert score(EMPTY5 + "...x...", f4) == 1000
    assert score(EMPTY5 + "x.x.x.x", f4) == 1 + 100 + 100 + 1
    assert score(EMPTY5 + ".x...o.", f4) == 10 - 10
    assert score(EMPTY5 + "...xo..", f4) == 1000 - 100  # an opponent neighbour does not count
    assert score("....... " * 4 + "...x... ..x....", f4) == 0  # diagonal neighbours
    # Even width: c and d are both centre columns (distance 0), a and f are b/f-class.
    assert score("...... " * 5 + "x.x..x", f4) == 10 + 1000 + 10
    # Wide board: distance 3 and beyond share the a/g weight.
    assert score("x.......x", f4, gravity=False) == 1 + 1


def test_opening_positions_with_default_weights() -> None:
    game = Connect4()
    weights = vector(DEFAULTS)
    windows = window_table(game.rows, game.cols, game.k)
    for moves, me, expected in (("4", 1, 400.0), ("4", 2, -400.0), ("44", 1, 0.0), ("45", 1, 400 - 300.0)):
        pos = game.position(moves)
        assert _evaluate(pos._board, pos._heights, 6, 7, 4, True, me, weights, windows) == expected
    # "4455": x (d,1)-(e,1) open two 50,000 vs o (d,2)-(e,2) floating closed two 0; no lone stones.
    pos = game.position("4455")
    assert _evaluate(pos._board, pos._heights, 6, 7, 4, True, 1, weights, windows) == 50_000.0


# ---------------------------------------------------------------- against the naive reference

GAMES: tuple[KInARow, ...] = (Connect4(), Connect4(5, 6, 4), Connect4(4, 4, 4), Connect4(7, 9, 4), MNK(6, 7, 4), MNK(5, 5, 4), MNK(4, 9, 4))


def random_board(game: KInARow, rng: np.random.Generator, legal_play: bool) -> tuple[np.ndarray, np.ndarray]:
    """A position from random legal moves (stopping before the end), or a random gravity-consistent fill."""
    if legal_play:
        pos = random_position(game, int(rng.integers(2**32)))
        return pos._board.copy(), pos._heights.copy()
    grid = np.zeros((game.rows, game.cols), dtype=np.int8)
    density = rng.uniform(0.1, 0.9)
    for c in range(game.cols):
        if game.gravity:
            h = int(rng.binomial(game.rows, density))
            grid[game.rows - h :, c] = rng.integers(1, 3, size=h)
        else:
            grid[:, c] = rng.integers(1, 3, size=game.rows) * (rng.random(game.rows) < density)
    heights = (grid != 0).sum(axis=0).astype(np.int32)
    return grid.ravel().copy(), heights


def random_weights(rng: np.random.Generator) -> dict[str, float]:
    """Distinct integer weights, so that a feature scored with the wrong weight shows."""
    return {n: float(v) for n, v in zip(NAMES, rng.choice(np.arange(1, 10_000), size=len(NAMES), replace=False))}


@settings(deadline=None, max_examples=150)
@given(st.integers(0, len(GAMES) - 1), st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_evaluate_and_order_match_the_naive_reference(game_index: int, seed: int, legal_play: bool, defaults: bool) -> None:
    game = GAMES[game_index]
    rng = np.random.default_rng(seed)
    board, heights = random_board(game, rng, legal_play)
    weights = DEFAULTS if defaults else random_weights(rng)
    w = vector(weights)
    grid = naive_kang.grid_of(board, game.rows, game.cols)
    windows = window_table(game.rows, game.cols, 4)
    for me in (1, 2):
        got = _evaluate(board, heights, game.rows, game.cols, 4, game.gravity, me, w, windows)
        assert got == naive_kang.c4_features(grid, game.gravity, me, weights)
    me = int(rng.integers(1, 3))
    for cell in range(game.n_cells):
        r, c = divmod(cell, game.cols)
        if naive_kang.available(grid, game.gravity, r, c):
            got = _order(board, heights, game.rows, game.cols, 4, game.gravity, me, w, windows, cell)
            assert got == naive_kang.c4_order(grid, game.gravity, me, weights, cell), (cell, me)


def test_order_is_the_change_of_evaluate_along_a_game() -> None:
    game = Connect4()
    rng = np.random.default_rng(7)
    weights = vector(DEFAULTS)
    windows = window_table(6, 7, 4)
    for _ in range(20):
        pos = game.position()
        while not pos.is_terminal():
            me = 1 + pos.to_move
            before = _evaluate(pos._board, pos._heights, 6, 7, 4, True, me, weights, windows)
            moves = pos.legal_moves()
            move = moves[int(rng.integers(len(moves)))]
            cell = (6 - 1 - int(pos._heights[move])) * 7 + move
            predicted = _order(pos._board, pos._heights, 6, 7, 4, True, me, weights, windows, cell)
            pos.play(move)
            after = _evaluate(pos._board, pos._heights, 6, 7, 4, True, me, weights, windows)
            assert predicted == after - before


def test_a_winning_move_orders_first() -> None:
    pos = Connect4().position("1212123")  # o to move wins at (b,4); x's threat at (a,4) comes second
    weights = vector(DEFAULTS)
    windows = window_table(6, 7, 4)
    scores = {
        col: _order(pos._board, pos._heights, 6, 7, 4, True, 2, weights, windows, (5 - int(pos._heights[col])) * 7 + col)
        for col in pos.legal_moves()
    }
    assert sorted(scores, key=scores.__getitem__)[-2:] == [0, 1]


# ---------------------------------------------------------------- switches, spec, refusal


def test_a_zero_weight_switches_its_feature_off() -> None:
    rng = np.random.default_rng(3)
    fired = set()
    for game in GAMES:
        windows = window_table(game.rows, game.cols, 4)
        for _ in range(15):
            board, heights = random_board(game, rng, legal_play=False)
            full = _evaluate(board, heights, game.rows, game.cols, 4, game.gravity, 1, vector(DEFAULTS), windows)
            for i, name in enumerate(NAMES):
                unit = _evaluate(board, heights, game.rows, game.cols, 4, game.gravity, 1, only(**{name: 1.0}), windows)
                off = _evaluate(board, heights, game.rows, game.cols, 4, game.gravity, 1, vector({**DEFAULTS, name: 0.0}), windows)
                assert off == full - DEFAULTS[name] * unit
                if unit != 0:
                    fired.add(name)
    assert fired == set(NAMES)
    assert score(EMPTY5 + "xxxx.oo", only()) == 0


def test_spec_defaults_and_ranks() -> None:
    d = DEFAULTS
    assert d["f2_three_half"] == d["f2_broken_three"] == 900_000
    assert d["f2_three_closed"] == 0
    assert d["f1_four"] == d["f2_three_open"] > d["f2_three_half"] > d["f3_two_open"] > d["f3_two_side"] > d["f4_col_d"]
    assert d["f4_col_d"] > d["f4_col_ce"] > d["f4_col_bf"] > d["f4_col_ag"] > 0
    assert all(w.doc for w in SPEC.weights) and len(set(NAMES)) == len(NAMES)


def test_refuses_every_k_but_4() -> None:
    assert SPEC.refuse(Connect4()) is None
    assert SPEC.refuse(MNK(15, 15, 4)) is None
    assert SPEC.refuse(MNK(15, 15, 5)) == "c4_features is defined for k=4; got k=5 in m,n,k 15,15,5"
    assert SPEC.refuse(Connect4(6, 7, 5)) == "c4_features is defined for k=4; got k=5 in Connect-4 6x7 k=5"
    assert SPEC.refuse(MNK(3, 3, 3)) is not None


@pytest.mark.parametrize("game", [Connect4(), MNK(5, 6, 4)])
def test_mirror_and_colour_symmetry(game: KInARow) -> None:
    rng = np.random.default_rng(11)
    windows = window_table(game.rows, game.cols, 4)
    for _ in range(30):
        board, heights = random_board(game, rng, legal_play=False)
        w = vector(random_weights(rng))
        args = (game.rows, game.cols, 4, game.gravity)
        base = _evaluate(board, heights, *args, 1, w, windows)
        mirror = board.reshape(game.rows, game.cols)[:, ::-1].ravel().copy()
        swapped = np.where(board == 0, 0, 3 - board).astype(np.int8)
        assert _evaluate(mirror, heights[::-1].copy(), *args, 1, w, windows) == base
        assert _evaluate(swapped, heights, *args, 1, w, windows) == -base
