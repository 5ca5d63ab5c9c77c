"""Threat-space search: prove a forced win by continuous fours (VCF) or by fours and threes (VCT).

For m,n,k boards without gravity and ``k >= 4`` (gomoku and its kin), after
Allis, van den Herik and Huntjens (1993) and Thomsen's lambda-search: the
attacker (the side to move) plays only threatening moves, so the tree is
narrow and a forced win many plies deep is found in milliseconds where a
full-width search would need far more.  A found win is always a forced win
(every defence is refuted, counter-fours included); "no win found" only
means none within the budget, the depth and the move classes.  The kernels
and the argument for soundness: :mod:`search.gomoku._tss`.

Example:
    >>> from games import MNK
    >>> game = MNK(9, 9, 5)
    >>> pos = game.position("e5 a9 f5 a8 g5 a7")   # three in a row, open at both ends
    >>> result = find_vcf(pos)
    >>> result.win, result.plies, game.format_moves(result.line)
    (True, 3, 'd5 c5 h5')
    >>> find_vcf(game.position("e5 a9")).win
    False
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from games import Action, Position
from games.checks import INT64_MAX, check_int, is_real
from search.errors import SearchError
from search.gomoku._tss import _threat_search
from search.protocol import WIN_SCORE
from search.result import SearchResult

DEFAULT_NODES = 100_000
"""Default node budget of :func:`find_vcf` and :func:`find_vct`."""
DEFAULT_VCF_DEPTH = 31
"""Default longest VCF line, in plies (15 fours and the win)."""
DEFAULT_VCT_DEPTH = 11
"""Default longest VCT line, in plies."""
AGENT_TSS_NODES = 2_000
"""The agents' default threat-search budget: a few milliseconds on 15x15 (about 0.3-0.7 M nodes/s)."""


@dataclass(frozen=True)
class ThreatResult:
    """What a threat-space search found for the side to move."""

    win: bool
    """True if a forced win was proved."""
    move: Optional[Action]
    """The first move of the win (None without one)."""
    line: tuple[Action, ...]
    """The winning line, attacker and defender moves alternating, ending with the winning move
    (for VCT, against the defence that lasts longest); empty without a win."""
    plies: int
    """``len(line)``: plies to the win, the winning move included (0 without a win)."""
    nodes: int
    """Moves tried."""
    complete: bool
    """True if the search ran to its depth without running out of nodes: with ``win`` False, no win
    of this kind exists within ``max_depth`` plies (for the move classes searched)."""


def _check(position: Position, nodes: object, max_depth: object, exact_k: Optional[bool]) -> tuple[int, int, int]:
    """Validate the arguments; return ``(nodes, max_depth, exact_k as 0/1)``."""
    if not isinstance(position, Position):
        raise TypeError(f"position={position!r} is not a games.Position")
    game = position.game
    if game.gravity:
        raise SearchError(f"threat-space search needs a board without gravity; {game} has gravity")
    if game.k < 4:
        raise SearchError(f"threat-space search needs k >= 4 (fours and threes); {game} has k={game.k}")
    if position.is_terminal():
        raise SearchError(f"position {position.move_string()!r} of {game} is over: nothing to search")
    budget = check_int("nodes", nodes, low=1, high=INT64_MAX)
    # A line cannot be longer than the cells left: deeper limits are clamped (the defaults exceed small boards).
    depth = min(check_int("max_depth", max_depth, low=1, high=INT64_MAX), game.n_cells - position.ply)
    if exact_k is None:
        exact_k = game.exact_k  # the game's rule; True or False analyses the position under the other rule
    elif not isinstance(exact_k, bool):
        raise SearchError(f"exact_k={exact_k!r} must be True, False or None (the game's rule)")
    return budget, depth, int(exact_k)


def _run(position: Position, nodes: object, max_depth: object, exact_k: Optional[bool], vct: bool,
         deadline: Optional[float]) -> ThreatResult:  # fmt: skip
    budget, depth, exact = _check(position, nodes, max_depth, exact_k)
    if deadline is not None and (not is_real(deadline) or deadline != deadline):  # NumPy numbers too; nan is refused
        raise SearchError(f"deadline={deadline!r} must be a time.perf_counter() time in seconds or None (no deadline)")
    game = position.game
    pv = np.zeros(depth + 1, dtype=np.int64)
    me = 1 + position.to_move
    stop = np.inf if deadline is None else float(deadline)
    plies, used, stopped = _threat_search(position._board.copy(), game.rows, game.cols, game.k, exact, me, depth, budget,
                                          int(vct), pv, stop)  # fmt: skip
    plies, used = int(plies), int(used)
    line = tuple(int(c) for c in pv[:plies])
    complete = plies > 0 or not stopped
    return ThreatResult(plies > 0, line[0] if line else None, line, plies, used, complete)


def find_vcf(position: Position, *, nodes: int = DEFAULT_NODES, max_depth: int = DEFAULT_VCF_DEPTH,
             exact_k: Optional[bool] = None, deadline: Optional[float] = None) -> ThreatResult:  # fmt: skip
    """Look for a victory by continuous fours for the side to move; the shortest within ``max_depth`` plies.

    Args:
        position: an m,n,k position (no gravity, ``k >= 4``) that is not over.
        nodes: node budget (moves tried), at least 1.
        max_depth: longest line searched, in plies (the winning move included).
        exact_k: the exact-k rule (an overline does not win, so a window that
            would make one is not a four).  None: the game's own rule; True
            or False analyses the position under that rule instead.
        deadline: a ``time.perf_counter()`` time after which the search stops
            (incomplete, as when the nodes run out; the clock is read every
            1,024 nodes); None: none.

    Returns:
        A :class:`ThreatResult`; ``line`` is a forced win whatever the defender does.

    Raises:
        ValueError: gravity, ``k < 4``, a finished position, a bad budget, depth or deadline.
        TypeError: ``position`` is not a :class:`games.Position`.
    """
    return _run(position, nodes, max_depth, exact_k, False, deadline)


def find_vct(position: Position, *, nodes: int = DEFAULT_NODES, max_depth: int = DEFAULT_VCT_DEPTH,
             exact_k: Optional[bool] = None, deadline: Optional[float] = None) -> ThreatResult:  # fmt: skip
    """Look for a victory by continuous threats (fours and threes) for the side to move.

    A three is a move after which the attacker, moving again, would have a
    VCF; the defender may then answer anywhere, and the win is claimed only
    if every answer loses (to a VCF or a deeper VCT).  VCF is tried first at
    every node, and depths grow 1, 3, 5, ... so a short win is found first.

    Args and returns: as :func:`find_vcf` (``plies`` is the length of the win
    against the longest defence).
    """
    return _run(position, nodes, max_depth, exact_k, True, deadline)


def applies(position: Position) -> bool:
    """True if threat-space search is defined for this game: no gravity and ``k >= 4``."""
    return not position.game.gravity and position.game.k >= 4


def _expired(deadline: Optional[float]) -> bool:
    """True if ``deadline`` (a ``time.perf_counter()`` time, None: none) has passed."""
    return deadline is not None and time.perf_counter() >= deadline


def threat_move(position: Position, nodes: Optional[int] = None, deadline: Optional[float] = None,
                vct_depth: int = DEFAULT_VCT_DEPTH) -> Optional[SearchResult]:  # fmt: skip
    """The agents' use: a proved win for the side to move as a search result, or None.

    VCF first with ``nodes`` (None: :data:`AGENT_TSS_NODES`), then VCT with
    what VCF left; None at once if ``nodes`` is 0 or the game has gravity or
    ``k < 4``.  The result scores ``WIN_SCORE - plies``, its ``depth`` is the
    line's length and ``pv`` the line, so callers read it like an alpha-beta
    result.  ``deadline`` (a ``time.perf_counter()`` time): each search stops
    there (what it had not proved by then is not claimed) and neither starts
    once it has passed.  ``vct_depth``: the longest VCT looked for, in plies.
    """
    check_int("vct_depth", vct_depth, low=1, high=INT64_MAX)  # named here: find_vct would call it max_depth
    budget = AGENT_TSS_NODES if nodes is None else nodes
    if budget <= 0 or not applies(position) or _expired(deadline):
        return None
    start = time.perf_counter()
    result = find_vcf(position, nodes=budget, deadline=deadline)
    used = result.nodes
    if not result.win and budget - used > 0 and not _expired(deadline):
        result = find_vct(position, nodes=budget - used, max_depth=vct_depth, deadline=deadline)
        used += result.nodes
    if not result.win:
        return None
    assert result.move is not None
    return SearchResult(result.move, WIN_SCORE - result.plies, result.plies, used, time.perf_counter() - start, result.line)


def guard_move(position: Position, move: Action, nodes: Optional[int] = None, deadline: Optional[float] = None) -> Action:
    """``move``, or a move that stops the opponent's VCF if ``move`` would leave it one (defensive use).

    After ``move`` the opponent's VCF is looked for with ``nodes`` (None:
    :data:`AGENT_TSS_NODES`; 0 or a game without threat search: ``move`` as
    is).  If one is found, the cells of its line (its fours, its win cells,
    the forced answers), in line order, are tried instead, and the first one
    after which the opponent's VCF search runs to the end without a win is
    returned; ``move`` is kept if none does, or the budget runs out, or
    ``deadline`` (a ``time.perf_counter()`` time) passes: no search starts after it.
    """
    budget = AGENT_TSS_NODES if nodes is None else nodes
    if budget <= 0 or not applies(position) or _expired(deadline):
        return move
    threat, budget = _their_vcf(position, move, budget)
    if threat is None or not threat.win:
        return move
    for cell in dict.fromkeys(threat.line):  # in order, each once
        if budget <= 0 or _expired(deadline):
            break
        if cell == move or not position.is_legal(cell):
            continue
        answer, budget = _their_vcf(position, cell, budget)
        if answer is not None and not answer.win and answer.complete:
            return cell
    return move


def guard_threats(position: Position, move: Action, candidates: Sequence[Action], nodes: int,
                  deadline: Optional[float] = None, vct_depth: int = DEFAULT_VCT_DEPTH) -> tuple[Action, int]:  # fmt: skip
    """``move``, or the first of ``candidates`` that leaves the opponent no VCF and no VCT, if ``move`` leaves one.

    The opponent's :func:`threat_move` (VCF, then VCT with what is left) is run after ``move`` with
    ``nodes``; if it proves a win, each candidate (in order; ``move``, repeats and illegal cells skipped) is
    checked the same way and the first after which none is found within ``nodes`` is returned.  ``move`` is
    kept if every candidate loses, or ``deadline`` (a :func:`time.perf_counter` value; None: none) passes
    before one is found; each search stops at the deadline (a candidate whose check it cut is returned: no win
    was found against it).  Where :func:`guard_move` only sees the opponent's fours, this sees attacks built
    from threes too (a three that must be blocked at one end and not the other, a move that lets the
    opponent start a VCT), at the cost of a VCT search per candidate checked.  ``vct_depth``: the longest
    opponent's VCT looked for, in plies.

    Returns:
        ``(the move, candidates checked)``.
    """
    check_int("vct_depth", vct_depth, low=1, high=INT64_MAX)  # before the early return: bad input fails every time
    if nodes <= 0 or not applies(position) or not _their_threat(position, move, nodes, deadline, vct_depth):
        return move, 0
    checked = 0
    for cell in dict.fromkeys(candidates):  # in order, each once
        if deadline is not None and time.perf_counter() >= deadline:
            break
        if cell == move or not position.is_legal(cell):
            continue
        checked += 1
        if not _their_threat(position, cell, nodes, deadline, vct_depth):
            return cell, checked
    return move, checked


def _their_threat(position: Position, move: Action, nodes: int, deadline: Optional[float] = None,
                  vct_depth: int = DEFAULT_VCT_DEPTH) -> bool:  # fmt: skip
    """True if the opponent proves a win by VCF or VCT (:func:`threat_move` with ``nodes``, ``deadline`` and
    ``vct_depth``) after ``move``."""
    after = position.copy()
    after.play(move)
    if after.is_terminal():  # a move cannot make the opponent's row: a win or a full board
        return False
    return threat_move(after, nodes, deadline, vct_depth) is not None


def _their_vcf(position: Position, move: Action, budget: int) -> tuple[Optional[ThreatResult], int]:
    """The opponent's VCF search after ``move`` (None if ``move`` ends the game) and the budget left."""
    after = position.copy()
    after.play(move)
    if after.is_terminal():
        return None, budget
    result = find_vcf(after, nodes=budget)
    return result, budget - result.nodes
