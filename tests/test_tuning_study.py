"""The tuner's storage layer: secrets never printed, one creator, dead trials failed and retried."""

from __future__ import annotations

import subprocess
import sys

import optuna
import pytest

from tuning._study import OWNER_KEY, create_or_load, open_storage, owner, recover, redact

SECRET = "hunter2"


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://user:{SECRET}@db.example:5432/optuna",
        f"postgresql://user@db.example/optuna?password={SECRET}",
        f"postgresql://:{SECRET}@db.example/optuna",
        "postgresql://user:hun@ter2@db.example/optuna",  # an unescaped '@' inside the password
        f"postgresql+psycopg://user:{SECRET}@db.example/optuna?sslpassword={SECRET}&sslmode=require",
        f"mysql+pymysql://user:{SECRET}@db.example/optuna?charset=utf8mb4",
    ],
)
def test_redact_hides_every_form_of_password(url: str) -> None:
    shown = redact(url)
    assert SECRET not in shown and "ter2" not in shown and "***" in shown
    assert "db.example" in shown  # the rest stays readable


def test_redact_keeps_urls_without_secrets_as_written() -> None:
    for url in ("sqlite:///runs/tuning.db", "sqlite:///:memory:", "postgresql://user@db/optuna?sslmode=require"):
        assert redact(url) == url


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("postgresql://user:hun@ter2@127.0.0.1:1/none", "unescaped '@'"),
        (f"postgresql://user@127.0.0.1:1/none?password={SECRET}", "cannot open storage"),
        (f"postgresql://:{SECRET}@127.0.0.1:1/none", "cannot open storage"),
    ],
)
def test_storage_errors_are_one_line_without_the_password(url: str, message: str) -> None:
    with pytest.raises(ValueError) as error:
        open_storage(url).get_all_studies()
    text = str(error.value)
    assert message in text and SECRET not in text and "ter2" not in text and "\n" not in text


def test_only_the_creator_of_a_study_is_told_it_created_it(tmp_path) -> None:
    storage = open_storage(f"sqlite:///{tmp_path / 'db.sqlite'}")
    up = [optuna.study.StudyDirection.MAXIMIZE]
    first, created = create_or_load(storage, "s", up, optuna.pruners.NopPruner())
    second, created_again = create_or_load(storage, "s", up, optuna.pruners.NopPruner())
    assert (created, created_again) == (True, False) and first._study_id == second._study_id


def test_a_running_trial_of_a_dead_process_is_failed_and_queued_again(tmp_path) -> None:
    storage = open_storage(f"sqlite:///{tmp_path / 'db.sqlite'}")
    study, _ = create_or_load(storage, "s", [optuna.study.StudyDirection.MAXIMIZE], optuna.pruners.NopPruner())
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    orphan = study.ask({"x": optuna.distributions.FloatDistribution(0, 1)})
    storage.set_trial_system_attr(orphan._trial_id, OWNER_KEY, {**owner(), "pid": int(dead.stdout), "start": "0"})
    alive = study.ask({"x": optuna.distributions.FloatDistribution(0, 1)})
    storage.set_trial_system_attr(alive._trial_id, OWNER_KEY, owner())  # this process: alive, left alone
    assert recover(study) == (1, 1)
    states = {t.number: t.state for t in study.trials}
    assert states == {0: optuna.trial.TrialState.FAIL, 1: optuna.trial.TrialState.RUNNING,
                      2: optuna.trial.TrialState.WAITING}  # fmt: skip
    assert study.trials[2].params == study.trials[0].params
    assert recover(study) == (0, 0)  # queued once, not at every start
