"""heuristics.registry is the one registration: ids, names, bounds and the numba dispatch chains all agree with it."""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any, Callable

import pytest

from games import CONNECT4, MNK
from heuristics import HEURISTICS, NAMES, Evaluator, UnknownHeuristicError, _dispatch
from heuristics.bounds import max_abs_evaluation
from heuristics.registry import REGISTRY, kernel_id
from search.alphabeta import _bitnegamax

ROOT = Path(__file__).resolve().parents[1]

PINNED_IDS = {"c4_features": 0, "square_values": 1, "patterns": 2, "windows": 3, "mics": 4, "threats": 5}
"""The ids compiled kernels were built against: permanent, so a new evaluator only appends."""


def test_kernel_ids_count_up_from_zero_and_the_old_ones_never_move() -> None:
    assert [r.kernel_id for r in REGISTRY] == list(range(len(REGISTRY)))
    assert {name: kernel_id(name) for name in PINNED_IDS} == PINNED_IDS
    assert NAMES == tuple(r.spec.name for r in REGISTRY) and len(set(NAMES)) == len(NAMES)
    assert list(HEURISTICS.values()) == [r.spec for r in REGISTRY]


def test_every_registration_is_a_complete_evaluator_module() -> None:
    for r in REGISTRY:
        assert r.module.__name__ == f"heuristics._{r.spec.name}"
        evaluate, order = r.kernels
        assert callable(evaluate.py_func) and callable(order.py_func), r.spec.name
        assert callable(r.spec.bound) and r.spec.bound.__module__ == r.module.__name__


def test_the_bitboard_search_uses_the_registered_ids() -> None:
    assert (_bitnegamax.HID_C4_FEATURES, _bitnegamax.HID_SQUARE_VALUES, _bitnegamax.HID_THREATS) == (
        kernel_id("c4_features"), kernel_id("square_values"), kernel_id("threats"))  # fmt: skip


def test_bounds_come_from_each_evaluator_s_spec() -> None:
    # values of the bounds as they stood in heuristics/bounds.py before they moved to the specs
    assert max_abs_evaluation("square_values", CONNECT4, {"scale": 2.0}) == 2.0 * 69 * 4
    assert max_abs_evaluation("threats", MNK(3, 3, 3), dict.fromkeys(HEURISTICS["threats"].weight_names, 1.0)) == (
        2 * (3 * 8 + 4 * 9) * 27)  # fmt: skip
    with pytest.raises(UnknownHeuristicError, match="unknown heuristic 'nope'"):
        max_abs_evaluation("nope", CONNECT4, {})


def _chain_as_python(kernel: Any) -> Callable[..., Any]:
    """The dispatcher's Python source run with every registered kernel replaced by a stub naming its evaluator."""
    stubs: dict[int, Callable[..., str]] = {}
    for r in REGISTRY:
        for which, compiled in zip(("evaluate", "order"), r.kernels):
            stubs[id(compiled)] = lambda *args, tag=f"{r.spec.name}.{which}": tag
    namespace = {name: stubs.get(id(value), value) for name, value in vars(_dispatch).items()}
    return types.FunctionType(kernel.py_func.__code__, namespace)


@pytest.mark.parametrize("kernel, which, n_args", [(_dispatch._evaluate, "evaluate", 9), (_dispatch._order, "order", 10)])
def test_dispatch_chains_call_the_registered_kernels(kernel: Any, which: str, n_args: int) -> None:
    chain = _chain_as_python(kernel)
    for r in REGISTRY:
        assert chain(r.kernel_id, *[None] * n_args) == f"{r.spec.name}.{which}"
    for unknown in (-1, len(REGISTRY), 99):
        with pytest.raises(AssertionError, match="kernel id not in heuristics.registry.REGISTRY"):
            chain(unknown, *[None] * n_args)


def test_an_unknown_id_fails_in_the_compiled_kernel_too() -> None:
    h = Evaluator("square_values", CONNECT4)
    position = CONNECT4.position("44")
    args = (position._board, position._heights, 6, 7, 4, True, 1, h.weight_array, h.windows)
    assert _dispatch._evaluate(h.kernel_id, *args) == h.evaluate(position)
    with pytest.raises(AssertionError):
        _dispatch._evaluate(len(REGISTRY), *args)
    with pytest.raises(AssertionError):
        _dispatch._order(-1, *args, 3)


def test_an_unknown_id_fails_with_the_jit_disabled() -> None:
    # the kernels' asserts as plain Python, the way the NUMBA_DISABLE_JIT=1 CI run executes them
    code = ("from games import CONNECT4; from heuristics import Evaluator; from heuristics._dispatch import _evaluate\n"
            "h = Evaluator('windows', CONNECT4); p = CONNECT4.position('4')\n"
            "print(_evaluate(h.kernel_id, p._board, p._heights, 6, 7, 4, True, 1 + p.to_move, h.weight_array, h.windows))\n"
            f"_evaluate({len(REGISTRY)}, p._board, p._heights, 6, 7, 4, True, 1, h.weight_array, h.windows)\n")  # fmt: skip
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 1 and float(out.stdout) == Evaluator("windows", CONNECT4).evaluate(CONNECT4.position("4"))
    assert "AssertionError: heuristic kernel id not in heuristics.registry.REGISTRY" in out.stderr


def test_an_evaluator_s_kernel_id_is_the_registered_one_and_read_only() -> None:
    for name in NAMES:
        assert Evaluator(name, CONNECT4).kernel_id == kernel_id(name)
    with pytest.raises(AttributeError):
        Evaluator("mics", CONNECT4).kernel_id = 9  # type: ignore[misc]
    with pytest.raises(UnknownHeuristicError, match="unknown heuristic 'h9': choose one of c4_features, .*threats"):
        Evaluator("h9", CONNECT4)
