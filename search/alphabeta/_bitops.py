"""Bitboard primitives of the search kernel (``search.alphabeta._bitnegamax``): columns, table slots, budgets.

The rule primitives (the win test, the winning-cells mask) are the game's:
:mod:`games._bits`.

Layout of ``games._bits`` (Pascal Pons' position): bit ``col * (rows + 1) +
row``, row 0 at the bottom, a sentinel bit on top of every column that is
never set.  Shifting a word by ``s`` moves every stone one step along a line:
``1`` up, ``H = rows + 1`` right, ``H + 1`` up-right, ``H - 1`` down-right;
a step off the board lands on a sentinel or falls out of the word.

Every helper takes scalars only and is small enough for LLVM to inline it
into its caller (see ``games._jit``), so the search loop pays neither a call
nor numba's reference counting.
"""

from __future__ import annotations

from typing import Callable, cast

import numba
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from games._jit import JIT
from heuristics._c4_bits import _count
from search._clock import _now

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_HASH = np.uint64(0x9E3779B97F4A7C15)  # 2**64 / golden ratio: spreads Pons' keys over the table


@njit(**JIT)
def _column(rows: int, col: int) -> np.uint64:
    """Every playable square of ``col``."""
    return ((_ONE << np.uint64(rows)) - _ONE) << np.uint64(col * (rows + 1))


@njit(**JIT)
def _first_column(squares: np.uint64, rows: int) -> int:
    """Column of the lowest set bit of ``squares`` (not 0)."""
    low = squares & (~squares + _ONE)
    return _count(low - _ONE) // (rows + 1)


@njit(**JIT)
def _count_node(nodes: int, node_limit: int, check_time: bool, time_mask: int, deadline: float) -> tuple[int, bool]:
    """``(nodes, aborted)`` after counting one more node (``_negamax._budget_exhausted``'s rules).

    A node past the node budget is not counted, so the count never exceeds
    it; the clock is read every ``time_mask + 1`` nodes.
    """
    if node_limit > 0 and nodes >= node_limit:
        return nodes, True
    nodes += 1
    return nodes, check_time and (nodes & time_mask) == 0 and _now() > deadline


@njit(**JIT)
def _tt_slot(key: np.uint64, size: int) -> int:
    """Table slot of ``key`` (``size`` a power of two); int64 so numba never mixes it with uint64 into float."""
    h = key * _HASH
    return np.int64((h ^ (h >> np.uint64(29))) & np.uint64(size - 1))


@njit(**JIT)
def _clip(value: float, limit: float) -> float:
    """``value`` clipped to ``[-limit, limit]``."""
    return min(max(value, -limit), limit)


@njit(**JIT)
def _time_mask(nodes: int, seconds: float) -> int:
    """A mask 2**j - 1 so that 2**j nodes take about half a millisecond at the measured rate (as ``engine._time_mask``)."""
    interval = np.int64(nodes / max(seconds, 1e-6) * 0.0005)
    j = -1  # bit_length(interval) - 1
    while interval > 0:
        interval >>= 1
        j += 1
    return (1 << max(0, min(10, j))) - 1


def _no_prefetch(array: np.ndarray, index: int) -> None:
    """:func:`_prefetch_line` with the JIT off (``NUMBA_DISABLE_JIT=1``), where an LLVM intrinsic cannot run."""


@intrinsic
def _prefetch_line(typingctx, array, index):  # type: ignore[no-untyped-def]
    """In kernels: ask the CPU to bring ``array[index]``'s cache line in for writing (LLVM's ``prefetch``, write intent, keep
    in all cache levels); no effect on results.  A no-op where the CPU has no such instruction.

    Why: each board of a batch owns its transposition table, so the table of a batch of 256 boards is megabytes
    and a store to it mostly misses the caches (and the TLB).  A search that knows its store slots early
    prefetches them, so the misses overlap each other and the search's own work instead of coming one by one.
    """
    sig = types.void(array, index)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        array_type = signature.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, view, [args[1]], wraparound=False)
        i32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [pointer.type, i32, i32, i32]),
                                                  "llvm.prefetch.p0")  # fmt: skip
        builder.call(function, [pointer, ir.Constant(i32, 1), ir.Constant(i32, 3), ir.Constant(i32, 1)])  # write, keep, data
        return context.get_dummy_value()

    return sig, codegen


_prefetch = cast(Callable[[np.ndarray, int], None], _no_prefetch if numba.config.DISABLE_JIT else _prefetch_line)
"""``_prefetch(array, index)`` in kernels (:func:`_prefetch_line`); a no-op with the JIT off."""
