"""Random playouts: determinism, totals, and agreement with the Position facade."""

from __future__ import annotations

import pytest

from games import (
    CONNECT4,
    GOMOKU,
    MNK,
    TIC_TAC_TOE,
    Connect4,
    random_playout,
    random_playouts,
)


@pytest.mark.parametrize("game", [CONNECT4, Connect4(9, 9, 5), TIC_TAC_TOE, GOMOKU, MNK(19, 19, 5)])
def test_playouts_are_deterministic_and_add_up(game) -> None:  # type: ignore[no-untyped-def]
    stats = random_playouts(game, 200, seed=11)
    assert stats == random_playouts(game, 200, seed=11)
    assert stats != random_playouts(game, 200, seed=12)
    assert stats.first_wins + stats.second_wins + stats.draws == stats.games == 200
    shortest_game = 2 * game.k - 1
    assert shortest_game * 200 <= stats.moves <= game.n_cells * 200


def test_random_tic_tac_toe_has_the_known_first_player_edge() -> None:
    """Uniform random play: x wins about 58.5%, o 28.8%, draws 12.7% (exact values from the full tree)."""
    stats = random_playouts(TIC_TAC_TOE, 20_000, seed=3)
    assert abs(stats.first_wins / 20_000 - 0.5849) < 0.015
    assert abs(stats.second_wins / 20_000 - 0.2879) < 0.015
    assert abs(stats.draws / 20_000 - 0.1270) < 0.015


def test_playout_from_a_position_leaves_it_unchanged() -> None:
    pos = CONNECT4.position("4444")
    random_playouts(pos, 10, seed=1)
    assert pos.moves == [3, 3, 3, 3] and pos.winner is None


def test_facade_playout_finishes_the_game() -> None:
    pos = CONNECT4.position("44")
    winner = random_playout(pos, seed=5)
    assert pos.is_terminal() and winner == pos.winner


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: random_playouts(CONNECT4, 0), "n_games=0 must be at least 1"),
        (lambda: random_playouts(TIC_TAC_TOE.position("a1 b1 a2 b2 a3"), 5), "is over"),
        (lambda: random_playouts(GOMOKU, 5, bitboard=True), "no 64-bit bitboard"),
    ],
)
def test_bad_playout_arguments(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("game, empty", [(Connect4(7, 8, 4), 9), (CONNECT4, 6), (TIC_TAC_TOE, 2), (MNK(5, 5, 4), 3)])
def test_an_open_position_has_the_empty_cells_asked_for_and_is_not_over(game, empty) -> None:  # type: ignore[no-untyped-def]
    import numpy as np

    from games.playout import random_open_position

    rng = np.random.default_rng(3)
    found = [p for p in (random_open_position(game, empty, rng) for _ in range(30)) if p is not None]
    assert found  # the walk avoids ending moves, so most draws reach the ply (a plain playout rarely does on 7x8)
    for position in found:
        assert game.n_cells - position.ply == empty and not position.is_terminal()
        assert game.position(position.move_string()).key() == position.key()  # legal all the way
    first, again = (random_open_position(game, empty, np.random.default_rng(5)) for _ in range(2))
    assert (first is None and again is None) or (first and again and first.moves == again.moves)  # seeded


@pytest.mark.parametrize("empty", [0, -1, 43, True])
def test_an_open_position_refuses_an_impossible_count(empty) -> None:  # type: ignore[no-untyped-def]
    import numpy as np

    from games.errors import InvalidValueError
    from games.playout import random_open_position

    with pytest.raises(InvalidValueError, match=f"empty={empty!r}: a position that is not over has 1 to 42"):
        random_open_position(CONNECT4, empty, np.random.default_rng(0))
