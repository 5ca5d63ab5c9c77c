"""Label sets: the generation CLI end to end, determinism, the shipped sets against the solver and plain minimax."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games import CONNECT4, TIC_TAC_TOE, make_game
from search.solve import Solver
from tests.naive_solve import naive_score
from tuning.labels import LabelFileError, default_path, load_labels, main
from tuning.openings import canonical_key

ROOT = Path(__file__).resolve().parents[1]
TINY = ["--game", "connect4", "--count", "6", "--seed", "3", "--min-ply", "24", "--quiet"]


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def test_cli_end_to_end_is_deterministic_and_agrees_with_the_solver(tmp_path: Path) -> None:
    # The same command in two folders: the header records it, --out included, so the bytes can be compared.
    first, second = tmp_path / "a" / "x.jsonl.gz", tmp_path / "b" / "x.jsonl.gz"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for out in (first, second):
        out.parent.mkdir()
        done = subprocess.run([sys.executable, "-m", "tuning.labels", *TINY, "--out", out.name], capture_output=True,
                              text=True, timeout=600, cwd=out.parent, env=env)  # fmt: skip
        assert done.returncode == 0, done.stderr
    assert first.read_bytes() == second.read_bytes()  # same seed, same bytes (zero gzip timestamp)
    labels = load_labels(first, CONNECT4)
    assert len(labels.positions) == 6 and labels.header["seed"] == 3 and labels.header["source"]["name"] == "solver"
    assert "--count 6" in labels.header["command"]
    solver = Solver(CONNECT4, tt_size=1 << 16)
    for index, labelled in enumerate(labels.positions):
        position = labels.position(index)
        assert position.ply == labelled.ply >= 24 and not position.is_terminal()
        result = solver.solve(position, moves=True)
        assert labelled.score == result.score and labelled.move_scores == dict(result.move_scores)
        assert labelled.value == _sign(result.score) and labelled.score == max(labelled.move_scores.values())
    assert len({canonical_key(labels.position(i)) for i in range(6)}) == 6


def test_another_seed_gives_other_positions(tmp_path: Path) -> None:
    outs = [tmp_path / f"{seed}.gz" for seed in (3, 4)]
    for seed, out in zip((3, 4), outs):
        args = [*TINY, "--out", str(out)]
        args[args.index("--seed") + 1] = str(seed)
        assert main(args) == 0
    assert [p.moves for p in load_labels(outs[0]).positions] != [p.moves for p in load_labels(outs[1]).positions]


def test_shipped_tic_tac_toe_set_is_every_position_and_matches_plain_minimax() -> None:
    labels = load_labels(game=TIC_TAC_TOE)
    # 765 positions up to symmetry, 138 of them over: every one of the 627 others is labelled once.
    keys = {canonical_key(labels.position(i)) for i in range(len(labels.positions))}
    assert len(keys) == len(labels.positions) == 627
    empty = labels.positions[0]
    assert empty.moves == "" and empty.value == 0 and set(empty.move_scores.values()) == {0}  # a draw, every opening too
    memo: dict[int, int] = {}
    for index, labelled in enumerate(labels.positions):
        position = labels.position(index)
        assert labelled.score == naive_score(position, memo)
        for move, score in labelled.move_scores.items():
            position.play(move)
            win = position.winner is not None
            expected = (9 + 1 - labelled.ply) // 2 if win else (0 if position.is_terminal() else -naive_score(position, memo))
            position.undo()
            assert score == expected, (labelled.moves, move)


def test_shipped_4_4_3_set_is_a_first_player_win_and_matches_plain_minimax() -> None:
    game = make_game("mnk", 4, 4, 3)
    labels = load_labels(game=game)
    assert labels.positions[0].moves == "" and labels.positions[0].value == 1  # (m, n, 3) with m >= 4, n >= 3: a win
    memo: dict[int, int] = {}
    for index in range(0, len(labels.positions), 50):
        if labels.positions[index].ply >= 6:  # plain minimax is quick from six stones on
            assert labels.positions[index].score == naive_score(labels.position(index), memo)


def test_shipped_connect4_set_covers_every_phase_and_spot_checks_against_the_solver() -> None:
    labels = load_labels()
    assert labels.game == CONNECT4 and len(labels.positions) >= 5000
    plies = [p.ply for p in labels.positions]
    assert min(plies) == labels.header["generator"]["min_ply"] and max(plies) >= 38
    for band in range(8, 38, 6):  # every phase of the game is present
        assert sum(band <= ply < band + 6 for ply in plies) >= 50, band
    values = {p.value for p in labels.positions}
    assert values == {-1, 0, 1}
    solver = Solver(CONNECT4, tt_size=1 << 18)
    late = [i for i, p in enumerate(labels.positions) if p.ply >= 16][::400]
    for index in late:
        result = solver.solve(labels.position(index), moves=True)
        assert labels.positions[index].move_scores == dict(result.move_scores)
    assert default_path(CONNECT4).stat().st_size < 4_000_000


@pytest.mark.parametrize(
    "args, message",
    [
        (["--count", "0", "--out", "x.gz"], "--count 0"),
        (["--game", "chess", "--count", "3", "--out", "x.gz"], "chess"),
        (["--count", "3", "--min-ply", "42", "--out", "x.gz"], "--min-ply 42"),
        (["--count", "3", "--out", "/no/such/folder/x.gz"], "does not exist"),
        (["--game", "mnk", "--rows", "9", "--cols", "9", "--k", "5", "--source", "solver", "--count", "3", "--out", "x.gz"],
         "(rows + 1) * cols"),
        (["--game", "tictactoe", "--source", "oracle", "--count", "3", "--out", "x.gz"], "unknown label source 'oracle'"),
        (["--game", "tictactoe", "--out", "x.gz"], "give --count"),
        (["--game", "tictactoe", "--time", "0", "--out", "x.gz"], "--time 0"),
        (["--game", "tictactoe", "--count", "3", "--heldout", "1", "--out", "x.gz"], "--heldout 1"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)  # a refusal that regressed would write x.gz here, not into the checkout
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and err[-1].startswith("python -m tuning.labels: error:")


def test_bad_files_are_refused_with_the_file_named(tmp_path: Path) -> None:
    plain = tmp_path / "plain.gz"
    plain.write_text("not gzip")
    with pytest.raises(LabelFileError, match="plain.gz"):
        load_labels(plain)
    other = tmp_path / "other.gz"
    with gzip.open(other, "wt") as handle:
        handle.write('{"format": "something-else"}\n')
    with pytest.raises(LabelFileError, match="header"):
        load_labels(other)
    with pytest.raises(LabelFileError, match="not m,n,k 3,3,3|for Connect-4"):
        load_labels(default_path(CONNECT4), TIC_TAC_TOE)
    with pytest.raises(LabelFileError, match="no such label file"):
        load_labels(tmp_path / "missing.gz")
