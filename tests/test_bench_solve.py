"""scripts.bench_solve: end-to-end runs on a few positions against a stand-in for Pons' solver."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import numpy as np
import pytest

from games import CONNECT4
from scripts import bench_solve
from search.solve import solve

DATA = Path(__file__).parent / "data" / "connect4"
LIMIT = 3  # the first three lines of each set; Middle-Easy's are wins scored 4 and 8, then a loss

# A stand-in for his c4solver: reads move strings, prints "<moves> <score> <nodes> <microseconds>".  Strong: the
# file's score.  Weak (-w): what his weak solve can answer: the sign for a loss or a draw, and for a win a score
# above 1 (his returns the bound its last probe proved: the exact score when the side to move wins at once, or a
# lower bound such as 6); here the file's exact score.  FLIP turns every weak answer's sign (a wrong reference).
# A position outside the sets (the random ones) gets 1, right or not.
FAKE = """\
import sys
scores = {{}}
for name in ("Test_L3_R1", "Test_L2_R1"):
    for line in open({data!r} + "/" + name):
        if line.strip():
            moves, score = line.split()
            scores[moves] = int(score)
weak = sys.argv[1:] == ["-w"]
for line in sys.stdin:
    moves = line.strip()
    score = scores.get(moves, 1)  # a position outside the sets: a win, right or not
    if weak and score <= 0:
        score = -1 if score < 0 else 0
    if weak and {flip}:
        score = -score if score else 1
    print(moves, score, 7, 3)
"""


def fake_reference(tmp_path: Path, flip: bool = False) -> str:
    """An executable file that answers as his solver does (FAKE above)."""
    path = tmp_path / ("flipped" if flip else "c4solver")
    path.write_text(f"#!{sys.executable}\n" + FAKE.format(data=str(DATA), flip=flip))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_a_reference_answering_weak_wins_with_their_score_is_right(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    middle = [int(line.split()[1]) for line in (DATA / "Test_L2_R1").read_text().splitlines()[:LIMIT]]
    assert middle[:2] == [4, 8]  # wins above 1: the weak answers the old comparison counted wrong
    assert bench_solve.main(["--limit", str(LIMIT), "--reference", fake_reference(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Wrong answers" not in out
    rows = [line.split() for line in out.splitlines() if line.startswith("Test_")]
    assert len(rows) == 4  # two sets, strong and weak
    for row in rows:
        assert row[row.index(str(LIMIT)) + 1] == "100.0%"
        assert row[row.index(str(LIMIT)) + 3] == "7.0"  # the reference's mean nodes, read from its output


def test_a_reference_with_a_wrong_sign_fails_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_solve.main(["--limit", str(LIMIT), "--reference", fake_reference(tmp_path, flip=True)]) == 1
    out = capsys.readouterr().out
    assert f"Wrong answers: 0 of ours, {2 * LIMIT} of the reference's" in out


def test_random_positions_have_the_empty_cells_asked_for_and_no_win_at_once() -> None:
    assert CONNECT4.position("121212").winning_moves() == [0]  # three in column 1, the first player to move
    assert not CONNECT4.position("1212").winning_moves()
    rng = np.random.default_rng(5)
    for empty in (6, 20):
        for moves in bench_solve.random_positions(4, empty, rng):
            position = CONNECT4.position(moves)
            assert CONNECT4.n_cells - position.ply == empty and not position.is_terminal()
            assert not position.winning_moves()


def test_the_random_table_checks_our_signs_against_the_reference(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The stand-in answers 1 (a win) for every position outside the sets: each of ours that is not a win differs."""
    rng = np.random.default_rng(0)  # the script's default seed: the same positions
    positions = [CONNECT4.position(m) for e in bench_solve.RANDOM_EMPTIES for m in bench_solve.random_positions(1, e, rng)]
    not_wins = sum(solve(p, weak=True).score != 1 for p in positions)
    assert 0 < not_wins < len(positions)
    status = bench_solve.main(["--limit", "1", "--random", "1", "--reference", fake_reference(tmp_path)])
    out = capsys.readouterr().out
    assert status == 1 and f"Signs that differ from the reference's: {not_wins}" in out
    table = out[out.index("Weak solve of random positions") :].splitlines()[3:]
    assert [int(line.split()[0]) for line in table[: len(positions)]] == list(bench_solve.RANDOM_EMPTIES)
