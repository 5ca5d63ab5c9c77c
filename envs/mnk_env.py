"""``alphabeta/MNK-v0``, ``alphabeta/TicTacToe-v0`` and ``alphabeta/Gomoku-v0``: m,n,k games against an opponent."""

from __future__ import annotations

from typing import Any

from envs.core import KInARowEnv
from games import GOMOKU, MNK, TIC_TAC_TOE, InvalidGameError, KInARow


def _fixed_size(preset: KInARow, name: str, options: dict[str, Any]) -> None:
    """Refuse size arguments for a preset game, pointing to ``alphabeta/MNK-v0``."""
    given = sorted(set(options) & {"rows", "cols", "k"})
    if given:
        raise InvalidGameError(f"{name} is fixed at {preset}; {', '.join(given)} cannot be set (use alphabeta/MNK-v0)")


class MNKEnv(KInARowEnv):
    """An m,n,k game against a built-in opponent that moves inside ``reset`` and ``step``.

    ## Description

    Two players put stones on the empty cells of a ``rows x cols`` board (no
    gravity); the first with ``k`` or more in a row, column or diagonal wins,
    a full board is a draw.  Tic-tac-toe is 3,3,3 and freestyle gomoku
    15,15,5.  The agent plays one side and the opponent the other, inside the
    environment; the rules come from :mod:`games`.

    ## Action Space

    ``Discrete(rows * cols)``: the cell ``row * cols + col``, row 0 at the
    top.  On 3x3: ``0 1 2 / 3 4 5 / 6 7 8``, 4 is the centre.  The empty
    cells are in ``info["action_mask"]`` (int8), :meth:`action_masks` and,
    with ``dict_obs=True``, the observation; all zeros once the game is over.

    ## Observation Space

    ``Box(0, 1, (2, rows, cols), int8)`` from the agent's side: plane 0 its
    stones, plane 1 the opponent's, row 0 on top.  Tic-tac-toe after the
    agent (x) took the centre (action 4) and the opponent (o) a corner (0)::

        board      obs[0] (agent)   obs[1] (opponent)
        o . .      0 0 0            1 0 0
        . x .      0 1 0            0 0 0
        . . .      0 0 0            0 0 0

    With ``dict_obs=True``:
    ``{"observation": <the Box>, "action_mask": Box(0, 1, (rows * cols,), int8)}``.

    ## Starting State

    An empty board, or the opponent's first stone when the agent plays second.

    ## Rewards

    +1 win, -1 loss, 0 draw and 0 otherwise (Python floats, the agent's
    side); ``illegal_reward`` (default -1) when an illegal action loses.

    ## Episode End

    ``terminated`` on ``k`` in a row, a full board or a losing illegal
    action; ``truncated`` never.  ``info`` as for :class:`envs.Connect4Env`
    (``action_mask``, ``agent_player``, ``agent_action``,
    ``opponent_action``, ``winner``, ``illegal_action``, ``opponent_search``).

    ## Arguments

    ```python
    import gymnasium as gym
    import envs

    env = gym.make("alphabeta/MNK-v0", rows=5, cols=5, k=4, opponent="alphabeta:depth=3,heuristic=windows")
    env = gym.make("alphabeta/TicTacToe-v0", opponent="rules", agent_plays="second")
    env = gym.make("alphabeta/Gomoku-v0", opponent="alphabeta:depth=2,radius=1,heuristic=mics")
    ```

    ``rows``, ``cols`` and ``k`` are required for ``MNK-v0`` (TicTacToe and
    Gomoku fix them); ``exact_k=True`` plays the exact-k rule (an overline
    does not win: standard gomoku is ``gym.make("alphabeta/Gomoku-v0",
    exact_k=True)``); every other argument is the one of
    :class:`envs.Connect4Env`: ``opponent``, ``agent_plays``,
    ``illegal_action``, ``illegal_reward``, ``dict_obs``, ``render_mode``,
    and ``reset(options={"opponent": ..., "agent_plays": ...})``.

    ## Version History

    * v0: initial release.
    """

    def __init__(self, rows: int, cols: int, k: int, exact_k: bool = False, **options: Any) -> None:
        super().__init__(MNK(rows, cols, k, exact_k), **options)


class TicTacToeEnv(MNKEnv):
    """Tic-tac-toe (3,3,3) against a built-in opponent: :class:`MNKEnv` with the size fixed.

    ``gym.make("alphabeta/TicTacToe-v0", opponent="rules")``; every argument
    of :class:`MNKEnv` but the size.
    """

    def __init__(self, **options: Any) -> None:
        _fixed_size(TIC_TAC_TOE, "alphabeta/TicTacToe-v0", options)
        super().__init__(TIC_TAC_TOE.rows, TIC_TAC_TOE.cols, TIC_TAC_TOE.k, **options)


class GomokuEnv(MNKEnv):
    """Freestyle gomoku (15,15,5: five or more wins) against a built-in opponent: :class:`MNKEnv` with the size fixed.

    ``gym.make("alphabeta/Gomoku-v0", opponent="alphabeta:depth=2")`` (the gomoku engine, two plies);
    every argument of :class:`MNKEnv` but the size.
    """

    def __init__(self, **options: Any) -> None:
        _fixed_size(GOMOKU, "alphabeta/Gomoku-v0", options)
        super().__init__(GOMOKU.rows, GOMOKU.cols, GOMOKU.k, **options)
