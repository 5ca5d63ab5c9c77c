"""``alphabeta/Connect4-v0``: Connect-4 of any size against an alpha-beta (or any other) opponent."""

from __future__ import annotations

from typing import Any

from envs.core import KInARowEnv
from games import C4_COLS, C4_K, C4_ROWS, Connect4


class Connect4Env(KInARowEnv):
    """Connect-4 against a built-in opponent that moves inside ``reset`` and ``step``.

    ## Description

    Two players drop stones into the columns of an upright ``rows x cols``
    board; a stone falls to the lowest empty cell.  The first to line up
    ``k`` or more stones horizontally, vertically or diagonally wins; a full
    board is a draw.  The agent plays one side; the opponent (random,
    rule-based, alpha-beta of any strength, a tuned weight file, or a frozen
    policy for self-play) plays the other inside the environment.  The rules
    are those of :mod:`games` (the environment contains none).

    ## Action Space

    ``Discrete(cols)``: the column to drop a stone into, 0 on the left.  The
    legal columns (not full) are in ``info["action_mask"]`` (int8, so
    ``env.action_space.sample(mask=info["action_mask"])`` works), in
    :meth:`action_masks` (what sb3-contrib's ``MaskablePPO`` calls), and in
    the observation with ``dict_obs=True``.  The mask is all zeros once the
    episode is over.

    ## Observation Space

    ``Box(0, 1, (2, rows, cols), int8)`` from the agent's side: plane 0
    holds the agent's stones, plane 1 the opponent's, row 0 is the **top**
    row.  After the moves 4 (x), 4 (o), 5 (x) with the agent playing x::

        board (x agent, o opponent)      obs[0] (agent)       obs[1] (opponent)
        row 0  . . . . . . .             0 0 0 0 0 0 0        0 0 0 0 0 0 0
        ...                              ...                  ...
        row 4  . . . o . . .             0 0 0 0 0 0 0        0 0 0 1 0 0 0
        row 5  . . . x x . .             0 0 0 1 1 0 0        0 0 0 0 0 0 0
               1 2 3 4 5 6 7  (column numbers of the notation; actions 0..6)

    With ``dict_obs=True`` the observation is
    ``{"observation": <the Box above>, "action_mask": Box(0, 1, (cols,), int8)}``.

    ## Starting State

    An empty board.  With ``agent_plays="second"`` (or ``"random"`` and the
    coin says so) the opponent's first move is already on it.

    ## Rewards

    From the agent's side, as Python floats: +1 win, -1 loss, 0 draw and 0
    for every other step.  An illegal action with ``illegal_action="lose"``
    gives ``illegal_reward`` (default -1).

    ## Episode End

    ``terminated`` (a Python bool) when someone has ``k`` in a row, the board
    is full, or an illegal action loses.  ``truncated`` is always False: a
    game lasts at most ``rows * cols`` moves.  ``info`` holds
    ``action_mask``, ``agent_player`` (0 first, 1 second), ``agent_action``
    (the column played, -1 if none), ``opponent_action`` (-1 if the opponent
    did not move), ``winner`` (player index 0 or 1, -1 for none; the
    opponent's after a forfeit), ``illegal_action`` (bool) and, when the
    opponent searched, ``opponent_search`` (depth, nodes, score).

    ## Arguments

    ```python
    import gymnasium as gym
    import envs  # registers the alphabeta/ environments

    env = gym.make("alphabeta/Connect4-v0", rows=6, cols=7, k=4,
                   opponent="alphabeta:depth=4,heuristic=c4_features",
                   agent_plays="random", illegal_action="lose", illegal_reward=-1.0,
                   dict_obs=False, render_mode="rgb_array")
    obs, info = env.reset(seed=0, options={"opponent": "rules", "agent_plays": "second"})
    ```

    * ``rows``, ``cols``, ``k``: board size and line length (6, 7, 4).
    * ``exact_k``: the exact-k rule, an overline (more than ``k``) does not win (default False).
    * ``opponent``: ``"random"``, ``"rules"``, ``"alphabeta:key=value,..."``,
      ``"minimax:depth=3"``, any other :func:`search.agents.make_agent` spec,
      a weight file path (a tuned agent), an agent object, or a callable
      ``(observation, action_mask) -> action`` that sees the board from its
      own side (self-play against frozen snapshots).
    * ``agent_plays``: ``"first"``, ``"second"`` or ``"random"``.
    * ``illegal_action``: ``"lose"`` (default), ``"raise"`` (``IllegalMoveError``)
      or ``"random"`` (a random legal move instead, flagged in info).  An
      action outside the action space always raises ``ValueError``.
    * ``illegal_reward``: the penalty of ``"lose"``.
    * ``dict_obs``: the dict observation above.
    * ``render_mode``: ``"ansi"`` (text), ``"rgb_array"`` (numpy image) or
      ``"human"`` (a pygame window if pygame and a display exist, else printed).

    ``reset(options={"opponent": ..., "agent_plays": ...})`` changes the
    opponent or the side from that episode on.  All randomness (who starts,
    random moves, the opponent's tie-breaks) comes from the generator seeded
    by ``reset(seed=...)``: same seed, same episode.

    ## Version History

    * v0: initial release.
    """

    def __init__(self, rows: int = C4_ROWS, cols: int = C4_COLS, k: int = C4_K, exact_k: bool = False,
                 **options: Any) -> None:  # fmt: skip
        super().__init__(Connect4(rows, cols, k, exact_k), **options)
