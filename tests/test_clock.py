"""The kernels' clock: it is ``time.perf_counter``, and Ctrl-C during a timed search is a KeyboardInterrupt.

Before, the clock ran Python inside the compiled search (an object-mode block): a Ctrl-C arriving there surfaced
as ``SystemError``, which the match scripts counted as a forfeit before playing on.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from search._clock import _now
from tests.interrupts import default_sigint

ROOT = Path(__file__).resolve().parents[1]


def test_the_kernel_clock_reads_perf_counter() -> None:
    before = time.perf_counter()
    inside = _now()
    after = time.perf_counter()
    assert before <= inside <= after


CHILD = """
import sys, time
from games import CONNECT4, MNK, make_game
from heuristics import Evaluator
from search import Limit, search
from search.gomoku import GomokuEngine
from search.gomoku.threats import find_vct
from search.solve import Solver

case = sys.argv[1]
if case == "bitboard":
    position = CONNECT4.position()
    run = lambda limit: search(position, Evaluator("c4_features", CONNECT4), limit)
elif case == "array":
    game = MNK(9, 9, 5)
    position = game.position([40])
    run = lambda limit: search(position, Evaluator("windows", game), limit)
elif case == "gomoku":
    game = MNK(15, 15, 5)
    engine = GomokuEngine(game)
    position = game.position([112])
    run = lambda limit: engine.search(position, limit)
elif case == "solver":
    solver = Solver(CONNECT4, book=False)  # the opening book would answer the empty board at once
    position = CONNECT4.position()
    late = CONNECT4.position("2252576253462244111563365343671351441")
    run = lambda limit: solver.solve(position if limit.depth is None else late)  # no budget: a solve of minutes
run(Limit(depth=1))  # compiled (or loaded) before the clock starts
print("ready", flush=True)
started = time.perf_counter()
try:
    run(Limit(time_ms=120_000))
except KeyboardInterrupt:
    print(f"interrupted after {time.perf_counter() - started:.2f} s", flush=True)
    sys.exit(130)
print("finished", flush=True)
"""


@pytest.mark.parametrize("case", ["bitboard", "array", "gomoku", "solver"])
def test_ctrl_c_during_a_timed_search_is_a_keyboard_interrupt(case: str) -> None:
    child = subprocess.Popen([sys.executable, "-c", CHILD, case], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)  # fmt: skip
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
    assert child.returncode == 130, err[-2000:]
    assert out.startswith("interrupted after ") and "SystemError" not in err
    assert float(out.split()[2]) < 5.0  # within a clock read of the signal, not at the end of the budget
