"""The solver's batch API (one kernel call for many positions) and Ctrl-C inside the solver kernels."""

from __future__ import annotations

import pickle
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import CONNECT4, MNK, TIC_TAC_TOE, Connect4
from search.solve import Solver, cycles_per_second
from tests.interrupts import default_sigint
from tests.naive_solve import naive_score
from tests.test_solve import SMALL_GAMES, benchmark_sample, late_position, sign

DATA = Path(__file__).parent / "data" / "connect4"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SMALL_GAMES), st.integers(0, 10**6), st.sampled_from([512, 1 << 16]), st.integers(1, 6))
def test_a_batch_scores_as_the_naive_reference_and_counts_what_single_calls_count(game: Connect4, seed: int,
                                                                                  tt_size: int, n: int) -> None:  # fmt: skip
    """Fresh tables: each position's score is the naive one and its nodes are those of reset() + solve(); a shared
    table: the scores and nodes of successive solve() calls.  512 slots wrap the table's stamp every position."""
    positions = [late_position(game, seed + i, empty=9 if game.gravity else 8) for i in range(n)]
    batch, single = Solver(game, tt_size), Solver(game, tt_size)
    for weak in (False, True):
        fresh = batch.solve_batch(positions, weak=weak).results
        one_by_one = []
        for position in positions:
            single.reset()
            one_by_one.append(single.solve(position, weak=weak))
        assert [r.score for r in fresh] == [sign(naive_score(p.copy())) if weak else naive_score(p.copy()) for p in positions]
        assert [(r.score, r.nodes) for r in fresh] == [(r.score, r.nodes) for r in one_by_one]
        assert all(r.weak == weak and r.seconds >= 0 for r in fresh)
    batch.reset()
    single.reset()
    shared = batch.solve_batch(positions, fresh=False).results
    assert [(r.score, r.nodes) for r in shared] == [(s.score, s.nodes) for s in map(single.solve, positions)]


def test_a_batch_of_the_benchmark_sets_scores_exactly() -> None:
    solver = Solver(CONNECT4)
    lines = benchmark_sample("Test_L3_R1") + benchmark_sample("Test_L2_R1")
    result = solver.solve_batch([CONNECT4.position(moves) for moves, _ in lines])
    assert [r.score for r in result.results] == [score for _, score in lines]
    assert result.seconds >= sum(r.seconds for r in result.results) * 0.5  # per-position times are parts of the call
    assert cycles_per_second() > 0  # x86 and arm64 both have a counter LLVM reads


def test_a_batch_refuses_a_bad_position_before_solving_any() -> None:
    solver = Solver(CONNECT4)
    good = CONNECT4.position("4453")
    with pytest.raises(ValueError, match="is over \\(won by x\\)"):
        solver.solve_batch([good, CONNECT4.position("1212121")])
    with pytest.raises(ValueError, match="this solver is for Connect-4 6x7"):
        solver.solve_batch([good, TIC_TAC_TOE.position()])
    assert solver.solve_batch([]).results == ()
    tic_tac_toe = Solver(MNK(3, 3, 3)).solve_batch([MNK(3, 3, 3).position(), MNK(3, 3, 3).position("b2 a2")])
    assert [r.score for r in tic_tac_toe.results] == [0, 2]  # m,n,k boards too: a draw; x wins with its 7th stone


INTERRUPTED = textwrap.dedent("""
    import sys, time
    from games import CONNECT4
    from search.solve import Solver
    solver = Solver(CONNECT4, 1 << 16, book=False)  # the opening book would answer these early positions at once
    warm = CONNECT4.position("4453624")  # compile first: a quarter-second solve (4453 took 20 s of search each time)
    solver.solve(warm); solver.solve_batch([warm])
    print("ready", flush=True)
    started = time.perf_counter()
    try:
        if sys.argv[1] == "batch":
            solver.solve_batch([CONNECT4.position("4453"), CONNECT4.position("4")])
        else:
            solver.solve(CONNECT4.position("4"))  # minutes of search
    except KeyboardInterrupt:
        print(f"interrupted {time.perf_counter() - started:.2f}", flush=True)
""")


@pytest.mark.parametrize("path", ["call", "batch"])
def test_ctrl_c_stops_the_solver_kernel_within_a_second(path: str) -> None:
    """The kernels run without the GIL, where Python's handler cannot run: they ask for SIGINT themselves."""
    with subprocess.Popen([sys.executable, "-c", INTERRUPTED, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, preexec_fn=default_sigint) as proc:  # fmt: skip
        assert proc.stdout is not None
        try:
            assert proc.stdout.readline() == "ready\n"
            signal_after = 1.0
            try:
                proc.wait(timeout=signal_after)  # the solve runs (far longer than this) ...
            except subprocess.TimeoutExpired:
                pass
            proc.send_signal(signal.SIGINT)  # ... until Ctrl-C
            out, err = proc.communicate(timeout=10)
        finally:
            proc.kill()
    assert proc.returncode == 0 and out.startswith("interrupted "), err
    assert float(out.split()[1]) < signal_after + 2.0  # stopped about a second after the signal at most (a busy machine)


def test_a_solver_pickles_after_its_solves() -> None:
    """The solver holds compiled code after a solve (its kernel's entry point): pickling drops it, the copy solves alike."""
    solver = Solver(Connect4(5, 4, 4), tt_size=512)
    solver.solve(Connect4(5, 4, 4).position("1234"))
    clone = pickle.loads(pickle.dumps(solver))
    position = Connect4(5, 4, 4).position("12341")
    solver.reset()
    clone.reset()
    assert (clone.solve(position).score, clone.solve(position).nodes) == (solver.solve(position).score,
                                                                         solver.solve(position).nodes)  # fmt: skip
