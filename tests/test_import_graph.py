"""The modules of games/ and search/ import each other one way: no import circle, at module or subpackage level.

An import counts wherever it is written (top level or inside a function), except under ``if TYPE_CHECKING:``,
which never runs: such an import only names a type for the annotations.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports when it runs, as written: ``from a import b`` gives ``a.b`` (:func:`_resolve`
    keeps it where ``a.b`` is a module, else takes ``a``, whose name ``b`` is)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text()))
    return found


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(name: str, modules: set[str]) -> str:
    """The module an import of ``name`` runs: ``name`` itself if a module, else the module it is a name of."""
    while name not in modules and "." in name:
        name = name.rpartition(".")[0]
    return name


def module_graph(package: str) -> dict[str, set[str]]:
    """``package``'s modules (subpackages included) and the ones of them each imports.  The package inits an import
    of a submodule runs first are left out: every import of a submodule runs them, so they say nothing."""
    modules = {_module_name(p): p for p in (ROOT / package).rglob("*.py")}
    graph = {name: {_resolve(m, set(modules)) for m in _imports(path)} for name, path in modules.items()}
    return {name: {m for m in targets if m in modules and m != name} for name, targets in graph.items()}


def package_graph(package: str) -> dict[str, set[str]]:
    """``package``'s parts and which import which: each direct subpackage, the modules beside them (the shared
    vocabulary, one part: ``<package>.*``) and the package's own ``__init__`` (its public face, ``<package>``)."""

    def unit(module: str) -> str:
        parts = module.split(".")
        if len(parts) == 1:
            return package
        return ".".join(parts[:2]) if (ROOT / package / parts[1]).is_dir() else f"{package}.*"

    graph: dict[str, set[str]] = {}
    for module, targets in module_graph(package).items():
        graph.setdefault(unit(module), set()).update(unit(t) for t in targets)
    return {name: targets - {name} for name, targets in graph.items()}


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of ``graph`` (a list of nodes, the first repeated last), or [] when there is none."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
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


def test_the_cycle_finder_finds_planted_circles() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) == []


def test_a_type_checking_import_is_not_counted_and_a_function_level_one_is(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import a\nelse:\n    import b\n"
                      "def f():\n    from c import d\n")  # fmt: skip
    assert _imports(source) == {"typing.TYPE_CHECKING", "b", "c.d"}
    assert _resolve("search.alphabeta._negamax", {"search", "search.alphabeta", "search.alphabeta._negamax"}) \
        == "search.alphabeta._negamax"  # fmt: skip
    assert _resolve("search.Limit", {"search", "search.budget"}) == "search"


@pytest.mark.parametrize("package", ["games", "search"])
def test_no_module_imports_itself_through_others(package: str) -> None:
    graph = module_graph(package)
    assert len(graph) > 10
    assert cycle(graph) == []


def test_the_search_subpackages_import_each_other_one_way() -> None:
    graph = package_graph("search")
    assert {"search", "search.*", "search.alphabeta", "search.solve", "search.gomoku", "search.agents", "search.piskvork"} <= set(graph)
    assert cycle(graph) == []
    # the order a reader can rely on: the core below the engines, the agents above them, the protocol on top
    assert "search.agents" not in graph["search.alphabeta"] | graph["search.solve"] | graph["search.gomoku"]
    assert "search.piskvork" not in set().union(*(targets for name, targets in graph.items() if name != "search.piskvork"))
    assert graph["search.*"] == set()  # the shared vocabulary (budgets, results, errors, tables) imports no part
