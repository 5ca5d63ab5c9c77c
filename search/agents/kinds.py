"""The built-in agent kinds, one registration each, and the engines an alpha-beta agent may play.

A new agent kind is a module of its own (its agent class) and one :func:`search.agents.registry.register_kind`
call here; a new engine for alpha-beta agents is a folder of its own (its player, with its settings) and one
:func:`search.agents.alphabeta.register_engine` call here.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from games import KInARow
from heuristics import get_spec, load_weights
from search.agents.alphabeta import (
    AlphaBetaAgent,
    EngineEntry,
    MinimaxAgent,
    alphabeta_heuristic,
    engine_switch_names,
    register_engine,
)
from search.agents.registry import AgentKind, convert, convert_options, register_kind
from search.agents.simple import RandomAgent, RuleBasedAgent
from search.agents.spec import AgentSpecError
from search.budget import FIELD_TYPES, FIELDS, Limit
from search.gomoku.player import GomokuPlayer
from search.protocol import Agent
from search.solve import DEFAULT_TT_SIZE, PerfectAgent

__all__: list[str] = []  # registrations only: the kinds are reached through search.agents.make_agent

ALPHABETA_TT_SIZE = 1 << 18
"""An alpha-beta agent's table slots when a spec gives no ``tt``."""


def _alphabeta_keys() -> dict[str, type]:
    """``alphabeta``'s keys: heuristic, weights, the budget fields, table, random moves, seed, the threat and
    solver budgets, the opening book (``book=1``), and every registered engine's switches (integers)."""
    keys: dict[str, type] = {"heuristic": str, "weights": str, **{name: FIELD_TYPES[name] for name in FIELDS}}
    keys |= {"tt": int, "random_every": int, "seed": int, "tss_nodes": int, "solve_ms": float, "book": int}
    return keys | {name: int for name in engine_switch_names()}


def _alphabeta(spec: str, game: KInARow, options: Mapping[str, str], seed: Optional[int]) -> Agent:
    """An alpha-beta agent; any weight name of its heuristic is a key too (a float override)."""
    heuristic = options.get("heuristic") or (
        load_weights(options["weights"], game).heuristic if "weights" in options else alphabeta_heuristic(game)
    )
    weight_names = set(get_spec(heuristic).weight_names)
    overrides = {key: convert(spec, key, value, float) for key, value in options.items() if key in weight_names}
    rest = {key: value for key, value in options.items() if key not in weight_names}
    values: dict[str, Any] = convert_options(spec, "alphabeta", rest, extra=" and the heuristic's weight names")
    if "weights" in values and overrides:
        raise AgentSpecError(f"agent spec {spec!r}: give weights either as a file or by name, not both")
    if values.get("book", 0) not in (0, 1):
        raise AgentSpecError(f"agent spec {spec!r}: book={values['book']!r} must be 0 or 1")
    limit = Limit(**{name: values[name] for name in FIELDS if name in values})
    switches = {name: values[name] for name in engine_switch_names() if name in values}
    agent = AlphaBetaAgent(game, values.get("heuristic"), values.get("weights", overrides), limit=limit,
                           tt_size=values.get("tt", ALPHABETA_TT_SIZE), random_every=values.get("random_every"),
                           seed=values.get("seed", seed), tss_nodes=values.get("tss_nodes"),
                           solve_ms=values.get("solve_ms"), engine_switches=switches,
                           book=bool(values.get("book", 0)))  # fmt: skip
    agent.spec = spec
    return agent


def _alphabeta_from_file(spec: str, path: str, game: KInARow, seed: Optional[int]) -> Agent:
    """The path form: an alpha-beta agent with a weight file's heuristic, weights and search settings."""
    agent = AlphaBetaAgent(game, weights=path, seed=seed)
    agent.spec = spec
    return agent


def _minimax(spec: str, game: KInARow, options: Mapping[str, str], seed: Optional[int]) -> Agent:
    """Plain minimax (no pruning) to ``depth`` (3 by default)."""
    values = convert_options(spec, "minimax", options)
    return MinimaxAgent(game, values.get("heuristic"), depth=values.get("depth", 3), radius=values.get("radius"),
                        seed=values.get("seed", seed))  # fmt: skip


def _random(spec: str, game: KInARow, options: Mapping[str, str], seed: Optional[int]) -> Agent:
    """Uniformly random legal moves."""
    return RandomAgent(seed=convert_options(spec, "random", options).get("seed", seed))


def _rules(spec: str, game: KInARow, options: Mapping[str, str], seed: Optional[int]) -> Agent:
    """The rule-based player the Bologna m,n,k project cites."""
    return RuleBasedAgent(seed=convert_options(spec, "rules", options).get("seed", seed))


def _perfect(spec: str, game: KInARow, options: Mapping[str, str], seed: Optional[int]) -> Agent:
    """The exact solver's agent (``weak=1``: only the sign of the value)."""
    values = convert_options(spec, "perfect", options)
    if values.get("weak", 0) not in (0, 1):
        raise AgentSpecError(f"agent spec {spec!r}: weak={values['weak']!r} must be 0 or 1")
    return PerfectAgent(game, weak=bool(values.get("weak", 0)), tt_size=values.get("tt", DEFAULT_TT_SIZE),
                        seed=values.get("seed", seed), time_ms=values.get("time_ms"), nodes=values.get("nodes"))  # fmt: skip


register_engine(EngineEntry("gomoku", GomokuPlayer.plays, GomokuPlayer, GomokuPlayer.switch_names,
                            GomokuPlayer.default_weights()))  # fmt: skip

register_kind(AgentKind("alphabeta", _alphabeta, "iterative-deepening alpha-beta with a heuristic (or a weight file)",
                        _alphabeta_from_file, _alphabeta_keys))  # fmt: skip
register_kind(AgentKind("minimax", _minimax, "plain minimax, the textbook baseline",
                        keys=lambda: {"heuristic": str, "depth": int, "radius": int, "seed": int}))  # fmt: skip
register_kind(AgentKind("random", _random, "uniformly random legal moves", keys=lambda: {"seed": int}))
register_kind(AgentKind("rules", _rules, "the rule-based player (win, block, fork, ways to win)", keys=lambda: {"seed": int}))
register_kind(AgentKind("perfect", _perfect, "the exact solver",
                        keys=lambda: {"weak": int, "tt": int, "seed": int, "time_ms": float, "nodes": int}))  # fmt: skip
