"""The tuner's progress bar and status lines, with an ETA from the observed cost of trials.

A trial's cost is not known in advance: the pruner stops most trials after a
fraction of their pairs, so a bar whose total is "every pair of every trial"
starts at hours and shrinks as trials are pruned.  :class:`Progress` instead
times the trials themselves (pruned ones included) and estimates what is left
as ``trials left x mean seconds per trial`` plus the games after the search
(the confirmation, the incumbent test) at the observed games per second.
Until :data:`ETA_AFTER_TRIALS` trials have finished it shows trials done and
left and games/s, and no time.

With a ``timeout`` (``--timeout``: no trial starts after it), the trials left
are those the time left has room for at the mean cost of a trial, and the
bar's total follows them: it plans the games those trials play (at the mean
games of a trial) and the games after the search, so it reaches 100% when
the run ends, not when a plan for trials that will never start runs out.

Example:
    >>> clock = iter(range(0, 1000, 10)).__next__  # a clock that ticks 10 s per reading
    >>> bar = Progress(total=100, enabled=False, trials=5, clock=clock)
    >>> bar.eta() is None
    True
    >>> for _ in range(3):
    ...     bar.advance(4)
    ...     bar.trial_done()
    >>> bar.status()
    'trials 3/5, 0.3 games/s, ETA 0:00:20'
"""

from __future__ import annotations

import math
import sys
import time
from datetime import timedelta
from typing import Any, Callable, Optional

ETA_AFTER_TRIALS = 3
"""Finished trials before the bar shows a time left (before that: trials done and left, games/s)."""


def say(message: str) -> None:
    """A status line on stderr (stdout keeps the results)."""
    print(f"tuning.run: {message}", file=sys.stderr, flush=True)


class Progress:
    """A tqdm bar over games, with trials done/left, games/s and an ETA from the trials' observed cost.

    A no-op display without tqdm or with ``enabled=False`` (the counts and the ETA still work).

    Args:
        total: games planned (every pair of every trial left, then the games after the search).
        enabled: draw the bar.
        trials: trials this run plays.
        tail: games after the search (confirmation, incumbent test), planned at the observed games/s.
        clock: seconds (``time.perf_counter``; a test passes a fake).
    """

    def __init__(self, total: int, enabled: bool, trials: int = 0, tail: int = 0,
                 clock: Callable[[], float] = time.perf_counter, timeout: Optional[float] = None) -> None:  # fmt: skip
        self._bar: Any = None
        self._clock = clock
        self.games = 0
        self.trials, self.tail, self.timeout = trials, tail, timeout
        self.trial_seconds: list[float] = []
        self.trial_games: list[int] = []
        self._games_at_trial = 0
        self.started = self._trial_started = clock()
        self._note = ""
        self._tail_from: Optional[int] = None  # games played when the search ended
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                return
            self._bar = tqdm(total=total, unit="game", dynamic_ncols=True, file=sys.stderr,
                             bar_format="{percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} games [{elapsed}{postfix}]")  # fmt: skip
            self._bar.set_postfix_str(self.status(), refresh=False)

    def advance(self, games: int, note: str = "") -> None:
        """Count finished games."""
        self.games += games
        self._note = note or self._note
        if self._bar is not None:
            self._bar.update(games)
            self._bar.set_postfix_str(self.status() + (f", {self._note}" if self._note else ""), refresh=False)

    def trial_done(self) -> None:
        """A trial finished (completed or pruned): its wall time and games are one sample of a trial's cost."""
        now = self._clock()
        self.trial_seconds.append(now - self._trial_started)
        self.trial_games.append(self.games - self._games_at_trial)
        self._trial_started, self._games_at_trial = now, self.games
        if self._bar is not None and self._tail_from is None and len(self.trial_seconds) >= ETA_AFTER_TRIALS:
            # plan the trials the time left has room for, at the mean games of a trial, then the tail
            mean_games = sum(self.trial_games) / len(self.trial_games)
            self._bar.total = max(self._bar.n, self.games + round(self.trials_left() * mean_games) + self.tail)
            self._bar.refresh()

    def trials_left(self) -> int:
        """Trials still to play: those planned, or fewer when the timeout leaves room for fewer (at the mean cost
        of a trial so far; the trial under way counts as one)."""
        done = len(self.trial_seconds)
        left = max(0, self.trials - done)
        if self.timeout is None or not done or not left:
            return left
        mean = sum(self.trial_seconds) / done
        room = self.timeout - (self._clock() - self.started)
        return min(left, max(0, math.ceil(room / mean)) if mean > 0 else left)

    def trial_started(self) -> None:
        """A trial starts now (time spent between trials, e.g. by the sampler, is charged to it)."""
        self._trial_started = self._clock()

    @property
    def rate(self) -> float:
        """Games per second so far."""
        return self.games / max(self._clock() - self.started, 1e-9)

    def eta(self) -> Optional[float]:
        """Seconds left, or None until :data:`ETA_AFTER_TRIALS` trials have finished (or no game was played)."""
        done = len(self.trial_seconds)
        left = self.trials_left() if self._tail_from is None else 0
        if left and done < ETA_AFTER_TRIALS:
            return None
        search = left * sum(self.trial_seconds) / done if left else 0.0
        tail = self.tail - (self.games - self._tail_from if self._tail_from is not None else 0)
        if tail <= 0:
            return search
        return None if self.games == 0 else search + tail / self.rate

    def status(self) -> str:
        """``trials 3/60, 21.4 games/s, ETA 0:04:10`` (no ETA before it means something)."""
        eta = self.eta()
        when = f"ETA {timedelta(seconds=round(eta))}" if eta is not None else f"ETA after {ETA_AFTER_TRIALS} trials"
        done = len(self.trial_seconds)
        planned = self.trials if self._tail_from is not None or done < ETA_AFTER_TRIALS else done + self.trials_left()
        cut = f" (--timeout leaves room for {planned})" if planned < self.trials else ""
        return f"trials {done}/{self.trials}{cut}, {self.rate:.1f} games/s, {when}"

    def shrink(self, games: int) -> None:
        """Take ``games`` that will not be played (a pruned trial's rest) off the total, so the bar ends at 100%."""
        if self._bar is not None and games > 0:
            self._bar.total = max(self._bar.n, self._bar.total - games)
            self._bar.refresh()

    def replan(self, games: int) -> None:
        """The search is over: from now on, ``games`` more are expected (the tail)."""
        self.trials = len(self.trial_seconds)
        self.tail, self._tail_from = games, self.games
        if self._bar is not None:
            self._bar.total = self._bar.n + games
            self._bar.refresh()

    def abandon(self) -> None:
        """The run stops early (Ctrl-C, SIGTERM, an error): end the bar's line where it is, so the next message
        starts on a line of its own instead of being glued to the bar."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def close(self) -> None:
        """Finish the bar at what was played (a timeout or an early stop is not shown as a stall)."""
        if self._bar is not None:
            self._bar.total = self._bar.n
            self._bar.refresh()
            self._bar.close()
