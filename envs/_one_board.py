"""One board's state in one int64 buffer: the single environment's arrays, handed to numba as one argument.

A batch of one board (the single environment) keeps every state array of
:mod:`envs._kernels` (board, heights, stones, history, meta, observation,
mask, reward, random state, params) as a view of one buffer, the *arena*,
whose header also holds the rules and the agent's action.  The kernels
``_reset_one``, ``_step_one`` and ``_reply_one`` take the arena and make the
same views inside numba, so a step unboxes one array instead of fourteen
arguments (0.06 us instead of 0.44 us a call, measured).  Python reads and
writes the views as it reads a batch's arrays: shapes and dtypes are those
of a batch of one.

Layout (int64 words; each section starts on a word, int8 and int32 sections
are padded to whole words)::

    [ header: rows cols k gravity exact_k action illegal_reward | offsets of the sections below, and the end ]
    [ board int8[cells] | heights int32[cols] | stones uint64[2] | history int64[cells] | meta int64[N_META]
      | obs int8[2 * cells] | mask int8[n_actions] | reward float64[1] | rng uint64[1] | params int64[N_PARAMS] ]

Example:
    >>> from games import CONNECT4
    >>> arena = new_arena(CONNECT4, illegal_reward=-1.0)
    >>> views = carve(arena, CONNECT4)
    >>> views["obs"].shape, views["obs"].dtype, views["mask"].shape
    ((1, 2, 6, 7), dtype('int8'), (1, 7))
    >>> views["mask"][0, 3] = 1; bool(arena.view(np.int8).any())  # a view: the arena changed
    True
"""

from __future__ import annotations

import numpy as np

from envs import _kernels as K
from games import KInARow

SECTIONS = ("board", "heights", "stones", "history", "meta", "obs", "mask", "reward", "rng", "params")
"""The sections in layout order (their offsets are header words ``K.H_BOARD`` to ``K.H_PARAMS``)."""


def _section_shapes(game: KInARow) -> dict[str, tuple[tuple[int, ...], type]]:
    """Each section's shape and dtype: a batch of one board's arrays (:class:`envs._batch.BoardBatch`)."""
    cells = game.n_cells
    return {
        "board": ((1, cells), np.int8),
        "heights": ((1, game.cols), np.int32),
        "stones": ((1, 2), np.uint64),
        "history": ((1, cells), np.int64),
        "meta": ((1, K.N_META), np.int64),
        "obs": ((1, 2, game.rows, game.cols), np.int8),
        "mask": ((1, game.n_actions), np.int8),
        "reward": ((1,), np.float64),
        "rng": ((1,), np.uint64),
        "params": ((K.N_PARAMS,), np.int64),
    }


def new_arena(game: KInARow, illegal_reward: float) -> np.ndarray:
    """A zeroed arena for one board of ``game``, its header filled in (rules, offsets, ``illegal_reward``)."""
    shapes = _section_shapes(game)
    offsets, at = [], K.N_HEADER
    for name in SECTIONS:
        shape, dtype = shapes[name]
        offsets.append(at)
        at += -(-int(np.prod(shape)) * np.dtype(dtype).itemsize // 8)  # whole words, rounded up
    arena = np.zeros(at, dtype=np.int64)
    rules = game.rules
    arena[[K.H_ROWS, K.H_COLS, K.H_K, K.H_GRAVITY, K.H_EXACT_K]] = rules.rows, rules.cols, rules.k, rules.gravity, rules.exact_k
    arena[K.H_ILLEGAL_REWARD : K.H_ILLEGAL_REWARD + 1].view(np.float64)[0] = illegal_reward
    arena[K.H_BOARD : K.H_END] = offsets
    arena[K.H_END] = at
    return arena


def carve(arena: np.ndarray, game: KInARow) -> dict[str, np.ndarray]:
    """The sections of ``arena`` as numpy views, by name (the views the kernels make of it, see :mod:`envs._kernels`)."""
    views: dict[str, np.ndarray] = {}
    for h, (name, (shape, dtype)) in enumerate(_section_shapes(game).items(), start=K.H_BOARD):
        words = arena[arena[h] : arena[h + 1]]
        views[name] = words.view(dtype)[: int(np.prod(shape))].reshape(shape)
    return views
