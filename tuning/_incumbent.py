"""Champion and challenger: the run's best confirmed candidate against the file the user already ships.

Private to :mod:`tuning.run`.  The gauntlet's confirmation says a candidate is
better than the opponents *together* and worse than none of them; it does not
say it is better than the tuned file already in ``weights/`` (a candidate can
beat the pool by +197 Elo and still lose to that file), nor better than the
strongest member (on Connect-4 7x8 a candidate scored +178 over seven
opponents together and +32 [-11, +74] over the ``threats`` defaults, carried
by the weak members).  So every run has an incumbent unless told otherwise:
the shipped ``weights/<game>-<heuristic>-tuned.json`` (or ``--incumbent
FILE``), and on a board without one the tuned evaluator's own defaults, the
strongest member of the default gauntlet (``--incumbent defaults`` says so
explicitly).  The incumbent's point is the first trial, and a candidate is
called an improvement only once it has beaten the incumbent itself in a
sequential test, as fishtest and OpenBench accept a patch: an SPRT on
normalised Elo bounds ``[elo0, elo1]`` (default ``[0, 5]``, alpha = beta =
0.05), stopped at a cap of pairs.  "H1" is an improvement; "H0" or no
decision within the cap is not.

The test is played on openings drawn afresh (another seed), none of them a
tuning opening, and its counts are stored in the study, so a resumed run does
not replay it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import optuna

from games import KInARow
from heuristics import resolve_weight_file
from heuristics.defaults import game_tag
from search.budget import Limit, load_weight_file
from tuning.gauntlet import WEIGHTS_DIR
from tuning.match import MatchResult, MatchRunner
from tuning.openings import Opening, OpeningBook, canonical_key, make_openings
from tuning.progress import Progress
from tuning.space import Candidate, SearchSpace
from tuning.stats import Estimate, Sprt, pentanomial

INCUMBENT_SEED_OFFSET = 2_000_003
"""Added to ``--seed`` for the incumbent test's openings and games (apart from the search's and the confirmation's)."""
MAX_TEST_OPENINGS = 400
"""Distinct openings drawn for the incumbent test; a longer test cycles through them with other seeds."""


@dataclass(frozen=True)
class Incumbent:
    """What a run must beat: a weight file (its path) or the evaluator's defaults (no path), its agent spec under
    the run's budget, and its point in the space."""

    path: Optional[Path]
    spec: str
    point: dict[str, float]
    heuristic: str = ""

    @property
    def name(self) -> str:
        """How messages and provenance name it: ``the threats defaults``, ``weights/<file>`` for a shipped file, else
        relative to the working folder when it lies inside, else the path as given (no checkout's absolute path in a
        shipped file)."""
        if self.path is None:
            return f"the {self.heuristic} defaults"
        resolved = self.path.resolve()
        if resolved.parent == WEIGHTS_DIR.resolve():
            return f"weights/{resolved.name}"
        relative = os.path.relpath(resolved)
        return relative if not relative.startswith("..") else str(self.path)


@dataclass(frozen=True)
class Challenge:
    """The best confirmed candidate against the incumbent: trial, pentanomial counts, SPRT verdict."""

    trial: int
    pentanomial: tuple[int, ...]
    verdict: str
    """``"H1"`` (better), ``"H0"`` (not better), ``"cap"`` (no decision within the cap) or ``"same"`` (it is the incumbent)."""
    sprt: tuple[float, float]
    cap: int

    @property
    def estimate(self) -> Estimate:
        """The candidate's Elo over the incumbent, with its 95% interval."""
        return pentanomial(list(self.pentanomial))

    @property
    def beaten(self) -> bool:
        """True only when the SPRT accepted H1."""
        return self.verdict == "H1"

    def describe(self, incumbent: Incumbent) -> str:
        """One sentence for the verdict."""
        e = self.estimate
        if self.verdict == "same":
            return f"the best confirmed candidate (trial {self.trial}) is {incumbent.name} itself"
        how = {"H1": "accepted H1", "H0": "accepted H0",
               "cap": f"no decision within the cap of {self.cap} pairs"}[self.verdict]  # fmt: skip
        return (f"trial {self.trial} scored Elo {e.elo:+.1f} [{e.elo_low:+.1f}, {e.elo_high:+.1f}] against it "
                f"on {e.n} pairs of fresh openings (SPRT on nElo [{self.sprt[0]:g}, {self.sprt[1]:g}]: {how})")  # fmt: skip


def find_incumbent(choice: Optional[str], game: KInARow, heuristic: str, space: SearchSpace, budget: Limit,
                   random_every: Optional[int], weights_dir: Path = WEIGHTS_DIR,
                   defaults: bool = True) -> Optional[Incumbent]:  # fmt: skip
    """The run's incumbent: ``choice`` (a weight file; ``"none"`` for none; ``"defaults"`` for the evaluator's
    defaults), else the shipped tuned file, else (``defaults``: the run plays the default gauntlet, not opponents
    the user named) the evaluator's defaults.

    Raises:
        ValueError: a file for another game or heuristic (one line).
    """
    if choice is not None and choice.lower() == "none":
        return None
    path = weights_dir / f"{game_tag(game)}-{heuristic}-tuned.json"
    if choice is None and not path.is_file() and not defaults:
        return None
    if (choice is not None and choice.lower() == "defaults") or (choice is None and not path.is_file()):
        start = space.defaults()
        return Incumbent(None, space.candidate(start, budget, random_every).spec(), start, heuristic)
    if choice is not None:
        path = resolve_weight_file(choice)  # a path, or a shipped file's name (``connect4-threats-tuned``)
    loaded, tuned = load_weight_file(str(path), game)
    if loaded.heuristic != heuristic:
        raise ValueError(f"--incumbent {path} holds {loaded.heuristic!r} weights; this run tunes {heuristic!r}")
    point: dict[str, float] = {}
    for param in space.params:
        if param.name == "depth":
            value: float = tuned.depth if tuned.depth is not None else space.default_depth
        elif param.name == "branching":
            value = tuned.branching if tuned.branching is not None else param.high
        else:
            value = loaded.weights.get(param.name, param.default)
        clipped = min(max(value, param.low), param.high)
        point[param.name] = int(round(clipped)) if param.integer else float(clipped)
    # it plays as the file says (its depth and q) under the run's budget: trial 0's candidate when all is tuned
    limit = budget.replace(depth=tuned.depth or budget.depth, branching=tuned.branching)
    return Incumbent(path, Candidate(heuristic, dict(loaded.weights), limit, random_every).spec(), point, heuristic)


def test_openings(book: OpeningBook, count: int, seed: int) -> tuple[Opening, ...]:
    """Up to ``count`` openings drawn afresh, none a tuning opening (the held-out pool if too few exist)."""
    used = {canonical_key(book.game.position(o)) for o in book.tuning}
    wanted = min(count, MAX_TEST_OPENINGS)
    try:
        drawn = make_openings(book.game, wanted + len(used), book.plies, seed, heldout=0.0, max_draws=20_000).tuning
    except ValueError:  # a small game: fewer distinct openings than that
        return book.heldout
    fresh = tuple(o for o in drawn if canonical_key(book.game.position(o)) not in used)[:wanted]
    return fresh or book.heldout


def challenge(study: optuna.Study, runner: MatchRunner, progress: Progress, game: KInARow, book: OpeningBook,
              incumbent: Incumbent, trial: int, spec: str, sprt: Sprt, cap: int,
              seed: int) -> Challenge:  # fmt: skip
    """Play (or read back from the study) the SPRT of ``spec`` against the incumbent, at most ``cap`` pairs."""
    bounds = (sprt.elo0, sprt.elo1)
    if spec == incumbent.spec:
        return Challenge(trial, (0, 0, 0, 0, 0), "same", bounds, cap)
    key = f"incumbent:{trial}"
    settings = {"spec": spec, "incumbent": incumbent.spec, "sprt": list(bounds), "cap": cap, "seed": seed}
    stored = study.user_attrs.get(key)
    if isinstance(stored, dict) and all(stored.get(k) == v for k, v in settings.items()):
        return Challenge(trial, tuple(stored["pentanomial"]), str(stored["verdict"]), bounds, cap)
    openings = test_openings(book, cap, seed)
    note = f"trial {trial} vs the incumbent"

    def on_pair(result: MatchResult) -> bool:
        progress.advance(2, note)
        return False

    result = runner.match(game, spec, incumbent.spec, openings, cap, seed=seed, sprt=sprt, on_pair=on_pair)
    progress.shrink(2 * (cap - len(result.pairs)))
    decision = sprt.decide(result.pentanomial)
    verdict = decision if decision != "continue" else "cap"
    study.set_user_attr(key, {**settings, "pentanomial": result.pentanomial, "verdict": verdict})
    return Challenge(trial, tuple(result.pentanomial), verdict, bounds, cap)
