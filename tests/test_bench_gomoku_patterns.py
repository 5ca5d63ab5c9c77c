"""scripts/bench_gomoku_patterns.py end to end on a tiny budget (its numbers are not checked: they are timings)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scripts import bench_gomoku_patterns as bench

ROOT = Path(__file__).resolve().parents[1]


def test_the_benchmark_runs_end_to_end() -> None:
    # with the JIT off: what this checks is the script's own code, all Python; on a fresh clone a compiled run
    # would first compile the engine here too, a minute (the kernels' results with and without the memo are
    # compared in tests/test_gomoku_patterns.py)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    args = ["--sizes", "9,9,6x", "9,9,4", "--time-ms", "30", "--repeats", "1"]
    done = subprocess.run([sys.executable, "-m", "scripts.bench_gomoku_patterns", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.strip().startswith("9,9,")}
    assert rows["9,9,6x"][1] == "memo" and rows["9,9,4"][1] == "table"
    assert all(row[4].endswith("x") and float(row[4][:-1]) > 0 for row in rows.values())


def test_a_bad_size_gets_a_clear_error() -> None:
    assert bench.parse_size("20,20,6x") == (20, 20, 6, True)
    with pytest.raises(argparse.ArgumentTypeError, match="'20,20'"):
        bench.parse_size("20,20")
