"""The winner's curse, handled: replay the best trials on held-out openings, export only a confirmed one.

Private to :mod:`tuning.run`.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Optional

import optuna
from optuna.trial import FrozenTrial, TrialState

from heuristics import save_weights
from tuning._incumbent import Challenge
from tuning._setup import Setup
from tuning._study import redact
from tuning.gauntlet import describe
from tuning.match import MatchResult, MatchRunner
from tuning.progress import Progress
from tuning.space import Candidate
from tuning.spsa import OBJECTIVE_ATTR
from tuning.stats import Estimate, pentanomial


@dataclass(frozen=True)
class Versus:
    """A candidate's W/D/L and pentanomial counts against one opponent, or against the pool of them."""

    name: str
    wdl: tuple[int, int, int]
    pentanomial: tuple[int, ...]

    @property
    def estimate(self) -> Estimate:
        """Elo from the pair counts, with its 95% interval."""
        return pentanomial(list(self.pentanomial))

    @staticmethod
    def of(name: str, result: MatchResult) -> Versus:
        """The counts of a match."""
        return Versus(name, result.wdl, tuple(result.pentanomial))


@dataclass(frozen=True)
class Confirmation:
    """A top trial replayed on the held-out openings against every opponent.

    Attributes:
        trial, candidate: what was replayed.
        pool: the counts over all opponents together.
        members: the counts against each opponent, in gauntlet order.
    """

    trial: FrozenTrial
    candidate: Candidate
    pool: Versus
    members: tuple[Versus, ...]

    @property
    def estimate(self) -> Estimate:
        """The pooled Elo over the opponents, with its 95% interval."""
        return self.pool.estimate

    @property
    def wdl(self) -> tuple[int, int, int]:
        """Pooled wins, draws, losses."""
        return self.pool.wdl

    @property
    def pentanomial(self) -> tuple[int, ...]:
        """Pooled pair counts."""
        return self.pool.pentanomial

    def losing_to(self) -> list[Versus]:
        """Opponents the candidate is significantly worse than (their Elo interval lies below 0, i.e. score < 1/2)."""
        return [m for m in self.members if m.estimate.elo_high < 0]

    @property
    def accepted(self) -> bool:
        """Export-worthy: the pooled 95% lower bound is above 0 and no opponent is significantly stronger."""
        return self.estimate.elo_low > 0 and not self.losing_to()


ALWAYS_CONFIRMED = ("texel fit",)
"""Queued start points confirmed besides the best trials: the fit, whatever the search thought of it."""


def top_trials(study: optuna.Study, count: int, fit: bool = True) -> list[FrozenTrial]:
    """The best completed trials, distinct configurations only (fair: by score; pareto: the front by score), then
    the fit (:data:`ALWAYS_CONFIRMED`, unless ``fit`` is False) if it is not among them, completed or pruned.

    Why the fit too: the search ranks trials on a few dozen pairs each, so the best of sixty is often a lucky
    one; on Connect-4 7x8 the search's best confirmed at +44 to +147 Elo over the ``threats`` defaults in runs
    where the fit alone scored +162 [+127, +196].  Confirming the fit as well lets the held-out games choose.

    SPSA iterations are left out: their value is theta+ against theta-, not a
    score against the opponents (the final theta is an ordinary trial).
    """
    complete = [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
                if t.values and t.user_attrs.get(OBJECTIVE_ATTR) != "spsa"]  # fmt: skip
    if len(study.directions) > 1:
        complete = list(study.best_trials)
    ranked = sorted(complete, key=lambda t: (-t.values[0], t.number))
    chosen: list[FrozenTrial] = []
    seen: set[str] = set()
    for trial in ranked:
        key = json.dumps(trial.params, sort_keys=True)
        if key not in seen:
            seen.add(key)
            chosen.append(trial)
        if len(chosen) == count:
            break
    if fit and len(study.directions) == 1:
        for trial in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED)):
            key = json.dumps(trial.params, sort_keys=True)
            if trial.user_attrs.get("start") in ALWAYS_CONFIRMED and key not in seen:
                seen.add(key)
                chosen.append(trial)
    return chosen


CONFIRMATION_SEED_OFFSET = 1_000_003
"""Confirmation games use ``--seed`` plus this: fresh games, not replays of the search's."""


def confirm(setup: Setup, study: optuna.Study, runner: MatchRunner, progress: Progress) -> list[Confirmation]:
    """Replay the top trials with fresh games (a new seed) on the held-out openings, against every opponent.

    Each held-out opening is played as a pair against each opponent
    (``--confirm-pairs`` openings, so ``confirm_pairs x opponents`` pairs per
    trial).  Each finished confirmation is stored in the study (a user
    attribute keyed by trial, with its seed, pair count, spec and opponents),
    so a run killed during confirmation, or a second worker, reuses it.
    """
    config = setup.config
    seed = config.seed + CONFIRMATION_SEED_OFFSET
    pairs = config.confirm_pairs * len(setup.opponents)
    names = unique([describe(o) for o in setup.opponents])
    confirmations = []
    for trial in top_trials(study, config.confirm_top, config.confirm_fit):
        candidate = setup.candidate(trial.params)
        key = f"confirmation:{trial.number}"
        settings = {"seed": seed, "pairs": pairs, "spec": candidate.spec(), "opponents": list(setup.opponents)}
        stored = study.user_attrs.get(key)
        if isinstance(stored, dict) and all(stored.get(k) == v for k, v in settings.items()):
            progress.shrink(2 * pairs)
            members = tuple(Versus(n, tuple(m["wdl"]), tuple(m["pentanomial"])) for n, m in zip(names, stored["members"]))
            pool = Versus("pool", tuple(stored["wdl"]), tuple(stored["pentanomial"]))
            confirmations.append(Confirmation(trial, candidate, pool, members))
            continue
        note = f"confirming trial {trial.number}"

        def on_pair(result: MatchResult) -> bool:
            progress.advance(2, note)
            return False

        result = runner.match(setup.game, candidate.spec(), setup.opponents, setup.book.heldout, pairs, seed=seed,
                              on_pair=on_pair)  # fmt: skip
        members = tuple(Versus.of(name, result.against(i, name)) for i, name in enumerate(names))
        study.set_user_attr(key, {**settings, "wdl": list(result.wdl), "pentanomial": result.pentanomial,
                                  "members": [{"wdl": list(m.wdl), "pentanomial": list(m.pentanomial)} for m in members]})  # fmt: skip
        confirmations.append(Confirmation(trial, candidate, Versus.of("pool", result), members))
    return confirmations


def unique(labels: list[str]) -> list[str]:
    """``labels`` with a repeated one numbered (``c4_features (tuned)``, ``c4_features (tuned) #2``): table keys."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return out


def package_version() -> str:
    """The installed ``alphabeta-gym`` version, or ``unknown`` when run from a bare checkout."""
    try:
        return version("alphabeta-gym")
    except PackageNotFoundError:
        return "unknown"


def export(setup: Setup, study: optuna.Study, best: Confirmation, path: Path, versus: Optional[Challenge] = None) -> Path:
    """Write the confirmed candidate as a weight file with its provenance (atomically), the incumbent test's too."""
    e = best.estimate
    total_games = sum(int(t.user_attrs.get("games", 0)) for t in study.get_trials(deepcopy=False))
    provenance = {
        "tool": "python -m tuning.run", "study": setup.study_name, "storage": redact(setup.config.storage),
        "trial": best.trial.number, "games": total_games, "opponents": list(setup.opponents), "mode": setup.config.mode,
        "confirmation": {"elo": finite(e.elo), "elo_low": finite(e.elo_low), "elo_high": finite(e.elo_high),
                         "los": round(e.los, 4), "pairs": e.n, "games": e.games, "openings": "held-out",
                         "members": {m.name: {"elo": finite(m.estimate.elo), "elo_low": finite(m.estimate.elo_low),
                                              "elo_high": finite(m.estimate.elo_high)} for m in best.members}},
        "seed": setup.config.seed, "package_version": package_version(),
        **({"fit": setup.fit} if setup.fit else {}),
        **({"incumbent": _incumbent_record(setup, versus)} if versus is not None else {}),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)  # checked writable at start-up, made only now
    return save_weights(best.candidate.weight_file(setup.game, provenance), path)




def _incumbent_record(setup: Setup, versus: Challenge) -> dict[str, object]:
    e = versus.estimate
    return {"file": setup.incumbent.name if setup.incumbent else None, "spec": setup.incumbent.spec if setup.incumbent else None,
            "sprt_nelo": list(versus.sprt), "cap": versus.cap, "verdict": versus.verdict, "pairs": e.n,
            "pentanomial": list(versus.pentanomial), "elo": finite(e.elo), "elo_low": finite(e.elo_low),
            "elo_high": finite(e.elo_high)}  # fmt: skip


def finite(x: float) -> Optional[float]:
    """``x`` rounded for a JSON file, or None for an infinite Elo (a 100% score)."""
    return round(x, 2) if math.isfinite(x) else None
