"""The tuner's modules import each other one way, and the packages below it do not import it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in the file (top level, functions, ``if TYPE_CHECKING``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _graph(package: str) -> dict[str, set[str]]:
    modules = {f"{package}.{p.stem}": p for p in (ROOT / package).glob("*.py") if p.stem != "__init__"}
    return {name: {m for m in _imports(path) if m in modules and m != name} for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` (a list of modules), or [] when its edges all point one way."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = 2
        stack.pop()
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_cycle_finder_finds_a_planted_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_the_tuning_modules_import_each_other_one_way() -> None:
    graph = _graph("tuning")
    assert {"tuning.run", "tuning._setup", "tuning._confirm", "tuning.spsa"} <= set(graph)
    assert _cycle(graph) == []


def test_envs_and_search_do_not_import_the_tuner() -> None:
    for package in ("games", "heuristics", "search", "envs"):
        for path in (ROOT / package).glob("*.py"):
            above = sorted(m for m in _imports(path) if m == "tuning" or m.startswith("tuning."))
            assert not above, f"{path.relative_to(ROOT)} imports {above}"
