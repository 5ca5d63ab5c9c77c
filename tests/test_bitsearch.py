"""The bitboard search kernel: same values as the array kernel and plain minimax, its masks, its evaluator, the table."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import CONNECT4, MNK, TIC_TAC_TOE, Connect4, KInARow
from games._bits import _from_board, _winning_cells
from games._board import _wins_through
from heuristics import NAMES, Evaluator, get_spec
from heuristics._c4_bits import C_BOARD, _evaluate_bits, _evaluate_columns, constants, lanes_for
from heuristics._c4_bits import fits as c4_fits
from heuristics._c4_features import _evaluate as c4_evaluate
from heuristics._lines import window_table
from search import WIN_SCORE, TranspositionTable, minimax, plies_to_end, search
from search.agents import AlphaBetaAgent
from search.alphabeta._bitsearcher import BitSearcher
from search.alphabeta.engine import _search, _uses_bitboards
from search.budget import Limit
from tests.positions import random_position

# Gravity boards that fit a word: Connect-4, small and odd shapes, a full 64-bit word (7x8), a tall
# thin board where c4_features falls back to the array evaluator (20x3: shifts past 64 bits).
FITTING: list[KInARow] = [Connect4(), Connect4(5, 4, 3), Connect4(4, 5, 4), Connect4(6, 7, 5), Connect4(7, 8, 4),
                          Connect4(3, 9, 3), Connect4(20, 3, 4)]  # fmt: skip
CASES = [(name, game) for name in NAMES for game in FITTING if get_spec(name).refuse(game) is None]


def bitboard(game: KInARow, pos_board: np.ndarray, ply: int) -> tuple[np.uint64, np.uint64]:
    current, mask = _from_board(pos_board, game.rows, game.cols, ply)
    return np.uint64(current), np.uint64(mask)


def test_the_bitboard_kernel_runs_exactly_where_the_board_fits() -> None:
    assert all(_uses_bitboards(game.position()) for game in FITTING)
    assert not _uses_bitboards(Connect4(8, 8, 4).position())  # 9 * 8 = 72 bits
    assert not _uses_bitboards(TIC_TAC_TOE.position())  # no gravity
    with pytest.raises(ValueError, match="does not fit the bitboard kernel"):
        _search(TIC_TAC_TOE.position(), Evaluator("windows", TIC_TAC_TOE), bitboards=True, depth=2)


@pytest.mark.parametrize("name, game", CASES, ids=[f"{n}-{g}" for n, g in CASES])
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), depth=st.integers(1, 4))
def test_bitboards_give_the_array_kernels_value_and_minimax(name: str, game: KInARow, seed: int, depth: int) -> None:
    h = Evaluator(name, game)
    pos = random_position(game, seed, seed % min(game.n_cells - 2, 16))
    expected, _ = minimax(pos, h, depth)
    reachable = min(depth, game.n_cells - pos.ply)
    array = _search(pos, h, bitboards=False, depth=depth)
    assert array.score == expected or (array.depth < reachable and plies_to_end(array.score) is not None)
    for use_tt in (True, False):
        for ordering in (True, False):
            result = _search(pos, h, bitboards=True, depth=depth, use_tt=use_tt, ordering=ordering)
            assert result.depth == reachable or plies_to_end(result.score) is not None
            if result.depth == reachable:
                assert result.score == expected, (use_tt, ordering)
            line = pos.copy()
            for move in result.pv:  # the principal variation is a legal line
                line.play(move)
                if line.is_terminal():
                    break
            assert result.move == result.pv[0] and result.move in pos.legal_moves()


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), depth=st.integers(1, 4))
def test_the_array_kernel_still_searches_gravity_boards_that_do_not_fit(seed: int, depth: int) -> None:
    game = Connect4(8, 8, 4)
    h = Evaluator("square_values", game)
    pos = random_position(game, seed, seed % 20)
    expected, _ = minimax(pos, h, depth)
    result = search(pos, h, depth=depth)
    assert result.score == expected or (result.depth < depth and plies_to_end(result.score) is not None)


WINNING_CELL_GAMES = FITTING + [Connect4(6, 7, 2), Connect4(4, 12, 6), Connect4(exact_k=True), Connect4(6, 7, 3, exact_k=True),
                                Connect4(4, 12, 2, exact_k=True)]  # fmt: skip


@pytest.mark.parametrize("game", WINNING_CELL_GAMES, ids=str)
def test_winning_cells_are_the_empty_cells_that_win(game: KInARow) -> None:
    rng = np.random.default_rng(sum(map(ord, str(game))))
    for _ in range(60):
        pos = random_position(game, int(rng.integers(2**32)))
        board = pos._board.copy()
        current, mask = bitboard(game, board, pos.ply)
        empty = constants(game.rows, game.cols)[C_BOARD] & ~mask  # the sentinels and bits past the board are not squares
        for stones, player in ((current, 1 + pos.to_move), (current ^ mask, 2 - pos.to_move)):
            found = _winning_cells(stones, game.rules) & empty
            expected = set()
            for cell in range(game.n_cells):
                if board[cell] == 0:
                    board[cell] = player
                    if _wins_through(board, game.rules, cell):
                        row, col = divmod(cell, game.cols)
                        expected.add(col * (game.rows + 1) + game.rows - 1 - row)
                    board[cell] = 0
            assert {b for b in range(64) if int(found) >> b & 1} == expected, pos.move_string()


def gravity_fill(game: KInARow, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A random gravity-consistent board (any stone counts, fours allowed)."""
    grid = np.zeros((game.rows, game.cols), dtype=np.int8)
    for col in range(game.cols):
        height = int(rng.integers(0, game.rows + 1))
        grid[game.rows - height :, col] = rng.integers(1, 3, size=height)
    return grid.ravel().copy(), (grid != 0).sum(axis=0).astype(np.int32)


@pytest.mark.parametrize("game", [Connect4(), Connect4(5, 6, 4), Connect4(4, 4, 4), Connect4(7, 8, 4),
                                  Connect4(3, 9, 4), Connect4(12, 4, 4)], ids=str)  # fmt: skip
def test_c4_features_on_bitboards_equals_the_array_evaluator_to_the_bit(game: KInARow) -> None:
    assert c4_fits(game.rows, game.cols)
    rng = np.random.default_rng(game.rows * 100 + game.cols)
    consts = constants(game.rows, game.cols)
    windows = window_table(game.rows, game.cols, 4)
    for trial in range(300):
        if trial % 2:
            pos = random_position(game, int(rng.integers(2**32)))
            board, heights, ply = pos._board, pos._heights, pos.ply
        else:
            board, heights = gravity_fill(game, rng)
            ply = int(rng.integers(0, 2))  # only the side to move matters here
        # Non-integer weights: any other order of the float sums would show in the last bits.
        weights = rng.random(12) * 10.0 ** rng.integers(0, 9, size=12)
        current, mask = bitboard(game, board, ply)
        for me, stones in ((1 + (ply & 1), current), (2 - (ply & 1), current ^ mask)):
            expected = c4_evaluate(board, heights, game.rows, game.cols, 4, True, me, weights, windows)
            assert _evaluate_bits(stones, mask, game.rows, consts, weights) == expected


@pytest.mark.parametrize("game", [Connect4(), Connect4(4, 4, 4), Connect4(7, 8, 4), Connect4(3, 9, 4), Connect4(12, 4, 4),
                                  Connect4(6, 9, 4)], ids=str)  # fmt: skip
def test_c4_features_of_every_column_at_once_equals_one_evaluation_each(game: KInARow) -> None:
    """_evaluate_columns (one lane per column, vectorized) against _evaluate_bits per column, to the bit: both
    sides, full columns, boards of more than LANES columns and boards whose last lanes would shift past 64 bits."""
    rng = np.random.default_rng(game.rows * 7 + game.cols)
    consts = constants(game.rows, game.cols)
    bottom, full = consts[0], consts[1]
    out = np.full(lanes_for(game.cols), np.nan)
    for trial in range(200):
        board, _ = gravity_fill(game, rng)
        current, mask = bitboard(game, board, int(rng.integers(0, 2)))
        weights = tuple(rng.random(12) * 10.0 ** rng.integers(0, 9, size=12))
        playable = (mask + bottom) & full
        for me in (current, current ^ mask):
            _evaluate_columns(me, mask, playable, game.rows, game.cols, consts, weights, out)
            for col in range(game.cols):
                square = playable & np.uint64(((1 << game.rows) - 1) << (col * (game.rows + 1)))
                assert out[col] == _evaluate_bits(me, mask | square, game.rows, consts, weights), (trial, col)


def test_c4_features_does_not_fit_very_tall_boards() -> None:
    assert not c4_fits(20, 3)  # 3 * (rows + 2) shift bits would reach past 64
    assert c4_fits(19, 3) and not c4_fits(8, 8)


@pytest.mark.parametrize("moves, plies", [("445566", 1), ("44556", 2), ("4455", 3), ("3344", 3)])
def test_forced_results_at_the_shortest_distance(moves: str, plies: int) -> None:
    pos = CONNECT4.position(moves)
    for name in ("square_values", "c4_features"):
        h = Evaluator(name, CONNECT4)
        result = search(pos, h, depth=6)
        assert plies_to_end(result.score) == plies, (name, result)
        assert result.score == minimax(pos, h, plies)[0]
        assert (result.score > 0) == (plies % 2 == 1)  # odd: the side to move wins


def test_budgets_and_branching_on_bitboards() -> None:
    for name in ("square_values", "c4_features", "windows"):
        h = Evaluator(name, CONNECT4)
        for budget in (30, 300, 3000):
            result = search(CONNECT4.position("4453"), h, nodes=budget)
            assert result.nodes <= budget and result.depth >= 1
        assert search(CONNECT4.position("51617"), h, depth=5, branching=1).move == 3  # the only block survives q = 1
        assert search(CONNECT4.position("445566"), h, depth=3, branching=1).score == WIN_SCORE - 1
        narrow = search(CONNECT4.position("44"), h, depth=6, branching=2).nodes
        assert narrow < search(CONNECT4.position("44"), h, depth=6).nodes


def test_seeded_ties_on_bitboards_are_reproducible() -> None:
    h = Evaluator("c4_features", CONNECT4)
    pos = CONNECT4.position()
    moves = [search(pos, h, depth=1, rng=np.random.default_rng(seed)).move for seed in range(20)]
    assert moves == [search(pos, h, depth=1, rng=np.random.default_rng(seed)).move for seed in range(20)]


def test_a_table_entry_lives_in_one_buffer_and_a_generation() -> None:
    table = TranspositionTable(100)
    assert table.size == 128 and table.keys.strides == (32,) and table.keys.ctypes.data % 64 == 0
    for field in (table.scores, table.depths, table.flags, table.moves, table.stamps):
        assert field.base is table.keys.base  # views of one buffer
    table.keys[5], table.stamps[5] = 99, table.generation
    table.forget()
    assert table.stamps[5] != table.generation and table.keys[5] == 99  # invalid without being touched
    table.clear()
    assert not table.keys.any()


@pytest.mark.parametrize("game, name", [(TIC_TAC_TOE, "windows"), (CONNECT4, "square_values")], ids=str)
def test_a_cleared_or_forgotten_table_searches_like_a_fresh_one(game: KInARow, name: str) -> None:
    """The empty board's Zobrist key is 0, once also the empty-slot mark: stale entries must never answer."""
    h = Evaluator(name, game)
    fresh = search(game.position(), h, depth=5, tt=TranspositionTable(1 << 10))
    table = TranspositionTable(1 << 10)
    for seed in range(6):  # fill the table with other positions' entries
        search(random_position(game, seed, 3), h, depth=5, tt=table)
    for empty in (table.clear, table.forget):
        empty()
        again = search(game.position(), h, depth=5, tt=table)
        assert (again.score, again.move, again.nodes) == (fresh.score, fresh.move, fresh.nodes)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), case=st.sampled_from(CASES), budget=st.sampled_from(["depth", "nodes", "branching"]),
       moves=st.integers(1, 4))  # fmt: skip
def test_a_kept_bit_searcher_searches_what_search_searches(seed: int, case: tuple[str, KInARow], budget: str,
                                                           moves: int) -> None:  # fmt: skip
    """search.alphabeta._bitsearcher.BitSearcher (an agent's kept set-up, buffers reused dirty, the kernel's entry point called
    directly) returns what a brand-new searcher returns, and search() (which keeps one per evaluator and thread) too,
    bit for bit: move, score, depth, nodes and PV, over several moves of one game with one kept table each and the
    same seeded root noise, for every heuristic and several board shapes."""
    name, game = case
    evaluator = Evaluator(name, game)
    limit = {"depth": Limit(depth=3), "nodes": Limit(nodes=150), "branching": Limit(depth=3, branching=2)}[budget]
    searcher = BitSearcher(game, evaluator)
    kept, fresh, public = TranspositionTable(256), TranspositionTable(256), TranspositionTable(256)
    rng_kept, rng_fresh, rng_public = (np.random.default_rng(seed) for _ in range(3))
    position = random_position(game, seed)
    for _ in range(moves):
        if position.is_terminal():
            break
        got = searcher.search(position, limit, kept, rng_kept)
        expected = BitSearcher(game, evaluator).search(position, limit, fresh, rng_fresh)
        through_search = search(position, evaluator, limit, tt=public, rng=rng_public)
        for result in (expected, through_search):
            assert (got.move, got.score, got.depth, got.nodes, got.pv) == (
                result.move, result.score, result.depth, result.nodes, result.pv), position.move_string()
        position.play(got.move)
    assert rng_kept.random() == rng_fresh.random() == rng_public.random()  # the same draws were made


@pytest.mark.parametrize("use_tt, ordering", [(True, True), (True, False), (False, True), (False, False)])
def test_search_keeps_its_searcher_clean_between_switches(use_tt: bool, ordering: bool) -> None:
    """search() reuses one searcher per evaluator: switching the table or the ordering off and on between calls
    gives what a brand-new searcher gives."""
    evaluator = Evaluator("c4_features", CONNECT4)
    for moves in ("", "4453", "445332"):
        position = CONNECT4.position(moves)
        got = search(position, evaluator, depth=5, use_tt=use_tt, ordering=ordering)
        table = TranspositionTable(1 << 16) if use_tt else TranspositionTable(1)
        expected = BitSearcher(CONNECT4, evaluator).search(position, Limit(depth=5), table, None, use_tt, ordering)
        assert (got.move, got.score, got.nodes, got.pv) == (expected.move, expected.score, expected.nodes, expected.pv)
        search(position, evaluator, depth=3, use_tt=not use_tt, ordering=not ordering, rng=np.random.default_rng(1))


def test_a_bit_searcher_refuses_what_does_not_fit() -> None:
    with pytest.raises(ValueError, match="does not fit the bitboard kernel"):
        BitSearcher(TIC_TAC_TOE, Evaluator("windows", TIC_TAC_TOE))
    with pytest.raises(ValueError, match="does not fit the bitboard kernel"):
        BitSearcher(Connect4(8, 8, 4), Evaluator("windows", Connect4(8, 8, 4)))


def test_copies_of_agents_positions_and_tables_search_with_the_kernels_already_compiled() -> None:
    """A pickled or deep-copied agent (the env's opponents are copies), a position sent to a worker, a one-slot
    table and a search without table take the arguments' types of the first search: numba types an array's
    layout and write flag, so a copy that came back writable or contiguous would compile the search again."""
    from search.alphabeta import _bitnegamax as bn
    from search.alphabeta import _negamax as nm

    agent = AlphaBetaAgent(CONNECT4, depth=3, seed=5)
    position = CONNECT4.position("4453")
    agent.select_move(position)
    on_mnk = MNK(5, 5, 4).position("c3 b2")
    search(on_mnk, Evaluator("windows", on_mnk.game), depth=2)
    compiled = (len(bn._iterate.signatures), len(nm._negamax.signatures))
    for copy_of in (lambda x: pickle.loads(pickle.dumps(x)), copy.deepcopy):
        assert copy_of(agent).select_move(copy_of(position)) == agent.select_move(position)
        search(copy_of(on_mnk), copy_of(Evaluator("windows", on_mnk.game)), depth=2, tt=copy_of(TranspositionTable(64)))
    search(position, agent.evaluator, depth=2, use_tt=False)
    search(on_mnk, Evaluator("windows", on_mnk.game), depth=2, use_tt=False)
    search(position, agent.evaluator, depth=2, tt=TranspositionTable(1))
    assert (len(bn._iterate.signatures), len(nm._negamax.signatures)) == compiled


def test_a_table_pickles_as_one_buffer_with_its_views() -> None:
    table = TranspositionTable(8)
    table.keys[3], table.generation = 7, 5
    clone = pickle.loads(pickle.dumps(table))
    assert (clone.size, clone.generation, int(clone.keys[3])) == (8, 5, 7)
    clone.keys[4] = 9  # the field views are the clone's entries, not copies of their own
    assert int(clone._entries["key"][4]) == 9 and not clone.keys.flags.c_contiguous
    assert TranspositionTable(1).size == 2  # one slot's views would be contiguous: another layout for the kernels


def test_an_agent_pickles_after_its_searches() -> None:
    """The kept searcher holds compiled code (its kernel's entry point): pickling drops it, the copy searches alike."""
    agent = AlphaBetaAgent(CONNECT4, depth=3, seed=5)
    position = CONNECT4.position("4453")
    agent.select_move(position)
    clone = pickle.loads(pickle.dumps(agent))
    position.play(3)
    assert clone.select_move(position) == agent.select_move(position)
    assert clone.last_result is not None and agent.last_result is not None
    assert (clone.last_result.score, clone.last_result.nodes) == (agent.last_result.score, agent.last_result.nodes)
