"""Threat-space search (search/threats.py over search/_tss.py) against known wins and the slow references of tests/naive_tss.py."""

from __future__ import annotations

import pytest

from games import MNK, Position
from search.threats import ThreatResult, find_vcf, find_vct
from tests import naive_tss as nv
from tests.positions import random_position

FILLERS = [(0, 0), (0, 14), (14, 0), (14, 14), (0, 7), (14, 7), (7, 0), (7, 14)]
"""Far-away cells for the defender's spare stones on 15x15 (they make no line with anything)."""


def position_from(game: MNK, xs: list[tuple[int, int]], os: list[tuple[int, int]]) -> Position:
    """The position with x on ``xs`` and o on ``os`` (row 0 at the top), played alternately from x."""
    assert len(xs) - len(os) in (0, 1)
    pos = game.position()
    for i in range(len(xs) + len(os)):
        r, c = xs[i // 2] if i % 2 == 0 else os[i // 2]
        pos.play(r * game.cols + c)
    assert not pos.is_terminal()
    return pos


def padded(xs: list[tuple[int, int]], os: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``os`` with filler stones added until x is to move."""
    return os + FILLERS[: len(xs) - len(os)]


def flat(pos: Position) -> list[int]:
    return [int(v) for v in pos.board().ravel()]


def assert_forced_vcf(pos: Position, result: ThreatResult, exact: bool = False) -> None:
    """The line is a forced win by the slow reference, every defender reply tried."""
    g = pos.game
    assert result.win and result.plies == len(result.line) and result.move == result.line[0]
    assert nv.line_is_forced_vcf(flat(pos), g.rows, g.cols, g.k, exact, 1 + pos.to_move, list(result.line))
    replay = pos.copy()
    for move in result.line:
        replay.play(move)
    assert replay.winner == pos.to_move


# Known wins on 15x15 freestyle (k = 5), x to move.  Cells are (row, col), row 0 at the top.
DOUBLE_FOUR = ([(7, 3), (7, 4), (7, 5), (4, 6), (5, 6), (6, 6)], [(7, 2), (3, 6)])  # (7,6): two fours, 3 plies
FOUR_THREE = ([(7, 3), (7, 4), (7, 5), (5, 6), (6, 6)], [(7, 2)])  # (7,6): a four and an open three, 5 plies
THREE_FOURS = ([(10, 2), (10, 3), (10, 4), (7, 5), (8, 5), (9, 6), (9, 7)], [(10, 1), (6, 5)])  # fours at (10,5), (9,5), then an open four: 7
DOUBLE_THREE = ([(7, 5), (7, 6), (5, 7), (6, 7)], [])  # no four at all; (7,7) makes two open threes: VCT in 5


@pytest.mark.parametrize(
    "stones, plies, first",
    [(DOUBLE_FOUR, 3, (7, 6)), (FOUR_THREE, 5, (7, 6)), (THREE_FOURS, 7, (10, 5))],
    ids=["double-four", "four-three", "three-fours"],
)
def test_vcf_finds_the_known_shortest_win_on_15x15(stones: tuple, plies: int, first: tuple[int, int]) -> None:
    xs, os = stones
    pos = position_from(MNK(15, 15, 5), xs, padded(xs, os))
    result = find_vcf(pos)
    assert result.plies == plies and result.move == first[0] * 15 + first[1]
    assert_forced_vcf(pos, result)


def test_a_vcf_needs_fours_the_double_three_is_found_by_vct_only() -> None:
    xs, os = DOUBLE_THREE
    game = MNK(15, 15, 5)
    pos = position_from(game, xs, padded(xs, os))
    vcf = find_vcf(pos)
    assert not vcf.win and vcf.complete
    vct = find_vct(pos)
    assert vct.win and vct.plies == 5 and vct.move == 7 * 15 + 7
    # every defence loses within 5 plies: the slow reference, x's first move fixed, then cells next to its stones
    first_then_near = nv.near_moves(15, 15)
    moves = lambda b, me: [vct.move] if b[vct.move] == 0 else first_then_near(b, me)  # noqa: E731
    assert nv.proves(flat(pos), 15, 15, 5, False, 1, 5, moves)
