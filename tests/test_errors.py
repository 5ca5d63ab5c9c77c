"""One error hierarchy: every domain error is an AlphabetaError (so a ValueError), and games, search and the solver
raise domain errors, not bare ValueError."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

from games import CONNECT4, TIC_TAC_TOE, AlphabetaError, Connect4, GameError, IllegalMoveError, InvalidGameError
from games.checks import check_int, check_seed
from games.errors import InvalidValueError
from search.agents import AlphaBetaAgent, make_agent
from search.agents.simple import ways_to_win
from search.errors import SearchError, UnsolvableGameError
from search.solve import PerfectAgent, Solver, solve

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "heuristics", "search", "envs", "tuning", "arena")
BARE_VALUE_ERROR_FREE = ("games", "search")
NOT_YET: set[str] = set()
"""Modules still allowed a bare ValueError (none: the search budget type raises BudgetError)."""


def project_errors() -> list[type[BaseException]]:
    """Every exception class defined in the project's packages (not the signals: SIGTERM's ``Terminated`` is a
    KeyboardInterrupt, as Ctrl-C is, so that ``except Exception`` never swallows it)."""
    found = []
    for package in PACKAGES:
        for info in pkgutil.walk_packages([str(ROOT / package)], prefix=f"{package}."):
            if info.name.endswith("__main__"):
                continue
            module = importlib.import_module(info.name)
            found += [v for v in vars(module).values() if isinstance(v, type) and issubclass(v, Exception)
                      and v.__module__ == info.name]  # fmt: skip
    return found


def test_every_project_error_is_an_alphabeta_error_and_a_value_error() -> None:
    errors = project_errors()
    names = {e.__name__ for e in errors}
    assert {"GameError", "HeuristicError", "SearchError", "BudgetError", "AgentSpecError", "TableSizeError",
            "LabelFileError", "InvalidValueError"} <= names  # fmt: skip
    assert [e.__qualname__ for e in errors if not issubclass(e, AlphabetaError)] == []
    assert issubclass(AlphabetaError, ValueError)  # callers catching ValueError keep working


def bare_value_errors(path: Path) -> list[int]:
    return [node.lineno for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Raise)
            and isinstance(node.exc, ast.Call) and getattr(node.exc.func, "id", "") == "ValueError"]  # fmt: skip


def test_games_and_search_raise_domain_errors_not_bare_value_error() -> None:
    offenders = [f"{path.relative_to(ROOT)}:{line}" for package in BARE_VALUE_ERROR_FREE
                 for path in sorted((ROOT / package).rglob("*.py")) if str(path.relative_to(ROOT)) not in NOT_YET
                 for line in bare_value_errors(path)]  # fmt: skip
    assert offenders == []


def test_search_and_solve_raise_search_errors_naming_the_problem() -> None:
    over = TIC_TAC_TOE.position("a1 b1 a2 b2 a3")
    with pytest.raises(UnsolvableGameError, match="does not fit the solver"):
        Solver(Connect4(9, 9, 4))
    with pytest.raises(SearchError, match="is over"):
        solve(over)
    with pytest.raises(SearchError, match="plays"):
        PerfectAgent(TIC_TAC_TOE).select_move(CONNECT4.position())
    with pytest.raises(SearchError, match="plays"):
        AlphaBetaAgent(TIC_TAC_TOE, depth=1).select_move(CONNECT4.position())
    with pytest.raises(SearchError, match="is over"):
        make_agent("random", TIC_TAC_TOE).select_move(over)
    with pytest.raises(SearchError, match="game is over"):
        make_agent("rules", TIC_TAC_TOE).select_move(over)
    started = TIC_TAC_TOE.position("a1")
    taken = next(a for a in range(TIC_TAC_TOE.n_actions) if not started.is_legal(a))
    with pytest.raises(IllegalMoveError, match="not legal"):
        ways_to_win(started, taken)


def test_the_games_checks_raise_invalid_value_errors() -> None:
    with pytest.raises(InvalidValueError, match="seed=-1 is negative"):
        check_seed(-1)
    with pytest.raises(InvalidValueError, match="depth=0 must be"):
        check_int("depth", 0, low=1)
    with pytest.raises(InvalidGameError, match="no 64-bit bitboard"):
        TIC_TAC_TOE.position().bitboard()
    assert issubclass(InvalidGameError, GameError)
