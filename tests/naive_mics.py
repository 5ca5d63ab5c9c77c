"""Slow, obvious reference for heuristics._mics: explicit windows as lists of (row, col), whole-board scans.

Written independently of the kernel: windows through a cell are listed
explicitly and filtered (no sliding counts), double threats are found as a set
of completion cells, and the tier clamps are restated from the module
docstring.
"""

from __future__ import annotations

from typing import Sequence

DIRECTIONS = [(0, 1), (1, 0), (1, 1), (1, -1)]


def _grid(board: Sequence[int], rows: int, cols: int) -> list[list[int]]:
    return [[int(board[r * cols + c]) for c in range(cols)] for r in range(rows)]


def direction_facts(grid: list[list[int]], k: int, r: int, c: int, player: int, dr: int, dc: int) -> dict:
    """The four seed values and the completion cells of windows lacking 2, for one direction."""
    rows, cols = len(grid), len(grid[0])
    opponent = 3 - player

    def inside(rr: int, cc: int) -> bool:
        return 0 <= rr < rows and 0 <= cc < cols

    windows = []
    for start in range(-(k - 1), 1):
        cells = [(r + (start + i) * dr, c + (start + i) * dc) for i in range(k)]
        if all(inside(*x) for x in cells) and not any(grid[x[0]][x[1]] == opponent for x in cells):
            windows.append(cells)
    if not windows:
        return {"friendly": 0, "windows": 0, "best": None, "n_best": 0, "completions": set()}
    friendly = 0
    for sign in (1, -1):
        for step in range(1, k):
            rr, cc = r + sign * step * dr, c + sign * step * dc
            if not inside(rr, cc) or grid[rr][cc] == opponent:
                break
            friendly += grid[rr][cc] == player
    missing = [sum(1 for (rr, cc) in w if grid[rr][cc] != player) for w in windows]
    best = min(missing)
    completions = set()
    for w, m in zip(windows, missing):
        if m == 2:
            (other,) = [x for x in w if x != (r, c) and grid[x[0]][x[1]] == 0]
            completions.add(other)
    return {"friendly": friendly, "windows": len(windows), "best": best, "n_best": missing.count(best),
            "completions": completions}


def player_cell(grid: list[list[int]], k: int, r: int, c: int, player: int, weights: dict) -> tuple[int, float]:
    """(tier, raw MICS value) of ``player`` at the empty cell (r, c)."""
    facts = [direction_facts(grid, k, r, c, player, dr, dc) for dr, dc in DIRECTIONS]
    raw = 0.0
    for f in facts:
        if f["windows"]:
            raw += weights["window_mult"] * f["windows"] + weights["my_cell_mult"] * f["friendly"]
            raw += weights["mics_mult"] * f["n_best"] * weights["mics_base"] ** (k - f["best"])
    if any(f["best"] == 1 for f in facts):
        return 1, raw
    directions_lacking_two = [f for f in facts if f["best"] == 2]
    if len(directions_lacking_two) >= 2 or any(len(f["completions"]) >= 2 for f in facts):
        return 2, raw
    return 3, raw


def tier_numbers(weights: dict) -> tuple[float, float, float]:
    t1 = weights["tier_finish"]
    t2 = min(weights["tier_double"], t1 / 8)
    return t1, t2, t2 / 4


def player_value(grid, k, r, c, player, weights) -> float:  # type: ignore[no-untyped-def]
    t1, t2, cap = tier_numbers(weights)
    tier, raw = player_cell(grid, k, r, c, player, weights)
    return {1: t1, 2: t2}.get(tier, min(raw, cap))


def cell_tier(board: Sequence[int], rows: int, cols: int, k: int, cell: int) -> int:
    """1 if either player finishes at ``cell``, 2 if either has a trivial double threat there, else 3."""
    grid = _grid(board, rows, cols)
    r, c = divmod(cell, cols)
    dummy = {"window_mult": 0, "my_cell_mult": 0, "mics_mult": 0, "mics_base": 1}
    return min(player_cell(grid, k, r, c, p, dummy)[0] for p in (1, 2))


def playable(board: Sequence[int], heights: Sequence[int], rows: int, cols: int, gravity: bool, cell: int) -> bool:
    if board[cell] != 0:
        return False
    r, c = divmod(cell, cols)
    return not gravity or r == rows - 1 - heights[c]


def order(board, heights, rows, cols, k, gravity, me, weights, cell) -> float:  # type: ignore[no-untyped-def]
    """Reference of _order: own value (boosted if tier 1/2) + opponent value + clamped adjacency."""
    grid = _grid(board, rows, cols)
    r, c = divmod(cell, cols)
    _, _, cap = tier_numbers(weights)
    own = player_value(grid, k, r, c, me, weights)
    if player_cell(grid, k, r, c, me, weights)[0] <= 2:
        own *= 1 + weights["own_threat_bonus"]
    neighbours = [(r + a, c + b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]
    stones = sum(1 for rr, cc in neighbours if 0 <= rr < rows and 0 <= cc < cols and grid[rr][cc] != 0)
    return own + player_value(grid, k, r, c, 3 - me, weights) + min(weights["adjacent_mult"] * stones, cap)


def evaluate(board, heights, rows, cols, k, gravity, me, weights) -> float:  # type: ignore[no-untyped-def]
    """Reference of _evaluate: sum over empty cells of own minus opponent value, unplayable cells scaled."""
    grid = _grid(board, rows, cols)
    total = 0.0
    for cell in range(rows * cols):
        if board[cell] != 0:
            continue
        r, c = divmod(cell, cols)
        diff = player_value(grid, k, r, c, me, weights) - player_value(grid, k, r, c, 3 - me, weights)
        total += diff if playable(board, heights, rows, cols, gravity, cell) else weights["unplayable_mult"] * diff
    return total
