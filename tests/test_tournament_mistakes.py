"""``python -m scripts.tournament_mistakes``: positions after the opponent's move that left an agent a forced win."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games import make_game
from scripts.tournament_mistakes import agent_label, check_configuration, checked_plies, forced_win, main, outcome
from search.agents import make_agent

# 7,7,5: X (first) builds h-row stones on row 3 while Y plays corners; after Y's third move (ply 6) X has an open
# three with both ends free, so it wins by fours (open four, then five): a VCF of 3 plies.
BLUNDER = [24, 0, 23, 6, 25, 42, 22, 26, 21]
# 4,4,4 played by two exact players (both solve the board): drawn, so no forced win can show after any move.
DRAWN = [13, 7, 9, 6, 8, 12, 2, 15, 3, 0, 4, 1, 5, 14, 10, 11]


def _game(first: str, second: str, moves: list[int], winner: Any, reason: str) -> dict[str, Any]:
    return {"first": first, "second": second, "winner": winner, "reason": reason, "detail": "", "points": [0, 0],
            "moves": moves, "seconds": 0.0, "slowest_ms": [0.0, 0.0]}  # fmt: skip


def _tournament() -> dict[str, Any]:
    return {"agents": ["X", "Y"], "configurations": [
        {"config": "7,7,5", "playable": True, "reason": "", "games": [_game("X", "Y", BLUNDER, 0, "k in a row")]},
        {"config": "4,4,4", "playable": True, "reason": "", "games": [_game("Y", "X", DRAWN, None, "draw"),
                                                                      _game("X", "Y", DRAWN, None, "draw")]},
        {"config": "100,200,5", "playable": False, "reason": "too big", "games": []},
    ]}  # fmt: skip


def test_checked_plies_follow_the_opponents_moves() -> None:
    assert list(checked_plies(BLUNDER, first=True)) == [2, 4, 6, 8]
    assert list(checked_plies(BLUNDER, first=False)) == [1, 3, 5, 7]
    assert list(checked_plies([24], first=False)) == []  # the game ended with the opponent's only move


def test_agent_label_by_letter_or_label_and_a_clear_error() -> None:
    data = _tournament()
    assert agent_label(data, "B") == "Y" and agent_label(data, "a") == "X" and agent_label(data, "Y") == "Y"
    with pytest.raises(ValueError, match=r"no agent 'C'.*A \(X\), B \(Y\)"):
        agent_label(data, "C")


def test_outcome_reads_the_winner_index() -> None:
    game = _game("X", "Y", BLUNDER, 0, "k in a row")
    assert outcome(game, "X") == "won" and outcome(game, "Y") == "lost"
    assert outcome(_game("X", "Y", [], 1, "forfeit: time"), "X") == "lost (forfeit: time)"
    assert outcome(_game("X", "Y", DRAWN, None, "ply cap"), "Y") == "drawn (ply cap)"


def test_forced_win_proves_the_blunder_and_nothing_before_it() -> None:
    game = make_game("mnk", 7, 7, 5)
    assert forced_win(game.position(BLUNDER[:6]), 20_000, 21) == "VCF of 3 plies"
    assert forced_win(game.position(BLUNDER[:4]), 20_000, 21) is None
    assert forced_win(game.position(BLUNDER[:2]), 20_000, 21) is None


def test_forced_win_by_search_where_threat_search_does_not_apply() -> None:
    game = make_game("mnk", 4, 4, 3)  # k = 3: no threat-space search; the agent's search finds the win
    position = game.position([5, 0, 6, 15])  # x has b2 c2 with a2 and d2 free: three in a row next move
    assert forced_win(position, 1000, 21) is None
    assert forced_win(position, 1000, 21, make_agent("alphabeta:depth=3", game, seed=0)) == "search: a win in 1 ply"


def test_check_configuration_reports_the_first_win_per_game_and_checks_shared_positions_once() -> None:
    data = _tournament()
    checked, lines = check_configuration(data["configurations"][0], "X", 20_000, 21)
    assert checked == 3  # plies 2, 4, 6: the first win stops the game's check
    assert lines == ["  game 1 (first, won): a win after ply 6 (a1): VCF of 3 plies"]
    checked, lines = check_configuration(data["configurations"][1], "X", 20_000, 21)
    assert lines == [] and checked == 15  # X second: plies 1, 3, ..., 15; X first: 2, 4, ..., 14
    assert check_configuration(data["configurations"][0], "Y", 20_000, 21)[0] == 4  # Y's chances: plies 1, 3, 5, 7


def test_cli_end_to_end_and_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_tournament()))
    assert main([str(path), "--nodes", "20000"]) == 0
    out = capsys.readouterr().out
    assert "7,7,5: 3 positions checked, a win in 1 game(s)" in out and "4,4,4: 15 positions checked, a win in 0" in out
    assert "2 configuration(s), 18 positions: a forced win for X showed in 1 game(s)" in out
    assert main([str(path), "--agent", "B", "--configs", "4,4,4"]) == 0
    assert "1 configuration(s), 15 positions: a forced win for Y showed in 0 game(s)" in capsys.readouterr().out
    for argv, message in (([str(path), "--agent", "Z"], "no agent 'Z'"),
                          ([str(path), "--configs", "9,9,5"], "9,9,5 not played"),
                          ([str(path), "--think", "alphabeta:depth=-1"], "--think"),
                          ([str(path), "--think", "random"], "reports no search score"),
                          ([str(tmp_path / "missing.json")], "missing.json"),
                          ([str(tmp_path)], str(tmp_path))):  # fmt: skip
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2
        assert message in capsys.readouterr().err
    path.write_text(json.dumps({"configurations": [{"games": []}]}))
    with pytest.raises(SystemExit):
        main([str(path)])
    assert "is not the JSON of python -m scripts.mnk_tournament --out" in capsys.readouterr().err


def test_think_is_checked_on_every_configuration_before_any_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.json"
    data = _tournament()
    data["configurations"].append({"config": "3,3,3", "playable": True, "reason": "", "games": []})
    path.write_text(json.dumps(data))
    with pytest.raises(SystemExit) as exit_info:  # a gomoku engine key: the generic search on k = 3 refuses it
        main([str(path), "--think", "alphabeta:horizon_vct=0"])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert "--think on 3,3,3: horizon_vct set" in captured.err and captured.out == ""
