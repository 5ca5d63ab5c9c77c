"""The gomoku engine's time management, tested by its mechanism (no timed tests): the margin and the
clock-read interval as functions, the deadline each phase gets, and each phase returning at once when its
deadline has already passed."""

from __future__ import annotations

import time

import numpy as np
import pytest

from games import MNK
from search.budget import Limit
from search.gomoku import _search as gs
from search.gomoku.engine import GomokuEngine, clock_mask, lateness, phase_seconds, safety_margin
from search.gomoku.threats import find_vcf, guard_move, threat_move
from tests.test_tss import FOUR_THREE, padded, position_from, threatened_four_three

# Every test module that searches with the gomoku engine runs on one worker: on a fresh clone its kernels (a minute
# of compiling) then compile once, not in both workers at the same time.
pytestmark = pytest.mark.xdist_group("gomoku")

PAST = -1.0
"""A deadline long gone (``time.perf_counter()`` times are positive)."""


def test_the_margin_grows_with_the_board_and_the_measured_lateness() -> None:
    small, big = MNK(15, 15, 5), MNK(70, 70, 10)
    assert safety_margin(small, 1000) == pytest.approx(0.08 + 8e-6 * 225)
    assert safety_margin(big, 1000) == pytest.approx(0.08 + 8e-6 * 4900)
    assert safety_margin(small, 100) == pytest.approx(0.05)  # the floor
    assert safety_margin(big, 1000, late=0.1) == pytest.approx(0.2)  # twice what the machine added lately
    assert safety_margin(big, 1000, late=0.01) == pytest.approx(0.08 + 8e-6 * 4900)
    assert safety_margin(big, 1000, late=3.0) == pytest.approx(0.5)  # never over half the budget
    assert safety_margin(small, 60) == pytest.approx(0.03)
    sizes = [MNK(n, n, 5) for n in (9, 15, 30, 50, 70)]
    margins = [safety_margin(game, 2000) for game in sizes]
    assert margins == sorted(margins) and margins[0] < margins[-1]


def test_the_phases_outside_the_engine_stop_where_the_margin_starts() -> None:
    game = MNK(70, 70, 10)
    assert phase_seconds(game, 1000) == pytest.approx(1.0 - safety_margin(game, 1000))
    assert 0.85 < phase_seconds(game, 1000) < 0.9


def test_lateness_is_a_decaying_maximum_capped_per_search() -> None:
    assert lateness(-0.2, 0.0, 1.0) == 0.0  # returned before the deadline: nothing measured
    assert lateness(0.03, 0.0, 1.0) == pytest.approx(0.03)
    assert lateness(0.01, 0.04, 1.0) == pytest.approx(0.03)  # a quarter less each search
    assert lateness(30.0, 0.0, 1.0) == pytest.approx(0.1)  # a compile or a long preemption: capped
    late = 0.1
    for _ in range(4):
        late = lateness(0.0, late, 1.0)
    assert 2 * late < safety_margin(MNK(15, 15, 5), 1000)  # four quiet moves later the margin is the board's again


@pytest.mark.parametrize("seconds_per_node, mask", [(0.0, 63), (1e-3, 15), (1e-4, 15), (1e-5, 31), (5e-6, 63),
                                                    (2e-6, 127), (1e-6, 255), (1e-8, 255)])  # fmt: skip
def test_the_clock_is_read_about_every_half_millisecond(seconds_per_node: float, mask: int) -> None:
    assert clock_mask(seconds_per_node) == mask
    assert (mask + 1) & mask == 0  # a power of two less one: the kernel's test is nodes & mask == 0


def test_the_engine_measures_its_node_cost_and_keeps_its_lateness() -> None:
    game = MNK(15, 15, 5)
    engine = GomokuEngine(game, tt_bits=12, width=8, futility=0)  # wide enough for 1,000 nodes at depth 4
    assert engine.node_seconds == 0.0 and engine.late == 0.0
    engine.late = 0.2
    result = engine.search(game.position([112]), Limit(depth=4))
    assert result.nodes >= 1000 and engine.node_seconds == pytest.approx(result.seconds / result.nodes)
    assert engine.late == 0.2  # untimed searches measure no lateness
    cold = GomokuEngine(game, tt_bits=12)
    cold.search(game.position([112]), Limit(time_ms=1))
    assert cold.late == 0.0  # nor does an engine's first search (it may compile the kernels)
    assert engine.ctx[0][gs.C_TIME_MASK] == 63  # set before the search measured its rate


def test_the_kernel_honours_an_expired_deadline_at_its_first_clock_read() -> None:
    game = MNK(15, 15, 5)
    engine = GomokuEngine(game, tt_bits=12)
    position = game.position([112, 113, 97, 98, 127])
    engine.sync(position)
    ctl = engine.ctx[0]
    ctl[gs.C_TIME_MASK], ctl[gs.C_VCF_BUDGET], ctl[gs.C_VCF_SHALLOW] = 15, 24, 300
    n = game.n_cells
    moves, order = np.zeros(n, np.int32), np.zeros(n, np.float64)
    count = gs._root_moves(engine.st, engine.cfg, engine.ctx, position.to_move, moves, order)
    engine.ctx[1][0] = PAST
    _, _, done = gs._root(engine.st, engine.cfg, engine.tt, engine.ctx, 8, -np.inf, np.inf, position.to_move,
                          moves, order.copy(), count)  # fmt: skip
    assert ctl[gs.C_ABORTED] == 1 and done == 0
    assert ctl[gs.C_NODES] <= 16  # the first read, at node mask + 1
    engine.ctx[1][0] = np.inf  # and the same search with time finishes a move
    ctl[gs.C_NODES] = ctl[gs.C_ABORTED] = 0
    _, _, done = gs._root(engine.st, engine.cfg, engine.tt, engine.ctx, 2, -np.inf, np.inf, position.to_move,
                          moves, order.copy(), count)  # fmt: skip
    assert ctl[gs.C_ABORTED] == 0 and done > 0


def test_the_root_threat_search_starts_only_before_its_deadline() -> None:
    game = MNK(15, 15, 5)
    xs, os = FOUR_THREE
    position = position_from(game, xs, padded(xs, os))  # x to move wins by a four-three
    assert threat_move(position) is not None
    assert threat_move(position, deadline=time.perf_counter() + 60.0) is not None
    assert threat_move(position, deadline=PAST) is None


def test_the_guard_starts_only_before_its_deadline() -> None:
    position = threatened_four_three(MNK(15, 15, 5))
    loser = next(m for m in position.legal_moves() if _leaves_a_vcf(position, m))
    assert guard_move(position, loser) != loser  # with time the guard replaces a move that leaves a VCF
    assert guard_move(position, loser, deadline=time.perf_counter() + 60.0) != loser
    assert guard_move(position, loser, deadline=PAST) == loser  # past its deadline it does not search


def _leaves_a_vcf(position: object, move: int) -> bool:
    after = position.copy()  # type: ignore[attr-defined]
    after.play(move)
    return find_vcf(after).win


def test_no_iteration_starts_past_the_soft_share() -> None:
    """``soft_share`` (and ``stretch_share``) 0: only the first iteration runs; the defaults start more."""
    game = MNK(15, 15, 5)
    engine = GomokuEngine(game, tt_bits=12)
    position = game.position([112, 113, 97])
    engine.search(position, Limit(depth=2))  # compile first
    engine.soft_share = engine.stretch_share = 0.0
    assert engine.search(position, Limit(time_ms=300)).depth == 1
    engine.soft_share, engine.stretch_share = 0.5, 0.7
    assert engine.search(position, Limit(time_ms=300)).depth >= 3
