"""Openings on large boards: moves near the stones, no search where no forced result can exist, a cache per board."""

from __future__ import annotations

import math

import numpy as np
import pytest

import search.agents.openings as openings
from games import CONNECT4, GOMOKU, make_game
from heuristics import Evaluator
from search.alphabeta.engine import search
from search.protocol import is_win_score
from tuning.openings import cached_openings


def _random_position(game, plies: int, rng: np.random.Generator):
    position = game.position()
    while position.ply < plies and not position.is_terminal():
        moves = position.legal_moves()
        position.play(moves[int(rng.integers(len(moves)))])
    return position


@pytest.mark.parametrize("board", [(6, 7, 4, True), (5, 5, 4, False), (6, 6, 5, False)])
def test_no_search_is_skipped_that_could_find_a_forced_result(board) -> None:
    rows, cols, k, gravity = board
    game = make_game("connect4" if gravity else "mnk", rows, cols, k)
    evaluator = Evaluator("square_values", game)
    rng = np.random.default_rng(rows * cols)
    skipped = 0
    for _ in range(60):
        position = _random_position(game, int(rng.integers(0, 12)), rng)
        if position.is_terminal():
            continue
        for depth in (2, 3, 4):
            if openings.cannot_be_decided(position, depth):
                skipped += 1
                assert not is_win_score(search(position, evaluator, depth=depth).score), (position.move_string(), depth)
    assert skipped > 20  # the check rules out many positions, and never one a search decides


def test_the_check_counts_the_stones_each_side_still_gets() -> None:
    five = make_game("mnk", 9, 9, 5)
    three = five.position("e5 a1 f5 a9 g5")  # x: e5 f5 g5 (three in a row, both ends open), o to move
    assert not openings.cannot_be_decided(three, 4)  # x plays twice more within 4 plies: five is possible
    assert openings.cannot_be_decided(three, 2)  # x plays once within 2 plies: four at most
    assert openings.cannot_be_decided(GOMOKU.position("h8 i9 h9 i10"), 4)


def test_moves_keep_near_the_stones_on_a_large_board() -> None:
    rng = np.random.default_rng(3)
    assert openings.default_opening_radius(GOMOKU) == 2
    assert openings.default_opening_radius(CONNECT4) is None and openings.default_opening_radius(make_game("mnk", 7, 7, 5)) is None
    empty = openings.near_moves(GOMOKU.position(), 2)
    centre = (GOMOKU.rows // 2, GOMOKU.cols // 2)
    assert len(empty) == 25 and all(max(abs(m // 15 - centre[0]), abs(m % 15 - centre[1])) <= 2 for m in empty)
    for _ in range(20):
        position = GOMOKU.position()
        for _ in range(6):
            stones = [m for m in range(GOMOKU.n_cells) if position.board().ravel()[m]]
            move = openings.random_move(position, rng, 2)
            if stones:
                assert min(max(abs(move // 15 - s // 15), abs(move % 15 - s % 15)) for s in stones) <= 2
            position.play(move)


def test_gomoku_openings_need_no_search_and_come_from_the_cache_the_second_time(tmp_path, monkeypatch) -> None:
    def no_search(*args, **kwargs):
        raise AssertionError("no 4-ply opening of a five-in-a-row board can be decided: nothing to search")

    monkeypatch.setattr(openings, "search", no_search)
    for game in (GOMOKU, make_game("mnk", 9, 9, 5)):
        book, cached = cached_openings(game, 200, 4, 0, 0.5, folder=tmp_path)
        assert not cached and len(book.tuning) == len(book.heldout) == 100
        again, cached = cached_openings(game, 200, 4, 0, 0.5, folder=tmp_path)
        assert cached and again == book
    other, cached = cached_openings(GOMOKU, 200, 4, 1, 0.5, folder=tmp_path)  # another seed: another entry
    assert not cached and other != book
    (entry,) = [p for p in (tmp_path / "openings").iterdir() if p.name.startswith("mnk-9x9x5")]
    entry.write_text("{ damaged")  # a damaged entry is drawn again, not an error
    assert not cached_openings(make_game("mnk", 9, 9, 5), 200, 4, 0, 0.5, folder=tmp_path)[1]
    assert math.isfinite(len(book.tuning))
