"""Benchmark the m,n,k search per board size: depth reached and nodes/s in a time budget, incremental vs from scratch.

For every board size (default: the Bologna m,n,k tournament's sizes
7,7,5 10,10,5 50,50,10 70,70,10 and gomoku's 15,15,5 and 26,26,6) and every
evaluator (``mics``, ``windows``, ``patterns``), from the position with one
stone in the centre, ``search(pos, Evaluator(h, MNK(m, n, k)), time_ms=T,
radius=R)`` runs twice in the same process: with the array kernel's
incremental evaluation (``heuristics._incremental``) and with it forced off
(``search.alphabeta.engine.INCREMENTAL = False``: every leaf and ordering score from
scratch, today's ``mics`` agent).  Both searches return the same values at
equal depth (tests/test_incremental.py); this prints how deep each gets and
how fast, with the ratios.  The kernels are compiled by a depth-1 search
first, so compile time is not counted.  No threat search is involved.

A second table puts agents side by side on the same boards (how deep
each gets): today's ``mics`` agent (``--today``, default
:data:`TODAY`) and the new agent (``--new``, default :data:`NEW`), each
making one move from the same position (a first, untimed move compiles
the kernels; the agent is reset before the timed one).  It prints the
alpha-beta depth completed and its nodes/s, and the whole move's wall
time, so the threat-space search the new agent runs before alpha-beta
(and the exact solver on small boards) is counted in the move's time but
not in the depth; engines that search threats inside the tree report the
longest proved threat line apart ("threat depth"; 0 when they report none).
``--heuristics none`` prints this table alone.  ``--game-sizes 70,70,10``
adds a third table: a self-play game of each agent on those boards (at most
``--game-plies`` moves), with its mean and slowest move, the number that
matters under a per-move time limit.

Run it with ``python -m scripts.bench_mnk [--sizes 15,15,5 70,70,10]
[--heuristics mics,windows] [--time-ms 1000] [--radius 2] [--today SPEC]
[--new SPEC] [--markdown]`` (about 60 s at the defaults, plus compile time on a fresh checkout).
Numbers are wall-clock on whatever else the machine is doing: run it on an
idle machine, or alone among the heavy jobs of a shared one.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from dataclasses import dataclass
from typing import Optional, Sequence

import numba

import search.alphabeta.engine as engine
from games import MNK
from heuristics import NAMES, Evaluator
from search import search
from search.agents import AlphaBetaAgent, make_agent

SIZES: tuple[tuple[int, int, int], ...] = ((7, 7, 5), (10, 10, 5), (15, 15, 5), (26, 26, 6), (50, 50, 10), (70, 70, 10))
"""Default boards (rows, cols, k)."""
HEURISTICS: tuple[str, ...] = ("mics", "windows", "patterns")
TODAY = "alphabeta:heuristic=mics,time_ms=950,radius=2,tss_nodes=0"
"""Today's best ``mics`` agent: incremental evaluation, full width, no threat search."""
NEW = "alphabeta:heuristic=mics,radius=2,time_ms=850,solve_ms=400,branching=6"
"""The new agent (the README's recommended spec): top-q branching, forced-reply rule, threat search, solver."""


@dataclass(frozen=True)
class Run:
    """One timed search: the depth completed, nodes visited and their rate."""

    depth: int
    nodes: int
    nodes_per_s: float


def parse_size(text: str) -> tuple[int, int, int]:
    """An argparse type for ``rows,cols,k`` naming a board the game core builds."""
    parts = text.split(",")
    if len(parts) != 3 or not all(p.strip().isdecimal() for p in parts):
        raise argparse.ArgumentTypeError(f"{text!r} is not a board size rows,cols,k (three whole numbers, e.g. 15,15,5)")
    rows, cols, k = (int(p) for p in parts)
    try:
        MNK(rows, cols, k)
    except ValueError as error:  # the game's own message names the bad value
        raise argparse.ArgumentTypeError(f"{text!r} is not a playable board: {error}") from None
    return rows, cols, k


def parse_heuristics(text: str) -> tuple[str, ...]:
    """An argparse type for a comma-separated list of registered evaluator names (``none``: no such table)."""
    if text.strip() == "none":
        return ()
    names = tuple(name.strip() for name in text.split(","))
    for name in names:
        if name not in NAMES:
            raise argparse.ArgumentTypeError(f"unknown heuristic {name!r}: choose from {', '.join(NAMES)}")
    return names


def positive_int(text: str) -> int:
    """An argparse type for an integer >= 1."""
    if not text.strip().isdecimal() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer >= 1")
    return int(text)


def non_negative_int(text: str) -> int:
    """An argparse type for an integer >= 0."""
    if not text.strip().isdecimal():
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer >= 0")
    return int(text)


def measure(size: tuple[int, int, int], heuristic: str, incremental: bool, time_ms: int, radius: int) -> Run:
    """Search the one-stone-in-the-centre position for ``time_ms`` with or without the incremental path."""
    rows, cols, k = size
    game = MNK(rows, cols, k)
    evaluator = Evaluator(heuristic, game)
    position = game.position()
    position.play((rows // 2) * cols + cols // 2)
    previous = engine.INCREMENTAL
    engine.INCREMENTAL = incremental
    try:
        search(position, evaluator, depth=1, radius=radius)  # compile or load the kernels: not timed
        result = search(position, evaluator, time_ms=time_ms, radius=radius)
    finally:
        engine.INCREMENTAL = previous
    return Run(result.depth, result.nodes, result.nodes / max(result.seconds, 1e-9))


def parse_spec(text: str) -> str:
    """An argparse type for an alpha-beta agent spec (checked on a 7,7,5 board; its own message on failure)."""
    try:
        agent = make_agent(text, MNK(7, 7, 5))
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{text!r} is not a usable agent spec: {error}") from None
    if not isinstance(agent, AlphaBetaAgent) or agent.limit.time_ms is None:
        raise argparse.ArgumentTypeError(f"{text!r} must be an alphabeta spec with a time_ms budget")
    return text


@dataclass(frozen=True)
class Move:
    """One agent move: the alpha-beta depth completed, its nodes/s, and the move's wall time (threat search included)."""

    depth: int
    nodes_per_s: float
    move_ms: float
    threat_depth: int = 0
    """The longest forced line a threat search inside the tree proved, counted apart (0 if the engine reports none)."""


def measure_agent(size: tuple[int, int, int], spec: str) -> Move:
    """The agent's move from the one-stone-in-the-centre position, after an untimed move that compiles the kernels."""
    rows, cols, k = size
    game = MNK(rows, cols, k)
    agent = make_agent(spec, game, seed=0)
    assert isinstance(agent, AlphaBetaAgent)  # parse_spec let only alpha-beta specs through
    position = game.position()
    position.play((rows // 2) * cols + cols // 2)
    agent.select_move(position)  # compile or load the kernels: not counted
    agent.reset()
    started = time.perf_counter()
    agent.select_move(position)
    move_ms = (time.perf_counter() - started) * 1000.0
    result = agent.last_result
    assert result is not None  # no random moves in these specs
    threat = int(getattr(result, "threat_depth", 0))  # engines without a threat search in the tree report none
    return Move(result.depth, result.nodes / max(result.seconds, 1e-9), move_ms, threat)


def agent_rows(sizes: Sequence[tuple[int, int, int]], today: str, new: str) -> list[list[str]]:
    """The agents table: per board, depth, nodes/s and move time of today's agent and of the new one."""
    rows: list[list[str]] = []
    for size in sizes:
        old, fresh = measure_agent(size, today), measure_agent(size, new)
        rows.append([",".join(map(str, size)), str(old.depth), str(fresh.depth), str(old.threat_depth),
                     str(fresh.threat_depth), f"{old.nodes_per_s:,.0f}", f"{fresh.nodes_per_s:,.0f}",
                     f"{old.move_ms:.0f}", f"{fresh.move_ms:.0f}"])  # fmt: skip
        print(f"  done {rows[-1][0]} agents", file=sys.stderr, flush=True)
    return rows


def game_moves(size: tuple[int, int, int], spec: str, plies: int) -> list[float]:
    """Milliseconds of every move of a self-play game of ``spec`` from one stone in the centre (at most ``plies``
    moves; an untimed first move compiles the kernels)."""
    rows, cols, k = size
    game = MNK(rows, cols, k)
    agent = make_agent(spec, game, seed=0)
    position = game.position()
    position.play((rows // 2) * cols + cols // 2)
    agent.select_move(position)  # compile or load the kernels: not counted
    agent.reset()
    took: list[float] = []
    while len(took) < plies and not position.is_terminal():
        started = time.perf_counter()
        move = agent.select_move(position.copy())
        took.append((time.perf_counter() - started) * 1000.0)
        position.play(move)
    return took


def game_rows(sizes: Sequence[tuple[int, int, int]], specs: Sequence[str], plies: int) -> list[list[str]]:
    """The slowest-move table: per board and agent, the moves played, the mean and the slowest move."""
    rows: list[list[str]] = []
    for size in sizes:
        for spec in specs:
            took = game_moves(size, spec, plies)
            rows.append([",".join(map(str, size)), spec, str(len(took)), f"{sum(took) / len(took):.0f}", f"{max(took):.0f}"])
            print(f"  done {rows[-1][0]} game of {spec}", file=sys.stderr, flush=True)
    return rows


def table(rows: list[list[str]], header: list[str], markdown: bool) -> str:
    """The rows as aligned text or a Markdown table."""
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])
    widths = [max(len(x) for x in column) for column in zip(header, *rows)]
    return "\n".join("  ".join(x.rjust(w) for x, w in zip(r, widths)) for r in [header, *rows])


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the benchmark and print the table; 0 on success (argparse exits 2 on bad input)."""
    parser = argparse.ArgumentParser(prog="python -m scripts.bench_mnk", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="*", type=parse_size, default=list(SIZES),
                        help="boards as rows,cols,k (default: " + " ".join(",".join(map(str, s)) for s in SIZES) + ")")
    parser.add_argument("--heuristics", type=parse_heuristics, default=HEURISTICS,
                        help="comma-separated evaluators (default mics,windows,patterns; none: the agents table alone)")
    parser.add_argument("--time-ms", type=positive_int, default=1000, help="time budget per search (default 1000)")
    parser.add_argument("--radius", type=non_negative_int, default=2,
                        help="candidate cells within this many king moves of a stone (default 2; 0: all)")
    parser.add_argument("--today", type=parse_spec, default=TODAY, help=f"today's agent (default {TODAY})")
    parser.add_argument("--new", type=parse_spec, default=NEW, help=f"the new agent (default {NEW})")
    parser.add_argument("--game-sizes", nargs="*", type=parse_size, default=[],
                        help="also play a self-play game of each agent on these boards and report its slowest move")  # fmt: skip
    parser.add_argument("--game-plies", type=positive_int, default=60, help="moves of that game at most (default 60)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")  # fmt: skip
    args = parser.parse_args(argv)

    print(f"# bench_mnk: python {platform.python_version()}, numba {numba.__version__}, {os.cpu_count()} CPUs, "
          f"{args.time_ms} ms per search, radius {args.radius}, one stone in the centre")  # fmt: skip
    header = ["board", "heuristic", "depth scratch", "depth incr", "nodes/s scratch", "nodes/s incr", "speed-up"]
    rows: list[list[str]] = []
    for size in args.sizes:
        for heuristic in args.heuristics:
            scratch = measure(size, heuristic, False, args.time_ms, args.radius)
            incr = measure(size, heuristic, True, args.time_ms, args.radius)
            rows.append([",".join(map(str, size)), heuristic, str(scratch.depth), str(incr.depth),
                         f"{scratch.nodes_per_s:,.0f}", f"{incr.nodes_per_s:,.0f}",
                         f"{incr.nodes_per_s / max(scratch.nodes_per_s, 1e-9):.1f}x"])  # fmt: skip
            print(f"  done {rows[-1][0]} {heuristic}", file=sys.stderr, flush=True)
    if rows:
        print(table(rows, header, args.markdown))
    print(f"# agents, one move each: today = {args.today}; new = {args.new}")
    header = ["board", "depth today", "depth new", "threat depth today", "threat depth new", "nodes/s today",
              "nodes/s new", "move ms today", "move ms new"]  # fmt: skip
    if args.sizes:
        print(table(agent_rows(args.sizes, args.today, args.new), header, args.markdown))
    if args.game_sizes:
        print(f"# slowest move of a self-play game, at most {args.game_plies} moves, from one stone in the centre")
        header = ["board", "agent", "moves", "mean ms", "slowest ms"]
        print(table(game_rows(args.game_sizes, [args.today, args.new], args.game_plies), header, args.markdown))
    print(f"# load average at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
