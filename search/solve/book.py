"""The Connect-4 6x7 opening book: the exact score of every position of 12 stones, read from ``bitbully-databases``.

What it is: the 12-ply database with distances of Markus Thill's
``bitbully-databases`` package (MIT licence; the format follows John Tromp's
8-ply Connect-4 database): 4,200,899 entries, one for every 6x7 position of
12 stones where nobody has won and the first player (to move) cannot win at
once, of each pair of mirror images only one.  Each entry gives the value
for the first player and how many stones are still to be played before the
game's winning stone lands (a draw: 0).  That is exactly a score of the
benchmark convention of :mod:`search.solve` (Pascal Pons'), which this
module hands out: ``Connect4Book.score`` is the score for the side to move.

It is an optional extra, installed with ``pip install "alphabeta-gym[book]"``
(a 17.9 MB wheel; 21 MB on disk, 21 MB in memory once loaded, in 0.25
to 1 s).  Only its data file is read, by the code here; nothing else of
``bitbully-databases`` or of the ``bitbully`` engine is used.  Without it
everything works as before, only slower near the start (see
``docs/guide/search.md``).

Who uses it: :class:`search.solve.Solver` (a search that reaches 12 stones
stops there and takes the book's score, so positions of up to 12 stones
solve in milliseconds), hence :func:`search.solve.solve`,
:class:`search.solve.PerfectAgent` and ``python -m search.solve``; and
:class:`search.agents.AlphaBetaAgent` with ``book=True`` (spec key ``book=1``).

Example:
    >>> from games import CONNECT4
    >>> book = installed_book()
    >>> book is None or book.score(CONNECT4.position("444444111222")) is not None
    True
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from typing import Optional, Union

import numpy as np

from games import KInARow, Position, _bits
from search.errors import SearchError
from search.solve._book_kernels import BOOK_COLS, BOOK_ROWS, INDEX_BITS, MISSING, _book_codes, _book_score

BOOK_PLY = 12
"""The stones on the board of every position the book holds."""
BOOK_POSITIONS = 4_200_899
"""Entries of a complete book: 12-stone 6x7 positions, nobody has won, the first player cannot win at once, up to
mirror images (counted by enumerating every position; the file must hold exactly these)."""
BOOK_PACKAGE = "bitbully_databases"
"""The Python package that ships the book's file."""
BOOK_FILE = "assets/book_12ply_distances.dat"
"""The book's file, inside that package."""
INSTALL = 'pip install "alphabeta-gym[book]"'
"""The command that installs the book."""
_REINSTALL = 'pip install --force-reinstall "alphabeta-gym[book]"'
SHALLOW_PLY = 6
"""The shallow table holds every position of up to this many stones."""
SHALLOW_FILE = Path(__file__).parent / "data" / "connect4-shallow-6ply.npz"
"""The shallow table, shipped with the package (see :func:`read_shallow`)."""
_RECORD = 5  # bytes per entry: the position's code (32 bits, big-endian), the value (a signed byte)
_WIN_BASE = 100  # a value is +-(100 - plies left until the winning stone, that stone included)

PathLike = Union[str, Path]


class BookError(SearchError):
    """The opening book cannot be used: not installed, unreadable, or not a complete 12-ply book."""


class Connect4Book:
    """Exact scores of Connect-4 6x7 positions by stone count (see the module docstring); load it with
    :func:`load_book` or :func:`installed_book`.

    Args:
        path: the 12-ply file the book was read from.
        keys: uint32[n], sorted without repeats: the positions' codes (:mod:`search.solve._book_kernels`).
        scores: int8[n]: each position's score for the side to move, benchmark convention.
        plies: the stone counts the book covers (every position of those counts where the side to move
            cannot win at once and nobody has won, of each pair of mirror images one).

    Attributes:
        path: the file it was read from.
        ply: the stone count of the 12-ply positions (12), the book's horizon.
        plies: every stone count it covers: 0 to 6 (the shipped shallow table, if used) and 12.
    """

    def __init__(self, path: Path, keys: np.ndarray, scores: np.ndarray, plies: tuple[int, ...] = (BOOK_PLY,)) -> None:
        self.path = path
        self.ply = BOOK_PLY
        self.plies = tuple(sorted(plies))
        self.keys = keys
        self.scores = scores
        counts = np.bincount(keys >> np.uint32(32 - INDEX_BITS), minlength=1 << INDEX_BITS)
        self.index = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        """int64[65537]: where the codes of each value of the top 16 bits start."""
        self.at = np.zeros(BOOK_ROWS * BOOK_COLS + 1, dtype=np.int8)
        """int8[43]: 1 at every stone count the book covers (the kernels' ``book_at``)."""
        self.at[list(self.plies)] = 1

    def __len__(self) -> int:
        return int(self.keys.size)

    def __reduce__(self) -> tuple[object, tuple[str, bool]]:
        """Pickled as its file's name: a worker process loads the file once (:func:`_load_once`), not 21 MB per copy."""
        return _load_once, (str(self.path), self.plies != (BOOK_PLY,))

    def __repr__(self) -> str:
        plies = ", ".join(map(str, self.plies))
        return f"Connect4Book({str(self.path)!r}, {len(self)} positions of {plies} stones)"

    def covers(self, game: KInARow) -> bool:
        """True if the book describes ``game`` (standard Connect-4 on 6 rows and 7 columns)."""
        return is_book_game(game)

    def score(self, position: Position) -> Optional[int]:
        """The exact score of ``position`` for the side to move (benchmark convention), None if the book lacks it.

        The book holds positions of the stone counts in :attr:`plies` where the
        side to move cannot win at once (a win at once scores
        ``(cells + 1 - ply) // 2``, no book needed); anything else is None.

        Raises:
            BookError: a position of another game than Connect-4 6x7.
        """
        if not is_book_game(position.game):
            raise BookError(f"the opening book is for Connect-4 6x7; got a position of {position.game}")
        if position.ply not in self.plies or position.is_terminal():
            return None
        current, mask = map(np.uint64, _bits._from_board(position._board, BOOK_ROWS, BOOK_COLS, position.ply))
        value = _book_score(current, mask, position.ply, self.keys, self.scores, self.index)
        return None if value == MISSING else int(value)

    def codes(self, position: Position) -> tuple[int, int]:
        """The book codes of ``position`` and of its mirror image (:mod:`search.solve._book_kernels`), at most 12 stones."""
        if not is_book_game(position.game) or position.ply > BOOK_PLY:
            raise BookError(f"book codes exist for Connect-4 6x7 positions of at most {BOOK_PLY} stones; got "
                            f"{position.ply} stones of {position.game}")  # fmt: skip
        current, mask = map(np.uint64, _bits._from_board(position._board, BOOK_ROWS, BOOK_COLS, position.ply))
        code, mirror = _book_codes(current, mask, position.ply)
        return int(code), int(mirror)


def is_book_game(game: KInARow) -> bool:
    """True for the game the book describes: Connect-4 with gravity on 6 rows and 7 columns, four in a row."""
    return bool(game.gravity) and (game.rows, game.cols, game.k) == (BOOK_ROWS, BOOK_COLS, 4) and not game.rules.exact_k


def book_path() -> Optional[Path]:
    """The installed book's file (from the ``bitbully-databases`` package), or None if that package is not installed."""
    spec = importlib.util.find_spec(BOOK_PACKAGE)  # found without importing the package
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / BOOK_FILE


def load_book(path: Optional[PathLike] = None, shallow: bool = True) -> Connect4Book:
    """Read and check a 12-ply book file (default: the installed one), with the shipped shallow table.

    Checks: the size is a whole number of 5-byte entries, there are exactly
    :data:`BOOK_POSITIONS` of them, the codes are sorted without repeats, and
    every value is a draw or a win whose stone count fits the board and the
    winner's turn.

    Args:
        path: the 12-ply file (``book_12ply_distances.dat`` of ``bitbully-databases``).
        shallow: also take the scores of every position of up to :data:`SHALLOW_PLY`
            stones from :data:`SHALLOW_FILE` (computed by this solver over the
            12-ply book, ``scripts/make_book.py``), so that those need no search.

    Raises:
        BookError: the book is not installed, or a file is missing, unreadable
            or fails a check; the message (one line) names the file and how to fix it.
    """
    if path is None:
        found = book_path()
        if found is None:
            raise BookError(f"the Connect-4 opening book is not installed (package {BOOK_PACKAGE!r} not found): {INSTALL}")
        path = found
    path = Path(path)
    raw = _read(path)
    keys, values = _parse(path, raw)
    scores = _scores(path, values)
    if not shallow:
        return Connect4Book(path, keys, scores)
    shallow_keys, shallow_scores = read_shallow(SHALLOW_FILE)
    merged = np.concatenate((keys, shallow_keys))
    order = np.argsort(merged, kind="stable")
    return Connect4Book(path, merged[order], np.concatenate((scores, shallow_scores))[order],
                        tuple(range(SHALLOW_PLY + 1)) + (BOOK_PLY,))  # fmt: skip


def _read(path: Path) -> np.ndarray:
    """The bytes of ``path``, or a one-line error."""
    try:
        return np.fromfile(path, dtype=np.uint8)
    except OSError as exc:
        raise BookError(f"opening book {path}: cannot read it ({exc.strerror or exc}); reinstall it: {_REINSTALL}") from None


def read_shallow(path: PathLike) -> tuple[np.ndarray, np.ndarray]:
    """The shallow table's codes (sorted) and scores, checked: codes of at most :data:`SHALLOW_PLY` stones, in order.

    Format (``.npz``, written by ``scripts/make_book.py``): ``keys`` uint32[n]
    sorted without repeats, each the smaller of a position's code and its
    mirror's; ``scores`` int8[n], the score for the side to move; ``plies``
    int64[1], the largest stone count.

    Raises:
        BookError: the file is missing or fails a check (one line).
    """
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            keys, scores, plies = data["keys"], data["scores"], data["plies"]
    except (OSError, KeyError, ValueError) as exc:
        raise BookError(f"shallow book table {path}: cannot read it ({exc}); reinstall alphabeta-gym") from None
    ok = (keys.dtype == np.uint32 and scores.dtype == np.int8 and keys.shape == scores.shape and keys.ndim == 1
          and plies.tolist() == [SHALLOW_PLY] and bool(np.all(keys[1:] > keys[:-1])))  # fmt: skip
    if not ok:
        raise BookError(f"shallow book table {path} is corrupt (not sorted {SHALLOW_PLY}-ply codes and int8 scores); "
                        f"reinstall alphabeta-gym")  # fmt: skip
    return keys, scores


def _corrupt(path: Path, problem: str) -> BookError:
    """The one-line error for a damaged book file."""
    return BookError(f"opening book {path} is corrupt ({problem}); reinstall it: {_REINSTALL}")


def _parse(path: Path, raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The file's codes, sorted as unsigned words, and their values (the first player's, signed bytes)."""
    if raw.size != BOOK_POSITIONS * _RECORD:
        raise _corrupt(path, f"{raw.size} bytes, expected {BOOK_POSITIONS * _RECORD}: {BOOK_POSITIONS} entries of "
                             f"{_RECORD} bytes")  # fmt: skip
    records = raw.reshape(-1, _RECORD)
    keys = records[:, :4].copy().view(">u4").ravel().astype(np.uint32)
    values = records[:, 4].copy().view(np.int8)
    # The file is sorted as signed 32-bit words: codes with the top bit set (a stone in column 1) come
    # first; rotating them to the end sorts everything as unsigned words, which the lookup searches.
    split = int(np.count_nonzero(keys >= np.uint32(1 << 31)))
    keys, values = np.concatenate((keys[split:], keys[:split])), np.concatenate((values[split:], values[:split]))
    if np.any(keys[1:] <= keys[:-1]):
        raise _corrupt(path, "its positions are not in order")
    return keys, values


def _scores(path: Path, values: np.ndarray) -> np.ndarray:
    """Scores for the side to move at 12 stones (the first player) from the book's values, each value checked.

    A value ``v`` is 0 (draw) or ``+-(100 - d)``: the first player wins (+)
    or loses (-) with the ``d``-th stone from now; the winning stone is then
    stone ``12 + d`` of the game, and the winner's score
    ``(cells + 2 - (12 + d)) // 2``.  The first player places odd stones, so
    ``d`` is odd for its wins and even for its losses.
    """
    cells = BOOK_ROWS * BOOK_COLS
    v = values.astype(np.int64)
    left = _WIN_BASE - np.abs(v)  # d: stones still to play, the winning one included
    decided = v != 0
    first_wins = v > 0
    ok = ~decided | ((left >= 2) & (left <= cells - BOOK_PLY) & ((left % 2 == 1) == first_wins))
    if not np.all(ok):
        bad = int(np.flatnonzero(~ok)[0])
        raise _corrupt(path, f"entry {bad} has the impossible value {int(v[bad])}")
    magnitude = (cells + 2 - BOOK_PLY - left) // 2
    return np.where(decided, np.where(first_wins, magnitude, -magnitude), 0).astype(np.int8)


@functools.lru_cache(maxsize=2)
def _load_once(path: str, shallow: bool = True) -> Connect4Book:
    """:func:`load_book` of ``path``, once per process."""
    return load_book(path, shallow)


def installed_book() -> Optional[Connect4Book]:
    """The installed book, loaded once per process (0.25 to 1 s, 21 MB); None if it is not installed.

    Raises:
        BookError: the book is installed but its file is missing or damaged.
    """
    path = book_path()
    return None if path is None else _load_once(str(path), True)


def require_book() -> Connect4Book:
    """The installed book.

    Raises:
        BookError: it is not installed (the message gives the install command) or is damaged.
    """
    book = installed_book()
    if book is None:
        return load_book()  # raises the not-installed error
    return book
