"""Agent kinds by spec name, and :func:`make_agent`, which turns any spec into an agent through them.

A kind is registered once (:func:`register_kind`) with the spec keys it takes and a builder; the built-in
kinds (``alphabeta``, ``minimax``, ``random``, ``rules``, ``perfect``) are registered by
:mod:`search.agents.kinds`, so a new kind is its own module plus one registration there.  The spec
grammar is :mod:`search.agents.spec`; the path form (a weight file, or a shipped one's name) builds an
alpha-beta agent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional

from games import KInARow
from heuristics import WeightFileError, resolve_weight_file
from search.agents.spec import KIND_NAMES, AgentSpecError, parse_spec
from search.errors import SearchError
from search.protocol import Agent

__all__ = ["AgentKind", "KINDS", "convert", "convert_options", "make_agent", "register_kind"]

Builder = Callable[[str, KInARow, Mapping[str, str], Optional[int]], Agent]


@dataclass(frozen=True)
class AgentKind:
    """An agent a spec may name: ``NAME[:key=value,...]``.

    The builder gets the spec as written (for messages), the game, the options as text (each key at most once,
    unknown keys not yet refused: :func:`convert` checks them against the kind's keys) and a default seed.
    """

    name: str
    build: Builder
    summary: str = ""
    """One line for usage messages: what the kind is and its keys."""
    from_path: Optional[Callable[[str, str, KInARow, Optional[int]], Agent]] = None
    """``from_path(spec, path, game, seed)``: the agent a weight file builds (the path form); set for one kind
    (``alphabeta``)."""
    keys: Callable[[], Mapping[str, type]] = field(default=lambda: {})
    """The kind's spec keys and their types (int, float or str), as a function: a kind may take keys that
    registered engines add after it."""


KINDS: dict[str, AgentKind] = {}
"""The registered kinds by spec name, in registration order."""


def register_kind(kind: AgentKind) -> None:
    """Make ``kind.name`` a spec name that :func:`make_agent` builds with ``kind.build``.

    Raises:
        SearchError: the name is taken, or is not lower-case letters and underscores (a spec's name is the text
            before its first ``:``, so a name with a dot or a slash would read as a path).
    """
    if not re.fullmatch(r"[a-z_]+", kind.name):
        raise SearchError(f"agent kind name {kind.name!r} must be lower-case letters and underscores")
    if kind.name in KINDS:
        raise SearchError(f"an agent kind named {kind.name!r} is registered already")
    KINDS[kind.name] = kind
    KIND_NAMES.append(kind.name)


_ASCII_INT = re.compile(r"[+-]?[0-9]+")
_ASCII_FLOAT = re.compile(r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity)", re.IGNORECASE)


def convert(spec: str, key: str, value: str, kind: type) -> Any:
    """``value`` as ``kind`` (int, float or str): plain ASCII digits only (Python's ``int`` would take ``1_0`` as 10
    and a non-ASCII digit such as ``\u0663`` as 3, so a typo or a pasted character would silently choose another agent).

    Raises:
        AgentSpecError: a value that is not a number of that kind (the message names the key).
    """
    if kind is int:
        if not _ASCII_INT.fullmatch(value):
            raise AgentSpecError(f"agent spec {spec!r}: {key}={value!r} is not a number: give an integer in plain digits 0-9")
        return int(value)
    if kind is float:
        if not _ASCII_FLOAT.fullmatch(value):
            raise AgentSpecError(f"agent spec {spec!r}: {key}={value!r} is not a number: give plain digits 0-9, '.', an exponent")
        return float(value)
    return value


def convert_options(spec: str, name: str, options: Mapping[str, str], extra: str = "") -> dict[str, Any]:
    """Every option of a ``name`` spec converted to its key's type.

    Raises:
        AgentSpecError: an unknown key (the message lists the kind's keys, then ``extra``) or a bad value.
    """
    keys = KINDS[name].keys()
    unknown = sorted(set(options) - set(keys))
    if unknown:
        raise AgentSpecError(f"unknown key(s) {', '.join(map(repr, unknown))} for {name!r} in spec {spec!r}: "
                             f"valid keys are {', '.join(sorted(keys))}{extra}")  # fmt: skip
    return {key: convert(spec, key, value, keys[key]) for key, value in options.items()}


def make_agent(spec: str, game: KInARow, seed: Optional[int] = None) -> Agent:
    """Build an agent from a command-line spec.

    The grammar (one parser, :func:`search.agents.spec.parse_spec`, for every
    caller: this function, ``tuning.match``, ``envs.play`` and the envs'
    ``opponent=``)::

        spec    := NAME [":" key=value ("," key=value)*]  |  PATH
        NAME    := a registered kind: alphabeta | minimax | random | rules | perfect   (the text before the first ":")
        PATH    := anything else: a weight file, or a shipped one's name (an alpha-beta agent with its heuristic, weights and search)

    A value runs to the next comma, so ``alphabeta:weights=dir/x.json,depth=2``
    and ``alphabeta:depth=2,weights=dir/x.json`` are the same agent; a key may
    appear only once.  Keys by agent: ``minimax`` (depth=3, heuristic,
    radius, seed); ``perfect`` (weak=0|1, tt=slots, seed, time_ms and nodes per move; the exact solver,
    :class:`search.solve.PerfectAgent`); ``random``/``rules`` (seed);
    ``alphabeta`` (heuristic, weights (a weight file), the budget keys depth,
    branching, nodes, time_ms, radius (:data:`search.budget.FIELDS`, read into
    one :class:`search.budget.Limit`), tt, random_every, seed, solve_ms (try the exact solver first), tss_nodes
    (threat-space search budget, 0: off), where the gomoku engine plays its threat-search switches
    (:data:`search.gomoku.SWITCH_NAMES`), and any weight name of the heuristic as an override).

    Args:
        spec: the spec string.
        game: the game the agent will play.
        seed: a default seed, overridden by a ``seed=`` key.

    Raises:
        AgentSpecError: unknown agent name or key, a key given twice, a
            malformed option (the message lists what is allowed).
        ValueError: values the agent itself refuses (bad depth, unknown
            heuristic, malformed weight file, a table too large, ...).
    """
    parsed = parse_spec(spec)
    if parsed.kind is None:
        assert parsed.path is not None
        if parsed.path.endswith(".zip"):
            raise AgentSpecError(f"{parsed.path!r} looks like a saved RL model, not an agent spec or weight file: an "
                                 "environment takes it as opponent=, python -m envs.rate rates it")  # fmt: skip
        if not parsed.path.endswith(".json") and not _names_weight_file(parsed.path):
            raise AgentSpecError(f"unknown agent {parsed.path.partition(':')[0]!r} in spec {spec!r}: use one of "
                                 f"{', '.join(KINDS)}, a weight file path or a shipped weight file's name "
                                 "(python -m weights --list)")  # fmt: skip
        from_path = next(kind.from_path for kind in KINDS.values() if kind.from_path is not None)
        return from_path(spec, parsed.path, game, seed)
    return KINDS[parsed.kind].build(spec, game, parsed.options, seed)


def _names_weight_file(text: str) -> bool:
    """True if ``text`` is an existing file or a shipped weight file's name (:func:`heuristics.resolve_weight_file`)."""
    try:
        return resolve_weight_file(text).is_file()
    except WeightFileError:
        return False
