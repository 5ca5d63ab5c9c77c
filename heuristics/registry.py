"""The registry of evaluators: the one place an evaluator is registered.

An evaluator lives in its module ``heuristics/_<name>.py``, which declares
everything about it: ``SPEC`` (name, weights with defaults and tuning ranges,
refused boards, evaluation bound: :mod:`heuristics.spec`) and the
``_evaluate``/``_order`` kernels.  :data:`REGISTRY` pairs each module with its
kernel id, the integer the numba kernels switch on
(:mod:`heuristics._dispatch`); every other list of evaluators (:data:`NAMES`,
:data:`HEURISTICS`, the bounds of :mod:`heuristics.bounds`, the tests'
evaluator lists) is derived from it.

Kernel ids are permanent: a new evaluator takes the next one, and none is
ever renumbered.  Compiled kernels compare against them (the dispatcher's
literal chain, which ``tests/test_registry.py`` checks against
this registry, and the bitboard search's ``HID_*`` constants), and numba's
cache would keep a kernel compiled against an old number.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

from heuristics import _c4_features, _gomoku, _mics, _patterns, _square_values, _threats, _windows
from heuristics.errors import UnknownHeuristicError
from heuristics.spec import HeuristicSpec


@dataclass(frozen=True)
class Registration:
    """One registered evaluator: its permanent kernel id and its module (``SPEC``, ``_evaluate``, ``_order``)."""

    kernel_id: int
    module: ModuleType

    @property
    def spec(self) -> HeuristicSpec:
        """The evaluator's declaration (name, weights, refused boards, bound)."""
        spec: HeuristicSpec = self.module.SPEC
        return spec

    @property
    def kernels(self) -> tuple[Any, Any]:
        """The numba kernels ``(_evaluate, _order)`` the dispatcher calls for :attr:`kernel_id`."""
        return self.module._evaluate, self.module._order


REGISTRY: tuple[Registration, ...] = (
    Registration(0, _c4_features),
    Registration(1, _square_values),
    Registration(2, _patterns),
    Registration(3, _windows),
    Registration(4, _mics),
    Registration(5, _threats),
    Registration(6, _gomoku),
)
"""Every evaluator, in kernel-id order (ids 0, 1, 2, ...; the tests check the order and pin the ids)."""

HEURISTICS: dict[str, HeuristicSpec] = {r.spec.name: r.spec for r in REGISTRY}
"""Every registered evaluator by name, in kernel-id order."""

NAMES: tuple[str, ...] = tuple(HEURISTICS)
"""The registered names, in kernel-id order."""

_IDS: dict[str, int] = {r.spec.name: r.kernel_id for r in REGISTRY}

# --- incremental evaluation: one flag per evaluator ---
INCREMENTAL: frozenset[str] = frozenset({"windows", "mics", "patterns"})
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
    """The integer the numba kernels switch on for the evaluator ``name``.

    Raises:
        UnknownHeuristicError: no such evaluator.

    Example:
        >>> kernel_id("threats")
        5
    """
    get_spec(name)
    return _IDS[name]

