"""The grammar of agent specs, and its one parser (used by :func:`search.agents.make_agent`, hence by every CLI and env).

Grammar::

    spec     := agent | path
    agent    := NAME [":" options]       NAME is the text before the first ":" and a registered kind (KIND_NAMES)
    options  := [option ("," option)*]   blanks around items are ignored, an empty item is skipped
    option   := KEY "=" VALUE            VALUE runs to the next ","; it may hold "=", ":", "/" or "."
    path     := any other text            a weight file (an alpha-beta agent with the file's settings)

So the form is decided by the first word alone: ``alphabeta:weights=w/x.json``
is an alpha-beta spec whatever its last key, and ``w/x.json`` (no agent
name before a colon) is a path.  A file whose name starts with an agent name
and a colon (``random:1.json``) needs a folder in front: ``./random:1.json``.
A value cannot contain a comma (a weight file path given as ``weights=``
included).  A key may appear once: ``depth=2,depth=3`` is an error.

Example:
    >>> parse_spec("alphabeta:weights=weights/connect4-windows.json,depth=2")
    AgentSpec(kind='alphabeta', options={'weights': 'weights/connect4-windows.json', 'depth': '2'}, path=None)
    >>> parse_spec("weights/connect4-windows.json").path
    'weights/connect4-windows.json'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from search.errors import SearchError

KIND_NAMES: list[str] = []
"""The agent names a spec may start with, in registration order: filled by
:func:`search.agents.registry.register_kind` (``alphabeta``, ``minimax``, ``random``, ``rules``, ``perfect`` are
registered when :mod:`search.agents` is imported, which importing this module does first)."""


class AgentSpecError(SearchError):
    """An agent spec that cannot be turned into an agent (the message lists what is allowed)."""


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: an agent name with its ``key: value`` texts, or (``kind`` None) a weight file path."""

    kind: Optional[str]
    """One of :data:`KIND_NAMES`, or None for the path form."""
    options: dict[str, str] = field(default_factory=dict)
    """The options as written (values still text), in the order given."""
    path: Optional[str] = None
    """The weight file of the path form."""


def parse_spec(spec: str) -> AgentSpec:
    """Split ``spec`` by the module's grammar (values are left as text: the agent converts them).

    Raises:
        AgentSpecError: not a string, an empty spec, an option that is not
            ``key=value``, or a key given twice (the message names it).
    """
    if not isinstance(spec, str):
        raise AgentSpecError(f"agent spec {spec!r} is not a string: use an agent name ({', '.join(KIND_NAMES)}) "
                             "with options, or a weight file path")  # fmt: skip
    text = spec.strip()
    if not text:
        raise AgentSpecError(f"agent spec {spec!r} is empty: use one of {', '.join(KIND_NAMES)} or a weight file path")
    head, _, rest = text.partition(":")
    kind = head.strip()
    if kind not in KIND_NAMES:
        return AgentSpec(None, {}, text)
    options: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise AgentSpecError(f"agent spec {spec!r}: {item!r} is not key=value")
        if key in options:
            raise AgentSpecError(f"agent spec {spec!r}: key {key!r} is given twice ({key}={options[key]} and {key}={value})")
        options[key] = value
    return AgentSpec(kind, options)


def weight_file_of(spec: str) -> Optional[str]:
    """The weight file a spec names on its own (the path form), else None (an agent spec, even with ``weights=``).

    Raises:
        AgentSpecError: as :func:`parse_spec`.
    """
    return parse_spec(spec).path
