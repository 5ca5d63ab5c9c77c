"""``np.random.default_rng(seed)`` for many boards at a fraction of its cost: reseed a kept ``PCG64`` in place.

The batched alpha-beta opponent reseeds one generator per board at every
episode, as the per-board agent does with ``np.random.default_rng(seed)``.
That call costs about 8 us, most of it in ``SeedSequence``'s hashing and
Python-level set-up, and ran once per board-episode (a sixth of the batched
env's time with a depth-2 opponent, measured).  Here the hashing runs in one
numba call for all the boards starting an episode, and each board's kept
``PCG64`` gets the resulting state: the generator then draws exactly what
``default_rng(seed)`` would (tests/test_batch_opponents.py compares them).

The two documented algorithms it follows (integer seeds ``0 <= seed < 2**64``):

* ``SeedSequence(seed).generate_state(4, np.uint64)``: the seed's 32-bit
  words (least significant first) are hashed into a pool of four words and
  mixed (M. O'Neill's ``seed_seq`` design, as NumPy documents it), then four
  64-bit words are drawn from the pool (two 32-bit outputs each, low first).
* ``PCG64``'s seeding (``pcg_setseq_128_srandom_r``): with the words
  ``(s0, s1, i0, i1)``, ``inc = ((i0 << 64 | i1) << 1) | 1``; the state
  starts at 0, steps once, adds ``s0 << 64 | s1``, and steps again (a step
  is ``state * MULTIPLIER + inc`` modulo ``2**128``).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from numba import njit

from games._jit import JIT

_U = np.uint64
_INIT_A, _MULT_A = _U(0x43B0D7E5), _U(0x931E8875)  # the pool's hash constants
_INIT_B, _MULT_B = _U(0x8B51F9DD), _U(0x58F38DED)  # the output hash constants
_MIX_L, _MIX_R = _U(0xCA01F9DD), _U(0x4973F715)  # the pool mixing multipliers
_MASK32 = _U(0xFFFFFFFF)
_HALF, _WORD = _U(16), _U(32)
POOL_SIZE = 4
"""32-bit words in a SeedSequence pool (NumPy's default)."""
PCG64_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645
"""The 128-bit LCG multiplier of PCG64."""
_MASK128 = (1 << 128) - 1


@njit(**JIT)
def _hash(value: np.uint64, const: np.ndarray, mult: np.uint64) -> np.uint64:
    """One hashing round on a 32-bit ``value`` (in a uint64); ``const[0]`` is the running hash constant, advanced."""
    value = (value ^ const[0]) & _MASK32
    const[0] = (const[0] * mult) & _MASK32
    value = (value * const[0]) & _MASK32
    return value ^ (value >> _HALF)


@njit(**JIT)
def _seed_words(seeds: np.ndarray, out: np.ndarray) -> None:
    """``out[j]`` = ``SeedSequence(seeds[j]).generate_state(4, np.uint64)`` for uint64 ``seeds`` (uint64[m, 4] ``out``).

    seeds : uint64[m]     the integer seeds
    out : uint64[m, 4]    the four 64-bit words each seed's sequence generates
    """
    pool = np.zeros(POOL_SIZE, dtype=np.uint64)
    const = np.zeros(1, dtype=np.uint64)
    for j in range(seeds.shape[0]):
        low, high = seeds[j] & _MASK32, seeds[j] >> _WORD
        const[0] = _INIT_A
        for i in range(POOL_SIZE):  # the entropy words: low, then high only if nonzero (an int's 32-bit words)
            pool[i] = _hash(low if i == 0 else (high if i == 1 else _U(0)), const, _MULT_A)
        for src in range(POOL_SIZE):
            for dst in range(POOL_SIZE):
                if src != dst:
                    mixed = (_MIX_L * pool[dst] - _MIX_R * _hash(pool[src], const, _MULT_A)) & _MASK32
                    pool[dst] = mixed ^ (mixed >> _HALF)
        const[0] = _INIT_B
        for w in range(4):
            first = _hash(pool[(2 * w) % POOL_SIZE], const, _MULT_B)
            second = _hash(pool[(2 * w + 1) % POOL_SIZE], const, _MULT_B)
            out[j, w] = first | (second << _WORD)


def pcg64_state(words: Sequence[int]) -> Any:  # numpy types it as a private TypedDict
    """The ``PCG64.state`` dict that ``PCG64`` seeded with the SeedSequence ``words`` (s0, s1, i0, i1) starts from."""
    s0, s1, i0, i1 = (int(w) for w in words)
    inc = ((((i0 << 64) | i1) << 1) | 1) & _MASK128
    state = (inc + ((s0 << 64) | s1)) & _MASK128  # the first step from state 0 gives inc; then the seed is added
    state = (state * PCG64_MULTIPLIER + inc) & _MASK128
    return {"bit_generator": "PCG64", "state": {"state": state, "inc": inc}, "has_uint32": 0, "uinteger": 0}


def reseed(bit_generators: Sequence[np.random.PCG64], seeds: Sequence[int]) -> None:
    """Put ``bit_generators[j]`` where ``np.random.PCG64(seeds[j])`` starts (integer seeds ``0 <= seed < 2**64``).

    A :class:`numpy.random.Generator` over it then draws what ``np.random.default_rng(seeds[j])`` draws.
    """
    words = np.zeros((len(seeds), 4), dtype=np.uint64)
    _seed_words(np.array(seeds, dtype=np.uint64), words)
    for bit_generator, row in zip(bit_generators, words.tolist()):
        bit_generator.state = pcg64_state(row)
