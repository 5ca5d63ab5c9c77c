"""Gomocup match clocks: ``timeout_match`` and ``time_left`` in scripted manager sessions, and the turn's 50 ms margin."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from search.agents import make_agent
from search.piskvork._brain import Brain
from search.piskvork._time import OVERHEAD_MS, TURN_MARGIN_MS, Limits, match_left_ms, move_budget_ms

SPEC = "alphabeta:heuristic=windows,radius=2"  # a cheap searcher: the clock, not the engine, is under test
MIN_REPLIES = 5
"""Replies of the opening engine in any finished game of 5 in a row: how long the game lasts depends on the clock
(a loaded machine searches less, and the rule-based player's fork then wins by the engine's 7th reply)."""


def _manager_game(brain: Brain, size: int, moves: int, clock_ms: float, send_time_left: bool,
                  seed: int = 1) -> list[tuple[float, float]]:  # fmt: skip
    """A scripted manager: the engine opens, the rule-based player (win, block, fork) answers; returns (reply ms,
    clock before) per move.

    With ``send_time_left`` the manager sends INFO time_left before each move (the clock less the engine's replies so
    far); without it only ``timeout_match`` was sent and the engine must keep its own count.
    """
    assert brain.position is not None
    opponent = make_agent("rules", brain.position.game, seed=seed)
    replies: list[tuple[float, float]] = []
    left = clock_ms
    line = "BEGIN"
    for _ in range(moves):
        if send_time_left:
            assert brain.handle(f"INFO time_left {int(left)}") == []
        started = time.perf_counter()
        answer = brain.handle(line)
        took = (time.perf_counter() - started) * 1000
        replies.append((took, left))
        left -= took
        assert "," in answer[-1], answer
        if brain.position is None or brain.position.is_terminal():
            break
        row, col = divmod(opponent.select_move(brain.position.copy()), size)
        cell = (col, row)
        line = f"TURN {cell[0]},{cell[1]}"
    return replies


def _brain(turn_ms: int, match_ms: int, size: int = 15) -> Brain:
    brain = Brain(k=5, spec=SPEC)
    for info in (f"INFO timeout_turn {turn_ms}", f"INFO timeout_match {match_ms}"):
        assert brain.handle(info) == []
    assert brain.handle(f"START {size}") == ["OK"]
    return brain


def test_a_match_clock_running_low_never_loses_on_time() -> None:
    """time_left as a manager sends it: 0.8 s for the whole match at 1 s a turn; every reply fits the clock."""
    replies = _manager_game(_brain(1000, 800), 15, 12, 800.0, send_time_left=True)
    assert len(replies) >= MIN_REPLIES
    for took, left in replies:
        assert took < left - TURN_MARGIN_MS / 2, replies  # each move inside what was left on the clock
    assert sum(took for took, _ in replies) < 800 - TURN_MARGIN_MS, replies


def test_timeout_match_without_time_left_is_counted_by_the_engine() -> None:
    """A manager that sends only timeout_match: the engine charges its own replies to it (before, 880 ms each)."""
    replies = _manager_game(_brain(1000, 1200), 15, 10, 1200.0, send_time_left=False)
    assert len(replies) >= MIN_REPLIES
    assert sum(took for took, _ in replies) < 1200 - TURN_MARGIN_MS, replies


def test_restart_gives_back_the_match_clock() -> None:
    brain = _brain(1000, 2000)
    _manager_game(brain, 15, 4, 2000.0, send_time_left=False)
    assert brain._used_ms > 0
    assert brain.handle("RESTART") == ["OK"]
    assert brain._used_ms == 0.0
    assert move_budget_ms(brain.limits, 100, brain._used_ms) == pytest.approx(2000 / 25 * 0.9 - OVERHEAD_MS)


@pytest.mark.parametrize("size, turn_ms", [(15, 500), (20, 300), (30, 400)])
def test_replies_end_at_least_50_ms_before_timeout_turn(size: int, turn_ms: int) -> None:
    """On a short turn the margin, not the 90% share, sets the budget (300 ms: 230 ms of search, not 250)."""
    replies = _manager_game(_brain(turn_ms, 0, size), size, 3, 0.0, send_time_left=False)
    assert max(took for took, _ in replies) <= turn_ms - TURN_MARGIN_MS, replies


@given(turn=st.integers(75, 10**6), left=st.one_of(st.none(), st.integers(0, 10**7)), moves=st.integers(1, 5000),
       used=st.floats(0, 10**7))  # fmt: skip
def test_the_budget_keeps_the_margin_to_the_turn_and_the_clock(turn: int, left: int | None, moves: int, used: float) -> None:
    """Whatever the limits, the planned search and its overhead end 50 ms before the turn and the match clock."""
    for limits in (Limits(timeout_turn=turn, timeout_match=10**7, time_left=left), Limits(timeout_turn=turn, timeout_match=0),
                   Limits(timeout_turn=turn, timeout_match=10**6)):  # fmt: skip
        budget = move_budget_ms(limits, moves, used)
        clock = match_left_ms(limits, used)
        room = turn if clock is None else min(turn, clock)
        assert budget + OVERHEAD_MS + TURN_MARGIN_MS <= room or budget == 5.0


def test_match_left_reads_time_left_first_and_zero_as_untimed() -> None:
    assert match_left_ms(Limits(timeout_match=9000, time_left=300), used_ms=100) == 300
    assert match_left_ms(Limits(timeout_match=9000), used_ms=1000) == 8000
    assert match_left_ms(Limits(timeout_match=0, time_left=300)) is None and match_left_ms(Limits()) is None
