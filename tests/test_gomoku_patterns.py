"""The gomoku pattern state: the line classifier against the rules, and incremental equals from scratch."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import MNK
from heuristics._gomoku_lines import FIVE, FOUR, NONE, OPEN_FOUR, OPEN_THREE, THREE, half_width, pattern_table
from heuristics._gomoku_state import _make, _unmake
from search.gomoku import _search as gs
from search.gomoku.engine import ENGINE_WEIGHTS, GomokuEngine
from tests import naive_gomoku as naive

# Every test module that searches with the gomoku engine runs on one worker: on a fresh clone its kernels (a minute
# of compiling) then compile once, not in both workers at the same time.
pytestmark = pytest.mark.xdist_group("gomoku")

GAMES = [MNK(7, 7, 4), MNK(7, 7, 4, exact_k=True), MNK(8, 8, 5, exact_k=True),
         MNK(9, 9, 6, exact_k=True), MNK(10, 10, 7)]  # the last two scanned and memoized, not tabled


def _code(game: MNK, moves: list[int], cell: int, d: int, colour: int) -> int:
    engine = GomokuEngine(game, tt_bits=10)
    engine.sync(game.position(moves))
    return int(engine.st[2][4 * (colour * game.n_cells + cell) + d])


def _row_moves(game: MNK, xs: list[int], os: list[int]) -> list[int]:
    """Moves putting x on columns ``xs`` and o on ``os`` of the middle row (o's extra moves in the corner rows)."""
    row = game.rows // 2
    spare = [c for c in range(game.n_cells) if c // game.cols in (0, game.rows - 1)]
    xs_cells, os_cells = [row * game.cols + c for c in xs], [row * game.cols + c for c in os]
    while len(os_cells) < len(xs_cells):
        os_cells.append(spare.pop(0 if len(os_cells) % 2 else -1))
    moves: list[int] = []
    for i, cell in enumerate(xs_cells):
        moves += [cell] + ([os_cells[i]] if i < len(os_cells) else [])
    return moves + os_cells[len(xs_cells):]


@pytest.mark.parametrize("exact", [False, True])
def test_an_overline_is_a_five_only_in_freestyle(exact: bool) -> None:
    game = MNK(11, 11, 5, exact_k=exact)
    moves = _row_moves(game, [1, 2, 3, 5, 6], [])  # x x x . x x: the gap makes six
    gap = (game.rows // 2) * game.cols + 4
    assert _code(game, moves, gap, 0, 0) == (NONE if exact else FIVE)
    # the same gap with five exactly is a five under both rules
    moves = _row_moves(game, [1, 2, 3, 5], [])
    assert _code(game, moves, gap, 0, 0) == FIVE


def test_fours_and_threes_by_hand() -> None:
    game = MNK(11, 11, 5)
    row = (game.rows // 2) * game.cols
    moves = _row_moves(game, [3, 4, 5], [])  # . . . x x x . . .
    assert _code(game, moves, row + 2, 0, 0) == OPEN_FOUR  # . . x x x x . . : two cells win
    assert _code(game, moves, row + 6, 0, 0) == OPEN_FOUR
    moves = _row_moves(game, [3, 4, 5], [2])  # o x x x . .: closed
    assert _code(game, moves, row + 6, 0, 0) == FOUR
    moves = _row_moves(game, [4, 5], [])  # . . . . x x . . . .
    assert _code(game, moves, row + 6, 0, 0) == OPEN_THREE
    moves = _row_moves(game, [4, 5], [3])  # o x x . . .: a closed three
    assert _code(game, moves, row + 6, 0, 0) == THREE


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_the_pattern_of_every_cell_matches_the_rules(game: MNK) -> None:
    rng = np.random.default_rng(3)
    for _ in range(4):
        cells = rng.permutation(game.n_cells)[: int(rng.integers(6, 18))]
        position = game.position()
        for cell in cells:
            if position.is_terminal():
                break
            position.play(int(cell))
        if position.is_terminal():
            position.undo()
        engine = GomokuEngine(game, tt_bits=10)
        engine.sync(position)
        board = position.board().ravel()
        for cell in np.flatnonzero(board == 0):
            for d in range(4):
                for colour in range(2):
                    got = engine.st[2][4 * (colour * game.n_cells + cell) + d]
                    assert got == naive.pattern(board, game.rows, game.cols, game.k, game.exact_k, int(cell), d, colour + 1), \
                        (position.move_string(), int(cell), d, colour)  # fmt: skip


def test_the_table_equals_the_scan() -> None:
    from heuristics._gomoku_lines import _scan_code

    for k, exact in ((4, False), (4, True), (5, False)):
        table, half = pattern_table(k, exact), half_width(k, exact)
        keys = np.random.default_rng(k).integers(0, table.shape[0], size=3000)
        assert all(table[key] == _scan_code(np.int64(key), half, k, exact) for key in keys)


@pytest.mark.parametrize("k, exact, bits", [(6, True, 16), (7, False, 16), (10, True, 16), (10, True, 3)])
def test_the_memo_equals_the_scan(k: int, exact: bool, bits: int) -> None:
    from heuristics._gomoku_lines import _memo_code, _scan_code, pattern_memo, uses_table

    assert not uses_table(k, exact)
    half = half_width(k, exact)
    memo = pattern_memo(k, exact, bits)
    assert memo.shape[0] == 1 << bits
    rng = np.random.default_rng(k + bits)
    # keys of few stones (a game's), so the codes are varied; each asked twice (a miss, then a hit or a collision)
    digits = rng.choice(4, size=(400, 2 * half), p=[0.6, 0.25, 0.1, 0.05])
    keys = [int(sum(int(d) << (2 * i) for i, d in enumerate(row))) for row in digits]
    for key in keys + keys[::-1]:
        assert _memo_code(np.int64(key), half, k, exact, memo) == _scan_code(np.int64(key), half, k, exact), key
    assert np.count_nonzero(memo) > 0


def test_pattern_memo_sizes() -> None:
    from heuristics._gomoku_lines import MEMO_BITS, pattern_memo

    assert pattern_memo(5, False).shape == (1,)  # tabled: no memo
    assert pattern_memo(6, False).shape == (1,)
    assert pattern_memo(6, True).shape == (1 << MEMO_BITS,)
    assert pattern_memo(10, True, 0).shape == (1,)  # the scan every time
    with pytest.raises(ValueError, match="memo bits"):
        pattern_memo(10, True, 25)


def test_an_engine_without_memo_has_the_same_state() -> None:
    game = MNK(15, 15, 7)
    moves = [112, 113, 97, 127, 82, 98, 67, 52, 128, 83, 142, 96]
    with_memo, without = GomokuEngine(game, tt_bits=10), GomokuEngine(game, tt_bits=10, memo_bits=0)
    with_memo.sync(game.position(moves))
    without.sync(game.position(moves))
    assert _snapshot(with_memo) == _snapshot(without)


def _snapshot(engine: GomokuEngine) -> tuple[object, ...]:
    board, keys, pats, cls, val, idx, meta, sums = engine.st
    n = board.shape[0]
    listed = set(idx[n : n + meta[0]].tolist())
    return (board.tobytes(), keys.tobytes(), pats.tobytes(), cls.tobytes(), idx[:n].tobytes(), meta[1:].tobytes(),
            frozenset(listed), np.round(val, 6).tobytes(), tuple(np.round(sums, 6)))  # fmt: skip


@settings(max_examples=25, deadline=None)
@given(game_index=st.integers(0, len(GAMES) - 1), seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 60))
def test_incremental_state_equals_a_rebuild_after_random_make_and_unmake(game_index: int, seed: int, steps: int) -> None:
    game = GAMES[game_index]
    rng = np.random.default_rng(seed)
    engine = GomokuEngine(game, tt_bits=10)
    played: list[int] = []
    for _ in range(steps):
        if played and (rng.random() < 0.35 or len(played) >= game.n_cells - 1):
            _unmake(engine.st, engine.cfg, played.pop())
        else:
            empty = np.flatnonzero(engine.st[0] == 0)
            cell = int(rng.choice(empty))
            _make(engine.st, engine.cfg, cell, len(played) % 2)
            played.append(cell)
    fresh = GomokuEngine(game, tt_bits=10)
    for ply, cell in enumerate(played):
        _make(fresh.st, fresh.cfg, cell, ply % 2)
    assert _snapshot(engine) == _snapshot(fresh)
    board = engine.st[0]
    empty = board == 0
    n = game.n_cells
    for colour in range(2):  # the totals are the sums over the empty cells
        assert engine.st[7][colour] == pytest.approx(engine.st[4][colour * n : (colour + 1) * n][empty].sum(), abs=1e-6)


def test_the_registered_evaluator_equals_the_engine_sum() -> None:
    from heuristics import Evaluator

    game = MNK(9, 9, 5)
    position = game.position([40, 41, 31, 49, 22, 50, 13])
    engine = GomokuEngine(game, tt_bits=10)
    engine.sync(position)
    me, sums = position.to_move, engine.st[7]  # the engine weighs the side to move's own sum by its initiative
    table = dict(ENGINE_WEIGHTS)  # the engine's default table, not the heuristic's defaults
    assert Evaluator("gomoku", game, table).evaluate(position) == pytest.approx(sums[me] - sums[1 - me], abs=1e-6)
    assert engine.evaluate(position) == pytest.approx(gs.INITIATIVE * sums[me] - sums[1 - me], abs=0.51)
