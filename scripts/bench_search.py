"""Benchmark the search: time and nodes to a fixed depth on fixed Connect-4 positions, against easyAI.

On a fixed, versioned set of Connect-4 6x7 positions (``POSITIONS``, set
``POSITIONS_VERSION``: the empty board and openings of 1-8 plies, none with a
forced win for either side within 8 plies, which the script checks first):

1. ``search(position, Evaluator(h, CONNECT4), depth=d)`` for ``h`` in
   ``square_values`` (cheap), ``c4_features`` (the paper's H1) and
   ``threats`` (27 tunable features, word-parallel): wall time
   to reach depth ``d`` (iterative deepening 1..d, every iteration counted),
   nodes and nodes/s, the median of ``--repeats`` runs, each with an empty
   transposition table (``search``'s own, emptied per call).  On Connect-4
   ``search`` runs the bitboard kernel; the same search on the array kernel
   (``engine._search(..., bitboards=False)``, same values) is timed too, to
   show what the bitboards buy.  numba compile/cache-load time is measured
   apart as "JIT warm-up".
2. The baseline, measured in the same run: easyAI's ``Negamax`` (a single
   fixed-depth alpha-beta, no table: its defaults) on easyAI's own
   ``ConnectFour`` example game, set up on the same positions (the boards are
   asserted equal to ours), at ``--easyai-depth`` on every position and at
   ``--depth`` on the first ``--easyai-deep`` positions (pure Python: depth 8
   takes seconds to minutes per position).  easyAI scores leaves with its
   example's own function (-100 for a lost position, else 0), not with our
   heuristics: the ratio compares search machinery speed at equal depth on
   equal positions, not playing strength.  Needs the ``bench`` extra
   (``pip install -e ".[bench]"``); skipped with a note if missing.
3. Nodes at ``--node-depths`` on the same positions: plain minimax (no
   pruning), alpha-beta without ordering and table, with the table only, the
   full search, and the full search restricted to the q = 4, 3, 2 best moves.

4. Fixed cost per call: ``search(position, evaluator, depth=1)`` on the
   first ``FIXED_POSITIONS`` (Connect-4 for each heuristic, bitboard kernel;
   tic-tac-toe with ``windows``, array kernel), the best of 7 runs of
   ``--fixed-calls`` calls: the set-up of a search (budget, kernel
   arguments, the call) plus a one-ply search.  ``--fixed-cost-only`` prints
   just this table, in a few seconds; for a before/after comparison run the
   same command on both checkouts (``cd OTHER && PYTHONPATH=. python
   /path/to/scripts/bench_search.py --fixed-cost-only``: it uses only the
   public ``search()``).

Run it with ``python -m scripts.bench_search [--depth 8] [--easyai-depth 6]
[--easyai-deep 8] [--node-depths 6,8] [--repeats 3] [--markdown]``
(about 4.5 minutes at the defaults on a 2-CPU machine, mostly easyAI at
depth 8; ``--easyai-deep 2`` takes 1.5).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Optional, Sequence

import numpy as np

from games import CONNECT4, TIC_TAC_TOE, Position
from heuristics import Evaluator
from scripts._args import int_list, int_range, non_negative_int, positive_int
from scripts._report import print_machine_and_command, print_table
from search.alphabeta.engine import _search, minimax, search
from search.protocol import is_win_score

POSITIONS_VERSION = "c4-search-v1"
"""Bump when ``POSITIONS`` changes: numbers are only comparable within one version."""
POSITIONS: tuple[str, ...] = ("", "4", "44", "43", "4453", "44355", "4453324", "43443554")
"""Connect-4 6x7 move strings (1-based columns, x first); none has a forced win within ``NO_WIN_DEPTH`` plies."""
NO_WIN_DEPTH = 8
HEURISTICS: tuple[str, ...] = ("square_values", "c4_features", "threats")
PLIES = 42
"""A Connect-4 6x7 game lasts at most 42 plies: no search depth beyond means anything."""
DEPTH = int_range(1, PLIES)

NODE_CONFIGS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("alpha-beta, no ordering, no TT", {"ordering": False, "use_tt": False}),
    ("alpha-beta, TT, no ordering", {"ordering": False}),
    ("alpha-beta full (q = all)", {}),
    ("q = 4", {"branching": 4}),
    ("q = 3", {"branching": 3}),
    ("q = 2", {"branching": 2}),
)
"""``search`` keyword arguments of the node-count columns (after plain minimax)."""


def label(moves: str) -> str:
    """How a position prints in the tables."""
    return f'"{moves}"' if moves else "empty"


def geomean(values: Sequence[float]) -> float:
    """Geometric mean of positive numbers."""
    return math.exp(sum(math.log(v) for v in values) / len(values))


# --------------------------------------------------------------------------- ours


def check_no_forced_win(positions: dict[str, Position]) -> None:
    """Raise if a full search finds a forced result within ``NO_WIN_DEPTH`` plies (the set's promise)."""
    evaluator = Evaluator("square_values", CONNECT4)  # win scores are exact whatever the heuristic
    for moves, pos in positions.items():
        result = search(pos, evaluator, depth=NO_WIN_DEPTH)
        if is_win_score(result.score):
            raise SystemExit(f"position {label(moves)} has a forced result within {NO_WIN_DEPTH} plies "
                             f"(score {result.score}): fix POSITIONS and bump POSITIONS_VERSION")  # fmt: skip


def time_ours(pos: Position, evaluator: Evaluator, depth: int, repeats: int, bitboards: bool = True) -> tuple[int, float]:
    """``(nodes, median seconds)`` of ``search(pos, evaluator, depth=depth)`` over ``repeats`` runs.

    ``bitboards=False``: the array kernel instead (``search`` picks the bitboards on Connect-4).
    """
    nodes, times = set(), []
    for _ in range(repeats):
        start = time.perf_counter()
        result = _search(pos, evaluator, depth=depth, bitboards=bitboards)
        times.append(time.perf_counter() - start)
        assert result.depth == depth, (pos, result)
        nodes.add(result.nodes)
    assert len(nodes) == 1, f"the search is deterministic, got node counts {nodes}"
    return nodes.pop(), statistics.median(times)


def node_counts(positions: dict[str, Position], evaluator: Evaluator, depth: int,
                minimax_nodes: dict[str, int]) -> tuple[dict[str, list[int]], list[float]]:  # fmt: skip
    """Nodes per position for every ``NODE_CONFIGS`` entry at ``depth``, and the total seconds per config."""
    counts: dict[str, list[int]] = {}
    seconds = [0.0] * len(NODE_CONFIGS)
    for moves, pos in positions.items():
        counts[moves] = [minimax_nodes[moves]]
        for i, (_, kwargs) in enumerate(NODE_CONFIGS):
            start = time.perf_counter()
            result = search(pos, evaluator, depth=depth, **kwargs)
            seconds[i] += time.perf_counter() - start
            counts[moves].append(result.nodes)
    return counts, seconds


def fixed_costs(calls: int) -> list[tuple[str, str, str, str]]:
    """``(game, heuristic, kernel, microseconds per call)`` of ``search(position, evaluator, depth=1)``, best of 7."""
    cases = [(CONNECT4, "4453", h, "bitboards") for h in HEURISTICS] + [(TIC_TAC_TOE, "b2", "windows", "array")]
    rows = []
    for game, moves, heuristic, kernel in cases:
        evaluator, position = Evaluator(heuristic, game), game.position(moves)
        search(position, evaluator, depth=1)  # compile or load outside the clock
        best = math.inf
        for _ in range(7):
            start = time.perf_counter()
            for _ in range(calls):
                search(position, evaluator, depth=1)
            best = min(best, (time.perf_counter() - start) / calls)
        rows.append((str(game), heuristic, kernel, f"{best * 1e6:,.1f}"))
    return rows


def print_fixed_costs(calls: int, markdown: bool) -> None:
    """The fixed-cost table (section 4 of the module docstring)."""
    print(f"\nFixed cost per call: search(position, evaluator, depth=1), best of 7 runs of {calls:,} calls "
          f"(Connect-4 after 4453, tic-tac-toe after b2)\n")  # fmt: skip
    print_table(("game", "heuristic", "kernel", "us per call"), fixed_costs(calls), markdown, left=3)


# --------------------------------------------------------------------------- easyAI


def easyai_game() -> Optional[type]:
    """easyAI's ``ConnectFour`` example, subclassed only to count nodes; None if easyAI is missing."""
    try:
        from easyAI.games.ConnectFour import ConnectFour
    except ImportError:
        return None

    class CountingConnectFour(ConnectFour):  # type: ignore[misc, valid-type]
        """easyAI's ConnectFour; ``make_move`` also counts the nodes it creates."""

        nodes = 0

        def make_move(self, column: int) -> None:
            CountingConnectFour.nodes += 1
            super().make_move(column)

    return CountingConnectFour


def easyai_position(game_class: type, pos: Position) -> Any:
    """easyAI's board for our position, checked cell by cell.

    easyAI: columns 0..6 (our actions), ``board[0]`` is the *bottom* row,
    player 1 (our ``x``, cell value 1) starts; ours: ``board()`` row 0 is the top.
    """
    from easyAI import AI_Player, Negamax

    players = [AI_Player(Negamax(1)), AI_Player(Negamax(1))]  # never asked: we call the AI directly
    game = game_class(players)
    for action in pos.moves:
        assert action in game.possible_moves()
        game.make_move(action)
        game.switch_player()
    assert np.array_equal(game.board[::-1], pos.board()), (pos.move_string(), game.board)
    assert game.current_player == 1 + pos.to_move and not game.is_over()
    return game


def time_easyai(game_class: type, pos: Position, depth: int) -> tuple[int, float]:
    """``(nodes, seconds)`` of one easyAI ``Negamax(depth)`` call on ``pos`` (root + every ``make_move``)."""
    from easyAI import Negamax

    game = easyai_position(game_class, pos)
    ai = Negamax(depth)
    game_class.nodes = 0
    start = time.perf_counter()
    ai(game)
    seconds = time.perf_counter() - start
    return 1 + game_class.nodes, seconds


# --------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    """Run every measurement and print the tables, the machine and the command line.

    Args:
        argv: command-line arguments without the program name (default: ``sys.argv[1:]``).

    Returns:
        The exit status, 0.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=DEPTH, default=8, help="our search depth, the headline (default 8)")
    parser.add_argument("--easyai-depth", type=DEPTH, default=6,
                        help="depth at which easyAI (and ours, for the ratio) runs on every position (default 6)")  # fmt: skip
    parser.add_argument("--easyai-deep", type=non_negative_int, default=len(POSITIONS),
                        help=f"also run easyAI at --depth on the first N positions (default all {len(POSITIONS)}; "
                        "0: none; about 3.5 minutes of pure Python at depth 8)")  # fmt: skip
    parser.add_argument("--node-depths", type=int_list(1, PLIES), default=(6, 8),
                        help="comma-separated depths of the node-count tables (default 6,8)")  # fmt: skip
    parser.add_argument("--repeats", type=positive_int, default=3, help="runs of our search per measurement, median kept (default 3)")
    parser.add_argument("--fixed-calls", type=positive_int, default=2000, help="calls per fixed-cost run (default 2000)")
    parser.add_argument("--fixed-cost-only", action="store_true", help="print only the fixed cost per call (seconds)")
    parser.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    args = parser.parse_args(argv)
    node_depths = args.node_depths
    if args.fixed_cost_only:
        print_fixed_costs(args.fixed_calls, args.markdown)
        print_machine_and_command(argv)
        return 0

    positions = {moves: CONNECT4.position(moves) for moves in POSITIONS}
    evaluators = {h: Evaluator(h, CONNECT4) for h in HEURISTICS}
    start = time.perf_counter()
    for evaluator in evaluators.values():  # compile or load the kernels outside the measurements
        search(CONNECT4.position(), evaluator, depth=2)
        _search(CONNECT4.position(), evaluator, depth=2, bitboards=False)
        minimax(CONNECT4.position(), evaluator, 2)
    warmup = time.perf_counter() - start
    check_no_forced_win(positions)

    # 1. ours, at the easyAI depth and at the headline depth
    time_depths = sorted({args.easyai_depth, args.depth})
    ours = {(h, d, m): time_ours(pos, ev, d, args.repeats) for h, ev in evaluators.items()
            for d in time_depths for m, pos in positions.items()}  # fmt: skip
    array = {(h, d, m): time_ours(pos, ev, d, args.repeats, bitboards=False) for h, ev in evaluators.items()
             for d in time_depths for m, pos in positions.items()}  # fmt: skip

    # 2. easyAI
    game_class = easyai_game()
    easy: dict[tuple[int, str], tuple[int, float]] = {}
    if game_class is not None:
        plan = [(args.easyai_depth, m) for m in POSITIONS]
        plan += [(args.depth, m) for m in POSITIONS[: args.easyai_deep] if args.depth != args.easyai_depth]
        for d, m in plan:
            easy[d, m] = time_easyai(game_class, positions[m], d)
            print(f"  easyAI depth {d} on {label(m)}: {easy[d, m][1]:.1f} s", file=sys.stderr, flush=True)

    print(f"Search speed: Connect-4 6x7, positions {POSITIONS_VERSION}, time to reach the depth "
          f"(ours: median of {args.repeats}; easyAI: one run)\n")  # fmt: skip
    header = ("position", "plies", "depth", "engine", "nodes", "time ms", "nodes/s", "easyAI time / this")
    rows = []
    for d in time_depths:
        for m in POSITIONS:
            base = easy.get((d, m))
            engines = [(f"ours, {h}", *ours[h, d, m]) for h in HEURISTICS]
            engines += [(f"ours, {h}, array kernel", *array[h, d, m]) for h in HEURISTICS]
            if base is not None:
                engines.append(("easyAI Negamax", *base))
            for what, nodes, seconds in engines:
                ratio = f"{base[1] / seconds:,.1f}x" if base is not None else "n/a"
                rows.append((label(m), str(len(m)), str(d), what, f"{nodes:,}", f"{seconds * 1e3:,.1f}",
                             f"{nodes / seconds:,.0f}", ratio))  # fmt: skip
    print_table(header, rows, args.markdown, left=4)

    if game_class is None:
        print('\neasyAI baseline skipped: easyAI is not installed (pip install -e ".[bench]").')
    else:
        print("\nGeometric means over the positions easyAI searched, at equal depth on equal positions:\n")
        header = ("ours", "depth", "positions", "easyAI time / ours", "ours nodes/s / easyAI nodes/s", "target >= 1000x")
        rows = []
        for kernel, timings in (("", ours), (", array kernel", array)):
            for h in HEURISTICS:
                for d in time_depths:
                    measured = [m for m in POSITIONS if (d, m) in easy]
                    if not measured:
                        continue
                    t = geomean([easy[d, m][1] / timings[h, d, m][1] for m in measured])
                    r = geomean([(timings[h, d, m][0] / timings[h, d, m][1]) / (easy[d, m][0] / easy[d, m][1])
                                 for m in measured])  # fmt: skip
                    rows.append((h + kernel, str(d), str(len(measured)), f"{t:,.1f}x", f"{r:,.1f}x",
                                 "met" if t >= 1000 else "not met"))  # fmt: skip
        print_table(header, rows, args.markdown)
        print("\neasyAI scores leaves with its ConnectFour example's own function (-100 if the side to move has "
              "lost, else 0),\nnot with our heuristics, so the trees differ: this compares search machinery speed "
              "at equal depth,\nnot playing strength.  Ours is iterative deepening 1..depth with move ordering and "
              "a table (all\niterations counted); easyAI's Negamax is one fixed-depth alpha-beta without a table "
              "(its defaults).\neasyAI nodes: the root plus one per make_move.")  # fmt: skip

    # 3. node counts
    for d in node_depths:
        mm = {m: minimax(pos, evaluators[HEURISTICS[0]], d)[1] for m, pos in positions.items()}
        for h, ev in evaluators.items():
            counts, seconds = node_counts(positions, ev, d, mm)
            print(f"\nNodes at depth {d}, {h} (alpha-beta columns: search(), bitboard kernel, all iterations 1..{d} "
                  "counted):\n")  # fmt: skip
            header = ("position", "minimax", *(name for name, _ in NODE_CONFIGS))
            rows = [(label(m), *(f"{n:,}" for n in counts[m])) for m in POSITIONS]
            totals = [sum(counts[m][c] for m in POSITIONS) for c in range(len(NODE_CONFIGS) + 1)]
            rows.append(("total", *(f"{n:,}" for n in totals)))
            rows.append(("vs minimax", *(f"{100 * n / totals[0]:.3g}%" for n in totals)))
            rows.append(("total time s", "", *(f"{s:.3f}" for s in seconds)))
            print_table(header, rows, args.markdown)
    print("\nPlain minimax counts every node to the depth (wins end a line) and does not depend on the heuristic.")
    print_fixed_costs(args.fixed_calls, args.markdown)

    try:
        easyai_version = version("easyAI")
    except PackageNotFoundError:
        easyai_version = "not installed"
    print(f"\nJIT warm-up (compile or cache load, excluded above): {warmup:.2f} s")
    print_machine_and_command(argv, f", easyAI {easyai_version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
