"""``python -m scripts.tournament_mistakes``: positions after the opponent's move that left an agent a forced win."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import make_game
from heuristics import files
from scripts.tournament_mistakes import (
    agent_label,
    check_configuration,
    check_tournament,
    checked_plies,
    forced_win,
    main,
    outcome,
)
from search.agents import make_agent
from tests.inprocess import call_within, run_main
from tests.interrupts import interrupt_when

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


def _with(change: Any) -> dict[str, Any]:
    """The test tournament after ``change(data)`` (which edits it in place)."""
    data = _tournament()
    change(data)
    return data


def _first_game(data: dict[str, Any]) -> dict[str, Any]:
    return data["configurations"][0]["games"][0]  # type: ignore[no-any-return]


# (file text or JSON value, what the one-line error says): each of these ended in a traceback before.
MALFORMED: list[tuple[Any, str]] = [
    ("[" * 100_000 + "]" * 100_000, "JSON nested too deeply to read"),  # RecursionError
    ('{"agents": ["X", "Y"], "agents": ["Z"], "configurations": []}', "key 'agents' appears twice"),
    ([1, 2], "the document is a list, not an object"),
    (_with(lambda d: d.pop("agents")), "agents is missing"),
    (_with(lambda d: d.update(agents="XY")), "agents is 'XY', not a list"),
    (_with(lambda d: d.update(agents=["X"])), "two or more distinct agent labels"),
    (_with(lambda d: d.update(configurations={"7,7,5": []})), "configurations is an object, not a list"),  # TypeError
    (_with(lambda d: d["configurations"].append([])), "configurations[3] is a list, not an object"),  # TypeError
    (_with(lambda d: d["configurations"][0].update(config=775)), "configurations[0].config is 775, not a string"),  # AttributeError
    (_with(lambda d: d["configurations"][0].update(config="0,0,0")), "configurations[0].config: rows=0"),  # InvalidGameError
    (_with(lambda d: d["configurations"][0].update(config="7,7")), "configurations[0].config: '7,7' is not M,N,K"),
    (_with(lambda d: d["configurations"][0].update(config="9" * 5000 + ",7,5")), "is not M,N,K"),  # int() digit limit
    (_with(lambda d: d["configurations"][0].update(playable="yes")), "configurations[0].playable is 'yes', not true or false"),
    (_with(lambda d: d["configurations"][0].pop("games")), "configurations[0].games is missing"),  # KeyError
    (_with(lambda d: d["configurations"][0].update(games=[None])), "configurations[0].games[0] is null, not an object"),
    (_with(lambda d: _first_game(d).pop("first")), "configurations[0].games[0].first is missing"),  # KeyError
    (_with(lambda d: _first_game(d).update(second="Z")), "'first' and 'second' must be two of the agents X, Y"),
    (_with(lambda d: _first_game(d).update(winner="X")), "configurations[0].games[0].winner is 'X', not 0"),
    (_with(lambda d: _first_game(d).update(winner=True)), "configurations[0].games[0].winner is true, not 0"),
    (_with(lambda d: _first_game(d).pop("reason")), "configurations[0].games[0].reason is missing"),
    (_with(lambda d: _first_game(d).update(moves="e4 d4")), "configurations[0].games[0].moves is 'e4 d4', not a list"),
    (_with(lambda d: _first_game(d).update(moves=[24, 0, 24])), "games[0].moves: move 'd4' in m,n,k 7,7,5 position 'd4 "
                                                                 "a7': the cell is taken"),  # IllegalMoveError
    (_with(lambda d: _first_game(d).update(moves=[24, 49])), "games[0].moves: move 49 in m,n,k 7,7,5 position 'd4': actions are 0 to 48"),
    (_with(lambda d: _first_game(d).update(moves=[24, "a1"])), "games[0].moves: move 'a1' is not an integer action"),
    (_with(lambda d: _first_game(d).update(moves=[*BLUNDER, 1])), "the game is over"),  # a move after the five
]  # fmt: skip


@pytest.mark.parametrize("content, message", MALFORMED, ids=[str(i) for i in range(len(MALFORMED))])
def test_a_malformed_tournament_is_one_line_and_exit_2_naming_the_field(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                         content: Any, message: str) -> None:  # fmt: skip
    path = tmp_path / "t.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    status, out, err = run_main(main, [str(path)], capsys)
    assert status == 2 and out == "" and "Traceback" not in err
    last = err.splitlines()[-1]
    assert last.startswith(f"python -m scripts.tournament_mistakes: error: '{path}'") and message in last, last


FIELDS = ["agents", "configurations", "config", "playable", "games", "first", "second", "winner", "reason", "moves"]
JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(["X", "Y", "7,7,5", "a1", "draw"]),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(FIELDS), inner, max_size=4),
                           max_leaves=12)  # fmt: skip


@given(st.sampled_from(FIELDS), JSON_VALUES, st.integers(0, 2))
@settings(max_examples=200, deadline=None)
def test_any_field_replaced_by_any_json_is_refused_with_a_message_or_usable(field: str, value: Any, level: int) -> None:
    """Whatever a field holds, the check raises ValueError (shown as the one-line error) or accepts a tournament
    the script can replay: every game's outcome reads, and every position it checks is open (a threat search
    of a finished one would raise); it never lets another exception (a traceback) through."""
    data = _tournament()
    holders = [data, data["configurations"][1], data["configurations"][1]["games"][1]]
    target = next((h for h in holders[level:] if field in h), holders[level])
    target[field] = value
    try:
        check_tournament(data)
    except ValueError as error:
        assert str(error) and "\n" not in str(error)
        return
    label = agent_label(data, "A")
    for entry in data["configurations"]:
        if not entry.get("playable", True):
            continue
        game = make_game("mnk", *map(int, entry["config"].split(",")))
        for record in entry["games"]:
            assert outcome(record, label) in ("won", "lost", "drawn") or "(" in outcome(record, label)
            for ply in checked_plies(record["moves"], record["first"] == label):
                assert not game.position(record["moves"][:ply]).is_terminal()


@pytest.mark.parametrize("args, message", [
    (["--agent", "\u00df"], "--agent: no agent '\u00df' in the tournament: its agents are A (X), B (Y)"),  # TypeError before
    (["--agent", "\u0130"], "--agent: no agent '\u0130'"),
    (["--nodes", str(10**30)], f"argument --nodes: '{10**30}' is not an integer from 1 to {2**63 - 1}"),
    (["--depth", str(10**30)], f"argument --depth: '{10**30}' is not an integer from 1 to {2**63 - 1}"),
    (["--nodes", "0"], "argument --nodes: '0' is not an integer from 1"),
])  # fmt: skip
def test_bad_options_are_refused_before_the_header(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                                   message: str) -> None:  # fmt: skip
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_tournament()))
    status, out, err = run_main(main, [str(path), *args], capsys)
    assert status == 2 and out == "" and message in err.splitlines()[-1], err


@pytest.mark.parametrize("kind", ["/dev/zero", "fifo", "folder", "over the cap"])
def test_only_a_regular_file_within_the_cap_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch, kind: str) -> None:  # fmt: skip
    """``/dev/zero`` was read until memory ran out, a FIFO blocked forever: both are refused before any read."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_tournament()))
    expected = {"/dev/zero": "a character device, not a regular file", "fifo": "a named pipe (FIFO), not a regular file",
                "folder": "a folder, not a regular file", "over the cap": "is too large: only a regular file of at most 100 bytes"}
    if kind == "/dev/zero":
        path = Path("/dev/zero")
    elif kind == "fifo":
        path = tmp_path / "fifo.json"
        os.mkfifo(path)
    elif kind == "folder":
        path = tmp_path
    else:
        monkeypatch.setattr(files, "MAX_INPUT_BYTES", 100)  # a small cap, not a huge file
    unblock = (lambda: os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))) if kind == "fifo" else None
    status, out, err = call_within(30, lambda: run_main(main, [str(path)], capsys), unblock)
    assert status == 2 and out == "" and f"error: {path}: " in err and expected[kind] in err.splitlines()[-1], err


def test_ctrl_c_during_a_timed_search_is_one_line_and_130(tmp_path: Path) -> None:
    """A real SIGINT while ``--think`` searches a position for 5 s (the old clock made it a SystemError traceback)."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_tournament()))
    ended = interrupt_when(["scripts.tournament_mistakes", str(path), "--think", "alphabeta:time_ms=5000", "--configs",
                            "7,7,5"], line=lambda text: text.startswith("Agent X:"), delay=0.5)  # fmt: skip
    assert ended.returncode == 130 and ended.stderr == "scripts.tournament_mistakes: interrupted\n", ended.stderr
    assert ended.stdout.startswith("Agent X:") and len(ended.stdout.splitlines()) == 1
