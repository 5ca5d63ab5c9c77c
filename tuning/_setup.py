"""A tuning run's pieces, built and checked before any game: game, search space, baseline, openings, study.

Private to :mod:`tuning.run`.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Optional

import optuna

from games import KInARow, make_game
from heuristics import get_spec
from heuristics.defaults import game_tag
from search.agents import make_agent
from search.agents.spec import weight_file_of
from search.alphabeta.engine import uses_bitboards
from search.budget import Limit, load_weight_file
from tuning._incumbent import Incumbent, find_incumbent
from tuning._study import check_writable, create_or_load, open_storage, sampler_seed
from tuning.config import TuneConfig
from tuning.gauntlet import default_gauntlet, member_spec
from tuning.openings import OpeningBook, make_openings
from tuning.progress import say
from tuning.samplers import make_sampler
from tuning.space import Candidate, SearchSpace, parse_bounds

TUNED_HEURISTIC = "threats"
"""The evaluator tuned by default: the one with the capacity for it (27 weights, every board of the family)."""


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
    heuristic = config.heuristic or TUNED_HEURISTIC
    get_spec(heuristic)  # unknown heuristic: the registry's error lists the known ones
    opponents, depth, branching = _opponents(config, game, heuristic)
    space = SearchSpace.build(game, heuristic, config.tune, config.depth_range, bounds=parse_bounds(config.bounds),
                              default_depth=depth, default_branching=branching)  # fmt: skip
    study = config.study or f"{game_tag(game)}-{heuristic}-{config.mode}"
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
                               config.random_every)  # fmt: skip
    storage = open_storage(config.storage)
    storage.get_all_studies()  # reachable? (before any file is written or game played)
    book = _book(config, game, run_dir)
    warm = _warm_start(space, game) if config.warm_start == "fit" else None
    return Setup(config, game, space, opponents, book, study, run_dir, out, storage, warm, incumbent)


def _warm_start(space: SearchSpace, game: KInARow) -> dict[str, float]:
    """The start point with the weights Texel's method fits to the game's solver-labelled positions."""
    from tuning.texel import warm_start_weights

    say(f"warm start: fitting {space.heuristic}'s weights to the solver-labelled positions (Texel's method) ...")
    started = time.perf_counter()
    fitted = warm_start_weights(game, space.heuristic)
    point = space.defaults()
    for param in space.params:
        if param.name in fitted:  # inside the space's bounds, which --bounds may have narrowed
            point[param.name] = min(max(float(fitted[param.name]), param.low), param.high)
    say(f"warm start ready in {time.perf_counter() - started:.0f} s")
    return point


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
    return tuple(default_gauntlet(game, budget, config.random_every)), depth, None


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
    """The run's openings: loaded from the run folder when it has them (a resumed run), else drawn from the seed."""
    book_path = run_dir / "openings.json"
    if book_path.exists():
        book = OpeningBook.load(book_path)
        if book.game != game or len(book.tuning) < config.pairs or len(book.heldout) < config.confirm_pairs:
            raise ValueError(f"{book_path} holds openings for {book.game} ({len(book.tuning)} tuning, "
                             f"{len(book.heldout)} held out); this run needs {game} with {config.pairs} and "
                             f"{config.confirm_pairs}: use another --study or --run-dir")  # fmt: skip
        return book
    total = _tuning_openings(config) + config.confirm_pairs
    say(f"drawing {total} openings of {config.plies} plies, each checked by a depth-4 search "
        f"(a first run also compiles the search kernels: {_first_compile(game)}; cached after that) ...")  # fmt: skip
    started = time.perf_counter()
    try:
        book = make_openings(game, total, config.plies, config.seed, heldout=config.confirm_pairs / total)
    except ValueError:
        if total == config.pairs + config.confirm_pairs:
            raise
        total = config.pairs + config.confirm_pairs  # a small game has fewer: SPSA then cycles through --pairs
        book = make_openings(game, total, config.plies, config.seed, heldout=config.confirm_pairs / total)
    say(f"openings ready in {time.perf_counter() - started:.0f} s")
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
        if config.sampler_name != "spsa":  # SPSA starts from setup.start as its theta instead
            if setup.incumbent is not None:  # the champion plays first: what every trial must beat
                study.enqueue_trial(setup.incumbent.point, user_attrs={"start": "incumbent"})
            study.enqueue_trial(setup.space.defaults(), user_attrs={"start": "paper defaults"})
            if setup.warm is not None:
                study.enqueue_trial(setup.warm, user_attrs={"start": "texel fit"})
    else:
        old = study.user_attrs
        changed = [k for k, v in attrs.items() if k in old and old[k] != v and k != "seed"]
        if changed:
            what = ", ".join(f"{k}: {old.get(k)!r} then, {attrs[k]!r} now" for k in changed)
            raise ValueError(f"study {name!r} was created with other settings ({what}); use another --study")
    seed = sampler_seed(config.seed, created, len(study.trials))
    study.sampler = make_sampler(config.sampler_name, seed, setup.start, len(directions))
    return study, created
