"""Time and memory for the Gomocup protocol (:mod:`search.piskvork`): what the manager's INFO says, as a move budget.

The manager sends its limits as ``INFO`` lines (milliseconds and bytes, see
:mod:`search.piskvork`); :func:`move_budget_ms` turns them into the time one
search may take, and :func:`with_budget` writes that budget into an agent
spec, so the engine is any agent :func:`search.agents.make_agent` builds.

Example:
    >>> move_budget_ms(Limits(timeout_turn=1000), own_moves_left=50)
    880.0
    >>> move_budget_ms(Limits(timeout_turn=5000, timeout_match=60000, time_left=10000), own_moves_left=40)
    340.0
    >>> with_budget("alphabeta:heuristic=mics,radius=2", 450.0)
    'alphabeta:heuristic=mics,radius=2,time_ms=450'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from search.agents.spec import parse_spec

DEFAULT_TURN_MS = 1000
"""The time a move may take when the manager sends no ``timeout_turn`` (the m,n,k tournament's 1 s)."""
SAFETY = 0.9
"""The share of the turn's time the search may use: the rest covers the process, the pipes and a loaded machine."""
OVERHEAD_MS = 20.0
"""Fixed time kept back from every move besides :data:`SAFETY` (building the position, the agent, the answer)."""
TURN_MARGIN_MS = 50.0
"""The search never plans to end closer than this (plus :data:`OVERHEAD_MS`) to ``timeout_turn`` or to the match clock,
on any board: on a short turn :data:`SAFETY` alone would leave less (100 ms x 10% is 10 ms)."""
MIN_BUDGET_MS = 5.0
"""The smallest search budget (``timeout_turn`` 0 means "as fast as possible"; the first iteration always completes)."""
MOVES_TO_PLAN = 25
"""With a match clock, the remaining time is shared over at most this many own moves (a gomoku game rarely needs more)."""
TT_SHARE = 4
"""With ``max_memory``, the transposition table takes at most 1/TT_SHARE of it (the process itself needs the rest)."""
TT_ENTRY_BYTES = 32
"""Bytes per transposition-table slot (:class:`search.tt.TranspositionTable`)."""
MAX_TT_SLOTS = 1 << 20
"""The most slots ``max_memory`` can buy (32 MB): a generous limit must not ask for more than the machine has."""


@dataclass
class Limits:
    """The manager's limits as last sent by ``INFO`` (None: not sent; 0 has the protocol's meaning for each)."""

    timeout_turn: Optional[int] = None
    """Milliseconds per move; 0 = play as fast as possible."""
    timeout_match: Optional[int] = None
    """Milliseconds for the whole match; 0 = no limit."""
    time_left: Optional[int] = None
    """Milliseconds left on the match clock (sent before moves when the match is timed)."""
    max_memory: Optional[int] = None
    """Bytes the engine may use; 0 = no limit."""


def turn_ms(limits: Limits) -> float:
    """The time one reply may take: ``timeout_turn``, or :data:`DEFAULT_TURN_MS` if the manager sent none."""
    return float(DEFAULT_TURN_MS if limits.timeout_turn is None else limits.timeout_turn)


def match_left_ms(limits: Limits, used_ms: float = 0.0) -> Optional[float]:
    """The match clock's remaining milliseconds: ``time_left`` as sent, else ``timeout_match`` less ``used_ms``
    (the engine's own thinking time so far this game); None for an untimed match (``timeout_match`` 0, or neither sent)."""
    if limits.timeout_match == 0:
        return None
    if limits.time_left is not None:
        return float(limits.time_left)
    if limits.timeout_match is not None:
        return max(0.0, limits.timeout_match - used_ms)
    return None


def move_budget_ms(limits: Limits, own_moves_left: int, used_ms: float = 0.0) -> float:
    """The milliseconds one search may take under ``limits`` (see the module docstring).

    The turn's time (``timeout_turn``, default :data:`DEFAULT_TURN_MS`) is
    capped, when the match is timed, by the match clock
    (:func:`match_left_ms`) shared over the own moves still to come (at most
    :data:`MOVES_TO_PLAN`); the search gets :data:`SAFETY` of that less
    :data:`OVERHEAD_MS`, and never more than the turn (and the whole match
    clock) less :data:`TURN_MARGIN_MS` and :data:`OVERHEAD_MS`; never below
    :data:`MIN_BUDGET_MS`.

    Args:
        limits: the manager's limits.
        own_moves_left: how many moves this engine may still have to make.
        used_ms: the engine's thinking time so far this game (counts only when
            the manager sends ``timeout_match`` without ``time_left``).

    Example:
        >>> move_budget_ms(Limits(timeout_turn=100), own_moves_left=50)    # 90% would leave 30 ms: the margin rules
        30.0
        >>> move_budget_ms(Limits(timeout_turn=5000, timeout_match=20000), own_moves_left=40, used_ms=10000)
        340.0
    """
    turn = cap = turn_ms(limits)
    left = match_left_ms(limits, used_ms)
    if left is not None:
        turn = min(turn, left / max(1, min(own_moves_left, MOVES_TO_PLAN)))
        cap = min(cap, left)
    return max(MIN_BUDGET_MS, min(turn * SAFETY - OVERHEAD_MS, cap - TURN_MARGIN_MS - OVERHEAD_MS))


def table_slots(limits: Limits) -> Optional[int]:
    """Transposition-table slots that fit in :data:`TT_SHARE` of ``max_memory`` (a power of two, at most
    :data:`MAX_TT_SLOTS`), or None without a limit (the agent's own default).

    Example:
        >>> table_slots(Limits(max_memory=64 << 20)), table_slots(Limits(max_memory=1 << 40))
        (524288, 1048576)
    """
    if not limits.max_memory:
        return None
    slots = max(1, limits.max_memory // TT_SHARE // TT_ENTRY_BYTES)
    return min(MAX_TT_SLOTS, 1 << (slots.bit_length() - 1))


def with_budget(spec: str, time_ms: float, tt: Optional[int] = None) -> str:
    """``spec`` searching at most ``time_ms`` per move (and with ``tt`` slots, unless the spec sets ``tt``).

    An alpha-beta spec (or a weight file, which is one) gets ``time_ms``, or
    keeps its own ``time_ms`` if that is smaller; its depth or node budget
    stays.  Other agents (``random``, ``rules``, ``perfect``, ``minimax``)
    have no time budget and are returned unchanged.

    Raises:
        AgentSpecError: a malformed spec.
    """
    parsed = parse_spec(spec)
    if parsed.kind is None:
        options = {"weights": str(parsed.path)}
    elif parsed.kind == "alphabeta":
        options = dict(parsed.options)
    else:
        return spec
    written = options.get("time_ms")
    try:
        keep = written is not None and float(written) <= time_ms
    except ValueError:
        keep = True  # malformed: left as written, for the agent to report when the spec is built
    if not keep:
        options["time_ms"] = f"{time_ms:g}"
    if tt is not None:
        options.setdefault("tt", str(tt))
    return "alphabeta:" + ",".join(f"{key}={value}" for key, value in options.items())
