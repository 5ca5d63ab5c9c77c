"""Game files for the Watch view: the JSON of ``scripts.gomoku_match``, ``scripts.mnk_tournament`` and ``arena.record``.

Every game is checked by replaying its moves (a malformed file is refused with the game and the move
named) and returned in one shape: the game, the players, the result and the moves as actions, so the
page replays any of them move by move without asking the server again.

Example:
    >>> data = {"format": MATCH_FORMAT, "game": {"kind": "mnk", "rows": 3, "cols": 3, "k": 3}, "A": "rules",
    ...         "B": "random", "games": [{"first": "rules", "second": "random", "winner": None, "moves": [4, 0, 2, 6, 3, 5, 1, 7, 8]}]}
    >>> games = read_games(json.dumps(data))["games"]
    >>> games[0]["label"], games[0]["outcome"]
    ('game 1: rules vs random', 'drawn')
"""

from __future__ import annotations

import json
from typing import Any, Callable, Optional

from arena import _engine as engine
from arena.errors import BadRequest
from arena.positions import game_json

MATCH_FORMAT = "alphabeta-gym match games"
"""The ``format`` field of a file written by ``python -m arena.record`` (a match's games, moves included)."""
MAX_FILE_BYTES = 50_000_000
"""The largest game file read (a tournament of every configuration with its games is a few MB)."""


def _game_of_board(name: str) -> engine.KInARow:
    """``M,N,K`` or ``M,N,Kx`` (exact-k), the board names of the gomoku match and the tournament."""
    body = name.strip()
    parts = body.rstrip("x").split(",")
    if len(parts) != 3 or not all(p.strip().isdecimal() for p in parts):
        raise BadRequest(f"board {name!r} is not M,N,K or M,N,Kx (rows, columns, k)")
    rows, cols, k = (int(p) for p in parts)
    try:
        return engine.make_game("mnk", rows, cols, k, exact_k=body.endswith("x"))
    except engine.GameError as error:
        raise BadRequest(f"board {name!r}: {error}") from None


def _game_of_record(raw: Any) -> engine.KInARow:
    if not isinstance(raw, dict):
        raise BadRequest(f"'game' is {raw!r}: an object with kind, rows, cols and k")
    try:
        return engine.make_game(str(raw.get("kind")), raw.get("rows"), raw.get("cols"), raw.get("k"),
                                exact_k=bool(raw.get("exact_k", False)))  # fmt: skip
    except (engine.GameError, TypeError) as error:
        raise BadRequest(f"'game' {raw!r}: {error}") from None


def _one_game(game: engine.KInARow, raw: Any, where: str, index: int) -> dict[str, Any]:
    """A game record checked by replaying it; ``where`` names it in messages."""
    if not isinstance(raw, dict) or not isinstance(raw.get("moves"), list):
        raise BadRequest(f"{where}: a game must be an object with a 'moves' list")
    position = game.position()
    for number, move in enumerate(raw["moves"], 1):
        if isinstance(move, bool) or not isinstance(move, int):
            raise BadRequest(f"{where}: move {number} is {move!r}, not an action number")
        try:
            position.play(move)
        except engine.GameError as error:
            raise BadRequest(f"{where}: move {number}: {error}") from None
    winner = raw.get("winner")
    first, second = str(raw.get("first", "first")), str(raw.get("second", "second"))
    return {
        "index": index, "label": f"{where}: {first} vs {second}", "game": game_json(game), "first": first,
        "second": second, "winner": winner if winner in (0, 1) else None, "reason": str(raw.get("reason", "")),
        "detail": str(raw.get("detail", "")), "moves": list(raw["moves"]),
        "notation": [game.format_move(a) for a in raw["moves"]], "opening_plies": int(raw.get("opening_plies", 0) or 0),
        "outcome": position.outcome() or "unfinished", "winning_colour": position.winner,
    }  # fmt: skip


def _gomoku_match(data: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    games: list[dict[str, Any]] = []
    for board in _list(data, "boards"):
        game = _game_of_board(str(board.get("board", "")))
        openings = board.get("openings") or []
        for number, raw in enumerate(_list(board, "games")):
            record = _one_game(game, raw, f"{board['board']} game {number + 1}", len(games))
            opening = openings[number // 2] if number // 2 < len(openings) else []
            record["opening_plies"] = len(opening) if isinstance(opening, list) else 0
            games.append(record)
    return f"gomoku match: A {data.get('A')} vs B {data.get('B')}", games


def _tournament(data: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    games: list[dict[str, Any]] = []
    for config in _list(data, "configurations"):
        if not config.get("playable", True):
            continue
        game = _game_of_board(str(config.get("config", "")))
        for number, raw in enumerate(_list(config, "games")):
            games.append(_one_game(game, raw, f"{config['config']} game {number + 1}", len(games)))
    return f"m,n,k tournament: {', '.join(map(str, data.get('agents', [])))}", games


def _match(data: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    game = _game_of_record(data.get("game"))
    games = [_one_game(game, raw, f"game {number + 1}", number) for number, raw in enumerate(_list(data, "games"))]
    return f"match: A {data.get('A')} vs B {data.get('B')} ({game})", games


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise BadRequest(f"'{key}' is {type(value).__name__}, not a list")
    return [item if isinstance(item, dict) else _refuse(key, item) for item in value]


def _refuse(key: str, item: Any) -> Any:
    raise BadRequest(f"an entry of '{key}' is {item!r}, not an object")


READERS: dict[str, Callable[[dict[str, Any]], tuple[str, list[dict[str, Any]]]]] = {
    "match": _match, "gomoku_match": _gomoku_match, "mnk_tournament": _tournament,
}  # fmt: skip


def file_kind(data: Any) -> Optional[str]:
    """Which program wrote ``data``: ``match`` (``arena.record``), ``gomoku_match``, ``mnk_tournament``, or None."""
    if not isinstance(data, dict):
        return None
    if data.get("format") == MATCH_FORMAT:
        return "match"
    if "boards" in data and "A" in data:
        return "gomoku_match"
    if "configurations" in data and "agents" in data:
        return "mnk_tournament"
    return None


def read_games(text: str) -> dict[str, Any]:
    """Every game of a match or tournament file, checked; ``{"kind", "title", "games"}``.

    Raises:
        BadRequest: not JSON, not one of the three formats, or a game whose moves do not replay.
    """
    if len(text) > MAX_FILE_BYTES:
        raise BadRequest(f"the file holds {len(text):,} bytes: at most {MAX_FILE_BYTES:,} are read")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise BadRequest(f"the file is not JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    kind = file_kind(data)
    if kind is None:
        raise BadRequest("the file is not a game file: expected the JSON of python -m arena.record, "
                         "python -m scripts.gomoku_match --out or python -m scripts.mnk_tournament --out")  # fmt: skip
    title, games = READERS[kind](data)
    if not games:
        raise BadRequest(f"the {kind.replace('_', ' ')} file holds no game")
    return {"kind": kind, "title": title, "games": games}
