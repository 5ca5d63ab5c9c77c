"""Benchmark gomoku puzzle solving: the share of the puzzle set an agent solves within a time limit, against a baseline.

Every agent spec (default: ``alphabeta:heuristic=gomoku``, the gomoku engine on free
boards, and the named baseline :data:`BASELINE`, the README's recommended
m,n,k agent) plays one move in every puzzle of the set (default: the shipped
:func:`search.gomoku.puzzles.load_puzzles`).  A puzzle is solved when the move is
one of its winning first moves (every move that keeps a VCF against every
defence) and took at most the limit.  An alpha-beta spec without a budget of
its own searches for 90% of the limit, as in the m,n,k tournament.  Each
agent first plays the tournament's untimed warm-up positions on each board
(compiling kernels is not charged to a puzzle) and is reset before every
puzzle.  The report: per agent the solve rate with its 95% Wilson interval,
by the kind (VCF or VCT) and length of the win, the mean and slowest move, and each agent's solve rate as a
ratio of the baseline's, all measured in the same run.

Before any puzzle is played, every spec is built on every board of the
puzzles (a weight file plays only its own board: ``--boards 15,15,5`` keeps
the puzzles of that board), and the ``--out`` files are checked writable;
either problem ends in a one-line usage error (exit 2).  Ctrl-C ends the run
with one line and exit code 130, writing nothing (a benchmark's ratios are
only meaningful over the whole set).

Run it from the repository root, on an otherwise idle machine::

    python -m scripts.bench_puzzles                       # the default agent against the baseline, 1 s a move
    python -m scripts.bench_puzzles "alphabeta:heuristic=mics,time_ms=400" --time-ms 500 --out runs/puzzles
    python -m scripts.bench_puzzles gomoku-gomoku-tuned --boards 15,15,5    # a weight file, on its board
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

import numba

from games import KInARow
from scripts._args import int_range, positive_float, report_outputs, run_interruptible, writable_file
from scripts._files import write_text_atomic
from scripts.gomoku_match import board_type
from search.agents import AgentSpecError, AgentType, make_agent
from search.agents.warmup import warm_up
from search.errors import SearchError
from search.gomoku.puzzles import Puzzle, load_puzzles
from tuning.stats import wilson
from tuning.tournament import BUDGET_SHARE, budgeted

DEFAULT = "alphabeta:heuristic=gomoku"
"""The agent measured by default: the gomoku engine (``alphabeta:heuristic=gomoku``) with no other options."""
BASELINE = "alphabeta:heuristic=mics,radius=2,time_ms=850,solve_ms=400,branching=6"
"""The named baseline: the README's recommended m,n,k agent."""


@dataclass(frozen=True)
class Attempt:
    """One agent's move in one puzzle."""

    puzzle: str
    kind: str
    """``vcf`` or ``vct`` (the puzzle's kind of forced win)."""
    plies: int
    move: str
    solved: bool
    seconds: float


def solve_all(spec: str, puzzles: Sequence[Puzzle], limit_s: float) -> list[Attempt]:
    """``spec``'s move in every puzzle (warm-up untimed once per board; the agent reset before each puzzle)."""
    agents: dict[KInARow, AgentType] = {}
    attempts = []
    for puzzle in puzzles:
        agent = agents.get(puzzle.game)
        if agent is None:
            agent = agents[puzzle.game] = make_agent(budgeted(spec, limit_s * 1000 * BUDGET_SHARE), puzzle.game, seed=0)
            warm_up(agent, puzzle.game)
        agent.reset()
        position = puzzle.position()
        started = time.perf_counter()
        move = agent.select_move(position.copy())
        took = time.perf_counter() - started
        solved = move in puzzle.winning and took <= limit_s
        attempts.append(Attempt(puzzle.name, puzzle.kind, puzzle.plies, puzzle.game.format_move(move), solved, took))
    return attempts


def _rate(attempts: Sequence[Attempt]) -> str:
    solved = sum(a.solved for a in attempts)
    low, high = wilson(solved, len(attempts))
    return f"{solved}/{len(attempts)} = {solved / len(attempts):.1%} [{low:.1%}, {high:.1%}]"


def report(results: dict[str, list[Attempt]], baseline: str, limit_ms: float, argv: Sequence[str], seconds: float) -> str:
    """The Markdown report: one row per agent, then solve counts by kind and length of the win."""
    lines = [f"# Gomoku puzzles: {len(next(iter(results.values())))} puzzles, {limit_ms:g} ms per move", "",
             "| agent | solved [95% interval] | vs baseline | mean ms | slowest ms |", "|---|---|---:|---:|---:|"]  # fmt: skip
    base = sum(a.solved for a in results[baseline])
    for spec, attempts in results.items():
        solved = sum(a.solved for a in attempts)
        ratio = f"{solved / base:.2f}x" if base else "-"
        times = [a.seconds * 1000 for a in attempts]
        lines.append(f"| `{spec}`{' (baseline)' if spec == baseline else ''} | {_rate(attempts)} | {ratio} | "
                     f"{sum(times) / len(times):.0f} | {max(times):.0f} |")  # fmt: skip
    kinds = sorted({(a.kind, a.plies) for a in results[baseline]})
    lines += ["", "Solved by the kind and length (plies) of the shortest forced win:", "",
              "| agent | " + " | ".join(f"{kind.upper()} {plies}" for kind, plies in kinds) + " |",
              "|---|" + "---:|" * len(kinds)]  # fmt: skip
    for spec, attempts in results.items():
        by: dict[tuple[str, int], list[bool]] = defaultdict(list)
        for a in attempts:
            by[a.kind, a.plies].append(a.solved)
        lines.append(f"| `{spec}` | " + " | ".join(f"{sum(by[n])}/{len(by[n])}" for n in kinds) + " |")
    lines += ["", f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, numba "
              f"{numba.__version__}; load average {os.getloadavg()[0]:.2f} at the end; {seconds:.0f} s in all.",
              f"Command: `{shlex.join(['python', '-m', 'scripts.bench_puzzles', *argv])}`"]  # fmt: skip
    return "\n".join(lines) + "\n"


def _as_json(results: dict[str, list[Attempt]], baseline: str, limit_ms: float) -> dict[str, Any]:
    return {"time_ms": limit_ms, "baseline": baseline,
            "agents": {spec: [a.__dict__ for a in attempts] for spec, attempts in results.items()}}  # fmt: skip


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scripts.bench_puzzles", description=__doc__.split("\n\n")[0])
    parser.add_argument("specs", nargs="*", default=[DEFAULT], help=f"agent specs to measure (default {DEFAULT!r})")
    parser.add_argument("--baseline", default=BASELINE, help=f"the named baseline, measured in the same run (default {BASELINE!r})")
    parser.add_argument("--time-ms", type=positive_float, default=1000.0, help="time limit per puzzle in ms (default 1000)")
    parser.add_argument("--puzzles", type=Path, help="a puzzle file (default: the shipped set)")
    parser.add_argument("--boards", nargs="+", type=board_type, metavar="M,N,K[x]",
                        help="only the puzzles of these boards (x: exact-k), e.g. 15,15,5 for a weight file of that board")  # fmt: skip
    parser.add_argument("--limit", type=int_range(1), help="only the first N puzzles (for a quick look)")
    parser.add_argument("--out", type=writable_file, help="also write <out>.md and <out>.json, atomically (both "
                        "checked before any work; a .md or .json suffix is dropped)")  # fmt: skip
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the benchmark; 0 on success, 2 on bad arguments, 130 on Ctrl-C (one line; nothing is written)."""
    return run_interruptible("scripts.bench_puzzles", _main, argv)


def _main(argv: Optional[Sequence[str]]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    argv = list(sys.argv[1:] if argv is None else argv)
    outputs = report_outputs(parser, args.out)  # both files checked before any work
    try:
        puzzles = load_puzzles(args.puzzles)
    except SearchError as error:
        parser.error(f"argument --puzzles: {error}")
    if args.boards is not None:
        wanted = {board.game() for board in args.boards}
        puzzles = [p for p in puzzles if p.game in wanted]
    if args.limit is not None:
        puzzles = puzzles[: args.limit]
    if not puzzles:
        parser.error("no puzzles to solve: the puzzle file holds none" + (" on --boards" if args.boards else ""))
    specs = list(dict.fromkeys([*args.specs, args.baseline]))
    _check_specs(parser, specs, puzzles, args.time_ms)
    started = time.perf_counter()
    results = {}
    for spec in specs:
        results[spec] = solve_all(spec, puzzles, args.time_ms / 1000)
        print(f"{spec}: {_rate(results[spec])}", file=sys.stderr, flush=True)
    text = report(results, args.baseline, args.time_ms, argv, time.perf_counter() - started)
    if outputs is not None:
        write_text_atomic(outputs[1], json.dumps(_as_json(results, args.baseline, args.time_ms), indent=1) + "\n")
        write_text_atomic(outputs[0], text)
    print(text, end="")
    return 0


def _check_specs(parser: argparse.ArgumentParser, specs: Sequence[str], puzzles: Sequence[Puzzle], time_ms: float) -> None:
    """Exit 2 unless every spec builds an agent on every board of the puzzles (a weight file is for one board)."""
    boards = list(dict.fromkeys(p.game for p in puzzles))
    for spec in specs:
        for game in boards:
            try:
                make_agent(budgeted(spec, time_ms * BUDGET_SHARE), game)
            except (AgentSpecError, ValueError) as error:
                names = " ".join(_board_name(g) for g in boards)
                parser.error(f"agent spec {spec!r} cannot play the puzzles of {_board_name(game)}: {error} "
                             f"(the puzzles' boards: {names}; --boards keeps some of them)")  # fmt: skip


def _board_name(game: KInARow) -> str:
    """``M,N,K`` or ``M,N,Kx`` (exact-k), as ``--boards`` takes it."""
    return f"{game.rows},{game.cols},{game.k}{'x' if game.exact_k else ''}"


if __name__ == "__main__":
    sys.exit(main())
