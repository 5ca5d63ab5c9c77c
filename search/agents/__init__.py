"""Agents: anything that chooses moves, built from a spec string by :func:`make_agent`.

Public API::

    from search.agents import make_agent, AlphaBetaAgent, MinimaxAgent, RandomAgent, RuleBasedAgent
    agent = make_agent("alphabeta:heuristic=c4_features,depth=6,branching=4", CONNECT4)
    agent = make_agent("connect4-threats-tuned", CONNECT4)     # a shipped weight file, by name
    agent = make_agent("perfect", CONNECT4)                    # the exact solver (search.solve.PerfectAgent)

Modules: :mod:`~search.agents.spec` (the spec grammar), :mod:`~search.agents.registry` (kinds by name and
:func:`make_agent`), :mod:`~search.agents.kinds` (the built-in kinds and engines, one registration each),
:mod:`~search.agents.alphabeta` and :mod:`~search.agents.simple` (the agents), :mod:`~search.agents.playing`
(one game between two agents), :mod:`~search.agents.openings` (balanced openings for matches) and
:mod:`~search.agents.warmup` (compile before the clock).
"""

from search.agents import kinds as _kinds  # noqa: F401  (registers the built-in kinds and engines)
from search.agents.alphabeta import (
    MNK_DEFAULT,
    AlphaBetaAgent,
    MinimaxAgent,
    default_heuristic,
    uses_gomoku_engine,
    uses_mnk_default,
)
from search.agents.registry import KINDS, make_agent
from search.agents.simple import RandomAgent, RuleBasedAgent
from search.agents.spec import AgentSpecError
from search.protocol import Agent
from search.solve import PerfectAgent

AgentType = Agent
"""What :func:`make_agent` returns: any :class:`search.protocol.Agent` (the built-in kinds are
:class:`AlphaBetaAgent`, :class:`MinimaxAgent`, :class:`RandomAgent`, :class:`RuleBasedAgent` and
:class:`PerfectAgent`; a registered kind may add others)."""

__all__ = [
    "AgentSpecError", "AgentType", "AlphaBetaAgent", "KINDS", "MNK_DEFAULT", "MinimaxAgent", "PerfectAgent", "RandomAgent",
    "RuleBasedAgent", "default_heuristic", "make_agent", "uses_gomoku_engine", "uses_mnk_default",
]  # fmt: skip
