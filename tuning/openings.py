"""The tuner's openings: :mod:`search.agents.openings`, where the rating ladder of :mod:`envs` finds them too.

Kept under this name for the tuner's modules and for scripts written against it.
"""

from __future__ import annotations

from search.agents.openings import (
    FORMAT,
    Opening,
    OpeningBook,
    board_symmetries,
    canonical_key,
    is_decided,
    make_openings,
    write_text_atomic,
)

__all__ = ["FORMAT", "Opening", "OpeningBook", "board_symmetries", "canonical_key", "is_decided", "make_openings",
           "write_text_atomic"]  # fmt: skip
