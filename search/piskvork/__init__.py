"""The Gomocup/Piskvork protocol for any agent: ``python -m search.piskvork`` plays in gomoku managers.

Public API::

    from search.piskvork import Brain
    brain = Brain(k=5, spec="alphabeta")        # one protocol session: a line in, its answer lines out
    brain.handle("START 15")                    # ['OK']

The protocol speaks for any agent spec (:func:`search.agents.make_agent`), so it sits beside the engines
rather than inside one: its default is the gomoku engine (:mod:`search.gomoku`).  Modules:
:mod:`~search.piskvork.cli` (the command line and the protocol's reference), ``_brain`` (one session) and
``_time`` (the manager's limits as a move budget).
"""

from search.piskvork._brain import DEFAULT_SPEC, GOMOKU_K, Brain, ProtocolError

__all__ = ["Brain", "DEFAULT_SPEC", "GOMOKU_K", "ProtocolError"]
