"""Texel's method: fit an evaluator's weights to exact game values by logistic regression.

Model: the side to move wins with probability ``P = sigmoid(eval / scale)``,
where ``eval`` is the evaluator's score from the side to move; the target
is the solver's value of the position, 1 for a win, 0.5 for a draw, 0 for a
loss (:mod:`tuning.labels`).  The loss is the mean cross-entropy of the
targets under ``P`` (logistic regression with soft draw targets; Texel's
original uses the squared error, which has the same minimiser for a
well-specified model and flatter gradients when ``P`` saturates).

Decisions:

- **Scale.** As in Texel tuning, ``scale`` is fitted once, with the start
  weights (default: the heuristic's defaults), on the training positions,
  then held fixed while the weights move.  A free scale would make every
  weight vector's overall size meaningless (``eval / scale`` only sees the
  ratio); fixing it keeps the fitted weights in the units the search and the
  defaults use.  ``scale=`` skips the first step.
- **Parameters and bounds.** The optimiser (``scipy.optimize.minimize``,
  L-BFGS-B) moves ``ln w`` for weights the heuristic tunes on a log scale and
  ``w / (high - low)`` for the others, inside the heuristic's registered
  tuning bounds (:class:`heuristics.WeightSpec`).
- **Regularisation.** ``regularization * sum((theta - theta_default)^2)`` pulls
  every weight toward the heuristic's default, in those coordinates (a decade
  of a log weight, or the whole range of a linear one, costs one unit).  It
  keeps weights the data cannot see (e.g. ``f1_four``: a position that is
  not over holds no four) where they were, instead of wherever the optimiser
  stopped.
- **Held-out split.** The last ``heldout`` share of the positions, in the
  given order.  Label files are in game order, so the two parts share at most
  one game: held-out positions are not near-copies of training ones.
- **Linear evaluators.** If ``eval(w) = b + X w`` holds on the positions (checked
  on two random weight vectors), the features ``X`` are read once through the
  public :class:`heuristics.Evaluator` (one evaluation per unit weight vector)
  and the loss and its exact gradient are matrix products.  Any other
  evaluator is evaluated through :class:`Evaluator` at every step, with
  finite-difference gradients: slower, same answer.

Example:
    >>> from games import TIC_TAC_TOE
    >>> from tuning.labels import load_labels
    >>> fit = fit_weights(TIC_TAC_TOE, "square_values", load_labels(game=TIC_TAC_TOE).positions)
    >>> fit.loss_after <= fit.loss_before
    True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence, Union

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit

from games import KInARow, Position
from heuristics import Evaluator, WeightError, check_weights, get_spec
from heuristics.spec import HeuristicSpec
from search.agents.openings import canonical_key
from tuning._logistic import cross_entropy as cross_entropy  # re-exported: the fit API names them
from tuning._logistic import fit_scale as fit_scale
from tuning.labels import LabelledPosition, LabelSet, PathLike, load_labels

DEFAULT_REGULARIZATION = 1e-4
DEFAULT_HELDOUT = 0.2


@dataclass(frozen=True)
class FitResult:
    """What :func:`fit_weights` found, with the losses that judge it (mean cross-entropy, lower is better)."""

    heuristic: str
    weights: dict[str, float]
    """The fitted weights, every weight of the heuristic, inside its tuning bounds."""
    start: dict[str, float]
    scale: float
    """The logistic scale: ``P(win) = sigmoid(eval / scale)``."""
    loss_before: float
    """Training loss of the start weights."""
    loss_after: float
    """Training loss of the fitted weights."""
    heldout_before: float
    """Held-out loss of the start weights (nan without a held-out part)."""
    heldout_after: float
    """Held-out loss of the fitted weights (nan without a held-out part)."""
    train_size: int
    heldout_size: int
    linear: bool
    """Whether the linear fast path was used."""
    regularization: float
    iterations: int

    def summary(self) -> dict[str, Any]:
        """The numbers of the fit as a JSON-ready dict (the weight file's provenance)."""
        return {
            "scale": self.scale, "loss_before": self.loss_before, "loss_after": self.loss_after,
            "heldout_before": self.heldout_before, "heldout_after": self.heldout_after,
            "train_size": self.train_size, "heldout_size": self.heldout_size, "linear": self.linear,
            "regularization": self.regularization, "iterations": self.iterations,
        }  # fmt: skip


def targets_of(positions: Sequence[LabelledPosition]) -> np.ndarray:
    """The probability that the side to move wins: win 1, draw 0.5, loss 0 for exact labels."""
    return np.array([p.win_probability for p in positions], dtype=np.float64)


def with_children(game: KInARow, positions: Sequence[LabelledPosition],
                  exclude: Sequence[LabelledPosition] = ()) -> list[LabelledPosition]:  # fmt: skip
    """``positions`` and, after them, every position one legal move away that is not over, labelled by the
    exact value of that move (exact labels only: a position without move values adds nothing).

    A solver-labelled set holds the value of every move, so it labels the children too, for free: about
    seven times the data on Connect-4, and exactly the positions a search compares when it picks a move.
    A child that is one of ``exclude`` up to the board's symmetries (the held-out positions: on the
    Connect-4 set 10 of its 1,600 are children of training positions) is left out, so no fit sees them.
    """
    out = list(positions)
    seen = {p.moves for p in positions}
    kept_out = {canonical_key(game.position(p.moves)) for p in exclude}
    for labelled in positions:
        if not labelled.move_scores:
            continue
        position = game.position(labelled.moves)
        for move, score in labelled.move_scores.items():
            position.play(move)
            moves = position.move_string()
            if not position.is_terminal() and moves not in seen and canonical_key(position) not in kept_out:
                seen.add(moves)
                value = -((score > 0) - (score < 0))  # the child's side to move is the opponent
                out.append(LabelledPosition(moves, position.ply, -score, {}, (value + 1) / 2))
            position.undo()
    return out


class _Coordinates:
    """Maps weights to the optimiser's coordinates and back: ``ln w`` for log weights, ``w / (high - low)`` else."""

    def __init__(self, spec: HeuristicSpec) -> None:
        self.log = np.array([w.log for w in spec.weights])
        self.span = np.array([1.0 if w.log else (w.high - w.low) or 1.0 for w in spec.weights])
        low = np.array([w.low for w in spec.weights])
        high = np.array([w.high for w in spec.weights])
        self.bounds = list(zip(self.to_theta(low), self.to_theta(high)))

    def to_theta(self, w: np.ndarray) -> np.ndarray:
        return np.where(self.log, np.log(np.where(self.log, w, 1.0)), w / self.span)

    def to_weights(self, theta: np.ndarray) -> np.ndarray:
        return np.where(self.log, np.exp(np.where(self.log, theta, 0.0)), theta * self.span)

    def dweights(self, theta: np.ndarray) -> np.ndarray:
        """d w / d theta, per coordinate."""
        return np.where(self.log, self.to_weights(theta), self.span)


class _Evaluations:
    """Evaluations of fixed positions for any weight vector: linear fast path when it is exact."""

    def __init__(self, game: KInARow, heuristic: str, positions: Sequence[Position]) -> None:
        self.game, self.heuristic, self.positions = game, heuristic, positions
        self.names = get_spec(heuristic).weight_names
        zero = self.generic(np.zeros(len(self.names)))
        columns = [self.generic(np.eye(len(self.names))[i]) - zero for i in range(len(self.names))]
        self.offset, self.features = zero, np.stack(columns, axis=1) if columns else np.zeros((len(positions), 0))
        self.linear = self._check_linear()

    def generic(self, weights: np.ndarray) -> np.ndarray:
        evaluator = Evaluator(self.heuristic, self.game, dict(zip(self.names, map(float, weights))))
        return np.array([evaluator.evaluate(p) for p in self.positions], dtype=np.float64)

    def _check_linear(self) -> bool:
        rng = np.random.default_rng(0)
        for _ in range(2):
            weights = rng.uniform(0.5, 2.0, len(self.names)) * np.array([max(abs(d), 1.0) for d in self._defaults()])
            exact, linear = self.generic(weights), self.offset + self.features @ weights
            if not np.allclose(exact, linear, rtol=1e-9, atol=1e-9 * (1.0 + float(np.max(np.abs(exact), initial=0.0)))):
                return False
        return True

    def _defaults(self) -> list[float]:
        return list(get_spec(self.heuristic).defaults.values())

    def __call__(self, weights: np.ndarray) -> np.ndarray:
        return self.offset + self.features @ weights if self.linear else self.generic(weights)


def _split(count: int, heldout: float) -> int:
    """How many positions train (the rest, at the end, are held out)."""
    if not 0.0 <= heldout < 1.0:
        raise ValueError(f"heldout={heldout!r} must be a share in [0, 1)")
    return count - int(round(count * heldout + 1e-9))


def _start_weights(heuristic: str, start: Optional[Mapping[str, float]]) -> np.ndarray:
    spec = get_spec(heuristic)
    weights = check_weights(heuristic, {**spec.defaults, **(start or {})})
    for w in spec.weights:
        if not w.low <= weights[w.name] <= w.high:
            raise WeightError(f"start weight {w.name}={weights[w.name]!r} is outside its tuning bounds [{w.low}, {w.high}]")
    return np.array(list(weights.values()))


def fit_weights(game: KInARow, heuristic: str, positions: Union[LabelSet, Sequence[LabelledPosition]], *,
                start: Optional[Mapping[str, float]] = None, targets: Optional[Sequence[float]] = None,
                scale: Optional[float] = None, regularization: float = DEFAULT_REGULARIZATION,
                heldout: Optional[float] = None, children: bool = False, prior: Optional[Mapping[str, float]] = None,
                max_iter: int = 500) -> FitResult:  # fmt: skip
    """Fit ``heuristic``'s weights on labelled positions of ``game`` (Texel's method; see the module docstring).

    Args:
        game: the game of the positions.
        heuristic: a registered evaluator name.
        positions: labelled positions (a :class:`LabelSet` or its ``positions``).
        start: start weights by name (the rest: defaults); the scale is fitted with them.
        targets: replace the exact values as targets (one probability per position), e.g. synthetic labels.
        scale: use this logistic scale instead of fitting it.
        regularization: strength of the pull toward the defaults, or toward ``prior`` (0: none).
        heldout: share of the positions, at the end, kept out of the fit to judge it (default: a label set's own
            split, :attr:`tuning.labels.LabelSet.heldout_count`; for a plain sequence :data:`DEFAULT_HELDOUT`).
        children: also fit the training positions' children, labelled by their exact move values
            (:func:`with_children`; exact sets only).  The held-out positions stay as they are.
        prior: the weights the regularisation pulls toward (default: the heuristic's defaults); a tuned file's
            weights keep a refit near a player known to be strong.
        max_iter: L-BFGS-B iterations at most.

    Raises:
        ValueError: empty positions, a bad share, scale or regularisation, targets of the wrong length,
            start weights outside the tuning bounds, or a heuristic that refuses ``game``.
    """
    items = positions.positions if isinstance(positions, LabelSet) else tuple(positions)
    if not items:
        raise ValueError("no positions to fit on")
    y = targets_of(items) if targets is None else np.asarray(targets, dtype=np.float64)
    if y.shape != (len(items),) or not np.all((y >= 0) & (y <= 1)):
        raise ValueError(f"targets must be {len(items)} probabilities in [0, 1]")
    if heldout is None and isinstance(positions, LabelSet):
        train = len(items) - positions.heldout_count
    else:
        train = _split(len(items), DEFAULT_HELDOUT if heldout is None else heldout)
    if children:
        if targets is not None:
            raise ValueError("children=True labels the children from the move values: give no targets")
        grown = with_children(game, items[:train], exclude=items[train:])
        items, y = tuple(grown) + items[train:], np.concatenate([targets_of(grown), y[train:]])
        train = len(grown)
    if scale is not None and not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"scale={scale!r} must be a positive number")
    if not (math.isfinite(regularization) and regularization >= 0):
        raise ValueError(f"regularization={regularization!r} must be a non-negative number")
    spec, w0 = get_spec(heuristic), _start_weights(heuristic, start)
    evaluations = _Evaluations(game, heuristic, [game.position(p.moves) for p in items])
    coords = _Coordinates(spec)
    fixed_scale = scale if scale is not None else fit_scale(evaluations(w0)[:train], y[:train])
    prior_weights = check_weights(heuristic, {**spec.defaults, **(prior or {})})
    prior_theta = coords.to_theta(np.array([prior_weights[name] for name in spec.weight_names]))

    def objective(theta: np.ndarray) -> Any:
        weights = coords.to_weights(theta)
        evals = evaluations(weights)[:train]
        loss = cross_entropy(evals, y[:train], fixed_scale) + regularization * float(np.sum((theta - prior_theta) ** 2))
        if not evaluations.linear:
            return loss
        residual = expit(evals / fixed_scale) - y[:train]
        gradient = evaluations.features[:train].T @ residual / (train * fixed_scale) * coords.dweights(theta)
        return loss, gradient + 2.0 * regularization * (theta - prior_theta)

    found = minimize(objective, coords.to_theta(w0), jac=evaluations.linear, method="L-BFGS-B", bounds=coords.bounds,
                     options={"maxiter": max_iter})  # fmt: skip
    fitted = np.clip(coords.to_weights(found.x), [w.low for w in spec.weights], [w.high for w in spec.weights])
    before, after = evaluations(w0), evaluations(fitted)

    def held(evals: np.ndarray) -> float:
        return cross_entropy(evals[train:], y[train:], fixed_scale) if train < len(items) else math.nan

    return FitResult(
        heuristic, dict(zip(spec.weight_names, map(float, fitted))), dict(zip(spec.weight_names, map(float, w0))),
        fixed_scale, cross_entropy(before[:train], y[:train], fixed_scale),
        cross_entropy(after[:train], y[:train], fixed_scale), held(before), held(after), train, len(items) - train,
        evaluations.linear, regularization, int(found.nit),
    )  # fmt: skip


def warm_start_weights(game: KInARow, heuristic: str, data: Optional[PathLike] = None,
                       start: Optional[Mapping[str, float]] = None) -> dict[str, float]:  # fmt: skip
    """Weights fitted to the training part of a label set (default: the one :func:`tuning.labels.find_labels`
    finds for ``game``, shipped or cached): a tuner's warm start, the fit ``python -m tuning.run`` makes (an exact
    set's training positions with their children, as ``python -m tuning.fit`` does by default).

    Every weight of ``heuristic`` is returned, inside its tuning bounds.

    Raises:
        tuning.labels.LabelFileError: no label set for ``game`` (or a bad file).
        ValueError: as :func:`fit_weights`.
    """
    labels = load_labels(data, game)
    return fit_weights(game, heuristic, labels, start=start, children=labels.exact).weights
