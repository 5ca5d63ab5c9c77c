"""Game descriptions: validation of sizes, presets, and move notation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import (
    CONNECT4,
    GOMOKU,
    MAX_SIDE,
    MNK,
    TIC_TAC_TOE,
    Connect4,
    InvalidGameError,
    NotationError,
    make_game,
)
from games.rules import column_index, column_name


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: Connect4(rows=0), r"rows=0 is out of range: rows must be an integer from 1 to 100"),
        (lambda: Connect4(cols=-3), r"cols=-3 is out of range"),
        (lambda: MNK(3, 3, 1), r"k=1 is out of range: k must be an integer from 2 to 3"),
        (lambda: MNK(3, 4, 5), r"k=5 is out of range: k must be an integer from 2 to 4"),
        (lambda: Connect4(rows=6, cols=7, k=8), r"k=8 is out of range: k must be an integer from 2 to 7"),
        (lambda: MNK(101, 3, 3), r"rows=101 is out of range: rows must be an integer from 1 to 100"),
        (lambda: MNK(1, 1, 2), r"a 1x1 board has no line of 2"),
        (lambda: MNK(3.0, 3, 3), r"rows=3.0 is not an integer"),
        (lambda: MNK(True, 3, 3), r"rows=True is not an integer"),
    ],
)
def test_bad_sizes_name_the_value_and_the_range(build, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidGameError, match=message):
        build()


def test_invalid_game_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        MNK(0, 0, 0)


def test_k_may_exceed_one_side_but_not_both() -> None:
    game = MNK(2, 5, 4)  # only horizontal lines can win
    assert game.k == 4
    pos = game.position("a1 a2 b1 b2 c1 c2 d1")
    assert pos.winner == 0


def test_presets() -> None:
    assert (CONNECT4.rows, CONNECT4.cols, CONNECT4.k, CONNECT4.gravity) == (6, 7, 4, True)
    assert (TIC_TAC_TOE.rows, TIC_TAC_TOE.cols, TIC_TAC_TOE.k, TIC_TAC_TOE.gravity) == (3, 3, 3, False)
    assert (GOMOKU.rows, GOMOKU.cols, GOMOKU.k) == (15, 15, 5)
    assert CONNECT4.uses_bitboard and Connect4(rows=7, cols=8).uses_bitboard
    assert not Connect4(rows=8, cols=8).uses_bitboard and not TIC_TAC_TOE.uses_bitboard
    assert CONNECT4.n_actions == 7 and GOMOKU.n_actions == 225


def test_gomoku_is_freestyle_six_in_a_row_wins() -> None:
    pos = GOMOKU.position("a1 a15 b1 b15 c1 c15 e1 e15 f1 f15")
    assert pos.winner is None
    pos.play(GOMOKU.parse_move("d1"))  # fills a-b-c-d-e-f: an overline of six
    assert pos.winner == 0


def test_make_game() -> None:
    assert make_game("connect4") == CONNECT4
    assert make_game("connect4", rows=5, cols=4) == Connect4(5, 4, 4)
    assert make_game("tictactoe") is TIC_TAC_TOE and make_game("gomoku", k=5) is GOMOKU
    with pytest.raises(InvalidGameError, match="unknown game 'chess': choose one of connect4, mnk, tictactoe, gomoku"):
        make_game("chess")
    with pytest.raises(InvalidGameError, match="missing: cols, k"):
        make_game("mnk", rows=3)
    with pytest.raises(InvalidGameError, match="tictactoe is fixed"):
        make_game("tictactoe", rows=4)


def test_connect4_notation() -> None:
    assert CONNECT4.parse_moves("4453") == [3, 3, 4, 2]
    assert CONNECT4.parse_moves(" 4 4 5 3 ") == [3, 3, 4, 2]
    assert CONNECT4.format_moves([3, 3, 4, 2]) == "4453"
    wide = Connect4(rows=6, cols=12)
    assert wide.parse_moves("10 12 1") == [9, 11, 0] and wide.format_moves([9, 11, 0]) == "10 12 1"


def test_mnk_notation_counts_rows_from_the_bottom() -> None:
    assert TIC_TAC_TOE.parse_move("a1") == 6 and TIC_TAC_TOE.parse_move("c3") == 2
    assert TIC_TAC_TOE.parse_moves("b2a1C3") == TIC_TAC_TOE.parse_moves("b2, a1 c3") == [4, 6, 2]
    assert GOMOKU.format_move(0) == "a15" and GOMOKU.parse_move("o1") == 224


@pytest.mark.parametrize(
    "game, text, message",
    [
        (CONNECT4, "4x", r"move 'x' is not a column number: columns are 1 to 7"),
        (CONNECT4, "48", r"move '8' is not a column of Connect-4 6x7 k=4"),
        (CONNECT4, "40", r"move '0' is not a column"),
        (TIC_TAC_TOE, "d1", r"move 'd1' is off the board of m,n,k 3,3,3: columns a to c, rows 1 to 3"),
        (TIC_TAC_TOE, "a4", r"off the board"),
        (TIC_TAC_TOE, "b2 ?", r"is not a sequence of cell names"),
        (TIC_TAC_TOE, "22", r"is not a sequence of cell names"),
    ],
)
def test_bad_notation_raises(game, text: str, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(NotationError, match=message):
        game.position(text)


@given(st.integers(2, MAX_SIDE), st.integers(2, MAX_SIDE), st.data())
def test_every_action_round_trips_through_notation(rows: int, cols: int, data: st.DataObject) -> None:
    for game in (Connect4(rows, cols, 2), MNK(rows, cols, 2)):
        action = data.draw(st.integers(0, game.n_actions - 1))
        assert game.parse_move(game.format_move(action)) == action


def test_columns_past_z_are_named_like_spreadsheet_columns() -> None:
    names = [column_name(c) for c in range(MAX_SIDE)]
    assert names[:3] == ["a", "b", "c"] and names[25:28] == ["z", "aa", "ab"] and names[-1] == "cv"
    assert len(set(names)) == MAX_SIDE and all(column_index(n) == c for c, n in enumerate(names))
    assert all(column_index(n.upper()) == c for c, n in enumerate(names))
    big = MNK(MAX_SIDE, MAX_SIDE, 10)
    assert big.parse_move("cv100") == MAX_SIDE - 1  # top-right corner: row 0 (top), last column
    assert big.parse_move("a1") == (MAX_SIDE - 1) * MAX_SIDE
    assert big.parse_moves("aa10ab11 z3") == [big.parse_move("aa10"), big.parse_move("ab11"), big.parse_move("z3")]
    assert MNK(3, 3, 3).format_move(4) == "b2"  # names on 26 columns or fewer are unchanged
    with pytest.raises(NotationError, match="columns a to ad, rows 1 to 30"):
        MNK(30, 30, 5).parse_move("ae1")
