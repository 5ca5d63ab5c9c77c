"""A rating ladder: reference opponents from random play up, calibrated in Elo with random anchored at 0.

Win rates against one opponent say little about a weak learner: random play
loses every game to ``rules`` and to every alpha-beta depth.  The ladder puts
rungs between random and depth 1 (depth 1 playing a random move with
probability ``eps``, or every third move), then depths 1 to 4, ``rules``, a
tuned weight file, depths 6 and 8, so any player from random up gets an Elo.
``perfect`` tops the tic-tac-toe ladder; on Connect-4 6x7 the exact solver
does not answer early positions within a game's budget, so it is left out
there (a budgeted ``perfect`` can be added as a rung once it exists).

* **Calibration** (:func:`calibrate`, once, shipped as ``envs/data/ladder-<game>.json``):
  a round robin of paired games (each opening played twice, colours swapped)
  in which rungs at most ``near`` places apart play ``pairs`` pairs and the
  rest a quarter of that (they are hundreds of Elo apart and decide
  little), then a Bradley-Terry maximum-likelihood fit, draws counted as
  half a win (as Ordo does), random anchored at 0, one virtual draw between
  neighbouring rungs (a BayesElo-like prior that keeps every gap finite), and
  a 95% profile-likelihood interval per rung (:mod:`envs._bt`).
* **Rating** (:func:`rate`, :mod:`envs._rounds`): a player plays exactly the
  games asked for, in rounds of paired games against rungs; each round goes
  to the rung rated nearest the player's current estimate (an adaptive
  choice, so the games are informative; the first rounds are short, so few
  games are spent far from the player), never to a rung that is the player
  itself, and the Elo is the maximum-likelihood rating with the rungs'
  ratings fixed, with one virtual draw shared by the rungs met and a 95%
  likelihood-ratio interval (it covers the truth about 95% of the time in
  simulation, and stays finite after all wins or all losses).  The interval
  leaves out the rungs' own uncertainty.

A player is an agent spec or weight file (:func:`search.agents.make_agent`),
an SB3 ``.zip`` (MaskablePPO or PPO), an agent object, or a callable
``(observation, action_mask) -> action`` (:mod:`envs.opponents`).

Example:
    >>> from games import CONNECT4
    >>> ladder = load_ladder(CONNECT4)
    >>> ladder.rungs[0].name, ladder.elo[0]
    ('random', 0.0)
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Optional, Sequence, Union, cast

import numpy as np

from envs._bt import expected_score, fit_ratings
from envs._players import NoisyAgent, Policy, PolicyAgent, sb3_policy
from envs._rounds import PRIOR_DRAWS, Rating, agent_settings, check_counts, fit_player, play_rounds
from games import KInARow, game_from_record
from heuristics import files
from heuristics.defaults import game_tag
from search.agents import make_agent
from search.agents.openings import Opening, make_openings
from search.agents.playing import play_game
from search.agents.warmup import warm_up
from search.protocol import Agent

FORMAT = "alphabeta-gym-ladder"
VERSION = 1
DATA_DIR = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class Rung:
    """One reference opponent: an agent spec, played with a random move at probability ``eps``."""

    name: str
    spec: str
    eps: float = 0.0

    def agent(self, game: KInARow, warm: bool = True) -> Agent:
        """A fresh agent for this rung, warmed up unless ``warm`` is False (:func:`search.agents.warmup.warm_up`: its kernels
        compile before its games; an agent built only to compare its settings needs no warm-up)."""
        inner = make_agent(self.spec, game)
        if warm:
            warm_up(inner, game)
        return NoisyAgent(inner, self.eps) if self.eps else inner


LADDERS: dict[str, tuple[Rung, ...]] = {
    "connect4": (
        Rung("random", "random"), Rung("d1-eps75", "alphabeta:depth=1", 0.75), Rung("d1-eps50", "alphabeta:depth=1", 0.5),
        Rung("d1-every3", "alphabeta:depth=1,random_every=3"), Rung("d1-eps25", "alphabeta:depth=1", 0.25),
        Rung("d1-eps10", "alphabeta:depth=1", 0.1), Rung("d1", "alphabeta:depth=1"), Rung("d2", "alphabeta:depth=2"),
        Rung("d3", "alphabeta:depth=3"), Rung("rules", "rules"), Rung("d4", "alphabeta:depth=4"),
        Rung("tuned", "connect4-c4_features-tuned"), Rung("d6", "alphabeta:depth=6"), Rung("d8", "alphabeta:depth=8"),
    ),
    "tictactoe": (
        Rung("random", "random"), Rung("rules-eps50", "rules", 0.5), Rung("rules-eps25", "rules", 0.25),
        Rung("rules", "rules"), Rung("perfect", "perfect"),
    ),
}  # fmt: skip
"""The rungs of each game's ladder, weakest first (random first: it is the anchor)."""
OPENINGS = {"connect4": (4, 500), "tictactoe": (1, 3)}
"""Random plies of the openings every game starts from, and the most distinct openings drawn (3x3 has 3 after one ply)."""


def _rungs_of(game: KInARow) -> tuple[Rung, ...]:
    tag = game_tag(game)
    if tag not in LADDERS:
        raise ValueError(f"no ladder is defined for {game}: ladders exist for {', '.join(LADDERS)}")
    return LADDERS[tag]


def _seed(*numbers: int) -> int:
    return int(np.random.SeedSequence(list(numbers)).generate_state(1)[0])


def play_pairs(game: KInARow, a: Agent, b: Agent, openings: Sequence[Opening], count: int, seed: int,
               key: tuple[int, ...] = ()) -> list[tuple[float, float]]:  # fmt: skip
    """``count`` pairs of ``a`` against ``b``: A's score in each game (pair ``t`` starts from opening ``t % len``).

    Agents are reset and reseeded from ``(seed, *key, t, game, side)`` before every game.
    """
    results = []
    for t in range(count):
        start = game.position(openings[t % len(openings)])
        scores = []
        for number in (0, 1):
            for side, agent in enumerate((a, b)):
                agent.reset()
                agent.seed(_seed(seed, *key, t, number, side))
            first, second = (a, b) if number == 0 else (b, a)
            score = play_game(start, first, second)[0]  # any select_move agent plays
            scores.append(score if number == 0 else 1.0 - score)
        results.append((scores[0], scores[1]))
    return results


@dataclass(frozen=True)
class Ladder:
    """Calibrated rungs of one game: ratings, intervals, the round robin's results and how they were made."""

    game: KInARow
    rungs: tuple[Rung, ...]
    elo: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    scores: np.ndarray
    games: np.ndarray
    header: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """The versioned JSON object (header first, then rungs, then the raw results)."""
        rungs = [{"name": r.name, "spec": r.spec, "eps": r.eps, "elo": round(e, 1), "low": round(lo, 1), "high": round(hi, 1)}
                 for r, e, lo, hi in zip(self.rungs, self.elo, self.low, self.high)]  # fmt: skip
        return {"format": FORMAT, "version": VERSION, **self.header, "game": self.game.to_record(), "rungs": rungs,
                "scores": self.scores.tolist(), "games": self.games.astype(int).tolist()}  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Ladder:
        """The inverse of :meth:`to_json` (raises ValueError on a malformed object)."""
        try:
            if data["format"] != FORMAT or data["version"] != VERSION:
                raise ValueError(f"format {data['format']!r} version {data['version']!r} is not {FORMAT!r} version {VERSION}")
            rungs = tuple(Rung(r["name"], r["spec"], float(r["eps"])) for r in data["rungs"])
            header = {k: v for k, v in data.items() if k not in ("format", "version", "game", "rungs", "scores", "games")}
            elo, low, high = (tuple(float(r[k]) for r in data["rungs"]) for k in ("elo", "low", "high"))
            return cls(game_from_record(data["game"]), rungs, elo, low, high, np.array(data["scores"], dtype=float),
                       np.array(data["games"], dtype=float), header)  # fmt: skip
        except (KeyError, TypeError) as error:
            raise ValueError(f"malformed ladder object: missing or bad field {error}") from None

    def save(self, path: Union[str, os.PathLike[str]]) -> None:
        """Write the ladder as JSON, atomically."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        files.write_text_atomic(Path(path), json.dumps(self.to_json(), indent=1) + "\n")

    @property
    def plies(self) -> int:
        """Random plies of the openings every game starts from."""
        return int(self.header["plies"])


def ladder_path(game: KInARow) -> Path:
    """Where the shipped ladder of ``game`` lives."""
    return DATA_DIR / f"ladder-{game_tag(game)}.json"


def load_ladder(game: KInARow, path: Union[str, os.PathLike[str], None] = None) -> Ladder:
    """The calibrated ladder of ``game`` (the shipped file unless ``path`` is given).

    Raises:
        ValueError: no ladder for this game, a malformed file, or a file for another game.
    """
    source = Path(path) if path is not None else ladder_path(game)
    if path is None and not source.is_file():
        _rungs_of(game)  # names the games that have ladders
        raise ValueError(f"no calibrated ladder for {game} at {source}: run python -m envs.rate --calibrate")
    try:
        data = files.parse_json(files.read_text_capped(source), source)  # the weight files' guarded reader and parser
    except (OSError, ValueError) as error:  # UnicodeDecodeError is a ValueError
        raise ValueError(f"cannot read ladder {source}: {error}") from None
    if not isinstance(data, dict):
        raise ValueError(f"cannot read ladder {source}: the JSON is a {type(data).__name__}, not an object")
    ladder = Ladder.from_json(data)
    if ladder.game != game:
        raise ValueError(f"ladder {source} is for {ladder.game}, not {game}")
    return ladder


# ------------------------------------------------------------------ calibration
_WORKER_AGENTS: dict[tuple[Rung, int], Agent] = {}


def _calibration_task(task: tuple[KInARow, Rung, Rung, Opening, int, int, int, int]) -> tuple[int, int, float]:
    """One pair of rung ``i`` against rung ``j`` (in a worker process): ``(i, j, i's pair score)``."""
    game, a, b, opening, seed, i, j, t = task
    agents = [_WORKER_AGENTS.setdefault((r, side), r.agent(game)) for side, r in enumerate((a, b))]
    scores = play_pairs(game, agents[0], agents[1], [opening], 1, seed, key=(i, j, t))[0]
    return i, j, scores[0] + scores[1]


def calibrate(game: KInARow, pairs: int = 100, seed: int = 0, near: int = 2, workers: int = 1,
              command: str = "", progress: Optional[Callable[[int, int], None]] = None) -> Ladder:  # fmt: skip
    """Play the round robin of ``game``'s rungs (:data:`LADDERS`) and fit their ratings.

    Args:
        pairs: game pairs between rungs at most ``near`` places apart; others play ``max(1, pairs // 4)``.
        seed: draws the openings and seeds every agent.
        workers: processes playing pairs (spawned; 1 plays in this process).
        command: the command line, recorded in the header.
        progress: called with (pairs done, pairs in all) as results arrive.
    """
    rungs = _rungs_of(game)
    if pairs < 1 or near < 1 or workers < 1:
        raise ValueError(f"pairs={pairs}, near={near} and workers={workers} must each be at least 1")
    plies, most = OPENINGS[game_tag(game)]
    book = make_openings(game, count=min(pairs, most), plies=plies, seed=seed, heldout=0.0)
    openings = book.tuning
    tasks = [(game, rungs[i], rungs[j], openings[t % len(openings)], seed, i, j, t)
             for i in range(len(rungs)) for j in range(i + 1, len(rungs))
             for t in range(pairs if j - i <= near else max(1, pairs // 4))]  # fmt: skip
    size = len(rungs)
    scores, games = np.zeros((size, size)), np.zeros((size, size))
    # Workers ignore Ctrl-C (a terminal sends it to the whole group): the parent stops them, without their tracebacks.
    pool = multiprocessing.get_context("spawn").Pool(workers, signal.signal, (signal.SIGINT, signal.SIG_IGN)) if workers > 1 else None
    try:
        results = pool.imap_unordered(_calibration_task, tasks, chunksize=4) if pool else map(_calibration_task, tasks)
        for done, (i, j, total) in enumerate(results, 1):
            scores[i, j] += total
            scores[j, i] += 2.0 - total
            games[i, j] += 2
            games[j, i] += 2
            if progress is not None:
                progress(done, len(tasks))
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    elo, low, high = _fit_ladder(scores, games)
    header = {"command": command, "pairs": pairs, "near": near, "games_played": int(games.sum() // 2), "seed": seed,
              "plies": book.plies, "openings": len(openings), "prior_draws": PRIOR_DRAWS,
              "draws": "half a win (Ordo)", "interval": "95%, profile likelihood",
              "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), "package_version": _version()}  # fmt: skip
    return Ladder(game, rungs, elo, low, high, scores, games, header)


def _fit_ladder(scores: np.ndarray, games: np.ndarray) -> tuple[tuple[float, ...], ...]:
    """Ratings and intervals of the rungs, with the neighbour prior, random (rung 0) at 0."""
    s, n = scores.copy(), games.copy()
    for i in range(len(s) - 1):
        s[i, i + 1] += PRIOR_DRAWS / 2
        s[i + 1, i] += PRIOR_DRAWS / 2
        n[i, i + 1] += PRIOR_DRAWS
        n[i + 1, i] += PRIOR_DRAWS
    fit = fit_ratings(s, n, anchor=0)
    return tuple(map(float, fit.ratings)), tuple(map(float, fit.low)), tuple(map(float, fit.high))


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("alphabeta-gym")
    except PackageNotFoundError:
        return "unknown"


# ------------------------------------------------------------------ rating a player
PlayerLike = Union[str, "os.PathLike[str]", Agent, Policy]
"""An agent spec, a weight file, an SB3 zip, an agent object or a callable policy."""


def as_agent(player: PlayerLike, game: KInARow) -> Agent:
    """The player as an agent (see :data:`PlayerLike`).

    Raises:
        ValueError: a bad spec, a zip that is no model, a missing rl extra.
        TypeError: none of the accepted kinds.
    """
    if isinstance(player, (str, os.PathLike)):
        text = os.fspath(player)
        rung = next((r for r in LADDERS.get(game_tag(game), ()) if r.name == text), None)
        if rung is not None:
            return rung.agent(game)
        if text.endswith(".zip"):
            if not Path(text).is_file():
                raise ValueError(f"policy file {text!r} does not exist")
            return PolicyAgent(sb3_policy(text), game, name=Path(text).name)
        return make_agent(text, game)
    if hasattr(player, "select_move"):
        return cast(Agent, player)
    if callable(player):
        return PolicyAgent(player, game)
    raise TypeError(f"player {player!r} is not an agent spec, a weight file, an SB3 zip, an agent or a callable policy")


def _same_rungs(agent: Agent, ladder: Ladder) -> list[int]:
    """The rungs that are ``agent`` itself (the same settings: rated against them it would only get their number back)."""
    mine = agent_settings(agent)
    if mine is None:
        return []
    return [i for i, rung in enumerate(ladder.rungs) if agent_settings(rung.agent(ladder.game, warm=False)) == mine]


def rate(player: PlayerLike, ladder: Ladder, games: int = 200, seed: int = 0, batch: int = 10,
         rungs: Optional[Sequence[str]] = None, name: Optional[str] = None) -> Rating:  # fmt: skip
    """The Elo of ``player`` on ``ladder`` from ``games`` paired games (:mod:`envs._rounds`).

    Args:
        games: games to play: an even number from 2 to :data:`envs._rounds.MAX_GAMES`.
        seed: draws the openings and seeds the agents.
        batch: pairs per round (the last round plays what is left); each round plays the rung nearest the
            current estimate, never a rung that is the player itself.
        rungs: play only these rungs (by name), in turn, instead of the adaptive choice.
        name: the label of the result (default the player's name).

    Raises:
        ValueError: a bad count, an empty or unknown rung name, or a player :func:`as_agent` refuses.
    """
    check_counts(games, batch)
    names = [r.name for r in ladder.rungs]
    if rungs is not None and (not rungs or not all(rungs)):
        raise ValueError(f"rungs {list(rungs)!r}: give rung names, from {', '.join(names)}")
    chosen = [names.index(r) if r in names else -1 for r in rungs or ()]
    if -1 in chosen:
        raise ValueError(f"unknown rung(s) {[r for r in rungs or () if r not in names]}: the ladder has {', '.join(names)}")
    agent = as_agent(player, ladder.game)
    itself = _same_rungs(agent, ladder)
    warm_up(agent, ladder.game)  # compile before the games: a player with a time budget must not spend it compiling
    count = min(games // 2, int(ladder.header["openings"]))
    openings = make_openings(ladder.game, count=count, plies=ladder.plies, seed=seed, heldout=0.0).tuning
    opponents: dict[int, Agent] = {}

    def play(rung: int, number: int, pairs: int) -> float:
        if rung not in opponents:
            opponents[rung] = ladder.rungs[rung].agent(ladder.game)
        start = (number * batch) % len(openings)
        results = play_pairs(ladder.game, agent, opponents[rung], openings[start:] + openings, pairs, seed, key=(number,))
        return float(sum(a + b for a, b in results))

    points, played = play_rounds(ladder.elo, play, games, batch, chosen, skip=itself)
    elo, low, high = fit_player(ladder.elo, points, played)
    table = tuple((names[r], ladder.elo[r], int(played[r]), float(points[r]),
                   float(played[r] * expected_score(elo - ladder.elo[r]))) for r in np.flatnonzero(played))  # fmt: skip
    note = ""
    if itself:
        same = " and ".join(f"{names[i]} ({ladder.elo[i]:+.0f})" for i in itself)
        against = ("played against itself, as asked" if set(itself) & set(chosen)
                   else "rated against the rungs asked for" if chosen else "rated against the other rungs")  # fmt: skip
        note = f"The player is the ladder's rung {same}: {against}."
    return Rating(name or str(getattr(agent, "name", "player")), elo, low, high, int(played.sum()), table, note)
