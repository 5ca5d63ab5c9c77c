"""The tuner's openings: :mod:`search.agents.openings`, where the rating ladder of :mod:`envs` finds them too.

Kept under this name for the tuner's modules and for scripts written against
it, with one addition: :func:`cached_openings`, which keeps every book it
draws in the user's cache (:mod:`tuning._cache`), keyed by board, rule and
every setting of the draw, so a second run on the same board starts at once.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Optional

from games import KInARow
from search.agents.openings import (
    FORMAT,
    Opening,
    OpeningBook,
    board_symmetries,
    canonical_key,
    default_opening_radius,
    is_decided,
    make_openings,
    write_text_atomic,
)
from search.errors import OpeningError
from tuning._cache import cache_dir

__all__ = ["FORMAT", "Opening", "OpeningBook", "board_symmetries", "cached_openings", "canonical_key", "is_decided",
           "make_openings", "write_text_atomic"]  # fmt: skip

DRAW_VERSION = 2
"""Part of every cache key: raised whenever :func:`make_openings` draws other openings for the same settings."""


def _cache_path(game: KInARow, count: int, plies: int, seed: int, heldout: float, folder: Path) -> Path:
    settings = {"version": DRAW_VERSION, "game": game.to_record(), "count": count, "plies": plies, "seed": seed,
                "heldout": round(heldout, 12), "radius": default_opening_radius(game), "check_depth": 4}  # fmt: skip
    key = hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:16]
    stem = f"{game.kind}-{game.rows}x{game.cols}x{game.k}{'-exact' if game.exact_k else ''}"
    return folder / "openings" / f"{stem}-{key}.json"


def cached_openings(game: KInARow, count: int, plies: int, seed: int, heldout: float,
                    folder: Optional[Path] = None) -> tuple[OpeningBook, bool]:  # fmt: skip
    """``(book, from_cache)``: :func:`make_openings` with these settings, read from the cache when it holds them.

    A cache that cannot be read or written is no error: the book is drawn (and, if the folder is writable,
    kept).  ``folder`` defaults to :func:`tuning._cache.cache_dir`.
    """
    path = _cache_path(game, count, plies, seed, heldout, folder or cache_dir())
    if path.is_file():
        try:
            book = OpeningBook.load(path)
            if book.game == game and book.plies == plies and len(book.tuning) + len(book.heldout) == count:
                return book, True
        except OpeningError:  # a damaged entry: draw it again and replace it
            pass
    book = make_openings(game, count, plies, seed, heldout=heldout)
    try:
        book.save(path)
    except OSError:  # a read-only home, a full disk: the run goes on without the cache
        pass
    return book, False
