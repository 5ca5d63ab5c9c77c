"""A tuning run's pieces, built and checked before any game: game, search space, gauntlet, labels, fit, openings.

Private to :mod:`tuning.run`.  The order is the user's, not the code's:
everything that can be wrong is checked first (one-line errors, nothing
written); then the run says what it will do and roughly how long the slow
parts take (making labels, the fit); then it makes or reuses the labels,
fits, and draws (or reuses) the openings.

**The fit first.**  Texel's fit of the evaluator to labelled positions gave
the shipped Connect-4 file most of its gain (+124 Elo over the ``threats``
defaults, where self-play search around it added nothing measurable), so a
run fits wherever it can (``--warm-start auto``): to the board's shipped
label set, to one made earlier and kept in the cache, or to one it makes
within ``--label-budget`` seconds (:mod:`tuning.labels`).  The fit is queued
after the defaults, and the search looks in a box around it
(:func:`tuning.space.bounds_around`, unless ``--bounds`` names another),
where CMA-ES and SPSA also start.  The fitted point is stored with the
study, so a resumed run neither makes labels nor fits again.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping, Optional

import optuna

from games import KInARow, make_game
from heuristics import get_spec
from heuristics.defaults import game_tag
from search.agents import make_agent
from search.agents.openings import SPREAD_CELLS
from search.agents.spec import weight_file_of
from search.alphabeta.engine import uses_bitboards
from search.budget import Limit, load_weight_file
from tuning._incumbent import Incumbent, find_incumbent
from tuning._study import check_url, check_writable, create_or_load, open_storage, sampler_seed
from tuning.config import TuneConfig
from tuning.gauntlet import WEIGHTS_DIR, default_gauntlet, member_spec
from tuning.label_sources import strongest_default
from tuning.match import default_workers
from tuning.openings import OpeningBook, cached_openings
from tuning.progress import say
from tuning.samplers import make_sampler
from tuning.space import Candidate, SearchSpace, agent_defaults, bounds_around, parse_bounds

TUNED_HEURISTIC = "threats"
"""The evaluator tuned by default on Connect-4 and small m,n,k boards: the strongest there, with the capacity for it
(27 weights); where the gomoku engine plays (a free board with ``4 <= k <= 15``) its pattern table, ``gomoku``, the
strongest there (:func:`tuning.label_sources.strongest_default`)."""


@dataclass(frozen=True)
class Setup:
    """Everything the run needs, checked before any game is played.

    Attributes:
        config: what was asked.
        game: the game.
        space: the searched parameters.
        opponents: the agent specs every candidate plays in turn (a gauntlet; one for ``--baseline``).
        book: the tuning and held-out openings.
        study_name: the study's name (``config.study`` or derived).
        run_dir: the run folder; out: the weight file to export.
        storage: the open Optuna storage.
        warm: the warm-start point (fitted weights, the rest at their defaults), or None.
        incumbent: the file a result must beat (:mod:`tuning._incumbent`), or None.
    """

    config: TuneConfig
    game: KInARow
    space: SearchSpace
    opponents: tuple[str, ...]
    book: OpeningBook
    study_name: str
    run_dir: Path
    out: Path
    storage: optuna.storages.BaseStorage
    warm: Optional[dict[str, float]] = None
    incumbent: Optional[Incumbent] = None
    fit: Optional[dict[str, Any]] = None
    """What the warm start was fitted to and how well (labels, losses), for the summary and the provenance."""

    @property
    def start(self) -> dict[str, float]:
        """SPSA's starting theta: the warm start if asked for, else the incumbent's point, else the defaults."""
        if self.warm is not None:
            return self.warm
        return dict(self.incumbent.point) if self.incumbent is not None else self.space.defaults()

    def candidate(self, params: Mapping[str, Any]) -> Candidate:
        """The candidate of a point of the space, with the run's fixed settings (budget, random moves, radius)."""
        return self.space.candidate(params, _budget(self.config), self.config.random_every)


def _budget(config: TuneConfig, depth: Optional[int] = None) -> Limit:
    """The search budget every agent of the run shares: the node budget (fair mode) and the radius, and ``depth``."""
    return Limit(depth=depth, nodes=config.budget_nodes, radius=config.radius)


def prepare(config: TuneConfig) -> Setup:
    """Check everything and build the run's pieces; raises ValueError (or a domain error) with a one-line message."""
    game = make_game(config.game, config.rows, config.cols, config.k, exact_k=config.exact_k)
    heuristic = config.heuristic or strongest_default(game)
    get_spec(heuristic)  # unknown heuristic: the registry's error lists the known ones
    opponents, depth, branching = _opponents(config, game, heuristic)
    space = SearchSpace.build(game, heuristic, config.tune, config.depth_range, bounds=parse_bounds(config.bounds),
                              default_depth=depth, default_branching=branching)  # fmt: skip
    study = config.study or f"{game_tag(game)}-{heuristic}-{config.mode}" + ("-quick" if config.quick else "")
    if not re.fullmatch(r"[A-Za-z0-9_.\-]+", study):
        raise ValueError(f"--study {study!r}: use letters, digits, '.', '_' and '-' only (it names the run folder)")
    run_dir = Path(config.run_dir or Path("runs") / study)
    # never into weights/ by default: a first run must not overwrite the shipped, tracked files
    out = Path(config.out or run_dir / f"{game_tag(game)}-{heuristic}-tuned.json")
    for path in (out, run_dir / "summary.md"):
        check_writable(path)
    start = space.candidate(space.defaults(), _budget(config), config.random_every)
    make_agent(start.spec(), game)  # budgets out of range fail here, before the study exists
    incumbent = find_incumbent(config.incumbent, game, heuristic, space, _budget(config, config.depth_range[1]),
                               config.random_every, defaults=config.baseline is None and config.opponents is None)  # fmt: skip
    storage = _early_storage(config.storage)
    stored = _stored_fit(storage, study)
    plan = None if stored is not None else plan_labels(config, game, heuristic)  # a missing set fails here, early
    if plan is not None:
        say(plan.describe())
    warm, fit = (stored["point"], stored.get("fit")) if stored is not None else _warm_start(config, space, game, plan)
    if warm is not None and config.bounds is None:
        space = _around(space, warm, space.defaults(), *([incumbent.point] if incumbent is not None else []))
    book = _book(config, game, run_dir)
    storage = storage or open_storage(config.storage)
    return Setup(config, game, space, opponents, book, study, run_dir, out, storage, warm, incumbent, fit)


WARM_KEY = "warm start"
"""Study attribute holding the fitted point and its record: a resumed run reads it instead of fitting again."""


def _early_storage(url: str) -> Optional[optuna.storages.BaseStorage]:
    """The storage, opened now if it exists (a server, or an SQLite file already there); None for an SQLite file
    still to be made, after checking it can be (so a run stopped before its first trial leaves no empty database)."""
    check_url(url)
    if url.startswith("sqlite:///"):
        path = Path(url[len("sqlite:///") :].split("?", 1)[0])
        if str(path) not in ("", ":memory:") and not path.exists():
            check_writable(path)
            return None
    storage = open_storage(url)
    storage.get_all_studies()  # reachable? (before any file is written or game played)
    return storage


def _stored_fit(storage: Optional[optuna.storages.BaseStorage], name: str) -> Optional[dict[str, Any]]:
    """The warm start a study was created with (``{"point": ..., "fit": ...}``), or None (no study, or none fitted)."""
    if storage is None:
        return None
    try:
        study = optuna.load_study(study_name=name, storage=storage)
    except KeyError:  # no such study yet
        return None
    stored = study.user_attrs.get(WARM_KEY)
    return stored if isinstance(stored, dict) and isinstance(stored.get("point"), dict) else None


def _warm_start(config: TuneConfig, space: SearchSpace, game: KInARow,
                plan: Optional[LabelPlan]) -> tuple[Optional[dict[str, float]], Optional[dict[str, Any]]]:  # fmt: skip
    """The start point with the weights Texel's method fits to the board's labels, and the fit's record."""
    if plan is None or plan.action == "skip":
        return None, None
    from tuning.texel import fit_weights

    labels = plan.obtain(config)
    children = labels.exact  # exact move values label every child too: seven times the data, the moves a search weighs
    more = " and their children" if children else ""
    say(f"fitting {space.heuristic}'s weights to {len(labels.train):,} labelled positions{more} (Texel's method) ...")
    started = time.perf_counter()
    start = {k: v for k, v in agent_defaults(space.heuristic, game).items()}
    result = fit_weights(game, space.heuristic, labels, children=children, start=start)
    point = space.defaults()
    for param in space.params:
        if param.name in result.weights:  # inside the space's bounds, which --bounds may have narrowed
            point[param.name] = min(max(float(result.weights[param.name]), param.low), param.high)
    say(f"fit ready in {time.perf_counter() - started:.0f} s: held-out loss {result.heldout_before:.4f} (defaults) -> "
        f"{result.heldout_after:.4f} on {result.heldout_size:,} positions it was not fitted to")  # fmt: skip
    record = {"labels": plan.describe_set(labels), "source": labels.source, "positions": len(labels.positions),
              "train": result.train_size, "children": children, "heldout": labels.heldout_count,
              "scale": _json_number(result.scale), "heldout_before": _json_number(result.heldout_before),
              "heldout_after": _json_number(result.heldout_after)}  # fmt: skip
    return point, record


def _json_number(x: float) -> Optional[float]:
    """``x`` rounded for a JSON record, or None where it is not finite (a set without a held-out part)."""
    return round(x, 6) if math.isfinite(x) else None


def _around(space: SearchSpace, warm: Mapping[str, float], *also: Mapping[str, float]) -> SearchSpace:
    """``space`` with its weights narrowed to a box around the fit (:func:`tuning.space.bounds_around`: half to
    twice each weight), stretched to hold the points in ``also`` (the defaults, the incumbent), so every queued
    start point lies inside the space the sampler models."""
    weights = agent_defaults(space.heuristic, space.game)
    weights.update({k: float(v) for k, v in warm.items() if k in weights})
    box = parse_bounds(bounds_around(space.game, space.heuristic, weights, low=0.5, high=2.0))
    params = []
    for p in space.params:
        if p.name not in box:
            params.append(p)
            continue
        low, high = box[p.name]
        for point in also:
            if p.name in point:
                low, high = min(low, float(point[p.name])), max(high, float(point[p.name]))
        low, high = max(low, p.low), min(high, p.high)
        params.append(replace(p, low=low, high=high, default=min(max(p.default, low), high)))
    return replace(space, params=tuple(params))


@dataclass(frozen=True)
class LabelPlan:
    """What the run does for its fit: use a label set, make one within a budget, or skip the fit (and why)."""

    game: KInARow
    action: str
    """``"use"``, ``"make"`` or ``"skip"``."""
    path: Path
    source: str = ""
    seconds: float = 0.0
    workers: int = 1
    reason: str = ""

    def describe(self) -> str:
        """The line the run says before it does it."""
        if self.action == "use":
            return f"fit: to the labelled positions in {_shown(self.path)} (Texel's method, a few seconds)"
        if self.action == "make":
            return (f"fit: {self.game} has no labelled positions yet; making them with the {self.source} source for "
                    f"{self.seconds:.0f} s on {self.workers} worker(s) (--label-budget), kept in {_shown(self.path)} "
                    "for later runs, then fitting (a few seconds)")  # fmt: skip
        return f"fit: none ({self.reason})"

    def describe_set(self, labels: Any) -> str:
        """How the summary names the set."""
        return f"{_shown(self.path)} ({labels.source}, {len(labels.positions):,} positions, {labels.heldout_count:,} held out)"

    def obtain(self, config: TuneConfig) -> Any:
        """The label set: read, or made (and kept in the cache) within the budget."""
        from tuning.labels import load_labels, make_labels

        if self.action == "use":
            return load_labels(self.path, self.game)
        from tuning.label_sources import make_source

        options: dict[str, Any] = {} if self.source == "solver" else {"nodes": config.nodes}
        source = make_source(self.source, self.game, **options)
        command = f"python -m tuning.run (labels for its fit, {self.seconds:.0f} s)"
        return make_labels(self.game, source, count=None, seconds=self.seconds, seed=config.seed, heldout=0.2,
                           out=self.path, command=command, workers=self.workers, report=say)  # fmt: skip


def _shown(path: Path) -> str:
    """A path as messages show it: a shipped set by its package path, else relative to the working folder when
    inside it, with ``~`` for the home folder."""
    from tuning.labels import DATA_DIR

    if path.resolve().parent == DATA_DIR.resolve():
        return f"the shipped tuning/data/{path.name}"
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        home = str(Path.home())
        return "~" + str(path)[len(home) :] if str(path).startswith(home + "/") else str(path)


def plan_labels(config: TuneConfig, game: KInARow, heuristic: str) -> LabelPlan:
    """Decide, before anything is drawn or written, what the fit will use; a fit that cannot be had is an error
    here when ``--warm-start fit`` asks for one (one line naming the boards with labels and the command that
    makes them).

    Raises:
        ValueError: ``--labels FILE`` missing or for another board, or ``--warm-start fit`` without labels and
            without a budget to make them.
    """
    from tuning.label_sources import default_source, make_source
    from tuning.labels import cache_path, find_labels, load_labels, missing_message

    if config.warm_start == "none":
        return LabelPlan(game, "skip", Path(), reason="--warm-start none")
    if config.mode != "fair":
        return LabelPlan(game, "skip", Path(), reason="pareto mode searches the whole space")
    if config.labels is not None:
        path = Path(config.labels)
        if not path.is_file():
            raise ValueError(f"--labels {missing_message(path, game)}")
        load_labels(path, game)  # another board's set, or a damaged file: one line, now
        return LabelPlan(game, "use", path)
    name = default_source(game) if config.label_source == "auto" else config.label_source
    found = find_labels(game, [name] if config.label_source != "auto" else None)
    if found is not None:
        return LabelPlan(game, "use", found)
    try:
        make_source(name, game, **({} if name == "solver" else {"nodes": config.nodes}))
        why = "" if config.label_budget > 0 else "--label-budget 0 (only existing sets are used)"
    except ValueError as error:
        why = str(error)
    if why:
        if config.warm_start == "fit":
            raise ValueError(f"--warm-start fit: {why}. {missing_message(cache_path(game, name), game)}")
        return LabelPlan(game, "skip", Path(), reason=f"no labels for {game}; {why}")
    workers = config.workers or default_workers()
    return LabelPlan(game, "make", cache_path(game, name), name, config.label_budget, workers)


def _opponents(config: TuneConfig, game: KInARow, heuristic: str) -> tuple[tuple[str, ...], int, Optional[int]]:
    """(opponent specs, start depth, start q): the start point of the search takes a lone baseline's settings.

    Opponents search like the candidates: in fair mode every move until the
    node budget is spent (depth only capped by the top of the depth range),
    so the budget binds both sides and a candidate cannot win by spending
    more nodes; in pareto mode to depth 4, the paper's depth.  The default is
    the gauntlet of :func:`tuning.gauntlet.default_gauntlet`.
    """
    depth = config.depth_range[1] if config.mode == "fair" else 4
    budget = _budget(config, depth)
    if config.baseline is not None:
        spec, start_depth, branching = _baseline(config, game)
        return (spec,), start_depth, branching
    if config.opponents is not None:
        return tuple(member_spec(o, game, budget, config.random_every) for o in config.opponents), depth, None
    shipped = WEIGHTS_DIR if config.gauntlet == "all" else None
    return tuple(default_gauntlet(game, budget, config.random_every, weights_dir=shipped)), depth, None


def _baseline(config: TuneConfig, game: KInARow) -> tuple[str, int, Optional[int]]:
    """(baseline agent spec, its depth, its q) for ``--baseline``: a weight file starts the search at its settings."""
    assert config.baseline is not None
    path = weight_file_of(config.baseline)  # the spec grammar decides: "alphabeta:weights=x.json" is a spec
    if path is not None:
        loaded, tuned = load_weight_file(path, game)
        depth = tuned.depth or 4
        budget = _budget(config, depth).replace(branching=tuned.branching)
        return Candidate(loaded.heuristic, loaded.weights, budget, config.random_every).spec(), depth, tuned.branching
    make_agent(config.baseline, game)  # a bad spec fails here with the valid names and keys
    return config.baseline, 4, None


def _book(config: TuneConfig, game: KInARow, run_dir: Path) -> OpeningBook:
    """The run's openings: from the run folder (a resumed run), else from the cache, else drawn from the seed."""
    book_path = run_dir / "openings.json"
    if book_path.exists():
        book = OpeningBook.load(book_path)
        if book.game != game or len(book.tuning) < config.pairs or len(book.heldout) < config.confirm_pairs:
            raise ValueError(f"{book_path} holds openings for {book.game} ({len(book.tuning)} tuning, "
                             f"{len(book.heldout)} held out); this run needs {game} with {config.pairs} and "
                             f"{config.confirm_pairs}: use another --study or --run-dir")  # fmt: skip
        return book
    total = _tuning_openings(config) + config.confirm_pairs
    check = "a few plies of search" if game.gravity or game.n_cells <= SPREAD_CELLS else "a check for a forced win"
    say(f"drawing {total} openings of {config.plies} plies, each checked by {check} "
        f"(a first run also compiles the search kernels: {_first_compile(game)}; cached after that) ...")  # fmt: skip
    started = time.perf_counter()
    try:
        book, cached = cached_openings(game, total, config.plies, config.seed, config.confirm_pairs / total)
    except ValueError:
        if total == config.pairs + config.confirm_pairs:
            raise
        total = config.pairs + config.confirm_pairs  # a small game has fewer: SPSA then cycles through --pairs
        book, cached = cached_openings(game, total, config.plies, config.seed, config.confirm_pairs / total)
    say(f"openings ready in {time.perf_counter() - started:.0f} s" + (" (from the cache)" if cached else ""))
    return book


def _first_compile(game: KInARow) -> str:
    """How long a cold cache makes the run compile (``python -m tuning.bench_compile``, a 2-core machine)."""
    if uses_bitboards(game):  # the bitboard evaluators' search first, the array evaluators' at their first games
        return "about 15 s, and about 45 s more at the first games against the gauntlet's array evaluators"
    return "about a minute"


SPSA_OPENINGS = 400
"""Tuning openings of an SPSA run: its iterations of a few pairs each take the next ones in turn, not the same few."""


def _tuning_openings(config: TuneConfig) -> int:
    """Openings the search wants: ``--pairs`` (every trial plays the same, so trials compare), SPSA more if the game has them."""
    return max(config.pairs, SPSA_OPENINGS) if config.sampler_name == "spsa" else config.pairs


def _study_attrs(setup: Setup) -> dict[str, Any]:
    """The settings a study is created with; a resume must match them (the seed may differ)."""
    c, g = setup.config, setup.game
    return {"game": f"{g.kind} {g.rows}x{g.cols} k={g.k}{g.rule_suffix}", "heuristic": setup.space.heuristic, "mode": c.mode,
            "opponents": list(setup.opponents), "nodes": c.budget_nodes, "params": list(setup.space.names), "seed": c.seed,
            "incumbent": setup.incumbent.spec if setup.incumbent is not None else None}  # fmt: skip


def open_study(setup: Setup) -> tuple[optuna.Study, bool]:
    """``(study, created)``: create the study or resume it, refusing to mix runs of different settings.

    Only the process that creates the study queues the paper's defaults and
    seeds its sampler with ``--seed``; one that resumes or joins a study gets
    a fresh seed (see :func:`tuning._study.sampler_seed`), so it proposes new
    configurations instead of replaying the first run's.
    """
    config, name = setup.config, setup.study_name
    up, down = optuna.study.StudyDirection.MAXIMIZE, optuna.study.StudyDirection.MINIMIZE
    directions = [up] if config.mode == "fair" else [up, down]
    warmup = max(2, config.pairs // 4)
    pruner: optuna.pruners.BasePruner = {
        "wilcoxon": lambda: optuna.pruners.WilcoxonPruner(p_threshold=0.1, n_startup_steps=warmup),
        "median": lambda: optuna.pruners.MedianPruner(n_startup_trials=3, n_warmup_steps=warmup),
        "none": optuna.pruners.NopPruner,
    }[config.pruner_name]()
    study, created = create_or_load(setup.storage, name, directions, pruner)
    if list(study.directions) != directions:
        raise ValueError(f"study {name!r} was created with other settings (mode); use another --study")
    attrs = _study_attrs(setup)
    if created:
        for key, value in attrs.items():
            study.set_user_attr(key, value)
        if setup.warm is not None:
            study.set_user_attr(WARM_KEY, {"point": setup.warm, "fit": setup.fit})
        if config.sampler_name != "spsa":  # SPSA starts from setup.start as its theta instead
            queued: list[dict[str, float]] = []
            if setup.incumbent is not None:  # the champion plays first: what every trial must beat
                queued.append(setup.incumbent.point)
                label = "paper defaults" if setup.incumbent.path is None else "incumbent"
                study.enqueue_trial(setup.incumbent.point, user_attrs={"start": label})
            for point, label in ((setup.space.defaults(), "paper defaults"), (setup.warm, "texel fit")):
                if point is not None and point not in queued:
                    queued.append(point)
                    study.enqueue_trial(point, user_attrs={"start": label})
    else:
        old = study.user_attrs
        changed = [k for k, v in attrs.items() if k in old and old[k] != v and k != "seed"]
        if changed:
            what = ", ".join(f"{k}: {old.get(k)!r} then, {attrs[k]!r} now" for k in changed)
            raise ValueError(f"study {name!r} was created with other settings ({what}); use another --study")
    seed = sampler_seed(config.seed, created, len(study.trials))
    study.sampler = make_sampler(config.sampler_name, seed, setup.start, len(directions))
    return study, created
