"""Matches between two agents: paired openings, a worker pool, pentanomial statistics, an optional SPRT.

A match plays each opening twice, colours swapped: in the pair's first game
agent A plays the side to move after the opening, in the second agent B
does.  The pair's total score for A (0, 1/2, 1, 3/2 or 2) is one
pentanomial sample (see :mod:`tuning.stats`).

Results do not depend on the number of workers: pair ``i`` uses opening
``i mod len(openings)`` and seeds both agents from ``(seed, i, game)`` only,
every agent is reset before each game, and results are consumed in pair
order (an SPRT or a pruner that stops the match stops at the same pair
whatever finished first).  Time budgets are the exception: they make
searches depend on the machine's load.

Command line::

    python -m tuning.match "alphabeta:depth=4" "alphabeta:depth=2" --pairs 100 --workers 2
    python -m tuning.match connect4-threats-tuned "alphabeta:heuristic=square_values,nodes=1000" --sprt 0,10

Example:
    >>> from games import TIC_TAC_TOE
    >>> result = play_match(TIC_TAC_TOE, "rules", "random", [(4,)], pairs=3, seed=1)
    >>> result.games, sum(result.pentanomial)
    (6, 3)
"""

from __future__ import annotations

import argparse
import functools
import itertools
import multiprocessing
import os
import signal
import sys
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, Union

import numpy as np

from games import KInARow
from games.cli import add_game_arguments, game_from_args
from games.errors import GameError
from search.agents import AgentSpecError, AgentType, make_agent
from search.agents.openings import Opening, make_openings
from search.agents.playing import play_game
from tuning.stats import Estimate, Sprt, parse_sprt, pentanomial, trinomial


@dataclass(frozen=True)
class PairResult:
    """The two games of one opening.

    Attributes:
        index: the pair's number in the match.
        opening: the opening both games started from.
        scores: A's score in game 1 (A to move after the opening) and game 2.
        plies: the length of each game after the opening.
        nodes: search nodes of A and of B over both games.
        searched: moves A and B chose by search (random moves and rule agents excluded).
        opponent: which of B's agents played (a gauntlet's member index; 0 in a plain match).
    """

    index: int
    opening: Opening
    scores: tuple[float, float]
    plies: tuple[int, int]
    nodes: tuple[int, int]
    searched: tuple[int, int]
    opponent: int = 0

    @property
    def total(self) -> float:
        """A's pair score, 0 to 2."""
        return self.scores[0] + self.scores[1]


@dataclass
class MatchResult:
    """Pairs played so far, with W/D/L and pentanomial counts from A's point of view."""

    name_a: str
    name_b: str
    pairs: list[PairResult] = field(default_factory=list)
    sprt_verdict: Optional[str] = None

    def add(self, pair: PairResult) -> None:
        """Record one more pair."""
        self.pairs.append(pair)

    def against(self, opponent: int, name: str) -> MatchResult:
        """The pairs played against one member of a gauntlet, as a match of their own."""
        return MatchResult(self.name_a, name, [p for p in self.pairs if p.opponent == opponent])

    @property
    def games(self) -> int:
        """Games played."""
        return 2 * len(self.pairs)

    @property
    def wdl(self) -> tuple[int, int, int]:
        """A's wins, draws and losses."""
        scores = [s for pair in self.pairs for s in pair.scores]
        return scores.count(1.0), scores.count(0.5), scores.count(0.0)

    @property
    def pentanomial(self) -> list[int]:
        """Pairs by A's pair score 0, 1/2, 1, 3/2, 2."""
        counts = [0] * 5
        for pair in self.pairs:
            counts[int(round(pair.total * 2))] += 1
        return counts

    @property
    def score(self) -> float:
        """A's mean score per game (1/2 before any game)."""
        return sum(p.total for p in self.pairs) / self.games if self.pairs else 0.5

    def estimate(self, confidence: float = 0.95) -> Estimate:
        """Elo of A over B from the pair counts, with its interval."""
        return pentanomial(self.pentanomial, confidence)

    def nodes_per_move(self, side: int = 0) -> float:
        """Mean search nodes per searched move of A (side 0) or B (side 1); 0 if it never searched."""
        moves = sum(p.searched[side] for p in self.pairs)
        return sum(p.nodes[side] for p in self.pairs) / moves if moves else 0.0

    def report(self) -> str:
        """The lines ``python -m tuning.match`` prints."""
        wins, draws, losses = self.wdl
        pairs = self.estimate()
        games = trinomial(wins, draws, losses)
        lines = [
            f"{self.name_a} vs {self.name_b}: {self.games} games, {len(self.pairs)} pairs",
            f"W/D/L {wins}/{draws}/{losses}   pentanomial [0, 1/2, 1, 3/2, 2] = {self.pentanomial}",
            f"pairs: {pairs.describe()}",
            f"games: {games.describe()} (treats the games as independent, which paired games are not: "
            "the pairs line is the valid one)",
            f"nodes/move: A {self.nodes_per_move(0):.0f}, B {self.nodes_per_move(1):.0f}",
        ]
        if self.sprt_verdict is not None:
            lines.append(f"SPRT: {self.sprt_verdict}")
        return "\n".join(lines)


def pair_seed(seed: int, index: int, game_number: int, side: int) -> int:
    """The seed of one agent in one game of one pair, a function of these numbers only."""
    return int(np.random.SeedSequence([seed, index, game_number, side]).generate_state(1)[0])


AGENT_CACHE_SIZE = 16
"""Agents a process keeps built (least recently used dropped first).  Each holds a transposition table
(4 MB by default, 32 MB for ``perfect``), and a tuner's workers see a new candidate spec every trial, so an
unbounded cache grows without end; 16 holds a candidate and a gauntlet of up to 7 members on both sides."""


@functools.lru_cache(maxsize=AGENT_CACHE_SIZE)
def _built_agent(game: KInARow, spec: str, side: int) -> AgentType:
    """The agent for ``spec`` (``side`` keys it only, so that a spec matched against itself gets two)."""
    return make_agent(spec, game)


def cached_agent(game: KInARow, spec: str, side: int, seed: int) -> AgentType:
    """A reset agent for ``spec`` playing ``side`` (0 or 1), seeded with ``seed``, built once per process.

    Keyed by side too: a spec matched against itself gets two agents, each
    with its own table, random-move counter and seed.  At most
    :data:`AGENT_CACHE_SIZE` stay built.
    """
    agent = _built_agent(game, spec, side)
    agent.reset()
    agent.seed(seed)
    return agent


@dataclass(frozen=True)
class PairTask:
    """Everything a worker needs to play one pair (picklable)."""

    game: KInARow
    spec_a: str
    spec_b: str
    opening: Opening
    seed: int
    index: int
    opponent: int = 0


def play_pair(task: PairTask) -> PairResult:
    """Play the two games of one pair, colours swapped, with freshly reset and seeded agents."""
    start = task.game.position(task.opening)
    scores, plies, nodes, searched = [], [], [0, 0], [0, 0]
    for game_number in (0, 1):
        a = cached_agent(task.game, task.spec_a, 0, pair_seed(task.seed, task.index, game_number, 0))
        b = cached_agent(task.game, task.spec_b, 1, pair_seed(task.seed, task.index, game_number, 1))
        first, second = (a, b) if game_number == 0 else (b, a)
        score, length, game_nodes, game_searched = play_game(start, first, second)
        order = (0, 1) if game_number == 0 else (1, 0)  # index into the game's (first, second) for (A, B)
        scores.append(score if game_number == 0 else 1.0 - score)
        plies.append(length)
        for side in (0, 1):
            nodes[side] += game_nodes[order[side]]
            searched[side] += game_searched[order[side]]
    return PairResult(task.index, task.opening, (scores[0], scores[1]), (plies[0], plies[1]),
                      (nodes[0], nodes[1]), (searched[0], searched[1]), task.opponent)  # fmt: skip


MAX_PAIRS = 10_000_000
"""The most pairs one match plays (20 million games: days of play at any budget worth measuring); more is a typo."""
WORKERS_PER_CORE = 4
"""Worker processes allowed per core: more only queue for the cores (and each holds its agents and tables)."""


def max_workers() -> int:
    """The most worker processes this machine runs usefully: :data:`WORKERS_PER_CORE` per core."""
    return WORKERS_PER_CORE * default_workers()


def check_count(name: str, value: Optional[int], high: int) -> None:
    """Raise ValueError naming ``name`` unless ``value`` (None passes) is an integer in ``[1, high]``."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        raise ValueError(f"{name} {value!r} must be an integer from 1 to {high:,}")


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class MatchRunner:
    """Plays pairs on a pool of worker processes (kept between matches); ``workers=1`` plays in-process.

    Use it as a context manager so the pool is shut down::

        with MatchRunner(workers=2) as runner:
            result = runner.match(CONNECT4, "alphabeta:depth=4", "alphabeta:depth=2", openings, pairs=50)
    """

    def __init__(self, workers: Optional[int] = None) -> None:
        workers = default_workers() if workers is None else workers
        check_count("workers", workers, max_workers())
        self.workers = workers
        # spawn, not fork: the parent may hold threads (Optuna's heartbeat, a database driver)
        self._pool = _spawn_pool(workers) if workers > 1 else None

    def __enter__(self) -> MatchRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None

    def play(self, tasks: Iterable[PairTask]) -> Iterator[PairResult]:
        """Play ``tasks`` (any iterable, drawn lazily) and yield their results in task order.

        Tasks go out in waves of two per worker, so a consumer that stops
        early (an SPRT, a pruner) wastes at most one wave, and a match of a
        billion pairs holds one wave of tasks in memory, not the list.
        """
        if self._pool is None:
            yield from map(play_pair, tasks)
            return
        stream = iter(tasks)
        while wave := list(itertools.islice(stream, 2 * self.workers)):
            yield from self._pool.imap(play_pair, wave)

    def match(
        self,
        game: KInARow,
        spec_a: str,
        spec_b: Union[str, Sequence[str]],
        openings: Sequence[Opening],
        pairs: int,
        seed: int = 0,
        sprt: Optional[Sprt] = None,
        on_pair: Optional[Callable[[MatchResult], bool]] = None,
    ) -> MatchResult:
        """Play up to ``pairs`` pairs of A (``spec_a``) against B, or against a gauntlet of B's.

        Args:
            game: the game.
            spec_a, spec_b: agent specs (see :func:`search.agents.make_agent`) or weight file paths;
                ``spec_b`` may be a sequence of M specs, a gauntlet: pair ``i`` then plays member
                ``i % M`` from opening ``(i // M) % len(openings)``, so every opening is played
                against every member in turn (and a stopped match is balanced to within one round).
            openings: with one B, pair ``i`` starts from ``openings[i % len(openings)]``.
            pairs: the most pairs to play.
            seed: seeds every agent of every game (with the pair's index).
            sprt: stop as soon as this test decides; its verdict goes into the result.
            on_pair: called after each pair in order with the result so far;
                returning True stops the match.
        """
        opponents = [spec_b] if isinstance(spec_b, str) else list(spec_b)
        if not openings or not opponents:
            raise ValueError("a match needs at least one opening and one opponent")
        names = [make_agent(spec, game).name for spec in (spec_a, *opponents)]  # a bad spec fails here, in the parent
        result = MatchResult(names[0], names[1] if len(names) == 2 else f"a gauntlet of {len(opponents)}")
        m = len(opponents)
        tasks = (PairTask(game, spec_a, opponents[i % m], tuple(openings[(i // m) % len(openings)]), seed, i, i % m)
                 for i in range(pairs))  # fmt: skip
        for pair in self.play(tasks):
            result.add(pair)
            if sprt is not None:
                verdict = sprt.decide(result.pentanomial)
                if verdict == "continue" and len(result.pairs) == pairs:
                    verdict = f"no decision within the cap of {pairs} pairs (--pairs)"
                result.sprt_verdict = f"{verdict} after {len(result.pairs)} pairs (LLR {sprt.llr(result.pentanomial):+.2f}, " \
                                      f"bounds [{sprt.lower:.2f}, {sprt.upper:.2f}])"  # fmt: skip
                if verdict != "continue":
                    break
            if on_pair is not None and on_pair(result):
                break
        return result


def _spawn_pool(workers: int) -> Any:
    """A spawned pool whose workers ignore Ctrl-C and leave it to the parent, which stops them.

    A terminal sends Ctrl-C to the whole process group; a worker that got it
    would print its own traceback.  The workers are started while the parent
    ignores SIGINT: an ignored signal stays ignored across exec, and Python
    installs its KeyboardInterrupt handler only where SIGINT is not ignored,
    so a worker ignores Ctrl-C from its first instruction on.
    """
    context = multiprocessing.get_context("spawn")
    if threading.current_thread() is not threading.main_thread():  # only the main thread may change handlers
        return context.Pool(workers)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return context.Pool(workers)
    finally:
        signal.signal(signal.SIGINT, previous)


def check_specs(game: KInARow, specs: Sequence[str]) -> None:
    """Build each agent once, so a bad spec fails here, in the parent, with make_agent's message."""
    for spec in specs:
        make_agent(spec, game)


def play_match(game: KInARow, spec_a: str, spec_b: str, openings: Sequence[Opening], pairs: int, seed: int = 0,
               workers: int = 1, sprt: Optional[Sprt] = None) -> MatchResult:  # fmt: skip
    """One match on a fresh runner (see :meth:`MatchRunner.match`)."""
    with MatchRunner(workers) as runner:
        return runner.match(game, spec_a, spec_b, openings, pairs, seed, sprt)


DEFAULT_PAIRS = 100
"""Pairs of a match without an SPRT."""
SPRT_PAIR_CAP = 20_000
"""The most pairs an SPRT plays when it does not decide (40,000 games)."""
MAX_OPENINGS = 500
"""Distinct openings drawn by default; pairs beyond cycle through them with other seeds."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tuning.match",
        description="Play agent A against agent B on paired random openings and report W/D/L, "
        "pentanomial counts, Elo with a 95% interval, LOS and optionally an SPRT (which plays on until it decides).",
    )
    parser.add_argument("a", help="agent spec or weight file of A (e.g. 'alphabeta:depth=4'; a shipped file by name: "
                                  "'connect4-threats-tuned', see python -m weights --list)")
    parser.add_argument("b", help="agent spec or weight file of B")
    add_game_arguments(parser)
    parser.add_argument("--pairs", type=int, default=None,
                        help=f"game pairs to play at most (default {DEFAULT_PAIRS}; with --sprt the cap on an undecided "
                        f"test, default {SPRT_PAIR_CAP})")
    parser.add_argument("--plies", type=int, default=4, help="random plies per opening (default 4)")
    parser.add_argument("--openings", type=int, default=None,
                        help="distinct openings to cycle through (default: one per pair, at most 500)")
    parser.add_argument("--workers", type=int, default=None, help="worker processes, at least 1 (default: all cores)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sprt", help="run an SPRT on nElo bounds 'elo0,elo1' and stop when it decides")
    parser.add_argument("--alpha", type=float, default=0.05, help="SPRT false-positive rate (default 0.05)")
    parser.add_argument("--beta", type=float, default=0.05, help="SPRT false-negative rate (default 0.05)")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``python -m tuning.match``."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        try:
            game = game_from_args(parser, args)
            pairs = args.pairs if args.pairs is not None else (SPRT_PAIR_CAP if args.sprt else DEFAULT_PAIRS)
            for name, value, high in (("--pairs", pairs, MAX_PAIRS), ("--openings", args.openings, MAX_PAIRS),
                                      ("--workers", args.workers, max_workers())):  # fmt: skip
                check_count(name, value, high)
            sprt = Sprt(*parse_sprt(args.sprt), alpha=args.alpha, beta=args.beta) if args.sprt else None
            check_specs(game, (args.a, args.b))
            count = args.openings or min(pairs, MAX_OPENINGS)
            book = make_openings(game, count=count, plies=args.plies, seed=args.seed, heldout=0.0)
            result = play_match(game, args.a, args.b, book.tuning, pairs, args.seed, args.workers or default_workers(), sprt)
        except (AgentSpecError, GameError, ValueError, OSError) as error:
            parser.error(str(error))
    except KeyboardInterrupt:
        print("tuning.match: interrupted", file=sys.stderr)
        return 130
    print(result.report())
    return 0


if __name__ == "__main__":
    sys.exit(main())
