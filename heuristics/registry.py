"""The registry of evaluators: every heuristic of the seed documents, by name.

Each evaluator lives in a kernel module ``heuristics/_<name>.py`` exposing
``SPEC`` and the ``_evaluate``/``_order`` kernels (contract in
:mod:`heuristics.spec`).  Its position in :data:`NAMES` is its kernel id,
which the numba dispatcher (:mod:`heuristics._dispatch`) switches on.
"""

from __future__ import annotations

from heuristics import _c4_features, _mics, _patterns, _square_values, _threats, _windows
from heuristics.errors import UnknownHeuristicError
from heuristics.spec import HeuristicSpec

_MODULES = (_c4_features, _square_values, _patterns, _windows, _mics, _threats)

HEURISTICS: dict[str, HeuristicSpec] = {module.SPEC.name: module.SPEC for module in _MODULES}
"""Every registered evaluator by name, in kernel-id order."""

NAMES: tuple[str, ...] = tuple(HEURISTICS)
"""The registered names; ``NAMES.index(name)`` is the kernel id."""

# --- incremental evaluation (issue 16 item 2): one flag per evaluator ---
INCREMENTAL: frozenset[str] = frozenset({"windows", "mics"})
"""Evaluators the array search keeps incrementally on free boards (heuristics._incremental; a test checks it)."""


def get_spec(name: str) -> HeuristicSpec:
    """The spec of the evaluator called ``name``.

    Raises:
        UnknownHeuristicError: no such evaluator (the message lists them all).

    Example:
        >>> get_spec("square_values").weight_names
        ('scale',)
    """
    try:
        return HEURISTICS[name]
    except KeyError:
        raise UnknownHeuristicError(f"unknown heuristic {name!r}: choose one of {', '.join(NAMES)}") from None


def kernel_id(name: str) -> int:
    """The integer the numba dispatcher uses for ``name``."""
    get_spec(name)
    return NAMES.index(name)
