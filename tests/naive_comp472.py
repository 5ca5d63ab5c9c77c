"""Slow, plain-Python references for the two COMP 472 evaluators (``patterns`` and ``windows``).

Written differently from the kernels on purpose: lines are Python strings of
``O``/``X``/``@``, the shapes are an explicit list of strings generated from
their definitions and found by slicing, and windows are walked cell by cell
from the report's formulas.  ``board`` is a list of lists, ``board[r][c]`` in
{0, 1, 2}, row 0 at the top.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

DIRS = ((0, 1), (1, 0), (1, 1), (1, -1))


def to_grid(flat, rows: int, cols: int) -> list[list[int]]:
    """A flat int8 board as a list of rows."""
    return [[int(flat[r * cols + c]) for c in range(cols)] for r in range(rows)]


# ------------------------------------------------------------------ patterns
@lru_cache(maxsize=None)
def shapes(k: int) -> dict[str, list[str]]:
    """Every shape string of the pattern heuristic for ``k``, by weight name."""
    def fills(n_cells: int, n_stones: int) -> list[str]:
        return ["".join(t) for t in product("OX", repeat=n_cells) if t.count("O") == n_stones]

    def with_mirrors(strings: list[str]) -> list[str]:
        return sorted(set(strings) | {s[::-1] for s in strings})

    out = {
        "four_connected": ["O" * k],
        "alive_3": ["X" + f + "X" for f in fills(k - 1, k - 1)],
        "alive_2": ["X" + f + "X" for f in fills(k - 1, k - 2)],
        "dead_3": with_mirrors(["@O" + f for f in fills(k - 1, k - 2)]),
        "dead_2": with_mirrors(["@O" + f for f in fills(k - 1, k - 3)]),
        "unavailable_3": ["@" + "O" * (k - 1) + "@"],
        "unavailable_2": ["@" + "O" * (k - 2) + "@"],
        "unavailable_1": ["@" + "O" * r + "@" for r in range(1, k - 2)],
    }
    return out


def lines(rows: int, cols: int):
    """Every full line as (direction index, list of (r, c)) in walking order."""
    for d, (dr, dc) in enumerate(DIRS):
        for r in range(rows):
            for c in range(cols):
                if 0 <= r - dr < rows and 0 <= c - dc < cols:
                    continue
                cells = []
                rr, cc = r, c
                while 0 <= rr < rows and 0 <= cc < cols:
                    cells.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                yield d, cells


def line_string(grid, cells, p: int) -> str:
    """A line for player p, padded with the boundary: O own, X empty, @ opponent or edge."""
    chars = ["O" if grid[r][c] == p else "X" if grid[r][c] == 0 else "@" for r, c in cells]
    return "@" + "".join(chars) + "@"


def occurrences(text: str, shape: str) -> list[int]:
    """Start offsets of ``shape`` in ``text``, overlapping ones included."""
    return [i for i in range(len(text) - len(shape) + 1) if text[i:i + len(shape)] == shape]


def line_shapes(text: str, k: int) -> list[tuple[str, int, str]]:
    """(weight name, offset, shape) for each shape occurrence in a padded line string."""
    found = []
    for name, strings in shapes(k).items():  # a cached dict: do not modify
        for s in strings:
            for i in occurrences(text, s):
                found.append((name, i, s))
    return found


def membership(grid, rows, cols, k, p):
    """cell -> (set of dead-3 directions, set of alive-2 directions) for player p."""
    member: dict[tuple[int, int], tuple[set, set]] = {}
    for d, cells in lines(rows, cols):
        text = line_string(grid, cells, p)
        for name, i, s in line_shapes(text, k):
            if name not in ("dead_3", "alive_2"):
                continue
            for j, ch in enumerate(s):
                if ch == "O":
                    cell = cells[i + j - 1]  # -1: the padding
                    member.setdefault(cell, (set(), set()))[0 if name == "dead_3" else 1].add(d)
    return member


def doubles(dead: set, alive: set, w: dict) -> float:
    bonus = 0.0
    if len(dead) >= 2:
        bonus += w["double_dead_3"]
    if len(alive) >= 2:
        bonus += w["double_alive_2"]
    if any(a != b for a in dead for b in alive):
        bonus += w["dead_3_alive_2"]
    return bonus


def patterns_total(grid, rows, cols, k, p, w: dict) -> float:
    total = 0.0
    for _, cells in lines(rows, cols):
        for name, _, _ in line_shapes(line_string(grid, cells, p), k):
            total += w[name]
    for dead, alive in membership(grid, rows, cols, k, p).values():
        total += doubles(dead, alive, w)
    return total


def patterns_evaluate(grid, rows, cols, k, me, w: dict) -> float:
    return patterns_total(grid, rows, cols, k, me, w) - patterns_total(grid, rows, cols, k, 3 - me, w)


def patterns_order(grid, rows, cols, k, me, w: dict, cell: int) -> float:
    """Line-shape change on the 4 full lines through cell (own minus opponent) + the new stone's doubles."""
    r0, c0 = divmod(cell, cols)

    def through(g):
        s = 0.0
        for _, cells in lines(rows, cols):
            if (r0, c0) in cells:
                for p, sign in ((me, 1), (3 - me, -1)):
                    s += sign * sum(w[name] for name, _, _ in line_shapes(line_string(g, cells, p), k))
        return s

    after = [row[:] for row in grid]
    after[r0][c0] = me
    dead, alive = membership(after, rows, cols, k, me).get((r0, c0), (set(), set()))
    return through(after) - through(grid) + doubles(dead, alive, w)


# ------------------------------------------------------------------- windows
def all_windows(rows, cols, k):
    for r in range(rows):
        for c in range(cols):
            for dr, dc in DIRS:
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    yield cells


def window_side(c: int, o: int, k: int, w: dict) -> float:
    """One side's value of a window: the report's danger + goodness, then the generic per-count weight."""
    perc_won = c / k
    max_allow = (k - 1) / k
    dangerous = perc_won * w["danger"] / max_allow
    goodness = c ** 2 * (w["good"] / (k - 1) ** 2)
    value = dangerous + goodness
    if o > 0:
        return value * w["blocked_scale"]
    missing = k - c
    if c >= 1 and missing >= 1:
        if missing <= 3:
            value += (w["missing_1"], w["missing_2"], w["missing_3"])[missing - 1]
        else:
            value += w["missing_3"] * w["missing_decay"] ** (missing - 3)
    return value


def windows_evaluate(grid, rows, cols, k, me, w: dict) -> float:
    score = 0.0
    for cells in all_windows(rows, cols, k):
        own = sum(grid[r][c] == me for r, c in cells)
        opp = sum(grid[r][c] == 3 - me for r, c in cells)
        score += window_side(own, opp, k, w) - window_side(opp, own, k, w)
    return score


def windows_order(grid, rows, cols, k, me, w: dict, cell: int) -> float:
    r, c = divmod(cell, cols)
    after = [row[:] for row in grid]
    after[r][c] = me
    return windows_evaluate(after, rows, cols, k, me, w) - windows_evaluate(grid, rows, cols, k, me, w)
