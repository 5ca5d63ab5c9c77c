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
from numba import njit

from games import Action, Position
from games._board import _DIRECTIONS, _action_cell, _playable, _wins_through
from games._jit import JIT
from games._rules import Rules
from games.checks import check_seed
from games.errors import IllegalMoveError
from search.errors import SearchError

# ----------------------------------------------------------------- kernels
# Shared arguments: board int8[rows * cols] (0 empty, 1 and 2 the players'
# stones), heights int32[cols] (stones per column), ``stone`` the mover (1 or
# 2), ``gravity`` the rule.  Action masks are int8[n_actions], 1 = in the set.
# Kernels place stones temporarily and take them back before returning.


@njit(**JIT)
def _is_legal(board: np.ndarray, heights: np.ndarray, rows: int, gravity: bool, action: int) -> bool:
    """True if ``action`` is playable (column not full, or cell empty)."""
    if gravity:
        return bool(heights[action] < rows)
    return bool(board[action] == 0)


@njit(**JIT)
def _wins_at(board: np.ndarray, rules: Rules, cell: int, stone: int) -> bool:
    """True if ``stone`` on the empty ``cell`` would win (the game's win test)."""
    board[cell] = stone
    won: bool = _wins_through(board, rules, cell)
    board[cell] = 0
    return won


@njit(**JIT)
def _is_threat(
    board: np.ndarray, heights: np.ndarray, rules: Rules, cell: int, stone: int
) -> bool:
    """True if ``cell`` is playable now and ``stone`` would win there."""
    rows, cols, gravity = rules.rows, rules.cols, rules.gravity
    if not _playable(board, heights, rows, cols, gravity, cell):
        return False  # taken, or an empty cell higher up its column
    return bool(_wins_at(board, rules, cell, stone))


@njit(**JIT)
def _in_star(cols: int, k: int, centre: int, cell: int) -> bool:
    """True if ``cell`` is on a line through ``centre`` at most ``k - 1`` cells away."""
    dr = abs(cell // cols - centre // cols)
    dc = abs(cell % cols - centre % cols)
    return bool((dr == 0 or dc == 0 or dr == dc) and max(dr, dc) < k)


@njit(**JIT)
def _star_threats(
    board: np.ndarray, heights: np.ndarray, rules: Rules, stone: int, a: int, b: int
) -> int:
    """Count the distinct threats of ``stone`` in the stars of cells ``a`` and ``b`` (``b = -1``: ``a`` only).

    Precondition: no threat existed before the stones on ``a`` and ``b``
    landed, so every threat now lies in their stars (module docstring).
    """
    rows, cols, k = rules.rows, rules.cols, rules.k
    count = 0
    for centre, other in ((a, -1), (b, a)):
        if centre < 0:
            continue
        row, col = centre // cols, centre % cols
        for d in range(4):
            for sign in (1, -1):
                dr, dc = sign * _DIRECTIONS[d, 0], sign * _DIRECTIONS[d, 1]
                for step in range(1, k):
                    r, c = row + step * dr, col + step * dc
                    if not (0 <= r < rows and 0 <= c < cols):
                        break
                    cell = r * cols + c
                    # No early stop at an enemy stone: the cell beyond may win
                    # along another line, and ``a``'s whole star must be seen
                    # for the test below to skip exactly what was counted.
                    if other >= 0 and _in_star(cols, k, other, cell):
                        continue  # already counted in the star of ``a``
                    if _is_threat(board, heights, rules, cell, stone):
                        count += 1
    return count


@njit(**JIT)
def _winning_actions(
    board: np.ndarray, heights: np.ndarray, rules: Rules, stone: int, out: np.ndarray
) -> int:
    """Mark in ``out`` the legal actions with which ``stone`` wins at once; return how many."""
    rows, cols, gravity = rules.rows, rules.cols, rules.gravity
    n = 0
    for action in range(out.shape[0]):
        out[action] = 0
        if _is_legal(board, heights, rows, gravity, action):
            if _wins_at(board, rules, _action_cell(action, heights, rows, cols, gravity), stone):
                out[action] = 1
                n += 1
    return n


@njit(**JIT)
def _safe_actions(
    board: np.ndarray, heights: np.ndarray, rules: Rules, stone: int, out: np.ndarray
) -> int:
    """Mark the legal actions after which the opponent cannot win at once (all legal ones if none is); return how many.

    Called once the opponent has no threat, so only the cell above a move,
    which gravity makes playable, can become one.
    """
    rows, cols, gravity = rules.rows, rules.cols, rules.gravity
    n = 0
    legal = 0
    for action in range(out.shape[0]):
        out[action] = 0
        if not _is_legal(board, heights, rows, gravity, action):
            continue
        legal += 1
        cell = _action_cell(action, heights, rows, cols, gravity)
        above = cell - cols
        if not (gravity and above >= 0 and _wins_at(board, rules, above, 3 - stone)):
            out[action] = 1
            n += 1
    if n == 0:  # every move loses: play on anyway
        for action in range(out.shape[0]):
            out[action] = 1 if _is_legal(board, heights, rows, gravity, action) else 0
        n = legal
    return n


@njit(**JIT)
def _fork_actions(
    board: np.ndarray,
    heights: np.ndarray,
    rules: Rules,
    stone: int,
    allowed: np.ndarray,
    out: np.ndarray,
) -> int:
    """Mark the ``allowed`` legal actions after which ``stone`` has two or more threats; return how many.

    Precondition: neither player has a threat now.
    """
    rows, cols, gravity = rules.rows, rules.cols, rules.gravity
    n = 0
    for action in range(out.shape[0]):
        out[action] = 0
        if allowed[action] and _is_legal(board, heights, rows, gravity, action):
            cell = _action_cell(action, heights, rows, cols, gravity)
            board[cell] = stone
            heights[action % cols] += 1  # ``action % cols`` is the column under both rules
            if _star_threats(board, heights, rules, stone, cell, -1) >= 2:
                out[action] = 1
                n += 1
            board[cell] = 0
            heights[action % cols] -= 1
    return n


@njit(**JIT)
def _dangers(
    board: np.ndarray,
    heights: np.ndarray,
    rules: Rules,
    stone: int,
    cell: int,
    replies: np.ndarray,
) -> int:
    """After ``stone`` lands on ``cell``: the ``replies`` that leave the opponent a fork and us no threat.

    A reply that wins outright counts ``replies.shape[0]`` dangers, more than all forks together.
    Precondition: neither player has a threat before the stone on ``cell``.
    """
    rows, cols, gravity = rules.rows, rules.cols, rules.gravity
    enemy = 3 - stone
    danger = 0
    board[cell] = stone
    heights[cell % cols] += 1
    for reply in range(replies.shape[0]):
        if not (replies[reply] and _is_legal(board, heights, rows, gravity, reply)):
            continue
        target = _action_cell(reply, heights, rows, cols, gravity)
        if _wins_at(board, rules, target, enemy):
            danger += replies.shape[0]
            continue
        board[target] = enemy
        heights[target % cols] += 1
        if _star_threats(board, heights, rules, enemy, target, cell) >= 2:
            if _star_threats(board, heights, rules, stone, cell, target) == 0:
                danger += 1
        board[target] = 0
        heights[target % cols] -= 1
    board[cell] = 0
    heights[cell % cols] -= 1
    return danger


@njit(**JIT)
def _fork_defences(
    board: np.ndarray, heights: np.ndarray, rules: Rules, stone: int,
    allowed: np.ndarray, replies: np.ndarray, out: np.ndarray,
) -> int:  # fmt: skip
    """Mark the ``allowed`` legal actions with the fewest :func:`_dangers`; return how many."""
    rows, cols, gravity = rules.rows, rules.cols, rules.gravity
    best = -1
    n = 0
    for action in range(out.shape[0]):
        out[action] = 0
        if not (allowed[action] and _is_legal(board, heights, rows, gravity, action)):
            continue
        danger = _dangers(board, heights, rules, stone, _action_cell(action, heights, rows, cols, gravity), replies)
        if best < 0 or danger < best:
            best = danger
            out[:action] = 0
            n = 0
        if danger == best:
            out[action] = 1
            n += 1
    return n


@njit(**JIT)
def _window_counts(board: np.ndarray, rows: int, cols: int, k: int, cell: int, stone: int) -> tuple[int, int]:
    """``(ways, own)``: the k-windows through ``cell`` free of enemy stones, and ``stone``'s stones in them."""
    row, col = cell // cols, cell % cols
    ways = 0
    own = 0
    for d in range(4):
        dr, dc = _DIRECTIONS[d, 0], _DIRECTIONS[d, 1]
        for first in range(-(k - 1), 1):  # offset of the window's first cell from ``cell``
            mine = 0
            open_window = True
            for i in range(first, first + k):
                r, c = row + i * dr, col + i * dc
                if not (0 <= r < rows and 0 <= c < cols) or board[r * cols + c] == 3 - stone:
                    open_window = False
                    break
                mine += board[r * cols + c] == stone
            if open_window:
                ways += 1
                own += mine
    return ways, own


@njit(**JIT)
def _most_ways(
    board: np.ndarray,
    heights: np.ndarray,
    rules: Rules,
    stone: int,
    candidates: np.ndarray,
    out: np.ndarray,
) -> int:
    """Write into ``out`` the ``candidates`` with the most (ways, own stones); return how many."""
    rows, cols, k, gravity = rules.rows, rules.cols, rules.k, rules.gravity
    best_ways, best_own = -1, -1
    n = 0
    for action in range(candidates.shape[0]):
        if not candidates[action]:
            continue
        ways, own = _window_counts(board, rows, cols, k, _action_cell(action, heights, rows, cols, gravity), stone)
        if ways > best_ways or (ways == best_ways and own > best_own):
            best_ways, best_own = ways, own
            n = 0
        if ways == best_ways and own == best_own:
            out[n] = action
            n += 1
    return n


# ----------------------------------------------------------------- facade
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
