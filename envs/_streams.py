"""One ``PCG64`` stream per board, drawn for all boards in one numba call: the batched envs' episode seeds.

Sub-environment ``i`` of the batched env must play what a single env seeded
the same way plays, and a single env draws each episode's two 64-bit words
(the kernel's random state and the opponent's seed) with
``np_random.bit_generator.random_raw(2)`` from Gymnasium's
``seeding.np_random(seed)``, a ``Generator(PCG64(SeedSequence(seed)))``.
Drawing them board by board in Python cost about 0.7 us a board and was a
third of a tic-tac-toe step at 1,024 boards (measured with cProfile; a short
game resets a quarter of the boards every step).  :class:`BoardStreams`
keeps every board's ``PCG64`` state in arrays and steps them in numba, so
the words are bit for bit those of the per-board generators
(``tests/test_env_streams.py`` compares them).

``PCG64`` as NumPy documents it (the XSL-RR 128/64 variant): a 128-bit LCG
``state = state * MULTIPLIER + inc (mod 2**128)`` stepped before each output,
and the output ``rotr64(high ^ low, state >> 122)``.  Integer seeds are
turned into states by :mod:`envs._seeding` (the same ``SeedSequence``
hashing in numba); other seeds (None: fresh entropy) by NumPy itself.
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np
from numba import njit

from envs._seeding import PCG64_MULTIPLIER, _seed_words
from games._jit import JIT, JIT_INLINE

_U = np.uint64
_LOW32 = _U(0xFFFFFFFF)
_W32, _W64_1, _ROT = _U(32), _U(1), _U(58)
_MULT_HI, _MULT_LO = _U(PCG64_MULTIPLIER >> 64), _U(PCG64_MULTIPLIER & 0xFFFFFFFFFFFFFFFF)
HI, LO, INC_HI, INC_LO = range(4)
"""Columns of :attr:`BoardStreams.state`: the 128-bit state and increment as high and low 64-bit words."""
_MAX_WORD_SEED = 2**64
"""Seeds below this are hashed in numba (envs._seeding handles integers of up to two 32-bit words)."""


@njit(**JIT_INLINE)
def _mul_hi(a: np.uint64, b: np.uint64) -> np.uint64:
    """The high 64 bits of the 128-bit product ``a * b`` (schoolbook on 32-bit halves)."""
    a_lo, a_hi, b_lo, b_hi = a & _LOW32, a >> _W32, b & _LOW32, b >> _W32
    cross = (a_lo * b_lo >> _W32) + (a_hi * b_lo & _LOW32) + a_lo * b_hi
    return a_hi * b_hi + (a_hi * b_lo >> _W32) + (cross >> _W32)


@njit(**JIT_INLINE)
def _step(state: np.ndarray, i: int) -> None:
    """Advance board ``i``'s LCG once: ``state = state * MULTIPLIER + inc`` modulo ``2**128``."""
    hi, lo = state[i, HI], state[i, LO]
    new_hi = hi * _MULT_LO + lo * _MULT_HI + _mul_hi(lo, _MULT_LO)
    new_lo = lo * _MULT_LO
    low = new_lo + state[i, INC_LO]
    carry = _W64_1 if low < new_lo else _U(0)
    state[i, HI] = new_hi + state[i, INC_HI] + carry
    state[i, LO] = low


@njit(**JIT)
def _draw(state: np.ndarray, which: np.ndarray, out: np.ndarray) -> None:
    """``out[j]`` = the next ``out.shape[1]`` outputs of board ``which[j]``'s stream (what ``random_raw`` returns)."""
    for j in range(which.shape[0]):
        i = which[j]
        for k in range(out.shape[1]):
            _step(state, i)
            x = state[i, HI] ^ state[i, LO]
            rot = state[i, HI] >> _ROT
            out[j, k] = (x >> rot) | (x << ((_U(64) - rot) & _U(63)))


@njit(**JIT)
def _seed_states(words: np.ndarray, state: np.ndarray, which: np.ndarray) -> None:
    """Seed board ``which[j]`` from the SeedSequence words ``(s0, s1, i0, i1) = words[j]`` as ``PCG64`` does.

    ``inc = (i0:i1) << 1 | 1``; the state starts at 0, steps (giving ``inc``),
    adds ``s0:s1`` and steps again (``pcg_setseq_128_srandom_r``).
    """
    for j in range(which.shape[0]):
        i = which[j]
        s0, s1, i0, i1 = words[j, 0], words[j, 1], words[j, 2], words[j, 3]
        state[i, INC_HI] = (i0 << _W64_1) | (i1 >> _U(63))
        state[i, INC_LO] = (i1 << _W64_1) | _W64_1
        low = state[i, INC_LO] + s1
        state[i, HI] = state[i, INC_HI] + s0 + (_W64_1 if low < s1 else _U(0))
        state[i, LO] = low
        _step(state, i)


class BoardStreams:
    """The ``PCG64`` states of ``n`` boards: seeded like ``seeding.np_random(seed)``, drawn in one numba call.

    Args:
        n: number of boards.
    """

    def __init__(self, n: int) -> None:
        self.state = np.zeros((n, 4), dtype=np.uint64)
        """uint64[n, 4]: columns :data:`HI`, :data:`LO` (the state), :data:`INC_HI`, :data:`INC_LO` (the increment)."""
        self.seeded = np.zeros(n, dtype=bool)
        """Boards that have a stream (a board is seeded with fresh entropy on its first reset without a seed)."""

    def seed(self, which: Sequence[int], seeds: Sequence[Optional[int]]) -> None:
        """Seed board ``which[j]`` with ``seeds[j]`` (a non-negative int), or keep its stream (None: fresh entropy if it has none).

        After this, board ``i`` draws what ``gymnasium.utils.seeding.np_random(seed)[0]`` would draw.
        """
        small = [(i, s) for i, s in zip(which, seeds) if s is not None and s < _MAX_WORD_SEED]
        if small:
            words = np.zeros((len(small), 4), dtype=np.uint64)
            _seed_words(np.array([s for _, s in small], dtype=np.uint64), words)
            _seed_states(words, self.state, np.array([i for i, _ in small], dtype=np.int64))
        for i, s in zip(which, seeds):  # big seeds, and fresh entropy: NumPy's own seeding (rare: not per episode)
            if (s is None and not self.seeded[i]) or (s is not None and s >= _MAX_WORD_SEED):
                self.set_state(i, np.random.PCG64(np.random.SeedSequence(s)))
            self.seeded[i] = True

    def set_state(self, i: int, bit_generator: np.random.PCG64) -> None:
        """Give board ``i`` the current state of ``bit_generator`` (which is not advanced)."""
        values = bit_generator.state["state"]
        state, inc = int(values["state"]), int(values["inc"])
        mask = (1 << 64) - 1
        self.state[i] = [state >> 64, state & mask, inc >> 64, inc & mask]

    def draw(self, which: np.ndarray, words: int = 2) -> np.ndarray:
        """uint64[len(which), words]: the next ``words`` outputs of each board in ``which`` (int64 indices)."""
        out = np.empty((which.shape[0], words), dtype=np.uint64)
        _draw(self.state, which, out)
        return out
