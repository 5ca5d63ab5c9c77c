"""The tuner's settings as one typed, validated value (:class:`TuneConfig`).

``python -m tuning.run`` builds it from its command line; scripts (a sampler
study, a notebook) build it directly and call :func:`tuning.run.tune`.  Every
check happens here, once, with the command-line spelling of the option in
the message, so a bad value fails before any file is written or game played.

Example:
    >>> config = TuneConfig(heuristic="square_values", trials=5, pairs=10, nodes=300)
    >>> config.budget_nodes, config.sampler_name, config.pruner_name
    (300, 'spsa', 'wilcoxon')
    >>> TuneConfig(pairs=0)
    Traceback (most recent call last):
    ...
    ValueError: --pairs 0 must be an integer of at least 1
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Mapping, Optional

from tuning.match import MAX_PAIRS, check_count, max_workers
from tuning.samplers import SAMPLERS
from tuning.space import TUNABLE

MODES = ("fair", "pareto")
PRUNERS = ("wilcoxon", "median", "none")
DEFAULT_STORAGE = "sqlite:///runs/tuning.db"
WARM_STARTS = ("auto", "fit", "none")
GAUNTLETS = ("all", "defaults")
LABEL_SOURCES = ("auto", "solver", "search", "selfplay")
DEFAULT_LABEL_BUDGET = 240.0
"""Seconds a run may spend making labels for a board that has none (shipped or cached)."""
QUICK = {"trials": 6, "pairs": 12, "confirm_top": 1, "confirm_pairs": 6, "incumbent_pairs": 60, "label_budget": 0.0}
"""``--quick``: a look at the pipeline within a minute (the values an explicit option does not override)."""
MAX_TRIALS = 1_000_000
"""The most trials a study may aim at (each is at least one pair of games; a million is months)."""


@dataclass(frozen=True)
class TuneConfig:
    """Everything a tuning run is asked to do (see ``python -m tuning.run --help`` for each field).

    Attributes:
        game, rows, cols, k: the game (``connect4`` or ``mnk``; sizes default to the preset's).
        exact_k: the exact-k rule (an overline does not win).
        heuristic: the evaluator to tune (default ``threats``).
        baseline: one weight file or agent spec the candidates play (a one-member gauntlet).
        opponents: the gauntlet: weight files and agent specs the candidates play in turn (default:
            :func:`tuning.gauntlet.default_gauntlet`, every shipped evaluator and tuned file).
        tune: what to tune, any of ``weights``, ``branching``, ``depth``.
        mode: ``fair`` (same node budget for both sides) or ``pareto`` (score vs nodes per move).
        nodes: the node budget per move in fair mode.
        depth_range: the depths searched, ``(low, high)``.
        bounds: narrower bounds, ``"name=low:high,..."``.
        random_every: both sides play a random move every N-th move.
        radius: m,n,k: consider only cells within this distance of a stone.
        trials: the study's target of finished trials (all runs and workers together).
        timeout: stop starting trials after this many seconds.
        pairs: game pairs per trial, at most.
        sampler, pruner: by name (``sampler`` None: spsa in fair mode, nsga2 in pareto mode).
        storage, study: the Optuna storage URL and study name (default ``<game>-<heuristic>-<mode>``).
        seed: seeds openings, games and a fresh study's sampler.
        workers: match worker processes (None: all cores).
        plies: random plies per opening.
        confirm_top, confirm_pairs: trials replayed on held-out openings, and pairs each.
        out, run_dir: the exported weight file and the run folder (defaults under ``runs/<study>``).
        progress: show a progress bar.
        warm_start: ``auto`` (fit wherever labels exist or can be made within ``label_budget``), ``fit`` (a fit
            or an error before any opening is drawn) or ``none``: the weights fitted to the board's labelled
            positions by Texel's method are queued after the defaults, the search looks in a box around them
            and SPSA and CMA-ES start from them (:mod:`tuning._setup`).
        labels: a label file to fit to (None: the board's shipped or cached set, made if missing).
        label_source: how missing labels are made: ``auto`` (:func:`tuning.label_sources.default_source`),
            ``solver``, ``search`` or ``selfplay``.
        label_budget: seconds the run may spend making missing labels (0: only existing sets are used).
        confirm_fit: confirm the fit's trial too, besides the ``confirm_top`` best of the search (a sampler study
            turns it off to measure the search alone).
        gauntlet: ``all`` (every evaluator's defaults and every shipped tuned file) or ``defaults`` (no tuned file).
        quick: a quick look (``--quick``): :data:`QUICK`'s values where no option was given, its own study.
        incumbent: the weight file a result must beat to be called an improvement (``"none"``: no such
            test; ``"defaults"``: the tuned evaluator's defaults); None: the shipped
            ``weights/<game>-<heuristic>-tuned.json`` when there is one, else the evaluator's defaults.
        incumbent_pairs: the cap of the SPRT against the incumbent, in pairs.
        incumbent_sprt: that SPRT's bounds in normalised Elo, ``(elo0, elo1)``.
    """

    game: str = "connect4"
    rows: Optional[int] = None
    cols: Optional[int] = None
    k: Optional[int] = None
    exact_k: bool = False
    heuristic: Optional[str] = None
    baseline: Optional[str] = None
    opponents: Optional[tuple[str, ...]] = None
    tune: tuple[str, ...] = TUNABLE
    mode: str = "fair"
    nodes: int = 1000
    depth_range: tuple[int, int] = (1, 8)
    bounds: Optional[str] = None
    random_every: Optional[int] = None
    radius: Optional[int] = None
    trials: int = 60
    timeout: Optional[float] = None
    pairs: int = 80
    sampler: Optional[str] = None
    pruner: str = "wilcoxon"
    storage: str = DEFAULT_STORAGE
    study: Optional[str] = None
    seed: int = 0
    workers: Optional[int] = None
    plies: int = 4
    confirm_top: int = 2
    confirm_pairs: int = 120
    out: Optional[Path] = None
    run_dir: Optional[Path] = None
    progress: bool = True
    warm_start: str = "auto"
    labels: Optional[str] = None
    label_source: str = "auto"
    label_budget: float = DEFAULT_LABEL_BUDGET
    confirm_fit: bool = True
    gauntlet: str = "all"
    quick: bool = False
    incumbent: Optional[str] = None
    incumbent_pairs: int = 1000
    incumbent_sprt: tuple[float, float] = (0.0, 5.0)

    def __post_init__(self) -> None:
        for name, low in (("trials", 1), ("pairs", 1), ("nodes", 1), ("confirm_pairs", 1), ("confirm_top", 1),
                          ("plies", 0), ("workers", 1), ("random_every", 1), ("radius", 0), ("incumbent_pairs", 1)):  # fmt: skip
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < low):
                raise ValueError(f"{_flag(name)} {value!r} must be an integer of at least {low}")
        if self.baseline is not None and self.opponents is not None:
            raise ValueError("give --baseline (one opponent) or --opponents (a gauntlet), not both")
        if self.opponents is not None and not self.opponents:
            raise ValueError("--opponents needs at least one weight file or agent spec")
        if self.timeout is not None and not (math.isfinite(self.timeout) and self.timeout > 0):
            raise ValueError(f"--timeout {self.timeout!r} must be a positive number of seconds")
        if not (isinstance(self.label_budget, (int, float)) and math.isfinite(self.label_budget) and self.label_budget >= 0):
            raise ValueError(f"--label-budget {self.label_budget!r} must be a number of seconds, 0 or more")
        for name, high in (("pairs", MAX_PAIRS), ("confirm_pairs", MAX_PAIRS), ("incumbent_pairs", MAX_PAIRS),
                           ("trials", MAX_TRIALS), ("workers", max_workers())):  # fmt: skip
            check_count(_flag(name), getattr(self, name), high)
        elo0, elo1 = self.incumbent_sprt
        if not (math.isfinite(elo0) and math.isfinite(elo1) and elo0 < elo1):
            raise ValueError(f"--incumbent-sprt {elo0:g},{elo1:g}: need finite elo0 < elo1, e.g. 0,5")
        low, high = self.depth_range
        if not 1 <= low < high:
            raise ValueError(f"--depth-range {low},{high} must satisfy 1 <= low < high")
        unknown = [t for t in self.tune if t not in TUNABLE]
        if unknown or not self.tune:
            raise ValueError(f"--tune {','.join(self.tune)!r}: choose one or more of {', '.join(TUNABLE)}")
        for name, value, allowed in (("mode", self.mode, MODES), ("pruner", self.pruner, PRUNERS),
                                     ("sampler", self.sampler, SAMPLERS), ("warm-start", self.warm_start, WARM_STARTS),
                                     ("gauntlet", self.gauntlet, GAUNTLETS), ("label-source", self.label_source, LABEL_SOURCES)):  # fmt: skip
            if value is not None and value not in allowed:
                raise ValueError(f"--{name} {value!r}: choose from {', '.join(allowed)}")

    @property
    def budget_nodes(self) -> Optional[int]:
        """The node budget both sides search to (fair mode), or None (pareto mode searches to a depth)."""
        return self.nodes if self.mode == "fair" else None

    @property
    def sampler_name(self) -> str:
        """The sampler to use: ``sampler``, else spsa (fair) or nsga2 (pareto).

        SPSA by default in fair mode: around the fit on Connect-4 7x8, eight seeds a sampler at the same game
        budget, its confirmed result was the steadiest (+133 Elo over the ``threats`` defaults on average, seeds
        from +110 to +166; TPE +100, from +19 to +205; the spread differs at p = 0.01, the means do not
        significantly; the tuning guide's sampler table).
        """
        return self.sampler or ("spsa" if self.mode == "fair" else "nsga2")

    @property
    def pruner_name(self) -> str:
        """The pruner to use (pareto mode never prunes: two objectives)."""
        return self.pruner if self.mode == "fair" else "none"

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> TuneConfig:
        """A config from parsed command-line options (argparse's ``vars(namespace)``): known fields only.

        With ``quick`` set, :data:`QUICK` fills the options that were not given.
        """
        names = {f.name for f in fields(cls)}
        given = {k: v for k, v in options.items() if k in names and v is not None}
        if given.get("quick"):
            given = {**QUICK, **given}
        return cls(**given)


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def parse_depth_range(text: str) -> tuple[int, int]:
    """``"low,high"`` from the command line (raises ValueError naming the text otherwise)."""
    try:
        low, high = (int(x) for x in text.split(","))
    except ValueError:
        raise ValueError(f"--depth-range {text!r} must be two integers 'low,high'") from None
    return low, high


def parse_tune(text: str) -> tuple[str, ...]:
    """``"weights,depth"`` from the command line."""
    return tuple(filter(None, (x.strip() for x in text.split(","))))
