"""Exact solver for Connect-4 positions and small m,n,k games, its Python API and ``python -m search.solve``.

Scores follow the standard Connect-4 benchmark sets (Pascal Pons): 0 for a
draw; ``(rows * cols + 1 - n) // 2`` if the side to move can force a win,
where ``n`` is the number of stones on the board just before it plays its
winning stone (faster wins score higher); the negative if the opponent can.
m,n,k games use the same formula.  The weak mode answers only the sign
(1 win, 0 draw, -1 loss), faster.  How the search works: :mod:`search.solve._kernels`.

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

Many positions at once: :meth:`Solver.solve_batch` solves them in one call
of the search kernel (the same scores and node counts as one
:meth:`Solver.solve` each, without a few microseconds of Python per
position).  A solve, single or batched, stops within a fraction of a second
of Ctrl-C with ``KeyboardInterrupt``.

The command line (:mod:`search.solve.cli`, run as ``python -m search.solve``) reads Connect-4 positions from stdin, one per line, and solves
what is available at once in one batch::

    python -m search.solve < tests/data/connect4/Test_L3_R1     # <moves> <score> <nodes> <microseconds>
    python -m search.solve --weak --game connect4 --rows 5 --cols 6 < positions.txt
    python -m search.solve --game mnk --rows 4 --cols 4 --k 4    # the empty board (or give moves)
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass, field
from typing import Callable, Mapping, Optional, Sequence, Union

import numpy as np

from games import Action, KInARow, Position, _bits
from games._direct import direct
from games.checks import check_optional_int, check_seed
from search.errors import BudgetError, SearchError, UnsolvableGameError
from search.solve import _kernels as ks
from search.solve._perfect import ENV_TIME_MS as ENV_TIME_MS  # re-exported: the envs' default budget
from search.solve._perfect import BudgetedResult, budgeted_move, optimal_move, warm_up
from search.solve.book import BookError, Connect4Book, installed_book, is_book_game, require_book
from search.tt import allocate, check_table_size

DEFAULT_TT_SIZE = 1 << 22
"""Transposition-table slots by default (8 bytes each: 32 MB)."""
MIN_TT_SIZE, MAX_TT_SIZE = 1 << 9, 1 << 34
"""Allowed table sizes: a slot keeps at least one bit for the generation stamp."""
_SLOT_BYTES = 8  # a slot is one uint64 (see search.solve._kernels._tt_value)


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

    Connect-4 6x7 with the opening book installed (:mod:`search.solve.book`,
    ``pip install "alphabeta-gym[book]"``): the search stops at 12 stones and
    takes the book's exact score, so every position solves in milliseconds,
    the empty board included; such a position counts one node.  Scores are
    the same with or without the book; node counts of positions of more than
    12 stones too (the search never comes back to 12 stones).

    Args:
        game: a Connect-4 or m,n,k game with ``(rows + 1) * cols <= 64``.
        tt_size: table slots, rounded up to a power of two (8 bytes a slot),
            from ``MIN_TT_SIZE`` to ``MAX_TT_SIZE`` and what fits in memory.
        book: the opening book: None (default) uses the installed one on
            Connect-4 6x7 and nothing elsewhere; False never; True requires
            the installed one; or a :class:`~search.solve.book.Connect4Book`.

    Raises:
        UnsolvableGameError: the game does not fit.
        TableSizeError: a bad ``tt_size``, or a table too large for this
            machine's memory (the message gives the bytes asked for).
        BookError: ``book`` asks for a book on another game, or for the
            installed one when it is missing or damaged.
    """

    def __init__(self, game: KInARow, tt_size: int = DEFAULT_TT_SIZE,
                 book: Union[bool, Connect4Book, None] = None) -> None:  # fmt: skip
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
        self._solve: Optional[Callable[..., int]] = None  # the search kernel's entry point (games._direct), once taken
        self.book = _choose_book(game, book)
        """The opening book this solver uses, or None."""
        source = self.book if self.book is not None else _NO_BOOK
        self._book_args = (source.keys, source.scores, source.index, source.at)

    def __getstate__(self) -> dict[str, object]:
        """Pickled without the kernel's entry point (compiled code; taken again at the first solve) nor the book's
        arrays (the book pickles as its file's name, :meth:`Connect4Book.__reduce__`)."""
        return {**self.__dict__, "_solve": None, "_book_args": None}

    def __setstate__(self, state: dict[str, object]) -> None:
        """Restore a pickled solver; its book arrays come from the (re)loaded book."""
        self.__dict__.update(state)
        source = self.book if self.book is not None else _NO_BOOK
        self._book_args = (source.keys, source.scores, source.index, source.at)

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
        self._work[-1, : ks.B_INTERRUPTED + 1] = 0
        if limited:
            self._work[-1, ks.B_LIMIT] = node_limit if node_limit > 0 else 1 << 62
            self._work[-1, ks.B_DEADLINE] = int(deadline * 1e9) if deadline > 0 else 0
        current, mask = map(np.uint64, _bits._from_board(position._board, game.rows, game.cols, position.ply))
        # Positional on purpose: end-game solves take a few microseconds, and numba folds keyword
        # arguments in Python (about 2 us a call, measured): (current, mask, ply, weak, rules, board,
        # bottom, order, tt, tt_bits, stamp, work, nodes, book_*), as search.solve._kernels._solve names them.
        args = (current, mask, position.ply, bool(weak), self._rules, self._board, self._bottom, self._order, self._tt,
                self._tt_bits, self._stamp, self._work, self._nodes_stack, *self._book_args)  # fmt: skip
        if self._solve is None:  # the same types every call: skip numba's dispatch (2 us of an end-game solve)
            self._solve = direct(ks._solve, *args)  # compiled or loaded here, before the clock
        started = time.perf_counter()
        score = self._solve(*args)
        self._seconds += time.perf_counter() - started
        self._nodes += int(self._work[-1, 0])
        if self._work[-1, ks.B_INTERRUPTED]:
            raise KeyboardInterrupt  # Ctrl-C during the search (the kernel consumed the signal; the table stays true)
        if limited and self._work[-1, ks.B_STOPPED]:
            return None
        return int(np.sign(score)) if weak else int(score)

    def _at_least(self, position: Position, value: int, node_limit: int = 0, deadline: float = 0.0) -> Optional[bool]:
        """Whether the exact score of ``position`` (not over) is at least ``value``: one null-window search.

        Budget as in :meth:`_score` (None when it runs out); nodes accumulate in ``self._nodes``.
        """
        self._work[-1, : ks.B_INTERRUPTED + 1] = 0
        if node_limit > 0 or deadline > 0:
            self._work[-1, ks.B_LIMIT] = node_limit if node_limit > 0 else 1 << 62
            self._work[-1, ks.B_DEADLINE] = int(deadline * 1e9) if deadline > 0 else 0
        current, mask = map(np.uint64, _bits._from_board(position._board, self.game.rows, self.game.cols, position.ply))
        started = time.perf_counter()
        found = ks._at_least(current, mask, position.ply, value, self._rules, self._board, self._bottom, self._order,
                             self._tt, self._tt_bits, self._stamp, self._work, self._nodes_stack, *self._book_args)  # fmt: skip
        self._seconds += time.perf_counter() - started
        self._nodes += int(self._work[-1, 0])
        if self._work[-1, ks.B_INTERRUPTED]:
            raise KeyboardInterrupt
        if self._work[-1, ks.B_STOPPED]:
            return None
        return bool(found)

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
        self._check(position)
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


    def solve_batch(self, positions: Sequence[Position], weak: bool = False, fresh: bool = True) -> BatchResult:
        """Solve many positions in one call of the search kernel: the same scores and nodes as :meth:`solve`, less overhead.

        Python's share of :meth:`solve` (checks, board conversion, the kernel
        call, the result) costs a few microseconds a position, more than the
        search of an easy end-game position; here the positions are checked
        and converted first, then one kernel call solves them all.

        Args:
            positions: positions of this solver's game, none over.
            weak: only the sign (win 1, draw 0, loss -1).
            fresh: each position from an empty table, as :meth:`reset` then
                :meth:`solve` (and the command line) do, so node counts match
                theirs; False shares the table, as successive :meth:`solve` calls do.

        Returns:
            A :class:`BatchResult`: one :class:`SolveResult` per position, in
            order (``seconds``: that position's search, from the CPU's cycle
            counter), and the whole kernel call's wall time.

        Raises:
            ValueError: a position of another game, or one that is over (nothing is solved then).
            KeyboardInterrupt: Ctrl-C during the call (within a fraction of a millisecond).
        """
        n = len(positions)
        currents, masks = np.zeros(n, dtype=np.uint64), np.zeros(n, dtype=np.uint64)
        plies = np.zeros(n, dtype=np.int64)
        rows, cols = self.game.rows, self.game.cols
        for i, position in enumerate(positions):
            self._check(position)
            currents[i], masks[i] = _bits._from_board(position._board, rows, cols, position.ply)
            plies[i] = position.ply
        out = np.zeros((n, 3), dtype=np.int64)
        self._work[-1, : ks.B_INTERRUPTED + 1] = 0
        started = time.perf_counter()
        done, self._stamp = ks._solve_batch(currents, masks, plies, weak, fresh, self._rules, self._board, self._bottom,
                                            self._order, self._tt, self._tt_bits, self._stamp, self._work,
                                            self._nodes_stack, *self._book_args, out)  # fmt: skip
        seconds = time.perf_counter() - started
        if self._work[-1, ks.B_INTERRUPTED]:
            raise KeyboardInterrupt
        assert done == n  # no budget: every position finishes
        rate = cycles_per_second()
        results = tuple(
            SolveResult(int(score), int(nodes), cycles / rate if rate > 0 else seconds / n, weak)
            for score, nodes, cycles in out.tolist()
        )  # fmt: skip
        return BatchResult(results, seconds)

    def _check(self, position: Position) -> None:
        """Refuse another game's position, or one that is over."""
        if position.game is not self.game and position.game != self.game:
            raise SearchError(f"this solver is for {self.game}; got a position of {position.game}")
        if position.is_terminal():
            over = position.outcome()
            raise SearchError(f"position {position.move_string()!r} of {self.game} is over ({over}): nothing to solve")


class _NoBook:
    """The kernels' book arguments when there is no book: no codes, and no stone count covered."""

    keys = np.zeros(1, dtype=np.uint32)
    scores = np.zeros(1, dtype=np.int8)
    index = np.zeros(2, dtype=np.int64)
    at = np.zeros(65, dtype=np.int8)  # a stone count per entry, up to the 64 cells of the largest board that fits


_NO_BOOK = _NoBook()


def _choose_book(game: KInARow, book: Union[bool, Connect4Book, None]) -> Optional[Connect4Book]:
    """The book a solver of ``game`` uses, given its ``book`` argument (see :class:`Solver`)."""
    if book is None:
        return installed_book() if is_book_game(game) else None
    if book is False:
        return None
    if not is_book_game(game):
        raise BookError(f"the opening book is for Connect-4 6x7; this solver is for {game}")
    if book is True:
        return require_book()
    if isinstance(book, Connect4Book):
        return book
    raise BookError(f"book={book!r}: expected None (the installed book if any), True, False or a Connect4Book")


@dataclass(frozen=True)
class BatchResult:
    """What :meth:`Solver.solve_batch` found."""

    results: tuple[SolveResult, ...]
    """One per position, in order; ``seconds`` is that position's search (the CPU's cycle counter)."""
    seconds: float
    """Wall time of the one kernel call (``time.perf_counter``), all positions and the table resets included."""


@functools.lru_cache(maxsize=None)
def cycles_per_second() -> float:
    """The rate of the CPU's cycle counter (:func:`search.solve._kernels._cycles`), measured once per process (20 ms).

    0.0 where the CPU has no counter LLVM can read (the batch then splits its wall time evenly).
    """
    first, started = ks._read_cycles(), time.perf_counter()
    while time.perf_counter() - started < 0.02:
        pass
    last, ended = ks._read_cycles(), time.perf_counter()
    return max(0.0, float(last - first) / (ended - started))


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
    a game's moves.

    With the opening book (Connect-4 6x7, :mod:`search.solve.book`) the agent
    is exact and fast from the first move: it solves the position (a lookup
    up to 6 stones and at 12, a small search elsewhere near the start), then
    proves one best move, drawn at random among the best
    (:func:`search.solve._perfect.optimal_move`); ``last_result`` then scores
    that move alone.  A whole perfect-vs-perfect game takes about a second.
    Without the book, Connect-4 6x7 positions with few
    stones can take minutes; with ``time_ms`` or ``nodes`` every move comes
    within the budget, exact when the solver finishes in it and otherwise
    from the fallback of :mod:`search.solve._perfect` (a proven win, then
    alpha-beta); :attr:`last_source` says which (``"solver"``,
    ``"solver-partial"``, ``"alphabeta"``).  The environments give a
    ``perfect`` opponent ``ENV_TIME_MS`` (100 ms) unless its spec sets a budget
    or it has the book (then none: it is exact at every move).

    Args:
        game: a game the solver handles (see :func:`solvable`).
        weak: choose among moves by outcome only.
        tt_size: transposition-table slots.
        seed: seeds the choice among equal moves.
        name: a label for match tables.
        time_ms: wall-time budget per move (None or ``inf``: none).
        nodes: node budget per move for the solver, and again for the fallback (None: none).
        book: the opening book, as for :class:`Solver` (None: the installed one where it applies).

    Raises:
        ValueError: ``time_ms`` not a positive number, or ``nodes`` not a positive integer.
        BookError: see :class:`Solver`.
    """

    def __init__(self, game: KInARow, *, weak: bool = False, tt_size: int = DEFAULT_TT_SIZE,
                 seed: Optional[int] = None, name: Optional[str] = None, time_ms: Optional[float] = None,
                 nodes: Optional[int] = None, book: Union[bool, Connect4Book, None] = None) -> None:  # fmt: skip
        self.game = game
        self.weak = weak
        self.solver = Solver(game, tt_size, book=book)
        self.name = name or ("perfect-weak" if weak else "perfect")
        self.last_result: Optional[Union[SolveResult, BudgetedResult]] = None
        self.last_source: Optional[str] = None
        self._kept: Optional[tuple[tuple[Action, ...], int]] = None  # the moves after this agent's last move, its score
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
        self.last_source = "solver"
        if self.solver.book is not None:
            found = optimal_move(self.solver, position, self.weak, self._rng, floor=self._floor(position))
            assert found is not None  # no budget: every search finishes
            self._kept = (tuple(position.moves) + (found.move,), int(found.score))
            self.last_result = SolveResult(int(found.score), found.nodes, self.solver._seconds, self.weak,
                                           found.move_scores, found.best_moves)  # fmt: skip
            return found.move
        self.last_result = self.solver.solve(position, weak=self.weak, moves=True)
        choices = self.last_result.best_moves
        return choices[int(self._rng.integers(len(choices)))]

    def _floor(self, position: Position) -> Optional[int]:
        """A lower bound of ``position``'s score known without a search, or None.

        The score this agent's previous move kept, if ``position`` follows it
        (a score never drops for the side that plays best); else, one stone
        past a stone count the book covers, the negative of the parent's book
        score (whatever the last move was, the side now to move has at least that).
        """
        kept = self._kept
        if kept is not None and position.ply == len(kept[0]) + 1 and tuple(position.moves[:-1]) == kept[0]:
            return kept[1]
        book = self.solver.book
        if book is not None and position.ply - 1 in book.plies and position.ply >= 1:
            parent = position.copy()
            parent.undo()
            score = book.score(parent)
            return None if score is None else -score
        return None

    def reset(self) -> None:
        """A new game: empty the transposition table."""
        self.solver.reset()
        self._kept = None

    def seed(self, seed: Optional[int]) -> None:
        """Reseed the choice among equal moves."""
        self._rng = np.random.default_rng(check_seed(seed))
