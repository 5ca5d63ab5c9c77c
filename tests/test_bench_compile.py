"""scripts/bench_compile.py: each entry point runs cold on an empty numba cache, then warm on the filled one."""

from __future__ import annotations

from scripts.bench_compile import ENTRY_POINTS, EntryPoint, measure

TINY = EntryPoint("one small kernel", "from games._bits import _cell_bit", "assert _cell_bit(6, 0, 3) == 1 << 26")
"""A kernel with nothing to link: compiles in well under a second."""


def test_the_cold_process_compiles_and_the_warm_one_only_loads() -> None:
    cold, warm = measure(TINY, timeout=300)
    assert cold["compiled"] >= 1 and cold["loaded"] == 0  # the empty cache: everything compiled
    assert warm["compiled"] == 0 and warm["loaded"] == cold["compiled"]  # each specialisation loaded back, none rebuilt
    assert cold["first"] > 0 and warm["run"] >= 0


def test_every_entry_point_is_code_or_a_command_line() -> None:
    for entry in ENTRY_POINTS:
        assert bool(entry.argv) != bool(entry.work), entry.name
        if not entry.argv:
            compile(entry.setup + "\n" + entry.work, entry.name, "exec")  # a typo fails here, not after minutes of compiling
