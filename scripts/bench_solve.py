"""Benchmark the exact solver on Pascal Pons' Connect-4 sets, against his solver (run here, or his published figures).

Every position of ``tests/data/connect4/Test_L3_R1`` (End-Easy) and
``Test_L2_R1`` (Middle-Easy), 1000 each, solved strongly and weakly with a
:class:`search.solve.Solver` of the command line's default table size,
each from an empty table (as his benchmark does).  Two paths:

* per call: ``Solver.reset()`` then ``Solver.solve(position)`` per position,
  timed as his benchmark times it, the search alone
  (``SolveResult.seconds``: the numba kernel call, its dispatch included);
  the "API" column adds the Python side of ``Solver.solve`` (board
  conversion, result object);
* batch: ``Solver.solve_batch(positions)``, one kernel call for the whole
  set (what ``python -m search.solve`` runs): its wall time divided by the
  positions, table resets included, so no Python runs between positions.

Per set: correctness (the strong score equals the file's, the weak score
its sign; both paths give the same scores and node counts; the script
exits 1 otherwise); mean positions explored (one per negamax node, as his
solver counts them: machine-independent, target <= 1.5x his); mean time
per position and the ratio to the reference.

The reference: ``--reference BINARY`` runs his C++ solver on this machine
in the same run: a build of https://github.com/PascalPons/connect4 (built
outside this repository; its source is not part of it) whose ``main``
reads move strings on stdin and prints ``<moves> <score> <nodes>
<microseconds>``, resetting its table before each position and timing
``solve()`` alone (the protocol of his blog's benchmark); ``-w`` asks for
the weak solve.  His weak answers are checked by their sign only: his weak
solve returns the bound its last probe found, which on a win may exceed 1
(the exact score when the side to move wins at once, a lower bound such as 6
when a probe's search proves more than a win).  Target: the batch within 1.0x
of its mean search time.
Without it, the figures of his blog's part 12 ("Lower bound transposition
table", http://blog.gamesolver.org/, no opening book) stand in: his time on
his machine, so the time ratio is only indicative.

``--random N`` adds a weak-solve table over positions of random games (N
for each even number of empty cells from 6 to 30; none over, none where the
side to move wins at once; seeded by ``--seed``): Pons' sets are not a
random sample (their "easy" positions are often fast wins or losses), so
this checks the weak solve's node counts against his where play is less
decided.  Its correctness check: our sign equals his.

Run it with ``python -m scripts.bench_solve [--limit N] [--tt-size S]
[--reference BINARY] [--random N] [--seed S] [--markdown]`` (about 20 s
once the kernels are cached; ``--random 150`` adds about a minute).
"""

from __future__ import annotations

import argparse
import math
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from games import CONNECT4
from games.playout import random_open_position
from scripts._args import int_range, non_negative_int, positive_int
from scripts._report import print_machine_and_command, print_table
from search.solve import DEFAULT_TT_SIZE, MAX_TT_SIZE, MIN_TT_SIZE, Solver, cycles_per_second

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "connect4"


@dataclass(frozen=True)
class Reference:
    """Pons' published figures for one set (blog part 12, no opening book)."""

    label: str
    mean_us: float
    mean_nodes: float


PUBLISHED = {
    "Test_L3_R1": Reference("End-Easy", 4.568, 51.28),
    "Test_L2_R1": Reference("Middle-Easy", 37.45, 449.6),
}
NODE_TARGET, TIME_TARGET = 1.5, 1.0


@dataclass
class SetRun:
    """Measurements over one set in one mode."""

    scores: list[int]
    nodes: list[int]
    kernel_us: list[float]
    api_us: list[float]
    batch_us: float = 0.0
    """Mean per position of the batch path (its wall time / positions)."""
    batch_median_us: float = 0.0
    """Median of the batch's per-position searches (the CPU's cycle counter)."""


def run_set(solver: Solver, lines: list[tuple[str, int]], weak: bool) -> SetRun:
    """Solve every position from an empty table, per call and then as one batch; check both agree."""
    run = SetRun([], [], [], [])
    positions = [CONNECT4.position(moves) for moves, _ in lines]
    for position in positions:
        solver.reset()
        started = time.perf_counter()
        result = solver.solve(position, weak=weak)
        run.api_us.append((time.perf_counter() - started) * 1e6)
        run.kernel_us.append(result.seconds * 1e6)
        run.nodes.append(result.nodes)
        run.scores.append(result.score)
    batch = solver.solve_batch(positions, weak=weak)
    if [(r.score, r.nodes) for r in batch.results] != list(zip(run.scores, run.nodes)):
        raise SystemExit("the batch and the per-call solves disagree: a bug")
    run.batch_us = batch.seconds * 1e6 / len(positions)
    run.batch_median_us = statistics.median(r.seconds for r in batch.results) * 1e6
    return run


def run_reference(binary: str, lines: list[tuple[str, int]], weak: bool) -> Optional[SetRun]:
    """The reference solver on the same positions: its scores, nodes and microseconds per position."""
    command = [binary, "-w"] if weak else [binary]
    done = subprocess.run(command, input="".join(f"{moves}\n" for moves, _ in lines), capture_output=True, text=True,
                          check=True, timeout=3600)  # fmt: skip
    rows = [line.split() for line in done.stdout.splitlines() if line.strip()]
    if len(rows) != len(lines) or any(len(row) < 4 or row[0] != moves for row, (moves, _) in zip(rows, lines)):
        raise SystemExit(f"{binary}: expected '<moves> <score> <nodes> <microseconds>' for each of {len(lines)} lines")
    return SetRun([int(r[1]) for r in rows], [int(r[2]) for r in rows], [float(r[3]) for r in rows], [])


def verdict(ratio: float, target: float) -> str:
    """'met' if ``ratio`` is within ``target``, 'n/a' without a reference (NaN), else 'not met'."""
    return "n/a" if math.isnan(ratio) else ("met" if ratio <= target else "not met")


RANDOM_EMPTIES = range(6, 31, 2)
"""Empty cells of the random positions (``--random``): from quick end games to searches of some 300,000 nodes."""


def random_positions(count: int, empty: int, rng: np.random.Generator) -> list[str]:
    """Move strings of ``count`` random games stopped with ``empty`` empty cells, none over, none won at once.

    Each move is drawn among those that do not end the game; a game with no
    such move left, or whose side to move could win at once, is drawn again.
    """
    found: list[str] = []
    while len(found) < count:
        position = random_open_position(CONNECT4, empty, rng)
        if position is not None and not position.winning_moves():
            found.append(position.move_string())
    return found


def random_table(solver: Solver, count: int, seed: int, reference: Optional[str]) -> tuple[list[list[str]], int]:
    """Rows of the weak solve on random positions per number of empty cells, and how many signs differ from his."""
    rng = np.random.default_rng(seed)
    rows, differ = [], 0
    for empty in RANDOM_EMPTIES:
        moves = random_positions(count, empty, rng)
        batch = solver.solve_batch([CONNECT4.position(m) for m in moves], weak=True)
        ours = statistics.fmean(r.nodes for r in batch.results)
        row = [str(empty), str(count), f"{ours:,.1f}", f"{batch.seconds * 1e6 / count:,.2f}"]
        if reference:
            ref = run_reference(reference, [(m, 0) for m in moves], weak=True)
            assert ref is not None
            differ += sum(sign(r.score) != sign(h) for r, h in zip(batch.results, ref.scores))
            theirs = statistics.fmean(ref.nodes)
            row += [f"{theirs:,.1f}", f"{ours / theirs:.2f}x", verdict(ours / theirs, NODE_TARGET),
                    f"{statistics.fmean(ref.kernel_us):,.2f}"]  # fmt: skip
        rows.append(row)
    return rows, differ


def load(name: str, limit: Optional[int]) -> list[tuple[str, int]]:
    """``(moves, score)`` of the first ``limit`` lines of a set (all if None)."""
    rows = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
    return [(moves, int(score)) for moves, score in rows[:limit]]


def sign(x: int) -> int:
    """-1, 0 or 1."""
    return (x > 0) - (x < 0)


def right_answers(scores: Sequence[int], lines: list[tuple[str, int]], weak: bool) -> int:
    """How many ``scores`` are right: equal to the file's score (strong), or of its sign (weak).

    A weak answer is any number of the right sign: ours is -1, 0 or 1, the
    reference's may be a larger win (module docstring).
    """
    return sum((sign(a) == sign(b)) if weak else (a == b) for a, (_, b) in zip(scores, lines))


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the benchmark; return 1 if any score, ours or the reference's, was wrong (or a random position's sign differs)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=positive_int, help="positions per set (default: all 1000)")
    parser.add_argument("--tt-size", type=int_range(MIN_TT_SIZE, MAX_TT_SIZE), default=DEFAULT_TT_SIZE,
                        help="table slots (default: the CLI's)")  # fmt: skip
    parser.add_argument("--reference", metavar="BINARY",
                        help="Pons' solver built on this machine, timed on the same sets in this run "
                        "(default: his published figures)")  # fmt: skip
    parser.add_argument("--random", type=non_negative_int, default=0, metavar="N",
                        help="also solve weakly N random positions per even number of empty cells from "
                        f"{RANDOM_EMPTIES[0]} to {RANDOM_EMPTIES[-1]} (default: 0, none)")  # fmt: skip
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of the random positions (default: 0)")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    args = parser.parse_args(argv)

    print_machine_and_command(argv, f", table {args.tt_size:,} slots")
    solver = Solver(CONNECT4, args.tt_size)
    started = time.perf_counter()
    # Compiles, or loads the cached kernels: an end-game position (a few nodes), not an opening's
    # (one of 4 stones is a full solve of 51 million nodes, half a minute).
    warm_up = CONNECT4.position(load("Test_L3_R1", 1)[0][0])
    solver.solve(warm_up)
    solver.solve_batch([warm_up])
    cycles_per_second()
    solver._tt.fill(0)  # touch the table's pages before the clock (the reference's reset writes its whole table)
    print(f"JIT warm-up (compile or cache load): {time.perf_counter() - started:.2f} s\n")

    rows, wrong, ref_wrong = [], 0, 0
    for name, published in PUBLISHED.items():
        lines = load(name, args.limit)
        for weak in (False, True):
            r = run_set(solver, lines, weak)
            right = right_answers(r.scores, lines, weak)
            wrong += len(lines) - right
            ref = run_reference(args.reference, lines, weak) if args.reference else None
            if ref is not None:
                ref_wrong += len(lines) - right_answers(ref.scores, lines, weak)
                ref_nodes, ref_us = statistics.fmean(ref.nodes), statistics.fmean(ref.kernel_us)
                ref_median = f"{statistics.median(ref.kernel_us):,.2f}"
            elif not weak and len(lines) == len(load(name, None)):
                ref_nodes, ref_us, ref_median = published.mean_nodes, published.mean_us, "n/a"
            else:  # nothing published for the weak solve, and his means are over the whole set
                ref_nodes = ref_us = float("nan")
                ref_median = "n/a"
            mean_nodes, call_us = statistics.fmean(r.nodes), statistics.fmean(r.kernel_us)
            ratio, node_ratio = r.batch_us / ref_us, mean_nodes / ref_nodes
            rows.append([
                f"{name} ({published.label}){', weak' if weak else ''}", str(len(lines)),
                f"{100 * right / len(lines):.1f}%",
                f"{mean_nodes:,.1f}", f"{ref_nodes:,.1f}", f"{node_ratio:.2f}x", verdict(node_ratio, NODE_TARGET),
                f"{statistics.fmean(r.api_us):,.2f}", f"{call_us:,.2f}", f"{statistics.median(r.kernel_us):,.2f}",
                f"{r.batch_us:,.2f}", f"{r.batch_median_us:,.2f}", f"{call_us / r.batch_us:.1f}x", f"{ref_us:,.2f}",
                ref_median, f"{ratio:.2f}x", verdict(ratio, TIME_TARGET),
                f"{sum(r.nodes) / (r.batch_us * len(lines)):.1f}",
            ])  # fmt: skip
    where = f"{args.reference}, run here on the same positions" if args.reference else \
        "his published figures (his machine, not this one; strong solve only; whole sets, none with --limit)"  # fmt: skip
    print(f"Solve time per position; reference: {where}")
    print_table(
        ["set", "positions", "correct", "mean nodes", "ref nodes", "nodes / ref", f"<= {NODE_TARGET}x",
         "API us", "per-call us", "per-call median us", "batch us", "batch median us", "per-call / batch",
         "ref us", "ref median us", "batch / ref", f"<= {TIME_TARGET}x", "batch M nodes/s"],
        rows, args.markdown,
    )  # fmt: skip
    print(
        "\nnodes: positions explored, one per negamax node, as the reference counts them (target <= "
        f"{NODE_TARGET}x). per-call us: Solver.solve's kernel call per position (the reference times its solve() "
        "alone); API adds Solver.solve's Python side; batch us: one Solver.solve_batch call over the set, its wall "
        "time per position (table resets included), its median from the CPU's cycle counter per position; ref us: the "
        "reference's mean solve() time. The target compares means (batch us / ref us)."
    )
    differ = 0
    if args.random:
        random_rows, differ = random_table(solver, args.random, args.seed, args.reference)
        print(f"\nWeak solve of random positions (seed {args.seed}), each batch from empty tables; nodes and us: means")
        header = ["empty cells", "positions", "nodes", "batch us"]
        if args.reference:
            header += ["ref nodes", "nodes / ref", f"<= {NODE_TARGET}x", "ref us"]
        print_table(header, random_rows, args.markdown)
        if args.reference:
            print(f"Signs that differ from the reference's: {differ}")
    if wrong or ref_wrong:
        print(f"\nWrong answers: {wrong} of ours, {ref_wrong} of the reference's (strong: the exact score; weak: its sign)")
    return 1 if wrong or ref_wrong or differ else 0


if __name__ == "__main__":
    sys.exit(main())
