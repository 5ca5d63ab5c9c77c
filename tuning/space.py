"""What the tuner searches: a heuristic's weights within their bounds, the branching factor q and the depth.

A :class:`Candidate` is one point of that space plus the fixed settings of
the run (heuristic, the rest of its search budget, random moves); its search
settings are one :class:`search.budget.Limit`.  It turns into the agent spec
string the match workers build agents from (:meth:`Candidate.spec`) and into
a weight file (:meth:`Candidate.weight_file`).

Example:
    >>> from games import CONNECT4
    >>> space = SearchSpace.build(CONNECT4, "square_values", tune=("weights", "depth"), depth=(2, 6))
    >>> [p.name for p in space.params]
    ['scale', 'depth']
    >>> space.candidate({"scale": 2.0, "depth": 5}, Limit(nodes=1000)).spec()
    'alphabeta:heuristic=square_values,depth=5,nodes=1000,scale=2.0'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Optional, Sequence

import optuna

from games import KInARow
from heuristics import get_spec
from heuristics.weights import WeightFile
from search.budget import Limit

TUNABLE = ("weights", "branching", "depth")
"""What ``--tune`` may name."""


def agent_defaults(heuristic: str, game: KInARow) -> dict[str, float]:
    """The weights a plain ``alphabeta:heuristic=NAME`` agent plays on ``game``: the heuristic's registered defaults,
    under an engine's own table where one plays (the gomoku engine's tuned :data:`search.gomoku.ENGINE_WEIGHTS` on
    a free board with ``4 <= k <= 15``).  A tune starts there and the gauntlet plays them: an evaluator's defaults
    are what a user gets by naming it.

    Example:
        >>> from games import GOMOKU, CONNECT4
        >>> agent_defaults("gomoku", GOMOKU)["four"], agent_defaults("gomoku", CONNECT4)["four"]
        (142.3, 50.0)
    """
    from search.agents.alphabeta import engine_for

    entry = engine_for(game, heuristic)
    return {**get_spec(heuristic).defaults, **(dict(entry.default_weights) if entry is not None else {})}


@dataclass(frozen=True)
class Param:
    """One searched parameter: a weight (float, maybe log-scaled) or an integer setting."""

    name: str
    low: float
    high: float
    default: float
    log: bool = False
    integer: bool = False

    def distribution(self) -> optuna.distributions.BaseDistribution:
        """The Optuna distribution of this parameter."""
        if self.integer:
            return optuna.distributions.IntDistribution(int(self.low), int(self.high))
        return optuna.distributions.FloatDistribution(self.low, self.high, log=self.log)

    def suggest(self, trial: optuna.Trial) -> float:
        """Ask ``trial`` for a value."""
        if self.integer:
            return trial.suggest_int(self.name, int(self.low), int(self.high))
        return trial.suggest_float(self.name, self.low, self.high, log=self.log)


@dataclass(frozen=True)
class Candidate:
    """A full agent configuration: heuristic, complete weights, search budget and random moves."""

    heuristic: str
    weights: dict[str, float]
    limit: Limit = Limit()
    """The search budget (depth, q, nodes, time, radius)."""
    random_every: Optional[int] = None
    """A random move every N-th own move (agent behaviour, not part of the search budget)."""
    params: dict[str, float] = field(default_factory=dict)
    """The searched values this candidate came from (for tables)."""

    def spec(self) -> str:
        """The agent spec string (see :func:`search.agents.make_agent`); floats round-trip exactly.

        The budget's settings come in :data:`search.budget.FIELDS` order, with
        ``random_every`` before ``radius``: where the spec strings of earlier
        runs put it (studies compare their stored opponent specs on resume).
        """
        settings = {name: value for name, value in self.limit.to_dict().items() if name != "radius"}
        settings.update(random_every=self.random_every, radius=self.limit.radius)
        options = [f"heuristic={self.heuristic}"] + [f"{key}={value}" for key, value in settings.items() if value is not None]
        options += [f"{name}={value!r}" for name, value in self.weights.items()]
        return "alphabeta:" + ",".join(options)

    def weight_file(self, game: KInARow, provenance: Optional[dict[str, Any]] = None) -> WeightFile:
        """The candidate as a weight file (its search budget as the file's search section)."""
        return WeightFile(game, self.heuristic, dict(self.weights), self.limit.to_dict(), dict(provenance or {}))


def parse_bounds(text: Optional[str]) -> dict[str, tuple[float, float]]:
    """``"name=low:high,..."`` from the command line (raises ValueError naming the bad item)."""
    bounds: dict[str, tuple[float, float]] = {}
    for item in filter(None, (part.strip() for part in (text or "").split(","))):
        name, sep, rest = item.partition("=")
        low_text, colon, high_text = rest.partition(":")
        try:
            if not sep or not colon:
                raise ValueError
            bounds[name.strip()] = (float(low_text), float(high_text))
        except ValueError:
            raise ValueError(f"bound {item!r} must look like name=low:high, e.g. depth=2:6") from None
    return bounds


@dataclass(frozen=True)
class SearchSpace:
    """The parameters a run searches and the fixed settings every candidate shares."""

    game: KInARow
    heuristic: str
    params: tuple[Param, ...]
    default_depth: int
    default_branching: Optional[int]
    q_all: Optional[int]
    """The q value that stands for "all moves" (the top of the default range), or None."""

    @classmethod
    def build(
        cls,
        game: KInARow,
        heuristic: str,
        tune: Sequence[str] = TUNABLE,
        depth: tuple[int, int] = (1, 8),
        branching: tuple[int, int] = (2, 0),
        bounds: Optional[Mapping[str, tuple[float, float]]] = None,
        default_depth: int = 4,
        default_branching: Optional[int] = None,
    ) -> SearchSpace:
        """Build the space, checking every name and bound.

        Args:
            game, heuristic: what is tuned (the heuristic must cover the game).
            tune: any of ``weights``, ``branching``, ``depth``.
            depth: the depth range searched.
            branching: the q range; a high end of 0 means the default,
                the number of actions capped at 16, whose top value stands
                for "all moves" (q = None); a high end given here is a real q.
            bounds: ``{name: (low, high)}`` narrowing a weight's registered
                bounds or the depth / branching ranges.
            default_depth, default_branching: the start point (the baseline's settings).

        Raises:
            ValueError: unknown ``tune`` item or bound name, bounds with
                low >= high, outside the registered range, or not positive on
                a log-scaled weight; a heuristic that refuses the game.
        """
        spec = get_spec(heuristic)
        reason = spec.refuse(game)
        if reason is not None:
            raise ValueError(reason)
        unknown = sorted(set(tune) - set(TUNABLE))
        if unknown or not tune:
            raise ValueError(f"--tune {','.join(tune)!r}: choose from {', '.join(TUNABLE)}")
        bounds = dict(bounds or {})
        max_q = branching[1] or min(game.n_actions, 16)
        int_ranges = {"depth": (float(depth[0]), float(depth[1])), "branching": (float(branching[0]), float(max_q))}
        known = set(spec.weight_names) | set(int_ranges)
        bad = sorted(set(bounds) - known)
        if bad:
            raise ValueError(f"bounds for unknown parameter(s) {', '.join(map(repr, bad))}: "
                             f"known are {', '.join(spec.weight_names)}, depth, branching")  # fmt: skip
        params: list[Param] = []
        inert = sorted(w.name for w in spec.weights if not w.applies(game) and w.name in bounds)
        if inert:
            raise ValueError(f"bounds for weight(s) {', '.join(map(repr, inert))}, which cannot change an evaluation "
                             f"on {game}")  # fmt: skip
        if "weights" in tune:
            start = agent_defaults(heuristic, game)
            for weight in spec.weights:
                if not weight.applies(game):
                    continue  # it keeps its default: searching it would only add noise to the sampler
                low, high = bounds.get(weight.name, (weight.low, weight.high))
                _check_range(weight.name, low, high, (weight.low, weight.high), weight.log)
                params.append(Param(weight.name, low, high, min(max(start[weight.name], low), high), weight.log))
        for name, default in (("branching", default_branching or 10**9), ("depth", default_depth)):
            low, high = bounds.get(name, int_ranges[name])
            _check_range(name, low, high, (1.0, math.inf), False)
            if not (low == int(low) and high == int(high)):
                raise ValueError(f"bounds {name}={low}:{high} must be integers")
            if name in tune:
                params.append(Param(name, low, high, min(max(default, low), high), integer=True))
        q_all = int(max_q) if branching[1] == 0 and "branching" not in bounds else None
        return cls(game, heuristic, tuple(params), default_depth, default_branching, q_all)

    @property
    def names(self) -> tuple[str, ...]:
        """The searched parameters' names, in order."""
        return tuple(p.name for p in self.params)

    def defaults(self) -> dict[str, float]:
        """The start point: default weights, the baseline's depth and q."""
        return {p.name: (int(p.default) if p.integer else p.default) for p in self.params}

    def distributions(self) -> dict[str, optuna.distributions.BaseDistribution]:
        """Optuna distributions by parameter name."""
        return {p.name: p.distribution() for p in self.params}

    def suggest(self, trial: optuna.Trial) -> dict[str, float]:
        """Ask ``trial`` for every parameter."""
        return {p.name: p.suggest(trial) for p in self.params}

    def candidate(self, values: Mapping[str, float], budget: Limit = Limit(),
                  random_every: Optional[int] = None) -> Candidate:  # fmt: skip
        """The agent configuration of a point (parameters not searched keep the defaults).

        ``budget`` holds the run's fixed search settings (node or time budget,
        radius); the point's depth and q replace its own.

        Raises:
            LimitError: a depth or q the budget type refuses.
        """
        weights = agent_defaults(self.heuristic, self.game)
        weights.update({name: float(v) for name, v in values.items() if name in weights})
        depth = int(values.get("depth", self.default_depth))
        q = int(values["branching"]) if "branching" in values else self.default_branching
        all_moves = q is None or q >= self.game.n_actions or (self.q_all is not None and q >= self.q_all)
        branching = None if all_moves else q
        return Candidate(self.heuristic, weights, budget.replace(depth=depth, branching=branching), random_every,
                         dict(values))  # fmt: skip

    def with_defaults(self, depth: int, branching: Optional[int]) -> SearchSpace:
        """The same space starting from other depth / q defaults."""
        return replace(self, default_depth=depth, default_branching=branching)


def _check_range(name: str, low: float, high: float, allowed: tuple[float, float], log: bool) -> None:
    if not (math.isfinite(low) and math.isfinite(high)) or low >= high:
        raise ValueError(f"bounds {name}={low}:{high} make no sense: need finite low < high")
    if low < allowed[0] or high > allowed[1]:
        raise ValueError(f"bounds {name}={low}:{high} leave the allowed range [{allowed[0]}, {allowed[1]}]")
    if log and low <= 0:
        raise ValueError(f"bounds {name}={low}:{high}: a log-scaled weight needs low > 0")


def bounds_around(game: KInARow, heuristic: str, weights: Mapping[str, float], low: float = 0.5, high: float = 1.6,
                  floor: float = 10.0, scale: float = 1.0) -> str:  # fmt: skip
    """A ``--bounds`` text that narrows every weight the tuner searches on ``game`` to a box around ``weights``.

    A long run that starts from a tuned file gains little from sampling the
    whole registered range (most of it is far worse than the start and only
    costs pruned games); this box keeps the sampler near the start.  A weight
    ``x`` with ``|x| >= floor`` ranges over ``[low * x, high * x]``; a smaller
    one over ``[min(0, 2x), max(floor, 2x)]`` (a factor of a value near 0
    would pin it there).  Each range is clipped to the registered bounds and
    printed with 4 significant digits, the form ``--bounds`` reads back.

    ``scale`` multiplies every weight first.  A linear evaluator times a
    positive factor picks the same moves (every comparison in the search is
    between two evaluations, or against win scores the evaluation bound keeps
    clear), so a scale below 1 centres the box on the same player while
    giving weights that sit at their registered upper bound room to grow.

    Example:
        >>> from games import CONNECT4
        >>> bounds_around(CONNECT4, "square_values", {"scale": 1.0})
        'scale=0.01:10'

    Raises:
        ValueError: a factor that is not a finite number, ``0 < low < 1 < high`` does not hold, ``floor <= 0``,
            ``scale <= 0``, ``weights`` lacks a searched weight, or the scale puts a weight outside its
            registered range (each named, with what is allowed).
    """
    given = {"low": low, "high": high, "floor": floor, "scale": scale}
    for name, value in given.items():
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            raise ValueError(f"bounds_around: {name}={value!r} is not a finite number")
    if not (0 < low < 1 < high) or floor <= 0 or scale <= 0:
        raise ValueError(f"bounds_around needs 0 < low < 1 < high, floor > 0 and scale > 0; got low={low}, "
                         f"high={high}, floor={floor}, scale={scale}")  # fmt: skip
    items = []
    for weight in get_spec(heuristic).weights:
        if not weight.applies(game):
            continue  # not searched on this board (SearchSpace.build leaves it out and refuses bounds for it)
        if weight.name not in weights:
            raise ValueError(f"bounds_around: no value for weight {weight.name!r} of {heuristic!r}")
        x = scale * float(weights[weight.name])
        if not weight.low <= x <= weight.high:
            raise ValueError(f"bounds_around: scale={scale:g} puts {weight.name}={float(weights[weight.name]):g} at {x:.4g}, "
                             f"outside its registered range [{weight.low:g}, {weight.high:g}]: give a smaller scale")  # fmt: skip
        a, b = (min(low * x, high * x), max(low * x, high * x)) if abs(x) >= floor else (min(0.0, 2 * x), max(floor, 2 * x))
        a, b = max(weight.low, float(f"{a:.4g}")), min(weight.high, float(f"{b:.4g}"))
        if weight.log and a <= 0:
            a = weight.low if weight.low > 0 else x / 2  # a log-scaled range cannot reach 0
        items.append(f"{weight.name}={min(a, x):.4g}:{max(b, x):.4g}")
    return ",".join(items)

