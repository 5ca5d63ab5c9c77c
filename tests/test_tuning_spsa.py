"""SPSA: it climbs a planted noisy objective, and workers sharing a study share one theta."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import optuna
import pytest

from tuning.spsa import MINUS_KEY, OBJECTIVE_ATTR, SPSASampler

START = {"x": 2.0, "y": 8.0}
OPTIMUM = (7.0, 3.0)
SPACE = {"x": optuna.distributions.FloatDistribution(0.0, 10.0), "y": optuna.distributions.FloatDistribution(0.0, 10.0)}


def strength(x: float, y: float) -> float:
    return -((x - OPTIMUM[0]) ** 2 + (y - OPTIMUM[1]) ** 2) / 10.0


def _match(study: optuna.Study, games: int, seed: int):
    """theta+ against theta-: ``games`` games won with the logistic probability of the strength difference."""
    rng = np.random.default_rng(seed)

    def objective(trial: optuna.Trial) -> float:
        trial.set_user_attr(OBJECTIVE_ATTR, "spsa")
        plus = {name: trial.suggest_float(name, d.low, d.high) for name, d in SPACE.items()}
        minus = study._storage.get_trial_system_attrs(trial._trial_id)[MINUS_KEY]
        p = 1.0 / (1.0 + math.exp(-(strength(**plus) - strength(**minus))))
        return float(rng.binomial(games, p)) / games if games else p

    return objective


def test_spsa_climbs_toward_a_planted_optimum_on_a_noisy_objective() -> None:
    study = optuna.create_study(direction="maximize", sampler=SPSASampler(START, seed=1))
    study.optimize(_match(study, games=20, seed=2), n_trials=200)
    theta = study.sampler.current(study, SPACE)
    before = math.dist((START["x"], START["y"]), OPTIMUM)
    after = math.dist((theta["x"], theta["y"]), OPTIMUM)
    assert after < 0.3 * before, theta
    ks = [t.system_attrs["spsa:k"] for t in study.trials]
    assert ks == list(range(200))  # one iteration per trial, in order


@pytest.mark.slow  # two SPSA workers: about 10 s
def test_two_workers_on_one_study_keep_one_consistent_theta(tmp_path: Path) -> None:
    # two sampler objects, as two processes on one storage would hold, taking turns: the same trajectory as one
    def run(workers: int) -> tuple[list[dict], list[dict]]:
        storage = optuna.storages.RDBStorage(f"sqlite:///{tmp_path / f'w{workers}.db'}")
        studies = [optuna.create_study(storage=storage, study_name="s", direction="maximize", load_if_exists=True,
                                       sampler=SPSASampler(START, seed=4)) for _ in range(workers)]  # fmt: skip
        for i in range(30):
            study = studies[i % workers]
            study.optimize(_match(study, games=0, seed=0), n_trials=1)  # games=0: the exact expected score
        thetas = [s.sampler.current(s, SPACE) for s in studies]
        return [t.params for t in studies[0].trials], thetas

    alone, (theta_alone,) = run(1)
    shared, thetas = run(2)
    assert shared == alone and thetas == [theta_alone, theta_alone]
    assert math.dist((theta_alone["x"], theta_alone["y"]), OPTIMUM) < math.dist(tuple(START.values()), OPTIMUM)


def test_the_gain_schedules_are_spalls() -> None:
    sampler = SPSASampler(START, a=0.5, c=0.2, big_a=10)
    a0, c0 = sampler.gains(0)
    a9, c9 = sampler.gains(9)
    assert a0 == 0.5 / 11**0.602 and c0 == 0.2 and a9 == 0.5 / 20**0.602 and c9 == 0.2 / 10**0.101


@pytest.mark.slow  # a tuning run with its confirmation games: about 11 s
def test_a_spsa_run_confirms_its_final_theta_against_the_opponents(tmp_path: Path) -> None:
    import subprocess
    import sys

    command = [sys.executable, "-m", "tuning.run", "--heuristic", "square_values", "--sampler", "spsa", "--trials", "4",
               "--pairs", "3", "--confirm-pairs", "4", "--plies", "2", "--workers", "1", "--nodes", "300",
               "--depth-range", "1,4", "--no-progress", "--baseline", "random", "--study", "spsa",
               "--storage", f"sqlite:///{tmp_path / 'study.db'}"]  # fmt: skip
    run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode in (0, 3), run.stderr
    study = optuna.load_study(study_name="spsa", storage=f"sqlite:///{tmp_path / 'study.db'}")
    iterations = [t for t in study.trials if t.user_attrs.get(OBJECTIVE_ATTR) == "spsa"]
    finals = [t for t in study.trials if t.user_attrs.get("spsa") == "final"]
    assert len(iterations) == 4 and len(finals) == 1 and "start" not in study.trials[0].user_attrs
    confirmed = [k for k in study.user_attrs if k.startswith("confirmation:")]
    assert confirmed == [f"confirmation:{finals[0].number}"]  # only the final theta is confirmed
    assert all(MINUS_KEY in t.system_attrs and "spsa:step" in t.system_attrs for t in iterations)
