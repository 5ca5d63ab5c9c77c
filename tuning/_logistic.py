"""The logistic model of Texel's method: the cross-entropy of win probabilities and the scale that minimises it.

Private to :mod:`tuning`: :mod:`tuning.texel` fits weights with it, and the deep-search label source
(:mod:`tuning.label_sources`) calibrates its scores into probabilities with it.  It imports nothing of the tuner,
so both can use it.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import minimize_scalar


def cross_entropy(evals: np.ndarray, targets: np.ndarray, scale: float) -> float:
    """Mean cross-entropy of ``targets`` under ``sigmoid(evals / scale)`` (stable for any size of ``evals``)."""
    z = evals / scale
    return float(np.mean(targets * np.logaddexp(0.0, -z) + (1.0 - targets) * np.logaddexp(0.0, z)))


def fit_scale(evals: np.ndarray, targets: np.ndarray) -> float:
    """The scale that minimises the cross-entropy of fixed evaluations (a 1-D search over its logarithm)."""
    spread = float(np.max(np.abs(evals))) if evals.size else 0.0
    if spread == 0.0:
        return 1.0  # every evaluation is 0: any scale gives P = 1/2
    low, high = math.log(spread) - 25.0, math.log(spread) + 5.0
    found = minimize_scalar(lambda t: cross_entropy(evals, targets, math.exp(t)), bounds=(low, high), method="bounded",
                            options={"xatol": 1e-6})  # fmt: skip
    return math.exp(float(found.x))
