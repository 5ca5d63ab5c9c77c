"""The rating ladder: the Bradley-Terry fit on simulated games of known strengths, the shipped ladder, players, the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envs._bt import expected_score, fit_ratings
from envs._players import NoisyAgent, PolicyAgent
from envs.rating import LADDERS, Ladder, _fit_ladder, _fit_player, as_agent, ladder_path, load_ladder, rate
from games import CONNECT4, TIC_TAC_TOE, IllegalMoveError
from search.agents import make_agent

ROOT = Path(__file__).resolve().parents[1]


def simulate(truth: np.ndarray, games: int, rng: np.random.Generator, draw_share: float = 0.3) -> tuple[np.ndarray, np.ndarray]:
    """Every pairing plays ``games`` games; a game is drawn with a chance that keeps the expected score exact."""
    size = len(truth)
    scores, counts = np.zeros((size, size)), np.zeros((size, size))
    for i in range(size):
        for j in range(i + 1, size):
            p = float(expected_score(truth[i] - truth[j]))
            draw = draw_share * 2 * min(p, 1 - p)  # P(win) = p - draw / 2 >= 0
            wins, draws, _ = rng.multinomial(games, [p - draw / 2, draw, 1 - p - draw / 2])
            scores[i, j], scores[j, i] = wins + draws / 2, games - wins - draws / 2
            counts[i, j] = counts[j, i] = games
    return scores, counts


TRUTH = np.array([0.0, 120.0, 260.0, 330.0, 520.0])


def test_fit_recovers_known_ratings_from_simulated_games() -> None:
    scores, games = simulate(TRUTH, 4000, np.random.default_rng(1))
    fit = fit_ratings(scores, games, anchor=0)
    assert fit.ratings[0] == 0.0 and fit.low[0] == fit.high[0] == 0.0
    assert np.max(np.abs(fit.ratings - TRUTH)) < 15.0
    assert np.all(fit.low <= fit.ratings) and np.all(fit.ratings <= fit.high)


def test_known_value_and_score_symmetry() -> None:
    # 70 points of 100: 400 log10(0.7 / 0.3) = 147.19 Elo, and its observed-information interval
    fit = fit_ratings(np.array([[0.0, 30.0], [70.0, 0.0]]), np.array([[0, 100], [100, 0]]), anchor=0)
    assert fit.ratings[1] == pytest.approx(400 * np.log10(7 / 3), abs=1e-4)
    half = 1.959964 * 400 / np.log(10) / np.sqrt(100 * 0.21)
    assert fit.high[1] - fit.ratings[1] == pytest.approx(half, rel=1e-4)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), anchor=st.integers(0, 4), shift=st.floats(-1000, 1000))
def test_anchoring_only_shifts_the_ratings(seed: int, anchor: int, shift: float) -> None:
    scores, games = simulate(TRUTH, 60, np.random.default_rng(seed))
    scores += 0.5 * (games > 0)  # a virtual draw in every pairing keeps every rating finite
    games += 1.0 * (games > 0)
    base = fit_ratings(scores, games, anchor=0).ratings
    moved = fit_ratings(scores, games, anchor=anchor, anchor_rating=shift)
    assert moved.ratings[anchor] == shift
    np.testing.assert_allclose(moved.ratings - moved.ratings[anchor], base - base[anchor], atol=1e-3)


def test_intervals_cover_the_truth_in_most_repetitions() -> None:
    rng = np.random.default_rng(7)
    covered, total = 0, 0
    for _ in range(200):
        scores, games = simulate(TRUTH, 40, rng)
        fit = fit_ratings(scores, games, anchor=0)
        covered += int(np.sum((fit.low[1:] <= TRUTH[1:]) & (TRUTH[1:] <= fit.high[1:])))
        total += len(TRUTH) - 1
    assert 0.90 <= covered / total <= 0.99


def test_player_fit_with_fixed_rungs_recovers_a_known_rating() -> None:
    ladder = load_ladder(CONNECT4)
    truth = ladder.elo[5] + 40.0
    points, played = np.zeros(len(ladder.rungs)), np.zeros(len(ladder.rungs))
    for rung in (4, 5, 6):
        played[rung] = 3000
        points[rung] = 3000 * float(expected_score(truth - ladder.elo[rung]))
    elo, low, high = _fit_player(ladder, points, played)
    assert elo == pytest.approx(truth, abs=3.0) and low < elo < high


def test_fit_refuses_inconsistent_results() -> None:
    with pytest.raises(ValueError, match="scores"):
        fit_ratings(np.array([[0.0, 3.0], [3.0, 0.0]]), np.array([[0, 4], [4, 0]]), anchor=0)
    with pytest.raises(ValueError, match="no games"):
        fit_ratings(np.zeros((3, 3)), np.zeros((3, 3)), anchor=0)


# ------------------------------------------------------------------ the shipped ladder
def test_shipped_ladder_is_anchored_ordered_and_refits_from_its_results() -> None:
    ladder = load_ladder(CONNECT4)
    assert [r.name for r in ladder.rungs] == [r.name for r in LADDERS["connect4"]]
    assert ladder.rungs[0].name == "random" and ladder.elo[0] == 0.0
    assert list(ladder.elo) == sorted(ladder.elo), "rungs are listed weakest first"
    elo, low, high = _fit_ladder(ladder.scores, ladder.games)
    np.testing.assert_allclose(elo, ladder.elo, atol=0.051)
    np.testing.assert_allclose(low, ladder.low, atol=0.051)
    for key in ("command", "pairs", "seed", "date", "package_version", "games_played"):
        assert key in ladder.header
    assert Ladder.from_json(json.loads(json.dumps(ladder.to_json()))).to_json() == ladder.to_json()


def test_known_agent_spec_rates_between_its_neighbours() -> None:
    ladder = load_ladder(CONNECT4)
    names = [r.name for r in ladder.rungs]
    rating = rate("alphabeta:depth=2", ladder, games=40, batch=5, rungs=["d1", "d3"], seed=3)
    assert ladder.elo[names.index("d1")] < rating.elo < ladder.elo[names.index("d3")]
    assert rating.low < rating.elo < rating.high and rating.games == 40
    assert [row[0] for row in rating.table] == ["d1", "d3"]


def test_adaptive_choice_moves_toward_the_players_strength() -> None:
    ladder = load_ladder(CONNECT4)
    rating = rate("random", ladder, games=60, batch=5, seed=1)
    games = {name: count for name, _, count, _, _ in rating.table}
    middle = ladder.rungs[int(np.argmin(np.abs(np.array(ladder.elo) - np.median(ladder.elo))))].name
    assert games[middle] == 10  # the first round goes to the middle of the ladder, and no later one
    low = sum(count for name, elo, count, _, _ in rating.table if elo <= ladder.elo[2])
    assert low >= 40  # then the rounds go to the weakest rungs
    assert rating.elo < ladder.elo[3]


# ------------------------------------------------------------------ players
def test_noisy_agent_edges() -> None:
    position = CONNECT4.position("112233")  # x wins in column 4: depth 1 has one answer
    plain = make_agent("alphabeta:depth=1", CONNECT4, seed=2)
    always = NoisyAgent(make_agent("alphabeta:depth=1", CONNECT4), 0.0, seed=1)
    assert {always.select_move(position) for _ in range(20)} == {plain.select_move(position)} == {3}
    noisy = NoisyAgent(make_agent("alphabeta:depth=1", CONNECT4), 1.0, seed=1)
    moves = {noisy.select_move(position) for _ in range(200)}
    assert moves == set(position.legal_moves())
    with pytest.raises(ValueError, match="eps=1.5"):
        NoisyAgent(plain, 1.5)


def test_callable_policy_is_rated_and_checked() -> None:
    ladder = load_ladder(TIC_TAC_TOE) if ladder_path(TIC_TAC_TOE).is_file() else None

    def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
        assert observation.shape == (2, 6, 7) and observation.dtype == np.int8
        return int(np.flatnonzero(mask)[0])

    rating = rate(first_legal, load_ladder(CONNECT4), games=8, batch=2, rungs=["random"])
    assert rating.name == "first_legal" and rating.table[0][2] == 8
    bad = PolicyAgent(lambda obs, mask: 99, CONNECT4, name="bad")
    with pytest.raises(IllegalMoveError, match="illegal action 99"):
        bad.select_move(CONNECT4.position())
    assert ladder is None or ladder.rungs[-1].name == "perfect"


def test_as_agent_kinds() -> None:
    assert as_agent("d1-eps50", CONNECT4).name.startswith("eps0.5-")
    assert as_agent("weights/connect4-windows.json", CONNECT4).name.startswith("alphabeta-windows")
    with pytest.raises(ValueError, match="does not exist"):
        as_agent("missing.zip", CONNECT4)
    with pytest.raises(TypeError, match="not an agent spec"):
        as_agent(3, CONNECT4)  # type: ignore[arg-type]


def test_sb3_zip_is_rated(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    import envs  # noqa: F401

    model = MaskablePPO("MlpPolicy", gym.make("alphabeta/Connect4-v0"), n_steps=64, batch_size=64, seed=0, device="cpu")
    model.save(tmp_path / "policy.zip")
    rating = rate(str(tmp_path / "policy.zip"), load_ladder(CONNECT4), games=4, batch=2, rungs=["random"])
    assert rating.games == 4 and rating.name == "policy.zip"


# ------------------------------------------------------------------ the CLI
def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "envs.rate", *args], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=600)  # fmt: skip


def test_cli_calibrates_and_rates_on_a_tiny_budget(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "ttt.json"
    done = run("--game", "tictactoe", "--calibrate", "--calibration-pairs", "2", "--ladder", str(target), "--seed", "4")
    assert done.returncode == 0, done.stderr
    data = json.loads(target.read_text())
    assert data["format"] == "alphabeta-gym-ladder" and data["seed"] == 4 and data["pairs"] == 2
    assert data["command"].startswith("python -m envs.rate --game tictactoe --calibrate") and data["rungs"][0]["elo"] == 0.0
    assert [r["name"] for r in data["rungs"]] == [r.name for r in LADDERS["tictactoe"]]
    done = run("rules", "--game", "tictactoe", "--ladder", str(target), "--games", "4", "--batch", "1")
    assert done.returncode == 0, done.stderr
    assert "rules: Elo" in done.stdout and "| rung | rung Elo |" in done.stdout
    done = run("random", "--games", "4", "--batch", "2")  # the shipped Connect-4 ladder
    assert done.returncode == 0, done.stderr
    assert "random: Elo" in done.stdout and "from 4 games" in done.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (("rules", "--games", "0"), "argument --games: '0' is not an integer >= 1"),
        (("rules", "--seed", "-1"), "argument --seed: '-1' is not a non-negative integer"),
        ((), "give a player to rate"),
        (("nosuchagent:depth=2",), "unknown agent 'nosuchagent'"),
        (("alphabeta:depth=0",), "depth"),
        (("missing.zip",), "policy file 'missing.zip' does not exist"),
        (("rules", "--rungs", "d1,nope"), "unknown rung(s) ['nope']"),
        (("rules", "--game", "mnk", "--rows", "4", "--cols", "4", "--k", "3"), "no ladder is defined for"),
        (("rules", "--ladder", "no/such/file.json"), "cannot read ladder no/such/file.json"),
        (("--calibrate", "--ladder", "tests"), "--ladder 'tests' is a folder, not a file"),
        (("--calibrate", "--ladder", "README.md/x.json"), "README.md/x.json"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    last = done.stderr.strip().splitlines()[-1]  # the usage, then one error line
    assert last.startswith("python -m envs.rate: error: ") and message in last
    assert "Traceback" not in done.stderr and done.stderr.count("error") == 1


def test_training_script_reports_the_ladder_elo_before_and_after(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sb3_contrib")
    sys.path.insert(0, str(ROOT / "scripts"))
    import train_maskable_ppo

    argv = ["--random-steps", "0", "--alphabeta-steps", "0", "--eval-games", "1", "--n-envs", "1", "--ladder-games", "4"]
    assert train_maskable_ppo.main(argv) == 0
    out = capsys.readouterr().out
    assert "ladder Elo [95% CI]" in out
    assert out.count("; ladder Elo ") == 3  # before training and after each phase
    with pytest.raises(SystemExit) as stop:
        train_maskable_ppo.main(["--ladder-games", "1"])
    assert stop.value.code == 2 and "argument --ladder-games: '1'" in capsys.readouterr().err
