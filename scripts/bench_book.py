"""Benchmark the Connect-4 opening book: solves and perfect moves of 0 to 12 stones, and whole perfect games.

Positions: for every stone count 0 to 12, ``--per-ply`` random positions of
that many stones (seeded uniform random play, none over; the empty board
once).  Measured in one run, with the kernels compiled first:

* the book's load time (the 12-ply file and the shallow table, parsed and checked);
* ``Solver.solve`` (strong) of each position with the book, the time of the
  call (Python included), and the baseline: the same solver without the
  book (``book=False``) on the same positions, each stopped at
  ``--baseline-ms`` (the count of positions it finished, and the ratio of
  mean times over those);
* ``PerfectAgent.select_move`` with the book (exact: the agent of the
  environments), per stone count and averaged over every position of 0 to
  12 stones (each count weighted alike); the baseline agent without the
  book is the solver's figure above times the seven moves it solves;
* ``--games`` perfect-vs-perfect games from the empty board (seeds 0, 1,
  ...): the wall time of each whole game, and its slowest move.

Goals: the empty board in <= 50 ms, a perfect move in <= 10 ms on average
over 0 to 12 stones, a whole perfect game in <= 1 s.  Times are wall time
on this machine; the load average (``uptime``) is printed with them.

Run it with ``python -m scripts.bench_book [--per-ply N] [--games G] [--baseline-ms MS] [--markdown]``
(needs ``pip install "alphabeta-gym[book]"``; about a minute).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Optional, Sequence

import numpy as np

from games import CONNECT4, Position
from scripts._args import positive_float, positive_int
from scripts._report import print_machine_and_command, print_table
from search.solve import PerfectAgent, Solver
from search.solve.book import BOOK_PLY, BookError, load_book


def sample(per_ply: int, seed: int) -> dict[int, list[Position]]:
    """``per_ply`` positions of each stone count 0 to 12 (the empty board once), from seeded random play."""
    rng = np.random.default_rng(seed)
    found: dict[int, list[Position]] = {0: [CONNECT4.position()]}
    for ply in range(1, BOOK_PLY + 1):
        found[ply] = []
        while len(found[ply]) < per_ply:
            position = CONNECT4.position()
            for _ in range(ply):
                moves = position.legal_moves()
                position.play(moves[int(rng.integers(len(moves)))])
                if position.is_terminal():
                    break
            if not position.is_terminal() and position.ply == ply:
                found[ply].append(position)
    return found


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def timed_solves(solver: Solver, positions: list[Position], budget_ms: Optional[float]) -> list[Optional[float]]:
    """Seconds of a fresh strong solve of each position, None where ``budget_ms`` stopped it."""
    times: list[Optional[float]] = []
    for position in positions:
        solver.reset()
        started = time.perf_counter()
        if budget_ms is None:
            solver.solve(position)
            times.append(time.perf_counter() - started)
        else:
            value = solver._score(position, False, deadline=started + budget_ms / 1000.0)
            times.append(None if value is None else time.perf_counter() - started)
    return times


def timed_moves(agent: PerfectAgent, positions: list[Position]) -> list[float]:
    """Seconds of one perfect move from each position, the agent's table emptied first."""
    times = []
    for position in positions:
        agent.reset()
        started = time.perf_counter()
        agent.select_move(position)
        times.append(time.perf_counter() - started)
    return times


def perfect_games(games: int) -> list[tuple[float, float, int, str]]:
    """``(seconds, slowest move's seconds, nodes, moves)`` of each perfect-vs-perfect game from the empty board."""
    played = []
    for seed in range(games):
        agents = (PerfectAgent(CONNECT4, seed=2 * seed), PerfectAgent(CONNECT4, seed=2 * seed + 1))
        position, slowest, nodes = CONNECT4.position(), 0.0, 0
        started = time.perf_counter()
        while not position.is_terminal():
            begun = time.perf_counter()
            agent = agents[position.ply % 2]
            position.play(agent.select_move(position))
            slowest = max(slowest, time.perf_counter() - begun)
            nodes += agent.last_result.nodes if agent.last_result is not None else 0
        played.append((time.perf_counter() - started, slowest, nodes, f"{position.move_string()} ({position.outcome()})"))
    return played


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Print the book's timings against the solver without it; return 1 if the book is missing or damaged."""
    parser = argparse.ArgumentParser(prog="python -m scripts.bench_book", description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-ply", type=positive_int, default=10, help="positions per stone count 1 to 12 (default 10)")
    parser.add_argument("--games", type=positive_int, default=5, help="perfect-vs-perfect games (default 5)")
    parser.add_argument("--baseline-ms", type=positive_float, default=2000.0,
                        help="time limit of each solve without the book (default 2000 ms)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="seeds the random positions (default 0)")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    args = parser.parse_args(argv)
    print_machine_and_command(argv)
    print(f"Load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    try:
        started = time.perf_counter()
        book = load_book()
        load_seconds = time.perf_counter() - started
    except BookError as exc:
        print(f"bench_book: {exc}", file=sys.stderr)
        return 1
    print(f"Book: {book!r}; loaded and checked in {load_seconds:.2f} s")
    with_book, without = Solver(CONNECT4, book=book), Solver(CONNECT4, book=False)
    agent = PerfectAgent(CONNECT4, seed=args.seed, book=book)
    for warm in (with_book, without, agent.solver):  # compile or load the kernels before any clock
        warm.solve(CONNECT4.position("444444111222333"))
    agent.select_move(CONNECT4.position("4444441112"))
    positions = sample(args.per_ply, args.seed)
    rows, all_moves = [], []
    for ply, group in positions.items():
        booked = timed_solves(with_book, group, None)
        plain = timed_solves(without, group, args.baseline_ms)
        moves = timed_moves(agent, group)
        all_moves.append(statistics.mean(moves))
        done = [(b, p) for b, p in zip(booked, plain) if p is not None and b is not None]
        ratio = f"{statistics.mean(p for _, p in done) / statistics.mean(b for b, _ in done):.0f}x" if done else "-"
        rows.append([str(ply), str(len(group)), _ms(statistics.mean(b for b in booked if b is not None)),
                     _ms(max(b for b in booked if b is not None)), f"{len(done)}/{len(group)}",
                     _ms(statistics.mean(p for _, p in done)) if done else "-", ratio,
                     _ms(statistics.mean(moves)), _ms(max(moves))])  # fmt: skip
    print()
    print_table(["stones", "positions", "solve ms (book)", "max", f"no book < {args.baseline_ms:.0f} ms", "no book ms",
                 "speed-up", "perfect move ms", "max"], rows, args.markdown)  # fmt: skip
    print(f"\nPerfect move, mean over 0 to {BOOK_PLY} stones (each count alike): {_ms(statistics.mean(all_moves))} ms "
          "(goal <= 10 ms)")  # fmt: skip
    print(f"Empty board: {rows[0][2]} ms with the book (goal <= 50 ms); without it, not within {args.baseline_ms:.0f} ms"
          if rows[0][4] == "0/1" else f"Empty board: {rows[0][2]} ms with the book")  # fmt: skip
    games = perfect_games(args.games)
    print()
    print_table(["game", "seconds", "slowest move s", "nodes", "moves (result)"],
                [[str(i), f"{s:.2f}", f"{m:.2f}", f"{n:,}", text] for i, (s, m, n, text) in enumerate(games)],
                args.markdown)  # fmt: skip
    print(f"\nPerfect game: mean {statistics.mean(g[0] for g in games):.2f} s, max {max(g[0] for g in games):.2f} s "
          f"(goal <= 1 s); mean {statistics.mean(g[2] for g in games):,.0f} nodes")  # fmt: skip
    print(f"Load average after (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
