"""The opponents a tuned agent must beat: every shipped evaluator, and the shipped tuned files.

A tune that only beats its own starting point can still be the weakest agent
the project ships (the first tuned ``c4_features`` file beat its defaults by
+32 Elo and lost 135 to ``square_values``).  So by default a candidate plays
a *gauntlet*: every registered evaluator that covers the game, with its
default weights, at the run's budget (a :class:`search.budget.Limit`: nodes or
time per move, a depth cap), plus every tuned weight file shipped in
the ``weights`` data package for the game (also at the run's budget).  The tuner
scores a trial over all of them and exports only a candidate that beats the
pool and loses to no member (see :mod:`tuning._confirm`).

Example:
    >>> from games import TIC_TAC_TOE
    >>> [member.split(",")[0] for member in default_gauntlet(TIC_TAC_TOE, Limit(depth=8, nodes=300))]
    ['alphabeta:heuristic=square_values', 'alphabeta:heuristic=patterns', 'alphabeta:heuristic=windows', 'alphabeta:heuristic=mics', 'alphabeta:heuristic=threats']
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Optional

from games import KInARow
from heuristics.defaults import game_tag
from heuristics.registry import HEURISTICS
from heuristics.weights import shipped_weights_folder
from search.agents import make_agent
from search.agents.alphabeta import ENGINES
from search.agents.spec import weight_file_of
from search.budget import Limit, load_weight_file
from tuning.match import MatchRunner, default_workers
from tuning.openings import make_openings
from tuning.space import Candidate, agent_defaults
from tuning.stats import pentanomial

WEIGHTS_DIR = shipped_weights_folder()
"""The shipped weight files: the ``weights`` data package, the same folder in a checkout and in an installed wheel."""


def member_spec(text: str, game: KInARow, budget: Limit, random_every: Optional[int] = None) -> str:
    """A gauntlet member as an agent spec.

    A weight file plays with its weights and branching factor under the run's
    ``budget`` (nodes or time per move, radius; a node or time budget caps
    the depth at ``budget.depth``, otherwise the file's depth plays, or
    ``budget.depth`` when the file names none), as the candidates do; an
    agent spec plays exactly as written.

    Raises:
        ValueError: a file for another game, a malformed file or an unknown spec (one line).
    """
    path = weight_file_of(text)  # the spec grammar decides: "alphabeta:weights=x.json" is a spec, not a path
    if path is not None:
        loaded, tuned = load_weight_file(path, game)
        timed = budget.nodes is not None or budget.time_ms is not None
        depth = budget.depth if timed else (tuned.depth or budget.depth)
        return Candidate(loaded.heuristic, loaded.weights, budget.replace(depth=depth, branching=tuned.branching),
                         random_every).spec()  # fmt: skip
    make_agent(text, game)  # a bad spec fails here with the valid names and keys
    return text


def default_gauntlet(game: KInARow, budget: Limit, random_every: Optional[int] = None,
                     weights_dir: Optional[Path] = WEIGHTS_DIR) -> list[str]:  # fmt: skip
    """Every evaluator covering ``game`` at its defaults, then every shipped ``<game>-*-tuned.json``, as specs.

    Every member searches under ``budget`` (see :func:`member_spec` for the
    tuned files' depth and q); ``weights_dir=None`` leaves the tuned files out.
    """
    members = [Candidate(name, agent_defaults(name, game), budget.replace(branching=None), random_every).spec()
               for name, spec in HEURISTICS.items() if spec.refuse(game) is None]  # fmt: skip
    for path in sorted(weights_dir.glob(f"{game_tag(game)}-*-tuned.json")) if weights_dir is not None else []:
        members.append(member_spec(str(path), game, budget, random_every))
    return members


def describe(member: str, weights_dir: Path = WEIGHTS_DIR) -> str:
    """A short label for tables: the heuristic, and ``tuned`` when the weights are not the defaults."""
    fields = dict(part.split("=", 1) for part in member.split(":", 1)[-1].split(",") if "=" in part)
    name = fields.get("heuristic")
    if name is None or name not in HEURISTICS or not member.startswith("alphabeta:"):
        return member
    weights = {k: float(v) for k, v in fields.items() if k in HEURISTICS[name].defaults}
    tables = [dict(HEURISTICS[name].defaults)] + [{**HEURISTICS[name].defaults, **e.default_weights}
                                                  for e in ENGINES.values() if e.default_weights]  # fmt: skip
    plain = any(all(weights.get(k, v) == v for k, v in table.items()) for table in tables)
    return name if plain else f"{name} (tuned)"


def play_defaults(path: str, pairs: int = 200, seed: int = 0, workers: Optional[int] = None) -> dict[str, Any]:
    """Play a weight file against every evaluator at its defaults at the file's node budget; a provenance record.

    The file plays as ``python -m tuning.match FILE ...`` plays it (its own
    search section); each member is ``alphabeta:heuristic=NAME`` at the
    file's node (or time) budget with no depth cap, the form of
    ``"alphabeta:heuristic=threats,nodes=1000"``.  Every member plays the same
    ``pairs`` fresh openings drawn from ``seed`` (``tuning.match``'s openings
    for that seed and count).  A run tuned against a few opponents only
    (``--opponents``) shows with this that it still beats every shipped default.

    Returns:
        ``{"pairs", "seed", "budget", "members": {name: {"elo", "elo_low", "elo_high", "wdl", "pentanomial"}}}``,
        Elo from the pair counts, rounded to 0.01 (None where infinite: JSON has no infinity).

    Raises:
        ValueError: a bad file (named), a file without a node or time budget, or ``pairs`` below 1.
    """
    loaded, search = load_weight_file(path)
    if search.nodes is None and search.time_ms is None:
        raise ValueError(f"{path}: its search section has no node or time budget to play the defaults at")
    if pairs < 1:
        raise ValueError(f"pairs={pairs}: at least 1")
    game = loaded.game
    budget = Limit(nodes=search.nodes, time_ms=search.time_ms, radius=search.radius)
    book = make_openings(game, count=min(pairs, 500), plies=4, seed=seed, heldout=0.0)
    members: dict[str, Any] = {}
    with MatchRunner(workers or default_workers()) as runner:
        for member in default_gauntlet(game, budget, weights_dir=None):
            result = runner.match(game, str(path), member, book.tuning, pairs, seed)
            estimate = pentanomial(result.pentanomial)  # pairs, not games: the games of a pair are not independent
            members[describe(member)] = {"elo": _rounded(estimate.elo), "elo_low": _rounded(estimate.elo_low),
                                         "elo_high": _rounded(estimate.elo_high), "wdl": list(result.wdl),
                                         "pentanomial": list(result.pentanomial)}  # fmt: skip
    return {"pairs": pairs, "seed": seed, "budget": budget.to_dict(), "members": members}


def _rounded(x: float) -> Optional[float]:
    return round(x, 2) if math.isfinite(x) else None
