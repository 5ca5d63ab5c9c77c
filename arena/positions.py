"""Games and positions from request parameters, and positions as JSON: what every view of the arena starts from.

A game is named as the command lines name it (``game=connect4|tictactoe|gomoku|mnk`` with ``rows``,
``cols``, ``k`` and ``exact=1`` for the exact-k rule), a position by its move string in the game's
notation (Pascal Pons' column digits for Connect-4, cell names such as ``h8`` for m,n,k).

Example:
    >>> game = game_from_params({"game": "connect4"})
    >>> data = position_json(position_from_params(game, {"moves": "4453"}))
    >>> data["ply"], data["to_move"], data["legal"]
    (4, 0, [0, 1, 2, 3, 4, 5, 6])
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from arena import _engine as engine
from arena.errors import BadRequest

KINDS = ("connect4", "tictactoe", "gomoku", "mnk")
"""The game names a request may give (``game=``)."""
MAX_MOVES_TEXT = 20_000
"""The longest move string read (a 100x100 board's 10,000 cells fit)."""


def _int_param(params: Mapping[str, str], name: str) -> Optional[int]:
    """``params[name]`` as an int, None when absent or empty; a one-line error naming the value otherwise."""
    text = params.get(name, "")
    if text == "":
        return None
    if not text.strip().lstrip("-").isdigit():
        raise BadRequest(f"{name}={text!r} is not an integer")
    return int(text)


def game_from_params(params: Mapping[str, str]) -> engine.KInARow:
    """The game of a request: ``game`` (default connect4), ``rows``, ``cols``, ``k``, ``exact`` (0 or 1).

    Raises:
        BadRequest: an unknown game or sizes the rules refuse (the message says what is allowed).
    """
    kind = params.get("game", "connect4") or "connect4"
    if kind not in KINDS:
        raise BadRequest(f"game={kind!r} is not a game: choose one of {', '.join(KINDS)}")
    exact = params.get("exact", "0")
    if exact not in ("0", "1", "", "true", "false"):
        raise BadRequest(f"exact={exact!r} must be 0 or 1 (1: the exact-k rule, an overline does not win)")
    rows, cols, k = (_int_param(params, name) for name in ("rows", "cols", "k"))
    try:
        return engine.make_game(kind, rows, cols, k, exact_k=exact in ("1", "true"))
    except engine.GameError as error:
        raise BadRequest(str(error)) from None


def position_from_params(game: engine.KInARow, params: Mapping[str, str], name: str = "moves") -> engine.Position:
    """The position after the move string ``params[name]`` (empty: the empty board).

    Raises:
        BadRequest: a move that cannot be read or is illegal where it is played (the message names it).
    """
    text = params.get(name, "") or ""
    if len(text) > MAX_MOVES_TEXT:
        raise BadRequest(f"{name}= holds {len(text)} characters: at most {MAX_MOVES_TEXT} are read")
    try:
        return game.position(text)
    except engine.GameError as error:
        raise BadRequest(str(error)) from None


def game_json(game: engine.KInARow) -> dict[str, Any]:
    """The game as the front end draws it: kind, sizes, rule, gravity and its name."""
    return {"kind": game.kind, "rows": game.rows, "cols": game.cols, "k": game.k, "exact_k": game.exact_k,
            "gravity": game.gravity, "name": str(game)}  # fmt: skip


def position_json(position: engine.Position) -> dict[str, Any]:
    """A position as JSON: the board (row 0 at the top), moves, side to move, legal moves, outcome, the winning line."""
    game = position.game
    actions = position.moves
    return {
        "game": game_json(game),
        "moves": position.move_string(),
        "actions": actions,
        "notation": [game.format_move(a) for a in actions],
        "ply": position.ply,
        "to_move": position.to_move,
        "board": position.board().tolist(),
        "legal": position.legal_moves(),
        "winner": position.winner,
        "outcome": position.outcome(),
        "over": position.is_terminal(),
        "winning_cells": winning_cells(position),
    }


def winning_cells(position: engine.Position) -> list[list[int]]:
    """The ``[row, col]`` cells of the line that won (row 0 at the top), or ``[]`` while nobody has won.

    The last stone made the line, so only lines through it are looked at.
    """
    if position.winner is None or position.last_move is None:
        return []
    game, board = position.game, position.board()
    colour = position.winner + 1
    row, col = last_cell(position)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        line = [(row, col)]
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < game.rows and 0 <= c < game.cols and board[r, c] == colour:
                line.append((r, c))
                r, c = r + sign * dr, c + sign * dc
        if len(line) == game.k or (len(line) > game.k and not game.exact_k):
            return sorted([r, c] for r, c in line)
    return []


def last_cell(position: engine.Position) -> tuple[int, int]:
    """The ``(row, col)`` of the last stone (row 0 at the top)."""
    game, action = position.game, position.last_move
    assert action is not None
    if game.gravity:
        column = position.board()[:, action]
        return int((column == 0).sum()), action  # the highest stone of the column
    return divmod(action, game.cols)


def score_distance(score: int, ply: int, cells: int) -> int:
    """Plies from a position of ``ply`` stones to the winning stone, for a solver score of the move played there.

    ``score`` is the move's score from the side playing it (Pascal Pons' convention: a win when the winner's
    last stone goes on a board of ``n`` stones scores ``(cells + 1 - n) // 2``); the count includes the move
    itself and the winning stone, so a move that wins at once is 1 and an immediate reply that wins is 2.

    Example:
        >>> score_distance(18, 6, 42), score_distance(-18, 6, 42), score_distance(17, 6, 42)
        (1, 2, 3)
    """
    if score == 0:
        return 0
    winner_parity = ply % 2 if score > 0 else (ply + 1) % 2
    value = abs(score)
    for stones in (cells + 1 - 2 * value, cells - 2 * value, cells + 2 - 2 * value):  # floor division: one of these
        if stones % 2 == winner_parity and (cells + 1 - stones) // 2 == value and stones >= ply:
            return stones - ply + 1
    raise ValueError(f"score {score} cannot come from a position of {ply} stones on {cells} cells")
