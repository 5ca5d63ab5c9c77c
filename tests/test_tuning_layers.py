"""The tuner's modules import each other one way, and the packages below it do not import it."""

from __future__ import annotations

from pathlib import Path

from tests.test_import_graph import _imports, cycle, module_graph

ROOT = Path(__file__).resolve().parents[1]


def test_the_tuning_modules_import_each_other_one_way() -> None:
    graph = module_graph("tuning")
    assert {"tuning.run", "tuning._setup", "tuning._confirm", "tuning.spsa"} <= set(graph)
    assert cycle(graph) == []


def test_envs_and_search_do_not_import_the_tuner() -> None:
    for package in ("games", "heuristics", "search", "envs"):
        for path in (ROOT / package).rglob("*.py"):  # subpackages too (search/ has four)
            above = sorted(m for m in _imports(path) if m == "tuning" or m.startswith("tuning."))
            assert not above, f"{path.relative_to(ROOT)} imports {above}"
