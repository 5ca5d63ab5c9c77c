"""heuristics._mics: hand-worked values, the slow reference, strict tiers for any weights, switches, refusals."""

from __future__ import annotations

import math
from typing import Optional

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import MNK, Connect4, KInARow
from games.position import Position
from heuristics._lines import window_table
from heuristics._mics import SPEC, _evaluate, _order
from heuristics.spec import WeightSpec
from tests import naive_mics
from tests.positions import random_position

DEFAULTS = SPEC.defaults
T1, T2 = 1_000_000.0, 10_000.0


def _weights(**overrides: float) -> dict:
    w = dict(DEFAULTS)
    w.update(overrides)
    return w


def _array(w: dict) -> np.ndarray:
    return np.array([w[name] for name in SPEC.weight_names], dtype=np.float64)


def _pos(game: KInARow, moves: str = "") -> Position:
    return game.position(moves)


def order(pos: Position, cell: int, **overrides: float) -> float:
    g = pos.game
    me = 1 + pos.to_move
    return _order(pos._board, pos._heights, g.rows, g.cols, g.k, g.gravity, me, _array(_weights(**overrides)),
                  window_table(g.rows, g.cols, g.k), cell)


def evaluate(pos: Position, me: Optional[int] = None, gravity: Optional[bool] = None, **overrides: float) -> float:
    g = pos.game
    me = 1 + pos.to_move if me is None else me
    gravity = g.gravity if gravity is None else gravity
    return _evaluate(pos._board, pos._heights, g.rows, g.cols, g.k, gravity, me, _array(_weights(**overrides)),
                     window_table(g.rows, g.cols, g.k))


def cell_of(game: KInARow, name: str) -> int:
    """m,n,k cell name (column letter, row counted from the bottom) -> flat cell index."""
    col, row = ord(name[0]) - ord("a"), int(name[1:])
    return (game.rows - row) * game.cols + col


def playable_cells(pos: Position) -> list[int]:
    g = pos.game
    board, heights = pos._board, pos._heights
    return [c for c in range(g.rows * g.cols) if naive_mics.playable(board, heights, g.rows, g.cols, g.gravity, c)]


# --- hand-worked values (window_mult 1, my_cell_mult 10, mics_mult 1, mics_base 2, adjacent_mult 5) ---------

def test_empty_7x7_centre_and_corner() -> None:
    g = MNK(7, 7, 4)
    pos = _pos(g)
    # centre: per direction 4 windows, all missing 4 -> 4 + 1 * 4 * 2**0 = 8; 4 directions; both players
    assert order(pos, cell_of(g, "d4")) == 64.0
    # corner: 3 directions with one window each -> 1 + 1 = 2, the anti-diagonal has none
    assert order(pos, cell_of(g, "a7")) == 12.0
    assert evaluate(pos) == 0.0


def test_one_stone_7x7_alignment_and_adjacency() -> None:
    g = MNK(7, 7, 4)
    pos = _pos(g, "d4")  # o to move
    e4 = cell_of(g, "e4")
    # x at e4: horizontal 3 windows (b4-e4, c4-f4, d4-g4) each missing 3, 1 friendly: 3 + 10 + 3 * 2 = 19;
    # vertical 4 windows: 8; both diagonals 3 windows: 6 + 6 -> 39.  o at e4: horizontal blocked by d4
    # (only 2 cells ahead): 0; 8 + 6 + 6 = 20.  Adjacency: d4 -> 5.
    assert order(pos, e4) == 20 + 39 + 5
    assert order(pos, e4, adjacent_mult=0.0) == 59
    assert order(pos, e4, my_cell_mult=0.0) == 20 + 29 + 5
    assert order(pos, e4, mics_mult=0.0) == (20 - 10) + (39 - 3 * 2 - 4 - 3 - 3) + 5
    assert order(pos, e4, window_mult=0.0) == (20 - 10) + (39 - 3 - 4 - 3 - 3) + 5


def test_tic_tac_toe_centre_evaluation() -> None:
    g = MNK(3, 3, 3)
    pos = _pos(g, "b2")
    # corner for x: rows/cols 1 + 1 each, diagonal through b2: 1 + 10 + 2 = 13 -> 17; for o: 2 + 2 = 4 -> +13.
    # edge for x: own line 2, line through b2 13 -> 15; for o: 2 -> +13.  8 cells -> 104.
    assert evaluate(pos, me=1) == 104.0
    assert evaluate(pos, me=2) == -104.0
    # o to move at a3: own 4 + x's 17 + one neighbour stone 5
    assert order(pos, cell_of(g, "a3")) == 26.0


def test_tic_tac_toe_finishing_cell() -> None:
    g = MNK(3, 3, 3)
    pos = _pos(g, "a3 b2 b3 c1")  # x: a3 b3, o: b2 c1; x to move
    c3 = cell_of(g, "c3")
    # x finishes a3 b3 c3: T1, doubled for the mover.  o at c3: column c has c1 (own): 1 + 10 + 2 = 13;
    # anti-diagonal c3 b2 a1: 13; row blocked (two directions lacking 2: a double threat for o) -> T2.
    # Adjacency: b3 and b2 -> 10.
    assert order(pos, c3) == 2 * T1 + T2 + 10
    assert order(pos, c3, own_threat_bonus=0.0) == T1 + T2 + 10


def test_in_line_double_needs_two_completion_cells() -> None:
    g = MNK(7, 7, 4)
    # x d4 d5: d6 leaves d3 and d7 open -> double; far o stones
    pos = _pos(g, "d4 a1 d5 g1")
    assert naive_mics.cell_tier(pos._board, 7, 7, 4, cell_of(g, "d6")) == 2
    assert order(pos, cell_of(g, "d6")) >= 2 * T2
    # o a4, x b4 c4 _ _ f4 (k=4): at d4 the windows b4-e4 and c4-f4 both lack 2 but both need e4: one threat
    pos = _pos(g, "b4 a4 c4 g1 f4 a7")
    d4 = cell_of(g, "d4")
    assert naive_mics.cell_tier(pos._board, 7, 7, 4, d4) == 3
    assert order(pos, d4) < T2


def test_gravity_tiny_board_by_hand() -> None:
    g = Connect4(rows=2, cols=3, k=2)
    pos = _pos(g, "1")  # x at the bottom-left; o to move
    # playable a2 and b1: x finishes (T1), o has two empty windows in two directions (T2): T1 - T2 each;
    # b2 is not playable yet: x finishes there too (diagonal b2-a1), o has an open row: (T1 - T2) * 0.5;
    # c1 and c2 are double threats for both players: 0.
    assert evaluate(pos, me=1) == 2.5 * (T1 - T2)
    assert evaluate(pos, me=2) == -2.5 * (T1 - T2)
    assert evaluate(pos, me=1, unplayable_mult=0.0) == 2 * (T1 - T2)


# --- the reference -----------------------------------------------------------------------------------------

GAMES: list[KInARow] = [
    MNK(3, 3, 3), MNK(7, 7, 4), MNK(6, 9, 5), MNK(15, 15, 5), MNK(4, 5, 2), Connect4(), Connect4(rows=5, cols=4, k=3),
]


def _weight_strategy() -> st.SearchStrategy:
    def one(w: WeightSpec) -> st.SearchStrategy:
        if w.log:
            return st.floats(math.log(w.low), math.log(w.high)).map(lambda x, w=w: min(max(math.exp(x), w.low), w.high))
        return st.floats(w.low, w.high)

    return st.fixed_dictionaries({w.name: one(w) for w in SPEC.weights})


@settings(deadline=None, max_examples=40)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**31), plies=st.integers(0, 40))
def test_evaluate_matches_reference(game: KInARow, seed: int, plies: int) -> None:
    pos = random_position(game, seed, plies)
    g = pos.game
    for me in (1, 2):
        expected = naive_mics.evaluate(pos._board, pos._heights, g.rows, g.cols, g.k, g.gravity, me, DEFAULTS)
        assert evaluate(pos, me=me) == pytest.approx(expected, rel=1e-12, abs=1e-9)


@settings(deadline=None, max_examples=60)
@given(game=st.sampled_from(GAMES + [MNK(26, 26, 6)]), seed=st.integers(0, 2**31), plies=st.integers(0, 60),
       weights=_weight_strategy())
def test_order_matches_reference_for_any_weights(game: KInARow, seed: int, plies: int, weights: dict) -> None:
    pos = random_position(game, seed, plies)
    g = pos.game
    cells = playable_cells(pos)
    rng = np.random.default_rng(seed)
    for cell in rng.choice(cells, size=min(6, len(cells)), replace=False):
        expected = naive_mics.order(pos._board, pos._heights, g.rows, g.cols, g.k, g.gravity, 1 + pos.to_move,
                                    weights, int(cell))
        got = order(pos, int(cell), **weights)
        assert got == pytest.approx(expected, rel=1e-9)


@settings(deadline=None, max_examples=15)
@given(game=st.sampled_from([MNK(5, 5, 3), Connect4(rows=4, cols=5, k=3)]), seed=st.integers(0, 2**31),
       plies=st.integers(0, 12), weights=_weight_strategy())
def test_evaluate_matches_reference_for_any_weights(game: KInARow, seed: int, plies: int, weights: dict) -> None:
    pos = random_position(game, seed, plies)
    g = pos.game
    expected = naive_mics.evaluate(pos._board, pos._heights, g.rows, g.cols, g.k, g.gravity, 1 + pos.to_move, weights)
    assert evaluate(pos, **weights) == pytest.approx(expected, rel=1e-9, abs=1e-6)


# --- strict tiers ------------------------------------------------------------------------------------------

def _cell_tiers(pos: Position) -> dict[int, int]:
    """The reference tier (1 finishing, 2 double threat, 3 ordinary) of every playable cell."""
    g = pos.game
    return {cell: naive_mics.cell_tier(pos._board, g.rows, g.cols, g.k, cell) for cell in playable_cells(pos)}


def _assert_strict_tiers(pos: Position, weights: dict, tiers: Optional[dict] = None, need_all: bool = False) -> None:
    tiers = _cell_tiers(pos) if tiers is None else tiers
    by_tier: dict[int, list[float]] = {1: [], 2: [], 3: []}
    for cell, tier in tiers.items():
        by_tier[tier].append(order(pos, cell, **weights))
    if need_all:
        assert all(by_tier[t] for t in (1, 2, 3)), by_tier
    if by_tier[1] and by_tier[2]:
        assert min(by_tier[1]) > max(by_tier[2])
    if by_tier[2] and by_tier[3]:
        assert min(by_tier[2]) > max(by_tier[3])
    if by_tier[1] and by_tier[3]:
        assert min(by_tier[1]) > max(by_tier[3])


HAND_BUILT = [
    # x a1 b1 c1 (finishes at d1), x d4 d5 (doubles at d3, d6); o g7 g6 g5 (finishes at g4)
    (MNK(7, 7, 4), "d4 g7 d5 g6 a1 g5 b1 f1 c1"),
    # x a1 b1 c1 d1 (finishes at e1), x h8 h9 h10 (doubles at h7, h11), o far away
    (MNK(15, 15, 5), "a1 o15 b1 o14 c1 n15 d1 a15 h8 b15 h9 c15 h10"),
    # x d1 e1 f1 (finishes at c1, g1), o d2 e2 (double at f2)
    (Connect4(), "44556"),
]


@pytest.mark.parametrize("game, moves", HAND_BUILT)
def test_finishing_beats_double_beats_ordinary_hand_built(game: KInARow, moves: str) -> None:
    pos = _pos(game, moves)
    tiers = _cell_tiers(pos)
    _assert_strict_tiers(pos, DEFAULTS, tiers, need_all=True)
    for w in SPEC.weights:  # each extreme of each bound
        for value in (w.low, w.high):
            _assert_strict_tiers(pos, _weights(**{w.name: value}), tiers, need_all=True)


def test_connect4_hand_built_tiers_by_name() -> None:
    pos = _pos(Connect4(), "44556")
    g = pos.game
    c1, g1, f2, a1 = (cell_of(g, n) for n in ("c1", "g1", "f2", "a1"))
    assert order(pos, c1) >= T1 and order(pos, g1) >= T1
    assert T2 <= order(pos, f2) < T1
    assert order(pos, a1) < T2


@settings(deadline=None, max_examples=40)
@given(hand=st.sampled_from(HAND_BUILT), weights=_weight_strategy())
def test_strict_tiers_hand_built_any_weights(hand: tuple[KInARow, str], weights: dict) -> None:
    pos = _pos(*hand)
    if hand[1] not in _HAND_TIERS:
        _HAND_TIERS[hand[1]] = _cell_tiers(pos)
    _assert_strict_tiers(pos, weights, _HAND_TIERS[hand[1]], need_all=True)


_HAND_TIERS: dict[str, dict[int, int]] = {}


@settings(deadline=None, max_examples=40)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**31), plies=st.integers(4, 50), weights=_weight_strategy())
def test_strict_tiers_random_positions_any_weights(game: KInARow, seed: int, plies: int, weights: dict) -> None:
    _assert_strict_tiers(random_position(game, seed, plies), weights)


def test_own_win_before_block_and_own_double_before_blocking_double() -> None:
    pos = _pos(MNK(7, 7, 4), "d4 g7 d5 g6 a1 g5 b1 f1 c1")  # o to move: o wins at g4, x would win at d1
    g = pos.game
    assert order(pos, cell_of(g, "g4")) > order(pos, cell_of(g, "d1")) > order(pos, cell_of(g, "d6"))


# --- contract: colour antisymmetry, mirror symmetry --------------------------------------------------------

@settings(deadline=None, max_examples=30)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**31), plies=st.integers(0, 40))
def test_antisymmetric_and_mirror_symmetric(game: KInARow, seed: int, plies: int) -> None:
    pos = random_position(game, seed, plies)
    g = pos.game
    w = _array(DEFAULTS)
    win = window_table(g.rows, g.cols, g.k)
    board, heights = pos._board, pos._heights
    swapped = np.where(board == 0, 0, 3 - board).astype(np.int8)
    mirrored = board.reshape(g.rows, g.cols)[:, ::-1].reshape(-1).copy()
    for me in (1, 2):
        score = _evaluate(board, heights, g.rows, g.cols, g.k, g.gravity, me, w, win)
        assert _evaluate(swapped, heights, g.rows, g.cols, g.k, g.gravity, me, w, win) == -score
        assert _evaluate(mirrored, heights[::-1].copy(), g.rows, g.cols, g.k, g.gravity, me, w, win) == score


# --- switches and gravity ----------------------------------------------------------------------------------

def test_unplayable_mult_scales_only_cells_above_the_stacks() -> None:
    pos = random_position(Connect4(), 7, 14)
    full = evaluate(pos, unplayable_mult=1.0)
    assert full == evaluate(pos, gravity=False, unplayable_mult=0.0)  # without gravity all cells are playable
    half, none = evaluate(pos, unplayable_mult=0.5), evaluate(pos, unplayable_mult=0.0)
    assert half == pytest.approx((full + none) / 2)
    g = pos.game
    playable_only = naive_mics.evaluate(pos._board, pos._heights, g.rows, g.cols, g.k, True, 1 + pos.to_move,
                                        _weights(unplayable_mult=0.0))
    assert none == pytest.approx(playable_only)
    assert full != none


def test_zero_weights_turn_tier3_off() -> None:
    pos = _pos(MNK(7, 7, 4), "d4 e5 c3")
    off = dict(window_mult=0.0, my_cell_mult=0.0, mics_mult=0.0, adjacent_mult=0.0)
    assert evaluate(pos, **off) == 0.0
    assert all(order(pos, c, **off) == 0.0 for c in playable_cells(pos))


def test_refuses_nothing() -> None:
    for game in (MNK(3, 3, 3), MNK(26, 26, 26), MNK(1, 26, 2), Connect4(), Connect4(rows=26, cols=26, k=7)):
        assert SPEC.refuse(game) is None


def test_spec_shape() -> None:
    assert SPEC.name == "mics"
    assert SPEC.weight_names == ("tier_finish", "tier_double", "window_mult", "my_cell_mult", "mics_mult",
                                 "mics_base", "adjacent_mult", "own_threat_bonus", "unplayable_mult")
    assert DEFAULTS["my_cell_mult"] == 10.0 and DEFAULTS["adjacent_mult"] == 5.0
