"""Agents in the arena: an opponent's move (Play), and two agents playing each other live (Watch).

An agent is any agent spec or shipped weight file by name (:func:`search.agents.make_agent`); it thinks
for the time the page asks, where its spec sets no budget of its own (:func:`arena._engine.timed_spec`).
Built agents are kept (their tables help the next move of the same game) and used by one thread at a time.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any, Optional

from arena import _engine as engine
from arena.errors import BadRequest
from arena.jobs import Emit, Job
from arena.positions import position_json

KEPT_AGENTS = 8
"""Built agents kept (least recently used dropped first): each holds a table of up to 32 MB."""
MAX_THINK_MS = 60_000.0
"""The longest thinking time a page may ask for, per move (ms)."""
MAX_WATCH_PLIES = 10_000
"""A watched game stops after this many plies (a 100x100 board is 10,000 cells)."""

_AGENTS: OrderedDict[tuple[engine.KInARow, str, int], tuple[Any, threading.Lock]] = OrderedDict()
_AGENTS_LOCK = threading.Lock()


def think_ms(text: str, default: float = 1000.0) -> float:
    """A thinking time in ms from a request parameter, 1 to :data:`MAX_THINK_MS`.

    Raises:
        BadRequest: not a number in that range.
    """
    if text == "":
        return default
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 1 <= value <= MAX_THINK_MS:
        raise BadRequest(f"time_ms={text!r} must be a number of milliseconds from 1 to {MAX_THINK_MS:.0f}")
    return value


def agent_names(game: engine.KInARow) -> dict[str, Any]:
    """What the page offers as opponents for ``game``: the agent names and the shipped weight files that play it."""
    return {"agents": list(engine.AGENT_NAMES), "weights": list(engine.shipped_names(game)),
            "solver": engine.solvable(game) is None}  # fmt: skip


def _agent(game: engine.KInARow, spec: str, slot: int) -> tuple[Any, threading.Lock]:
    """The kept agent for ``(game, spec, slot)``, built on first use; ``slot`` separates two copies of one spec.

    Raises:
        BadRequest: a spec make_agent refuses (its message lists the valid agents and keys).
    """
    key = (game, spec, slot)
    with _AGENTS_LOCK:
        if key in _AGENTS:
            _AGENTS.move_to_end(key)
            return _AGENTS[key]
    try:
        built = (engine.make_agent(spec, game, seed=0), threading.Lock())
    except (engine.AgentSpecError, ValueError) as error:
        raise BadRequest(f"agent {spec!r}: {error}") from None
    with _AGENTS_LOCK:
        _AGENTS[key] = built
        while len(_AGENTS) > KEPT_AGENTS:
            _AGENTS.popitem(last=False)
    return built


def checked_spec(game: engine.KInARow, spec: str, time_ms: float) -> str:
    """The spec as it will play (with the thinking time), built once so a bad one is refused before any move.

    Raises:
        BadRequest: an empty or malformed spec, an unknown agent or key, a weight file of another game.
    """
    if not spec.strip():
        raise BadRequest(f"agent='' is empty: use one of {', '.join(engine.AGENT_NAMES)} or a shipped weight file's name")
    try:
        engine.make_agent(spec, game)  # the spec as given, so a message quotes what the page sent
        timed = engine.timed_spec(spec, time_ms)
    except (engine.AgentSpecError, ValueError) as error:
        raise BadRequest(str(error)) from None
    _agent(game, timed, 0)
    return timed


def _info(agent: Any, seconds: float) -> dict[str, Any]:
    """What an agent said about its move: score, depth, nodes, where it came from (the solver or a search)."""
    result = getattr(agent, "last_result", None)
    info: dict[str, Any] = {"seconds": round(seconds, 4), "agent": getattr(agent, "name", "")}
    for name in ("score", "depth", "nodes"):
        value = getattr(result, name, None)
        if value is not None:
            info[name] = round(float(value), 2) if name == "score" else int(value)
    source = getattr(agent, "last_source", None)
    if source is not None:
        info["source"] = source
    return info


def agent_move(position: engine.Position, spec: str, time_ms: float, job: Job, slot: int = 0,
               new_game: bool = False) -> dict[str, Any]:  # fmt: skip
    """The agent's move in ``position`` and the position after it (``spec`` already checked and timed).

    ``new_game`` (or a position of at most one stone) resets the agent first: a table of another game only misleads.

    Raises:
        BadRequest: the game is over.
    """
    if position.is_terminal():
        raise BadRequest(f"position {position.move_string()!r} is over ({position.outcome()}): no move to make")
    agent, lock = _agent(position.game, spec, slot)
    with lock:
        if new_game or position.ply <= 1:
            agent.reset()
        started = time.perf_counter()
        move = agent.select_move(position.copy())
        info = _info(agent, time.perf_counter() - started)
    after = position.copy()
    after.play(move)
    game = position.game
    return {"move": move, "notation": game.format_move(move), "info": info, "position": position_json(after)}


def watch(start: engine.Position, specs: tuple[str, str], time_ms: float, job: Job, emit: Emit,
          delay_ms: float = 0.0, max_plies: Optional[int] = None) -> None:  # fmt: skip
    """Two agents play from ``start`` (``specs[0]`` moves first from there); one ``move`` event per move, then ``result``.

    Stops when the game ends, at ``max_plies`` (a draw by adjudication), or when the job is cancelled.
    """
    position = start.copy()
    cap = min(max_plies or MAX_WATCH_PLIES, MAX_WATCH_PLIES)
    emit("start", {"position": position_json(position), "first": specs[0], "second": specs[1]})
    first_side = position.to_move
    while not position.is_terminal() and position.ply < cap:
        if job.cancelled.is_set():
            return
        side = 0 if position.to_move == first_side else 1
        answer = agent_move(position, specs[side], time_ms, job, slot=side, new_game=position.ply - start.ply < 2)
        position.play(answer["move"])
        emit("move", {"ply": position.ply, "move": answer["move"], "notation": answer["notation"], "side": side,
                      "agent": specs[side], "info": answer["info"], "position": answer["position"]})  # fmt: skip
        if delay_ms > 0:
            job.cancelled.wait(delay_ms / 1000.0)
    emit("result", {"winner": position.winner, "outcome": position.outcome() or f"adjudicated a draw after {cap} plies",
                    "moves": position.move_string()})  # fmt: skip
