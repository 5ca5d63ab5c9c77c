"""End-to-end runs of ``python -m envs.play`` with moves piped on standard input."""

from __future__ import annotations

import re
import signal
import subprocess
import sys

import pytest

from envs.play import main as play_main
from tests.inprocess import run_main
from tests.interrupts import default_sigint


def play(*args: str, moves: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "envs.play", *args], input=moves, capture_output=True, text=True,
                          timeout=300)  # fmt: skip


def test_tic_tac_toe_bad_moves_are_explained_then_a_legal_game_ends() -> None:
    # b2 twice (the second is taken), a malformed cell, then every cell in turn until the game ends.
    out = play("tictactoe", "--opponent", "rules", "--seed", "3", moves="b2\nb2\nzz\nd1\na1\na2\na3\nb1\nb3\nc1\nc2\nc3\n")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "m,n,k 3,3,3: you play x (first) against rules." in text
    assert re.search(r"not a legal move: move 'b2' in m,n,k 3,3,3 position 'b2 \w\d': the cell is taken", text)
    assert "not a legal move: move 'zz' is not a cell name like 'a1'" in text
    assert "not a legal move: move 'd1' is off the board of m,n,k 3,3,3" in text
    assert text.count("opponent played") >= 3
    assert re.search(r"(You win!|You lose\.|Draw\.)\n$", text)
    assert "Traceback" not in out.stderr


def test_connect4_bad_columns_then_a_whole_game_against_alphabeta() -> None:
    moves = "8\n0\nx\n" + "".join(f"{c}\n" for c in [1, 2, 3, 4, 5, 6, 7] * 7)
    out = play("connect4", "--opponent", "alphabeta:depth=2", "--you", "second", "--seed", "0", moves=moves)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "you play o (second) against alphabeta:depth=2" in text
    assert "not a legal move: move '8' is not a column of Connect-4 6x7 k=4: columns are 1 to 7" in text
    assert "not a legal move: move '0' is not a column of Connect-4 6x7 k=4" in text
    assert "not a legal move: move 'x' is not a column number" in text
    assert re.search(r"(You win!|You lose\.|Draw\.)\n$", text)
    boards = re.findall(r"(?:(?:[.xo] ){6}[.xo]\n){6}1 2 3 4 5 6 7\n", text)
    opponent_moves = text.count("opponent played")
    assert len(boards) >= opponent_moves >= 3  # the board is redrawn after every move pair


def test_quit_end_of_input_and_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    quit_now = play("connect4", "--opponent", "random", moves="q\n")
    assert quit_now.returncode == 0 and "bye" in quit_now.stdout
    ended = play("connect4", "--opponent", "random", moves="4\n")
    assert ended.returncode == 1 and "input ended before the game did" in ended.stderr
    for args, message in [
        (["connect4", "--opponent", "perfekt"], "unknown agent 'perfekt'"),
        (["mnk", "--rows", "3"], "missing: cols, k"),
        (["connect4", "--k", "9"], "k=9 is out of range"),
        (["chess"], "invalid choice: 'chess'"),
        (["connect4", "--seed", "-1"], "--seed -1: a seed must be a non-negative integer"),
        (["connect4", "--opponent", "alphabeta:tt=17179869184"], "tt_size=17179869184 asks for 549755813888 bytes"),
        (["connect4", "--opponent", "alphabeta:tt=0"], "tt_size=0 must be an integer from 1"),
        (["connect4", "--opponent", f"alphabeta:nodes={2**70}"], f"nodes={2**70} must be a positive integer of at most"),
        (["connect4", "--opponent", "alphabeta:depth=2,depth=3"], "key 'depth' is given twice"),
        (["connect4", "--opponent", "alphabeta:f1_four=1e308"], "weights of c4_features too large for Connect-4"),
        (["connect4", "--opponent", "rules:seed=-1"], "seed=-1 is negative"),
    ]:
        status, _, err = run_main(play_main, args, capsys)  # refused before the game reads a move
        assert status == 2 and message in err and "Traceback" not in err, (args, err)


@pytest.mark.parametrize("game_args", [["mnk", "--rows", "4", "--cols", "4", "--k", "3"], ["gomoku"]])
def test_mnk_sizes_from_the_command_line(game_args: list[str]) -> None:
    out = play(*game_args, "--opponent", "random", moves="q\n")
    assert out.returncode == 0 and "your move (cell a1-" in out.stdout


def test_ctrl_c_at_the_prompt_ends_with_a_note_and_130() -> None:
    with subprocess.Popen([sys.executable, "-m", "envs.play", "connect4", "--opponent", "random"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint) as proc:  # fmt: skip
        assert proc.stdout is not None
        seen = ""
        while "your move" not in seen:  # the prompt has no newline: read it character by character
            char = proc.stdout.read(1)
            assert char, "the game ended before its prompt"
            seen += char
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err.strip() == "interrupted", err
