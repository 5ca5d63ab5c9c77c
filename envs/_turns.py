"""The opponents' side of a batch of boards: who is asked for which board, their replies, and what they report.

:class:`OpponentTurns` is the part of :class:`envs._batch.BoardBatch` that
talks to the opponents living in Python between two kernel calls: boards
are grouped by opponent (:mod:`envs._groups`) and each group answers all its
pending boards in one call (:class:`envs.batched.BatchOpponent`: alpha-beta
in one numba call, a torch policy in one forward pass, anything else board
by board); per-board opponents also follow the game (the agent's moves, the
random openings) and hear each result; searches report their depth, nodes
and score for ``info["opponent_search"]``.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from envs import _kernels as K
from envs._groups import Groups, KernelRandom, PerBoard
from envs.batched import AlphaBetaBatch, describe
from games import IllegalMoveError
from games._rules import Rules

_TRUSTED = (PerBoard, KernelRandom, AlphaBetaBatch)
"""Groups whose replies are legal by construction: not checked again (exact types: a subclass may reply its way)."""


class OpponentTurns:
    """The opponents' turns of a batch of boards (a part of :class:`envs._batch.BoardBatch`, which owns the arrays)."""

    groups: Groups
    meta: np.ndarray
    history: np.ndarray
    obs: np.ndarray
    mask: np.ndarray
    replies: np.ndarray
    params: np.ndarray
    rules: Rules
    _state: tuple[np.ndarray, ...]
    search_stats: list[Optional[dict[str, Any]]]
    stat_depth: np.ndarray
    stat_nodes: np.ndarray
    stat_score: np.ndarray
    stat_kind: np.ndarray

    def _observe_openings(self, which: np.ndarray) -> None:
        """Show the per-board opponents of the boards ``which`` their random openings (they follow the game).

        Right after the kernel's reset a Python opponent has not moved yet, so a board's history is its opening.
        """
        groups = self.groups
        for g, group in enumerate(groups.groups):
            if not isinstance(group, PerBoard):  # batched opponents read the observation, they keep no position
                continue
            mine = which[groups.group_of[which] == g]
            plies = self.meta[mine, K.M_PLY]
            for ply in range(int(plies.max(initial=0))):
                on = mine[plies > ply]
                group.observe_moves(groups.local[on], self.history[on, ply])

    def _new_episodes(self, which: np.ndarray, seeds: list[int]) -> None:
        """Tell each group which of its boards start an episode, with the opponents' seeds (``seeds[j]`` for ``which[j]``)."""
        groups = self.groups
        if len(groups.groups) == 1:  # one opponent for every board (the common case): no per-group masks
            groups.groups[0].new_episodes(groups.local[which], seeds)
            return
        by_board = np.array(seeds, dtype=object)
        for g, group in enumerate(groups.groups):
            mine = groups.group_of[which] == g
            if mine.any():
                group.new_episodes(groups.local[which[mine]], by_board[mine].tolist())

    def _clear_stats(self, which: np.ndarray) -> None:
        """Forget the search stats of the boards ``which`` (they are about to move again).

        ``search_stats[i]`` is read only where ``stat_kind[i] == 2``, so the kind alone forgets it (a loop over
        the boards setting None cost 0.05 us a board-step); the next dict recorded replaces it."""
        self.stat_kind[which] = 0

    def _observe_agent_moves(self, pending: np.ndarray) -> None:
        """Tell the per-board opponents of the ``pending`` boards the agent's move (they follow the game)."""
        groups = self.groups
        for g, group in enumerate(groups.groups):
            if isinstance(group, PerBoard):
                mine = pending[groups.group_of[pending] == g]
                if mine.size:
                    group.observe_moves(groups.local[mine], self.meta[mine, K.M_PLAYED])

    def _answer(self, pending: np.ndarray) -> None:
        """Ask each group of opponents once for the moves of its ``pending`` boards, and play them."""
        if not pending.size:
            return
        groups = self.groups
        for g, group in enumerate(groups.groups):
            mine = pending if len(groups.groups) == 1 else pending[groups.group_of[pending] == g]
            if not mine.size:
                continue
            obs = self.obs[mine[:, None], [1, 0]]  # each board from the opponent's side: planes swapped
            masks = self.mask[mine]
            local = groups.local[mine]
            replies = np.asarray(group.reply_batch(obs, masks, local))
            # Per-board opponents check their own replies (Opponent.reply); the built-in alpha-beta and random
            # groups play searched or drawn legal moves (their tests check it); any other group is checked.
            if type(group) not in _TRUSTED:
                self._check_replies(group, mine, masks, replies)
            self.replies[mine] = replies
            self._record_stats(group, mine, local)
        K._reply_boards(*self._state, self.replies, pending, self.params, self.rules)

    def _report_results(self, ended: np.ndarray) -> None:
        """Tell the per-board opponents of the boards ``ended`` (just finished) who won (a league keeps win rates).

        Only per-board Python opponents (a league's :class:`envs.opponents.Opponent`) observe results; the
        batched groups (alpha-beta in numba, a frozen policy) keep no win rates.
        """
        groups = self.groups
        for i in ended.tolist():
            g = int(groups.group_of[i])
            group = groups.groups[g] if g >= 0 else None
            if isinstance(group, PerBoard):
                group.opponents[int(groups.local[i])].end_episode(int(self.meta[i, K.M_WINNER]), int(self.meta[i, K.M_STONE]) - 1)

    def _check_replies(self, group: Any, boards: np.ndarray, masks: np.ndarray, replies: np.ndarray) -> None:
        """Refuse a batch of replies with a wrong shape or an illegal move (naming the board and the move)."""
        if replies.shape != boards.shape or replies.dtype.kind not in "iu":
            raise IllegalMoveError(f"opponent {describe(group)!r} returned {replies!r} for {boards.size} boards: "
                                   f"reply_batch must return {boards.size} integer actions")  # fmt: skip
        inside = (replies >= 0) & (replies < masks.shape[1])
        legal = inside & (masks[np.arange(boards.size), np.where(inside, replies, 0)] == 1)
        if not legal.all():
            j = int(np.flatnonzero(~legal)[0])
            raise IllegalMoveError(f"opponent {describe(group)!r} chose the illegal action {int(replies[j])} on board "
                                   f"{int(boards[j])}; legal actions: {np.flatnonzero(masks[j]).tolist()}")  # fmt: skip

    def _record_stats(self, group: Any, boards: np.ndarray, local: np.ndarray) -> None:
        """Keep what the group's searches report for ``info["opponent_search"]``."""
        if isinstance(group, PerBoard):
            for i, b in zip(boards.tolist(), local.tolist()):
                self.search_stats[i] = group.stats[b]
                self.stat_kind[i] = 2
            return
        stats = group.search_stats(local)
        if stats is None:
            return
        self.stat_depth[boards], self.stat_nodes[boards], self.stat_score[boards] = stats.depth, stats.nodes, stats.score
        self.stat_kind[boards] = np.where(stats.searched, 1, 0)

    def opponent_search(self, i: int) -> Optional[dict[str, Any]]:
        """Board i's ``info["opponent_search"]`` (a new dict), or None if its opponent's last reply was not searched."""
        kind = self.stat_kind[i]
        if kind == 1:
            return {"depth": int(self.stat_depth[i]), "nodes": int(self.stat_nodes[i]), "score": float(self.stat_score[i])}
        stats = self.search_stats[i] if kind == 2 else None
        return None if stats is None else dict(stats)
