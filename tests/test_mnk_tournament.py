"""The m,n,k tournament: scoring and forfeits on planted agents (tuning.tournament), and ``python -m scripts.mnk_tournament``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Optional

import pytest

from games import TIC_TAC_TOE, Action, KInARow, Position
from tests.interrupts import interrupt_when, is_running
from tuning.tournament import CONFIGURATIONS, ConfigurationResult, budgeted, game_points, play_configuration, play_timed_game

ROOT = Path(__file__).resolve().parent.parent


class FirstFree:
    """Plays the first legal move (cells in increasing order)."""

    name = "first-free"

    def select_move(self, position: Position) -> Action:
        return position.legal_moves()[0]

    def reset(self) -> None:
        pass

    def seed(self, seed: Optional[int]) -> None:
        pass


class Sleeper(FirstFree):
    """Sleeps ``seconds`` before its second move."""

    def __init__(self, seconds: float) -> None:
        self.seconds, self.moves = seconds, 0

    def reset(self) -> None:
        self.moves = 0

    def select_move(self, position: Position) -> Action:
        self.moves += 1
        if self.moves == 2:
            time.sleep(self.seconds)
        return super().select_move(position)


class Cheater(FirstFree):
    """Answers ``move`` (a callable of the position) on its second move."""

    def __init__(self, move: Any) -> None:
        self.move, self.moves = move, 0

    def reset(self) -> None:
        self.moves = 0

    def select_move(self, position: Position) -> Action:
        self.moves += 1
        return self.move(position) if self.moves == 2 else super().select_move(position)  # type: ignore[no-any-return]


def crash(position: Position) -> Action:
    raise RuntimeError("out of ideas")


def test_points_follow_the_rules() -> None:
    assert game_points(0) == (2, 0) and game_points(1) == (0, 3) and game_points(None) == (1, 1)


@pytest.mark.parametrize("sleeper_side", [0, 1])
def test_a_move_over_the_limit_forfeits(sleeper_side: int) -> None:
    agents = [FirstFree(), FirstFree()]
    agents[sleeper_side] = Sleeper(1.0)  # limits far apart: a loaded CI machine must not make the quick agent late
    record = play_timed_game(TIC_TAC_TOE, agents[0], agents[1], limit_s=0.5, labels=("a", "b"))
    assert record.reason == "time" and record.winner == 1 - sleeper_side
    assert record.points == ((0, 3) if sleeper_side == 0 else (2, 0))  # the opponent scores the win it made
    assert len(record.moves) == 2 + sleeper_side  # the late move is not played
    assert record.slowest[sleeper_side] >= 1.0 and record.slowest[1 - sleeper_side] < 0.5
    assert "took" in record.detail and "over the 500 ms limit" in record.detail and record.detail.startswith("ab"[sleeper_side])


@pytest.mark.parametrize("move, reason", [
    (lambda position: position.moves[0], "illegal"),  # an occupied cell
    (lambda position: 9, "illegal"),  # off the board
    (lambda position: "b2", "illegal"),  # not an action
    (crash, "error"),
])  # fmt: skip
def test_an_illegal_move_or_a_failure_forfeits(move: Any, reason: str) -> None:
    record = play_timed_game(TIC_TAC_TOE, FirstFree(), Cheater(move), limit_s=1.0, labels=("a", "b"))
    assert (record.reason, record.winner, record.points) == (reason, 0, (2, 0))
    assert record.moves == (0, 1, 2)  # the second player's second move was refused
    assert record.detail.startswith("b: ")


def test_games_are_scored_by_the_rules() -> None:
    """First-free against itself: 3,3,3 is won by whoever starts (x takes 2, 4, 6), 1,4,3 is a draw."""
    def build(spec: str, game: KInARow, seed: int) -> FirstFree:
        return FirstFree()

    won = play_configuration((3, 3, 3), ["rules", "random"], games=4, build=build)
    assert [g.winner for g in won.games] == [0, 0, 0, 0] and [g.reason for g in won.games] == ["k in a row"] * 4
    assert won.points == {"rules": 4, "random": 4}
    assert [(g.first, g.second) for g in won.games] == [("rules", "random"), ("random", "rules")] * 2
    drawn = play_configuration((1, 4, 3), ["rules", "random", "rules"], games=2, build=build)
    assert all(g.reason == "draw" for g in drawn.games) and len(drawn.games) == 3 * 2
    assert drawn.points == {"rules": 4, "random": 4, "rules #2": 4}  # 2 opponents x 2 games x 1 point


def test_a_ply_cap_adjudicates_an_open_game_as_a_draw() -> None:
    """First-free wins 3,3,3 as first player on ply 7; capped at 6 plies the same game is a draw, at 7 it is not."""
    capped = play_timed_game(TIC_TAC_TOE, FirstFree(), FirstFree(), limit_s=1.0, labels=("a", "b"), max_plies=6)
    assert (capped.reason, capped.winner, capped.points, capped.moves) == ("ply cap", None, (1, 1), (0, 1, 2, 3, 4, 5))
    full = play_timed_game(TIC_TAC_TOE, FirstFree(), FirstFree(), limit_s=1.0, labels=("a", "b"), max_plies=7)
    assert (full.reason, full.winner, len(full.moves)) == ("k in a row", 0, 7)
    with pytest.raises(ValueError, match="max_plies must be a positive number of plies or None; got 0"):
        play_timed_game(TIC_TAC_TOE, FirstFree(), FirstFree(), limit_s=1.0, labels=("a", "b"), max_plies=0)


def test_forfeits_are_scored_as_the_opponents_wins() -> None:
    planted = {"rules": lambda: FirstFree(), "random": lambda: Cheater(lambda position: -1)}
    result = play_configuration((3, 3, 3), ["rules", "random"], build=lambda spec, game, seed: planted[spec]())
    assert [g.reason for g in result.games] == ["illegal"] * 4
    assert result.points == {"rules": 2 + 3 + 2 + 3, "random": 0}


def test_an_agent_that_cannot_play_the_board_forfeits_and_a_board_the_core_refuses_is_not_played() -> None:
    result = play_configuration((10, 10, 5), ["perfect", "rules"], limit_ms=1000, games=2)
    assert "(rows + 1) * cols <= 32" in result.refused["perfect"]
    assert result.points == {"perfect": 0, "rules": 3 + 2} and {g.reason for g in result.games} == {"error"}
    refused = play_configuration((101, 5, 4), ["perfect", "rules"])
    assert not refused.playable and "rows=101 is out of range" in refused.reason and not refused.games


@pytest.mark.parametrize("stop", [KeyboardInterrupt, SystemExit])
def test_an_interrupted_game_is_never_recorded(stop: type[BaseException]) -> None:
    """Ctrl-C (or an exit) during a move is not an agent's failure: it leaves the configuration, the games before it
    reported one by one, and no forfeit is recorded for the game it cut."""

    class Stopper(FirstFree):
        armed = False

        def select_move(self, position: Position) -> Action:
            if self.armed and position.ply >= 3:  # its second move of the game after the first
                raise stop()
            return super().select_move(position)

    seen: list[int] = []
    planted = {"rules": FirstFree(), "random": Stopper()}

    def finished(result: ConfigurationResult) -> None:
        seen.append(len(result.games))
        planted["random"].armed = True  # type: ignore[attr-defined]

    with pytest.raises(stop):
        play_configuration((3, 3, 3), ["rules", "random"], build=lambda spec, game, seed: planted[spec], on_game=finished)
    assert seen == [1]


def test_the_seed_configurations() -> None:
    assert len(CONFIGURATIONS) == len(set(CONFIGURATIONS)) == 25
    assert CONFIGURATIONS[0] == (3, 3, 3) and CONFIGURATIONS[-3:] == ((10, 10, 5), (50, 50, 10), (70, 70, 10))


def test_only_an_alpha_beta_spec_without_a_budget_gets_one() -> None:
    assert budgeted("alphabeta:heuristic=mics,radius=2", 900) == "alphabeta:heuristic=mics,radius=2,time_ms=900"
    assert budgeted("alphabeta:", 450.5) == "alphabeta:time_ms=450.5"
    assert budgeted("weights/mnk.json", 900) == "alphabeta:weights=weights/mnk.json,time_ms=900"
    for spec in ("alphabeta:nodes=500", "alphabeta:time_ms=10", "alphabeta:depth=3", "perfect", "random:seed=2"):
        assert budgeted(spec, 900) == spec


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scripts.mnk_tournament", *args], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=600)  # fmt: skip


def test_a_tiny_tournament_end_to_end(tmp_path: Path) -> None:
    out = run("perfect", "alphabeta:heuristic=windows", "--configs", "3,3,3", "101,5,4", "4,3,3",
              "--time-ms", "2000", "--games", "2", "--out", str(tmp_path / "run.json"))  # fmt: skip
    assert out.returncode == 0, out.stderr
    data = json.loads((tmp_path / "run.json").read_text())
    report = (tmp_path / "run.md").read_text()
    assert report == out.stdout and "| 3,3,3 |" in report and "101,5,4: not playable: rows=101" in report
    assert data["agents"] == ["perfect", "alphabeta:heuristic=windows"]
    configs = {c["config"]: c for c in data["configurations"]}
    assert list(configs) == ["3,3,3", "101,5,4", "4,3,3"] and not configs["101,5,4"]["playable"]
    for name in ("3,3,3", "4,3,3"):
        games = configs[name]["games"]
        assert len(games) == 2 and [g["first"] for g in games] == [data["agents"][0], data["agents"][1]]
        for game in games:  # no one forfeits at 2 s a move
            assert game["reason"] in ("k in a row", "draw")
            solver_side = 0 if game["first"] == "perfect" else 1
            if name == "3,3,3":  # the solver never loses tic-tac-toe (a draw)
                assert game["winner"] in (solver_side, None), game
            elif solver_side == 0:  # 4,3,3 is a first-player win: the solver takes it
                assert game["winner"] == 0, game
            assert game["points"] == list(game_points(game["winner"]))
            assert max(game["slowest_ms"]) < 2000
        assert sum(configs[name]["points"].values()) == sum(sum(g["points"]) for g in games)
    assert data["totals"] == {a: configs["3,3,3"]["points"][a] + configs["4,3,3"]["points"][a] for a in data["agents"]}


@pytest.mark.slow  # the tournament twice, once on two workers: about 10 s
def test_workers_play_the_same_games_as_one_process(tmp_path: Path) -> None:
    """Seeded depth-limited agents are deterministic, so two worker processes must reproduce the serial games."""
    common = ["alphabeta:depth=2,heuristic=windows", "rules", "--configs", "3,3,3", "4,4,3", "5,5,4",
              "--games", "2", "--max-plies", "9", "--seed", "3"]  # fmt: skip
    serial, parallel = run(*common, "--out", str(tmp_path / "one")), run(*common, "--workers", "2", "--out", str(tmp_path / "two"))
    assert serial.returncode == 0 and parallel.returncode == 0, serial.stderr + parallel.stderr
    one, two = (json.loads((tmp_path / f"{name}.json").read_text()) for name in ("one", "two"))
    moves = [[g["moves"] for g in c["games"]] for c in one["configurations"]]
    assert moves == [[g["moves"] for g in c["games"]] for c in two["configurations"]]
    assert [c["config"] for c in two["configurations"]] == ["3,3,3", "4,4,3", "5,5,4"]  # the order asked, not finished
    capped = sum(g["reason"] == "ply cap" for c in one["configurations"] for g in c["games"])
    assert capped > 0 and f"{capped} games" in serial.stdout and "2 configurations were played at once" in parallel.stdout
    assert one["totals"] == two["totals"] and (one["max_plies"], two["workers"]) == (9, 2)


@pytest.mark.parametrize("args, message", [
    (["perfect"], "two or more agent specs"),
    (["perfect", "rules", "--configs", "3,3"], "'3,3' is not M,N,K"),
    (["perfect", "rules", "--configs", "3,0,3"], "'3,0,3' is not M,N,K"),
    (["perfect", "rules", "--time-ms", "0"], "'0' is not a positive finite number"),
    (["perfect", "alphabeta:dpth=3"], "unknown key(s) 'dpth'"),
    (["perfect", "rules", "--games", "0"], "'0' is not an integer from 1 to 1000000"),
    (["perfect", "rules", "--max-plies", "0"], "'0' is not an integer >= 1"),
    (["perfect", "rules", "--workers", "-1"], "'-1' is not an integer from 1 to"),
    (["perfect", "rules", "--workers", str(2**70)], f"'{2**70}' is not an integer from 1 to"),
    (["perfect", "rules", "--games", str(2**70)], f"'{2**70}' is not an integer from 1 to 1000000"),
])  # fmt: skip
def test_bad_arguments_exit_2_with_one_line(args: list[str], message: str) -> None:
    out = run(*args)
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr, out.stderr



def test_an_output_that_is_a_folder_is_refused_before_any_game(tmp_path: Path) -> None:
    (tmp_path / "x.md").mkdir()
    out = run("rules", "random", "--configs", "3,3,3", "--out", str(tmp_path / "x"))
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert out.stderr.strip().splitlines()[-1].endswith(f"argument --out: '{tmp_path / 'x.md'}' is a folder")
    assert "3,3,3:" not in out.stderr and not (tmp_path / "x.json").exists()  # no game was played


def _interrupted_tournament(tmp_path: Path, workers: int) -> None:
    """A real Ctrl-C once a game of 9,9,5 is in the report, while the alpha-beta agent searches (0.9 s a move) in the
    next one: one line, exit 130, the report holds exactly the finished games, and none is an error forfeit (the
    old clock turned Ctrl-C into one, played on and exited 0)."""
    out = tmp_path / "run"
    args = ["scripts.mnk_tournament", "alphabeta:heuristic=windows,radius=2", "rules", "--configs", "3,3,3", "9,9,5",
            "--games", "2", "--max-plies", "2", "--time-ms", "1000", "--workers", str(workers), "--out", str(out)]  # fmt: skip

    def a_game_of_9_9_5() -> bool:
        try:
            data = json.loads((tmp_path / "run.json").read_text())
        except (OSError, ValueError):
            return False
        return any(c["config"] == "9,9,5" and c["games"] for c in data["configurations"])

    ended = interrupt_when(args, when=a_game_of_9_9_5, delay=0.3, group=workers > 1)  # a terminal's Ctrl-C: all of them
    assert ended.returncode == 130 and ended.stderr.splitlines()[-1] == "scripts.mnk_tournament: interrupted", ended.stderr
    assert "Traceback" not in ended.stderr and "leaked" not in ended.stderr and ended.stdout == "", ended.stderr
    data = json.loads((tmp_path / "run.json").read_text())
    configs = {c["config"]: c for c in data["configurations"]}
    assert configs["3,3,3"]["finished"] and len(configs["3,3,3"]["games"]) == 2
    assert not configs["9,9,5"]["finished"] and len(configs["9,9,5"]["games"]) == 1
    assert all(g["reason"] == "ply cap" for c in configs.values() for g in c["games"])  # no forfeit, no error
    assert "Partial: 1 of 2 configurations so far; under way: 9,9,5 (1 of 2 games)." in (tmp_path / "run.md").read_text()
    assert len(ended.children) >= (3 if workers > 1 else 0)  # two workers and the resource tracker
    time.sleep(0.5)  # the pool's processes, killed, are gone by now
    assert not [pid for pid in ended.children if is_running(pid)]


def test_ctrl_c_during_a_timed_search_is_one_line_and_130_keeping_the_finished_games(tmp_path: Path) -> None:
    _interrupted_tournament(tmp_path, workers=1)


def test_ctrl_c_stops_the_workers_without_a_traceback_keeping_the_finished_games(tmp_path: Path) -> None:
    """Two worker processes (Ctrl-C reaches them too): they end at once, silently; no semaphore is leaked."""
    _interrupted_tournament(tmp_path, workers=2)
