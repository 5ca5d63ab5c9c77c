"""The opponent inside an environment: an agent spec, a weight file, an agent object, or a callable.

``resolve_opponent`` turns what a user passes as ``opponent=`` into an
:class:`Opponent` (or None for the built-in random player, which runs inside
the environment's kernel)::

    "random"                            uniformly random legal moves, drawn by the env's kernel
    "alphabeta:depth=4,heuristic=..."   any spec of search.agents.make_agent ("rules", "minimax:...", ...)
    "weights/connect4-windows.json"     a weight file: a tuned alpha-beta agent (str or os.PathLike)
    "connect4-threats-tuned"            a shipped weight file by name (python -m weights --list)
    "runs/ppo/connect4.zip"             a saved MaskablePPO / PPO policy, loaded without running code from the file
    AlphaBetaAgent(CONNECT4, depth=2)   any object with select_move(position) (search.Agent)
    lambda obs, mask: int(mask.argmax())  any callable (observation, action_mask) -> action

Every spec goes through :func:`search.agents.make_agent`, so a spec it
learns works here unchanged, and a name it does not know fails with its
message.  ``perfect`` gets a budget of ``ENV_TIME_MS`` (100 ms) per move
unless its spec sets ``time_ms`` or ``nodes`` (``perfect:time_ms=inf``: no
limit): exact when the solver finishes in time, else the fallback of
:mod:`search.solve._perfect`, named in ``info["opponent_search"]["source"]``.
On Connect-4 6x7 with the opening book installed (``pip install
"alphabeta-gym[book]"``) it gets no budget: it is exact at every move, a few
milliseconds a move on average (:class:`search.solve.PerfectAgent`).  Randomness: the environment reseeds an
agent (``agent.seed(s)``, then ``agent.reset()``) at every episode with a
seed drawn from its own generator, so a seed inside a spec is overridden.
A callable receives the observation from *its own* side (plane 0 its
stones) and its action mask; it cannot be seeded, so it should be
deterministic (a frozen policy) for episodes to repeat.
"""

from __future__ import annotations

import copy
import os
from typing import Any, Callable, Optional, Union

import numpy as np

from envs._players import PolicyAgent, sb3_policy
from games import Action, IllegalMoveError, KInARow, Position
from search.agents import make_agent
from search.agents.simple import RandomAgent
from search.agents.spec import parse_spec
from search.protocol import Agent
from search.solve import ENV_TIME_MS, PerfectAgent

OpponentPolicy = Callable[[np.ndarray, np.ndarray], Any]
"""``(observation int8[2, rows, cols], action_mask int8[n_actions]) -> action``: a frozen policy, say."""
OpponentLike = Union[str, "os.PathLike[str]", Agent, OpponentPolicy]
"""Everything ``opponent=`` accepts."""


class Opponent:
    """An agent object or a callable policy, with the bookkeeping the environment needs.

    Args:
        player: an object with ``select_move(position)`` (a :class:`search.Agent`)
            or a callable ``(observation, action_mask) -> action``.
        game: the game being played.
    """

    def __init__(self, player: Union[Agent, OpponentPolicy], game: KInARow) -> None:
        self.player = player
        self.game = game
        self.is_agent = hasattr(player, "select_move")
        self.name: str = str(getattr(player, "name", getattr(player, "__name__", type(player).__name__)))
        self.position: Optional[Position] = None

    def new_episode(self, seed: int) -> None:
        """A new game: an agent is reseeded with ``seed`` and reset; a callable only gets a fresh position."""
        if self.is_agent:
            agent: Any = self.player
            if hasattr(agent, "seed"):
                agent.seed(seed)
            if hasattr(agent, "reset"):
                agent.reset()
            self.position = self.game.position()

    def observe_move(self, action: Action) -> None:
        """Follow a move played on the board (agents keep a position; callables need none)."""
        if self.position is not None:
            self.position.play(int(action))

    def end_episode(self, winner: int, agent_player: int) -> None:
        """The game ended: an agent with ``observe_result(score)`` gets its score (1 win, 0.5 draw, 0 loss).

        Args:
            winner: the winning player index (0 or 1), -1 for a draw.
            agent_player: the learner's player index (the opponent is the other).
        """
        observe = getattr(self.player, "observe_result", None)
        if observe is not None:
            observe(0.5 if winner < 0 else float(winner != agent_player))

    def reply(self, observation: np.ndarray, mask: np.ndarray) -> Action:
        """The opponent's move, checked for legality (the move is not played here).

        Raises:
            IllegalMoveError: the opponent chose an illegal or malformed move.
        """
        if self.is_agent:
            assert self.position is not None, "new_episode() starts every game"
            raw = self.player.select_move(self.position)  # type: ignore[union-attr]
        else:
            raw = self.player(observation, mask)  # type: ignore[operator]
        try:
            action = int(np.asarray(raw).item()) if isinstance(raw, np.ndarray) else int(raw.__index__())
        except (AttributeError, TypeError, ValueError):
            raise IllegalMoveError(f"opponent {self.name!r} returned {raw!r}, which is not an integer action") from None
        if not 0 <= action < mask.shape[0] or not mask[action]:
            legal = np.flatnonzero(mask).tolist()
            raise IllegalMoveError(f"opponent {self.name!r} chose the illegal action {action!r}; legal actions: {legal}")
        return action

    def search_stats(self) -> Optional[dict[str, Any]]:
        """The last search's depth, nodes and score if the opponent searched, else None.

        Wall time is left out on purpose: infos must repeat exactly for a seed
        (Gymnasium's checker compares them).  The exact solver's results have
        no depth (it searches to the end): ``depth`` is None for them.
        """
        result = getattr(self.player, "last_result", None)
        if result is None:
            return None
        depth = getattr(result, "depth", None)
        stats = {"depth": None if depth is None else int(depth), "nodes": int(result.nodes), "score": float(result.score)}
        source = getattr(self.player, "last_source", None)
        if source is not None:  # the perfect agent: "solver", "solver-partial" or "alphabeta" (search.solve._perfect)
            stats["source"] = source
        return stats


def resolve_opponent(opponent: OpponentLike, game: KInARow, *, copy_objects: bool = False) -> Optional[Opponent]:
    """Build the opponent for one board; None means the built-in random player (it runs in the kernel).

    Args:
        opponent: a spec string, a weight-file path, a saved MaskablePPO / PPO ``.zip`` (loaded without running code
            from the file: :mod:`envs.models`), an agent object or a callable (see the module docstring).
        game: the game being played.
        copy_objects: deep-copy an agent object (a batch needs one per board: agents keep per-game state).

    Raises:
        AgentSpecError: an unknown agent name or a malformed spec (from ``make_agent``).
        ValueError: values the agent refuses (bad depth, a heuristic that does not fit the game, ...).
        TypeError: ``opponent`` is none of the accepted kinds.
    """
    player: Any
    if isinstance(opponent, (str, os.PathLike)) and os.fspath(opponent).endswith(".zip"):
        # a saved MaskablePPO / PPO policy, loaded without running code from the file (envs.models)
        player = PolicyAgent(sb3_policy(opponent), game, name=os.path.basename(os.fspath(opponent)))
    elif isinstance(opponent, (str, os.PathLike)):
        player = make_agent(os.fspath(opponent), game, seed=0)
        if (isinstance(player, PerfectAgent) and player.solver.book is None
                and not {"time_ms", "nodes"} & set(parse_spec(os.fspath(opponent)).options)):  # fmt: skip
            player.set_budget(ENV_TIME_MS, None)  # an env must get its reply: exact when the solver is quick enough
    elif hasattr(opponent, "select_move"):
        player = copy.deepcopy(opponent) if copy_objects else opponent
    elif callable(opponent):
        player = opponent
    else:
        raise TypeError(
            f"opponent={opponent!r} is not an agent spec, a weight file path, an agent (with select_move) "
            "or a callable (observation, action_mask) -> action"
        )
    agent_game = getattr(player, "game", None)
    if isinstance(agent_game, KInARow) and agent_game != game:
        raise ValueError(f"opponent {opponent!r} plays {agent_game}, but the environment plays {game}")
    if type(player) is RandomAgent:
        return None
    return Opponent(player, game)
