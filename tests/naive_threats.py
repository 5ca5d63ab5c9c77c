"""Slow, obvious reference for the ``threats`` evaluator (heuristics/_threats.py): plain Python over a 2-D list.

Written from the feature definitions in ``heuristics._threats``' docstring,
one feature at a time, without bit tricks or shared scans, so a bug in the
kernels' shortcuts shows as a mismatch.
"""

from __future__ import annotations

from heuristics._threats import SPEC

NAMES = SPEC.weight_names
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def grid_of(board: list[int], rows: int, cols: int) -> list[list[int]]:
    """The flat board (row 0 at the top) as a list of rows."""
    return [list(board[r * cols : (r + 1) * cols]) for r in range(rows)]


def playable(grid: list[list[int]], gravity: bool, r: int, c: int) -> bool:
    """Empty and playable now: without gravity every empty cell, with gravity the lowest empty one of its column."""
    rows = len(grid)
    if grid[r][c] != 0:
        return False
    return not gravity or r == rows - 1 or grid[r + 1][c] != 0


def lines(rows: int, cols: int, length: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """Every run of ``length`` cells on the board, with its direction index (0..3)."""
    out = []
    for r in range(rows):
        for c in range(cols):
            for d, (dr, dc) in enumerate(DIRECTIONS):
                cells = [(r + i * dr, c + i * dc) for i in range(length)]
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    out.append((d, cells))
    return out


def threat_cells(grid: list[list[int]], k: int, p: int) -> set[tuple[int, int]]:
    """Empty cells where a stone of ``p`` would complete k in a row."""
    rows, cols = len(grid), len(grid[0])
    found = set()
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] != 0:
                continue
            grid[r][c] = p
            for _, cells in lines(rows, cols, k):
                if (r, c) in cells and all(grid[rr][cc] == p for rr, cc in cells):
                    found.add((r, c))
            grid[r][c] = 0
    return found


def centre_group(rows: int, cols: int, gravity: bool, r: int, c: int) -> int:
    """0 (centre) to 3: column distance from the centre; without gravity the larger of column and row distance."""
    dist = abs(2 * c - (cols - 1)) // 2
    if not gravity:
        dist = max(dist, abs(2 * r - (rows - 1)) // 2)
    return min(dist, 3)


def player_features(grid: list[list[int]], k: int, gravity: bool, p: int) -> dict[str, int]:
    """The unsigned feature counts of player ``p`` (see the kernel docstring)."""
    rows, cols = len(grid), len(grid[0])
    o = 3 - p
    f = {name: 0 for name in NAMES}
    f["threat_now"] = f["open_k2"] = 0  # split into mover/waiting weights by evaluate()
    forks: dict[tuple[int, int], set[int]] = {}
    for d, cells in lines(rows, cols, k):
        values = [grid[r][c] for r, c in cells]
        own = values.count(p)
        if o in values or not 1 <= own <= k - 1:
            continue
        m = min(k - own, 4)
        now = all(playable(grid, gravity, r, c) for r, c in cells if grid[r][c] == 0)
        f[f"w{m}_{'now' if now else 'later'}"] += 1
        if k - own == 2:
            for r, c in cells:
                if grid[r][c] == 0:
                    forks.setdefault((r, c), set()).add(d)
    f["fork_cells"] = sum(1 for dirs in forks.values() if len(dirs) >= 2)
    mine = threat_cells(grid, k, p)
    theirs = threat_cells(grid, k, o)
    f["threat_now"] = sum(1 for r, c in mine if playable(grid, gravity, r, c))
    f["multi_threat"] = int(len(mine) >= 2)
    if gravity:
        role = "first" if p == 1 else "second"
        for r, c in mine:
            below_theirs = any((rr, c) in theirs for rr in range(r + 1, rows))
            above_theirs = any((rr, c) in theirs for rr in range(r))
            if not playable(grid, gravity, r, c) and not below_theirs:
                parity = "odd" if (rows - r) % 2 == 1 else "even"
                f[f"{parity}_{role}"] += 1
            if (r + 1, c) in mine:
                f["stacked"] += 1
            if above_theirs:
                f["under_opponent"] += 1
    else:
        for _, cells in lines(rows, cols, k + 1):
            values = [grid[r][c] for r, c in cells]
            inner = values[1:-1]
            if values[0] != 0 or values[-1] != 0 or o in inner:
                continue
            if inner.count(p) == k - 1:
                f["open_k1"] += 1
            elif inner.count(p) == k - 2 and k >= 3:
                f["open_k2"] += 1
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] == p:
                f["squares"] += sum(1 for _, cells in lines(rows, cols, k) if (r, c) in cells)
                f[f"centre_{centre_group(rows, cols, gravity, r, c)}"] += 1
    return f


def evaluate(board: list[int], rows: int, cols: int, k: int, gravity: bool, me: int, weights: dict[str, float]) -> float:
    """The ``threats`` value of ``board`` for the side to move ``me``: the weighted counts, summed in SPEC order."""
    grid = grid_of(board, rows, cols)
    a = player_features(grid, k, gravity, me)
    b = player_features(grid, k, gravity, 3 - me)
    counts = {name: a.get(name, 0) - b.get(name, 0) for name in NAMES}
    counts["threat_now_mover"], counts["threat_now_waiting"] = a["threat_now"], -b["threat_now"]
    counts["open_k2_mover"], counts["open_k2_waiting"] = a["open_k2"], -b["open_k2"]
    counts["tempo"] = 1
    total = 0.0
    for name in NAMES:
        total += weights[name] * counts[name]
    return total
