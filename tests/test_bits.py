"""Bitboard kernels against the naive reference and the array kernels."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from games import MAX_SIDE, Connect4, _bits, random_playouts
from games._rng import new_state
from games._rules import make_rules
from tests.naive import NaiveGame


@st.composite
def bitboard_shapes(draw: st.DrawFn, max_side: int = 64) -> tuple[int, int, int]:
    """Every (rows, cols, k) whose gravity board fits 64 bits, up to the limit itself.

    The kernels take up to 32 columns (one row); games stop at ``MAX_SIDE``.
    """
    rows = draw(st.integers(1, min(15, max_side)))
    cols = draw(st.integers(2 if rows == 1 else 1, min(max_side, 64 // (rows + 1))))
    return rows, cols, draw(st.integers(2, max(rows, cols)))


@settings(max_examples=600, deadline=None)
@given(bitboard_shapes(), st.data(), st.booleans())
def test_has_run_matches_a_full_board_scan(shape: tuple[int, int, int], data: st.DataObject, exact_k: bool) -> None:
    """Any set of stones (not only reachable ones): the run test equals scanning every line, under both rules."""
    rows, cols, k = shape
    cells = data.draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    grid = [[1 if cells[r * cols + c] else 0 for c in range(cols)] for r in range(rows)]
    ref = NaiveGame(rows, cols, k, True, grid, exact_k=exact_k)
    stones = np.uint64(0)
    for r in range(rows):  # grid row 0 is the top; bitboard row 0 is the bottom
        for c in range(cols):
            if grid[r][c]:
                stones |= np.uint64(1) << np.uint64(c * (rows + 1) + rows - 1 - r)
    assert bool(_bits._has_run(stones, make_rules(rows, cols, k, True, exact_k))) == (ref.winner() is not None)


@settings(max_examples=100, deadline=None)
@given(bitboard_shapes(max_side=MAX_SIDE), st.integers(0, 2**63), st.booleans())
def test_bitboard_playouts_replay_the_array_playouts(shape: tuple[int, int, int], seed: int, exact_k: bool) -> None:
    """Same seed, same game on both representations, under both rules: moves, winners and draws agree."""
    game = Connect4(*shape, exact_k=exact_k)
    assert random_playouts(game, 20, seed, bitboard=True) == random_playouts(game, 20, seed, bitboard=False)


def test_landing_cell_and_masks_on_6x7() -> None:
    mask = np.uint64(0x10604000)  # the worked example 4453
    assert _bits._landing_cell(mask, 6, 3) == np.uint64(1) << np.uint64(23)
    assert _bits._landing_cell(mask, 6, 0) == np.uint64(1)
    assert _bits._bottom_mask(6, 7) == np.uint64(sum(1 << (7 * c) for c in range(7)))
    assert _bits._popcount(_bits._board_mask(6, 7)) == 42
    assert _bits._popcount(_bits._column_mask(6, 6)) == 6 and _bits._top_cell(6, 6) == np.uint64(1) << np.uint64(47)


@given(st.integers(0, 2**64 - 1))
def test_popcount(x: int) -> None:
    assert _bits._popcount(np.uint64(x)) == bin(x).count("1")


def test_rng_is_reproducible_and_in_range() -> None:
    from games._rng import _below

    a, b = new_state(7), new_state(7)
    draws = [_below(a, 7) for _ in range(7000)]
    assert draws == [_below(b, 7) for _ in range(7000)]
    counts = np.bincount(draws, minlength=7)
    assert counts.min() > 850 and counts.max() < 1150  # ~1000 each, well inside 5 sigma
