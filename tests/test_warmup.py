"""Compile before the clock: the warm-up positions reach every rule, and a cold numba cache costs no timed move."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games import CONNECT4, GOMOKU, TIC_TAC_TOE, KInARow
from search.agents.simple import Rule, RuleBasedAgent, rule_candidates
from search.agents.warmup import COMPILE_SECONDS, first_compile_seconds, warm_up, warm_up_positions

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game", [TIC_TAC_TOE, CONNECT4, GOMOKU], ids=str)
def test_the_warm_up_positions_reach_every_rule_of_the_rules_player(game: KInARow) -> None:
    positions = warm_up_positions(game)
    assert positions[0].ply == 0 and not any(p.is_terminal() for p in positions)
    assert {rule_candidates(p)[0] for p in positions} == set(Rule)  # win, block, fork, stop a fork, most ways


def test_warm_up_leaves_the_agent_as_new() -> None:
    agent = RuleBasedAgent(seed=3)
    assert warm_up(agent, TIC_TAC_TOE) >= 0.0
    agent.seed(3)
    fresh = RuleBasedAgent(seed=3)
    position = TIC_TAC_TOE.position()
    assert [agent.select_move(position) for _ in range(5)] == [fresh.select_move(position) for _ in range(5)]


def _cold(tmp: Path) -> dict[str, str]:
    """An environment whose numba cache is an empty folder: every kernel compiles, as after an install."""
    cache = tmp / "numba-cache"
    cache.mkdir(exist_ok=True)
    return {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(cache)}


@pytest.mark.slow
def test_a_cold_cache_costs_the_tournament_no_timed_move(tmp_path: Path) -> None:
    # Warmed on the empty board only, the rules player compiled its fork defence inside a timed move (880 ms, over 500).
    out = tmp_path / "tour"
    done = subprocess.run([sys.executable, "-m", "scripts.mnk_tournament", "perfect", "rules", "--configs", "3,3,3",
                           "--time-ms", "500", "--out", str(out)], cwd=ROOT, env=_cold(tmp_path), capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    (config,) = json.loads(out.with_suffix(".json").read_text())["configurations"]
    assert [g["reason"] for g in config["games"] if g["reason"] in ("time", "error", "illegal")] == []
    assert max(config["slowest_ms"].values()) < 500


@pytest.mark.slow  # compiles the rules player into an empty cache
@pytest.mark.xdist_group("wheel")  # in the wheel's venv (tests/wheelvenv.py), before its commands compile the rules player
def test_envs_play_says_it_prepares_the_opponent_when_the_cache_is_cold(wheel_venv: tuple[Path, Path], tmp_path: Path) -> None:
    """The cold cache is the wheel's venv's, whose Piskvork START (``tests/test_wheel.py``) compiles the rules player's
    kernels anyway; should it hold them already (the wheel's test ran first), an empty folder of its own stands in."""
    from tests.wheelvenv import cached_kernels, clean_env

    python, _ = wheel_venv
    env = clean_env()
    if [path for path in cached_kernels(python) if path.name.startswith("_rule_kernels.")]:
        env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba-cache")

    def play() -> str:
        done = subprocess.run([str(python), "-m", "envs.play", "tictactoe", "--opponent", "rules", "--you", "second"],
                              input="q\n", cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout

    first = play()
    assert first.startswith("preparing the opponent (the first run compiles for about 10 s; later runs start at once) ...\n")
    assert "opponent played" in first  # then the game goes on as usual
    again = play()
    assert "preparing" not in again and "opponent played" in again
    warm_up(RuleBasedAgent(seed=0), TIC_TAC_TOE)  # this process, on the worktree's own cache: now warm, whatever ran before
    assert first_compile_seconds("rules", TIC_TAC_TOE) is None


ESTIMATES = """
import json
from games import CONNECT4
from search.agents.warmup import first_compile_seconds
specs = ("alphabeta", "alphabeta:heuristic=threats", "alphabeta:heuristic=windows", "alphabeta:heuristic=nope")
print(json.dumps([first_compile_seconds(spec, CONNECT4) for spec in specs]))
"""


def test_the_compile_estimate_of_a_bitboard_search_with_an_array_evaluator_is_the_longer_one(tmp_path: Path) -> None:
    """A bitboard evaluator's search compiles without the array evaluators (search.alphabeta._bitnegamax), an array
    evaluator's with all of them: ``envs.play`` says so before a cold first move.  On an empty cache folder; only
    imports, nothing compiles."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", ESTIMATES], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    default, threats, windows, unknown = json.loads(done.stdout.strip().splitlines()[-1])
    assert default == threats == unknown == COMPILE_SECONDS["bitboard search"]
    assert windows == COMPILE_SECONDS["bitboard search, array evaluator"] > default
