"""Benchmark the gomoku engine against the recommended generic agent: match points, depth, slowest move.

Three measurements, each in the same run as its baseline:

1. **Match** (``--configs``, default 15,15,5 / 15,15,5 exact-k / 20,20,5): the gomoku engine
   (``alphabeta:heuristic=gomoku,time_ms=T``) against the recommended generic agent
   (``alphabeta:heuristic=mics,radius=2,time_ms=T,solve_ms=400,branching=6``), ``--pairs`` openings per
   board, each played with both colours.  An opening is ``--stones`` random stones (seeded) within 2 of the
   centre, alternating colours; both agents are warmed up (compiled) before the first timed move.  The
   engine's share of the points (win 1, draw 1/2) with a 95 % Wilson interval, and the slowest move of each.
2. **Depth** on 15,15,5: the iteration depth both agents reach at ``--time-ms`` on the positions of the
   match games (the engine's threat search counted apart: its longest proved line is reported separately).
3. **Slowest move on 70,70,10** (``--big-plies`` plies of the engine against the generic agent).

Run it from the repository root (under the machine's heavy-job lock)::

    python -m scripts.bench_gomoku --time-ms 900 --pairs 6
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import sys
import time
from typing import Optional, Sequence

import numba
import numpy as np

from games import MNK, Position
from search.agents import AlphaBetaAgent, make_agent
from search.warmup import warm_up

BASELINE = "alphabeta:heuristic=mics,radius=2,time_ms={ms},solve_ms=400,branching=6"
ENGINE = "alphabeta:heuristic=gomoku,time_ms={ms}"
DEFAULT_CONFIGS = ("15,15,5", "15,15,5x", "20,20,5")


def parse_config(text: str) -> MNK:
    """``rows,cols,k`` with an ``x`` suffix for exact-k (``15,15,5x``)."""
    exact = text.endswith("x")
    rows, cols, k = (int(v) for v in text.rstrip("x").split(","))
    return MNK(rows, cols, k, exact_k=exact)


def opening(game: MNK, rng: random.Random, stones: int) -> list[int]:
    """``stones`` distinct random cells within 2 of the centre."""
    cells: list[int] = []
    while len(cells) < stones:
        cell = (game.rows // 2 + rng.randint(-2, 2)) * game.cols + game.cols // 2 + rng.randint(-2, 2)
        if cell not in cells:
            cells.append(cell)
    return cells


class Timed:
    """An agent with its slowest move and the depths it reached."""

    def __init__(self, agent: AlphaBetaAgent) -> None:
        self.agent, self.slowest, self.depths, self.threat = agent, 0.0, [], []  # type: ignore[var-annotated]

    def move(self, position: Position) -> int:
        started = time.perf_counter()
        move = self.agent.select_move(position.copy())
        self.slowest = max(self.slowest, time.perf_counter() - started)
        result = self.agent.last_result
        if result is not None and result.nodes > 0:
            self.depths.append(result.depth)
            self.threat.append(result.threat_depth)
        return move


def wilson(points: float, games: int) -> tuple[float, float]:
    """95 % Wilson interval of a score share."""
    if games == 0:
        return 0.0, 1.0
    p, z = points / games, 1.96
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def play(game: MNK, first: Timed, second: Timed, moves: list[int]) -> Optional[int]:
    """Play from ``moves`` to the end; the winner (0 first player, 1 second) or None."""
    position = game.position(moves)
    by_colour = {0: first, 1: second}
    while not position.is_terminal():
        position.play(by_colour[position.to_move].move(position))
    return position.winner


def match(game: MNK, ms: float, pairs: int, stones: int, seed: int) -> tuple[float, int, Timed, Timed]:
    """The engine's points over ``pairs`` openings with both colours."""
    engine = Timed(make_agent(ENGINE.format(ms=ms), game, seed=1))  # type: ignore[arg-type]
    baseline = Timed(make_agent(BASELINE.format(ms=ms), game, seed=1))  # type: ignore[arg-type]
    warm_up(engine.agent, game)
    warm_up(baseline.agent, game)
    rng = random.Random(seed)
    points, games = 0.0, 0
    for _ in range(pairs):
        moves = opening(game, rng, stones)
        for engine_first in (True, False):
            engine.agent.reset()
            baseline.agent.reset()
            first, second = (engine, baseline) if engine_first else (baseline, engine)
            winner = play(game, first, second, moves)
            own = 0 if engine_first else 1
            points += 1.0 if winner == own else (0.5 if winner is None else 0.0)
            games += 1
            print(f"  {game}: game {games}, engine {'first' if engine_first else 'second'}, "
                  f"{'draw' if winner is None else ('engine won' if winner == own else 'baseline won')}", flush=True)  # fmt: skip
    return points, games, engine, baseline


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--configs", nargs="+", default=list(DEFAULT_CONFIGS), help="boards rows,cols,k (x: exact-k)")
    parser.add_argument("--time-ms", type=float, default=900.0, help="time per move of both agents")
    parser.add_argument("--pairs", type=int, default=4, help="openings per board (each played with both colours)")
    parser.add_argument("--stones", type=int, default=3, help="stones of an opening")
    parser.add_argument("--seed", type=int, default=11, help="seeds the openings")
    parser.add_argument("--big-plies", type=int, default=30, help="plies on 70,70,10 for the slowest move (0: skip)")
    args = parser.parse_args(argv)
    try:
        games = [parse_config(text) for text in args.configs]
    except ValueError as error:
        parser.error(f"--configs: {error}: give rows,cols,k such as 15,15,5 or 15,15,5x")
    if args.pairs < 1 or args.stones < 0 or not args.time_ms > 0 or args.big_plies < 0:
        parser.error("--pairs must be >= 1, --stones >= 0, --time-ms > 0, --big-plies >= 0")
    print(f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"numpy {np.__version__}, numba {numba.__version__}, load {os.getloadavg()[0]:.2f}")  # fmt: skip
    print(f"Command: {' '.join(sys.argv if argv is None else ['bench_gomoku.py', *argv])}")
    print(f"Engine: {ENGINE.format(ms=args.time_ms)}   baseline: {BASELINE.format(ms=args.time_ms)}\n")
    rows = []
    for game in games:
        points, played, engine, baseline = match(game, args.time_ms, args.pairs, args.stones, args.seed)
        low, high = wilson(points, played)
        rows.append((str(game), points, played, low, high, engine, baseline))
    print("\n| board | engine points | share (95% CI) | engine depth (median) | baseline depth | "
          "engine longest threat line | slowest move engine / baseline |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for name, points, played, low, high, engine, baseline in rows:
        print(f"| {name} | {points:g}/{played} | {points / played:.0%} ({low:.0%}-{high:.0%}) | "
              f"{np.median(engine.depths or [0]):g} | {np.median(baseline.depths or [0]):g} | "
              f"{max(engine.threat or [0])} | {engine.slowest * 1000:.0f} / {baseline.slowest * 1000:.0f} ms |")  # fmt: skip
    if args.big_plies:
        big = MNK(70, 70, 10)
        engine = Timed(make_agent(ENGINE.format(ms=args.time_ms), big, seed=1))  # type: ignore[arg-type]
        baseline = Timed(make_agent(BASELINE.format(ms=args.time_ms), big, seed=1))  # type: ignore[arg-type]
        warm_up(engine.agent, big)
        warm_up(baseline.agent, big)
        position = big.position()
        while not position.is_terminal() and position.ply < args.big_plies:
            position.play((engine if position.ply % 2 == 0 else baseline).move(position))
        print(f"\n70,70,10, {args.big_plies} plies at {args.time_ms:g} ms: slowest move engine "
              f"{engine.slowest * 1000:.0f} ms (median depth {np.median(engine.depths or [0]):g}), "
              f"baseline {baseline.slowest * 1000:.0f} ms")  # fmt: skip
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
