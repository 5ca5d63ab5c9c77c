"""Random openings for matches: distinct up to symmetry, undecided, split into a tuning and a held-out pool.

Deterministic engines replay the same game from the same position, so a
match needs many starting positions.  :func:`make_openings` draws random
move sequences of a few plies and keeps a position only if

* no earlier opening is the same position up to the board's symmetries
  (Connect-4: the left-right mirror; m,n,k: every reflection and rotation of
  the rectangle), and
* a short alpha-beta search (``check_depth`` plies) finds no forced result
  for either side: a decided opening measures nothing.

The check is cheap where it can be: a win within ``check_depth`` plies needs
a line of ``k`` cells holding no opponent stone and all but the stones a
side still gets to play (:func:`cannot_be_decided`).  When no such line
exists for either side, no search can find a forced result, so none is run
(on gomoku-sized boards with a few stones, that is every opening); otherwise
the search on an m,n,k board looks only at cells near the stones, which
holds every move such a win or its defence can use.

On large m,n,k boards (more than :data:`SPREAD_CELLS` cells) the random
moves keep to a radius (:data:`OPENING_RADIUS`) of the stones already
played, the first near the centre, as gomoku openings are played: uniform
moves over a 15x15 board scatter stones that never meet.

The openings are split by a seeded shuffle into a pool the tuner sees and a
held-out pool it never sees (the confirmation games), and saved as JSON in
the run directory, so a run can be replayed.

Example:
    >>> from games import CONNECT4
    >>> book = make_openings(CONNECT4, count=10, plies=2, seed=1, heldout=0.5)
    >>> len(book.tuning), len(book.heldout)
    (5, 5)
    >>> book == OpeningBook.from_json(book.to_json())
    True
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np

from games import Action, KInARow, Position, make_game
from games.checks import check_int
from heuristics import Evaluator, files
from search.alphabeta.engine import search
from search.errors import OpeningError
from search.protocol import is_win_score

Opening = tuple[Action, ...]
FORMAT = "alphabeta-gym-openings"


def board_symmetries(game: KInARow, board: np.ndarray) -> list[np.ndarray]:
    """Every image of ``board`` (flat, row 0 at the top) under the game's symmetries, as 2-D arrays.

    Gravity boards keep the bottom row at the bottom, so only the mirror
    applies; m,n,k boards have the rectangle's four (or the square's eight).
    """
    grid = board.reshape(game.rows, game.cols)
    images = [grid, grid[:, ::-1]]
    if game.kind == "mnk":
        images += [grid[::-1, :], grid[::-1, ::-1]]
        if game.rows == game.cols:
            images += [image.T for image in list(images)]
    return images


def canonical_key(position: Position) -> bytes:
    """The smallest byte image of the position's board over its symmetries: equal for symmetric positions."""
    return min(np.ascontiguousarray(image).tobytes() for image in board_symmetries(position.game, position.board()))


SPREAD_CELLS = 64
"""m,n,k boards with more cells than this draw their random opening moves near the stones (9x9 and up)."""
OPENING_RADIUS = 2
"""How far (king moves) from the stones a random opening move on such a board may land."""


def default_opening_radius(game: KInARow) -> Optional[int]:
    """The radius random opening moves keep to: :data:`OPENING_RADIUS` on m,n,k boards of more than
    :data:`SPREAD_CELLS` cells, None (anywhere) on smaller ones and under gravity."""
    return OPENING_RADIUS if not game.gravity and game.n_cells > SPREAD_CELLS else None


def _best_open_line(grid: np.ndarray, player: int, k: int) -> int:
    """The most ``player`` stones in a line of ``k`` cells (any of the four directions) without an opponent stone."""
    rows, cols = grid.shape
    own, other = (grid == player).astype(np.int16), ((grid != 0) & (grid != player)).astype(np.int16)
    best = -1
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        r_count, c_count = rows - (k - 1) * dr, cols - (k - 1) * abs(dc)
        if r_count <= 0 or c_count <= 0:
            continue
        c_start = (k - 1) if dc < 0 else 0
        mine = np.zeros((r_count, c_count), dtype=np.int16)
        theirs = np.zeros((r_count, c_count), dtype=np.int16)
        for i in range(k):  # add the i-th cell of every line at once
            r0, c0 = i * dr, c_start + i * dc
            mine += own[r0 : r0 + r_count, c0 : c0 + c_count]
            theirs += other[r0 : r0 + r_count, c0 : c0 + c_count]
        open_lines = mine[theirs == 0]
        if open_lines.size:
            best = max(best, int(open_lines.max()))
    return best


def cannot_be_decided(position: Position, depth: int) -> bool:
    """True if no side can complete ``k`` in a row within ``depth`` more plies, so no search of that depth
    finds a forced result.

    Within ``depth`` plies the side to move plays ``ceil(depth / 2)`` stones and the other ``floor(depth / 2)``;
    a win needs a line of ``k`` cells without an opponent stone that already holds the rest.  A necessary
    condition only: False says a search is needed, not that the position is decided.

    Example:
        >>> from games import GOMOKU
        >>> cannot_be_decided(GOMOKU.position("h8 i9 h9 i10"), 4)   # two stones each: five is three moves away
        True
    """
    game = position.game
    grid = position.board().reshape(game.rows, game.cols)
    mover = 1 + position.to_move
    for player, stones in ((mover, (depth + 1) // 2), (3 - mover, depth // 2)):
        if _best_open_line(grid, player, game.k) + stones >= game.k:
            return False
    return True


def is_decided(position: Position, evaluator: Evaluator, depth: int) -> bool:
    """True if the position is over, or a ``depth``-ply search proves a win or loss for the side to move.

    The search runs only where :func:`cannot_be_decided` does not already rule a forced result out, and on an
    m,n,k board it considers only cells within ``ceil(depth / 2)`` (at least 2) of a stone: the empty cells of a
    line a side can complete in its ``ceil(depth / 2)`` moves lie that close to its stones.
    """
    if position.is_terminal():
        return True
    if depth < 1 or cannot_be_decided(position, depth):
        return False
    radius = None if position.game.gravity else max(2, (depth + 1) // 2)
    return is_win_score(search(position, evaluator, depth=depth, radius=radius).score)


@dataclass(frozen=True)
class OpeningBook:
    """Openings of one game, split into the tuning pool and the held-out pool.

    Attributes:
        game: the game the openings belong to.
        plies: the length of every opening.
        seed: the seed that drew them.
        tuning, heldout: the two pools (move tuples from the empty board).
    """

    game: KInARow
    plies: int
    seed: int
    tuning: tuple[Opening, ...]
    heldout: tuple[Opening, ...]

    def to_json(self) -> dict[str, Any]:
        """The JSON object saved in a run directory (moves in the game's notation)."""
        game: dict[str, Any] = {"kind": self.game.kind, "rows": self.game.rows, "cols": self.game.cols, "k": self.game.k}
        if self.game.exact_k:  # written only when set: books of freestyle games read as they always did
            game["exact_k"] = True
        return {
            "format": FORMAT, "version": 1, "game": game, "plies": self.plies, "seed": self.seed,
            "tuning": [self.game.format_moves(o) for o in self.tuning],
            "heldout": [self.game.format_moves(o) for o in self.heldout],
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> OpeningBook:
        """The inverse of :meth:`to_json` (raises ValueError on a malformed object)."""
        try:
            if data["format"] != FORMAT:
                raise OpeningError(f"format {data['format']!r} is not {FORMAT!r}")
            g = data["game"]
            game = make_game(g["kind"], g["rows"], g["cols"], g["k"], exact_k=bool(g.get("exact_k", False)))
            pools = [tuple(tuple(game.parse_moves(text)) for text in data[name]) for name in ("tuning", "heldout")]
            return cls(game, int(data["plies"]), int(data["seed"]), pools[0], pools[1])
        except (KeyError, TypeError, OverflowError) as error:
            raise OpeningError(f"malformed openings object: missing or bad field {error}") from None

    def save(self, path: Union[str, os.PathLike[str]]) -> None:
        """Write the book as JSON, atomically (a temporary file renamed over the target)."""
        write_text_atomic(Path(path), json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: Union[str, os.PathLike[str]]) -> OpeningBook:
        """Read a book written by :meth:`save` (OpeningError: not a regular file of at most
        :data:`heuristics.files.MAX_INPUT_BYTES`, not JSON, or not an openings object)."""
        try:
            data = json.loads(files.read_text_capped(path, OpeningError))
        except RecursionError:  # json's own error for nesting too deep to parse
            raise OpeningError(f"{path}: cannot read openings: JSON nested too deeply") from None
        except ValueError as error:  # the reader's errors (they name the path first), JSONDecodeError
            detail = str(error).removeprefix(f"{os.fspath(path)}: ")
            raise OpeningError(f"{path}: cannot read openings: {detail}") from None
        if not isinstance(data, dict):
            raise OpeningError(f"{path}: cannot read openings: the JSON is a {type(data).__name__}, not an object")
        return cls.from_json(data)


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (its folder created if missing) so that a reader sees the old file or the new one.

    The writing is :func:`heuristics.files.write_text_atomic` (fsync, rename,
    permissions from the umask); this name stays for the tuner and the scripts.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    files.write_text_atomic(path, text)


def near_moves(position: Position, radius: Optional[int]) -> list[Action]:
    """The legal moves within ``radius`` king moves of a stone (of the centre cell on an empty board); all legal
    moves when ``radius`` is None, under gravity, or when no legal move is that close."""
    moves = position.legal_moves()
    game = position.game
    if radius is None or game.gravity:
        return moves
    occupied = position.board().reshape(game.rows, game.cols) != 0
    anchors = occupied.copy()
    if not anchors.any():  # the first stone: near the centre
        anchors[game.rows // 2, game.cols // 2] = True
    near = np.zeros_like(anchors)
    for r, c in zip(*np.nonzero(anchors)):
        near[max(0, r - radius) : r + radius + 1, max(0, c - radius) : c + radius + 1] = True
    close = [m for m in moves if near[m // game.cols, m % game.cols]]  # legal moves are empty cells already
    return close or moves


def random_move(position: Position, rng: np.random.Generator, radius: Optional[int] = None) -> Action:
    """A uniformly random legal move among :func:`near_moves` (``radius`` None: any legal move)."""
    moves = near_moves(position, radius)
    return moves[int(rng.integers(len(moves)))]


def _random_opening(game: KInARow, plies: int, rng: np.random.Generator, radius: Optional[int]) -> Position:
    position = game.position()
    while position.ply < plies and not position.is_terminal():
        position.play(random_move(position, rng, radius))
    return position


def make_openings(
    game: KInARow,
    count: int,
    plies: int = 4,
    seed: int = 0,
    heldout: float = 0.3,
    check_depth: int = 4,
    max_draws: int = 100_000,
    radius: Union[int, None, str] = "auto",
) -> OpeningBook:
    """Draw ``count`` distinct, undecided random openings of ``plies`` plies and split them.

    Args:
        game: the game.
        count: openings wanted (tuning + held-out).
        plies: moves in each opening (0 gives the empty board once).
        seed: seeds the draw and the split.
        heldout: the fraction kept out of tuning (rounded; both pools are
            non-empty when ``count >= 2`` and 0 < heldout < 1).
        check_depth: plies of the search that rejects decided openings (0: none).
        max_draws: give up (ValueError) after this many draws, e.g. when the
            game has fewer distinct openings than asked for.
        radius: random moves land within this many king moves of a stone (the first near the centre);
            None: anywhere; ``"auto"``: :func:`default_opening_radius` (2 on m,n,k boards over 64 cells).
    """
    count = check_int("count", count, low=1)
    try:
        plies = check_int("plies", plies, low=0, high=game.n_cells - 1)
    except ValueError as exc:
        raise OpeningError(f"{exc} for {game}") from None
    seed = check_int("seed", seed, low=0)
    if not 0.0 <= heldout < 1.0:
        raise OpeningError(f"heldout={heldout!r} must be a fraction in [0, 1)")
    if radius == "auto":
        radius = default_opening_radius(game)
    elif radius is not None:
        radius = check_int("radius", radius, low=0)
    rng = np.random.default_rng(seed)
    evaluator = Evaluator("square_values", game)
    seen: set[bytes] = set()
    openings: list[Opening] = []
    for _ in range(max_draws):
        position = _random_opening(game, plies, rng, radius)
        key = canonical_key(position)
        if key not in seen:
            seen.add(key)
            if not is_decided(position, evaluator, check_depth):
                openings.append(tuple(position.moves))
                if len(openings) == count:
                    break
    if len(openings) < count:
        raise OpeningError(f"found only {len(openings)} distinct undecided {plies}-ply openings of {game} "
                         f"in {max_draws} draws; asked for {count}")  # fmt: skip
    order = rng.permutation(len(openings))
    n_heldout = min(count - 1, max(1, round(count * heldout))) if heldout > 0 and count >= 2 else 0
    shuffled = [openings[i] for i in order]
    return OpeningBook(game, plies, seed, tuple(shuffled[n_heldout:]), tuple(shuffled[:n_heldout]))
