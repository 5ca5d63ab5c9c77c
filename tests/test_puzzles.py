"""The gomoku puzzle set: every shipped puzzle holds (its winning moves re-proved), the verifier, and ``bench_puzzles``."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from games import MNK
from scripts import bench_puzzles
from search.errors import SearchError
from search.gomoku.puzzles import Puzzle, load_puzzles, puzzles_json, verify, winning_moves, wins_after
from search.gomoku.threats import find_vcf
from tests.inprocess import run_main
from tests.interrupts import interrupt_when

SHIPPED = load_puzzles()
VCT_SAMPLE = 2
"""Recorded moves of each VCT puzzle re-proved here (a VCT proof per defender reply is slow); VCF puzzles: all."""


def test_the_shipped_set_covers_the_boards_and_lengths() -> None:
    boards = Counter((p.game.rows, p.game.cols, p.game.exact_k) for p in SHIPPED)
    assert boards[(15, 15, False)] >= 15 and boards[(15, 15, True)] >= 15 and boards[(20, 20, False)] >= 5
    assert {3, 5, 7, 9} <= {p.plies for p in SHIPPED if p.kind == "vcf"}
    assert any(p.kind == "vct" for p in SHIPPED)
    assert len({p.name for p in SHIPPED}) == len(SHIPPED)
    assert len({(p.game, p.moves) for p in SHIPPED}) == len(SHIPPED)


@pytest.mark.parametrize("puzzle", SHIPPED, ids=[p.name for p in SHIPPED])
def test_every_shipped_puzzle_holds(puzzle: Puzzle) -> None:
    """Open, no five to make, the shortest win of the recorded length, the line ends in a five, the moves re-proved."""
    position = puzzle.position()
    assert not position.is_terminal() and position.winner is None
    sample = None if puzzle.kind == "vcf" else sorted(puzzle.winning)[:VCT_SAMPLE]
    assert verify(puzzle, moves=sample) is None


def test_winning_moves_are_exactly_the_moves_that_keep_the_vcf() -> None:
    """On a small board every move is tried: the set is the four-three's fours, nothing else."""
    game = MNK(9, 9, 5)
    position = game.position("e5 a9 f5 a8 g5 a7 e6 b9 e7 c9")
    winning = winning_moves(position)
    assert sorted(game.format_move(m) for m in winning) == ["c5", "d5", "e3", "e4", "e8", "e9", "h5", "i5"]
    outside = [m for m in position.legal_moves() if m not in winning]
    assert not any(wins_after(position.copy(), m) for m in outside[:10])
    assert position.move_string() == game.position("e5 a9 f5 a8 g5 a7 e6 b9 e7 c9").move_string()  # left as it was


def test_verify_catches_a_wrong_move_a_wrong_length_and_a_won_position() -> None:
    puzzle = next(p for p in SHIPPED if p.kind == "vcf" and p.game.rows == 15)
    position = puzzle.position()
    wrong = next(m for m in position.legal_moves() if m not in puzzle.winning)
    bad_move = Puzzle(puzzle.name, puzzle.game, puzzle.moves, puzzle.plies, puzzle.winning | {wrong}, puzzle.line,
                      puzzle.source)  # fmt: skip
    assert "does not keep" in (verify(bad_move) or "")
    bad_length = Puzzle(puzzle.name, puzzle.game, puzzle.moves, puzzle.plies + 2, puzzle.winning, puzzle.line, puzzle.source)
    assert "plies, not" in (verify(bad_length) or "")
    won = Puzzle(puzzle.name, puzzle.game, puzzle.moves + puzzle.line[:-1], 1, frozenset(puzzle.line[-1:]),
                 puzzle.line[-1:], puzzle.source)  # fmt: skip
    assert verify(won) == "the side to move already has a five to make"


def test_the_file_round_trips_and_bad_files_are_named(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(puzzles_json(SHIPPED[:3], {"seed": 1}))
    assert load_puzzles(path) == SHIPPED[:3]
    path.write_text(json.dumps({"format": "something else", "puzzles": []}))
    with pytest.raises(SearchError, match="not a puzzle file"):
        load_puzzles(path)
    path.write_text(json.dumps({"format": "alphabeta-gym-puzzles", "puzzles": [{"name": "x", "rows": 15}]}))
    with pytest.raises(SearchError, match="malformed puzzle 'x'"):
        load_puzzles(path)
    with pytest.raises(SearchError, match="cannot read puzzles"):
        load_puzzles(tmp_path / "missing.json")


def test_a_finished_position_has_no_winning_moves() -> None:
    game = MNK(9, 9, 5)
    with pytest.raises(SearchError, match="is over"):
        winning_moves(game.position("a1 b1 a2 b2 a3 b3 a4 b4 a5"))
    assert find_vcf(game.position("a1 b1 a2 b2 a3 b3 a4 b4")).plies == 1


def test_bench_puzzles_end_to_end_with_the_baseline_in_the_same_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fast = "alphabeta:heuristic=windows,radius=2,depth=1,tss_nodes=0"
    code = bench_puzzles.main([fast, "--baseline", "alphabeta:heuristic=mics,radius=2,depth=1", "--time-ms", "3000",
                               "--limit", "3", "--out", str(tmp_path / "b")])  # fmt: skip
    assert code == 0
    data = json.loads((tmp_path / "b.json").read_text())
    assert list(data["agents"]) == [fast, "alphabeta:heuristic=mics,radius=2,depth=1"]
    for attempts in data["agents"].values():
        assert [a["puzzle"] for a in attempts] == [p.name for p in SHIPPED[:3]]
        for attempt, puzzle in zip(attempts, SHIPPED[:3]):
            move = puzzle.game.parse_move(attempt["move"])
            assert attempt["solved"] == (move in puzzle.winning and attempt["seconds"] <= 3.0)
    report = capsys.readouterr().out
    assert report == (tmp_path / "b.md").read_text() and "(baseline)" in report and "vs baseline" in report


@pytest.mark.parametrize("args, message", [
    (["--time-ms", "-1"], "'-1' is not a positive finite number"),
    (["--limit", "0"], "'0' is not an integer >= 1"),
    (["--puzzles", "/nonexistent/p.json"], "cannot read puzzles"),
    (["alphabeta:heuristic=nonesuch"], "nonesuch"),
])  # fmt: skip
def test_bench_puzzles_bad_arguments_exit_2(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench_puzzles.main(args)
    assert exit_info.value.code == 2 and message in capsys.readouterr().err


def test_make_puzzles_ctrl_c_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    from scripts import make_puzzles

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(make_puzzles, "_first_win", interrupted)
    out = tmp_path / "p.json"
    assert make_puzzles.main(["--out", str(out)]) == 130
    assert capsys.readouterr().err.strip() == "scripts.make_puzzles: interrupted" and not out.exists()


def test_make_puzzles_is_reproducible_on_a_tiny_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same seed gives the same file; every puzzle it writes holds."""
    from scripts import make_puzzles

    monkeypatch.setattr(make_puzzles, "BOARDS", ((15, 15, 5, False, 1),))
    argv = ["--seed", "3", "--per-length", "1", "--vct-per-length", "0", "--max-games", "3"]
    assert make_puzzles.main([*argv, "--out", str(tmp_path / "a.json")]) == 0
    assert make_puzzles.main([*argv, "--out", str(tmp_path / "b.json")]) == 0
    assert (tmp_path / "a.json").read_text() == (tmp_path / "b.json").read_text()
    made = load_puzzles(tmp_path / "a.json")
    assert len(made) >= 1 and all(verify(p) is None for p in made)


def _puzzle_file(path: Path, puzzles: list[object]) -> Path:
    path.write_text(json.dumps({"format": "alphabeta-gym-puzzles", "version": 1, "puzzles": puzzles}))
    return path


def _shipped_with(**changes: object) -> dict[str, object]:
    """The first shipped puzzle's JSON with ``changes`` (None: the field removed)."""
    data = SHIPPED[0].to_json()
    for key, value in changes.items():
        if value is None:
            data.pop(key)
        else:
            data[key] = value
    return data


_FIRST = SHIPPED[0].to_json()
# (the puzzles list, or the whole file's text; what the error says): each ended in a traceback or was accepted before
MALFORMED_PUZZLES: list[tuple[object, str]] = [
    ('{"format": "alphabeta-gym-puzzles", "puzzles": ' + "[" * 100_000 + "]" * 100_000 + "}", "JSON nested too deeply"),
    ('{"format": "alphabeta-gym-puzzles", "format": "x", "puzzles": []}', "key 'format' appears twice"),
    ([["h8", "i9"]], "puzzle 1: a puzzle is a JSON object with the fields name, rows"),  # AttributeError before
    ([_FIRST, "h8"], "puzzle 2: a puzzle is a JSON object"),
    ([_shipped_with(moves=_FIRST["moves"] + " h8")], "malformed puzzle '15x15-free-vcf-001': field 'moves': move 'h8'"),  # IllegalMoveError
    ([_shipped_with(moves=" ".join(SHIPPED[0].game.format_moves(SHIPPED[0].moves + SHIPPED[0].line).split()))],
     "field 'moves': the position is already over (won)"),  # the attacker's five on the board: the agents raised on it
    ([_shipped_with(rows="15")], "field 'rows' is '15', not a JSON integer"),
    ([_shipped_with(rows=True)], "field 'rows' is true, not a JSON integer"),
    ([_shipped_with(exact_k=0)], "field 'exact_k' is 0, not a JSON true or false"),
    ([_shipped_with(moves=[112, 113])], "field 'moves' is a list, not a JSON string"),
    ([_shipped_with(plies=None)], "field 'plies' is missing"),
    ([_shipped_with(plies=0)], "field 'plies' is 0, not a positive number of plies"),
    ([_shipped_with(rows=0)], "rows=0"),
    ([_shipped_with(kind="vcx")], "field 'kind' is 'vcx', not one of vcf, vct"),
    ([_shipped_with(winning="")], "field 'winning' must name one or more empty cells"),
    ([_shipped_with(winning="h8")], "field 'winning' must name one or more empty cells"),  # h8 holds a stone
    ([_shipped_with(line="h8")], "field 'line': move 'h8' in m,n,k 15,15,5 position 'h8 k6"),
    ([_shipped_with(moves="h8 zz99")], "field 'moves': "),
]  # fmt: skip


@pytest.mark.parametrize("content, message", MALFORMED_PUZZLES, ids=[str(i) for i in range(len(MALFORMED_PUZZLES))])
def test_a_malformed_puzzle_file_is_one_line_naming_the_puzzle_and_field(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                         content: object, message: str) -> None:  # fmt: skip
    path = tmp_path / "p.json"
    if isinstance(content, str):
        path.write_text(content)
    else:
        _puzzle_file(path, content)  # type: ignore[arg-type]
    with pytest.raises(SearchError) as raised:
        load_puzzles(path)
    assert str(raised.value).startswith(f"{path}: ") and message in str(raised.value) and "\n" not in str(raised.value)
    status, out, err = run_main(bench_puzzles.main, ["--puzzles", str(path)], capsys)
    assert status == 2 and out == "" and err.splitlines()[-1] == f"python -m scripts.bench_puzzles: error: argument --puzzles: {raised.value}"


def _no_work(*args: object) -> None:
    raise AssertionError("the benchmark started before its arguments were checked")


@pytest.mark.parametrize("folder", ["b.md", "b.json"])
def test_bench_puzzles_checks_both_output_files_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                monkeypatch: pytest.MonkeyPatch, folder: str) -> None:  # fmt: skip
    """Only ``--out`` itself was checked: a folder at ``<out>.md`` or ``<out>.json`` lost the results at the end."""
    (tmp_path / folder).mkdir()
    monkeypatch.setattr(bench_puzzles, "solve_all", _no_work)
    status, out, err = run_main(bench_puzzles.main, ["--limit", "1", "--out", str(tmp_path / "b")], capsys)
    assert status == 2 and out == "" and err.splitlines()[-1].endswith(f"argument --out: '{tmp_path / folder}' is a folder")


def test_bench_puzzles_checks_every_spec_on_every_board_before_any_work(capsys: pytest.CaptureFixture[str],
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A weight file of 15,15,5 was checked on the first puzzle's board only, and crashed at the first exact-k
    puzzle with nothing written; now it is refused before any work, and ``--boards`` keeps its board's puzzles."""
    monkeypatch.setattr(bench_puzzles, "solve_all", _no_work)
    status, out, err = run_main(bench_puzzles.main, ["gomoku-gomoku-tuned"], capsys)
    last = err.splitlines()[-1]
    assert status == 2 and out == "" and "agent spec 'gomoku-gomoku-tuned' cannot play the puzzles of 15,15,5x:" in last
    assert "the puzzles' boards: 15,15,5 15,15,5x 20,20,5; --boards keeps some of them" in last
    played: dict[str, list[Puzzle]] = {}

    def solve(spec: str, puzzles: list[Puzzle], limit_s: float) -> list[bench_puzzles.Attempt]:
        played[spec] = puzzles
        return [bench_puzzles.Attempt(p.name, p.kind, p.plies, "a1", False, 0.5) for p in puzzles]

    monkeypatch.setattr(bench_puzzles, "solve_all", solve)
    status, out, err = run_main(bench_puzzles.main, ["gomoku-gomoku-tuned", "--boards", "15,15,5"], capsys)
    free = [p for p in SHIPPED if (p.game.rows, p.game.exact_k) == (15, False)]
    assert status == 0 and played == {"gomoku-gomoku-tuned": free, bench_puzzles.BASELINE: free}
    assert f"| `gomoku-gomoku-tuned` | 0/{len(free)} = 0.0%" in out


def test_bench_puzzles_ctrl_c_during_a_timed_search_is_one_line_and_130_writing_nothing(tmp_path: Path) -> None:
    """A real SIGINT while the baseline searches (2.7 s a move, its warm-up first): one line, exit 130, no file."""
    args = ["scripts.bench_puzzles", "alphabeta:heuristic=windows,radius=2,depth=1,tss_nodes=0", "--baseline",
            "alphabeta:heuristic=windows,radius=2,tss_nodes=0", "--time-ms", "3000", "--limit", "1", "--out",
            str(tmp_path / "b")]  # fmt: skip
    ended = interrupt_when(args, line=lambda text: text.startswith("alphabeta:heuristic=windows,radius=2,depth=1"), delay=1.0)
    assert ended.returncode == 130 and ended.stdout == "", ended.stderr
    assert ended.stderr.splitlines()[-1] == "scripts.bench_puzzles: interrupted" and "Traceback" not in ended.stderr
    assert list(tmp_path.iterdir()) == []
