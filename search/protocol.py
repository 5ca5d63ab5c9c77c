"""What every agent offers, and the score convention of the search.

An agent picks a move for a position.  Agents are small objects with three
methods, so the environments, the match runner and the command lines can
hold any of them::

    agent.select_move(position) -> action      # must be legal; never mutates position
    agent.reset()                               # a new game starts (clear tables, counters)
    agent.seed(seed)                            # reseed its random choices

Scores (negamax: from the side to move).  A win found by the search scores
``WIN_SCORE - plies`` where ``plies`` counts the moves from the searched
position to the winning move included, so a faster win scores higher and a
slower loss (``-(WIN_SCORE - plies)``) scores higher than a faster one; a
draw scores 0; heuristic values are clipped to ``+-HEURISTIC_LIMIT`` so they
can never be mistaken for a win.
"""

from __future__ import annotations

from typing import Optional, Protocol, runtime_checkable

from games import Action, Position

# Defined with the evaluators (heuristics.bounds), which refuse weights that could reach the band between the two.
from heuristics.bounds import EVALUATION_LIMIT
from heuristics.bounds import WIN_SCORE as WIN_SCORE  # re-exported: the search API names it

HEURISTIC_LIMIT = EVALUATION_LIMIT
"""Heuristic scores stay below this magnitude (weights are checked; the kernels also clip), far below any win score."""


def is_win_score(score: float) -> bool:
    """True if ``score`` encodes a forced result (a win or a loss) rather than a heuristic value."""
    return abs(score) > HEURISTIC_LIMIT


def plies_to_end(score: float) -> Optional[int]:
    """For a win or loss score, the number of plies to the last move; None for other scores."""
    return int(round(WIN_SCORE - abs(score))) if is_win_score(score) else None


@runtime_checkable
class Agent(Protocol):
    """Anything that chooses moves: see the module docstring."""

    name: str

    def select_move(self, position: Position) -> Action:
        """A legal action for the side to move in ``position`` (which is not over)."""
        ...

    def reset(self) -> None:
        """Forget everything tied to the current game."""
        ...

    def seed(self, seed: Optional[int]) -> None:
        """Reseed the agent's random choices (None: fresh entropy)."""
        ...
