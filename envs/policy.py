"""A frozen torch policy as an opponent: every pending board in one forward pass, illegal moves masked.

Example (any ``torch.nn.Module`` mapping float observations
``[m, 2, rows, cols]`` to logits ``[m, n_actions]``, or an SB3 policy or
model)::

    net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(2 * 6 * 7, 7))
    env = gym.make_vec("alphabeta/Connect4-v0", num_envs=256, vectorization_mode="vector_entry_point",
                       opponent=PolicyOpponent(net))

torch is imported lazily: only building a :class:`PolicyOpponent` needs it.
The policy sees each board from its own side (plane 0 its stones), as the
agent sees the board from the agent's side, so a snapshot of the agent's
own policy plays the other side unchanged.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from envs.batched import BatchOpponent


def _torch() -> Any:
    try:
        import torch
    except ImportError as exc:  # pragma: no cover - torch is a dependency of the rl extra
        raise ImportError("PolicyOpponent needs torch (pip install -e '.[rl]')") from exc
    return torch


def is_torch_policy(obj: object) -> bool:
    """True for a ``torch.nn.Module`` or an SB3 model holding one (without importing torch if it is not loaded)."""
    import sys

    torch = sys.modules.get("torch")
    if torch is None:
        return False
    return isinstance(obj, torch.nn.Module) or isinstance(getattr(obj, "policy", None), torch.nn.Module)


class PolicyOpponent(BatchOpponent):
    """Replies of a frozen policy: masked logits, then the best move (or a seeded sample).

    Args:
        policy: a ``torch.nn.Module`` from float32 observations ``[m, 2, rows,
            cols]`` to logits ``[m, n_actions]``; an SB3 policy (anything with
            ``get_distribution`` and ``obs_to_tensor``: its own preprocessing,
            dict observations when its observation space is a Dict); or an SB3
            model (its ``.policy``).
        deterministic: play the highest masked logit (ties: the lowest
            action); False samples from the masked softmax with a generator
            per board, reseeded every episode by the environment.
        name: a label for messages.

    Raises:
        TypeError: ``policy`` is not a torch module or an SB3 model.
    """

    def __init__(self, policy: Any, *, deterministic: bool = True, name: Optional[str] = None) -> None:
        torch = _torch()
        module = policy.policy if not isinstance(policy, torch.nn.Module) and hasattr(policy, "policy") else policy
        if not isinstance(module, torch.nn.Module):
            raise TypeError(f"policy={policy!r} is not a torch.nn.Module or an SB3 model")
        if not isinstance(deterministic, bool):
            raise ValueError(f"deterministic={deterministic!r} must be True or False")
        self.module = module
        self.deterministic = deterministic
        self.name = name or f"policy-{type(module).__name__}"
        self._sb3 = hasattr(module, "get_distribution") and hasattr(module, "obs_to_tensor")
        self.generators: dict[int, np.random.Generator] = {}

    def new_episodes(self, boards: np.ndarray, seeds: Sequence[int]) -> None:
        """Reseed the sampling generators of ``boards`` (used only when not deterministic)."""
        for b, seed in zip(np.asarray(boards).tolist(), seeds):
            self.generators[b] = np.random.default_rng(seed)

    def logits(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """float64[m, n_actions]: the policy's logits for the boards, ``-inf`` where illegal (one forward pass)."""
        torch = _torch()
        with torch.no_grad():
            if self._sb3:
                space = getattr(self.module, "observation_space", None)
                spaces = getattr(space, "spaces", None)
                given: Any = {"observation": obs, "action_mask": masks} if spaces is not None else obs
                tensor, _ = self.module.obs_to_tensor(given)
                raw = self.module.get_distribution(tensor).distribution.logits
            else:
                raw = self.module(torch.as_tensor(obs, dtype=torch.float32))
        logits = np.array(raw.detach().cpu().numpy(), dtype=np.float64).reshape(masks.shape)
        logits[masks == 0] = -np.inf
        return logits

    def reply_batch(self, obs: np.ndarray, masks: np.ndarray, boards: np.ndarray) -> np.ndarray:
        """The policy's moves for all pending boards (see :class:`envs.batched.BatchOpponent`)."""
        logits = self.logits(obs, masks)
        if not self.deterministic:  # Gumbel-max: argmax(logits + Gumbel noise) samples the softmax
            for j, b in enumerate(np.asarray(boards).tolist()):
                generator = self.generators.setdefault(b, np.random.default_rng(b))
                logits[j] -= np.log(-np.log(generator.random(logits.shape[1])))
        replies: np.ndarray = np.argmax(logits, axis=1).astype(np.int64)
        return replies

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """One board: the move :meth:`reply_batch` would choose (a callable opponent for a single env)."""
        return int(self.reply_batch(observation[None], action_mask[None], np.zeros(1, dtype=np.int64))[0])
