"""One game between two agents from a given position: what the tuner's matches and the rating ladder both play.

Example:
    >>> from games import TIC_TAC_TOE
    >>> from search.agents import make_agent
    >>> first, second = make_agent("random", TIC_TAC_TOE, seed=1), make_agent("random", TIC_TAC_TOE, seed=2)
    >>> score, plies, nodes, searched = play_game(TIC_TAC_TOE.position(), first, second)
    >>> score in (0.0, 0.5, 1.0) and 5 <= plies <= 9 and searched == [0, 0]
    True
"""

from __future__ import annotations

from games import Position
from search.agents import AgentType

__all__ = ["play_game"]


def play_game(start: Position, first: AgentType, second: AgentType) -> tuple[float, int, list[int], list[int]]:
    """Play from ``start`` (copied) to the end; ``first`` is to move.

    Returns ``(first's score, plies played, nodes per agent, searched moves per agent)``.
    """
    position = start.copy()
    agents = (first, second)
    nodes, searched = [0, 0], [0, 0]
    side, plies = 0, 0
    mover = position.to_move
    while not position.is_terminal():
        agent = agents[side]
        position.play(agent.select_move(position))
        result = getattr(agent, "last_result", None)
        if result is not None:
            nodes[side] += result.nodes
            searched[side] += 1
        side, plies = 1 - side, plies + 1
    outcome = position.result()  # from the first player's (x's) point of view
    assert outcome is not None
    score = outcome if mover == 0 else 1.0 - outcome
    return score, plies, nodes, searched
