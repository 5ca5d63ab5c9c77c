"""Two baseline agents: uniformly random play, and the rule-based player the Bologna m,n,k project cites.

``RandomAgent`` plays a uniformly random legal move.  ``RuleBasedAgent`` is
the player cited in the Bologna m,n,k project report ("rule-based strategy", five rules)::

    1. WIN         win now if a move makes k in a row
    2. BLOCK       else take a cell where the opponent would make k in a row
    3. FORK        else make a fork: a move after which we have two threats
    4. BLOCK_FORK  else stop the opponent's forks
    5. WAYS        else play where we have the most ways to win

Definitions (the report names the rules and nothing more):

* A **threat** of a player is a *playable* cell where its stone would make
  ``k`` or more in a row: an empty cell without gravity, the landing cell of
  its column with gravity.  "The threats after a move" are the winning moves
  the mover would have on its next turn if the opponent passed.  Under
  gravity this counts the cell just above the move (our stone makes it
  playable) and never a cell further up a column (it is not playable), so two
  winning cells stacked in one column are one threat.
* A **fork** is a move after which the mover has two or more distinct threats.
* **Stopping forks** (rule 4) fires when the opponent, moving now, would have
  a fork.  Each of our moves ``m`` is scored by its *dangers*: the opponent
  replies ``r`` after which the opponent has two threats while we have none
  (a reply that simply wins counts as many dangers).  We play a move with the
  fewest dangers.  This is "block the fork cell, or the one that blocks the
  most forks", plus the classic refinement that a move making our own threat
  also defends, unless the forced answer to it is itself a fork.
* **Ways to win** of a move: the k-windows (rows, columns, diagonals) through
  its cell holding no opponent stone.  Ties go to more own stones in those
  windows, then to the agent's seeded random generator.  The same two
  tie-breaks choose among the moves allowed by rules 1 to 4.
* **Safety** (gravity only): rules 3 to 5 skip a move that lets the
  opponent win on the cell just above it, unless every move does.  Without
  this the player would hand Connect-4 wins away; without gravity no move
  can make a cell playable, so every move is safe.

Speed.  Once rules 1 and 2 have not fired, neither side has a threat, so any
threat that appears after stones land on cells ``a`` and ``b`` runs through
``a`` or ``b`` or sits just above one of them: it lies within ``k - 1``
cells of ``a`` or ``b`` on one of their four lines (their "star").
The kernels scan only those stars, so a fork test costs O(k^2) instead of a
board scan, and rule 4 examines, without gravity, only the opponent's fork
cells as replies (our stone can only take threats away).  A 15x15 gomoku
move takes a few milliseconds (about 20 ms in the worst dense positions seen).

Strength.  The rules look two plies ahead at most.  As the first player of
tic-tac-toe they never lose; as the second they can: after an edge opening
the far corner ties with the centre on ways to win, and a forced block later
walks into a fork.  Against random play they win Connect-4 almost always.

Example:
    >>> from games import TIC_TAC_TOE
    >>> RuleBasedAgent(seed=0).select_move(TIC_TAC_TOE.position())  # the centre
    4
    >>> rule_candidates(TIC_TAC_TOE.position("a1 b2 c1"))  # o must block b1
    (<Rule.BLOCK: 2>, [7])
"""

from __future__ import annotations

from enum import IntEnum
from typing import Optional

import numpy as np

from games import Action, Position
from games._board import _action_cell
from games.checks import check_seed
from games.errors import IllegalMoveError
from search.agents._rule_kernels import _fork_actions, _fork_defences, _most_ways, _safe_actions, _window_counts, _winning_actions
from search.errors import SearchError


class Rule(IntEnum):
    """The rules of :class:`RuleBasedAgent`, in the order they are tried."""

    WIN = 1
    BLOCK = 2
    FORK = 3
    BLOCK_FORK = 4
    WAYS = 5


def _rule_mask(board: np.ndarray, heights: np.ndarray, position: Position) -> tuple[Rule, np.ndarray]:
    """The first rule that applies and the mask of the moves it allows (``board``/``heights`` are scratch copies)."""
    game = position.game
    rules = game.rules
    me = 1 + position.to_move
    mask = np.zeros(game.n_actions, dtype=np.int8)
    if _winning_actions(board, heights, rules, me, mask):
        return Rule.WIN, mask
    if _winning_actions(board, heights, rules, 3 - me, mask):
        return Rule.BLOCK, mask
    # From here on neither side has a threat: the star kernels' precondition.
    safe = np.empty_like(mask)
    _safe_actions(board, heights, rules, me, safe)
    if _fork_actions(board, heights, rules, me, safe, mask):
        return Rule.FORK, mask
    legal = position.legal_mask()
    if _fork_actions(board, heights, rules, 3 - me, legal, mask):
        # Without gravity our stone only removes enemy threats, so the only
        # replies that can fork are today's fork cells; with gravity a reply
        # in our column lands elsewhere, so every reply is examined.
        replies = legal if game.gravity else mask.copy()
        _fork_defences(board, heights, rules, me, safe, replies, mask)
        return Rule.BLOCK_FORK, mask
    return Rule.WAYS, safe


def _best_candidates(position: Position) -> tuple[Rule, np.ndarray]:
    """The rule that fires and the moves left after the ways-to-win tie-breaks (int64 array)."""
    if position.is_terminal():
        raise SearchError(f"no move to choose: the game is over in {position!r}")
    board, heights = position._board.copy(), position._heights.copy()  # never touch the caller's arrays
    rule, mask = _rule_mask(board, heights, position)
    game = position.game
    out = np.empty(game.n_actions, dtype=np.int64)
    n = _most_ways(board, heights, game.rules, 1 + position.to_move, mask, out)
    return rule, out[:n]


def rule_candidates(position: Position) -> tuple[Rule, list[Action]]:
    """The rule that decides the move and the moves it leaves, after the tie-breaks but before the random draw.

    Raises:
        ValueError: the game is over.

    Example:
        >>> from games import Connect4
        >>> rule_candidates(Connect4().position())
        (<Rule.WAYS: 5>, [3])
    """
    rule, moves = _best_candidates(position)
    return rule, [int(a) for a in moves]


def rule_based_move(position: Position, rng: np.random.Generator) -> Action:
    """The rule-based player's move for the side to move; ``rng`` breaks the remaining ties.

    Raises:
        ValueError: the game is over.
    """
    _, moves = _best_candidates(position)
    return int(moves[rng.integers(len(moves))]) if len(moves) > 1 else int(moves[0])


def ways_to_win(position: Position, action: Action) -> int:
    """The k-windows through the cell ``action`` plays on that hold no stone of the opponent of the side to move.

    Raises:
        ValueError: ``action`` is not legal in ``position``.

    Example:
        >>> from games import TIC_TAC_TOE
        >>> [ways_to_win(TIC_TAC_TOE.position(), a) for a in (0, 1, 4)]  # corner, edge, centre
        [3, 2, 4]
    """
    if not position.is_legal(action):
        raise IllegalMoveError(f"move {action!r} is not legal in {position!r}")
    game = position.game
    cell = _action_cell(int(action), position._heights, game.rows, game.cols, game.gravity)
    ways, _ = _window_counts(position._board, game.rows, game.cols, game.k, cell, 1 + position.to_move)
    return int(ways)


class RandomAgent:
    """Plays a uniformly random legal move.

    Args:
        seed: seed of its ``numpy.random.default_rng``; the same seed gives the same moves.

    Example:
        >>> from games import CONNECT4
        >>> RandomAgent(seed=1).select_move(CONNECT4.position()) in range(7)
        True
    """

    name = "random"

    def __init__(self, seed: Optional[int] = None) -> None:
        self._rng = np.random.default_rng(check_seed(seed))

    def select_move(self, position: Position) -> Action:
        """A uniformly random legal action (``position`` must not be over: a :class:`SearchError` says so)."""
        moves = position.legal_moves()
        if not moves:  # numpy would say only "high <= 0"
            raise SearchError(f"no move to choose: the game is over in {position!r}")
        return moves[int(self._rng.integers(len(moves)))]

    def reset(self) -> None:
        """Nothing to forget: the agent keeps no state between moves (the generator runs on)."""

    def seed(self, seed: Optional[int]) -> None:
        """Restart the generator from ``seed`` (None: fresh entropy)."""
        self._rng = np.random.default_rng(check_seed(seed))


class RuleBasedAgent:
    """The rule-based player: win, block, fork, stop forks, else most ways to win.

    See the module docstring for the exact rules.  Only ties are random.

    Args:
        seed: seed of the generator that breaks ties.
    """

    name = "rules"

    def __init__(self, seed: Optional[int] = None) -> None:
        self._rng = np.random.default_rng(check_seed(seed))

    def select_move(self, position: Position) -> Action:
        """The rule-based move for the side to move (``position`` is left untouched)."""
        return rule_based_move(position, self._rng)

    def reset(self) -> None:
        """Nothing to forget: every move is computed from the position alone."""

    def seed(self, seed: Optional[int]) -> None:
        """Restart the tie-breaking generator from ``seed`` (None: fresh entropy)."""
        self._rng = np.random.default_rng(check_seed(seed))
