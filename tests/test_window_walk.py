"""The one walk over the k-windows through a cell (heuristics._lines._stones_in_window) that the windows and threats
ordering kernels share: it visits exactly the windows of the window table, and both kernels order moves as before."""

from __future__ import annotations

from collections import Counter
from typing import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import MNK, Connect4, KInARow
from heuristics import Evaluator, _threats, _windows, get_spec
from heuristics._lines import DIRECTIONS, _stones_in_window, window_table
from heuristics.spec import n_windows
from tests.positions import random_position

GAMES: list[KInARow] = [Connect4(), Connect4(4, 5, 3), Connect4(6, 7, 5), MNK(3, 3, 3), MNK(7, 7, 4), MNK(9, 9, 5),
                        MNK(2, 9, 3)]  # fmt: skip

Term = Callable[[float, int, int], float]
"""Adds one window's ordering term to the running change: ``(change, own, opp) -> change``."""


def old_walk(board: np.ndarray, rows: int, cols: int, k: int, me: int, cell: int, change: float, term: Term) -> float:
    """The window loop both ``_order`` kernels held before they shared a primitive, verbatim, as plain Python."""
    row, col = cell // cols, cell % cols
    for d in range(4):
        dr = 0 if d == 0 else 1
        dc = 1 if d == 0 else (0 if d == 1 else (1 if d == 2 else -1))
        for s in range(k):  # the window starts s steps before cell
            r0, c0 = row - s * dr, col - s * dc
            r1, c1 = r0 + (k - 1) * dr, c0 + (k - 1) * dc
            if not (0 <= r0 < rows and 0 <= c0 < cols and 0 <= r1 < rows and 0 <= c1 < cols):
                continue
            own, opp = 0, 0
            for i in range(k):
                v = board[(r0 + i * dr) * cols + c0 + i * dc]
                if v == me:
                    own += 1
                elif v != 0:
                    opp += 1
            change = term(change, own, opp)
    return change


def old_windows_order(board: np.ndarray, game: KInARow, me: int, w: np.ndarray, cell: int) -> float:
    phi, k = _windows._phi, game.k

    def term(change: float, own: int, opp: int) -> float:
        return change + ((phi(own + 1, opp, k, w) - phi(opp, own + 1, k, w)) - (phi(own, opp, k, w) - phi(opp, own, k, w)))

    return old_walk(board, game.rows, game.cols, k, me, cell, 0.0, term)


def old_threats_order(board: np.ndarray, game: KInARow, me: int, w: np.ndarray, cell: int) -> float:
    phi, k = _threats._window_phi, game.k

    def term(change: float, own: int, opp: int) -> float:
        change += w[_threats.SQUARES]
        change += phi(own + 1, opp, k, w) - phi(own, opp, k, w)
        return change + (phi(opp, own, k, w) - phi(opp, own + 1, k, w))

    centre = _threats.centre_group(game.rows, game.cols, game.gravity, cell // game.cols, cell % game.cols)
    return old_walk(board, game.rows, game.cols, k, me, cell, float(w[_threats.CENTRE + centre]), term)


@pytest.mark.parametrize("game", GAMES, ids=str)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_walk_visits_exactly_the_windows_through_the_cell(game: KInARow, seed: int) -> None:
    pos = random_position(game, seed)
    table = window_table(game.rows, game.cols, game.k)
    assert table.shape == (n_windows(game), game.k) and len({tuple(sorted(w)) for w in table.tolist()}) == len(table)
    me = 1 + pos.to_move
    for cell in range(game.n_cells):
        expected = Counter()
        for window in table[(table == cell).any(axis=1)]:
            stones = pos._board[window]
            expected[(int((stones == me).sum()), int(((stones != 0) & (stones != me)).sum()))] += 1
        walked = [_stones_in_window(pos._board, game.rows, game.cols, game.k, me, *divmod(cell, game.cols), dr, dc, s)
                  for dr, dc in DIRECTIONS for s in range(game.k)]  # fmt: skip
        assert Counter(w for w in walked if w[0] >= 0) == expected
        assert all(w == (-1, -1) for w in walked if w[0] < 0)


@pytest.mark.parametrize("name, old", [("windows", old_windows_order), ("threats", old_threats_order)])
@pytest.mark.parametrize("game", GAMES, ids=str)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_both_evaluators_order_moves_exactly_as_before(name: str, old: Callable[..., float], game: KInARow,
                                                        seed: int) -> None:  # fmt: skip
    rng = np.random.default_rng(seed)
    spec = get_spec(name)
    # random weights inside the tuning ranges, so every term of every window matters
    h = Evaluator(name, game, {w.name: float(rng.uniform(w.low, w.high)) for w in spec.weights})
    pos = random_position(game, seed)
    me = 1 + pos.to_move
    scores = h.move_scores(pos)
    expected = np.full(game.n_actions, -np.inf)
    for action in pos.legal_moves():
        cell = (game.rows - 1 - int(pos._heights[action])) * game.cols + action if game.gravity else action
        expected[action] = old(pos._board, game, me, h.weight_array, cell)
    assert scores.tolist() == expected.tolist()  # to the bit: the same additions in the same order
    assert np.argsort(-scores, kind="stable").tolist() == np.argsort(-expected, kind="stable").tolist()
