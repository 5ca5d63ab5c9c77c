"""End-to-end runs of ``python -m search.solve``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from games import MNK, Connect4
from search.solve import solve
from search.solve.cli import main as solve_main
from tests.inprocess import run_main
from tests.interrupts import default_sigint

DATA = Path(__file__).parent / "data" / "connect4"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "search.solve", *args], input=stdin, capture_output=True, text=True,
                          timeout=300)  # fmt: skip


def fields(stdout: str) -> list[list[str]]:
    return [line.split() for line in stdout.splitlines() if line and not line.startswith("#")]


def test_benchmark_lines_are_piped_in_as_they_are() -> None:
    lines = [line for name in ("Test_L3_R1", "Test_L2_R1") for line in (DATA / name).read_text().splitlines()[5::40]]
    out = run(stdin="\n".join(lines) + "\n")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    rows = fields(out.stdout)
    assert len(rows) == len(lines) == 50
    for line, row in zip(lines, rows):
        moves, expected = line.split()
        assert len(row) == 4 and row[0] == moves and row[1] == expected, (line, row)
        assert int(row[2]) >= 0 and int(row[3]) >= 0  # nodes, microseconds


def test_weak_mode_prints_the_sign() -> None:
    lines = (DATA / "Test_L2_R1").read_text().splitlines()[:30]
    out = run("--weak", stdin="\n".join(lines))
    assert out.returncode == 0, out.stderr
    expected = [(int(line.split()[1]) > 0) - (int(line.split()[1]) < 0) for line in lines]
    assert [int(row[1]) for row in fields(out.stdout)] == expected
    assert {-1, 0, 1} == set(expected)


def test_other_gravity_sizes() -> None:
    game = Connect4(5, 4, 4)
    positions = ["", "1", "2233", "12341234"]
    out = run("--game", "connect4", "--rows", "5", "--cols", "4", stdin="\n".join(positions[1:]))
    assert out.returncode == 0, out.stderr
    assert [int(row[1]) for row in fields(out.stdout)] == [solve(game.position(p)).score for p in positions[1:]]
    empty = run("--game", "connect4", "--rows", "5", "--cols", "4", "")  # an explicit empty move list
    assert empty.returncode == 0 and int(fields(empty.stdout)[0][1]) == solve(game.position()).score


def test_malformed_lines_are_reported_by_number_and_the_rest_solved() -> None:
    lines = [
        "2252576253462244111563365343671351441 -1",  # 1: fine
        "44583",  # 2: column 8 on a 7-column board
        "44x3 0",  # 3: not a digit
        "",  # 4: blank, skipped
        "4444444",  # 5: the seventh stone in a full column
        "12121213",  # 6: a move after x won with its fourth stone in column 1
        "1212121",  # 7: the game is already over
        "7422341735647741166133573473242566 1",  # 8: fine
    ]
    out = run(stdin="\n".join(lines) + "\n")
    assert out.returncode == 1
    assert [row[:2] for row in fields(out.stdout)] == [["2252576253462244111563365343671351441", "-1"],
                                                       ["7422341735647741166133573473242566", "1"]]  # fmt: skip
    errors = out.stderr.splitlines()
    assert len(errors) == 5 and "Traceback" not in out.stderr, out.stderr
    expected = [("line 2:", "'8' is not a column"), ("line 3:", "'x' is not a column number"),
                ("line 5:", "the column is full"), ("line 6:", "the game is over (won by x)"),
                ("line 7:", "the game is already over (won by x)")]  # fmt: skip
    for error, (where, why) in zip(errors, expected):
        assert error.startswith(where) and why in error, error


def test_mnk_values() -> None:
    draw = run("--game", "mnk", "--rows", "4", "--cols", "4", "--k", "4")
    assert draw.returncode == 0, draw.stderr
    assert fields(draw.stdout)[0][:2] == ["-", "0"]
    assert "m,n,k 4,4,4, from the empty board: draw" in draw.stdout
    win = run("--game", "mnk", "--rows", "4", "--cols", "3", "--k", "3", "--weak")
    assert fields(win.stdout)[0][1] == "1" and "win for x (the first player)" in win.stdout
    # x takes a corner and the centre after o's edge: o must block c3, then x forks with a3.
    given = run("--game", "mnk", "--rows", "3", "--cols", "3", "--k", "3", "a1", "b1", "b2")
    expected = solve(MNK(3, 3, 3).position("a1 b1 b2")).score
    assert given.returncode == 0 and fields(given.stdout)[0][:2] == ["a1,b1,b2", str(expected)]
    assert expected == -((9 + 1 - 6) // 2)  # x's winning stone goes on a board of 6 stones
    assert "after 'a1 b1 b2': win for x (the first player)" in given.stdout


def test_bad_arguments_and_moves(capsys: pytest.CaptureFixture[str]) -> None:
    bad_move = run("--game", "mnk", "--rows", "3", "--cols", "3", "--k", "3", "a1", "a1")
    assert bad_move.returncode == 1 and "the cell is taken" in bad_move.stderr
    cases = [
        (["--game", "mnk", "--rows", "3", "--cols", "3"], "missing: k"),
        (["--game", "mnk", "--rows", "15", "--cols", "15", "--k", "5"], "(rows + 1) * cols <= 32"),
        (["--game", "connect4", "--rows", "8", "--cols", "8"], "(rows + 1) * cols <= 64"),
        (["--tt-size", "10"], "tt_size=10 must be an integer from 512"),
        (["--tt-size", "0"], "tt_size=0 must be an integer from 512"),
        (["--tt-size", "17179869184"], "tt_size=17179869184 asks for 137438953472 bytes (128 GiB) at 8 bytes a slot: "
                                       "tt_size must be an integer from 512 to"),
        (["--game", "chess"], "invalid choice: 'chess'"),
    ]
    for args, message in cases:
        status, _, err = run_main(solve_main, args, capsys)  # refused before reading stdin
        assert status == 2 and message in err and "Traceback" not in err, (args, err)


def test_ctrl_c_ends_with_a_note_and_130() -> None:
    """SIGINT while the solver waits on a stdin that never closes: no traceback, the shell's 130."""
    with subprocess.Popen([sys.executable, "-m", "search.solve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint) as proc:  # fmt: skip
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("2252576253462244111563365343671351441\n")
        proc.stdin.flush()
        assert proc.stdout.readline().startswith("2252576253462244111563365343671351441 -1 ")  # it is reading stdin
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err == "search.solve: interrupted\n", err


def test_ctrl_c_stops_a_long_solve_within_a_second() -> None:
    """SIGINT during a solve of minutes (the empty board but one stone): the kernel stops, the run ends with 130."""
    with subprocess.Popen([sys.executable, "-m", "search.solve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint) as proc:  # fmt: skip
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write("2252576253462244111563365343671351441\n")
            proc.stdin.flush()
            assert proc.stdout.readline().startswith("2252576253462244111563365343671351441 -1 ")  # compiled, reading
            proc.stdin.write("4\n")
            proc.stdin.flush()
            try:
                proc.wait(timeout=1.0)  # solving
            except subprocess.TimeoutExpired:
                pass
            started = time.monotonic()
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=30)
        finally:
            proc.kill()
    assert proc.returncode == 130 and err == "search.solve: interrupted\n", err
    assert time.monotonic() - started < 3.0


def test_a_reader_that_leaves_ends_the_run_quietly() -> None:
    """``python -m search.solve < file | head -1``: no BrokenPipeError traceback, the status of a tool stopped by SIGPIPE."""
    lines = (DATA / "Test_L3_R1").read_text() * 5  # more output than a pipe holds
    with subprocess.Popen([sys.executable, "-m", "search.solve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as proc:  # fmt: skip
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        stdin = proc.stdin

        def feed() -> None:
            try:
                stdin.write(lines)
                stdin.close()
            except BrokenPipeError:  # the solver stopped reading: expected once it has stopped
                pass

        writer = threading.Thread(target=feed)
        writer.start()
        assert proc.stdout.readline().split()[:2] == ["2252576253462244111563365343671351441", "-1"]
        proc.stdout.close()  # what head does after its lines
        err = proc.stderr.read()
        proc.wait(timeout=120)
        writer.join()
    assert proc.returncode == 141 and err == "", err


@pytest.mark.slow  # compiles the solver into an empty cache: about 15 s
def test_no_line_includes_compilation(tmp_path: Path) -> None:
    """With an empty numba cache the kernels compile before the first line is timed, not in its microseconds."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "search.solve"], input="2252576253462244111563365343671351441\n",
                         capture_output=True, text=True, timeout=600, env=env)  # fmt: skip
    assert out.returncode == 0, out.stderr
    moves, score, nodes, microseconds = out.stdout.split()
    assert (moves, score) == ("2252576253462244111563365343671351441", "-1")
    assert int(microseconds) < 100_000  # a few microseconds of search; compiling takes seconds
