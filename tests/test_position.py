"""Position (play/undo/legal moves/win detection) against the naive reference rules."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import (
    CONNECT4,
    MNK,
    TIC_TAC_TOE,
    Connect4,
    IllegalMoveError,
    KInARow,
    Position,
)
from tests.naive import NaiveGame


@st.composite
def games(draw: st.DrawFn) -> KInARow:
    """Boards of many shapes, with and without gravity, including the 64-bit bitboard limit."""
    rows = draw(st.integers(1, 8))
    cols = draw(st.integers(2 if rows == 1 else 1, 9))
    k = draw(st.integers(2, max(rows, cols)))
    return Connect4(rows, cols, k) if draw(st.booleans()) else MNK(rows, cols, k)


@st.composite
def games_and_choices(draw: st.DrawFn) -> tuple[KInARow, list[int]]:
    """A game and a list of choices, each an index into the legal moves of the moment."""
    game = draw(games())
    choices = draw(st.lists(st.integers(0, 10_000), max_size=game.n_cells))
    return game, choices


def naive_of(game: KInARow) -> NaiveGame:
    return NaiveGame.of(game)


def assert_same(pos: Position, ref: NaiveGame) -> None:
    """The fast position and the reference agree on everything observable."""
    assert pos.board().ravel().tolist() == ref.flat()
    assert pos.legal_moves() == ref.legal_moves()
    assert pos.winner == ref.winner()
    assert pos.is_terminal() == ref.terminal()
    assert pos.is_draw() == (ref.winner() is None and ref.full())
    assert pos.to_move == ref.to_move
    assert pos.moves == ref.moves
    ended = "drawn" if ref.winner() is None else f"won by {'xo'[ref.winner()]}"
    assert pos.outcome() == (ended if ref.terminal() else None)


@settings(max_examples=300, deadline=None)
@given(games_and_choices())
def test_random_games_agree_with_reference(case: tuple[KInARow, list[int]]) -> None:
    game, choices = case
    pos, ref = game.position(), naive_of(game)
    assert_same(pos, ref)
    for choice in choices:
        legal = ref.legal_moves()
        if not legal:
            break
        move = legal[choice % len(legal)]
        pos.play(move)
        ref = ref.played(move)
        assert_same(pos, ref)


@settings(max_examples=150, deadline=None)
@given(games_and_choices())
def test_winning_moves_are_the_moves_the_reference_says_win(case: tuple[KInARow, list[int]]) -> None:
    game, choices = case
    pos, ref = game.position(), naive_of(game)
    for choice in choices[: game.n_cells // 2]:
        legal = ref.legal_moves()
        if not legal:
            break
        pos.play(legal[choice % len(legal)])
        ref = ref.played(legal[choice % len(legal)])
    before = pos.moves
    assert pos.winning_moves() == [a for a in ref.legal_moves() if ref.played(a).winner() is not None]
    assert pos.moves == before  # and the position is left as it was


def test_winning_moves_of_tic_tac_toe() -> None:
    assert TIC_TAC_TOE.position([0, 3, 1, 4]).winning_moves() == [2]  # x has 0 and 1: 2 completes the top row
    assert TIC_TAC_TOE.position([0, 3, 1, 4, 8]).winning_moves() == [5]  # o has 3 and 4


@settings(max_examples=200, deadline=None)
@given(games_and_choices())
def test_undo_restores_exact_previous_state(case: tuple[KInARow, list[int]]) -> None:
    game, choices = case
    pos = game.position()
    snapshots = []
    for choice in choices:
        legal = pos.legal_moves()
        if not legal:
            break
        snapshots.append((pos.board(), pos._heights.copy(), pos.key(), pos.winner, pos.legal_moves()))
        pos.play(legal[choice % len(legal)])
    for board, heights, key, winner, legal in reversed(snapshots):
        pos.undo()
        assert np.array_equal(pos.board(), board)
        assert np.array_equal(pos._heights, heights)
        assert (pos.key(), pos.winner, pos.legal_moves()) == (key, winner, legal)
    assert pos.ply == 0 and pos.key() == 0


@settings(max_examples=200, deadline=None)
@given(games_and_choices())
def test_move_strings_round_trip(case: tuple[KInARow, list[int]]) -> None:
    game, choices = case
    pos = game.position()
    for choice in choices:
        legal = pos.legal_moves()
        if not legal:
            break
        pos.play(legal[choice % len(legal)])
    text = pos.move_string()
    assert game.parse_moves(text) == pos.moves
    rebuilt = game.position(text)
    assert np.array_equal(rebuilt.board(), pos.board()) and rebuilt.key() == pos.key()


def test_key_depends_on_position_not_move_order() -> None:
    a = CONNECT4.position("1234")
    b = CONNECT4.position("3214")
    assert np.array_equal(a.board(), b.board()) and a.key() == b.key()
    assert a.key() != CONNECT4.position("1243").key()


def test_keys_of_all_tic_tac_toe_positions_are_distinct() -> None:
    """5,478 reachable positions, 5,478 different keys: no collision on a whole small game."""
    seen: dict[int, bytes] = {}

    def walk(pos: Position) -> None:
        board = pos.board().tobytes()
        assert seen.setdefault(pos.key(), board) == board
        for move in pos.legal_moves():
            pos.play(move)
            walk(pos)
            pos.undo()

    walk(TIC_TAC_TOE.position())
    assert len(seen) == 5478


def test_scripted_connect4_game_board_after_every_move() -> None:
    """A vertical win in column 4 on a 4x4 board; the board is checked after each move."""
    pos = Connect4(rows=4, cols=4, k=3).position()
    expected_bottom_up = [
        ("3", [". . x .", ". . . ."]),
        ("2", [". o x .", ". . . ."]),
        ("3", [". o x .", ". . x ."]),
        ("2", [". o x .", ". o x ."]),
    ]
    for move, (row0, row1) in expected_bottom_up:
        pos.play(int(move) - 1)
        lines = str(pos).splitlines()
        assert lines[3] == row0 and lines[2] == row1
        assert pos.winner is None
    pos.play(2)
    assert str(pos).splitlines()[1] == ". . x ."
    assert pos.winner == 0 and pos.is_terminal() and pos.legal_moves() == []
    assert str(pos).splitlines()[-1] == "x won"


def test_planes_are_from_the_side_to_move() -> None:
    pos = CONNECT4.position("44")
    planes = pos.planes()
    assert planes.dtype == np.int8 and planes.shape == (2, 6, 7)
    assert planes[0, 5, 3] == 1 and planes[1, 4, 3] == 1  # x to move: x's stone is plane 0
    pos.play(0)
    planes = pos.planes()
    assert planes[1, 5, 3] == 1 and planes[1, 5, 0] == 1 and planes[0, 4, 3] == 1
    assert planes.sum() == 3


def test_copy_is_independent() -> None:
    pos = CONNECT4.position("44")
    twin = pos.copy()
    twin.play(0)
    assert pos.moves == [3, 3] and twin.moves == [3, 3, 0]
    assert pos.board()[5, 0] == 0 and pos.key() != twin.key()


def test_bitboard_worked_example_from_the_docs() -> None:
    current, mask = CONNECT4.position("4453").bitboard()
    assert (mask, current) == (0x10604000, 0x10200000)
    with pytest.raises(ValueError, match="no 64-bit bitboard"):
        Connect4(rows=8, cols=8).position().bitboard()


@pytest.mark.parametrize(
    "game, moves, bad, reason",
    [
        (CONNECT4, "444444", 3, "the column is full"),
        (CONNECT4, "1213141", 4, "the game is over"),
        (CONNECT4, "", 7, "actions are 0 to 6"),
        (CONNECT4, "", -1, "actions are 0 to 6"),
        (CONNECT4, "", 2.0, "not an integer action"),
        (TIC_TAC_TOE, "b2", 4, "the cell is taken"),
        (TIC_TAC_TOE, "a1 b1 a2 b2 a3", 2, "the game is over"),
        (TIC_TAC_TOE, "", 9, "actions are 0 to 8"),
    ],
)
def test_illegal_moves_raise_with_move_and_position(game: KInARow, moves: str, bad: object, reason: str) -> None:
    pos = game.position(moves)
    with pytest.raises(IllegalMoveError, match=reason) as info:
        pos.play(bad)  # type: ignore[arg-type]
    assert repr(pos.move_string()) in str(info.value) and not pos.is_legal(bad)  # type: ignore[arg-type]
    assert pos.moves == game.parse_moves(moves)  # nothing changed


def test_undo_on_empty_board_raises() -> None:
    with pytest.raises(IndexError, match="no move to undo"):
        CONNECT4.position().undo()


def test_numpy_integer_actions_are_accepted() -> None:
    pos = CONNECT4.position()
    pos.play(np.int64(3))
    assert pos.moves == [3] and type(pos.moves[0]) is int


def test_full_board_is_a_draw() -> None:
    pos = Connect4(rows=2, cols=2, k=2).position()
    pos.play(0)
    pos.play(1)
    assert not pos.is_terminal()
    pos.play(1)  # x: (0,0) and (1,1) make a diagonal of 2
    assert pos.winner == 0
    draw = MNK(1, 4, 3).position("a1 b1 c1 d1")
    assert draw.is_draw() and draw.winner is None and draw.result() == 0.5


@pytest.mark.parametrize("game", [MNK(100, 100, 4), MNK(70, 70, 10, exact_k=True), Connect4(100, 100, 3)], ids=str)
def test_random_games_on_boards_up_to_100_per_side_end_where_the_naive_rules_say(game: KInARow) -> None:
    rng = np.random.default_rng(3)
    for _ in range(2):
        pos, moves = game.position(), []
        while not pos.is_terminal() and len(moves) < 400:
            move = int(rng.choice(pos.legal_moves()))
            pos.play(move)
            moves.append(move)
        naive = NaiveGame.of(game)
        for move in moves:
            naive = naive.played(move)
        assert pos.winner == naive.winner() and pos.is_terminal() == naive.terminal()
        assert game.position(pos.move_string()).moves == moves  # the notation replays the game
