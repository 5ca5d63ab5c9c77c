"""The pieces of ``scripts/train_league.py``: the CNN, the league opponent that answers all boards, the curriculum.

* :class:`BoardCNN`: an SB3 features extractor for the ``(2, rows, cols)``
  planes (SB3's ``NatureCNN`` wants images of at least 36x36 pixels).
* :class:`LeagueBatch`: one :class:`envs.batched.BatchOpponent` for every
  board of the batched env that draws, per board and per episode, which
  member of the league answers it (fixed rungs searched in one numba call
  per rung, frozen snapshots of the learner in one forward pass each), with
  weights the curriculum may change between any two steps.  One dispatcher
  instead of ``opponent=[...]`` because a list fixes each board's opponent
  until a reset of every board.
* :class:`LeagueVecEnv`: an SB3 wrapper that counts each member's results
  against the learner and, with ``mirror``, shows every other episode
  left-right mirrored (the augmentation is exact: Connect-4's rules are
  mirror-symmetric).
* :class:`Curriculum`: which rungs the league plays, moved up as the
  learner's win rate against the top rung rises.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper

from envs.batched import AlphaBetaBatch, BatchOpponent
from envs.policy import PolicyOpponent
from games import KInARow
from search.agents import AlphaBetaAgent, make_agent


class BoardCNN(BaseFeaturesExtractor):
    """Same-size 3x3 convolutions over the board planes, then one dense layer of ``features_dim`` units.

    Args:
        observation_space: ``Box(0, 1, (2, rows, cols))``.
        channels: filters of every convolution.
        layers: number of convolutions (the receptive field is ``2 * layers + 1`` cells: 3 covers a line of 4).
        features_dim: units of the dense layer.
    """

    def __init__(self, observation_space: spaces.Box, channels: int = 64, layers: int = 3, features_dim: int = 256) -> None:
        super().__init__(observation_space, features_dim)
        planes, rows, cols = observation_space.shape
        convs: list[torch.nn.Module] = []
        for i in range(layers):
            convs += [torch.nn.Conv2d(planes if i == 0 else channels, channels, 3, padding=1), torch.nn.ReLU()]
        self.net = torch.nn.Sequential(*convs, torch.nn.Flatten(),
                                       torch.nn.Linear(channels * rows * cols, features_dim), torch.nn.ReLU())  # fmt: skip

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        """Features of a batch of observations ``[m, 2, rows, cols]`` (floats)."""
        out: torch.Tensor = self.net(observations)
        return out


class _RandomBatch(BatchOpponent):
    """Uniformly random legal replies, one generator per board reseeded every episode."""

    name = "random"

    def __init__(self, n: int) -> None:
        self.generators = [np.random.default_rng(b) for b in range(n)]

    def new_episodes(self, boards: np.ndarray, seeds: Sequence[int]) -> None:
        """Reseed the boards' generators."""
        for b, seed in zip(np.asarray(boards).tolist(), seeds):
            self.generators[b] = np.random.default_rng(seed)

    def reply_batch(self, obs: np.ndarray, masks: np.ndarray, boards: np.ndarray) -> np.ndarray:
        """A random legal move per board."""
        replies = np.zeros(len(boards), dtype=np.int64)
        for j, b in enumerate(np.asarray(boards).tolist()):
            legal = np.flatnonzero(masks[j])
            replies[j] = legal[int(self.generators[b].integers(len(legal)))]
        return replies


def rung_opponent(spec: str, game: KInARow, n: int) -> BatchOpponent:
    """A fixed rung for ``n`` boards: ``random`` or an alpha-beta spec with a depth or node budget (batched search).

    Raises:
        ValueError: a spec that is neither (the batched search cannot take it).
    """
    if spec == "random":
        return _RandomBatch(n)
    agent = make_agent(spec, game)
    if not isinstance(agent, AlphaBetaAgent) or not AlphaBetaBatch.supports(agent):
        raise ValueError(f"rung {spec!r} is not 'random' or an alpha-beta spec with a depth or node budget")
    # Serial kernel: a depth-2 search costs microseconds a board, far less than the policy's forward pass, and the
    # parallel kernel is not cached (15-30 s of compilation out of the training budget).
    return AlphaBetaBatch(agent, n, parallel=False)


class LeagueBatch(BatchOpponent):
    """Every board's opponent: at each episode a member drawn by weight, the board's replies then come from it.

    Args:
        n: number of boards.
        seed: seeds the draws of members.
        opening_random: chance that an episode's first opponent move is uniformly random (more varied games; after
            the env's random opening, if it plays one).
    """

    name = "league"

    def __init__(self, n: int, seed: int, opening_random: float = 0.0) -> None:
        self.n = n
        self.members: list[BatchOpponent] = []
        self.names: list[str] = []
        self.weights = np.zeros(0)
        self.assigned = np.zeros(n, dtype=np.int64)
        self.moves = np.zeros(n, dtype=np.int64)
        self.opening_random = opening_random
        self._rng = np.random.default_rng(seed)
        self._random = _RandomBatch(n)

    def add(self, name: str, member: BatchOpponent, weight: float = 0.0) -> None:
        """Add a member (answering boards by their env index) with a sampling weight."""
        self.members.append(member)
        self.names.append(name)
        self.weights = np.append(self.weights, weight)

    def set_weights(self, weights: dict[str, float]) -> None:
        """New sampling weights by member name (members not named get 0); they apply from the next episodes."""
        self.weights = np.array([weights.get(name, 0.0) for name in self.names], dtype=np.float64)

    def new_episodes(self, boards: np.ndarray, seeds: Sequence[int]) -> None:
        """Draw each board's member and pass the seeds on to the members drawn."""
        boards = np.asarray(boards, dtype=np.int64)
        chosen = self._rng.choice(len(self.members), size=boards.size, p=self.weights / self.weights.sum())
        self.assigned[boards] = chosen
        self.moves[boards] = 0
        self._random.new_episodes(boards, seeds)
        for m in np.unique(chosen).tolist():
            mine = chosen == m
            self.members[m].new_episodes(boards[mine], [s for s, keep in zip(seeds, mine) if keep])

    def reply_batch(self, obs: np.ndarray, masks: np.ndarray, boards: np.ndarray) -> np.ndarray:
        """Each pending board's move from its member (grouped: one call per member)."""
        boards = np.asarray(boards, dtype=np.int64)
        replies = np.zeros(boards.size, dtype=np.int64)
        opening = (self.moves[boards] == 0) & (self._rng.random(boards.size) < self.opening_random)
        if opening.any():
            replies[opening] = self._random.reply_batch(obs[opening], masks[opening], boards[opening])
        who = np.where(opening, -1, self.assigned[boards])
        for m in np.unique(who[who >= 0]).tolist():
            mine = who == m
            replies[mine] = self.members[m].reply_batch(obs[mine], masks[mine], boards[mine])
        self.moves[boards] += 1
        return replies


class LeagueVecEnv(VecEnvWrapper):
    """Counts the learner's results per league member; with ``mirror``, odd episodes of each board are mirrored.

    Args:
        venv: the SB3 adapter whose opponent is ``league``.
        league: the dispatcher answering every board.
        mirror: show boards left-right mirrored on every other episode (actions mapped back before they are played).
    """

    def __init__(self, venv: VecEnv, league: LeagueBatch, mirror: bool) -> None:
        super().__init__(venv)
        self.league = league
        self.mirror = mirror
        self.flipped = np.zeros(venv.num_envs, dtype=bool)
        self.results: dict[str, list[int]] = {}  # member name -> [wins, draws, losses] since the last take_results()
        self._assigned = league.assigned.copy()

    def _flip(self, obs: np.ndarray, which: np.ndarray) -> np.ndarray:
        obs = obs.copy()
        obs[which] = obs[which][..., ::-1]
        return obs

    def reset(self) -> Any:
        """Reset every board (episode parity restarts: no board is mirrored first)."""
        self.flipped[:] = False
        return self.venv.reset()

    def step_async(self, actions: np.ndarray) -> None:
        """Map mirrored boards' actions back (column ``c`` is ``cols - 1 - c``) and remember who answers each board."""
        actions = np.asarray(actions).reshape(-1).astype(np.int64)
        cols = self.venv.action_space.n  # type: ignore[attr-defined]
        actions = np.where(self.flipped, cols - 1 - actions, actions)
        self._assigned = self.league.assigned.copy()  # finished boards are redrawn inside the step
        self.venv.step_async(actions)

    def step_wait(self) -> tuple[Any, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Step, count finished games per member, flip what mirrored boards show."""
        obs, rewards, dones, infos = self.venv.step_wait()
        for i in np.flatnonzero(dones).tolist():
            counts = self.results.setdefault(self.league.names[self._assigned[i]], [0, 0, 0])
            counts[0 if rewards[i] > 0 else 1 if rewards[i] == 0 else 2] += 1
            if self.flipped[i]:
                infos[i]["terminal_observation"] = infos[i]["terminal_observation"][..., ::-1].copy()
        if self.mirror:
            self.flipped[dones] = ~self.flipped[dones]
        return self._flip(obs, self.flipped), rewards, dones, infos

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        """``action_masks`` as the learner sees the boards (mirrored rows flipped); other methods pass through."""
        if method_name == "action_masks" and indices is None:
            masks = self.venv.env_method("action_masks")
            return [m[::-1].copy() if f else m for m, f in zip(masks, self.flipped.tolist())]
        return self.venv.env_method(method_name, *method_args, indices=indices, **method_kwargs)

    def take_results(self) -> dict[str, list[int]]:
        """The counts since the last call (and start counting afresh)."""
        results, self.results = self.results, {}
        return results


@dataclass
class Curriculum:
    """Rungs weakest first; the league plays rungs up to ``level`` and the learner's snapshots.

    The top rung unlocked gets ``top`` of the weight, the weaker unlocked rungs
    share ``rest``, the snapshots share what is left.  The games against the
    top rung are judged in blocks of at least ``min_games`` (then counted
    afresh, so early losses do not hold a learner back): ``level`` moves up
    when a block scores at least ``promote``.
    """

    rungs: tuple[str, ...]
    level: int = 0
    top: float = 0.7
    rest: float = 0.1
    promote: float = 0.55
    min_games: int = 200
    tally: list[int] = field(default_factory=lambda: [0, 0, 0])
    last_score: float = float("nan")

    def weights(self, snapshots: Sequence[str]) -> dict[str, float]:
        """Sampling weights by member name for the current level."""
        below = self.rungs[: self.level]
        top = self.top if snapshots else self.top + (1.0 - self.top - (self.rest if below else 0.0))
        weights = {self.rungs[self.level]: top}
        for name in below:
            weights[name] = self.rest / len(below)
        left = 1.0 - sum(weights.values())
        for name in snapshots:
            weights[name] = left / len(snapshots)
        return weights

    def update(self, results: dict[str, list[int]]) -> Optional[str]:
        """Add the top rung's new results; returns the new top rung's name when the level moves up."""
        wins, draws, losses = results.get(self.rungs[self.level], [0, 0, 0])
        self.tally = [self.tally[0] + wins, self.tally[1] + draws, self.tally[2] + losses]
        games = sum(self.tally)
        if games < self.min_games:
            return None
        self.last_score = (self.tally[0] + 0.5 * self.tally[1]) / games
        self.tally = [0, 0, 0]
        if self.level + 1 < len(self.rungs) and self.last_score >= self.promote:
            self.level += 1
            self.last_score = float("nan")
            return self.rungs[self.level]
        return None

    def score(self) -> float:
        """The learner's score rate against the top rung in the last block judged (nan before one)."""
        return self.last_score


def snapshot_member(model: Any) -> PolicyOpponent:
    """A frozen copy of the learner's policy answering boards in one forward pass (sampled, seeded per board)."""
    source = model.policy
    policy = type(source)(**source._get_constructor_parameters()).to(source.device)
    policy.load_state_dict({k: v.clone() for k, v in source.state_dict().items()})
    policy.set_training_mode(False)
    return PolicyOpponent(policy, deterministic=False, name="snapshot")
