"""The opponents a tuned agent must beat: every shipped evaluator, and the shipped tuned files.

A tune that only beats its own starting point can still be the weakest agent
the project ships (the first tuned ``c4_features`` file beat its defaults by
+32 Elo and lost 135 to ``square_values``).  So by default a candidate plays
a *gauntlet*: every registered evaluator that covers the game, with its
default weights, at the run's node budget, plus every tuned weight file
shipped in ``weights/`` for the game (also at the run's budget).  The tuner
scores a trial over all of them and exports only a candidate that beats the
pool and loses to no member (see :mod:`tuning._confirm`).

Example:
    >>> from games import TIC_TAC_TOE
    >>> [member.split(",")[0] for member in default_gauntlet(TIC_TAC_TOE, nodes=300, depth=8)]
    ['alphabeta:heuristic=square_values', 'alphabeta:heuristic=patterns', 'alphabeta:heuristic=windows', 'alphabeta:heuristic=mics', 'alphabeta:heuristic=threats']
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from games import KInARow
from heuristics import load_weights
from heuristics.defaults import game_tag
from heuristics.registry import HEURISTICS
from search.agent_spec import weight_file_of
from search.agents import make_agent
from tuning.space import Candidate

WEIGHTS_DIR = Path(__file__).resolve().parents[1] / "weights"
"""The shipped weight files (in a checkout or an editable install; absent from a wheel: then only the defaults play)."""


def member_spec(text: str, game: KInARow, nodes: Optional[int], depth: int, random_every: Optional[int] = None,
                radius: Optional[int] = None) -> str:  # fmt: skip
    """A gauntlet member as an agent spec.

    A weight file plays with its weights and branching factor at the run's
    node budget (its depth capped at ``depth`` when the file names none), as
    the candidates do; an agent spec plays exactly as written.

    Raises:
        ValueError: a file for another game, a malformed file or an unknown spec (one line).
    """
    path = weight_file_of(text)  # the spec grammar decides: "alphabeta:weights=x.json" is a spec, not a path
    if path is not None:
        loaded = load_weights(path, game)
        member_depth = depth if nodes is not None else (loaded.search.depth or depth)
        return Candidate(loaded.heuristic, loaded.weights, member_depth, loaded.search.branching, nodes, random_every,
                         radius).spec()  # fmt: skip
    make_agent(text, game)  # a bad spec fails here with the valid names and keys
    return text


def default_gauntlet(game: KInARow, nodes: Optional[int], depth: int, random_every: Optional[int] = None,
                     radius: Optional[int] = None, weights_dir: Path = WEIGHTS_DIR) -> list[str]:  # fmt: skip
    """Every evaluator covering ``game`` at its defaults, then every shipped ``<game>-*-tuned.json``, as specs."""
    members = [Candidate(name, spec.defaults, depth, None, nodes, random_every, radius).spec()
               for name, spec in HEURISTICS.items() if spec.refuse(game) is None]  # fmt: skip
    for path in sorted(weights_dir.glob(f"{game_tag(game)}-*-tuned.json")):
        members.append(member_spec(str(path), game, nodes, depth, random_every, radius))
    return members


def describe(member: str, weights_dir: Path = WEIGHTS_DIR) -> str:
    """A short label for tables: the heuristic, and ``tuned`` when the weights are not the defaults."""
    fields = dict(part.split("=", 1) for part in member.split(":", 1)[-1].split(",") if "=" in part)
    name = fields.get("heuristic")
    if name is None or name not in HEURISTICS or not member.startswith("alphabeta:"):
        return member
    defaults = HEURISTICS[name].defaults
    weights = {k: float(v) for k, v in fields.items() if k in defaults}
    return name if all(weights.get(k, v) == v for k, v in defaults.items()) else f"{name} (tuned)"
