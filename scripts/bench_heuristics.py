"""Benchmark the evaluators: evaluations per second on random mid-game positions.

For Connect-4 6x7 and m,n,k 15,15,5, a seeded set of random mid-game
positions is evaluated by every evaluator that covers the game, two ways:

* ``kernel batch``: all positions in one numba call (how the search uses them);
* ``facade``: one ``Evaluator.evaluate`` Python call per position.

The baseline, measured in the same run, is a straightforward numpy
implementation of ``windows`` (gather the window cells, count stones,
vectorised formula), one call per position.  It is checked to give the same
scores as the kernel before anything is timed.  Run:
``python -m scripts.bench_heuristics [--positions 2000] [--seconds 1.5] [--markdown]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Callable, Sequence

import numpy as np

from games import CONNECT4, GOMOKU, KInARow, Position
from heuristics import NAMES, Evaluator, get_spec
from heuristics._dispatch import _evaluate_many
from scripts._args import non_negative_int, positive_float, positive_int
from scripts._report import print_machine_and_command, print_table

MID_GAME = {CONNECT4: (10, 26), GOMOKU: (20, 60)}
"""Plies of the random positions per game (low, high)."""


def random_positions(game: KInARow, count: int, seed: int) -> list[Position]:
    """``count`` random positions that are not over, with a ply in the game's mid-game range."""
    rng = np.random.default_rng(seed)
    low, high = MID_GAME[game]
    out: list[Position] = []
    while len(out) < count:
        pos = game.position()
        for _ in range(int(rng.integers(low, high + 1))):
            pos.play(pos.legal_moves()[int(rng.integers(len(pos.legal_moves())))])
            if pos.is_terminal():
                break
        if not pos.is_terminal():
            out.append(pos)
    return out


def numpy_windows(board: np.ndarray, me: int, windows: np.ndarray, k: int, w: np.ndarray) -> float:
    """The ``windows`` evaluator written plainly in numpy (weights in SPEC order)."""
    good, danger, blocked, m1, m2, m3, decay = w
    cells = board[windows]
    first, second = (cells == 1).sum(axis=1), (cells == 2).sum(axis=1)

    def phi(c: np.ndarray, o: np.ndarray) -> np.ndarray:
        report = good * c * c / (k - 1) ** 2 + danger * c / (k - 1)
        report = np.where(o > 0, blocked * report, report)
        missing = k - c
        generic = np.select(
            [missing == 1, missing == 2, missing == 3, missing >= 4],
            [m1, m2, m3, m3 * decay ** np.maximum(missing - 3, 0)],
            0.0,
        )
        generic = np.where((o == 0) & (c >= 1) & (c < k), generic, 0.0)
        return np.where(c == 0, 0.0, report + generic)

    total = float((phi(first, second) - phi(second, first)).sum())
    return total if me == 1 else -total


def rate(run: Callable[[], int], seconds: float) -> float:
    """Evaluations per second: repeat ``run`` (which returns how many it did) for ``seconds``."""
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or done == 0:
        done += run()
    return done / elapsed


def bench_game(game: KInARow, count: int, seed: int, seconds: float) -> list[tuple[str, str, float]]:
    """Rows ``(game, what, evals/s)`` for one game, baseline last."""
    positions = random_positions(game, count, seed)
    boards = np.stack([p._board for p in positions])
    plies = np.array([p.ply for p in positions], dtype=np.int64)
    out = np.empty(count)
    rows = []
    for name in NAMES:
        if get_spec(name).refuse(game) is not None:
            continue
        h = Evaluator(name, game)
        args = (h.kernel_id, boards, game.rows, game.cols, game.k, game.gravity, plies, h.weight_array, h.windows, out)
        _evaluate_many(*args)  # warm-up: compile or load from cache

        def batch() -> int:
            _evaluate_many(*args)
            return count

        def facade() -> int:
            for p in positions:
                h.evaluate(p)
            return count

        rows.append((str(game), f"{name}, kernel batch", rate(batch, seconds)))
        rows.append((str(game), f"{name}, facade", rate(facade, seconds)))
    h = Evaluator("windows", game)
    for p in positions[:50]:
        expected = h.evaluate(p)
        got = numpy_windows(p._board, 1 + p.to_move, h.windows, game.k, h.weight_array)
        assert abs(got - expected) <= 1e-9 * max(1.0, abs(expected)), (p, got, expected)

    def baseline() -> int:
        for p in positions:
            numpy_windows(p._board, 1 + p.to_move, h.windows, game.k, h.weight_array)
        return count

    rows.append((str(game), "windows, numpy baseline", rate(baseline, seconds)))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """Measure every evaluator on both games and print the table; return 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=positive_int, default=2000, help="random positions per game (default 2000)")
    parser.add_argument("--seconds", type=positive_float, default=1.5, help="time per measurement (default 1.5)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of the random positions (default 0)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)
    table = []
    for game in (CONNECT4, GOMOKU):
        rows = bench_game(game, args.positions, args.seed, args.seconds)
        base = rows[-1][2]
        table += [(g, what, f"{r:,.0f}", f"{r / base:,.1f}x") for g, what, r in rows]
    print_table(("game", "evaluator, how", "evals/s", "vs numpy windows"), table, args.markdown, left=2)
    print()
    print_machine_and_command(argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
