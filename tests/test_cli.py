"""End-to-end runs of ``python -m games.perft``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from games.perft import main as perft_main
from tests.inprocess import run_main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "games.perft", *args], capture_output=True, text=True, timeout=300)


def table(stdout: str) -> list[list[int]]:
    return [[int(x) for x in line.split()] for line in stdout.splitlines() if line and line[0] != "#" and "ply" not in line]


def test_connect4_depth_8_prints_the_oeis_counts() -> None:
    out = run("connect4", "--depth", "8")
    assert out.returncode == 0, out.stderr
    assert [row[2] for row in table(out.stdout)] == [7, 49, 238, 1120, 4263, 16422, 54859, 184275]


def test_tic_tac_toe_tree_is_exhausted() -> None:
    out = run("mnk", "--rows", "3", "--cols", "3", "--k", "3", "--depth", "9")
    assert out.returncode == 0, out.stderr
    rows = table(out.stdout)
    assert sum(r[3] + r[4] for r in rows) == 255168
    assert "255168 games ended within 9 plies; 5478 distinct positions" in out.stdout
    assert "the game tree is exhausted" in out.stdout


def test_start_position_and_array_walk_agree() -> None:
    a = run("connect4", "--rows", "5", "--cols", "4", "--moves", "2233", "--depth", "5")
    b = run("connect4", "--rows", "5", "--cols", "4", "--moves", "2233", "--depth", "5", "--no-bitboard")
    assert a.returncode == b.returncode == 0
    assert table(a.stdout) == table(b.stdout) and len(table(a.stdout)) == 5


def test_bad_arguments_give_usage_errors_not_tracebacks(capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        (["mnk", "--rows", "0", "--cols", "3", "--k", "3", "--depth", "2"], "rows=0 is out of range"),
        (["mnk", "--rows", "3", "--depth", "2"], "missing: cols, k"),
        (["connect4", "--k", "9", "--depth", "2"], "k=9 is out of range"),
        (["connect4", "--moves", "448", "--depth", "2"], "move '8' is not a column"),
        (["connect4", "--moves", "4444444", "--depth", "2"], "the column is full"),
        (["connect4", "--depth", "-1"], "the depth must be 0 or more"),
        (["chess", "--depth", "1"], "invalid choice: 'chess'"),
        (["connect4", "--depth", "two"], "invalid int value: 'two'"),
    ]
    for args, message in cases:
        status, out, err = run_main(perft_main, args, capsys)
        assert status == 2, (args, out)
        assert message in err and "usage:" in err and "Traceback" not in err, (args, err)


def test_importing_the_command_lines_module_keeps_games_perft_the_function() -> None:
    import importlib

    import games

    assert importlib.import_module("games.perft").main is perft_main
    assert callable(games.perft) and games.perft.__module__ == "games._perft"
