"""A gomoku match between two agent specs from balanced openings, each played with both colours, with Elo and its interval.

Openings: ``--stones`` stones placed at random within 3 cells of the centre
(alternately by the first and the second player), kept only if neither side
has a VCF (:func:`search.gomoku.threats.find_vcf`, the side not to move checked
after a pass-like stone in a far corner) and a shallow search
(``--check-depth`` plies, the ``windows`` evaluator) proves nothing (stones
that already complete a line are drawn again); of three such candidates per
opening wanted, the ones whose shallow score is nearest 0 are kept (the most
balanced), distinct up to the board's symmetries.  Each opening is played twice, the agents swapping colours, under
the Bologna tournament's rules of play (:func:`tuning.tournament.
play_timed_game`: a move over ``--time-ms`` or an illegal move forfeits;
agents untimed on their warm-up positions first; an alpha-beta spec without
a budget searches for 90% of the limit).  The report: the first spec's
score, wins/draws/losses, Elo with a 95% interval from the game pairs
(pentanomial, :func:`tuning.stats.pentanomial`), the slowest move of each
side and the forfeits, per board and in total; ``--out`` writes
``<out>.md`` and ``<out>.json`` atomically after every game.

Before the first game the specs are built on every board, the openings of
every board are drawn (too few: a usage error saying why, exit 2) and both
``--out`` files are checked.  Ctrl-C ends the match with one line and exit
code 130; the game in progress is dropped, never scored, so the files hold
exactly the finished games (``Partial: N of M games so far``).

Run it from the repository root::

    python -m scripts.gomoku_match alphabeta "alphabeta:heuristic=mics,radius=2,time_ms=850,solve_ms=400,branching=6" \\
        --boards 15,15,5 15,15,5x 20,20,5 --openings 8 --out runs/gomoku-match

A board ``M,N,K`` is freestyle (five or more wins); ``M,N,Kx`` is exact-k (an overline does not win).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

import numba
import numpy as np

from games import MNK, Action, Position
from heuristics import Evaluator
from scripts._args import (
    int_range,
    non_negative_int,
    positive_float,
    positive_int,
    report_outputs,
    run_interruptible,
    writable_file,
)
from scripts._files import write_text_atomic
from search.agents import AgentSpecError, AgentType, make_agent
from search.agents.openings import canonical_key
from search.agents.warmup import warm_up
from search.alphabeta.engine import search
from search.gomoku.threats import find_vcf
from search.protocol import is_win_score
from tuning.stats import pentanomial
from tuning.tournament import BUDGET_SHARE, GameRecord, budgeted, play_timed_game

BASELINE = "alphabeta:heuristic=mics,radius=2,time_ms=850,solve_ms=400,branching=6"
"""The README's recommended m,n,k agent: the usual second spec."""
CANDIDATES_PER_OPENING = 3
"""Undecided openings drawn per opening kept (the most balanced third is kept)."""
SPREAD = 3
"""Opening stones are placed within this many cells of the centre."""
DRAWS_PER_OPENING = 600
"""Random draws of stones made at most per opening wanted, before the match gives up with an error."""


@dataclass(frozen=True)
class Board:
    """A board of the match: rows, cols, k and the rule."""

    rows: int
    cols: int
    k: int
    exact_k: bool

    @property
    def name(self) -> str:
        """``M,N,K`` or ``M,N,Kx`` (exact-k)."""
        return f"{self.rows},{self.cols},{self.k}{'x' if self.exact_k else ''}"

    def game(self) -> MNK:
        """The game."""
        return MNK(self.rows, self.cols, self.k, exact_k=self.exact_k)


def board_type(text: str) -> Board:
    """An argparse type: ``M,N,K`` (freestyle) or ``M,N,Kx`` (exact-k), a free board with ``K >= 4``."""
    body = text.strip()
    exact = body.endswith("x")
    parts = body.rstrip("x").split(",")
    if len(parts) != 3 or not all(p.isdecimal() for p in parts):
        raise argparse.ArgumentTypeError(f"{text!r} is not M,N,K or M,N,Kx (rows, columns, k; x: exact-k), e.g. 15,15,5")
    rows, cols, k = (int(p) for p in parts)
    if k < 4:
        raise argparse.ArgumentTypeError(f"{text!r}: gomoku openings need k >= 4 (threats); got k={k}")
    try:
        MNK(rows, cols, k, exact_k=exact)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{text!r} is not a playable board: {error}") from None
    if min(rows, cols) < 2 * SPREAD + 1:
        raise argparse.ArgumentTypeError(f"{text!r}: openings need a board of at least {2 * SPREAD + 1} rows and columns")
    return Board(rows, cols, k, exact)


def _has_vcf_either_side(position: Position) -> bool:
    """True if the side to move has a VCF, or the other side would have one if the side to move passed."""
    if find_vcf(position, nodes=20_000).win:
        return True
    game = position.game

    def from_centre(cell: Action) -> float:
        row, col = divmod(cell, game.cols)
        return (row - (game.rows - 1) / 2) ** 2 + (col - (game.cols - 1) / 2) ** 2

    passed = position.copy()
    # a stone far from the fight stands in for a pass: the first free corner, else the free cell farthest out
    passed.play(max(passed.legal_moves(), key=from_centre))
    return not passed.is_terminal() and find_vcf(passed, nodes=20_000).win


def make_openings(board: Board, count: int, stones: int, seed: int, check_depth: int) -> list[tuple[Action, ...]]:
    """``count`` balanced openings of ``stones`` stones (module docstring), seeded.

    At most :data:`DRAWS_PER_OPENING` random draws per opening wanted are made; a draw whose stones already
    complete a line (on a small board with many stones, most do) is dropped, as is one with a forced win.

    Raises:
        ValueError: fewer than ``count`` balanced openings within the draws (why the draws were dropped is said).
    """
    game = board.game()
    rng = np.random.default_rng(seed)
    evaluator = Evaluator("windows", game)
    seen: set[bytes] = set()
    scored: list[tuple[float, tuple[Action, ...]]] = []
    dropped = {"over": 0, "repeated": 0, "forced": 0}
    for _ in range(count * DRAWS_PER_OPENING):
        if len(scored) == count * CANDIDATES_PER_OPENING:
            break
        position = _random_stones(game, stones, rng)
        if position is None:
            dropped["over"] += 1
            continue
        key = canonical_key(position)
        if key in seen:
            dropped["repeated"] += 1
            continue
        seen.add(key)
        if _has_vcf_either_side(position):
            dropped["forced"] += 1
            continue
        score = search(position, evaluator, depth=check_depth, radius=2).score if check_depth else 0.0
        if is_win_score(score):
            dropped["forced"] += 1
            continue
        scored.append((abs(float(score)), tuple(position.moves)))
    if len(scored) < count:
        why = (f"of {count * DRAWS_PER_OPENING} random draws {dropped['over']} already completed a line, "
               f"{dropped['repeated']} repeated another and {dropped['forced']} had a forced win")  # fmt: skip
        raise ValueError(f"found only {len(scored)} balanced {stones}-stone openings of {board.name}; asked for {count} "
                         f"({why}): try fewer --stones or a larger board")  # fmt: skip
    scored.sort(key=lambda item: item[0])  # stable: ties keep the seeded order
    return [moves for _, moves in scored[:count]]


def _random_stones(game: MNK, stones: int, rng: np.random.Generator) -> Optional[Position]:
    """``stones`` stones placed at random within :data:`SPREAD` cells of the centre, alternately by each side;
    None if they complete a line (the game would be over before it starts)."""
    position = game.position()
    while position.ply < stones:
        cell = (game.rows // 2 + int(rng.integers(-SPREAD, SPREAD + 1))) * game.cols + game.cols // 2 + int(
            rng.integers(-SPREAD, SPREAD + 1))  # fmt: skip
        if position.is_legal(cell):
            position.play(cell)
            if position.is_terminal():
                return None
    return position


@dataclass
class BoardResult:
    """The games of one board: pairs of games on the same opening, first spec's points per game."""

    board: Board
    openings: list[tuple[Action, ...]]
    records: list[GameRecord] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    """Spec A's score in each game (1 win, 0.5 draw, 0 loss), in play order."""
    slowest: dict[str, float] = field(default_factory=lambda: {"A": 0.0, "B": 0.0})


def _score_of_a(record: GameRecord, a_first: bool) -> float:
    if record.winner is None:
        return 0.5
    return 1.0 if (record.winner == 0) == a_first else 0.0


def _agent(spec: str, board: Board, limit_ms: float) -> AgentType:
    game = board.game()
    agent = make_agent(budgeted(spec, limit_ms * BUDGET_SHARE), game, seed=0)
    warm_up(agent, game)
    return agent


def play_board(board: Board, openings: list[tuple[Action, ...]], specs: tuple[str, str], args: argparse.Namespace,
               done: Any) -> BoardResult:  # fmt: skip
    """Every opening twice, colours swapped; ``done(result, pair_finished)`` after each game.

    A game interrupted (Ctrl-C: a KeyboardInterrupt from the agent's search) is not recorded: the exception
    leaves with the games finished before it in ``result``, as the last ``done`` saw them.
    """
    result = BoardResult(board, openings)
    agents = {"A": _agent(specs[0], board, args.time_ms), "B": _agent(specs[1], board, args.time_ms)}
    game = board.game()
    for number, opening in enumerate(openings):
        for a_first in (True, False):
            order = ("A", "B") if a_first else ("B", "A")
            for side, name in enumerate(order):
                agents[name].reset()
                agents[name].seed(args.seed * 1000 + number * 2 + side)
            record = play_timed_game(game, agents[order[0]], agents[order[1]], args.time_ms / 1000, order,
                                     max_plies=args.max_plies, start=opening)  # fmt: skip
            result.records.append(record)
            result.scores.append(_score_of_a(record, a_first))
            for side, name in enumerate(order):
                result.slowest[name] = max(result.slowest[name], record.slowest[side])
            done(result, not a_first)
    return result


def _pairs(scores: Sequence[float]) -> list[int]:
    """Pentanomial counts of consecutive game pairs (the same opening, colours swapped)."""
    counts = [0] * 5
    for i in range(0, len(scores) - 1, 2):
        counts[round((scores[i] + scores[i + 1]) * 2)] += 1
    return counts


def _summary(scores: Sequence[float]) -> str:
    wins, draws = sum(s == 1.0 for s in scores), sum(s == 0.5 for s in scores)
    estimate = pentanomial(_pairs(scores))
    return (f"{sum(scores):g}/{len(scores)} = {sum(scores) / max(1, len(scores)):.1%} (+{wins} ={draws} "
            f"-{len(scores) - wins - draws}); {estimate.describe()}")  # fmt: skip


def markdown(results: Sequence[BoardResult], specs: tuple[str, str], args: argparse.Namespace, seconds: float) -> str:
    """The report: legend, one row per board, the total, forfeits, machine and command."""
    lines = ["# Gomoku match from balanced openings", "", f"- A: `{specs[0]}`", f"- B: `{specs[1]}`", "",
             f"{args.openings} openings of {args.stones} stones per board, each played twice with colours swapped; "
             f"{args.time_ms:g} ms per move (a move over it forfeits); score is A's (win 1, draw 1/2); Elo of A over B "
             "with its 95% interval from game pairs." + (f" Games open after {args.max_plies} plies are drawn by "
             "adjudication." if args.max_plies else ""), "",
             "| board | games | A's score, +wins =draws -losses; Elo | A slowest ms | B slowest ms | forfeits |",
             "|---|---:|---|---:|---:|---:|"]  # fmt: skip
    for r in results:
        forfeits = sum(g.reason in ("time", "illegal", "error") for g in r.records)
        lines.append(f"| {r.board.name} | {len(r.scores)} | {_summary(r.scores)} | {r.slowest['A'] * 1000:.0f} | "
                     f"{r.slowest['B'] * 1000:.0f} | {forfeits} |")  # fmt: skip
    everything = [s for r in results for s in r.scores]
    if len(results) > 1:
        lines.append(f"| **all** | {len(everything)} | {_summary(everything)} | | | |")
    details = [f"- {r.board.name}: {g.reason} ({g.detail})" for r in results for g in r.records
               if g.reason in ("time", "illegal", "error")]  # fmt: skip
    if details:
        lines += ["", "Forfeits:", *details]
    lines += ["", f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, numba "
              f"{numba.__version__}; load average {os.getloadavg()[0]:.2f} at the end; {seconds:.0f} s in all.",
              f"Command: `{shlex.join(['python', '-m', 'scripts.gomoku_match', *args.argv])}`"]  # fmt: skip
    return "\n".join(lines) + "\n"


def as_json(results: Sequence[BoardResult], specs: tuple[str, str], args: argparse.Namespace) -> dict[str, Any]:
    """Everything played: openings, games (moves as cell actions, row * N + column), scores and estimates."""
    out: dict[str, Any] = {"A": specs[0], "B": specs[1], "time_ms": args.time_ms, "seed": args.seed,
                           "openings": args.openings, "stones": args.stones, "boards": []}  # fmt: skip
    for r in results:
        estimate = pentanomial(_pairs(r.scores))
        out["boards"].append({
            "board": r.board.name, "openings": [list(o) for o in r.openings], "scores": r.scores,
            "score": sum(r.scores) / max(1, len(r.scores)), "elo": estimate.elo, "elo_low": estimate.elo_low,
            "elo_high": estimate.elo_high, "slowest_ms": {k: round(v * 1000, 3) for k, v in r.slowest.items()},
            "games": [{"first": g.first, "second": g.second, "winner": g.winner, "reason": g.reason, "detail": g.detail,
                       "moves": list(g.moves), "slowest_ms": [round(s * 1000, 3) for s in g.slowest]} for g in r.records],
        })  # fmt: skip
    return out


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scripts.gomoku_match", description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="agent spec A (the one scored)")
    parser.add_argument("b", nargs="?", default=BASELINE, help=f"agent spec B (default {BASELINE!r})")
    parser.add_argument("--boards", nargs="+", type=board_type, default=[board_type("15,15,5")],
                        help="boards M,N,K (freestyle) or M,N,Kx (exact-k) (default 15,15,5)")  # fmt: skip
    parser.add_argument("--openings", type=int_range(1, 100_000), default=8, help="openings per board (default 8)")
    parser.add_argument("--stones", type=int_range(1, 20), default=3, help="stones in an opening (default 3)")
    parser.add_argument("--check-depth", type=int_range(0, 6), default=2,
                        help="plies of the search that scores an opening (default 2; 0: no score)")  # fmt: skip
    parser.add_argument("--time-ms", type=positive_float, default=1000.0, help="time limit per move in ms (default 1000)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seeds the openings and the agents (default 0)")
    parser.add_argument("--max-plies", type=positive_int, help="adjudicate games open after this many plies as draws")
    parser.add_argument("--out", type=writable_file, help="write <out>.md and <out>.json (a .md or .json suffix is dropped)")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Play the match; 0 on success, 2 on bad arguments, 130 on Ctrl-C (``--out`` keeps the games finished)."""
    return run_interruptible("scripts.gomoku_match", _main, argv)


def _all_openings(parser: argparse.ArgumentParser, boards: Sequence[Board],
                  args: argparse.Namespace) -> dict[Board, list[tuple[Action, ...]]]:  # fmt: skip
    """The openings of every board; too few on one is a usage error naming the board (exit 2)."""
    try:
        return {board: make_openings(board, args.openings, args.stones, args.seed, args.check_depth) for board in boards}
    except ValueError as error:
        parser.error(str(error))


def _main(argv: Optional[Sequence[str]]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    specs = (args.a, args.b)
    boards = list(dict.fromkeys(args.boards))
    for board in boards:  # every board the match will play: a spec one of them refuses ends here, not mid-match
        for spec in specs:
            try:
                make_agent(budgeted(spec, args.time_ms * BUDGET_SHARE), board.game())
            except (AgentSpecError, ValueError) as error:
                parser.error(f"agent spec {spec!r} on {board.name}: {error}")
    outputs = report_outputs(parser, args.out)
    started = time.perf_counter()
    results: list[BoardResult] = []
    openings = _all_openings(parser, boards, args)  # before any game: too few of them is a usage error

    def write(current: BoardResult, pair_finished: bool) -> None:
        shown = [*results, current] if current not in results else results
        if outputs is not None:
            report = markdown(shown, specs, args, time.perf_counter() - started)
            planned = len(boards) * args.openings * 2
            played = sum(len(r.scores) for r in shown)
            if played < planned:
                report = report.replace("\n", f"\n\nPartial: {played} of {planned} games so far.\n", 1)
            write_text_atomic(outputs[1], json.dumps(as_json(shown, specs, args), indent=1) + "\n")
            write_text_atomic(outputs[0], report)
        if pair_finished:
            print(f"{current.board.name}: {len(current.scores)} games, A {_summary(current.scores)}", file=sys.stderr, flush=True)

    for board in boards:
        results.append(play_board(board, openings[board], specs, args, write))
    report = markdown(results, specs, args, time.perf_counter() - started)
    if outputs is not None:  # the file ends as the report printed (its last progress write had an earlier time)
        write_text_atomic(outputs[0], report)
    print(report, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
