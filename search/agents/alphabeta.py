"""The alpha-beta agent and the plain-minimax agent, and how an alpha-beta agent picks its engine.

``AlphaBetaAgent`` (iterative-deepening alpha-beta over any heuristic) and ``MinimaxAgent`` (plain minimax,
the teaching baseline) live here; ``RandomAgent`` and ``RuleBasedAgent`` in :mod:`search.agents.simple`, the
exact solver's ``PerfectAgent`` in :mod:`search.solve`.  :func:`search.agents.make_agent` turns a spec string
into any of them (:mod:`search.agents.registry`).

An alpha-beta agent moves through a *player*: the first registered engine that plays its game and heuristic
(:func:`register_engine`; the gomoku engine, :class:`search.gomoku.player.GomokuPlayer`, on free boards with
``4 <= k <= 15``), else :class:`SearchPlayer`, the generic search of :func:`search.alphabeta.search` with a
threat-space check around it.  Around either, the agent adds what every engine shares: weight files, the
exact solver first where it fits, and the paper's random moves.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field
from typing import Callable, Mapping, Optional, Protocol, Union

import numpy as np

from games import Action, KInARow, Position
from games.checks import INT64_MAX, check_int, check_optional_int, check_optional_positive, check_seed
from heuristics import Evaluator
from heuristics._gomoku import refuse_game as refuse_gomoku
from search.alphabeta._bitsearcher import BitSearcher
from search.alphabeta.engine import generic_heuristic, minimax_scores, search, uses_bitboards
from search.budget import Limit, as_limit, load_weight_file
from search.errors import SearchError, UnsolvableGameError
from search.gomoku.engine import GomokuEngine
from search.gomoku.player import GomokuPlayer
from search.gomoku.threats import guard_move, threat_move
from search.protocol import WIN_SCORE
from search.result import SearchResult
from search.solve import Solver
from search.solve._perfect import exact_move
from search.solve.book import BOOK_PLY, BookError, is_book_game
from search.tt import TranspositionTable

DEFAULT_DEPTH = 4
"""The depth an alpha-beta agent searches when neither its arguments nor its weight file set a budget."""
SEARCH_GUARD_SHARE = 0.1
"""Share of a timed move of the alpha-beta search kept for the check of its move against the opponent's VCF after it
(:func:`search.gomoku.threats.guard_move`, a few milliseconds; on 20x20 and 30x30 Piskvork replies had ended up to 21 ms past
a 230 ms budget when the check and the root threat search came on top of the search's time)."""
SOLVE_SHARE = 0.4
"""Share of a timed move given to the exact solver first where it fits, ``solve_ms`` not given, for the gomoku
engine and the m,n,k default setting (:data:`MNK_DEFAULT`)."""
MNK_DEFAULT = Limit(radius=2, branching=6)
"""The search settings of a plain ``alphabeta`` on a free board with ``k > 15`` (heuristic ``mics``, see
:func:`default_heuristic`; with ``4 <= k <= 15`` it plays the gomoku engine): cells within 2 of a stone, the 6
best-ordered moves at each node, and with a time budget the exact solver first (:data:`SOLVE_SHARE`) where it fits.
The setting the Bologna tournament replay recommended before the gomoku engine; each key given explicitly replaces
its default."""

BOOK_TT_SIZE = 1 << 16
"""Table slots of the solver behind an agent's book moves (512 KB): below 12 stones its searches are small."""

Weights = Union[Mapping[str, float], str, "os.PathLike[str]", None]
_NO_TABLE = TranspositionTable(2)  # what ``AlphaBetaAgent.table`` shows where an engine keeps its own table


def default_heuristic(game: KInARow) -> str:
    """``gomoku`` (the gomoku engine, :func:`uses_gomoku_engine`) on a free board with ``4 <= k <= 15``, ``mics``
    on a free board with ``k > 15`` (:func:`uses_mnk_default`), else ``c4_features`` (the Connect-4 paper's H1)
    for k = 4 and ``windows`` (defined everywhere) otherwise."""
    return "gomoku" if refuse_gomoku(game) is None else generic_heuristic(game)


def uses_mnk_default(game: KInARow) -> bool:
    """True if a plain ``alphabeta`` (no heuristic, no weight file) on ``game`` plays the m,n,k default setting:
    ``mics`` with :data:`MNK_DEFAULT`, on a board without gravity and ``k >= 4`` that the gomoku engine does not
    play (``k > 15``: its line keys hold 15 cells)."""
    return not game.gravity and game.k >= 4 and refuse_gomoku(game) is not None


def uses_gomoku_engine(game: KInARow, heuristic: Optional[str]) -> bool:
    """True if an alpha-beta agent with ``heuristic`` (None: not given) on ``game`` plays the gomoku engine.

    It does when the heuristic, given or by default (:func:`default_heuristic`), is ``gomoku`` on a free board
    (no gravity) with ``4 <= k <= 15`` (:class:`search.gomoku.GomokuEngine`), so a plain ``alphabeta`` plays it
    there: the strongest setting measured on these boards.  Against the m,n,k setting recommended before it
    (``alphabeta:heuristic=mics,radius=2,time_ms=850,solve_ms=400,branching=6``, which stays available by that
    spec) at 1 s a move from balanced openings with both colours, the engine with its tuned table
    (:data:`search.gomoku.ENGINE_WEIGHTS`) scored 73 of 108 points (Elo +128, 95 % interval [+58, +197]) on
    15,15,5 freestyle and exact-k and 20,20,5, and 45 to 43 over the Bologna tournament's configurations with
    ``k >= 4`` without losing a game.
    """
    entry = engine_for(game, alphabeta_heuristic(game, heuristic))
    return entry is not None and entry.name == "gomoku"


class Player(Protocol):
    """How an alpha-beta agent chooses a move once the shared steps (random moves, the exact solver) are done."""

    def move(self, position: Position, limit: Limit, rng: np.random.Generator) -> tuple[Action, SearchResult]:
        """The move to play in ``position`` (left unchanged) under ``limit``, and the search that chose it."""
        ...

    def reset(self) -> None:
        """A new game."""
        ...


@dataclass(frozen=True)
class EngineEntry:
    """An engine an alpha-beta agent plays where it applies, with the settings it brings (:func:`register_engine`)."""

    name: str
    plays: Callable[[KInARow, str], bool]
    """``plays(game, heuristic)``: True where this engine, not the generic search, plays."""
    build: Callable[[KInARow, Evaluator, int, Optional[int], Mapping[str, int]], Player]
    """``build(game, evaluator, tt_size, tss_nodes, switches)``: the engine's player."""
    switch_names: tuple[str, ...] = ()
    """Integer spec keys the engine adds to ``alphabeta`` (its own switches, checked by ``build``)."""
    default_weights: Mapping[str, float] = field(default_factory=dict)
    """Weights under those given by name (an engine's own tuned table), where no weight file is given."""


ENGINES: dict[str, EngineEntry] = {}
"""The registered engines by name, in registration order (:mod:`search.agents.kinds` registers the built-in ones)."""


def register_engine(entry: EngineEntry) -> None:
    """Add an engine that alpha-beta agents play where ``entry.plays`` says so (the first registered wins).

    Raises:
        SearchError: an engine of that name is registered already.
    """
    if entry.name in ENGINES:
        raise SearchError(f"an engine named {entry.name!r} is registered already")
    ENGINES[entry.name] = entry


def engine_for(game: KInARow, heuristic: str) -> Optional[EngineEntry]:
    """The registered engine that plays ``game`` with ``heuristic``, or None (the generic search plays)."""
    return next((entry for entry in ENGINES.values() if entry.plays(game, heuristic)), None)


def engine_switch_names() -> tuple[str, ...]:
    """Every registered engine's switch names (the integer spec keys they add to ``alphabeta``)."""
    return tuple(name for entry in ENGINES.values() for name in entry.switch_names)


def alphabeta_heuristic(game: KInARow, heuristic: Optional[str] = None) -> str:
    """The heuristic an alpha-beta agent plays: ``heuristic`` if given, else :func:`default_heuristic`."""
    return heuristic if heuristic is not None else default_heuristic(game)


def _check_game(agent_game: KInARow, position: Position, name: str) -> None:
    if position.game != agent_game:
        raise SearchError(f"agent {name!r} plays {agent_game}; got a position of {position.game}")
    if position.is_terminal():
        raise SearchError(f"agent {name!r}: position {position.move_string()!r} is over")


class AlphaBetaAgent:
    """Alpha-beta search with a heuristic, its weights, and the papers' knobs.

    Args:
        game: the game it plays.
        heuristic: an evaluator name; default :func:`default_heuristic`.  ``gomoku`` on a free board with
            ``4 <= k <= 15`` plays the gomoku engine (:class:`search.gomoku.GomokuEngine`: pattern evaluation,
            threats inside the search, PVS), see :func:`uses_gomoku_engine`; its weights not given by name
            come from the engine's tuned table (:data:`search.gomoku.ENGINE_WEIGHTS`), not the heuristic's defaults.
            Taken from the weight file when ``weights`` is a path.
        weights: weight overrides by name, or the path of a weight file (its
            heuristic and search section become this agent's defaults: a
            setting not given here comes from the file, except the file's
            depth when a depth, node or time budget is given here).
        limit: the search budget (:class:`search.budget.Limit`); or give its
            settings as keywords (not both):
        depth, nodes, time_ms: search budgets (default: depth 4 when none is given).
        branching: q, the number of best-ordered moves searched per node (None: all; 6 in the m,n,k default
            setting, :data:`MNK_DEFAULT`).
        radius: m,n,k only: consider cells within this distance of a stone (2 in the m,n,k default setting; the
            gomoku engine takes its candidates from the cells that make or break patterns instead).
        tt_size: transposition-table entries (at most what fits in this
            machine's memory), kept across a game's moves, forgotten by
            :meth:`reset` in O(1); the gomoku engine's own table (at least 1,024).
        random_every: play a uniformly random move every N-th own move (the
            Connect-4 paper's experiments use 3, so games do not repeat).
        seed: seeds the random moves and the tie-breaking between equal root moves.
        name: a label for match tables (default derived from the settings).
        tss_nodes: node budget of the threat-space search tried before
            alpha-beta (VCF, then VCT with what is left; a proved win is
            played at once, see :func:`search.gomoku.threats.threat_move`), and
            of the check that alpha-beta's move leaves the opponent no VCF
            (else a move that does is played, :func:`search.gomoku.threats.guard_move`;
            :attr:`last_result` stays alpha-beta's); only on
            boards without gravity and ``k >= 4``, ignored elsewhere.  None:
            :data:`search.gomoku.threats.AGENT_TSS_NODES` (the gomoku engine: :data:`search.gomoku.player.GOMOKU_TSS_NODES`, and its
            check covers the opponent's VCT too); 0 switches it off.
        solve_ms: on games the exact solver fits (Connect-4 up to 64 bits,
            small m,n,k boards), try it first for up to this many ms per
            move: if it decides every move in time the move is exact (so a
            drawn 5,5,4 is never lost), a proven win is played, else the
            search runs with what is left of ``time_ms``.  None: off (the
            solver's table is 32 MB), but for the gomoku engine with ``time_ms``,
            and the m,n,k default setting with ``time_ms``, which give the solver :data:`SOLVE_SHARE` of it.  Ignored where the solver does not fit.
        engine_switches: the gomoku engine's threat-search switches by name
            (:data:`search.gomoku.SWITCH_NAMES`, e.g. ``{"horizon_vct": 0}``); only where the engine plays.
        book: Connect-4 6x7 only, with the opening book installed
            (``pip install "alphabeta-gym[book]"``, :mod:`search.solve.book`):
            while the position has fewer than 12 stones, play a move of the
            best exact score (random among equals, by the agent's seeded rng),
            then search as usual; the 12-stone position is the first the
            search sees.  Each such move takes milliseconds (the book's scores,
            or a small search over them).  :attr:`last_from_book` tells which.
            Off by default, so that comparing agents compares their evaluation.

    Integer arguments may be Python or NumPy integers.  The budget the agent
    searches with is :attr:`limit`.

    Raises:
        ValueError: a bad budget (budgets are int64: at most 2**63 - 1), a
            negative seed, weights the evaluator refuses (see
            :mod:`heuristics.bounds`), or a malformed weight file.
        TableSizeError: ``tt_size`` below 1 or too large for this machine
            (the message gives the bytes asked for).
        BookError: ``book`` on another game than Connect-4 6x7, or without the book installed.
    """

    def __init__(
        self,
        game: KInARow,
        heuristic: Optional[str] = None,
        weights: Weights = None,
        *,
        limit: Optional[Limit] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time_ms: Optional[float] = None,
        branching: Optional[int] = None,
        radius: Optional[int] = None,
        tt_size: int = 1 << 18,
        random_every: Optional[int] = None,
        seed: Optional[int] = None,
        name: Optional[str] = None,
        tss_nodes: Optional[int] = None,
        solve_ms: Optional[float] = None,
        engine_switches: Optional[Mapping[str, int]] = None,
        book: bool = False,
    ) -> None:
        if book and not is_book_game(game):
            raise BookError(f"book=1: the opening book is for Connect-4 6x7, not {game}; leave book off there")
        own = as_limit(limit, depth=depth, nodes=nodes, time_ms=time_ms, branching=branching, radius=radius)
        if weights is not None and not isinstance(weights, Mapping):
            loaded, tuned = load_weight_file(weights, game)
            if heuristic is not None and heuristic != loaded.heuristic:
                raise SearchError(f"weight file {weights} is for heuristic {loaded.heuristic!r}, not {heuristic!r}")
            heuristic, overrides = loaded.heuristic, loaded.weights
            # A budget given here replaces the file's depth cap (a file tuned at depth 8 played at 50 ms is not capped).
            own = own.merged_over(tuned.replace(depth=None) if own.bounded else tuned)
        else:
            overrides = dict(weights or {})
        # the m,n,k default setting's radius and width, where the user chose neither heuristic nor file
        self._mnk_default = heuristic is None and uses_mnk_default(game)
        if self._mnk_default:
            own = own.merged_over(MNK_DEFAULT)
        entry = engine_for(game, alphabeta_heuristic(game, heuristic))  # heuristic: given, the file's, or the default
        if engine_switches and (entry is None or not set(engine_switches) <= set(entry.switch_names)):
            owners = [e for e in ENGINES.values() if set(engine_switches) & set(e.switch_names)]
            whose = owners[0].name if owners else "an engine"
            raise SearchError(f"{', '.join(engine_switches)} set(s) the {whose} engine's threat searches, but this agent "
                              f"plays the generic search on {game} (the {whose} engine plays boards without gravity with "
                              f"4 <= k <= 15, heuristic {whose} or none)")  # fmt: skip
        if entry is not None and (weights is None or isinstance(weights, Mapping)):
            overrides = {**entry.default_weights, **overrides}  # the engine's tuned table under the weights given by name
        random_every = check_optional_int("random_every", random_every, low=1)
        self.tss_nodes = check_optional_int("tss_nodes", tss_nodes, low=0, high=INT64_MAX)
        self.game = game
        self.evaluator = Evaluator(alphabeta_heuristic(game, heuristic), game, overrides)
        self.limit: Limit = own if own.bounded else own.replace(depth=DEFAULT_DEPTH)
        """The budget of every search (depth 4 when neither the arguments nor the weight file bound it)."""
        self.random_every = random_every
        self._rng = np.random.default_rng(check_seed(seed))
        self.solve_ms = check_optional_positive("solve_ms", solve_ms)
        # an engine and the timed m,n,k default play exactly where the solver fits (a small board's known draw is
        # never lost)
        self._solve_share = SOLVE_SHARE if entry is not None or self._mnk_default else None
        timed_share = self._solve_share is not None and self.limit.time_ms is not None
        self._solver = _solver_for(game) if self.solve_ms is not None or timed_share else None
        self.book = bool(book)
        self._book_solver = Solver(game, BOOK_TT_SIZE, book=True) if book else None  # BookError if not installed
        self.last_from_book = False
        """True if the last move came from the opening book (``book=True``), False if from the search."""
        # the tables last: a bad argument must not cost a large allocation first
        self.player: Player = (SearchPlayer(game, self.evaluator, tt_size, self.tss_nodes) if entry is None
                               else entry.build(game, self.evaluator, tt_size, self.tss_nodes, engine_switches or {}))  # fmt: skip
        """How this agent chooses its moves: a registered engine's player, or :class:`SearchPlayer`."""
        self.last_result: Optional[SearchResult] = None
        self._moves_made = 0
        lim = self.limit
        budget = f"d{lim.depth}" if lim.depth else (f"n{lim.nodes}" if lim.nodes else f"t{lim.time_ms}ms")
        self.name = name or (f"alphabeta-{self.evaluator.name}-{budget}" + (f"-q{lim.branching}" if lim.branching else "")
                             + ("-book" if book else ""))  # fmt: skip
        self.spec: Optional[str] = None
        """The agent spec it was built from by :func:`make_agent` (None when built directly)."""

    def __repr__(self) -> str:
        """The spec it was built from (if any) and the settings that decide its play."""
        made = f"spec={self.spec!r}, " if self.spec is not None else ""
        extras = {"random_every": self.random_every, "tss_nodes": self.tss_nodes, "solve_ms": self.solve_ms,
                  "book": True if self.book else None}  # fmt: skip
        rest = "".join(f", {key}={value!r}" for key, value in extras.items() if value is not None)
        return f"AlphaBetaAgent({made}game={self.game}, heuristic={self.evaluator.name!r}, limit={self.limit!r}{rest})"

    def select_move(self, position: Position) -> Action:
        """Search ``position`` (left unchanged) and return the best move; see :attr:`last_result`."""
        _check_game(self.game, position, self.name)
        self._moves_made += 1
        self.last_from_book = False
        if self.random_every and self._moves_made % self.random_every == 0:
            moves = position.legal_moves()
            self.last_result = None
            return moves[int(self._rng.integers(len(moves)))]
        if self._book_solver is not None and position.ply < BOOK_PLY:
            return self._book_move(position)
        started = time.perf_counter()
        limit = self.limit
        solve_ms = self.solve_ms
        if solve_ms is None and self._solve_share is not None and limit.time_ms is not None:
            solve_ms = self._solve_share * limit.time_ms
        if self._solver is not None and solve_ms is not None:
            exact = exact_move(self._solver, position, solve_ms, self._rng)
            if exact is not None:  # the solver decided the position (or proved a win) in time: play it
                score = 0.0 if exact.score == 0 else math.copysign(WIN_SCORE - 1, exact.score)
                ply_left = self.game.n_cells - position.ply
                self.last_result = SearchResult(exact.move, score, ply_left, exact.nodes, exact.seconds, (exact.move,))
                return exact.move
            if limit.time_ms is not None:  # the search gets what the solver left of the move's time
                spent_ms = (time.perf_counter() - started) * 1000.0
                limit = limit.replace(time_ms=max(limit.time_ms - spent_ms, 1.0))
        move, self.last_result = self.player.move(position, limit, self._rng)
        return move

    def _book_move(self, position: Position) -> Action:
        """A move of the best exact score, random among equals: every move's score from the book (see ``book``)."""
        assert self._book_solver is not None
        exact = self._book_solver.solve(position, moves=True)
        move = exact.best_moves[int(self._rng.integers(len(exact.best_moves)))]
        score = 0.0 if exact.score == 0 else math.copysign(WIN_SCORE - 1, exact.score)
        self.last_result = SearchResult(move, score, self.game.n_cells - position.ply, exact.nodes, exact.seconds, (move,))
        self.last_from_book = True
        return move

    @property
    def gomoku(self) -> Optional[GomokuEngine]:
        """The gomoku engine this agent searches with (None: another player), see :func:`uses_gomoku_engine`."""
        return self.player.engine if isinstance(self.player, GomokuPlayer) else None

    @property
    def table(self) -> TranspositionTable:
        """The generic search's transposition table (a 2-slot stand-in where an engine with its own table plays)."""
        return self.player.table if isinstance(self.player, SearchPlayer) else _NO_TABLE

    def reset(self) -> None:
        """A new game: the player's tables start afresh (the generic search's in O(1), a new generation, see
        :meth:`TranspositionTable.forget`), the move counter from zero."""
        self.player.reset()
        self._moves_made = 0

    def seed(self, seed: Optional[int]) -> None:
        """Reseed the random moves and the root tie-breaking."""
        self._rng = np.random.default_rng(check_seed(seed))


class SearchPlayer:
    """The generic alpha-beta search (:func:`search.alphabeta.search`) with threat-space searches around it.

    On boards without gravity and ``k >= 4`` a VCF or VCT proved at the root (:func:`search.gomoku.threats.threat_move`)
    is played at once, and the search's move is checked against the opponent's VCF after it
    (:func:`search.gomoku.threats.guard_move`); elsewhere both are no-ops.

    Args:
        game: the game it plays.
        evaluator: the heuristic and its weights.
        tt_size: transposition-table entries, kept across a game's moves.
        tss_nodes: the threat searches' node budget (None: :data:`search.gomoku.threats.AGENT_TSS_NODES`; 0: off).
    """

    def __init__(self, game: KInARow, evaluator: Evaluator, tt_size: int, tss_nodes: Optional[int] = None) -> None:
        self.game, self.evaluator, self.tss_nodes = game, evaluator, tss_nodes
        self.table = TranspositionTable(tt_size)
        self._searcher: Optional[BitSearcher] = None  # built at the first bitboard search, kept (set-up once per agent)

    def move(self, position: Position, limit: Limit, rng: np.random.Generator) -> tuple[Action, SearchResult]:
        """The search's move, checked by the threat guard, and the search (or the root threat search's proof)."""
        # With a clock the threat searches around the search share the move's time: the search gets what the root
        # threat search left, less SEARCH_GUARD_SHARE for the guard after it, and neither threat search starts once the
        # move's time is spent (they run to node budgets: before, both came on top of time_ms)
        begun = time.perf_counter()
        deadline = None if limit.time_ms is None else begun + limit.time_ms / 1000.0
        proved = threat_move(position, self.tss_nodes, deadline)
        if proved is not None:
            return proved.move, proved
        if limit.time_ms is not None:
            spent_ms = (time.perf_counter() - begun) * 1000.0
            limit = limit.replace(time_ms=max(limit.time_ms * (1.0 - SEARCH_GUARD_SHARE) - spent_ms, 1.0))
        result = self._search(position, limit, rng)
        return guard_move(position, result.move, self.tss_nodes, deadline), result

    def _search(self, position: Position, limit: Limit, rng: np.random.Generator) -> SearchResult:
        """``search(position, self.evaluator, limit, tt=self.table, rng=rng)``, through a kept
        :class:`search.alphabeta._bitsearcher.BitSearcher` where the game runs on bitboards (the same result, less set-up)."""
        searcher = self._searcher
        if searcher is None:
            if not uses_bitboards(self.game):
                return search(position, self.evaluator, limit, tt=self.table, rng=rng)
            searcher = self._searcher = BitSearcher(self.game, self.evaluator)
        return searcher.search(position, limit, self.table, rng)

    def reset(self) -> None:
        """A new game: empty the transposition table (O(1): a new generation)."""
        self.table.forget()


class MinimaxAgent:
    """Plain minimax to a fixed depth (no pruning): the textbook baseline; ties broken by a seeded rng.

    Args:
        game: the game it plays.
        heuristic, weights: as for :class:`AlphaBetaAgent` (weights: overrides by name).
        depth: plies searched (default 3).
        seed: seeds the tie-breaking.
    """

    def __init__(self, game: KInARow, heuristic: Optional[str] = None, weights: Optional[Mapping[str, float]] = None,
                 *, depth: int = 3, radius: Optional[int] = None, seed: Optional[int] = None) -> None:  # fmt: skip
        depth = check_int("depth", depth, low=1, high=INT64_MAX)
        self.game = game
        self.evaluator = Evaluator(heuristic or default_heuristic(game), game, weights)
        self.depth, self.radius = depth, radius
        self.name = f"minimax-{self.evaluator.name}-d{depth}"
        self._rng = np.random.default_rng(check_seed(seed))

    def select_move(self, position: Position) -> Action:
        """The move with the best minimax value (random among equals)."""
        _check_game(self.game, position, self.name)
        scores = minimax_scores(position, self.evaluator, self.depth, self.radius)
        best = max(scores.values())
        choices = [move for move, score in scores.items() if score == best]
        return choices[int(self._rng.integers(len(choices)))]

    def reset(self) -> None:
        """Nothing is kept between moves."""

    def seed(self, seed: Optional[int]) -> None:
        """Reseed the tie-breaking."""
        self._rng = np.random.default_rng(check_seed(seed))


def _solver_for(game: KInARow) -> Optional[Solver]:
    """The exact solver of ``game``, or None where it does not fit (``solve_ms`` is then ignored)."""
    try:
        return Solver(game)
    except UnsolvableGameError:
        return None


