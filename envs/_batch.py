"""A batch of boards with the agent and its opponent: the state behind both kinds of environment.

:class:`BoardBatch` owns the arrays of :mod:`envs._kernels`, validates what
the environments pass in, and asks the opponents that live in Python
(agents and callables) for their replies between two kernel calls.  The
single environment is a batch of one board; the batched vector environment
a batch of N, so a seed gives the same episode either way.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

import numpy as np

from envs import _kernels as K
from envs.opponents import Opponent, OpponentLike, resolve_opponent
from games import IllegalMoveError, KInARow, Position
from games.checks import check_finite, shown

AGENT_PLAYS = ("first", "second", "random")
"""Values of ``agent_plays``: the agent's side, or a fair coin per episode."""
ILLEGAL_ACTIONS = ("lose", "raise", "random")
"""Values of ``illegal_action``: forfeit with a penalty, raise IllegalMoveError, or play a random legal move."""
RESET_OPTIONS = ("opponent", "agent_plays")
"""Keys ``reset(options=...)`` understands (besides a vector env's ``reset_mask``)."""

_SIDES = {"first": K.SIDE_FIRST, "second": K.SIDE_SECOND, "random": K.SIDE_RANDOM}


def check_options(options: object) -> dict[str, Any]:
    """``reset(options=...)`` as a new dict ({} for None).

    Raises:
        ValueError: ``options`` is not a dict (or other mapping); the message names the type received.
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ValueError(f"reset(options=...) must be a dict such as {{'opponent': 'rules'}} or None, "
                         f"not {type(options).__name__} {shown(options)}")  # fmt: skip
    return dict(options)


def check_choice(name: str, value: object, allowed: Sequence[str]) -> str:
    """Return ``value`` if it is one of ``allowed``, else raise ValueError naming both."""
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name}={value!r} is not allowed: use one of {', '.join(map(repr, allowed))}")
    return value


class BoardBatch:
    """``n`` boards of ``game``, each an episode of the agent against its own copy of the opponent.

    Args:
        game: the game every board plays.
        n: number of boards.
        opponent: see :mod:`envs.opponents`.
        agent_plays: ``"first"``, ``"second"`` or ``"random"`` (a coin per episode).
        illegal_action: ``"lose"``, ``"raise"`` or ``"random"``.
        illegal_reward: the agent's reward when an illegal action loses.
    """

    def __init__(self, game: KInARow, n: int, opponent: OpponentLike, agent_plays: str, illegal_action: str,
                 illegal_reward: float) -> None:  # fmt: skip
        self.game = game
        self.n = n
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self.illegal_reward = check_finite("illegal_reward", illegal_reward)
        cells, cols = game.n_cells, game.cols
        self.board = np.zeros((n, cells), dtype=np.int8)
        self.heights = np.zeros((n, cols), dtype=np.int32)
        self.stones = np.zeros((n, 2), dtype=np.uint64)
        self.history = np.zeros((n, cells), dtype=np.int64)
        self.meta = np.zeros((n, K.N_META), dtype=np.int64)
        self.meta[:, K.M_OVER] = 1  # nothing to step before the first reset
        self.rng = np.zeros(n, dtype=np.uint64)
        self.obs = np.zeros((n, 2, game.rows, cols), dtype=np.int8)
        self.mask = np.zeros((n, game.n_actions), dtype=np.int8)
        self.reward = np.zeros(n, dtype=np.float64)
        self.replies = np.zeros(n, dtype=np.int64)
        self._one_action = np.zeros(1, dtype=np.int64)
        self._board_zero = np.zeros(1, dtype=np.int64)
        self.search_stats: list[Optional[dict[str, Any]]] = [None] * n
        self.params = np.zeros(K.N_PARAMS, dtype=np.int64)
        self.rules = game.rules
        self.params[K.P_BITS] = int(game.uses_bitboard)
        self.params[K.P_ILLEGAL] = K.ILLEGAL_RANDOM if illegal_action == "random" else K.ILLEGAL_LOSE
        self.opponents: list[Opponent] = []
        self.set_opponent(opponent)
        self.agent_plays = "first"
        self.set_agent_plays(agent_plays)

    # ------------------------------------------------------------ settings
    def set_opponent(self, opponent: OpponentLike) -> None:
        """Use ``opponent`` from the next reset of each board on (one copy per board: agents keep per-game state)."""
        first = resolve_opponent(opponent, self.game, copy_objects=self.n > 1)
        if first is None:
            self.opponents = []
        else:
            rest = [resolve_opponent(opponent, self.game, copy_objects=True) for _ in range(self.n - 1)]
            self.opponents = [first, *[o for o in rest if o is not None]]
        self.opponent = opponent
        self.params[K.P_OPP_RANDOM] = int(not self.opponents)

    def set_agent_plays(self, agent_plays: str) -> None:
        """Take the side ``agent_plays`` from the next reset of each board on."""
        self.agent_plays = check_choice("agent_plays", agent_plays, AGENT_PLAYS)
        self.params[K.P_SIDE] = _SIDES[agent_plays]

    def apply_options(self, options: Optional[dict[str, Any]]) -> None:
        """Apply ``reset(options=...)``: ``opponent`` and ``agent_plays`` stay in force until changed again."""
        options = check_options(options)
        if not options:
            return
        unknown = sorted(set(options) - set(RESET_OPTIONS))
        if unknown:
            raise ValueError(f"unknown reset option(s) {', '.join(map(repr, unknown))}: use {', '.join(RESET_OPTIONS)}")
        if "agent_plays" in options:
            self.set_agent_plays(options["agent_plays"])
        if "opponent" in options:
            self.set_opponent(options["opponent"])

    # ------------------------------------------------------------- episodes
    def reset(self, which: np.ndarray, generators: Sequence[np.random.Generator]) -> None:
        """Start new episodes on the boards ``which`` (int64 indices); ``generators[i]`` is board i's generator.

        Each board draws two 64-bit words from its generator: the kernel's
        random state (who starts, random moves) and the opponent's seed.
        """
        # random_raw: the generator's own 64-bit words, ten times cheaper than integers() (this runs per episode)
        draws = [generators[i].bit_generator.random_raw(2).tolist() for i in which.tolist()]
        self.rng[which] = [state for state, _ in draws]
        if self.opponents:
            for i, (_, opponent_seed) in zip(which.tolist(), draws):
                self.search_stats[i] = None
                self.opponents[i].new_episode(opponent_seed >> 1)
        K._reset_boards(
            board=self.board,
            heights=self.heights,
            stones=self.stones,
            history=self.history,
            meta=self.meta,
            rng=self.rng,
            obs=self.obs,
            mask=self.mask,
            reward=self.reward,
            which=which,
            params=self.params,
            rules=self.rules,
        )
        if self.opponents:
            self._answer(which[self.meta[which, K.M_PENDING] == 1])

    def step(self, actions: np.ndarray, which: np.ndarray) -> None:
        """Play ``actions[i]`` (int64[n]) on the boards ``which`` and the opponents' replies.

        Raises:
            ValueError: a board's episode is over, or an action is outside the action space.
            IllegalMoveError: with ``illegal_action="raise"``, an illegal action.
        """
        over = which[self.meta[which, K.M_OVER] != 0]
        if over.size:
            raise ValueError(f"board {int(over[0])}: the episode is over; call reset() before step()")
        chosen = actions[which]
        outside = which[(chosen < 0) | (chosen >= self.game.n_actions)]
        if outside.size:
            i = int(outside[0])
            raise ValueError(f"board {i}: action {int(actions[i])} is outside the action space: "
                             f"actions are 0 to {self.game.n_actions - 1}")  # fmt: skip
        if self.illegal_action == "raise":
            refused = which[self.mask[which, chosen] == 0]
            if refused.size:
                i = int(refused[0])
                raise IllegalMoveError(self._illegal_reason(i, int(actions[i])))
        if self.opponents:
            for i in which:
                self.search_stats[i] = None
        K._step_boards(
            board=self.board,
            heights=self.heights,
            stones=self.stones,
            history=self.history,
            meta=self.meta,
            rng=self.rng,
            obs=self.obs,
            mask=self.mask,
            reward=self.reward,
            actions=actions,
            which=which,
            params=self.params,
            rules=self.rules,
            illegal_reward=self.illegal_reward,
        )
        if self.opponents:
            pending = which[self.meta[which, K.M_PENDING] == 1]
            for i in pending:
                self.opponents[i].observe_move(int(self.meta[i, K.M_PLAYED]))
            self._answer(pending)
            self._report_results(which[self.meta[which, K.M_OVER] != 0])

    def step_one(self, action: int) -> None:
        """:meth:`step` for a batch of one board with scalar checks: the single environment's hot path.

        Preconditions (checked by the caller): ``action`` is inside the
        action space and the episode is not over.
        """
        if self.illegal_action == "raise" and not self.mask[0, action]:
            raise IllegalMoveError(self._illegal_reason(0, action))
        self._one_action[0] = action
        # Positional on purpose: this is the single env's hot path, and numba folds keyword
        # arguments in Python (about 0.3 us a call, measured: a few percent of a step).
        K._step_boards(self.board, self.heights, self.stones, self.history, self.meta, self.rng, self.obs, self.mask,
                       self.reward, self._one_action, self._board_zero, self.params, self.rules,
                       self.illegal_reward)  # fmt: skip
        if self.opponents:
            self.search_stats[0] = None
            if self.meta[0, K.M_PENDING]:
                self.opponents[0].observe_move(int(self.meta[0, K.M_PLAYED]))
                self._answer(self._board_zero)
            if self.meta[0, K.M_OVER]:
                self._report_results(self._board_zero)

    def _answer(self, pending: np.ndarray) -> None:
        """Ask the opponents of the ``pending`` boards for their moves and play them."""
        if not pending.size:
            return
        for i in pending:
            opponent = self.opponents[i]
            obs = np.empty((2, self.game.rows, self.game.cols), dtype=np.int8)
            K._observe_as(self.obs, i, obs)
            reply = opponent.reply(obs, self.mask[i].copy())
            opponent.observe_move(reply)
            self.replies[i] = reply
            self.search_stats[i] = opponent.search_stats()
        K._reply_boards(
            board=self.board,
            heights=self.heights,
            stones=self.stones,
            history=self.history,
            meta=self.meta,
            obs=self.obs,
            mask=self.mask,
            reward=self.reward,
            replies=self.replies,
            which=pending,
            params=self.params,
            rules=self.rules,
        )

    def _report_results(self, ended: np.ndarray) -> None:
        """Tell the opponents of the boards ``ended`` (just finished) who won (a league keeps win rates)."""
        for i in ended.tolist():
            self.opponents[i].end_episode(int(self.meta[i, K.M_WINNER]), int(self.meta[i, K.M_STONE]) - 1)

    def _illegal_reason(self, i: int, action: int) -> str:
        """The game core's own message for an illegal ``action`` on board ``i``."""
        try:
            self.position(i).play(action)
        except IllegalMoveError as exc:
            return str(exc)
        return f"move {action} is illegal"  # unreachable: the mask said so

    # ---------------------------------------------------------------- views
    def over(self, i: int) -> bool:
        """True once board ``i``'s episode has ended."""
        return bool(self.meta[i, K.M_OVER])

    def position(self, i: int) -> Position:
        """Board ``i`` as a :class:`games.Position` (replayed from its moves: for rendering and messages)."""
        return self.game.position(self.history[i, : self.meta[i, K.M_PLY]].tolist())

    def agent_player(self, i: int) -> int:
        """The agent's player index on board ``i``: 0 if it moves first, 1 if second."""
        return int(self.meta[i, K.M_STONE]) - 1

    def info(self, i: int) -> dict[str, Any]:
        """The info dict of board ``i`` after its last reset or step (fresh objects every call)."""
        return self.info_and_over(i)[0]

    def info_and_over(self, i: int) -> tuple[dict[str, Any], bool]:
        """Board ``i``'s info dict and whether its episode is over (one read of its state)."""
        meta = self.meta[i].tolist()  # one conversion instead of several numpy scalar reads
        info: dict[str, Any] = {
            "action_mask": self.mask[i].copy(),
            "agent_player": meta[K.M_STONE] - 1,
            "agent_action": meta[K.M_PLAYED],
            "opponent_action": meta[K.M_OPP],
            "winner": meta[K.M_WINNER],
            "illegal_action": meta[K.M_ILLEGAL] == 1,
        }
        stats = self.search_stats[i]
        if stats is not None:
            info["opponent_search"] = dict(stats)
        return info, meta[K.M_OVER] == 1
