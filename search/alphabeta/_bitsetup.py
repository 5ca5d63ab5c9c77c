"""The bitboard kernel's constant arguments for a game and heuristic, built once and cached.

:mod:`search.alphabeta._bitnegamax` takes, besides the position, a settings array
(:mod:`search._settings`: the plan for this heuristic on this board, and
``square_values``' table in bitboard order) and ``consts`` (the bottom row,
every square, then the bitboard evaluator's masks).  Both depend only on
the game's rules and the heuristic, so they are built once per pair and
kept read-only (the callers copy the settings, which the kernel writes).
Used by :func:`search.alphabeta.engine.search` (through :mod:`search.alphabeta._bitsearcher`),
the batched searches of :mod:`envs.batched`, and :func:`_warm_clock`'s
callers, the timed searches of both kernels.
"""

from __future__ import annotations

import math
import time
from functools import lru_cache

import numpy as np

from games import Position
from games._rules import Rules
from heuristics._c4_bits import constants as c4_constants
from heuristics._c4_bits import fits as c4_fits
from heuristics._square_values import square_value_table
from heuristics._threats_bits import constants as threats_constants
from heuristics._threats_bits import fits as threats_fit
from search._clock import _now
from search._settings import S_ARRAY, S_BIT_EVAL, S_ORDER_DEPTH, S_SQUARE_VALUES, new_settings
from search.alphabeta import _bitnegamax as bn
from search.budget import Limit
from search.result import MAX_DEPTH


@lru_cache(maxsize=64)
def _bit_settings(rules: Rules, hid: int) -> np.ndarray:
    """The bitboard kernel's settings for a game and heuristic, budgets and counters zero (copy it)."""
    bit_eval = _bit_eval(rules, hid)
    settings = new_settings(hid)
    settings[S_BIT_EVAL] = int(bit_eval)
    settings[S_ARRAY] = int(hid != bn.HID_SQUARE_VALUES and not bit_eval)
    settings[S_ORDER_DEPTH] = bn.order_from_depth(hid, bit_eval)
    if hid == bn.HID_SQUARE_VALUES:
        settings[S_SQUARE_VALUES : S_SQUARE_VALUES + 64] = _square_values_by_bit(rules.rows, rules.cols, rules.k)
    settings.setflags(write=False)
    return settings


def _bit_eval(rules: Rules, hid: int) -> bool:
    """True if heuristic ``hid`` evaluates on the bitboards themselves (no array board kept in step)."""
    if hid == bn.HID_C4_FEATURES:
        return c4_fits(rules.rows, rules.cols)
    return hid == bn.HID_THREATS and threats_fit(rules.rows, rules.cols, rules.k)


@lru_cache(maxsize=64)
def _bit_consts(rules: Rules, hid: int) -> np.ndarray:
    """The kernel's ``consts``: bottom row and all squares first, then the bitboard evaluator's masks, zero-padded."""
    consts = np.zeros(bn.N_BIT_CONSTS, dtype=np.uint64)
    if hid == bn.HID_THREATS and threats_fit(rules.rows, rules.cols, rules.k):
        masks = threats_constants(rules.rows, rules.cols, rules.k)
    else:
        masks = c4_constants(rules.rows, rules.cols)
    consts[: masks.size] = masks
    consts.setflags(write=False)
    return consts


@lru_cache(maxsize=64)
def _square_values_by_bit(rows: int, cols: int, k: int) -> np.ndarray:
    """``square_values``' table in bitboard order: ``int64[64]``, bit ``col * (rows + 1) + row`` (row 0 at the bottom)."""
    table = square_value_table(rows, cols, k)
    values = np.zeros(64, dtype=np.int64)
    for row in range(rows):
        for col in range(cols):
            values[col * (rows + 1) + rows - 1 - row] = table[row, col]
    values.setflags(write=False)
    return values


@lru_cache(maxsize=None)
def _warm_clock() -> None:
    """Load the kernels' clock (:mod:`search._clock`) once per process, from numba's cache or compiling it.

    Done before a timed search computes its deadline, so that one-time cost
    does not eat the first time budget.
    """
    _now()


def _clock_and_depth(position: Position, limit: Limit) -> tuple[float, float, int]:
    """A search's start time, its deadline (``inf`` without a time budget) and the deepest iteration it may reach.

    The clock is warmed first under a time budget (:func:`_warm_clock`), so the deadline is counted after it.
    """
    if limit.time_ms is not None:
        _warm_clock()
    started = time.perf_counter()
    deadline = started + limit.time_ms / 1000.0 if limit.time_ms is not None else math.inf
    remaining = position.game.n_cells - position.ply
    return started, deadline, min(limit.depth or remaining, remaining, MAX_DEPTH)
