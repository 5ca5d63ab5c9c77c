"""Incremental evaluation (heuristics._incremental): equal bit for bit to from-scratch, and the search unchanged."""

from __future__ import annotations

import numpy as np
import pytest

import search.alphabeta.engine as engine
from games import MNK, KInARow
from heuristics import Evaluator
from heuristics._dispatch import _evaluate, _order
from heuristics._incremental import MICS, PATTERNS, SUPPORTED, WINDOWS, _move, _new_state, _value, _value_after
from heuristics._incremental import _order as _inc_order
from heuristics.registry import INCREMENTAL
from search import search
from tests.positions import random_position

GAMES: list[KInARow] = [MNK(3, 3, 3), MNK(5, 4, 4), MNK(7, 7, 5), MNK(9, 9, 5, exact_k=True), MNK(10, 10, 5),
                        MNK(15, 15, 5), MNK(26, 26, 6), MNK(70, 70, 10)]  # fmt: skip
RADIUS = 2


def _check(state: tuple, board: np.ndarray, game: KInARow, h: Evaluator, rng: np.random.Generator) -> None:
    """The state's values and ordering scores equal the from-scratch kernels', and the state equals a fresh one."""
    heights = np.zeros(game.cols, dtype=np.int32)
    rules = game.rules
    weight_sets = [h.weight_array]
    if state[0][0] == PATTERNS:  # its state holds no weights: also weights whose sums round, so the float order shows
        weight_sets.append(rng.normal(0.0, 1000.0, h.weight_array.shape[0]))
    empty = np.flatnonzero(board == 0)
    for weights in weight_sets:
        for me in (1, 2):
            scratch = _evaluate(h.kernel_id, board, heights, game.rows, game.cols, game.k, False, me, weights, h.windows)
            assert _value(state, rules, me, weights) == scratch  # bit for bit, not approximately
        for cell in rng.choice(empty, size=min(len(empty), 40), replace=False):
            for me in (1, 2):
                scratch = _order(h.kernel_id, board, heights, game.rows, game.cols, game.k, False, me, weights,
                                 h.windows, cell)  # fmt: skip
                assert _inc_order(state, board, rules, me, weights, cell) == scratch
    if state[0][0] in (MICS, PATTERNS):  # a frontier child's value without make and unmake, for the side to move after it
        for cell in rng.choice(empty, size=min(len(empty), 5), replace=False):
            for player in (1, 2):
                board[cell] = player
                after = _evaluate(h.kernel_id, board, heights, game.rows, game.cols, game.k, False, 3 - player,
                                  h.weight_array, h.windows)  # fmt: skip
                board[cell] = 0
                assert _value_after(state, board, rules, cell, player, h.weight_array) == after
                assert board[cell] == 0
    fresh = _new_state(h.kernel_id, board, rules, RADIUS, True, h.weight_array, h.windows)
    for i in (0, 1, 2, 4, 6, 7, 9):  # meta, window counts, histogram, pair values, totals, near counters, powers
        assert np.array_equal(state[i], fresh[i]), i
    if state[0][0] == MICS:  # the stored line codes of every empty cell (a stone's are stale by design)
        assert np.array_equal(state[5][:, empty], fresh[5][:, empty])
        assert np.array_equal(state[8][:, empty], fresh[8][:, empty])
    if state[0][0] == PATTERNS:  # shape counts and every cell's cover (built fresh by playing the stones in cell order)
        assert np.array_equal(state[14], fresh[14])
        assert np.array_equal(state[15], fresh[15])
        assert not state[15][0][board != 1].any() and not state[15][1][board != 2].any()


@pytest.mark.parametrize("name", SUPPORTED)
@pytest.mark.parametrize("game", GAMES, ids=str)
def test_incremental_equals_from_scratch_after_every_make_and_unmake(name: str, game: KInARow) -> None:
    h = Evaluator(name, game)
    rng = np.random.default_rng(game.n_cells)
    board = np.zeros(game.n_cells, dtype=np.int8)
    state = _new_state(h.kernel_id, board, game.rules, RADIUS, True, h.weight_array, h.windows)
    assert state[0][0] == {"windows": WINDOWS, "mics": MICS, "patterns": PATTERNS}[name]
    # Moves in a small central square on big boards, so that lines fill, cross and block each other.
    side = min(game.rows, game.cols, 2 * game.k)
    r0, c0 = (game.rows - side) // 2, (game.cols - side) // 2
    region = [(r0 + r) * game.cols + c0 + c for r in range(side) for c in range(min(game.cols, side))]
    played: list[int] = []
    for cell in rng.permutation(region)[: min(len(region), 36)]:
        player = 1 + len(played) % 2
        board[cell] = player
        _move(state, board, game.rules, cell, player, 1, RADIUS, h.weight_array)
        played.append(int(cell))
        _check(state, board, game, h, rng)
    while played:
        cell = played.pop()
        board[cell] = 0
        _move(state, board, game.rules, cell, 1 + len(played) % 2, -1, RADIUS, h.weight_array)
        _check(state, board, game, h, rng)


def test_gravity_and_other_evaluators_keep_no_state() -> None:
    h = Evaluator("windows", MNK(7, 7, 5))
    off = _new_state(h.kernel_id, np.zeros(49, dtype=np.int8), h.game.rules, RADIUS, False, h.weight_array, h.windows)
    assert off[0].tolist() == [0, 0]
    from games import Connect4

    c4 = Evaluator("mics", Connect4())
    on_c4 = _new_state(c4.kernel_id, np.zeros(42, dtype=np.int8), c4.game.rules, 0, True, c4.weight_array, c4.windows)
    assert on_c4[0].tolist() == [0, 0]
    s = Evaluator("square_values", MNK(7, 7, 5))
    on_s = _new_state(s.kernel_id, np.zeros(49, dtype=np.int8), s.game.rules, RADIUS, True, s.weight_array, s.windows)
    assert on_s[0].tolist() == [0, 0]  # no evaluation state: the plain search (state None)


def test_registry_flags_the_supported_evaluators() -> None:
    assert set(INCREMENTAL) == set(SUPPORTED)


def _both(pos: object, h: Evaluator, **kwargs: object) -> tuple[object, object]:
    """The same search with the incremental path and forced from scratch."""
    try:
        engine.INCREMENTAL = False
        scratch = search(pos, h, **kwargs)  # type: ignore[arg-type]
    finally:
        engine.INCREMENTAL = True
    return search(pos, h, **kwargs), scratch  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ("windows", "mics", "patterns"))
@pytest.mark.parametrize("game, depth", [(MNK(7, 7, 5), 3), (MNK(9, 9, 5, exact_k=True), 3), (MNK(15, 15, 5), 2),
                                         pytest.param(MNK(70, 70, 10), 2, marks=pytest.mark.slow)], ids=str)  # fmt: skip
def test_search_at_fixed_depth_is_unchanged(name: str, game: KInARow, depth: int) -> None:
    """Same value, move, principal variation and node count: the evaluations and orderings are identical."""
    h = Evaluator(name, game)
    for seed in range(3):
        pos = random_position(game, seed, 4 + 2 * seed) if game.n_cells < 1000 else game.position()
        if game.n_cells >= 1000:
            for cell in random_position(MNK(9, 9, 5), seed, 6).moves:
                r, c = divmod(cell, 9)
                pos.play((r + 30) * game.cols + c + 30)
        for kwargs in ({"radius": RADIUS}, {"radius": RADIUS, "branching": 5}, {"radius": 1, "use_tt": False}):
            fast, slow = _both(pos, h, depth=depth, **kwargs)
            assert (fast.score, fast.move, fast.pv, fast.nodes) == (slow.score, slow.move, slow.pv, slow.nodes), kwargs
