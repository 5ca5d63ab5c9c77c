"""SPSA, the sampler engine tuners use (fishtest, OpenBench), as an Optuna sampler whose state is the storage.

Simultaneous perturbation stochastic approximation (Spall 1992, "Multivariate
stochastic approximation using a simultaneous perturbation gradient
approximation", IEEE TAC 37(3); gains from Spall 1998, "Implementation of the
simultaneous perturbation algorithm for stochastic optimization", IEEE TAES
34(3)).  Iteration ``k`` perturbs *every* parameter at once by ``+-c_k``
(``delta`` a random sign per parameter), plays paired games of ``theta+``
against ``theta-``, and steps ``theta`` along the measured difference::

    theta_i <- theta_i + a_k * r * delta_i / c_k,   r = 2 * (theta+'s score) - 1 in [-1, 1]

which is fishtest's update (``theta += R_k * c_k * result * delta`` with
``R_k = a_k / c_k^2``).  Gains follow Spall's recommended schedules::

    a_k = a / (k + 1 + A)^alpha,  c_k = c / (k + 1)^gamma,  alpha = 0.602, gamma = 0.101, A = 10

Parameters live in normalised coordinates (``[0, 1]`` over the bounds, log
bounds in log space), so ``c = 0.05`` perturbs by 5% of each range and one
step moves at most ``a_k / c_k`` of it; integers (depth, q) are rounded when
proposed.

**State in the storage, not the process.**  Each iteration is one Optuna
trial: its parameters are ``theta+``, and its system attributes hold ``k``,
``delta`` and ``theta-`` (written when sampled) and its step (written in
:meth:`SPSASampler.after_trial`, before the trial is stored as finished).
``theta`` is the start plus the sum of the steps of all finished
iterations, a sum that does not depend on their order, so any number of
workers on one study (a PostgreSQL URL across machines) read the same
``theta`` and cooperate with no lock.  The projection onto the bounds is
applied when ``theta`` is read (an unclipped sum commutes; a clipped one
would not).

The objective of an SPSA trial is not a score to rank:
:class:`tuning._objective.SPSAObjective` plays the trial's ``theta+`` against its ``theta-`` and returns ``theta+``'s
score.  The tuner then evaluates the final ``theta`` as one ordinary trial
against the gauntlet, and that trial is the one confirmed (see
:func:`tuning.run.tune`).
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Optional, Sequence

import numpy as np
from optuna.distributions import BaseDistribution, FloatDistribution, IntDistribution
from optuna.samplers import BaseSampler
from optuna.study import Study
from optuna.trial import FrozenTrial, TrialState

K_KEY, DELTA_KEY, MINUS_KEY, STEP_KEY = "spsa:k", "spsa:delta", "spsa:minus", "spsa:step"
OBJECTIVE_ATTR = "objective"
"""User attribute that marks a trial whose value is theta+ against theta- (not a score against the opponents)."""


class SPSASampler(BaseSampler):
    """Propose ``theta + c_k * delta`` for every parameter; step ``theta`` from the trial's result.

    Args:
        start: the starting ``theta`` (the heuristic's defaults and the start depth and q).
        seed: seeds the perturbation signs, a function of ``(seed, trial number, parameter)`` only.
        a, c, big_a, alpha, gamma: the gain schedules (see the module docstring).
    """

    def __init__(self, start: Mapping[str, float], seed: Optional[int] = None, *, a: float = 0.01, c: float = 0.05,
                 big_a: float = 10.0, alpha: float = 0.602, gamma: float = 0.101) -> None:  # fmt: skip
        self._start = dict(start)
        self._seed = 0 if seed is None else int(seed) & 0xFFFFFFFF
        self.a, self.c, self.big_a, self.alpha, self.gamma = a, c, big_a, alpha, gamma

    def gains(self, k: int) -> tuple[float, float]:
        """``(a_k, c_k)`` of iteration ``k`` (counted from 0)."""
        return self.a / (k + 1 + self.big_a) ** self.alpha, self.c / (k + 1) ** self.gamma

    def infer_relative_search_space(self, study: Study, trial: FrozenTrial) -> dict[str, BaseDistribution]:
        """Parameters are sampled one by one (each from the shared ``theta``)."""
        return {}

    def sample_relative(self, study: Study, trial: FrozenTrial, search_space: dict[str, BaseDistribution]) -> dict[str, Any]:
        """No joint sampling."""
        return {}

    def sample_independent(self, study: Study, trial: FrozenTrial, param_name: str, param_distribution: BaseDistribution) -> Any:
        """``theta+`` for ``param_name``; ``theta-``, ``delta`` and ``k`` go to the trial's system attributes."""
        storage, trial_id = study._storage, trial._trial_id
        attrs = storage.get_trial_system_attrs(trial_id)
        k = attrs.get(K_KEY)
        if k is None:  # the trial's first parameter: fix its iteration number
            k = len(_iterations(study))
            storage.set_trial_system_attr(trial_id, K_KEY, k)
        _, c_k = self.gains(int(k))
        rng = np.random.default_rng([self._seed, trial.number, _name_key(param_name)])
        delta = 1 if rng.random() < 0.5 else -1
        theta = self.theta(study, {param_name: param_distribution})[param_name]
        plus, minus = (_denormalise(_clip01(theta + sign * c_k * delta), param_distribution) for sign in (1, -1))
        storage.set_trial_system_attr(trial_id, DELTA_KEY, {**attrs.get(DELTA_KEY, {}), param_name: delta})
        storage.set_trial_system_attr(trial_id, MINUS_KEY, {**attrs.get(MINUS_KEY, {}), param_name: minus})
        return plus

    def after_trial(self, study: Study, trial: FrozenTrial, state: TrialState, values: Optional[Sequence[float]]) -> None:
        """Store the iteration's step (only for a completed SPSA trial, before it is stored as finished)."""
        attrs = trial.system_attrs
        if state != TrialState.COMPLETE or not values or K_KEY not in attrs or trial.user_attrs.get(OBJECTIVE_ATTR) != "spsa":
            return
        a_k, c_k = self.gains(int(attrs[K_KEY]))
        result = 2.0 * float(values[0]) - 1.0
        step = {name: a_k * result * delta / c_k for name, delta in attrs.get(DELTA_KEY, {}).items()}
        study._storage.set_trial_system_attr(trial._trial_id, STEP_KEY, step)

    def theta(self, study: Study, distributions: Mapping[str, BaseDistribution]) -> dict[str, float]:
        """The current ``theta`` in normalised coordinates: the start plus every finished step, projected onto [0, 1]."""
        steps = [t.system_attrs[STEP_KEY] for t in _iterations(study)]
        return {name: _clip01(_normalise(self._start[name], dist) + sum(s.get(name, 0.0) for s in steps))
                for name, dist in distributions.items()}  # fmt: skip

    def current(self, study: Study, distributions: Mapping[str, BaseDistribution]) -> dict[str, Any]:
        """The current ``theta`` as parameter values (integers rounded): what SPSA recommends now."""
        return {name: _denormalise(x, distributions[name]) for name, x in self.theta(study, distributions).items()}


def _iterations(study: Study) -> list[FrozenTrial]:
    """Finished SPSA iterations (completed trials that stored a step)."""
    return [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)) if STEP_KEY in t.system_attrs]


def _name_key(name: str) -> int:
    """A stable integer for a parameter name (Python's ``hash`` of a string changes between processes)."""
    return int.from_bytes(name.encode()[:16].ljust(16, b"\0"), "little") % (1 << 63)


def _clip01(x: float) -> float:
    return min(1.0, max(0.0, x))


def _normalise(value: float, dist: BaseDistribution) -> float:
    low, high, log = _bounds(dist)
    if high == low:
        return 0.0
    if log:
        return (math.log(value) - math.log(low)) / (math.log(high) - math.log(low))
    return (value - low) / (high - low)


def _denormalise(x: float, dist: BaseDistribution) -> Any:
    low, high, log = _bounds(dist)
    value = math.exp(math.log(low) + x * (math.log(high) - math.log(low))) if log else low + x * (high - low)
    if isinstance(dist, IntDistribution):
        return int(min(high, max(low, round(value))))
    return float(min(high, max(low, value)))


def _bounds(dist: BaseDistribution) -> tuple[float, float, bool]:
    if isinstance(dist, (FloatDistribution, IntDistribution)):
        return float(dist.low), float(dist.high), bool(dist.log)
    raise ValueError(f"SPSA needs numeric parameters; got {dist!r}")
