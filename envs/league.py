"""A league of frozen policy snapshots: self-play opponents sampled latest, uniformly, or by win rate.

:class:`SnapshotLeague` holds frozen policies (callables ``(observation,
action_mask) -> action``, e.g. :func:`policy_snapshot` of an SB3 model) and
their results against the learner.  ``league.opponent()`` is an agent that
any environment takes as ``opponent=`` (single, batched, SB3 adapter): at
every episode it draws a snapshot and plays it; when the game ends the env
reports the result (``observe_result``), which feeds the win rates.  Each
board of a batched env gets its own copy of the opponent (the envs copy
agents), and every copy shares the league, so snapshots added during
training reach all boards from their next episode on.

Sampling (``sampling=``):

* ``"latest"``: always the newest snapshot (plain self-play);
* ``"uniform"``: any snapshot, equally likely (fictitious self-play);
* ``"prioritised"``: snapshot ``i`` with weight ``p_i ** power``, ``p_i``
  its win rate against the learner with one win and one loss of prior
  (``(wins + draws / 2 + 1) / (games + 2)``), so the opponents the learner
  still loses to come up most: the "prioritised fictitious self-play" of
  AlphaStar (Vinyals et al., Nature 2019), ``f_hard(x) = (1 - x) ** p`` with
  ``x`` the learner's win rate.

Example:
    >>> import numpy as np
    >>> from games import TIC_TAC_TOE
    >>> league = SnapshotLeague(TIC_TAC_TOE, sampling="uniform", seed=0)
    >>> league.add(lambda obs, mask: int(np.flatnonzero(mask)[0]), name="first-legal")
    'first-legal'
    >>> league.names
    ('first-legal',)
"""

from __future__ import annotations

import copy
import inspect
from dataclasses import dataclass
from typing import Any, Callable, Optional

import numpy as np

from games import Action, KInARow, Position
from games.checks import check_int, check_seed

Policy = Callable[[np.ndarray, np.ndarray], Any]
"""``(observation int8[2, rows, cols], action_mask int8[n_actions]) -> action``, from the mover's side."""
SAMPLINGS = ("latest", "uniform", "prioritised")
"""Values of ``sampling``."""


@dataclass
class Snapshot:
    """One frozen policy of the league and its record against the learner (from the snapshot's side)."""

    name: str
    policy: Policy
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """Games played against the learner."""
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float:
        """``(wins + draws / 2 + 1) / (games + 2)``: the snapshot's score rate with a one-win, one-loss prior."""
        return (self.wins + 0.5 * self.draws + 1.0) / (self.games + 2.0)


class SnapshotLeague:
    """A pool of frozen policies for ``game`` and the sampling rule that picks each episode's opponent.

    Args:
        game: the game every snapshot plays.
        sampling: ``"latest"``, ``"uniform"`` or ``"prioritised"`` (module docstring).
        power: the exponent of prioritised sampling (larger: harder opponents more often).
        capacity: keep at most this many snapshots (the oldest goes first); None keeps all.
        seed: seeds the draws of :meth:`sample` (each env copy of :meth:`opponent` reseeds its own).

    Raises:
        ValueError: an unknown ``sampling``, a negative ``power`` or a ``capacity`` below 1.
    """

    def __init__(self, game: KInARow, *, sampling: str = "prioritised", power: float = 2.0,
                 capacity: Optional[int] = None, seed: Optional[int] = None) -> None:  # fmt: skip
        if sampling not in SAMPLINGS:
            raise ValueError(f"sampling={sampling!r} is not allowed: use one of {', '.join(map(repr, SAMPLINGS))}")
        if isinstance(power, bool) or not isinstance(power, (int, float)) or not 0 <= power < float("inf"):
            raise ValueError(f"power={power!r} must be a finite number >= 0")
        self.game = game
        self.sampling = sampling
        self.power = float(power)
        self.capacity = None if capacity is None else check_int("capacity", capacity, low=1)
        self.snapshots: list[Snapshot] = []
        self._rng = np.random.default_rng(check_seed(seed))

    @property
    def names(self) -> tuple[str, ...]:
        """The snapshots' names, oldest first."""
        return tuple(s.name for s in self.snapshots)

    def add(self, policy: Policy, name: Optional[str] = None) -> str:
        """Add a frozen policy (the newest); returns its name (``snapshot-<n>`` if none is given).

        Raises:
            ValueError: ``policy`` is not callable, or the name is taken.
        """
        if not callable(policy):
            raise ValueError(f"policy {policy!r} is not callable: give a function (observation, action_mask) -> action")
        name = name if name is not None else f"snapshot-{len(self.snapshots)}"
        if name in self.names:
            raise ValueError(f"a snapshot named {name!r} is already in the league: {', '.join(self.names)}")
        self.snapshots.append(Snapshot(name, policy))
        if self.capacity is not None and len(self.snapshots) > self.capacity:
            self.snapshots.pop(0)
        return name

    def weights(self) -> np.ndarray:
        """float64[len(snapshots)]: the probability of drawing each snapshot, oldest first."""
        n = len(self.snapshots)
        if self.sampling == "latest":
            weights = np.zeros(n)
            weights[-1] = 1.0
        elif self.sampling == "uniform":
            weights = np.ones(n)
        else:
            weights = np.array([s.win_rate for s in self.snapshots]) ** self.power
        probabilities: np.ndarray = weights / weights.sum()
        return probabilities

    def sample(self, rng: Optional[np.random.Generator] = None) -> Snapshot:
        """Draw one snapshot by the league's rule (from ``rng``, else the league's own generator).

        Raises:
            ValueError: the league is empty.
        """
        if not self.snapshots:
            raise ValueError("the league is empty: add() a policy (a frozen snapshot or a fixed player) first")
        rng = rng if rng is not None else self._rng
        return self.snapshots[int(rng.choice(len(self.snapshots), p=self.weights()))]

    def record(self, name: str, score: float) -> None:
        """Count a game of snapshot ``name`` against the learner: ``score`` 1 (it won), 0.5 or 0, from its side.

        A snapshot already dropped for capacity is ignored (its games were in flight).
        """
        for snapshot in self.snapshots:
            if snapshot.name == name:
                if score == 1.0:
                    snapshot.wins += 1
                elif score == 0.0:
                    snapshot.losses += 1
                else:
                    snapshot.draws += 1
                return

    def table(self) -> str:
        """A Markdown table: each snapshot's games, record and win rate against the learner (from the snapshot's
        side: its wins are the learner's losses), and its sampling probability."""
        rows = ["| snapshot | games | snapshot's W / D / L vs the learner | snapshot's win rate | p(sample) |",
                "| --- | ---: | ---: | ---: | ---: |"]  # fmt: skip
        for snapshot, p in zip(self.snapshots, self.weights() if self.snapshots else []):
            rows.append(f"| {snapshot.name} | {snapshot.games} | {snapshot.wins} / {snapshot.draws} / {snapshot.losses} "
                        f"| {snapshot.win_rate:.2f} | {p:.2f} |")  # fmt: skip
        return "\n".join(rows)

    def opponent(self) -> LeagueOpponent:
        """An agent for ``opponent=``: a snapshot per episode, results back into this league."""
        return LeagueOpponent(self)


class LeagueOpponent:
    """The league as an environment's opponent (see the module docstring); copies share the league.

    Args:
        league: the league to draw from and report to.
    """

    def __init__(self, league: SnapshotLeague) -> None:
        self.league = league
        self.game = league.game
        self.name = "league"
        self.current: Optional[Snapshot] = None
        self._rng = np.random.default_rng()

    def seed(self, seed: Optional[int]) -> None:
        """Reseed this copy's draws (the env does so at every episode)."""
        self._rng = np.random.default_rng(check_seed(seed))

    def reset(self) -> None:
        """A new game: draw its snapshot."""
        self.current = self.league.sample(self._rng)

    def select_move(self, position: Position) -> Action:
        """The current snapshot's move, shown the board from the mover's side with its legal mask."""
        if self.current is None:
            self.reset()
        assert self.current is not None
        return int(np.asarray(self.current.policy(position.planes(), position.legal_mask())).item())

    def observe_result(self, score: float) -> None:
        """The env's report at the end of a game: ``score`` from this opponent's side."""
        if self.current is not None:
            self.league.record(self.current.name, score)

    def __deepcopy__(self, memo: dict[int, Any]) -> LeagueOpponent:
        # A batched env copies its opponent per board: the copies must share the league, not clone it.
        other = LeagueOpponent(self.league)
        other._rng = copy.deepcopy(self._rng, memo)
        return other


def policy_snapshot(model: Any, deterministic: bool = True) -> Policy:
    """A frozen copy of an SB3 model's policy as a league policy (masked if the policy takes masks).

    Args:
        model: an SB3 or sb3-contrib model (``model.policy`` with ``predict``), e.g. ``MaskablePPO``.
        deterministic: play the policy's most likely legal action (else sample it, with torch's generator).
    """
    # A new policy with copied weights: deepcopy of a live policy fails on non-leaf tensors (torch refuses them).
    source = model.policy
    policy = type(source)(**source._get_constructor_parameters()).to(source.device)
    policy.load_state_dict(copy.deepcopy(source.state_dict()))
    policy.set_training_mode(False)
    masked = "action_masks" in inspect.signature(policy.predict).parameters

    def play(observation: np.ndarray, mask: np.ndarray) -> int:
        if masked:
            action, _ = policy.predict(observation, deterministic=deterministic, action_masks=mask.astype(bool))
        else:
            action, _ = policy.predict(observation, deterministic=deterministic)
        move = int(np.asarray(action).item())
        return move if mask[move] else int(np.flatnonzero(mask)[0])  # an unmasked policy may pick a full column

    return play


__all__ = ["LeagueOpponent", "SAMPLINGS", "Snapshot", "SnapshotLeague", "policy_snapshot"]
