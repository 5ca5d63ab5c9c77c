"""Perft: published counts, bitboard walk == array walk == brute force."""

from __future__ import annotations

import pytest

from games import CONNECT4, MNK, TIC_TAC_TOE, Connect4, KInARow, perft
from tests.naive import NaiveGame, naive_perft

# Distinct Connect-4 6x7 positions after 1..8 plies: OEIS A212693.
A212693 = [7, 49, 238, 1120, 4263, 16422, 54859, 184275]


@pytest.mark.parametrize("bitboard", [True, False])
def test_connect4_distinct_positions_match_oeis(bitboard: bool) -> None:
    depth = 8 if bitboard else 6  # the array walk is slower; 8 plies run in the CLI test
    rows = perft(CONNECT4, depth, bitboard=bitboard)
    assert [r.positions for r in rows] == A212693[:depth]
    assert [r.sequences for r in rows[:6]] == [7**n for n in range(1, 7)]  # no win before ply 7


def test_tic_tac_toe_games_and_positions() -> None:
    rows = perft(TIC_TAC_TOE, 20)
    assert len(rows) == 9
    assert sum(r.wins + r.draws for r in rows) == 255_168
    assert 1 + sum(r.positions for r in rows) == 5_478
    # The widely published split of the 255,168 games: 131,184 x wins, 77,904 o wins, 46,080 draws.
    assert sum(r.wins for r in rows if r.ply % 2 == 1) == 131_184
    assert sum(r.wins for r in rows if r.ply % 2 == 0) == 77_904
    assert sum(r.draws for r in rows) == 46_080


@pytest.mark.parametrize(
    "game, depth",
    [
        (Connect4(3, 3, 3), 9),  # whole game trees ...
        (Connect4(2, 6, 2), 12),
        (MNK(4, 2, 2), 8),
        (Connect4(4, 4, 3), 6),  # ... and the first plies of larger ones
        (Connect4(5, 4, 4), 6),
        (MNK(3, 4, 3), 4),
        (MNK(2, 4, 3), 6),
    ],
)
def test_perft_matches_brute_force(game: KInARow, depth: int) -> None:
    expected = naive_perft(NaiveGame.of(game), depth)
    assert [(r.sequences, r.positions) for r in perft(game, depth)] == expected


# The exact-k rule (an overline does not win) on shapes where overlines happen within the walk.
EXACT_K_GAMES = [
    (Connect4(3, 3, 2, exact_k=True), 9),
    (Connect4(2, 6, 2, exact_k=True), 12),
    (Connect4(4, 4, 3, exact_k=True), 8),
    (MNK(1, 7, 2, exact_k=True), 7),
    (MNK(3, 3, 2, exact_k=True), 6),
    (MNK(1, 7, 3, exact_k=True), 7),
]


@pytest.mark.parametrize("game, depth", EXACT_K_GAMES, ids=lambda v: str(v))
def test_exact_k_perft_matches_brute_force_and_differs_from_freestyle(game: KInARow, depth: int) -> None:
    counts = [(r.sequences, r.positions, r.wins, r.draws) for r in perft(game, depth)]
    expected = naive_perft(NaiveGame.of(game), depth)
    assert [(s, p) for s, p, _, _ in counts] == expected
    freestyle = type(game)(game.rows, game.cols, game.k)
    assert counts != [(r.sequences, r.positions, r.wins, r.draws) for r in perft(freestyle, depth)]


@pytest.mark.parametrize("game, depth", [(g, d) for g, d in EXACT_K_GAMES if g.uses_bitboard], ids=lambda v: str(v))
def test_exact_k_bitboard_and_array_walks_agree(game: KInARow, depth: int) -> None:
    assert perft(game, depth, bitboard=True) == perft(game, depth, bitboard=False)


@pytest.mark.parametrize("game, depth", [(Connect4(4, 4, 3), 16), (Connect4(3, 5, 3), 15), (Connect4(5, 4, 4), 10)])
def test_bitboard_and_array_walks_agree_on_whole_trees(game: KInARow, depth: int) -> None:
    rows = perft(game, depth, bitboard=True)
    assert rows == perft(game, depth, bitboard=False)
    assert sum(r.wins + r.draws for r in rows) > 0


def test_perft_from_a_position_and_edge_cases() -> None:
    pos = CONNECT4.position("444444")
    rows = perft(pos, 2)
    assert [(r.sequences, r.positions) for r in rows] == [(6, 6), (36, 36)]
    assert perft(CONNECT4, 0) == []
    assert perft(TIC_TAC_TOE.position("a1 b1 a2 b2 a3"), 3) == []  # the game is over
    with pytest.raises(ValueError, match="depth=-1"):
        perft(CONNECT4, -1)
    with pytest.raises(ValueError, match="no 64-bit bitboard"):
        perft(TIC_TAC_TOE, 1, bitboard=True)


# Boards past the old 26-per-side limit: the array walk against brute force on a few large shapes.
@pytest.mark.parametrize("game, depth", [(MNK(2, 40, 3), 2), (MNK(30, 2, 2), 2), (Connect4(100, 3, 4), 4), (Connect4(2, 100, 2), 2)],
                         ids=str)  # fmt: skip
def test_perft_on_large_boards_matches_brute_force(game: KInARow, depth: int) -> None:
    expected = naive_perft(NaiveGame.of(game), depth)
    assert [(r.sequences, r.positions) for r in perft(game, depth)] == expected
