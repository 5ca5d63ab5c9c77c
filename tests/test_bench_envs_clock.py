"""scripts/bench_envs.py --clock cpu: rates per CPU second on one thread, and numba's threads given back afterwards."""

from __future__ import annotations

import re

import numba
import pytest

from scripts import bench_envs


def test_the_cpu_clock_runs_the_one_thread_rows_and_restores_the_threads(capsys: pytest.CaptureFixture[str]) -> None:
    threads = numba.get_num_threads()
    seen: list[int] = []
    original = bench_envs.measure

    def spy(*args: object) -> int:
        seen.append(numba.get_num_threads())
        return original(*args)  # type: ignore[arg-type]

    bench_envs.measure = spy  # type: ignore[assignment]
    try:
        assert bench_envs.main(["--seconds", "0.01", "--rounds", "1", "--num-envs", "2", "--clock", "cpu"]) == 0
    finally:
        bench_envs.measure = original  # type: ignore[assignment]
    out = capsys.readouterr().out
    assert seen == [1] and numba.get_num_threads() == threads  # one thread while measuring, the old count after
    assert "batched vector env, 2 boards, alphabeta:depth=2 opponent, one thread" in out
    assert "the default: " not in out and "Pgx" not in out.replace("no threaded or Pgx rows", "")
    assert "per second of this process's CPU time" in out
    assert re.search(r"batched env \(serial\) vs single env: [\d.]+x", out) and "(parallel)" not in out


def test_the_clock_must_be_wall_or_cpu(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench_envs.main(["--clock", "gpu"])
    assert exit_info.value.code == 2 and "invalid choice: 'gpu'" in capsys.readouterr().err
