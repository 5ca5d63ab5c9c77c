"""tuning/bench_compile.py: each entry point runs cold on an empty numba cache, then warm on the filled one."""

from __future__ import annotations

import math
from pathlib import Path

from tuning.bench_compile import ENTRY_POINTS, PACKAGE_ROOT, EntryPoint, child_env, measure, run_process

TINY = EntryPoint("one small kernel", "from games._bits import _cell_bit", "assert _cell_bit(6, 0, 3) == 1 << 26")
"""A kernel with nothing to link: compiles in well under a second."""

MARKED = EntryPoint("a marked point", "from games._bits import _cell_bit\n_mark = time.perf_counter(), time.process_time()",
                    "time.sleep(0.3)", repeat=False)  # fmt: skip
"""An entry point whose setup marks the point a user waits for (as ``tuning.run`` marks its first pair)."""


def test_the_cold_process_compiles_and_the_warm_one_only_loads() -> None:
    cold, warm = measure(TINY, timeout=300)
    assert cold["compiled"] >= 1 and cold["loaded"] == 0  # the empty cache: everything compiled
    assert warm["compiled"] == 0 and warm["loaded"] == cold["compiled"]  # each specialisation loaded back, none rebuilt
    assert 0 < cold["first"] <= cold["whole"] and warm["run"] >= 0 and 0 < cold["first_cpu"] <= cold["whole_cpu"]
    assert "games._bits._cell_bit" in cold["kernels"] and warm["kernels"] == {}  # compile events: cold only


def test_a_marked_entry_point_is_timed_to_its_mark_and_run_once(tmp_path: Path) -> None:
    result = run_process(MARKED, tmp_path, tmp_path, timeout=300)
    assert result["whole"] - result["first"] >= 0.25 and math.isnan(result["run"])


def test_the_measured_processes_import_the_packages_the_benchmark_came_from() -> None:
    """From a scratch folder, so a wheel's user measures the wheel, and a checkout's the checkout (not an editable
    install of another one)."""
    env = child_env(PACKAGE_ROOT / "cache")
    assert env["PYTHONPATH"].split(":")[0] == str(PACKAGE_ROOT) and env["NUMBA_CACHE_DIR"].endswith("cache")
    assert "NUMBA_DISABLE_JIT" not in env


def test_every_entry_point_compiles_as_python() -> None:
    for entry in ENTRY_POINTS:
        compile(entry.setup + "\n" + entry.work, entry.name, "exec")  # a typo fails here, not after minutes of compiling
