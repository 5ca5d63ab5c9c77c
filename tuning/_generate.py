"""Generation of a label set: self-play games in parallel, each position once up to symmetry, a held-out split.

Private to :mod:`tuning.labels` and the tuner.  Game ``n`` is played and
labelled by a worker from ``numpy.random.default_rng((seed, n))`` alone
(:meth:`tuning.label_sources.LabelSource.label_game`), and the parent takes
the games' rows in game order, dropping a position seen before (up to the
board's symmetries).  So a seed and a count give the same set for any
number of workers; a time budget stops after the games finished in time.

The held-out split: the last ``heldout`` share of the rows, moved back to the
start of a game, so no game gives positions to both parts and held-out
positions are not near-copies of training ones.

Budget of the exact solver (measured on this project's machine, Connect-4
6x7, self-play positions, strong solve of all moves, table kept across a
game's positions solved from the last one back, on the shared 2-core machine
under load): ply 6-7 about 2-4 s (idle) and more, ply 8 2.4 s on average (21
s at worst), ply 9 1.2 s, ply 10 0.4 s, ply 11-12 0.2 s, ply 13 and later
under 0.05 s; ply 5 and below takes minutes.  So Connect-4 6x7 positions start
at ``min_ply`` 8, and plies 8 and 9 are labelled in only a tenth of the games.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Callable, Iterator, Optional

from games import KInARow
from tuning.label_sources import LabelSource, Row
from tuning.openings import canonical_key

STALE_GAMES = 5000
"""Generation stops after this many games in a row without a new position (the game has no more to give)."""
PROGRESS_SECONDS = 5.0
"""Seconds between two progress lines."""


@dataclass(frozen=True)
class _Task:
    source: LabelSource
    game: KInARow
    seed: int
    number: int


def _label(task: _Task) -> list[Row]:
    return task.source.label_game(task.game, task.seed, task.number)


def _games(workers: int, tasks: Iterator[_Task]) -> Iterator[list[Row]]:
    """Each task's rows in task order, from a pool of ``workers`` processes (in this process for one)."""
    if workers <= 1:
        yield from map(_label, tasks)
        return
    from tuning.match import _spawn_pool  # the match runner's pool: workers ignore Ctrl-C, the parent stops them

    pool = _spawn_pool(workers)
    try:
        while wave := list(itertools.islice(tasks, 2 * workers)):
            yield from pool.imap(_label, wave)
    finally:
        pool.terminate()
        pool.join()


@dataclass
class Generated:
    """A generated set: rows in game order, the held-out count, and the header's record of how it was made."""

    rows: list[Row]
    heldout: int
    header: dict[str, Any]


def split_point(rows: list[Row], heldout: float) -> int:
    """How many rows train: about ``1 - heldout`` of them, at the game boundary nearest to that share (a set of
    one game is cut where the share falls)."""
    if not rows or heldout <= 0:
        return len(rows)
    wanted = len(rows) - max(1, round(len(rows) * heldout))
    boundaries = [i for i in range(1, len(rows)) if rows[i - 1].game != rows[i].game]
    return min(boundaries, key=lambda i: (abs(i - wanted), i)) if boundaries else wanted


def generate(game: KInARow, source: LabelSource, *, count: Optional[int], seconds: Optional[float], seed: int,
             heldout: float = 0.2, workers: int = 1,
             report: Optional[Callable[[str], None]] = None) -> Generated:  # fmt: skip
    """Label up to ``count`` distinct positions, or as many as ``seconds`` allow (at least one limit is given).

    Stops early, with fewer rows, once :data:`STALE_GAMES` games in a row bring no new position (tiny games).
    ``report`` receives a progress line with an ETA every few seconds.
    """
    assert count is not None or seconds is not None
    started = time.perf_counter()
    deadline = started + seconds if seconds is not None else None
    seen: set[bytes] = set()
    rows: list[Row] = []
    games, stale, last = 0, 0, started

    def wanted() -> bool:
        in_time = deadline is None or time.perf_counter() < deadline
        return in_time and (count is None or len(rows) < count) and stale < STALE_GAMES

    tasks = (_Task(source, game, seed, n) for n in itertools.takewhile(lambda _: wanted(), itertools.count()))
    for labelled in _games(workers, tasks):
        fresh = []
        for row in labelled:
            key = canonical_key(game.position(row.moves))
            if key not in seen:
                seen.add(key)
                fresh.append(row)
        if count is not None:
            fresh = fresh[: max(0, count - len(rows))]
        rows.extend(fresh)
        games, stale = games + 1, 0 if fresh else stale + 1
        now = time.perf_counter()
        if report is not None and now - last >= PROGRESS_SECONDS:
            last = now
            report(_progress(len(rows), count, games, now - started, seconds))
        if not wanted():
            break
    elapsed = time.perf_counter() - started
    if report is not None:
        report(f"labelled {len(rows):,} positions from {games:,} games in {timedelta(seconds=round(elapsed))}")
    train = split_point(rows, heldout)
    rows, found = source.finish(rows, train)
    header = {"game": game.to_record(), "count": len(rows), "heldout": len(rows) - train, "seed": seed,
              "games": games, "source": {**source.settings(), **found},
              "dedup": "board symmetries (tuning.openings.canonical_key)"}  # fmt: skip
    return Generated(rows, len(rows) - train, header)


def _progress(done: int, count: Optional[int], games: int, elapsed: float, seconds: Optional[float]) -> str:
    """``labels: 1,200 of 3,000 positions (40%), 310 games, 0:01:02, ETA 0:01:33``."""
    left = []
    if count is not None and done:
        left.append(elapsed * (count - done) / done)
    if seconds is not None:
        left.append(max(0.0, seconds - elapsed))
    of = f" of {count:,}" if count is not None else ""
    share = f" ({done / count:.0%})" if count else ""
    eta = f", ETA {timedelta(seconds=round(min(left)))}" if left else ""
    return f"labels: {done:,}{of} positions{share}, {games:,} games, {timedelta(seconds=round(elapsed))}{eta}"
