"""The kernel tests again with the JIT off (``NUMBA_DISABLE_JIT=1``, as STUMPY's CI does), inside the normal suite.

With the JIT off every ``@njit`` kernel runs as plain Python: its ``assert``
preconditions run as Python statements (with a Python traceback at the
kernel's line), integer semantics are Python's, and a coverage tool can see the
kernels' lines.  Pure-Python kernels are a few hundred times slower, so the
second run takes the kernel modules whose tests finish in a minute or two
that way (:data:`NO_JIT_TESTS`, about a minute); the search and solver
kernels are left to the normal, compiled run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NO_JIT_TESTS = ("tests/test_bits.py", "tests/test_position.py", "tests/test_perft.py", "tests/test_playout.py",
                "tests/test_h_windows.py", "tests/test_h_square_values.py", "tests/test_h_patterns.py", "tests/test_h_mics.py",
                "tests/test_h_c4_features.py")  # fmt: skip
"""Kernel test modules run a second time without the JIT: games/ and the evaluators (about 50 s without the JIT on
a loaded 2-core VM).  Not yet ``test_h_threats.py``: one of its tests fails as Python (the uint8 arithmetic of
``_threats._cells_pass`` wraps differently from numba's), to be fixed with the threats kernel."""
NO_JIT_TIMEOUT = 600


def run_without_jit(args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    """``python <args>`` from the repository root with ``NUMBA_DISABLE_JIT=1`` and this checkout first on the path."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)


KERNEL_ASSERT = """
import numpy as np
from games._board import _drop_cell
assert not hasattr(_drop_cell, "py_func"), "the JIT is on: the kernel is a numba dispatcher"
_drop_cell(np.full(7, 6, np.int32), 6, 7, 3)   # a full column: breaks the kernel's precondition
"""


def test_a_kernel_precondition_fails_as_a_python_assert_without_the_jit() -> None:
    result = run_without_jit(["-c", KERNEL_ASSERT], timeout=120)
    assert result.returncode == 1
    lines = [line.strip() for line in result.stderr.strip().splitlines()]
    assert lines[-1] == "AssertionError"
    at = lines.index("assert heights[col] < rows")  # the kernel's own line, in a Python traceback frame
    assert "games/_board.py" in lines[at - 1] and "in _drop_cell" in lines[at - 1]


@pytest.mark.slow
def test_the_games_kernel_tests_pass_without_the_jit() -> None:
    # -n 0: one process, not the parallel run pyproject.toml asks for (this test already holds one worker)
    result = run_without_jit(["-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", "-x", *NO_JIT_TESTS], timeout=NO_JIT_TIMEOUT)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout.splitlines()[-1] and "skipped" not in result.stdout.splitlines()[-1]
