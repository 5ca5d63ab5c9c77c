"""envs._streams: the batched envs' per-board PCG64 streams draw what Gymnasium's seeded generators draw."""

from __future__ import annotations

import numpy as np
from gymnasium.utils import seeding
from hypothesis import given, settings
from hypothesis import strategies as st

from envs._streams import BoardStreams

SEEDS = st.integers(min_value=0, max_value=2**72)


@settings(max_examples=30, deadline=None)
@given(st.lists(SEEDS, min_size=1, max_size=6), st.integers(min_value=1, max_value=5))
def test_streams_draw_what_seeded_generators_draw(seeds: list[int], words: int) -> None:
    """Board i seeded with s draws seeding.np_random(s)'s random_raw words, across several draws (the LCG carries)."""
    streams = BoardStreams(len(seeds))
    streams.seed(range(len(seeds)), seeds)
    generators = [seeding.np_random(s)[0] for s in seeds]
    for _ in range(3):
        got = streams.draw(np.arange(len(seeds), dtype=np.int64), words)
        expected = np.array([g.bit_generator.random_raw(words) for g in generators], dtype=np.uint64)
        assert np.array_equal(got, expected)


def test_only_the_boards_drawn_advance_and_none_keeps_a_stream() -> None:
    """Drawing some boards leaves the others where they were; seed None keeps a board's stream, a seed restarts it."""
    streams = BoardStreams(3)
    streams.seed([0, 1, 2], [7, 8, 9])
    streams.draw(np.array([1], dtype=np.int64))
    streams.seed([0, 1, 2], [None, None, 9])  # board 2 restarts; 0 and 1 keep theirs
    got = streams.draw(np.arange(3, dtype=np.int64), 1)[:, 0]
    g7, g8, g9 = (seeding.np_random(s)[0].bit_generator for s in (7, 8, 9))
    g8.random_raw(2)
    assert got.tolist() == [g7.random_raw(), g8.random_raw(), g9.random_raw()]


def test_fresh_entropy_differs_between_boards() -> None:
    """Boards first seeded with None get independent fresh streams (not one shared state)."""
    streams = BoardStreams(4)
    streams.seed(range(4), [None] * 4)
    assert streams.seeded.all()
    first = streams.draw(np.arange(4, dtype=np.int64), 1)[:, 0]
    assert len(set(first.tolist())) == 4
