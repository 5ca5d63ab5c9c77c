"""``python -m scripts.gomoku_match``: balanced openings, colours swapped, Elo with its interval; and games from an opening."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import MNK
from scripts import gomoku_match
from search.gomoku.threats import find_vcf
from tests.inprocess import call_within, run_main
from tests.interrupts import interrupt_when
from tests.test_mnk_tournament import FirstFree
from tuning.tournament import play_timed_game

FAST_A = "alphabeta:heuristic=windows,radius=2,depth=1"
FAST_B = "rules"


def test_a_game_from_an_opening_starts_with_the_side_to_move_and_scores_it() -> None:
    """After a 1-stone opening the second player is to move: ``first`` plays it, and winner 0 means ``first`` won."""
    game = MNK(5, 5, 4)
    opening = (24,)  # the last cell: the first-free players then fill row 0 from the left
    record = play_timed_game(game, FirstFree(), FirstFree(), 5.0, ("p", "q"), start=opening)  # type: ignore[arg-type]
    assert record.moves[:1] == opening and record.moves[1:5] == (0, 1, 2, 3)
    position = game.position()
    for move in record.moves:
        position.play(move)
    winner_colour = position.winner
    assert winner_colour is not None and record.winner == 1 - winner_colour  # p has the second colour: winner 0 is p
    with pytest.raises(ValueError, match="already ends"):
        play_timed_game(game, FirstFree(), FirstFree(), 5.0, ("p", "q"), start=(0, 5, 1, 6, 2, 7, 3))  # type: ignore[arg-type]


def test_openings_are_balanced_distinct_and_seeded() -> None:
    board = gomoku_match.board_type("11,11,5")
    openings = gomoku_match.make_openings(board, 4, 3, seed=5, check_depth=2)
    assert openings == gomoku_match.make_openings(board, 4, 3, seed=5, check_depth=2)
    assert len(set(openings)) == 4 and all(len(o) == 3 for o in openings)
    game = board.game()
    for opening in openings:
        position = game.position()
        for move in opening:
            row, col = divmod(move, game.cols)
            assert abs(row - 5) <= gomoku_match.SPREAD and abs(col - 5) <= gomoku_match.SPREAD
            position.play(move)
        assert not find_vcf(position).win


def test_the_match_swaps_colours_and_reports_elo_with_an_interval(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m"
    code = gomoku_match.main([FAST_A, FAST_B, "--boards", "9,9,5", "9,9,5x", "--openings", "2", "--time-ms", "5000",
                              "--out", str(out)])  # fmt: skip
    assert code == 0
    data = json.loads((tmp_path / "m.json").read_text())
    assert [b["board"] for b in data["boards"]] == ["9,9,5", "9,9,5x"]
    for board in data["boards"]:
        games = board["games"]
        assert len(games) == 4 and len(board["scores"]) == 4
        for i in (0, 2):  # each opening twice: A first, then B first, the same stones in front
            assert (games[i]["first"], games[i + 1]["first"]) == ("A", "B")
            opening = board["openings"][i // 2]
            assert games[i]["moves"][:3] == opening == games[i + 1]["moves"][:3]
        assert board["elo_low"] <= board["elo"] <= board["elo_high"]
        for game, score in zip(games, board["scores"]):
            a_side = 0 if game["first"] == "A" else 1
            assert score == (0.5 if game["winner"] is None else float(game["winner"] == a_side))
    report = (tmp_path / "m.md").read_text()
    assert report == capsys.readouterr().out
    assert "95% CI [" in report and "| **all** | 8 |" in report and "Elo " in report


@pytest.mark.parametrize("args, message", [
    (["--boards", "15,15"], "is not M,N,K or M,N,Kx"),
    (["--boards", "15,15,3"], "need k >= 4"),
    (["--boards", "5,5,4"], "at least 7 rows"),
    (["--time-ms", "0"], "'0' is not a positive finite number"),
    (["--time-ms", "soon"], "'soon' is not a positive finite number"),
    (["--openings", "0"], "'0' is not an integer from 1"),
])  # fmt: skip
def test_bad_arguments_exit_2_naming_the_value(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        gomoku_match.main([FAST_A, FAST_B, *args])
    assert exit_info.value.code == 2 and message in capsys.readouterr().err


def test_an_unknown_agent_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        gomoku_match.main([FAST_A, "alphabeta:heuristic=nonesuch", "--openings", "1"])
    assert exit_info.value.code == 2 and "nonesuch" in capsys.readouterr().err


def test_ctrl_c_ends_with_one_line_and_130_keeping_the_pairs_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    played = play_timed_game
    calls = []

    def interrupted_on_the_third_game(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return played(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(gomoku_match, "play_timed_game", interrupted_on_the_third_game)
    out = tmp_path / "m"
    assert gomoku_match.main([FAST_A, FAST_B, "--boards", "9,9,5", "--openings", "2", "--time-ms", "5000", "--out", str(out)]) == 130
    assert capsys.readouterr().err.splitlines()[-1] == "scripts.gomoku_match: interrupted"
    kept = json.loads((tmp_path / "m.json").read_text())
    assert len(kept["boards"][0]["games"]) == 2  # the first pair, written when it finished


def test_ctrl_c_during_a_timed_search_ends_at_once_keeping_exactly_the_finished_games(tmp_path: Path) -> None:
    """A real SIGINT while A searches (0.9 s a move) in the third game: one line, exit 130, the two finished games
    in both files and no forfeit for the interrupted one (the old clock turned Ctrl-C into a forfeit, played on
    and exited 0)."""
    out = tmp_path / "m"
    args = ["scripts.gomoku_match", "alphabeta:heuristic=windows,radius=2", "rules", "--boards", "9,9,5", "--openings",
            "2", "--time-ms", "1000", "--max-plies", "4", "--out", str(out)]  # one move a game: A's, B's, A's, B's
    ended = interrupt_when(args, line=lambda text: text.startswith("9,9,5: 2 games"), delay=0.3)
    assert ended.returncode == 130 and ended.stdout == "", ended.stderr
    assert ended.stderr.splitlines()[-1] == "scripts.gomoku_match: interrupted" and "Traceback" not in ended.stderr
    games = json.loads((tmp_path / "m.json").read_text())["boards"][0]["games"]
    assert [g["reason"] for g in games] == ["ply cap", "ply cap"]
    assert "Partial: 2 of 4 games so far." in (tmp_path / "m.md").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json", "m.md"]  # no temporary file left


def test_random_stones_that_complete_a_line_are_drawn_again_and_too_few_openings_end_in_an_error(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """20 stones on 7,7,4 (the spread covers the whole board) nearly always make four in a row: the old generator
    waited forever for a legal cell on the finished board; now such draws are dropped, and the match ends in a
    usage error saying why when too few openings are left."""
    board = gomoku_match.board_type("7,7,4")
    with pytest.raises(ValueError, match=r"found only \d+ balanced 20-stone openings of 7,7,4; asked for 2 \(of 1200 "
                                         r"random draws \d+ already completed a line"):  # fmt: skip
        call_within(30, lambda: gomoku_match.make_openings(board, 2, 20, seed=0, check_depth=0))  # no hang
    status, out, err = call_within(30, lambda: run_main(gomoku_match.main, [FAST_A, FAST_B, "--boards", "7,7,4", "--stones",
                                                                             "20", "--openings", "1"], capsys))  # fmt: skip
    assert status == 2 and out == "" and "found only" in err.splitlines()[-1] and "try fewer --stones" in err
    draw, finished = gomoku_match._random_stones, []

    def spy(*args: object) -> object:
        position = draw(*args)  # type: ignore[arg-type]
        finished.append(position is None)
        return position

    monkeypatch.setattr(gomoku_match, "_random_stones", spy)
    openings = gomoku_match.make_openings(gomoku_match.board_type("9,9,5"), 2, 20, seed=0, check_depth=0)
    assert any(finished) and not all(finished)  # this seed draws a finished position among open ones
    for opening in openings:
        assert len(opening) == 20 and not MNK(9, 9, 5).position(list(opening)).is_terminal()


def test_the_specs_are_checked_on_every_board_before_any_game(capsys: pytest.CaptureFixture[str]) -> None:
    """A weight file plays its own board only: on the second board it is refused before the first game."""
    status, out, err = run_main(gomoku_match.main, ["gomoku-gomoku-tuned", FAST_B, "--boards", "15,15,5", "15,15,5x"],
                                capsys)  # fmt: skip
    assert status == 2 and out == ""
    assert "agent spec 'gomoku-gomoku-tuned' on 15,15,5x:" in err.splitlines()[-1] and "15,15,5: " not in err


def test_the_losses_script_finds_the_move_after_which_the_opponent_proves_a_vct(tmp_path: Path,
                                                                                 capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    from scripts import gomoku_losses
    from search.gomoku.threats import find_vct
    from tests.inprocess import run_main
    from tests.test_tss import UNDER_ATTACK

    game = MNK(20, 20, 5)
    lost_at = game.position(UNDER_ATTACK + " n11")  # x's n11 leaves o a VCT of 9 plies (x had none to face before)
    attack = find_vct(lost_at, nodes=100_000)
    assert attack.win and attack.plies == 9
    moves = [*lost_at.moves, *attack.line]
    finished = game.position(moves)
    assert finished.winner == 1  # o made five
    # after the 3-stone opening o moves first: agent B (o) is "first", A plays x and lost
    match = {"boards": [{"board": "20,20,5", "openings": [moves[:3]], "scores": [0.0, 1.0],
                         "games": [{"first": "B", "moves": moves}, {"first": "A", "moves": moves}]}]}  # fmt: skip
    path = tmp_path / "match.json"
    path.write_text(json.dumps(match))
    status, out, _ = run_main(gomoku_losses.main, [str(path), "--nodes", "50000"], capsys)
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 2  # the game A won is not listed
    assert "20,20,5 opening 0 A second" in lines[0] and f"ply 9 n11: the opponent's VCT of 9 plies, {attack.nodes:,} moves" in lines[0]
    assert lines[1].startswith("1 games lost by A; 1 after a move that left the opponent a VCT proved within 50,000 moves")
    status, out, _ = run_main(gomoku_losses.main, [str(path), "--nodes", "50000", "--alternatives"], capsys)
    found = re.search(r"; (\d+) of (\d+) moves near a stone leave none proved$", out.splitlines()[0])
    assert status == 0 and found is not None
    safe, tried = int(found[1]), int(found[2])
    assert tried == len(_naive_near(game, moves[:8])) and 0 < safe < tried  # n11 lost, but x had defences
    assert out.splitlines()[1].endswith("; 0 of them with no move near a stone that leaves none (lost earlier)")


def _naive_near(game: MNK, moves: list[int]) -> list[int]:
    """The empty cells within two rows and two columns of a stone, by looking at every pair."""
    stones = [divmod(m, game.cols) for m in moves]
    return [c for c in range(game.n_cells) if c not in moves
            and any(abs(c // game.cols - r) <= 2 and abs(c % game.cols - q) <= 2 for r, q in stones)]  # fmt: skip


@given(st.integers(0, 2**32 - 1), st.integers(0, 30))
@settings(max_examples=40, deadline=None)
def test_near_moves_are_the_empty_cells_within_two_of_a_stone(seed: int, plies: int) -> None:
    from scripts.gomoku_losses import near_moves

    game = MNK(7, 9, 4)
    rng = np.random.default_rng(seed)
    moves = [int(c) for c in rng.permutation(game.n_cells)[:plies]]
    assert near_moves(game, moves) == (_naive_near(game, moves) if moves else list(range(game.n_cells)))


def test_safe_alternatives_count_the_moves_that_leave_no_proved_vct() -> None:
    from scripts.gomoku_losses import near_moves, safe_alternatives

    game = MNK(15, 15, 5)
    open_four = [game.parse_move(m) for m in "h8 a1 i8 a3 j8 a5 k8 o15".split()]
    tried = len(near_moves(game, open_four[:7]))
    # o to move at ply 7 (its o15 is the move judged): x's open four wins against every o move
    assert safe_alternatives(game, open_four, 7, 10_000, 25) == (0, tried)
    quiet = [game.parse_move(m) for m in "h8 i9 g7".split()]  # three stones: no move lets a side force a win
    assert safe_alternatives(game, quiet, 2, 2_000, 25) == (len(near_moves(game, quiet[:2])),) * 2


@pytest.mark.parametrize("content, message", [("[1, 2]", "is not the JSON of python -m scripts.gomoku_match"),
                                              ("{", "is not the JSON of python -m scripts.gomoku_match"),
                                              (None, "No such file")])  # fmt: skip
def test_the_losses_script_refuses_what_is_not_a_match(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       content: object, message: str) -> None:  # fmt: skip
    from scripts import gomoku_losses
    from tests.inprocess import run_main

    path = tmp_path / "match.json"
    if isinstance(content, str):
        path.write_text(content)
    status, _, err = run_main(gomoku_losses.main, [str(path)], capsys)
    assert status == 2 and message in err and "match.json" in err


def test_the_losses_script_ends_ctrl_c_with_one_line_and_130(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    from scripts import gomoku_losses
    from tests.inprocess import run_main

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    moves = [209, 210, 188, 211, 189, 212, 190, 213, 191, 214]  # 20,20,5: x on row 9 from column 8, o beside it
    match = {"boards": [{"board": "20,20,5", "openings": [moves[:3]], "scores": [0.0], "games": [{"first": "A", "moves": moves}]}]}
    path = tmp_path / "match.json"
    path.write_text(json.dumps(match))
    monkeypatch.setattr(gomoku_losses, "find_vct", interrupted)
    status, out, err = run_main(gomoku_losses.main, [str(path)], capsys)
    assert (status, out, err) == (130, "", "scripts.gomoku_losses: interrupted\n")
