"""Compile before the clock: one untimed pass of an agent over positions that reach each of its kernels.

numba compiles a kernel the first time it is called in a process (or loads
it from its cache, which is cold after an install or an upgrade: tens of
seconds for the search).  A kernel is only called when its code path is: the
rule-based player's fork defence waits for a position with an enemy fork,
an alpha-beta agent's threat search for a threat.  So warming an agent on
the empty board is not enough (a tournament's rules player lost a game on
time at its sixth move, 880 ms against 500, compiling its fork defence).
:func:`warm_up` asks the agent for a move in each of
:func:`warm_up_positions`: the empty board, a quiet middle game, a position
where the side to move can win, one where it must block, and (where a
seeded random game finds them) one where it can fork and one where it must
stop a fork.  Every place that times moves calls it first: the tournament
(:mod:`tuning.tournament`), the Piskvork brain at ``START``, the rating
ladder, the benchmarks; ``envs.play`` says it is preparing the opponent.

Example:
    >>> from games import TIC_TAC_TOE
    >>> from search.agents.simple import RuleBasedAgent
    >>> len(warm_up_positions(TIC_TAC_TOE)) >= 4
    True
    >>> warm_up(RuleBasedAgent(seed=0), TIC_TAC_TOE) >= 0.0
    True
"""

from __future__ import annotations

import importlib
import os
import time
from typing import Any, Iterable, Optional, Sequence

import numpy as np

from games import Action, GameError, KInARow, Position
from search.agents.simple import Rule, rule_candidates
from search.protocol import Agent

PLAYOUTS = 6
"""Seeded random games searched for the fork positions."""
PLAYOUT_PLIES = 30
"""Plies of each of those games."""
BIG_BOARD = 400
"""Cells above which one short game only (the middle game) is played: the rule check of a position costs about
60 ms on a 70x70 board, and a random game there rarely forks anyway."""


def warm_up(agent: Agent, game: KInARow, positions: Optional[Sequence[Position]] = None) -> float:
    """Ask ``agent`` for a move in each warm-up position, untimed, then reset it; return the seconds it took.

    Args:
        agent: any agent (``select_move``, ``reset``).
        game: the game it will play.
        positions: the positions (default :func:`warm_up_positions` of ``game``).
    """
    started = time.perf_counter()
    for position in warm_up_positions(game) if positions is None else positions:
        agent.select_move(position.copy())
    agent.reset()
    return time.perf_counter() - started


def warm_up_positions(game: KInARow) -> list[Position]:
    """The positions :func:`warm_up` plays: empty board, middle game, win, block, fork, stop a fork (open ones only)."""
    found = [game.position(), *_line_positions(game), *_playout_positions(game)]
    unique: dict[tuple[Action, ...], Position] = {}
    for position in found:
        if not position.is_terminal():
            unique.setdefault(tuple(position.moves), position)
    return list(unique.values())


def _line_positions(game: KInARow) -> list[Position]:
    """The side to move must block a ``k - 1`` line, then (one ply on) can complete its own, if the board has room.

    The first player builds a line along a row (a column where the rows are
    too few), the second a parallel one two rows away (on top, with gravity).
    """
    k = game.k
    if k < 2:
        return []
    first, second = _two_lines(game)
    if first is None or second is None:
        return []
    moves = [cell for pair in zip(first, second) for cell in pair]
    try:
        block = game.position(moves[: 2 * (k - 1) - 1])
        win = game.position(moves[: 2 * (k - 1)])
    except GameError:  # a board too small for two lines: the other positions still warm most kernels
        return []
    return [block, win]


def _two_lines(game: KInARow) -> tuple[Optional[list[Action]], Optional[list[Action]]]:
    """The actions of the first player's line and the second player's, ``k - 1`` stones each (None: no room)."""
    k, rows, cols = game.k, game.rows, game.cols
    if game.gravity:
        if cols >= k:  # side by side on the bottom row, the second player's stones on top of them
            return list(range(k - 1)), list(range(k - 1))
        if rows >= k and cols >= 2:  # two columns
            return [0] * (k - 1), [1] * (k - 1)
        return None, None
    if cols >= k and rows >= 3:
        return [c for c in range(k - 1)], [2 * cols + c for c in range(k - 1)]
    if rows >= k and cols >= 3:
        return [r * cols for r in range(k - 1)], [r * cols + 2 for r in range(k - 1)]
    return None, None


def _playout_positions(game: KInARow) -> list[Position]:
    """A quiet middle game, and the first position where the mover can fork and where it must stop one."""
    rng = np.random.default_rng(0)
    wanted = {Rule.FORK: None, Rule.BLOCK_FORK: None, Rule.WAYS: None}  # type: dict[Rule, Optional[Position]]
    big = game.n_cells > BIG_BOARD
    for _ in range(1 if big else PLAYOUTS):
        position = game.position()
        for _ in range(min(5 if big else PLAYOUT_PLIES, game.n_cells - 1)):
            if position.is_terminal():
                break
            rule, _ = rule_candidates(position)
            if rule in wanted and wanted[rule] is None and (rule != Rule.WAYS or position.ply >= 4):
                wanted[rule] = position.copy()
            if all(p is not None for p in wanted.values()):
                break
            moves = position.legal_moves()
            position.play(moves[int(rng.integers(len(moves)))])
    return [p for p in wanted.values() if p is not None]


COMPILE_SECONDS = {"bitboard search": 10.0, "bitboard search, array evaluator": 60.0, "array search": 80.0, "solver": 70.0,
                   "rules": 5.0}  # fmt: skip
"""About how long a cold cache makes an agent's first move compile, by its main kernel.  The bitboard search with a
bitboard evaluator (``c4_features``, ``threats``, ``square_values``: the Connect-4 default): the default agent's first
Connect-4 move, 9.5 s of CPU from an installed wheel (``python -m tuning.bench_compile --only "c4 move"``, load
1.6); with an array evaluator
(``windows``, ``patterns``, ``mics``, ``gomoku``) it compiles every evaluator as well.  The others were measured on
the project's 2-core machine under a load of 3 to 4: depth 2 on gomoku 86 s, the Connect-4 solver 68 s, the rules
player 4 s."""
_KERNELS = {
    "bitboard search": ("search.alphabeta._bitnegamax", "_iterate"), "array search": ("search.alphabeta._negamax", "_search"),
    "solver": ("search.solve._kernels", "_solve"), "rules": ("search.agents._rule_kernels", "_fork_defences"),
}  # fmt: skip


def first_compile_seconds(spec: str, game: KInARow) -> Optional[float]:
    """About how long the first move of the agent of ``spec`` will compile (:data:`COMPILE_SECONDS`), or None
    if numba's cache has its main kernel.

    Decided from the spec alone, before the agent is built (building ``perfect`` already compiles the
    solver): alpha-beta and weight files use the bitboard search where the game runs on bitboards, else the
    array search, as minimax does; ``perfect`` the exact solver; ``rules`` the rule checks; others None.
    """
    from search.agents.spec import AgentSpecError, parse_spec
    from search.alphabeta.engine import uses_bitboards

    try:
        kind = parse_spec(spec).kind
    except AgentSpecError:
        return None
    if kind in (None, "alphabeta"):
        name = "bitboard search" if uses_bitboards(game) else "array search"
        heuristic = parse_spec(spec).options.get("heuristic")
        if name == "bitboard search" and heuristic is not None and _reads_array_board(game, heuristic):
            name = "bitboard search, array evaluator"
    elif kind == "minimax":
        name = "array search"
    elif kind == "perfect":
        name = "solver"
    elif kind == "rules":
        name = "rules"
    else:
        return None
    module, attribute = _KERNELS[name.split(",")[0]]
    kernel = getattr(importlib.import_module(module), attribute, None)  # None if a refactoring moved it: then no message
    return None if kernel is None or kernels_cached([kernel]) else COMPILE_SECONDS[name]


def _reads_array_board(game: KInARow, heuristic: str) -> bool:
    """True if the bitboard search keeps an array board in step for ``heuristic`` on ``game`` (an array evaluator:
    its first compile takes every evaluator's kernels), False for a bitboard evaluator or an unknown name."""
    from heuristics.errors import HeuristicError
    from heuristics.registry import kernel_id
    from search._settings import S_ARRAY
    from search.alphabeta._bitsetup import _bit_settings

    try:
        return bool(_bit_settings(game.rules, kernel_id(heuristic))[S_ARRAY])
    except (HeuristicError, KeyError):  # a bad name: the agent's own construction says what is allowed
        return False


def kernels_cached(kernels: Iterable[Any]) -> bool:
    """True if numba's cache holds an index for every one of ``kernels`` (numba dispatchers), or cannot tell.

    A missing index means the first call compiles (tens of seconds for the
    search): the cue for a "preparing, the first run compiles" message.
    """
    try:
        return all(os.path.exists(kernel._cache._cache_file._index_path) for kernel in kernels)
    except AttributeError:  # not numba dispatchers, NUMBA_DISABLE_JIT, or a numba whose cache is laid out otherwise
        return True
