"""scripts/bench_gomoku_patterns.py end to end on a tiny budget (its numbers are not checked: they are timings)."""

from __future__ import annotations

import argparse

import pytest

from scripts import bench_gomoku_patterns as bench


def test_the_benchmark_runs_end_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--sizes", "9,9,6x", "9,9,4", "--time-ms", "30", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert "9,9,6x" in out and " memo " in out and " table " in out and "x " in out


def test_a_bad_size_gets_a_clear_error() -> None:
    assert bench.parse_size("20,20,6x") == (20, 20, 6, True)
    with pytest.raises(argparse.ArgumentTypeError, match="'20,20'"):
        bench.parse_size("20,20")
