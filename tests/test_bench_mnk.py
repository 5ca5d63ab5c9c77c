"""scripts.bench_mnk: an end-to-end run on a tiny budget, and its usage errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scripts import bench_mnk

ROOT = Path(__file__).resolve().parents[1]


TINY = ["--today", "alphabeta:heuristic=mics,time_ms=30,radius=2,tss_nodes=0",
        "--new", "alphabeta:heuristic=mics,time_ms=30,radius=2,branching=4"]  # fmt: skip


def test_table_rows_with_depths_and_a_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_mnk.main(["--sizes", "7,7,5", "--heuristics", "windows,mics", "--time-ms", "30", *TINY]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("# bench_mnk:")
    assert "speed-up" in lines[1]
    body = [line.split() for line in lines[2:4]]
    assert [(r[0], r[1]) for r in body] == [("7,7,5", "windows"), ("7,7,5", "mics")]
    for row in body:
        assert int(row[2]) >= 1 and int(row[3]) >= 1  # the untimed first iteration always completes
        scratch, incr = float(row[4].replace(",", "")), float(row[5].replace(",", ""))
        assert row[6] == f"{incr / scratch:.1f}x"


def test_agents_table_compares_today_and_new_on_each_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_mnk.main(["--sizes", "7,7,5", "9,9,5", "--heuristics", "none", *TINY]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == f"# agents, one move each: today = {TINY[1]}; new = {TINY[3]}"
    assert lines[2].split() == ["board", "depth", "today", "depth", "new", "threat", "depth", "today", "threat", "depth",
                                "new", "nodes/s", "today", "nodes/s", "new", "move", "ms", "today", "move", "ms", "new"]  # fmt: skip
    body = [line.split() for line in lines[3:-1]]
    assert [r[0] for r in body] == ["7,7,5", "9,9,5"]
    for row in body:
        assert int(row[1]) >= 1 and int(row[2]) >= 1
        assert int(row[3]) >= 0 and int(row[4]) >= 0  # alpha-beta without a threat search in the tree reports none
        assert float(row[5].replace(",", "")) > 0 and float(row[6].replace(",", "")) > 0
        assert 0 < float(row[7]) < 5000 and 0 < float(row[8]) < 5000  # a 30 ms budget, loosely (a loaded machine)
    assert lines[-1].startswith("# load average at the end:")


def test_the_game_table_reports_each_agents_slowest_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_mnk.main(["--sizes", "--game-sizes", "11,11,5", "--game-plies", "6", *TINY]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = lines.index("# slowest move of a self-play game, at most 6 moves, from one stone in the centre")
    assert lines[start + 1].split() == ["board", "agent", "moves", "mean", "ms", "slowest", "ms"]
    body = [line.split() for line in lines[start + 2 : start + 4]]
    assert [(r[0], r[1]) for r in body] == [("11,11,5", TINY[1]), ("11,11,5", TINY[3])]
    for row in body:
        assert row[2] == "6" and 0 < float(row[3]) <= float(row[4]) < 5000


def test_top_q_goes_deeper_than_full_width_on_the_same_node_budget() -> None:
    """The reason for the new agent's q: on 15,15,5 a fixed node budget buys more plies at q = 6 (node counts, not time)."""
    from games import MNK
    from heuristics import Evaluator
    from search import search

    game = MNK(15, 15, 5)
    position = game.position()
    position.play(7 * 15 + 7)
    h = Evaluator("mics", game)
    full = search(position, h, nodes=20_000, radius=2)
    narrow = search(position, h, nodes=20_000, radius=2, branching=6)
    assert narrow.depth >= full.depth + 2


def test_measure_restores_the_switch() -> None:
    import search.alphabeta.engine as engine

    run = bench_mnk.measure((5, 5, 4), "windows", False, 20, 1)
    assert run.depth >= 1 and run.nodes >= 1 and engine.INCREMENTAL is True


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--sizes", "7,7"], "'7,7' is not a board size rows,cols,k"),
        (["--sizes", "7,7,9"], "'7,7,9' is not a playable board"),
        (["--heuristics", "mics,nope"], "unknown heuristic 'nope'"),
        (["--time-ms", "0"], "'0' is not an integer >= 1"),
        (["--radius", "-1"], "'-1' is not an integer >= 0"),
        (["--new", "random"], "'random' must be an alphabeta spec with a time_ms budget"),
        (["--today", "alphabeta:depth=0"], "'alphabeta:depth=0' is not a usable agent spec: depth=0"),
    ],
)
def test_bad_input_exits_2_with_one_line(argv: list[str], message: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "scripts.bench_mnk", *argv], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2
    assert message in done.stderr.splitlines()[-1]
    assert "Traceback" not in done.stderr
