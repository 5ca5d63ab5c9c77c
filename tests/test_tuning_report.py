"""The run's plots say what each point is: an SPSA iteration is theta+ against theta-, not a score against the opponents."""

from __future__ import annotations

import optuna
import pytest
from optuna.trial import TrialState, create_trial

from tuning._report import _progress_plot
from tuning.spsa import OBJECTIVE_ATTR

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")


def _trial(state: TrialState, elo: float, spsa: bool = False) -> optuna.trial.FrozenTrial:
    attrs = {"elo": elo, **({OBJECTIVE_ATTR: "spsa"} if spsa else {})}
    value = 0.5 if state == TrialState.COMPLETE else None
    return create_trial(state=state, value=value, user_attrs=attrs, intermediate_values={0: 0.5})


def test_spsa_iterations_are_plotted_apart_from_games_against_the_opponents() -> None:
    import matplotlib.pyplot as plt

    study = optuna.create_study(direction="maximize")
    for trial in (_trial(TrialState.COMPLETE, 12.0, spsa=True), _trial(TrialState.COMPLETE, -4.0, spsa=True),
                  _trial(TrialState.COMPLETE, 150.0), _trial(TrialState.PRUNED, -80.0)):  # fmt: skip
        study.add_trial(trial)
    axes = _progress_plot(plt, study, [])
    series = {collection.get_label(): collection.get_offsets().tolist() for collection in axes.collections}
    plt.close("all")
    assert series["SPSA iteration: theta+ over theta- (not against the opponents)"] == [[0.0, 12.0], [1.0, -4.0]]
    assert series["search: played in full"] == [[2.0, 150.0]]
    assert series["search: pruned (estimate from the pairs played)"] == [[3.0, -80.0]]
