"""Properties every registered evaluator must have (the contract of heuristics.spec)."""

from __future__ import annotations

from typing import Optional

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import MNK, Connect4, KInARow, Position
from heuristics import NAMES, Evaluator, UnknownHeuristicError, get_spec
from heuristics._dispatch import _evaluate, _evaluate_many
from tests.positions import random_position

SHAPES: list[KInARow] = [
    Connect4(), Connect4(5, 4, 4), Connect4(7, 9, 4), Connect4(6, 7, 5), Connect4(4, 5, 3),
    MNK(3, 3, 3), MNK(7, 7, 4), MNK(9, 9, 5), MNK(15, 15, 5), MNK(5, 8, 4),
]  # fmt: skip
CASES = [(name, game) for name in NAMES for game in SHAPES if get_spec(name).refuse(game) is None]


def mirrored(pos: Position) -> Position:
    game = pos.game
    if game.gravity:
        return game.position([game.cols - 1 - m for m in pos.moves])
    return game.position([(m // game.cols) * game.cols + game.cols - 1 - m % game.cols for m in pos.moves])


def evaluate_raw(h: Evaluator, board: np.ndarray, heights: np.ndarray, me: int, weights: Optional[np.ndarray] = None) -> float:
    g = h.game
    w = h.weight_array if weights is None else weights
    return float(_evaluate(h.kernel_id, board, heights, g.rows, g.cols, g.k, g.gravity, me, w, h.windows))


def test_an_unknown_name_is_refused_with_the_registered_ones() -> None:
    with pytest.raises(UnknownHeuristicError, match="unknown heuristic 'h9': choose one of c4_features, square_values"):
        get_spec("h9")


def test_every_evaluator_covers_connect4_and_the_mnk_boards_it_claims() -> None:
    covered = {name: [g for n, g in CASES if n == name] for name in NAMES}
    assert all(Connect4() in games for games in covered.values())
    for name in ("square_values", "windows", "mics", "threats"):
        assert MNK(15, 15, 5) in covered[name] and Connect4(6, 7, 5) in covered[name]


@pytest.mark.parametrize("name, game", CASES, ids=[f"{n}-{g}" for n, g in CASES])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_mirror_symmetry_and_colour_antisymmetry(name: str, game: KInARow, seed: int) -> None:
    h = Evaluator(name, game)
    pos = random_position(game, seed, seed % min(game.n_cells, 41))
    score = h.evaluate(pos)
    assert h.evaluate(mirrored(pos)) == pytest.approx(score, rel=1e-9, abs=1e-9)
    swapped = np.where(pos._board == 0, 0, 3 - pos._board).astype(np.int8)
    me = 1 + pos.to_move
    spec = get_spec(name)
    dual = spec.colour_dual(dict(zip(spec.weight_names, h.weight_array.tolist())))
    dual_score = evaluate_raw(h, pos._board, pos._heights, me, np.array([dual[n] for n in spec.weight_names]))
    assert evaluate_raw(h, swapped, pos._heights, me) == pytest.approx(-dual_score, rel=1e-9, abs=1e-9)
    scores, mirror_scores = h.move_scores(pos), h.move_scores(mirrored(pos))
    if game.gravity:
        assert np.allclose(scores, mirror_scores[::-1], rtol=1e-9, equal_nan=False)
    else:
        grid, mirror_grid = scores.reshape(game.rows, game.cols), mirror_scores.reshape(game.rows, game.cols)
        assert np.allclose(grid, mirror_grid[:, ::-1], rtol=1e-9)


@pytest.mark.parametrize("name, game", CASES, ids=[f"{n}-{g}" for n, g in CASES])
def test_all_weights_zero_scores_zero(name: str, game: KInARow) -> None:
    h = Evaluator(name, game, {n: 0.0 for n in get_spec(name).weight_names})
    for seed in range(5):
        assert h.evaluate(random_position(game, seed, 30)) == 0.0


@pytest.mark.parametrize("name", NAMES)
def test_batch_evaluation_equals_one_by_one(name: str) -> None:
    game = Connect4()
    h = Evaluator(name, game)
    positions = [random_position(game, seed, 30) for seed in range(20)]
    boards = np.stack([p._board for p in positions])
    plies = np.array([p.ply for p in positions], dtype=np.int64)
    out = np.empty(len(positions))
    _evaluate_many(h.kernel_id, boards, game.rows, game.cols, game.k, game.gravity, plies, h.weight_array, h.windows, out)
    assert out.tolist() == [h.evaluate(p) for p in positions]


@pytest.mark.parametrize("name", NAMES)
def test_weight_specs_are_tunable(name: str) -> None:
    spec = get_spec(name)
    assert spec.weights and len(set(spec.weight_names)) == len(spec.weights)
    for w in spec.weights:
        assert w.low < w.high and w.low <= w.default <= w.high and w.doc, (name, w)
