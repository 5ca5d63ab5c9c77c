"""Exact solver for Connect-4 positions and small m,n,k games, its Python API and ``python -m search.solve``.

Scores follow the standard Connect-4 benchmark sets (Pascal Pons): 0 for a
draw; ``(rows * cols + 1 - n) // 2`` if the side to move can force a win,
where ``n`` is the number of stones on the board just before it plays its
winning stone (faster wins score higher); the negative if the opponent can.
m,n,k games use the same formula.  The weak mode answers only the sign
(1 win, 0 draw, -1 loss), faster.  How the search works: :mod:`search._solver`.

Which games: Connect-4 of any size whose bitboard fits 64 bits,
``(rows + 1) * cols <= 64`` (6x7 and 7x8 included), and m,n,k boards with
``(rows + 1) * cols <= 32`` (up to 5x5: the table key holds both players'
stones in one word).  Whether a solve *finishes* is another matter: Connect-4 6x7
takes milliseconds from about 14 stones on, and can take many minutes from
the empty board; m,n,k up to about 20 cells is quick (5,4,4 in seconds).

Example:
    >>> from games import CONNECT4, TIC_TAC_TOE
    >>> solve(CONNECT4.position("2252576253462244111563365343671351441")).score
    -1
    >>> solve(TIC_TAC_TOE.position(), moves=True).best_moves    # every opening draws
    (0, 1, 2, 3, 4, 5, 6, 7, 8)

The command line reads Connect-4 positions from stdin, one per line::

    python -m search.solve < tests/data/connect4/Test_L3_R1     # <moves> <score> <nodes> <microseconds>
    python -m search.solve --weak --game connect4 --rows 5 --cols 6 < positions.txt
    python -m search.solve --game mnk --rows 4 --cols 4 --k 4    # the empty board (or give moves)
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
import time
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Optional, Sequence, TextIO, Union

import numpy as np

from games import Action, KInARow, Position, _bits
from games.checks import check_optional_int, check_seed
from games.cli import add_game_arguments, game_from_args
from games.errors import GameError
from games.position import STONE_SYMBOLS
from search import _solver as ks
from search._perfect import ENV_TIME_MS as ENV_TIME_MS  # re-exported: the envs' default budget
from search._perfect import BudgetedResult, budgeted_move, warm_up
from search.errors import BudgetError, SearchError, UnsolvableGameError
from search.tt import allocate, check_table_size

DEFAULT_TT_SIZE = 1 << 22
"""Transposition-table slots by default (8 bytes each: 32 MB)."""
MIN_TT_SIZE, MAX_TT_SIZE = 1 << 9, 1 << 34
"""Allowed table sizes: a slot keeps at least one bit for the generation stamp."""
_SLOT_BYTES = 8  # a slot is one uint64 (see search._solver._tt_value)


def solvable(game: KInARow) -> Optional[str]:
    """None if the solver handles ``game``; otherwise the reason, for error messages."""
    bits = (game.rows + 1) * game.cols
    if game.gravity and bits > 64:
        return f"{game} does not fit the solver's 64-bit board: it needs (rows + 1) * cols <= 64, here {bits}"
    if not game.gravity and 2 * bits > 64:
        # The table key holds both players' stones in one word; such boards are far beyond reach anyway.
        return f"the solver handles m,n,k boards with (rows + 1) * cols <= 32; {game} has {bits}"
    return None


@dataclass(frozen=True)
class SolveResult:
    """The exact value of a position and what it cost."""

    score: int
    """From the side to move, in the benchmark convention (module docstring); weak mode: -1, 0 or 1."""
    nodes: int
    """Positions explored (Pons' count: one per negamax node), over every search this result needed."""
    seconds: float
    """Time in the search kernel (as the reference solver times its ``solve``; Python-side set-up excluded)."""
    weak: bool
    move_scores: Mapping[Action, int] = field(default_factory=dict)
    """With ``moves=True``: the score of every legal move, from the side to move (winning now included)."""
    best_moves: tuple[Action, ...] = ()
    """With ``moves=True``: the legal moves of the best score, in increasing order."""


def _columns_centre_first(cols: int) -> list[int]:
    """Connect-4 move order: the centre column, then alternately left and right (3, 2, 4, 1, 5, 0, 6).

    With an even width the right-hand centre column comes first (3, 2, 4, 1, 5, 0).
    """
    return [cols // 2 + (1 - 2 * (rank % 2)) * ((rank + 1) // 2) for rank in range(cols)]


def _cells_centre_first(rows: int, cols: int) -> list[int]:
    """m,n,k move order: the cells' bit indices (layout of :mod:`games._bits`) by distance from the centre."""
    centre_r, centre_c = (rows - 1) / 2, (cols - 1) / 2
    cells = sorted(((r - centre_r) ** 2 + (c - centre_c) ** 2, c, r) for r in range(rows) for c in range(cols))
    return [c * (rows + 1) + r for _, c, r in cells]


class Solver:
    """An exact solver for one game, with its transposition table (kept between calls until :meth:`reset`).

    Table entries are bounds on exact scores, true whatever position they were
    found from, so keeping them across positions of one game only saves work;
    node counts then depend on what was solved before (:func:`solve` resets).

    Args:
        game: a Connect-4 or m,n,k game with ``(rows + 1) * cols <= 64``.
        tt_size: table slots, rounded up to a power of two (8 bytes a slot),
            from ``MIN_TT_SIZE`` to ``MAX_TT_SIZE`` and what fits in memory.

    Raises:
        UnsolvableGameError: the game does not fit.
        TableSizeError: a bad ``tt_size``, or a table too large for this
            machine's memory (the message gives the bytes asked for).
    """

    def __init__(self, game: KInARow, tt_size: int = DEFAULT_TT_SIZE) -> None:
        reason = solvable(game)
        if reason:
            raise UnsolvableGameError(reason)
        slots = check_table_size("tt_size", tt_size, _SLOT_BYTES, low=MIN_TT_SIZE, high=MAX_TT_SIZE)
        self.game = game
        self._tt_bits = (slots - 1).bit_length()
        self._tt = allocate("tt_size", slots, np.uint64)
        self._stamp = 1
        rows, cols = game.rows, game.cols
        self._board = np.uint64(_bits._board_mask(rows, cols))  # numba hands scalars back as Python ints
        self._bottom = np.uint64(_bits._bottom_mask(rows, cols))
        self._rules = game.rules
        order = _columns_centre_first(cols) if game.gravity else _cells_centre_first(rows, cols)
        self._order = np.array(order, dtype=np.int64)
        # The search's stack, a row per ply: move lists and windows; bitboards (see _solver._negamax).
        self._work = np.zeros((game.n_cells + 2, 2 * len(order) + 4), dtype=np.int64)
        self._nodes_stack = np.zeros((game.n_cells + 2, 5), dtype=np.uint64)
        self._nodes, self._seconds = 0, 0.0

    @property
    def tt_size(self) -> int:
        """Number of table slots."""
        return int(self._tt.size)

    def reset(self) -> None:
        """Empty the transposition table: O(1), by moving to the next generation stamp (a real clear every few thousand)."""
        self._stamp += 1
        if self._stamp >= 1 << (self._tt_bits - 8):
            self._tt[:] = 0
            self._stamp = 1

    def _score(self, position: Position, weak: bool, node_limit: int = 0, deadline: float = 0.0) -> Optional[int]:
        """Run the kernel on a position that is not over; nodes accumulate in ``self._nodes``.

        ``node_limit`` (nodes, 0 for none) and ``deadline`` (a ``time.perf_counter()``
        value, 0 for none) stop the search early: then the result is None.
        """
        game = self.game
        limited = node_limit > 0 or deadline > 0
        self._work[-1, :4] = 0
        if limited:
            self._work[-1, ks.B_LIMIT] = node_limit if node_limit > 0 else 1 << 62
            self._work[-1, ks.B_DEADLINE] = int(deadline * 1e9) if deadline > 0 else 0
        current, mask = map(np.uint64, _bits._from_board(position._board, game.rows, game.cols, position.ply))
        started = time.perf_counter()
        # Positional on purpose: end-game solves take a few microseconds, and numba folds keyword
        # arguments in Python (about 2 us a call, measured): (current, mask, ply, weak, rules, board,
        # bottom, order, tt, tt_bits, stamp, work, nodes), as search._solver._solve names them.
        score = ks._solve(current, mask, position.ply, weak, self._rules, self._board, self._bottom, self._order,
                          self._tt, self._tt_bits, self._stamp, self._work, self._nodes_stack)  # fmt: skip
        self._seconds += time.perf_counter() - started
        self._nodes += int(self._work[-1, 0])
        if limited and self._work[-1, ks.B_STOPPED]:
            return None
        return int(np.sign(score)) if weak else int(score)

    def solve(self, position: Position, weak: bool = False, moves: bool = False) -> SolveResult:
        """The exact score of ``position`` (left unchanged) for the side to move.

        Args:
            position: a position of this solver's game that is not over.
            weak: only the sign (win 1, draw 0, loss -1): faster.
            moves: also score every legal move (one solve per move) and fill
                ``move_scores`` and ``best_moves``.

        Raises:
            ValueError: another game's position, or a position that is over.
        """
        if position.game != self.game:
            raise SearchError(f"this solver is for {self.game}; got a position of {position.game}")
        if position.is_terminal():
            over = position.outcome()
            raise SearchError(f"position {position.move_string()!r} of {self.game} is over ({over}): nothing to solve")
        self._nodes, self._seconds = 0, 0.0
        if not moves:
            score = self._score(position, weak)
            assert score is not None  # no budget: the search always finishes
            return SolveResult(score, self._nodes, self._seconds, weak)
        child = position.copy()
        scores: dict[Action, int] = {}
        win_now = 1 if weak else (self.game.n_cells + 1 - position.ply) // 2
        for move in position.legal_moves():
            child.play(move)
            if child.winner is not None:
                scores[move] = win_now
            else:
                value = 0 if child.is_terminal() else self._score(child, weak)
                assert value is not None  # no budget: the search always finishes
                scores[move] = -value
            child.undo()
        best = max(scores.values())
        return SolveResult(best, self._nodes, self._seconds, weak, scores,
                           tuple(m for m, s in scores.items() if s == best))  # fmt: skip


SOLVER_CACHE_SIZE = 2
"""Solvers :func:`solve` keeps (least recently used dropped first): each holds a 32 MB table, and a session
mostly solves one game, or alternates between two (say Connect-4 and tic-tac-toe)."""


@functools.lru_cache(maxsize=SOLVER_CACHE_SIZE)
def _solver(game: KInARow) -> Solver:
    """The solver :func:`solve` uses for ``game``."""
    return Solver(game)


def solve(position: Position, weak: bool = False, moves: bool = False) -> SolveResult:
    """Solve ``position`` exactly with a per-game :class:`Solver`, its table emptied first (reproducible nodes).

    See :meth:`Solver.solve` for the arguments; :class:`Solver` keeps its
    table between calls and lets you size it.
    """
    solver = _solver(position.game)
    solver.reset()
    return solver.solve(position, weak=weak, moves=moves)


class PerfectAgent:
    """Plays a move of the best exact score (random among equals, seeded): it never spoils a win or a draw.

    Strong mode (default) wins as fast as possible and loses as slowly as
    possible; weak mode only keeps the best outcome (faster, and still never
    loses a won or drawn position).  The transposition table is kept across
    a game's moves.  Without a budget, Connect-4 6x7 positions with few
    stones can take minutes; with ``time_ms`` or ``nodes`` every move comes
    within the budget, exact when the solver finishes in it and otherwise
    from the fallback of :mod:`search._perfect` (a proven win, then
    alpha-beta); :attr:`last_source` says which (``"solver"``,
    ``"solver-partial"``, ``"alphabeta"``).  The environments give a
    ``perfect`` opponent ``ENV_TIME_MS`` (100 ms) unless its spec sets a budget.

    Args:
        game: a game the solver handles (see :func:`solvable`).
        weak: choose among moves by outcome only.
        tt_size: transposition-table slots.
        seed: seeds the choice among equal moves.
        name: a label for match tables.
        time_ms: wall-time budget per move (None or ``inf``: none).
        nodes: node budget per move for the solver, and again for the fallback (None: none).

    Raises:
        ValueError: ``time_ms`` not a positive number, or ``nodes`` not a positive integer.
    """

    def __init__(self, game: KInARow, *, weak: bool = False, tt_size: int = DEFAULT_TT_SIZE,
                 seed: Optional[int] = None, name: Optional[str] = None, time_ms: Optional[float] = None,
                 nodes: Optional[int] = None) -> None:  # fmt: skip
        self.game = game
        self.weak = weak
        self.solver = Solver(game, tt_size)
        self.name = name or ("perfect-weak" if weak else "perfect")
        self.last_result: Optional[Union[SolveResult, BudgetedResult]] = None
        self.last_source: Optional[str] = None
        self._rng = np.random.default_rng(check_seed(seed))
        self.time_ms: Optional[float] = None
        self.nodes: Optional[int] = None
        self.set_budget(time_ms, nodes)

    def set_budget(self, time_ms: Optional[float], nodes: Optional[int]) -> None:
        """Use this budget from the next move on (None for both: exact, however long it takes).

        Raises:
            ValueError: ``time_ms`` not a positive number, or ``nodes`` not a positive integer.
        """
        if time_ms is not None and (isinstance(time_ms, bool) or not isinstance(time_ms, (int, float))
                                    or math.isnan(time_ms) or time_ms <= 0):  # fmt: skip
            raise BudgetError(f"time_ms={time_ms!r} must be a positive number of milliseconds (inf or None: no limit)")
        self.time_ms = None if time_ms is None or math.isinf(time_ms) else float(time_ms)
        self.nodes = check_optional_int("nodes", nodes, low=1)
        if self.time_ms is not None or self.nodes is not None:
            warm_up(self.solver)

    def select_move(self, position: Position) -> Action:
        """A move of the best exact score for the side to move, or within the budget (``position`` is left unchanged)."""
        if position.game != self.game:
            raise SearchError(f"agent {self.name!r} plays {self.game}; got a position of {position.game}")
        if self.time_ms is not None or self.nodes is not None:
            budgeted = budgeted_move(self.solver, position, self.weak, self._rng, self.time_ms, self.nodes)
            self.last_result, self.last_source = budgeted, budgeted.source
            return budgeted.move
        self.last_result = self.solver.solve(position, weak=self.weak, moves=True)
        self.last_source = "solver"
        choices = self.last_result.best_moves
        return choices[int(self._rng.integers(len(choices)))]

    def reset(self) -> None:
        """A new game: empty the transposition table."""
        self.solver.reset()

    def seed(self, seed: Optional[int]) -> None:
        """Reseed the choice among equal moves."""
        self._rng = np.random.default_rng(check_seed(seed))


# --------------------------------------------------------------------------- command line


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m search.solve",
        description="Solve positions exactly. Connect-4: one position a line on stdin (1-based column digits from "
        "the empty board, or column numbers separated by commas on boards wider than 9; a second field, such as "
        "an expected score, is ignored), one line out each: '<moves> <score> <nodes> <microseconds>' (nodes: "
        "positions explored; microseconds: the search alone). Blank lines are skipped; a malformed line is "
        "reported on stderr with its number and the exit code is 1. m,n,k: solve the empty board, or the moves "
        "given, and print the value.",
    )
    parser.add_argument("moves", nargs="*", help="solve this one position instead of reading stdin (connect4) "
                        "or instead of the empty board (mnk); m,n,k cells like 'b2 a1'")  # fmt: skip
    add_game_arguments(parser)
    parser.add_argument("--weak", action="store_true", help="score only win/draw/loss as 1/0/-1 (faster)")
    parser.add_argument("--tt-size", type=int, default=DEFAULT_TT_SIZE,
                        help=f"transposition-table slots, rounded up to a power of two (default {DEFAULT_TT_SIZE})")  # fmt: skip
    return parser


def _solve_line(solver: Solver, game: KInARow, moves: str, weak: bool) -> tuple[Optional[SolveResult], str]:
    """Solve one position given as a move string; ``(result, "")`` or ``(None, why it is malformed)``."""
    try:
        position = game.position(moves)
    except GameError as exc:
        return None, str(exc)
    if position.is_terminal():
        return None, f"the game is already over ({position.outcome()}) after {moves!r}: nothing to solve"
    solver.reset()  # each line from an empty table, as the reference solver does: node counts are comparable
    return solver.solve(position, weak=weak), ""


def _run_lines(solver: Solver, game: KInARow, lines: Iterable[str], weak: bool, out: TextIO, err: TextIO) -> int:
    """Solve every line; return the number of malformed lines (each reported on ``err`` with its number)."""
    bad = 0
    for number, line in enumerate(lines, 1):
        fields = line.split()
        if not fields:
            continue
        result, problem = _solve_line(solver, game, fields[0], weak)
        if result is None:
            bad += 1
            print(f"line {number}: {problem}", file=err, flush=True)
            continue
        print(f"{fields[0]} {result.score} {result.nodes} {round(result.seconds * 1e6)}", file=out, flush=True)
    return bad


def _verdict(position: Position, score: int) -> str:
    """The value of a position in words, naming the winner."""
    if score == 0:
        return "draw"
    winner = position.to_move if score > 0 else 1 - position.to_move
    return f"win for {STONE_SYMBOLS[winner + 1]} (the {'first' if winner == 0 else 'second'} player)"


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the solver command line; return the exit code (1 if any input line was malformed, 130 on Ctrl-C)."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C: a short note, not a traceback; 130 = 128 + SIGINT, as shells report it
        print("search.solve: interrupted", file=sys.stderr)
        return 130


def _main(argv: Optional[Sequence[str]]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        game = game_from_args(parser, args)
        solver = Solver(game, args.tt_size)
    except ValueError as exc:
        parser.error(str(exc))
    if game.gravity and not args.moves:
        return 1 if _run_lines(solver, game, sys.stdin, args.weak, sys.stdout, sys.stderr) else 0
    moves = " ".join(args.moves)
    result, problem = _solve_line(solver, game, moves, args.weak)
    if result is None:
        print(f"moves {moves!r}: {problem}", file=sys.stderr)
        return 1
    shown = game.format_moves(game.parse_moves(moves)).replace(" ", ",") or "-"
    print(f"{shown} {result.score} {result.nodes} {round(result.seconds * 1e6)}")
    where = f"after {moves!r}" if moves.strip() else "from the empty board"
    print(f"# {game}, {where}: {_verdict(game.position(moves), result.score)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
