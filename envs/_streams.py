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

The ``PCG64`` algorithms (seeding, step, output) are :mod:`envs._seeding`'s,
shared with the batched opponent's root noise: integer seeds are turned into
states there in numba; other seeds (None: fresh entropy) by NumPy itself.
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np
from numba import njit

from envs._seeding import _next_word, _pcg64_states
from games._jit import JIT

_MAX_WORD_SEED = 2**64
"""Seeds below this are hashed in numba (envs._seeding handles integers of up to two 32-bit words)."""


@njit(**JIT)
def _draw(state: np.ndarray, which: np.ndarray, out: np.ndarray) -> None:
    """``out[j]`` = the next ``out.shape[1]`` outputs of board ``which[j]``'s stream (what ``random_raw`` returns)."""
    for j in range(which.shape[0]):
        for k in range(out.shape[1]):
            out[j, k] = _next_word(state, which[j])


class BoardStreams:
    """The ``PCG64`` states of ``n`` boards: seeded like ``seeding.np_random(seed)``, drawn in one numba call.

    Args:
        n: number of boards.
    """

    def __init__(self, n: int) -> None:
        self.state = np.zeros((n, 4), dtype=np.uint64)
        """uint64[n, 4]: columns :data:`envs._seeding.STATE_HI` .. ``INC_LO`` (the state and increment)."""
        self.seeded = np.zeros(n, dtype=bool)
        """Boards that have a stream (a board is seeded with fresh entropy on its first reset without a seed)."""

    def seed(self, which: Sequence[int], seeds: Sequence[Optional[int]]) -> None:
        """Seed board ``which[j]`` with ``seeds[j]`` (a non-negative int), or keep its stream (None: fresh entropy if it has none).

        After this, board ``i`` draws what ``gymnasium.utils.seeding.np_random(seed)[0]`` would draw.
        """
        small = [(i, s) for i, s in zip(which, seeds) if s is not None and s < _MAX_WORD_SEED]
        if small:
            _pcg64_states(np.array([s for _, s in small], dtype=np.uint64), np.array([i for i, _ in small], dtype=np.int64),
                          self.state)  # fmt: skip
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
