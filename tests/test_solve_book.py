"""The Connect-4 opening book (search.solve.book): its reader, the solver and the agents that use it.

The tests that need the book itself (``pip install "alphabeta-gym[book]"``, which the test extra installs) skip
with that reason where it is missing, except in CI (``CI=true``), where a missing book fails them.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import CONNECT4, MNK, Connect4, Position
from search.agents import AgentSpecError, make_agent
from search.solve import PerfectAgent, Solver, solve
from search.solve import book as book_module
from search.solve.book import (
    BOOK_PLY,
    BOOK_POSITIONS,
    SHALLOW_FILE,
    SHALLOW_PLY,
    BookError,
    Connect4Book,
    installed_book,
    load_book,
    read_shallow,
)
from tests.positions import random_position


def _book_or_skip() -> Connect4Book:
    book = installed_book()
    if book is None:
        if os.environ.get("CI") == "true":
            pytest.fail('the opening book is missing in CI: the test extra installs it (pip install "alphabeta-gym[book]")')
        pytest.skip('the opening book is not installed: pip install "alphabeta-gym[book]"')
    return book


@pytest.fixture(scope="module")
def book() -> Connect4Book:
    return _book_or_skip()


def mirror(position: Position) -> Position:
    """The position with every column mirrored (Connect-4 actions are columns)."""
    return position.game.position([position.game.cols - 1 - move for move in position.moves])


def _positions(plies: int, count: int, seed: int) -> list[Position]:
    """``count`` random positions of exactly ``plies`` stones that are not over."""
    found, attempt = [], 0
    while len(found) < count:
        position = random_position(CONNECT4, seed * 1000 + attempt, plies)
        attempt += 1
        if position.ply == plies:
            found.append(position)
    return found


def test_the_codes_are_those_of_the_file_format(book: Connect4Book) -> None:
    """The worked example of the kernels' docstring, and the mirror's code is the mirrored position's code."""
    code, mirrored = book.codes(CONNECT4.position("4453"))
    assert code == 0b0011010110100000 << 16
    assert (mirrored, code) == book.codes(mirror(CONNECT4.position("4453")))
    assert len(book) == BOOK_POSITIONS + read_shallow(SHALLOW_FILE)[0].size
    assert book.plies == (*range(SHALLOW_PLY + 1), BOOK_PLY)


def test_lookups_agree_with_the_solver_at_10_to_12_stones(book: Connect4Book) -> None:
    """Book-backed solves equal the solver's own, searched without the book (about 10 s with the JIT warm)."""
    plain = Solver(CONNECT4, book=False)
    with_book = Solver(CONNECT4, book=book)
    sample = _positions(12, 12, seed=1) + _positions(11, 3, seed=2) + _positions(10, 2, seed=3)
    for position in sample:
        expected = plain.solve(position).score
        plain.reset()
        assert with_book.solve(position).score == expected, position.move_string()
        if position.ply == BOOK_PLY and not position.winning_moves():
            assert book.score(position) == expected
            assert with_book.solve(position).nodes == 1  # one lookup, counted as one node
    assert book.score(_positions(9, 1, seed=4)[0]) is None  # 7 to 11 stones: not held, searched


def test_the_shallow_table_agrees_with_the_solver_over_the_12_ply_book(book: Connect4Book) -> None:
    """Positions of up to 6 stones: the shipped scores equal a search over the 12-ply book alone."""
    deep = Solver(CONNECT4, book=load_book(book.path, shallow=False))
    for position in [CONNECT4.position()] + [random_position(CONNECT4, seed, plies) for seed, plies in
                                            zip(range(8), (1, 2, 3, 4, 5, 6, 6, 6))]:  # fmt: skip
        if not position.winning_moves():
            assert book.score(position) == deep.solve(position).score, position.move_string()


def test_known_values_from_the_empty_board(book: Connect4Book) -> None:
    """The first player wins with its last stone (score 1), only by the centre column; its neighbours draw."""
    result = Solver(CONNECT4, book=book).solve(CONNECT4.position(), moves=True)
    assert result.score == 1 and result.best_moves == (3,)
    assert dict(result.move_scores) == {0: -2, 1: -1, 2: 0, 3: 1, 4: 0, 5: -1, 6: -2}
    assert solve(CONNECT4.position()).score == 1  # solve() uses the installed book


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, BOOK_PLY))
def test_mirror_images_have_the_same_score(seed: int, plies: int) -> None:
    book = _book_or_skip()
    position = random_position(CONNECT4, seed, plies)
    if position.is_terminal():
        return
    flipped = mirror(position)
    assert book.codes(flipped) == tuple(reversed(book.codes(position)))
    assert book.score(flipped) == book.score(position)
    solver = Solver(CONNECT4, tt_size=1 << 16, book=book)
    assert solver.solve(flipped).score == solver.solve(position).score


def test_perfect_play_from_the_empty_board_is_the_known_first_player_win(book: Connect4Book) -> None:
    """Perfect against perfect: the first player wins with its 21st stone, the game's 41st (score 1)."""
    for seed in (0, 1):
        first, second = PerfectAgent(CONNECT4, seed=seed), PerfectAgent(CONNECT4, seed=seed + 10)
        assert first.solver.book is not None
        position = CONNECT4.position()
        while not position.is_terminal():
            agent = first if position.ply % 2 == 0 else second
            position.play(agent.select_move(position))
            assert agent.last_source == "solver"
        assert position.winner == 0 and position.ply == CONNECT4.n_cells - 1, position.move_string()


def test_the_perfect_agent_with_the_book_keeps_the_exact_score(book: Connect4Book) -> None:
    """Against random play, every move of the book-backed agent keeps the position's exact score."""
    perfect, judge = PerfectAgent(CONNECT4, seed=3), Solver(CONNECT4, book=book)
    for seed in range(2):
        position, rng = CONNECT4.position(), np.random.default_rng(seed)
        perfect.reset()
        while not position.is_terminal() and position.ply < 20:
            if position.ply % 2 == seed:
                before = judge.solve(position).score
                move = perfect.select_move(position)
                assert perfect.last_result is not None and perfect.last_result.move_scores == {move: before}
                position.play(move)
                if not position.is_terminal():
                    assert -judge.solve(position).score == before, position.move_string()
            else:
                moves = position.legal_moves()
                position.play(moves[int(rng.integers(len(moves)))])


def test_the_budgeted_perfect_agent_with_the_book_is_exact_near_the_start(book: Connect4Book) -> None:
    agent = make_agent("perfect:time_ms=5000", CONNECT4, seed=0)
    assert isinstance(agent, PerfectAgent)
    assert agent.select_move(CONNECT4.position()) == 3 and agent.last_source == "solver"


def test_an_alphabeta_agent_with_book_1_leaves_the_book_at_12_stones(book: Connect4Book) -> None:
    agent = make_agent("alphabeta:weights=connect4-threats-tuned,nodes=200,book=1", CONNECT4, seed=5)
    opponent = make_agent("random", CONNECT4, seed=6)
    judge = Solver(CONNECT4, book=book)
    position = CONNECT4.position()
    while not position.is_terminal() and position.ply < 16:
        if position.ply % 2 == 0:
            best = judge.solve(position, moves=True)
            move = agent.select_move(position)
            assert agent.last_from_book == (position.ply < BOOK_PLY), position.ply
            if position.ply < BOOK_PLY:
                assert move in best.best_moves, position.move_string()
        else:
            move = opponent.select_move(position)
        position.play(move)
    plain = make_agent("alphabeta:weights=connect4-threats-tuned,nodes=200", CONNECT4, seed=5)
    plain.select_move(CONNECT4.position())
    assert not plain.last_from_book


def test_book_1_is_refused_where_it_cannot_apply() -> None:
    with pytest.raises(BookError, match="for Connect-4 6x7, not Connect-4 5x6 k=4"):
        make_agent("alphabeta:book=1", Connect4(5, 6, 4))
    with pytest.raises(BookError, match="for Connect-4 6x7"):
        make_agent("alphabeta:book=1", MNK(3, 3, 3))
    with pytest.raises(AgentSpecError, match="book=2 must be 0 or 1"):
        make_agent("alphabeta:book=2", CONNECT4)
    with pytest.raises(BookError, match="for Connect-4 6x7; this solver is for"):
        Solver(MNK(3, 3, 3), book=True)
    assert Solver(MNK(3, 3, 3)).book is None  # the default: the book only where it applies


def test_a_missing_book_is_one_line_with_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(book_module, "book_path", lambda: None)
    assert installed_book() is None and Solver(CONNECT4).book is None  # without the book: as before
    for build in (lambda: Solver(CONNECT4, book=True), lambda: make_agent("alphabeta:book=1", CONNECT4)):
        with pytest.raises(BookError) as caught:
            build()
        message = str(caught.value)
        assert "\n" not in message and 'pip install "alphabeta-gym[book]"' in message and "not installed" in message
    missing = Path("/nonexistent/book_12ply_distances.dat")
    with pytest.raises(BookError, match=r"^opening book /nonexistent/book_12ply_distances.dat: cannot read it .*force-"):
        load_book(missing)


def test_a_corrupt_book_is_one_line_naming_the_file(book: Connect4Book, tmp_path: Path) -> None:
    original = book.path.read_bytes()
    cases = {
        "short": (original[:-5], "21004490 bytes, expected 21004495"),
        "unsorted": (original[5:10] + original[:5] + original[10:], "not in order"),
        "value": (original[:4] + bytes([99]) + original[5:], "entry .* has the impossible value 99"),
    }
    for name, (data, problem) in cases.items():
        path = tmp_path / f"{name}.dat"
        path.write_bytes(data)
        with pytest.raises(BookError, match=problem) as caught:
            load_book(path)
        message = str(caught.value)
        assert "\n" not in message and str(path) in message and "pip install --force-reinstall" in message
    bad_table = tmp_path / "shallow.npz"
    bad_table.write_bytes(b"not a table")
    with pytest.raises(BookError, match=f"shallow book table {bad_table}: cannot read it"):
        read_shallow(bad_table)
    shutil.copy(SHALLOW_FILE, tmp_path / "copy.npz")
    assert read_shallow(tmp_path / "copy.npz")[0].size > 10_000


def test_a_pickled_solver_reloads_the_book_rather_than_copying_it(book: Connect4Book) -> None:
    import pickle

    solver = Solver(CONNECT4, tt_size=1 << 16, book=book)
    data = pickle.dumps(solver)
    assert len(data) < 2_000_000  # the table (512 KB) travels, the book (21 MB) does not
    copy = pickle.loads(data)
    assert copy.book is book and copy.solve(CONNECT4.position("444444")).score == solver.solve(CONNECT4.position("444444")).score


def test_the_command_line_answers_early_positions_at_once_with_the_book(book: Connect4Book,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from search.solve.cli import main

    assert main([""]) == 0  # the empty board: a lookup
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == "- 1 1 " + out.split()[3] and "win for x (the first player)" in out and err == ""


def test_without_the_book_the_command_line_warns_about_early_positions(capsys: pytest.CaptureFixture[str],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from search.solve.cli import _run_lines

    solver = Solver(CONNECT4, tt_size=1 << 16, book=False)
    out, err = io.StringIO(), io.StringIO()
    late = "2252576253462244111563365343671351441"
    assert _run_lines(solver, CONNECT4, [[late]], False, out, err) == 0 and err.getvalue() == ""  # a late position: no note
    assert _run_lines(solver, CONNECT4, [["444444111222"], ["444444111222"]], False, out, err) == 0
    note = err.getvalue()
    assert note.count("\n") == 1 and "can take minutes" in note and 'pip install "alphabeta-gym[book]"' in note
