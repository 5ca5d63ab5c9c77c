"""The Gomocup/Piskvork protocol's command line: ``python -m search.piskvork`` plays in gomoku managers.

The protocol is Petr Lastovicka and Martin Petricek's "Gomoku AI protocol"
(the "new protocol" of Piskvork and the Gomocup tournament,
https://plastovicka.github.io/protocl2en.htm): the manager writes one
command a line on the engine's stdin, the engine answers on stdout and
flushes after each answer.  Handled here::

    START N            square N x N board        -> OK, or ERROR <why> (a size the game core or the agent refuses)
    RECTSTART W,H      W columns, H rows          -> OK, or ERROR <why>
    RESTART            empty the board            -> OK
    BEGIN              the engine opens           -> x,y
    TURN x,y           the opponent played x,y    -> x,y (the engine's move)
    BOARD              then lines x,y,who         (who: 1 own stone, 2 opponent's, 3 continuous-game
      ...                                          marker: refused, see rule 2 below)
    DONE               end of the board           -> x,y (the engine is to move)
    INFO key value     timeout_turn, timeout_match, time_left (ms), max_memory (bytes), game_type,
                       rule (bitmask), evaluate, folder; no answer
    TAKEBACK x,y       remove the stone at x,y    -> OK
    ABOUT                                         -> name="...", version="...", author="...", country="..."
    END                                           exit (code 0), no answer

Coordinates: ``x`` is the column and ``y`` the row counted from the top,
both from 0, so cell ``x,y`` is the m,n,k action ``y * cols + x``.
Commands are read in any case; blank lines are skipped.

Rules: ``k`` in a row wins (``--k``, default 5: gomoku); INFO rule is a
bitmask whose bit 0 (value 1) is "exactly five wins", which this engine
plays as the exact-k rule (an overline does not win) where the game core
offers it.  The other bits (2 continuous game, 4 renju, 8 caro) are not
supported: the engine says so in a ``MESSAGE`` line and plays on under the
rules it has.

Time: each move searches for a budget derived from ``timeout_turn`` and,
on a timed match, ``time_left`` (:func:`search.piskvork._time.move_budget_ms`:
90% of the turn less 20 ms); ``max_memory`` bounds the transposition
table.  The engine is any agent spec (``--agent``, default
:data:`DEFAULT_SPEC`); alpha-beta specs get the time budget, others play
as they are.  A spec is refused at launch (exit 2) only if it can play
none of the boards a manager is likely to start (15x15, 20x20 and k x k
with ``--k``): a weight file for 15,15,5 (``gomoku-gomoku-tuned``) plays
START 15 and answers another size with ``ERROR``, as the exact solver
answers a board too large for it.

Errors: a malformed line (bad coordinates, an occupied cell, a move before
START, a board the game core cannot build, a value that is not a number)
gets one ``ERROR <message>`` line naming the bad input, and the engine
keeps running; a command the engine does not know gets the protocol's
``UNKNOWN <message>``.  With ``--debug`` each move is preceded by a
``DEBUG`` line (depth, score, nodes, milliseconds), which managers show in
their log.  Ctrl-C (SIGINT), even during a search, ends the engine with one
line on stderr and exit code 130, nothing more on stdout.

The session itself (one line in, its answers out) is :class:`search.piskvork._brain.Brain`.
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence, TextIO

from games import MNK
from search.agents import make_agent
from search.errors import UnsolvableGameError
from search.piskvork._brain import DEFAULT_SPEC, GOMOKU_K, Brain, ProtocolError
from search.piskvork._time import with_budget

__all__ = ["Brain", "DEFAULT_SPEC", "GOMOKU_K", "LIKELY_SIDES", "ProtocolError", "main", "serve"]

LIKELY_SIDES = (15, 20)
"""Board sides ``--agent`` is checked on at launch (with k x k): the Gomocup's standard and freestyle boards."""


# --------------------------------------------------------------------------- command line


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m search.piskvork",
        description="Play gomoku and m,n,k games over the Gomocup/Piskvork protocol: commands on stdin, answers "
        "on stdout (see the module docstring). Point a manager (piskvork, the Gomocup manager, Yixin-Board) at a "
        "script that runs this command.",
    )
    parser.add_argument("--k", type=int, default=GOMOKU_K, help=f"stones in a row to win (default {GOMOKU_K}: gomoku)")
    parser.add_argument("--agent", default=DEFAULT_SPEC, help=f"the engine's agent spec (default {DEFAULT_SPEC!r}); "
                        "alpha-beta specs get a time budget from the manager's INFO")  # fmt: skip
    parser.add_argument("--name", default="alphabeta-gym", help="the name ABOUT reports (default alphabeta-gym)")
    parser.add_argument("--debug", action="store_true", help="send a DEBUG line (depth, score, nodes, time) before each move")
    return parser


def serve(brain: Brain, lines: TextIO, out: TextIO) -> int:
    """Answer ``lines`` until END or the end of input; return the exit code (0).

    A failure inside the engine becomes an ``ERROR`` line, never a traceback:
    a manager must be able to go on (or end the match) on its own terms.
    """
    for line in lines:
        try:
            replies = brain.handle(line)
        except Exception as exc:  # noqa: BLE001 - the process must outlive any single command
            replies = [f"ERROR internal error on {line.strip()!r}: {type(exc).__name__}: {exc}"]
        for reply in replies:
            print(reply, file=out, flush=True)
        if brain.finished:
            break
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the protocol on stdin/stdout; return the exit code (2 for bad options, 130 on Ctrl-C, 0 otherwise)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.k < 2:
        parser.error(f"--k {args.k} is too small: k is at least 2")
    problem = _spec_problem(args.agent, args.k)
    if problem is not None:
        parser.error(problem)
    try:
        return serve(Brain(args.k, args.agent, args.name, args.debug), sys.stdin, sys.stdout)
    except KeyboardInterrupt:  # Ctrl-C, during a search too: one line on stderr, nothing on the manager's stdout
        print("search.piskvork: interrupted", file=sys.stderr)
        return 130  # 128 + SIGINT, as shells report it


def _spec_problem(spec: str, k: int) -> Optional[str]:
    """Why ``spec`` can play no board of ``k`` a manager is likely to start, or None if it can play one.

    The board's size is the manager's to choose (START), so the spec is tried on the boards of
    :data:`LIKELY_SIDES` (Gomocup's 15x15 and 20x20, and the smallest, k x k): a malformed spec fails on all of
    them, a weight file for one board plays that board, and an agent that cannot hold some size (the exact
    solver on 15x15) answers that START with ERROR.  The error shown is the first board's.
    """
    problems = []
    for side in dict.fromkeys((*LIKELY_SIDES, k)):
        if side < k:
            continue
        game = MNK(side, side, k)
        try:
            make_agent(spec, game)  # the spec as written: its own errors name what is wrong with it
            make_agent(with_budget(spec, 1000), game)
            return None
        except UnsolvableGameError:
            return None  # the solver holds boards smaller than these: some START may still fit it
        except ValueError as exc:
            problems.append(str(exc))
    return problems[0]
