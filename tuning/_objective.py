"""The objective a trial is scored by: its candidate against the opponents on the tuning openings.

Private to :mod:`tuning.run`, and the place to plug another objective in:
:func:`tuning.run.tune` takes any ``objective_factory(setup, study, runner,
progress)`` that returns a callable ``trial -> value(s)``.  The default,
:class:`MatchObjective`, plays the candidate against the opponents in turn, reports
after every pair so the pruner can stop a hopeless trial, and records the
trial's games, pentanomial counts, Elo and nodes per move as user attributes.
"""

from __future__ import annotations

from typing import Any, Callable, Union

import optuna

from tuning._confirm import finite
from tuning._setup import Setup
from tuning._study import claim
from tuning.match import MatchResult, MatchRunner
from tuning.progress import Progress
from tuning.spsa import MINUS_KEY, OBJECTIVE_ATTR

ObjectiveValue = Union[float, tuple[float, float]]
ObjectiveFactory = Callable[[Setup, optuna.Study, MatchRunner, Progress], Callable[[optuna.Trial], ObjectiveValue]]


class MatchObjective:
    """Score = the candidate's mean score per game over the opponents (fair mode), or (score, nodes/move) (pareto).

    With several opponents (a gauntlet) pair ``i`` plays opponent ``i % M``, so
    step ``i`` of every trial is the same opponent from the same opening and
    the Wilcoxon pruner still compares like with like.

    Args:
        setup: the run's checked pieces.
        study: the study (trials are claimed in it, so a dead process's trial is recognised).
        runner: the match worker pool.
        progress: counts games.
    """

    def __init__(self, setup: Setup, study: optuna.Study, runner: MatchRunner, progress: Progress) -> None:
        self.setup, self.study, self.runner, self.progress = setup, study, runner, progress
        config = setup.config
        self.prune = config.mode == "fair" and config.pruner_name != "none"
        # Wilcoxon compares trials opening by opening; the median pruner compares running means.
        self.per_pair = config.pruner_name == "wilcoxon"

    def __call__(self, trial: optuna.Trial) -> ObjectiveValue:
        """Play the trial's candidate; raise ``TrialPruned`` when the pruner stops it."""
        setup, config = self.setup, self.setup.config
        claim(self.study, trial)  # so a resume can tell this trial's process is dead
        candidate = setup.candidate(setup.space.suggest(trial))
        trial.set_user_attr("spec", candidate.spec())
        pruned = False

        def on_pair(result: MatchResult) -> bool:
            nonlocal pruned
            self.progress.advance(2, f"trial {trial.number}")
            if not self.prune:
                return False
            trial.report(result.pairs[-1].total / 2 if self.per_pair else result.score, len(result.pairs) - 1)
            pruned = trial.should_prune()
            return pruned

        result = self.runner.match(setup.game, candidate.spec(), setup.opponents, setup.book.tuning[: config.pairs],
                                   config.pairs, config.seed, on_pair=on_pair)  # fmt: skip
        self.progress.trial_done()
        record(trial, result)
        if pruned:
            self.progress.shrink(2 * (config.pairs - len(result.pairs)))
            raise optuna.TrialPruned(f"pruned after {len(result.pairs)} pairs")
        if config.mode == "pareto":
            return result.score, result.nodes_per_move(0)
        return result.score


def record(trial: optuna.Trial, result: MatchResult) -> None:
    """Keep a trial's match in its user attributes: games, pentanomial counts, mean score, Elo with its interval,
    nodes per move.  A pruned trial's value in Optuna is its last report (one pair's score, e.g. 1.0); these are
    the estimate from every pair it played, which the tables and plots show."""
    estimate = result.estimate()
    trial.set_user_attr("pairs", len(result.pairs))
    trial.set_user_attr("games", result.games)
    trial.set_user_attr("pentanomial", result.pentanomial)
    trial.set_user_attr("score", round(result.score, 6))
    trial.set_user_attr("elo", finite(estimate.elo))
    trial.set_user_attr("elo_low", finite(estimate.elo_low))
    trial.set_user_attr("elo_high", finite(estimate.elo_high))
    trial.set_user_attr("nodes_per_move", round(result.nodes_per_move(0), 1))


class SPSAObjective:
    """An SPSA iteration: the trial's ``theta+`` against its ``theta-``, paired games; returns ``theta+``'s score.

    Plays ``--pairs`` pairs on the tuning openings, never pruned (the result
    is a gradient sample, not a score to compare with other trials).
    """

    def __init__(self, setup: Setup, study: optuna.Study, runner: MatchRunner, progress: Progress) -> None:
        self.setup, self.study, self.runner, self.progress = setup, study, runner, progress

    def __call__(self, trial: optuna.Trial) -> float:
        """Play the iteration and return theta+'s mean score per game."""
        setup, config = self.setup, self.setup.config
        claim(self.study, trial)
        trial.set_user_attr(OBJECTIVE_ATTR, "spsa")
        plus = setup.candidate(setup.space.suggest(trial))
        minus_params = self.study._storage.get_trial_system_attrs(trial._trial_id).get(MINUS_KEY, {})
        minus = setup.candidate({**setup.space.defaults(), **minus_params})
        trial.set_user_attr("spec", plus.spec())

        def on_pair(result: Any) -> bool:
            self.progress.advance(2, f"SPSA iteration {trial.number}")
            return False

        pool = setup.book.tuning  # iteration k plays the next --pairs openings: every opening in turn, not the first few
        start = trial.number * config.pairs % len(pool)
        openings = (pool[start:] + pool[:start])[: config.pairs]
        result = self.runner.match(setup.game, plus.spec(), minus.spec(), openings, config.pairs,
                                   config.seed + trial.number, on_pair=on_pair)  # fmt: skip
        self.progress.trial_done()
        record(trial, result)
        return result.score
