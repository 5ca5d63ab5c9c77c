"""Search agents and agent specs for command lines.

``AlphaBetaAgent`` (iterative-deepening alpha-beta over any heuristic) and
``MinimaxAgent`` (plain minimax, the teaching baseline) live here;
``RandomAgent`` and ``RuleBasedAgent`` in :mod:`search.simple_agents`.
:func:`make_agent` turns a spec string into any of them::

    make_agent("alphabeta:heuristic=c4_features,depth=6,branching=4", CONNECT4)
    make_agent("alphabeta:heuristic=c4_features,f1_four=0,f3_two_open=0", CONNECT4)  # weights by name
    make_agent("weights/connect4-c4_features.json", CONNECT4)                         # a weight file
    make_agent("connect4-threats-tuned", CONNECT4)                  # a shipped one, by name (python -m weights --list)
    make_agent("alphabeta:depth=2,weights=weights/connect4-c4_features.json", CONNECT4)   # its settings overridden
    make_agent("random", CONNECT4); make_agent("rules", CONNECT4); make_agent("minimax:depth=3", CONNECT4)
    make_agent("perfect", CONNECT4); make_agent("perfect:weak=1", TIC_TAC_TOE)   # the exact solver

The grammar and its one parser: :mod:`search.agent_spec`.
"""

from __future__ import annotations

import math
import os
import re
import time
from typing import Any, Mapping, Optional, Union

import numpy as np

from games import Action, KInARow, Position
from games.checks import INT64_MAX, check_int, check_optional_int, check_optional_positive, check_seed
from heuristics import Evaluator, WeightFileError, get_spec, load_weights, resolve_weight_file
from heuristics._gomoku import refuse_game as refuse_gomoku
from search._bitsearcher import BitSearcher
from search._perfect import exact_move
from search.agent_spec import AGENT_NAMES, parse_spec
from search.agent_spec import AgentSpecError as AgentSpecError  # re-exported: callers import it from here
from search.budget import FIELD_TYPES, FIELDS, Limit, as_limit, load_weight_file
from search.engine import SearchResult, TranspositionTable, minimax_scores, search, uses_bitboards
from search.errors import SearchError, UnsolvableGameError
from search.gomoku import ENGINE_WEIGHTS, SWITCH_NAMES, TT_SLOT_BYTES, GomokuEngine, check_switches, phase_seconds
from search.protocol import WIN_SCORE
from search.simple_agents import RandomAgent, RuleBasedAgent
from search.solve import DEFAULT_TT_SIZE, PerfectAgent, Solver
from search.threats import DEFAULT_VCT_DEPTH, guard_move, guard_threats, threat_move
from search.tt import check_table_size

GUARD_SHARE = 0.15
"""Share of a timed gomoku-engine move kept for the check that it leaves the opponent no VCF or VCT."""
SEARCH_GUARD_SHARE = 0.1
"""Share of a timed move of the alpha-beta search kept for the check of its move against the opponent's VCF after it
(:func:`search.threats.guard_move`, a few milliseconds; on 20x20 and 30x30 Piskvork replies had ended up to 21 ms past
a 230 ms budget when the check and the root threat search came on top of the search's time)."""
GOMOKU_TSS_NODES = 20_000
"""The gomoku engine's threat-search budget (``tss_nodes`` not given): its own VCF and VCT at the root, and each
check of the opponent's after a candidate move (some 20-70 ms on 15x15; the attacks that won or lost the engine's
games from balanced openings took 5,000 to 65,000 nodes to find, beyond the generic agents' 2,000)."""
GOMOKU_GUARD_NODES = 2_000_000
"""The timed gomoku engine's check of its move against the opponent's VCF and VCT (``tss_nodes`` not given): this
many nodes at most, and the clock stops it first (it runs to the move's deadline, :func:`search.gomoku.phase_seconds`).
The attacks that decided the engine's games at 1 s a move from balanced openings took the threat search 29,000 to
166,000 nodes (0.1 to 0.6 s) to prove, where the check had 20,000; the engine's iterations stop at half the move, so
the rest of the move is the check's."""
GOMOKU_GUARD_VCT_DEPTH = 13
"""The longest opponent's VCT (plies) the timed gomoku engine's check looks for, with :data:`GOMOKU_GUARD_NODES`
(untimed it keeps :data:`search.threats.DEFAULT_VCT_DEPTH`): five of the six games the engine lost in one seed of the
balanced-openings match were lost to 13-ply VCTs the 11-ply check had not seen."""
GUARD_CANDIDATES = 16
"""Moves the gomoku engine's threat guard checks at most (the engine's best first) when no clock bounds it."""
SOLVE_SHARE = 0.4
"""Share of a timed move given to the exact solver first where it fits, ``solve_ms`` not given, for the gomoku
engine and the m,n,k default setting (:data:`MNK_DEFAULT`)."""
MNK_DEFAULT = Limit(radius=2, branching=6)
"""The search settings of a plain ``alphabeta`` on a free board with ``k > 15`` (heuristic ``mics``, see
:func:`default_heuristic`; with ``4 <= k <= 15`` it plays the gomoku engine): cells within 2 of a stone, the 6
best-ordered moves at each node, and with a time budget the exact solver first (:data:`SOLVE_SHARE`) where it fits.
The setting the Bologna tournament replay recommended before the gomoku engine; each key given explicitly replaces
its default."""

Weights = Union[Mapping[str, float], str, "os.PathLike[str]", None]


def default_heuristic(game: KInARow) -> str:
    """``gomoku`` (the gomoku engine, :func:`uses_gomoku_engine`) on a free board with ``4 <= k <= 15``, ``mics``
    on a free board with ``k > 15`` (:func:`uses_mnk_default`), else ``c4_features`` (the Connect-4 paper's H1)
    for k = 4 and ``windows`` (defined everywhere) otherwise."""
    return "gomoku" if refuse_gomoku(game) is None else generic_heuristic(game)


def generic_heuristic(game: KInARow) -> str:
    """The default heuristic of the generic alpha-beta search (:func:`search.engine.search`), where the gomoku engine
    does not play: ``mics`` on a free board with ``k >= 4``, ``c4_features`` for k = 4, else ``windows``."""
    if not game.gravity and game.k >= 4:
        return "mics"
    return "c4_features" if get_spec("c4_features").refuse(game) is None else "windows"


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
    return alphabeta_heuristic(game, heuristic) == "gomoku" and refuse_gomoku(game) is None


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
            played at once, see :func:`search.threats.threat_move`), and
            of the check that alpha-beta's move leaves the opponent no VCF
            (else a move that does is played, :func:`search.threats.guard_move`;
            :attr:`last_result` stays alpha-beta's); only on
            boards without gravity and ``k >= 4``, ignored elsewhere.  None:
            :data:`search.threats.AGENT_TSS_NODES` (the gomoku engine: :data:`GOMOKU_TSS_NODES`, and its
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

    Integer arguments may be Python or NumPy integers.  The budget the agent
    searches with is :attr:`limit`.

    Raises:
        ValueError: a bad budget (budgets are int64: at most 2**63 - 1), a
            negative seed, weights the evaluator refuses (see
            :mod:`heuristics.bounds`), or a malformed weight file.
        TableSizeError: ``tt_size`` below 1 or too large for this machine
            (the message gives the bytes asked for).
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
    ) -> None:
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
        engine = uses_gomoku_engine(game, heuristic)  # heuristic: given, the file's, or None for the default
        if engine_switches and not engine:
            raise SearchError(f"{', '.join(engine_switches)} set(s) the gomoku engine's threat searches, but this agent "
                              f"plays the generic search on {game} (the engine plays boards without gravity with "
                              "4 <= k <= 15, heuristic gomoku or none)")  # fmt: skip
        switches = check_switches(engine_switches or {})  # before any table: a bad value costs no allocation
        if engine and (weights is None or isinstance(weights, Mapping)):
            overrides = {**ENGINE_WEIGHTS, **overrides}  # the engine's tuned table under the weights given by name
        random_every = check_optional_int("random_every", random_every, low=1)
        self.tss_nodes = check_optional_int("tss_nodes", tss_nodes, low=0, high=INT64_MAX)
        self.game = game
        self.evaluator = Evaluator(alphabeta_heuristic(game, heuristic), game, overrides)
        self.limit: Limit = own if own.bounded else own.replace(depth=4)
        """The budget of every search (depth 4 when neither the arguments nor the weight file bound it)."""
        self.random_every = random_every
        self._rng = np.random.default_rng(check_seed(seed))
        self.solve_ms = check_optional_positive("solve_ms", solve_ms)
        # the gomoku engine and the timed m,n,k default play exactly where the solver fits (a small board's known
        # draw is never lost)
        self._solve_share = SOLVE_SHARE if engine or self._mnk_default else None
        timed_share = self._solve_share is not None and self.limit.time_ms is not None
        self._solver = _solver_for(game) if self.solve_ms is not None or timed_share else None
        # the tables last: a bad argument must not cost a large allocation first
        self.gomoku: Optional[GomokuEngine] = None
        """The gomoku engine this agent searches with (None: the generic alpha-beta search), see :func:`uses_gomoku_engine`."""
        if engine:
            slots = check_table_size("tt_size", tt_size, TT_SLOT_BYTES)
            self.gomoku = GomokuEngine(game, self.evaluator.weights, tt_bits=max(10, slots.bit_length() - 1))
            if self.tss_nodes is not None:
                self.gomoku.root_vcf = self.tss_nodes
            self.gomoku.set_switches(switches)
        # the engine keeps its own table of tt_size slots: the generic search's would only cost memory (every
        # opponent copy of a vector env holds one)
        self.table = TranspositionTable(tt_size if self.gomoku is None else 2)
        self.last_result: Optional[SearchResult] = None
        self._moves_made = 0
        self._searcher: Optional[BitSearcher] = None  # built at the first bitboard search, kept (set-up once per agent)
        lim = self.limit
        budget = f"d{lim.depth}" if lim.depth else (f"n{lim.nodes}" if lim.nodes else f"t{lim.time_ms}ms")
        self.name = name or f"alphabeta-{self.evaluator.name}-{budget}" + (f"-q{lim.branching}" if lim.branching else "")
        self.spec: Optional[str] = None
        """The agent spec it was built from by :func:`make_agent` (None when built directly)."""

    def __repr__(self) -> str:
        """The spec it was built from (if any) and the settings that decide its play."""
        made = f"spec={self.spec!r}, " if self.spec is not None else ""
        extras = {"random_every": self.random_every, "tss_nodes": self.tss_nodes, "solve_ms": self.solve_ms}
        rest = "".join(f", {key}={value!r}" for key, value in extras.items() if value is not None)
        return f"AlphaBetaAgent({made}game={self.game}, heuristic={self.evaluator.name!r}, limit={self.limit!r}{rest})"

    def select_move(self, position: Position) -> Action:
        """Search ``position`` (left unchanged) and return the best move; see :attr:`last_result`."""
        _check_game(self.game, position, self.name)
        self._moves_made += 1
        if self.random_every and self._moves_made % self.random_every == 0:
            moves = position.legal_moves()
            self.last_result = None
            return moves[int(self._rng.integers(len(moves)))]
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
        if self.gomoku is not None:
            return self._gomoku_move(position, limit)
        # With a clock the threat searches around the search share the move's time: the search gets what the root
        # threat search left, less SEARCH_GUARD_SHARE for the guard after it, and neither threat search starts once the
        # move's time is spent (they run to node budgets: before, both came on top of time_ms)
        begun = time.perf_counter()
        deadline = None if limit.time_ms is None else begun + limit.time_ms / 1000.0
        self.last_result = threat_move(position, self.tss_nodes, deadline)
        if self.last_result is not None:
            return self.last_result.move
        if limit.time_ms is not None:
            spent_ms = (time.perf_counter() - begun) * 1000.0
            limit = limit.replace(time_ms=max(limit.time_ms * (1.0 - SEARCH_GUARD_SHARE) - spent_ms, 1.0))
        self.last_result = self._search(position, limit)
        return guard_move(position, self.last_result.move, self.tss_nodes, deadline)

    def _gomoku_move(self, position: Position, limit: Limit) -> Action:
        """The gomoku engine's move, with threat-space searches around it: its own VCF or VCT proved at the root
        is played, and the engine's move is checked against the opponent's VCF and VCT
        (:func:`search.threats.guard_threats`: else the engine's next best move that leaves none).  Both search
        with ``tss_nodes`` (None: :data:`GOMOKU_TSS_NODES`, and with a clock the check gets
        :data:`GOMOKU_GUARD_NODES` up to the move's deadline and looks for VCTs up to
        :data:`GOMOKU_GUARD_VCT_DEPTH` plies); the engine gets the time the first left, less
        :data:`GUARD_SHARE` of the move for the guard."""
        assert self.gomoku is not None
        nodes = GOMOKU_TSS_NODES if self.tss_nodes is None else self.tss_nodes
        wide = self.tss_nodes is None and limit.time_ms is not None
        guard_nodes = GOMOKU_GUARD_NODES if wide else nodes
        guard_depth = GOMOKU_GUARD_VCT_DEPTH if wide else DEFAULT_VCT_DEPTH
        begun = time.perf_counter()
        # the threat searches stop at the engine's own margin (measured lateness aside), the check after the search too
        deadline = None if limit.time_ms is None else begun + phase_seconds(self.game, limit.time_ms)
        self.last_result = threat_move(position, nodes, deadline)
        if self.last_result is not None:
            return self.last_result.move
        most = GUARD_CANDIDATES
        if limit.time_ms is not None:
            most = len(position.legal_moves())
            spent_ms = (time.perf_counter() - begun) * 1000.0
            limit = limit.replace(time_ms=max(limit.time_ms * (1.0 - GUARD_SHARE) - spent_ms, 1.0))
        self.last_result = self.gomoku.search(position, limit)
        order = self.gomoku.root_order[1 : most + 1]
        move, _ = guard_threats(position, self.last_result.move, order, guard_nodes, deadline, guard_depth)
        return move

    def _search(self, position: Position, limit: Limit) -> SearchResult:
        """``search(position, self.evaluator, limit, tt=self.table, rng=self._rng)``, through a kept
        :class:`search._bitsearcher.BitSearcher` where the game runs on bitboards (the same result, less set-up)."""
        searcher = self._searcher
        if searcher is None or searcher.evaluator is not self.evaluator:
            if not uses_bitboards(self.game):
                return search(position, self.evaluator, limit, tt=self.table, rng=self._rng)
            searcher = self._searcher = BitSearcher(self.game, self.evaluator)
        return searcher.search(position, limit, self.table, self._rng)

    def reset(self) -> None:
        """A new game: empty the transposition table (O(1): a new generation, see :meth:`TranspositionTable.forget`), zero the move counter."""
        self.table.forget()
        if self.gomoku is not None:
            self.gomoku.reset()
        self._moves_made = 0

    def seed(self, seed: Optional[int]) -> None:
        """Reseed the random moves and the root tie-breaking."""
        self._rng = np.random.default_rng(check_seed(seed))


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


AgentType = Union[AlphaBetaAgent, MinimaxAgent, RandomAgent, RuleBasedAgent, PerfectAgent]
_INT_KEYS = {"tt", "random_every", "seed", "tss_nodes", *SWITCH_NAMES} | {name for name in FIELDS if FIELD_TYPES[name] is int}
# the perfect agent's weak=0|1; for alpha-beta ``weak`` is a weight name (the gomoku pattern table's), a float
_PERFECT_INT_KEYS = _INT_KEYS | {"weak"}

_KEYS = {
    "alphabeta": {"heuristic", "weights", *FIELDS, "tt", "random_every", "seed", "tss_nodes", "solve_ms", *SWITCH_NAMES},
    "minimax": {"heuristic", "depth", "radius", "seed"},
    "random": {"seed"},
    "rules": {"seed"},
    "perfect": {"weak", "tt", "seed", "time_ms", "nodes"},
}
assert tuple(_KEYS) == AGENT_NAMES
SPEC_NAMES = AGENT_NAMES
"""The agent names a spec may start with."""


_ASCII_INT = re.compile(r"[+-]?[0-9]+")
_ASCII_FLOAT = re.compile(r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity)", re.IGNORECASE)


def _convert(spec: str, key: str, value: str, as_float: bool = False, kind: str = "alphabeta") -> Any:
    """``value`` as the key's type: plain ASCII digits only (Python's ``int`` would take ``1_0`` as 10 and a
    non-ASCII digit such as ``\u0663`` as 3, so a typo or a pasted character would silently choose another agent)."""
    if key in (_PERFECT_INT_KEYS if kind == "perfect" else _INT_KEYS) and not as_float:
        if not _ASCII_INT.fullmatch(value):
            raise AgentSpecError(f"agent spec {spec!r}: {key}={value!r} is not a number: give an integer in plain digits 0-9")
        return int(value)
    if FIELD_TYPES.get(key) is float or key == "solve_ms" or as_float:
        if not _ASCII_FLOAT.fullmatch(value):
            raise AgentSpecError(f"agent spec {spec!r}: {key}={value!r} is not a number: give plain digits 0-9, '.', an exponent")
        return float(value)
    return value


def make_agent(spec: str, game: KInARow, seed: Optional[int] = None) -> AgentType:
    """Build an agent from a command-line spec.

    The grammar (one parser, :func:`search.agent_spec.parse_spec`, for every
    caller: this function, ``tuning.match``, ``envs.play`` and the envs'
    ``opponent=``)::

        spec    := NAME [":" key=value ("," key=value)*]  |  PATH
        NAME    := alphabeta | minimax | random | rules | perfect   (the text before the first ":")
        PATH    := anything else: a weight file, or a shipped one's name (an alpha-beta agent with its heuristic, weights and search)

    A value runs to the next comma, so ``alphabeta:weights=dir/x.json,depth=2``
    and ``alphabeta:depth=2,weights=dir/x.json`` are the same agent; a key may
    appear only once.  Keys by agent: ``minimax`` (depth=3, heuristic,
    radius, seed); ``perfect`` (weak=0|1, tt=slots, seed, time_ms and nodes per move; the exact solver,
    :class:`search.solve.PerfectAgent`); ``random``/``rules`` (seed);
    ``alphabeta`` (heuristic, weights (a weight file), the budget keys depth,
    branching, nodes, time_ms, radius (:data:`search.budget.FIELDS`, read into
    one :class:`search.budget.Limit`), tt, random_every, seed, solve_ms (try the exact solver first), tss_nodes
    (threat-space search budget, 0: off), where the gomoku engine plays its threat-search switches
    (:data:`search.gomoku.SWITCH_NAMES`), and any weight name of the heuristic as an override).

    Args:
        spec: the spec string.
        game: the game the agent will play.
        seed: a default seed, overridden by a ``seed=`` key.

    Raises:
        AgentSpecError: unknown agent name or key, a key given twice, a
            malformed option (the message lists what is allowed).
        ValueError: values the agent itself refuses (bad depth, unknown
            heuristic, malformed weight file, a table too large, ...).
    """
    parsed = parse_spec(spec)
    if parsed.kind is None:
        assert parsed.path is not None
        if not parsed.path.endswith(".json") and not _names_weight_file(parsed.path):
            raise AgentSpecError(f"unknown agent {parsed.path.partition(':')[0]!r} in spec {spec!r}: use one of "
                                 f"{', '.join(SPEC_NAMES)}, a weight file path or a shipped weight file's name "
                                 "(python -m weights --list)")  # fmt: skip
        agent = AlphaBetaAgent(game, weights=parsed.path, seed=seed)
        agent.spec = spec
        return agent
    kind, options = parsed.kind, parsed.options
    values = {key: _convert(spec, key, value, kind=kind) for key, value in options.items()}
    values.setdefault("seed", seed)
    overrides: dict[str, float] = {}
    if kind == "alphabeta":
        heuristic = values.get("heuristic") or (
            load_weights(values["weights"], game).heuristic if "weights" in values else alphabeta_heuristic(game)
        )
        weight_names = set(get_spec(heuristic).weight_names)
        for key in [k for k in values if k in weight_names]:
            overrides[key] = _convert(spec, key, options[key], as_float=True)
            values.pop(key)
    unknown = sorted(set(values) - _KEYS[kind])
    if unknown:
        extra = " and the heuristic's weight names" if kind == "alphabeta" else ""
        raise AgentSpecError(
            f"unknown key(s) {', '.join(map(repr, unknown))} for {kind!r} in spec {spec!r}: "
            f"valid keys are {', '.join(sorted(_KEYS[kind]))}{extra}"
        )
    return _build(spec, kind, game, values, overrides)


def _names_weight_file(text: str) -> bool:
    """True if ``text`` is an existing file or a shipped weight file's name (:func:`heuristics.resolve_weight_file`)."""
    try:
        return resolve_weight_file(text).is_file()
    except WeightFileError:
        return False


def _build(spec: str, kind: str, game: KInARow, values: dict[str, Any], overrides: dict[str, float]) -> AgentType:
    """The agent of a parsed, converted spec."""
    if kind == "random":
        return RandomAgent(seed=values["seed"])
    if kind == "rules":
        return RuleBasedAgent(seed=values["seed"])
    if kind == "perfect":
        if values.get("weak", 0) not in (0, 1):
            raise AgentSpecError(f"agent spec {spec!r}: weak={values['weak']!r} must be 0 or 1")
        return PerfectAgent(game, weak=bool(values.get("weak", 0)), tt_size=values.get("tt", DEFAULT_TT_SIZE),
                            seed=values["seed"], time_ms=values.get("time_ms"), nodes=values.get("nodes"))  # fmt: skip
    if kind == "minimax":
        return MinimaxAgent(game, values.get("heuristic"), depth=values.get("depth", 3), radius=values.get("radius"),
                            seed=values["seed"])  # fmt: skip
    if "weights" in values and overrides:
        raise AgentSpecError(f"agent spec {spec!r}: give weights either as a file or by name, not both")
    limit = Limit(**{name: values[name] for name in FIELDS if name in values})
    agent = AlphaBetaAgent(game, values.get("heuristic"), values.get("weights", overrides), limit=limit,
                          tt_size=values.get("tt", 1 << 18), random_every=values.get("random_every"),
                          seed=values["seed"], tss_nodes=values.get("tss_nodes"), solve_ms=values.get("solve_ms"),
                          engine_switches={name: values[name] for name in SWITCH_NAMES if name in values})  # fmt: skip
    agent.spec = spec
    return agent
