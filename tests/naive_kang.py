"""Slow, obviously correct references for Kang et al.'s two heuristics (seed 000, section 3.3).

Written differently from the kernels: a list-of-lists board (``grid[row][col]``,
row 0 at the top, 0 empty, 1/2 stones), every line of the board spelled out as
a string from one player's point of view and matched with regular
expressions, and ``_order`` as "evaluate after minus evaluate before" on a
copied grid.
"""

from __future__ import annotations

import re

Grid = list[list[int]]

C4_WEIGHT_NAMES = (
    "f1_four",
    "f2_three_open",
    "f2_three_half",
    "f2_three_closed",
    "f2_broken_three",
    "f3_two_open",
    "f3_two_side",
    "f3_two_closed",
    "f4_col_d",
    "f4_col_ce",
    "f4_col_bf",
    "f4_col_ag",
)


def grid_of(board: object, rows: int, cols: int) -> Grid:
    """A flat board (numpy or list) as a list of rows."""
    flat = [int(x) for x in board]  # type: ignore[attr-defined]
    return [flat[r * cols : (r + 1) * cols] for r in range(rows)]


def available(grid: Grid, gravity: bool, r: int, c: int) -> bool:
    """Empty, and (with gravity) resting on a stone or on the floor."""
    rows = len(grid)
    if grid[r][c] != 0:
        return False
    return not gravity or r == rows - 1 or grid[r + 1][c] != 0


def board_lines(rows: int, cols: int) -> list[list[tuple[int, int]]]:
    """Every full line of the board in the four directions, as lists of (row, col)."""
    lines = [[(r, c) for c in range(cols)] for r in range(rows)]
    lines += [[(r, c) for r in range(rows)] for c in range(cols)]
    for d in range(-(cols - 1), rows):  # r - c == d
        lines.append([(r, r - d) for r in range(rows) if 0 <= r - d < cols])
    for s in range(rows + cols - 1):  # r + c == s
        lines.append([(r, s - r) for r in range(rows) if 0 <= s - r < cols])
    return lines


def spell(grid: Grid, gravity: bool, line: list[tuple[int, int]], p: int) -> str:
    """The line for player ``p``: O own, X opponent, '.' available, '_' empty but not available, '#' edges."""
    chars = []
    for r, c in line:
        if grid[r][c] == p:
            chars.append("O")
        elif grid[r][c] != 0:
            chars.append("X")
        else:
            chars.append("." if available(grid, gravity, r, c) else "_")
    return "#" + "".join(chars) + "#"


def c4_feature_counts(grid: Grid, gravity: bool, p: int) -> dict[str, float]:
    """How many times each weight of c4_features applies to player ``p`` (F3 one side: summed squares)."""
    counts = dict.fromkeys(C4_WEIGHT_NAMES, 0.0)
    rows, cols = len(grid), len(grid[0])
    for line in board_lines(rows, cols):
        s = spell(grid, gravity, line, p)
        for i in range(len(s) - 3):
            window = s[i : i + 4]
            if window == "OOOO":
                counts["f1_four"] += 1
            elif window in ("OO.O", "OO_O", "O.OO", "O_OO"):
                counts["f2_broken_three"] += 1
        for run in re.finditer(r"O+", s):
            size = len(run.group())
            left, right = s[run.start() - 1], s[run.end()]
            n_open = (left == ".") + (right == ".")
            if size == 3:
                counts[("f2_three_closed", "f2_three_half", "f2_three_open")[n_open]] += 1
            elif size == 2 and n_open == 2:
                counts["f3_two_open"] += 1
            elif size == 2 and n_open == 0:
                counts["f3_two_closed"] += 1
            elif size == 2:
                side = s[: run.start()][::-1] if left == "." else s[run.end() :]
                dots = re.match(r"\.*", side)
                assert dots is not None
                counts["f3_two_side"] += min(len(dots.group()), 2)
    centres = {cols // 2} if cols % 2 else {cols // 2 - 1, cols // 2}
    names = ("f4_col_d", "f4_col_ce", "f4_col_bf", "f4_col_ag")
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] != p:
                continue
            neighbours = [
                grid[r + dr][c + dc]
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if (dr, dc) != (0, 0) and 0 <= r + dr < rows and 0 <= c + dc < cols
            ]
            if p not in neighbours:
                distance = min(abs(c - m) for m in centres)
                counts[names[min(distance, 3)]] += 1
    return counts


def c4_features(grid: Grid, gravity: bool, me: int, weights: dict[str, float]) -> float:
    """Kang Heuristics-1: weighted feature counts, ``me``'s minus the opponent's."""
    own = c4_feature_counts(grid, gravity, me)
    opp = c4_feature_counts(grid, gravity, 3 - me)
    return sum(weights[n] * (own[n] - opp[n]) for n in C4_WEIGHT_NAMES)


def after_move(grid: Grid, r: int, c: int, stone: int) -> Grid:
    """A copy of ``grid`` with ``stone`` on (r, c)."""
    copy = [row[:] for row in grid]
    copy[r][c] = stone
    return copy


def c4_order(grid: Grid, gravity: bool, me: int, weights: dict[str, float], cell: int) -> float:
    """The change of :func:`c4_features` when ``me`` plays ``cell``."""
    r, c = divmod(cell, len(grid[0]))
    return c4_features(after_move(grid, r, c, me), gravity, me, weights) - c4_features(grid, gravity, me, weights)


def windows_through(rows: int, cols: int, k: int, r: int, c: int) -> int:
    """Count every k-window of the board (all starts, all directions) that contains (r, c)."""
    n = 0
    for r0 in range(rows):
        for c0 in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r0 + i * dr, c0 + i * dc) for i in range(k)]
                if all(0 <= a < rows and 0 <= b < cols for a, b in cells) and (r, c) in cells:
                    n += 1
    return n


def square_values(grid: Grid, k: int, me: int, scale: float) -> float:
    """Kang Heuristics-2: square values of ``me``'s stones minus the opponent's, times ``scale``."""
    rows, cols = len(grid), len(grid[0])
    total = 0
    for r in range(rows):
        for c in range(cols):
            if grid[r][c]:
                total += windows_through(rows, cols, k, r, c) * (1 if grid[r][c] == me else -1)
    return scale * total
