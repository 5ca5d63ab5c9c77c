"""A tiny counter-based random generator for kernels (SplitMix64).

Kernels never touch numpy's global random state: the generator state is a
``uint64[1]`` array passed in by the caller, so a kernel's output depends only
on its arguments and a seed reproduces a run on any machine.  SplitMix64
(Steele, Lea and Flood, 2014) passes BigCrush, needs one word of state and a
handful of instructions per draw, which is all a random playout needs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games._jit import JIT

_GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit(**JIT)
def _next_u64(state: np.ndarray) -> np.uint64:
    """Advance ``state`` (uint64[1]) and return the next 64-bit output."""
    state[0] += _GOLDEN_GAMMA
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(**JIT)
def _below(state: np.ndarray, n: int) -> int:
    """Return a uniform integer in ``[0, n)``; ``n`` must be positive.

    The modulo bias is below ``n / 2**64``, far under anything a game can show.
    """
    return int(_next_u64(state) % np.uint64(n))


def new_state(seed: int) -> np.ndarray:
    """Return a generator state (uint64[1]) for ``seed`` (any Python int)."""
    return np.array([seed & 0xFFFFFFFFFFFFFFFF], dtype=np.uint64)


def zobrist_table(n_cells: int, seed: int = 0x5EED_C0DE) -> np.ndarray:
    """Return a fixed ``uint64[2, n_cells]`` Zobrist table.

    Built with SplitMix64 from a constant seed, so keys are identical on every
    machine and numpy version (a transposition table or a saved opening book
    can rely on them).
    """
    state = new_state(seed)
    table = np.empty((2, n_cells), dtype=np.uint64)
    for stone in range(2):
        for cell in range(n_cells):
            table[stone, cell] = _next_u64(state)
    return table
