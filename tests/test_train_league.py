"""scripts/train_league.py: an end-to-end run on a tiny budget, its report's arithmetic, its league and its errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from envs.batched import AlphaBetaBatch  # noqa: E402
from games import CONNECT4  # noqa: E402
from scripts import train_league  # noqa: E402
from scripts._league_train import Curriculum, LeagueBatch, rung_opponent  # noqa: E402
from search.agents import make_agent  # noqa: E402
from tests.inprocess import run_main  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "scripts.train_league", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=timeout)  # fmt: skip


@pytest.mark.slow  # a league training run: about 20 s
def test_tiny_run_saves_a_legal_model_and_a_consistent_report(tmp_path: Path) -> None:
    out, model_file = tmp_path / "report", tmp_path / "model"
    result = run("--minutes", "0.25", "--boards", "8", "--n-steps", "8", "--batch-size", "32", "--epochs", "1",
                 "--channels", "4", "--layers", "1", "--features", "16", "--eval-pairs", "3", "--ladder-games", "4",
                 "--snapshot-seconds", "1", "--mirror", "--opening-plies", "1-3", "--save", str(model_file),
                 "--out", str(out))  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    data = json.loads(out.with_suffix(".json").read_text())
    e = data["eval"]
    assert e["games"] == 6 and e["wins"] + e["draws"] + e["losses"] == e["games"]
    assert sum(e["colours"]["first"]) == sum(e["colours"]["second"]) == 3  # every opening once with each colour
    assert [a + b for a, b in zip(e["colours"]["first"], e["colours"]["second"])] == [e["wins"], e["draws"], e["losses"]]
    assert e["wilson_low"] <= e["win_rate"] <= e["wilson_high"]
    assert data["steps"] > 0 and data["steps"] % 8 == 0  # whole steps of all 8 boards
    assert data["train_seconds"] <= data["budget_seconds"] + 10  # stops at the budget (one step may run over)
    assert data["steps_per_second"] == pytest.approx(data["steps"] / data["train_seconds"])
    for rating in (data["elo_before"], data["elo_after"]):
        assert rating["low"] <= rating["elo"] <= rating["high"] and rating["games"] >= 4
    assert sum(sum(counts) for counts in data["record"].values()) > 0  # games against the league were counted
    markdown = out.with_suffix(".md").read_text()
    assert markdown == "# Training against a league\n\n" + result.stdout
    assert f"| games (W / D / L) | 6 ({e['wins']} / {e['draws']} / {e['losses']}) |" in markdown
    assert "Command: `python -m scripts.train_league --minutes 0.25" in markdown
    assert "opening plies 1-3, opening random 0.0," in data["settings"]

    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(str(model_file) + ".zip", device="cpu")
    rng = np.random.default_rng(0)
    for _ in range(20):  # random positions, full columns included: the masked argmax never picks an illegal column
        position = CONNECT4.position()
        while not position.is_terminal() and rng.random() < 0.97:
            position.play(int(rng.choice(position.legal_moves())))
        if position.is_terminal():
            continue
        mask = position.legal_mask().astype(bool)
        action = int(model.predict(position.planes(), action_masks=mask, deterministic=True)[0])
        assert mask[action]


@pytest.mark.parametrize(
    "args, message",
    [
        (("--minutes", "0"), "argument --minutes: '0' is not a positive finite number"),
        (("--boards", "0"), "argument --boards: '0' is not an integer >= 1"),
        (("--ent-coef", "2"), "argument --ent-coef: '2' is not a number from 0 to 1"),
        (("--eval-plies", "9"), "argument --eval-plies: '9' is not an integer from 0 to 8"),
        (("--boards", "4", "--n-steps", "8", "--batch-size", "64"), "argument --batch-size: 64 is more than a rollout's 32"),
        (("--opening-plies", "6"), "argument --opening-plies: '6' is not N or LOW-HIGH with 0 <= LOW <= HIGH <= 5"),
        (("--opening-plies", "3-1"), "argument --opening-plies: '3-1' is not N or LOW-HIGH with 0 <= LOW <= HIGH <= 5"),
        (("--opening-plies", "x"), "argument --opening-plies: 'x' is not N or LOW-HIGH"),
        (("--ladder-games", "3"), "argument --ladder-games: 3 is odd: give an even number of games"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_main(train_league.main, args, capsys)
    assert status == 2 and "Traceback" not in err
    assert message in err.strip().splitlines()[-1]


def test_league_with_one_member_replies_as_that_rung_alone() -> None:
    """All weight on depth 2: the dispatcher's replies are the batched depth-2 search's for the same seeds."""
    n, spec = 6, "alphabeta:depth=2,tt=1024"
    league = LeagueBatch(n, seed=0)
    league.add("random", rung_opponent("random", CONNECT4, n))
    league.add(spec, rung_opponent(spec, CONNECT4, n))
    league.set_weights({spec: 1.0})
    alone = AlphaBetaBatch(make_agent(spec, CONNECT4), n)  # type: ignore[arg-type]
    boards, seeds = np.arange(n), list(range(100, 100 + n))
    league.new_episodes(boards, seeds)
    alone.new_episodes(boards, seeds)
    rng = np.random.default_rng(1)
    for _ in range(5):
        positions = [CONNECT4.position([int(m) for m in rng.integers(0, 7, size=4)]) for _ in range(n)]
        obs = np.stack([p.planes() for p in positions])
        masks = np.stack([p.legal_mask() for p in positions])
        assert league.reply_batch(obs, masks, boards).tolist() == alone.reply_batch(obs, masks, boards).tolist()
    assert (league.assigned == 1).all()


def test_curriculum_moves_up_only_past_the_threshold_and_weights_sum_to_one() -> None:
    curriculum = Curriculum(("random", "d1", "d2"), top=0.6, rest=0.2, promote=0.6, min_games=10)
    assert curriculum.weights([]) == {"random": 1.0}
    assert curriculum.update({"random": [5, 0, 4]}) is None and curriculum.level == 0  # 9 games: too few to judge
    assert curriculum.update({"random": [0, 2, 0], "d1": [0, 0, 9]}) is None  # block of 11: (5 + 2 / 2) / 11 = 55% < 60%
    assert curriculum.score() == pytest.approx(6 / 11)
    assert curriculum.update({"random": [7, 0, 3]}) == "d1"  # a new block: 70%; the losses of the first do not count
    assert curriculum.score() != curriculum.score()  # nan: no block against the new top rung yet
    assert curriculum.weights([]) == pytest.approx({"d1": 0.8, "random": 0.2})
    weights = curriculum.weights(["s0", "s1"])
    assert weights == pytest.approx({"d1": 0.6, "random": 0.2, "s0": 0.1, "s1": 0.1})
    curriculum.update({"d1": [100, 0, 0]})
    assert curriculum.level == 2 and curriculum.update({"d2": [1000, 0, 0]}) is None  # the last rung stays the top
    assert curriculum.score() == 1.0


@pytest.mark.parametrize("plies, low, high", [([], 4, 4), (["--opening-plies", "2-3"], 2, 3)])
def test_training_boards_start_after_the_opening_with_the_learner_to_move(plies: list[str], low: int, high: int) -> None:
    """build(): the learner's first decision on every board comes after the env's random opening (4 plies by default)."""
    from envs import _kernels as K
    from scripts.train_league import build, parse_args

    args = parse_args(["--boards", "32", "--n-steps", "4", "--batch-size", "32", "--channels", "4", "--layers", "1",
                       "--features", "8", *plies])  # fmt: skip
    league, env, model = build(args)
    env.reset()
    meta = env.venv.batch.meta
    opening = meta[:, K.M_PLY] - (meta[:, K.M_OPP] >= 0)  # the opponent's answer, if it had to make one, is not the opening
    assert opening.min() == low and opening.max() == high
    assert ((meta[:, K.M_PLY] % 2 + 1) == meta[:, K.M_STONE]).all()  # the learner is to move on every board
    assert not meta[:, K.M_OVER].any()
