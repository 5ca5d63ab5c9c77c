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
* ``PCG64``'s draws (``pcg64_random_r``, XSL-RR): step, then output the
  high word XOR the low word rotated right by the top 6 bits of the state;
  ``random()`` is that 64-bit output shifted right by 11, times ``2**-53``.

Where only doubles are drawn (the opponent's root noise), the generator
never leaves numba: :func:`_pcg64_states` seeds one 128-bit state per board
(four ``uint64`` words) and :func:`_draw_rows` draws from it.  No Python
object per board and no call per board: that was a fifth of the batched env's
Python time with a depth-2 opponent (measured with cProfile).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from numba import njit

from games._jit import JIT, JIT_INLINE

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
_MULT_HI, _MULT_LO = _U(PCG64_MULTIPLIER >> 64), _U(PCG64_MULTIPLIER & ((1 << 64) - 1))
STATE_HI, STATE_LO, INC_HI, INC_LO = range(4)
"""Columns of a numba-side PCG64 state row (uint64[4]): the 128-bit state and increment, high word first."""
_TO_DOUBLE = 1.0 / 9007199254740992.0  # 2**-53: random()'s 53-bit mantissa scale


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


@njit(**JIT)
def _mul_high(a: np.uint64, b: np.uint64) -> np.uint64:
    """The high 64 bits of the 128-bit product ``a * b`` (numba has no 128-bit integers: four 32-bit products)."""
    a0, a1, b0, b1 = a & _MASK32, a >> _WORD, b & _MASK32, b >> _WORD
    low, cross1, cross2 = a0 * b0, a0 * b1, a1 * b0
    middle = (low >> _WORD) + (cross1 & _MASK32) + (cross2 & _MASK32)  # at most 3 * (2**32 - 1): no overflow
    return a1 * b1 + (cross1 >> _WORD) + (cross2 >> _WORD) + (middle >> _WORD)


@njit(**JIT)
def _step(hi: np.uint64, lo: np.uint64, inc_hi: np.uint64, inc_lo: np.uint64) -> tuple[np.uint64, np.uint64]:
    """One LCG step, ``state * MULTIPLIER + inc`` modulo ``2**128``, on (high, low) word pairs."""
    prod_lo = lo * _MULT_LO
    prod_hi = hi * _MULT_LO + lo * _MULT_HI + _mul_high(lo, _MULT_LO)  # the words above 2**128 fall off
    new_lo = prod_lo + inc_lo
    carry = _U(1) if new_lo < prod_lo else _U(0)
    return prod_hi + inc_hi + carry, new_lo


@njit(**JIT)
def _pcg64_states(seeds: np.ndarray, boards: np.ndarray, states: np.ndarray) -> None:
    """``states[boards[j]]`` = where ``np.random.PCG64(seeds[j])`` starts (``pcg64_state`` in numba).

    seeds : uint64[m]; boards : int64[m]; states : uint64[n, 4] (columns ``STATE_HI .. INC_LO``)
    """
    words = np.zeros((seeds.shape[0], 4), dtype=np.uint64)
    _seed_words(seeds, words)
    one = _U(1)
    for j in range(seeds.shape[0]):
        s0, s1, i0, i1 = words[j, 0], words[j, 1], words[j, 2], words[j, 3]
        inc_hi, inc_lo = (i0 << one) | (i1 >> _U(63)), (i1 << one) | one  # inc = (i0:i1 << 1) | 1
        lo = inc_lo + s1  # the first step from state 0 gives inc; then the seed s0:s1 is added
        hi = inc_hi + s0 + (one if lo < s1 else _U(0))
        hi, lo = _step(hi, lo, inc_hi, inc_lo)
        b = boards[j]
        states[b, STATE_HI], states[b, STATE_LO], states[b, INC_HI], states[b, INC_LO] = hi, lo, inc_hi, inc_lo


@njit(**JIT_INLINE)  # takes an array: see games._jit.JIT_INLINE
def _next_word(states: np.ndarray, b: int) -> np.uint64:
    """``PCG64.random_raw()`` from board ``b``'s state row (advanced): one 64-bit output."""
    hi, lo = _step(states[b, STATE_HI], states[b, STATE_LO], states[b, INC_HI], states[b, INC_LO])
    states[b, STATE_HI], states[b, STATE_LO] = hi, lo
    x, rot = hi ^ lo, hi >> _U(58)
    word: np.uint64 = (x >> rot) | (x << ((_U(64) - rot) & _U(63)))  # XSL-RR: rotate right by the top 6 bits
    return word


@njit(**JIT_INLINE)  # takes an array: see games._jit.JIT_INLINE
def _next_double(states: np.ndarray, b: int) -> float:
    """``Generator(PCG64).random()`` from board ``b``'s state row (advanced)."""
    return np.float64(_next_word(states, b) >> _U(11)) * _TO_DOUBLE


@njit(**JIT)
def _draw_rows(boards: np.ndarray, cursor: np.ndarray, states: np.ndarray, rows: np.ndarray, scale: float) -> None:
    """Refill ``rows[b]`` (``Generator.random(rows[b].shape) * scale``) for the ``boards`` with ``cursor[b]`` past the end.

    boards : int64[m]; cursor : int64[n], set to 0 where refilled; states : uint64[n, 4]; rows : float64[n, r, a]
    """
    for j in range(boards.shape[0]):
        b = boards[j]
        if cursor[b] < rows.shape[1]:
            continue
        for r in range(rows.shape[1]):
            for a in range(rows.shape[2]):
                rows[b, r, a] = _next_double(states, b) * scale
        cursor[b] = 0


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
