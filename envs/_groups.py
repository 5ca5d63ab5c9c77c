"""Boards grouped by opponent: which :class:`envs.batched.BatchOpponent` answers which board.

:func:`build_groups` turns ``opponent=`` (one opponent for every board, or a
list with one per board: a league) into groups; :class:`envs._batch.BoardBatch`
calls each group once per step with its pending boards.  Boards whose
opponents cannot be batched (rules, minimax, perfect, time-budget alpha-beta,
agent objects, callables) share one :class:`PerBoard` group that asks each
board's own copy in Python, as before batching.  With a mix of opponents the
built-in random player's boards get a :class:`KernelRandom` group drawing
exactly what the kernel would have drawn.
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple, Optional, Sequence

import numpy as np

from envs import _kernels as K
from envs.batched import AlphaBetaBatch, BatchOpponent
from envs.opponents import Opponent, resolve_opponent
from envs.policy import PolicyOpponent, is_torch_policy
from games import KInARow


class PerBoard(BatchOpponent):
    """Each board's own :class:`envs.opponents.Opponent`, asked one by one in Python."""

    def __init__(self, opponents: list[Opponent]) -> None:
        self.opponents = opponents
        self.name = opponents[0].name
        self.stats: list[Optional[dict[str, Any]]] = [None] * len(opponents)

    def new_episodes(self, boards: np.ndarray, seeds: Sequence[int]) -> None:
        """Reseed and reset each board's opponent."""
        for b, seed in zip(np.asarray(boards).tolist(), seeds):
            self.stats[b] = None
            self.opponents[b].new_episode(seed)

    def observe_moves(self, boards: np.ndarray, actions: np.ndarray) -> None:
        """The agent's moves: agents follow the game on their own position."""
        for b, action in zip(np.asarray(boards).tolist(), actions.tolist()):
            self.opponents[b].observe_move(action)

    def reply_batch(self, obs: np.ndarray, masks: np.ndarray, boards: np.ndarray) -> np.ndarray:
        """Ask each board's opponent (checked for legality by :meth:`Opponent.reply`)."""
        replies = np.zeros(len(boards), dtype=np.int64)
        for j, b in enumerate(np.asarray(boards).tolist()):
            replies[j] = self.reply_one(b, obs[j], masks[j].copy())
        return replies

    def reply_one(self, b: int, obs: np.ndarray, mask: np.ndarray) -> int:
        """Board ``b``'s opponent's move (``obs`` from its side, ``mask`` a copy it may keep); it follows the move."""
        opponent = self.opponents[b]
        reply = opponent.reply(obs, mask)
        opponent.observe_move(reply)
        self.stats[b] = opponent.search_stats()
        return reply


class KernelRandom(BatchOpponent):
    """The built-in random player on some boards of a mixed batch: the kernel's own draw from the board's state."""

    name = "random"

    def __init__(self, rng: np.ndarray, mask: np.ndarray, boards: np.ndarray) -> None:
        self.rng, self.mask, self.boards = rng, mask, boards

    def reply_batch(self, obs: np.ndarray, masks: np.ndarray, boards: np.ndarray) -> np.ndarray:
        """envs._kernels._random_legal on each board's SplitMix64 state, the draw the kernel makes."""
        replies = np.zeros(len(boards), dtype=np.int64)
        for j, i in enumerate(self.boards[boards].tolist()):
            replies[j] = K._random_legal(self.mask, i, self.rng[i : i + 1])
        return replies


class Groups(NamedTuple):
    """The boards' opponents: ``groups[group_of[i]]`` answers board ``i`` as its board ``local[i]``."""

    groups: list[BatchOpponent]
    members: list[np.ndarray]
    """The boards of each group (int64, increasing)."""
    group_of: np.ndarray
    local: np.ndarray
    all_random: bool
    """Every board plays the kernel's random player: no group, the kernel answers."""


def _key(opponent: object) -> tuple[str, Any]:
    if isinstance(opponent, (str, os.PathLike)):
        return ("spec", os.fspath(opponent))
    return ("object", id(opponent))


def _group(opponent: Any, game: KInARow, count: int, batched: bool) -> Optional[BatchOpponent]:
    """The group answering ``count`` boards that all play ``opponent``; None for the kernel's random player."""
    if hasattr(opponent, "reply_batch"):
        group: BatchOpponent = opponent
        return group
    if is_torch_policy(opponent):
        return PolicyOpponent(opponent)
    first = resolve_opponent(opponent, game, copy_objects=count > 1)
    if first is None:
        return None
    if batched and AlphaBetaBatch.supports(first.player):
        return AlphaBetaBatch(first.player, count)  # type: ignore[arg-type]
    rest = [resolve_opponent(opponent, game, copy_objects=True) for _ in range(count - 1)]
    return PerBoard([first, *[o for o in rest if o is not None]])


def build_groups(opponent: Any, game: KInARow, n: int, rng: np.ndarray, mask: np.ndarray) -> Groups:
    """Group ``n`` boards by opponent (``opponent``: one for all, or a list or tuple with one per board).

    Alpha-beta specs are batched only for ``n > 1``: a single environment keeps
    the agent object (its ``last_result``, its state between moves).

    Raises:
        ValueError: a list of the wrong length; the errors of
            :func:`envs.opponents.resolve_opponent` for a bad opponent.
    """
    if isinstance(opponent, (list, tuple)):
        if len(opponent) != n:
            raise ValueError(f"opponent: a list of {len(opponent)} opponents for {n} boards: give one per board "
                             "(or one opponent for all)")  # fmt: skip
        per_board = list(opponent)
    else:
        per_board = [opponent] * n
    by_key: dict[tuple[str, Any], list[int]] = {}
    for i, one in enumerate(per_board):
        by_key.setdefault(_key(one), []).append(i)
    groups: list[BatchOpponent] = []
    members: list[np.ndarray] = []
    group_of = np.full(n, -1, dtype=np.int64)
    local = np.zeros(n, dtype=np.int64)
    random_boards: list[int] = []
    for boards in by_key.values():
        group = _group(per_board[boards[0]], game, len(boards), n > 1)
        if group is None:
            random_boards += boards
            continue
        _add(groups, members, group_of, local, group, boards)
    if len(random_boards) == n:
        return Groups([], [], group_of, local, True)
    if random_boards:
        random_boards.sort()
        _add(groups, members, group_of, local, KernelRandom(rng, mask, np.array(random_boards)), random_boards)
    return Groups(groups, members, group_of, local, False)


def _add(groups: list[BatchOpponent], members: list[np.ndarray], group_of: np.ndarray, local: np.ndarray,
         group: BatchOpponent, boards: list[int]) -> None:  # fmt: skip
    """Append ``group`` answering ``boards`` (its board j is ``boards[j]``)."""
    index = np.array(boards, dtype=np.int64)
    group_of[index] = len(groups)
    local[index] = np.arange(len(boards))
    groups.append(group)
    members.append(index)
