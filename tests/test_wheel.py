"""The wheel as a user gets it: built, installed into a fresh venv, and run from an empty folder.

The venv (``tests/wheelvenv.py``) sees the system's site-packages (numba,
gymnasium, optuna: nothing is downloaded), but its own site-packages come
first on ``sys.path``, so the installed wheel shadows any editable install of
the project there; the test checks every package's ``__file__``.  The kernels
compile in the venv, into its own cache (only what the two tests run there
first compiled is warm: the Connect-4 search of the signature count in
``tests/test_jit_options.py``, the rules player of ``tests/test_warmup.py``;
see ``tests/wheelvenv.py``), so the commands are tiny: a Piskvork game's first timed move (compiled
at START, not on the clock), a tuning run against the default gauntlet (which
must include the shipped tuned files), ``gym.make`` with a shipped tuned
opponent by name, ``envs.rate`` against the ladder's tuned rung,
``search.solve`` and ``python -m weights --list``.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from pathlib import Path

import pytest

from games import CONNECT4
from heuristics import HEURISTICS, shipped_weight_files
from tests.wheelvenv import PACKAGES, clean_env, run

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]  # one worker builds the venv once (tests/wheelvenv.py)


def test_an_installed_wheel_works_from_an_empty_folder(wheel_venv: tuple[Path, Path]) -> None:
    python, empty = wheel_venv
    site = python.parents[1] / "lib"
    files = run([str(python), "-c", f"import json, {', '.join(PACKAGES)}; print(json.dumps([{', '.join(f'{p}.__file__' for p in PACKAGES)}]))"],
                cwd=empty)  # fmt: skip
    assert all(Path(f).is_relative_to(site) for f in json.loads(files)), files  # the wheel, not a checkout
    timings = {}
    started = time.perf_counter()
    first_move = _piskvork_first_move(python, empty)
    timings["piskvork"] = time.perf_counter() - started
    assert first_move < 1.0, f"the first timed move took {first_move:.2f} s against timeout_turn 1000 ms"
    for name, check in (("tuning.run", _tuning_run), ("gym.make", _gym_make), ("envs.rate", _rate), ("search.solve", _solve),
                        ("weights --list", _listing), ("arena", _arena)):  # fmt: skip
        started = time.perf_counter()
        check(python, empty)
        timings[name] = time.perf_counter() - started
    assert not any(empty.iterdir()) or {p.name for p in empty.iterdir()} <= {"runs", "study.db"}
    print("seconds per command:", {k: round(v, 1) for k, v in timings.items()})


def _piskvork_first_move(python: Path, cwd: Path) -> float:
    """Seconds from BEGIN to the engine's first move, after START (which may compile for as long as it needs)."""
    engine = subprocess.Popen([str(python), "-m", "search.piskvork"], cwd=cwd, env=clean_env(), stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    replies: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [replies.put(line.strip()) for line in engine.stdout or ()], daemon=True).start()
    try:
        assert engine.stdin is not None
        engine.stdin.write("START 15\n")
        engine.stdin.flush()
        assert replies.get(timeout=900) == "OK"
        engine.stdin.write("INFO timeout_turn 1000\nINFO timeout_match 100000\n")
        engine.stdin.flush()
        started = time.perf_counter()
        engine.stdin.write("BEGIN\n")
        engine.stdin.flush()
        move = replies.get(timeout=300)
        seconds = time.perf_counter() - started
        assert move.count(",") == 1, move
        engine.stdin.write("END\n")
        engine.stdin.flush()
        engine.wait(timeout=60)
        return seconds
    finally:
        engine.kill()


def _tuning_run(python: Path, cwd: Path) -> None:
    done = subprocess.run([str(python), "-m", "tuning.run", "--heuristic", "square_values", "--trials", "1", "--pairs", "1",
                           "--confirm-top", "1", "--confirm-pairs", "1", "--plies", "2", "--workers", "1", "--nodes", "100",
                           "--depth-range", "1,2", "--no-progress", "--study", "s", "--storage", "sqlite:///study.db"],
                          cwd=cwd, env=clean_env(), capture_output=True, text=True, timeout=1200)  # fmt: skip
    assert done.returncode in (0, 3), done.stderr[-3000:]  # 3: the candidate did not beat the gauntlet (a 1-trial run)
    summary = (cwd / "runs" / "s" / "summary.md").read_text()
    tuned = [name for name in shipped_weight_files() if name.startswith("connect4-") and name.endswith("-tuned")]
    defaults = [name for name, spec in HEURISTICS.items() if spec.refuse(CONNECT4) is None]
    assert f"- opponents ({len(defaults) + len(tuned)}): " in summary and "threats (tuned)" in summary, summary


def _gym_make(python: Path, cwd: Path) -> None:
    code = ("import gymnasium as gym, envs\n"
            "env = gym.make('alphabeta/Connect4-v0', opponent='connect4-threats-tuned', agent_plays='second')\n"
            "_, info = env.reset(seed=0)\n"
            "print(env.unwrapped._batch.opponents[0].player.evaluator.name, info['opponent_action'])")  # fmt: skip
    name, action = run([str(python), "-c", code], cwd=cwd).split()
    assert name == "threats" and 0 <= int(action) < 7


def _rate(python: Path, cwd: Path) -> None:
    out = run([str(python), "-m", "envs.rate", "alphabeta:depth=1", "--games", "2", "--batch", "1", "--rungs", "tuned"], cwd=cwd)
    assert "tuned" in out and "Elo" in out, out


def _solve(python: Path, cwd: Path) -> None:
    lines = ["2252576253462244111563365343671351441 -1", "7422341735647741166133573473242566 1"]  # Test_L3_R1's first two
    out = run([str(python), "-m", "search.solve"], cwd=cwd, stdin="\n".join(lines) + "\n")
    rows = [line.split() for line in out.splitlines() if line and not line.startswith("#")]
    assert [row[:2] for row in rows] == [line.split() for line in lines] and all(len(row) == 4 for row in rows), rows


ARENA_PAGE = """
from starlette.testclient import TestClient
from arena.server import create_app
client = TestClient(create_app(warm=False))
for path in ("/", "/static/app.js", "/static/board.js", "/static/style.css"):
    assert client.get(path).status_code == 200, path
print(client.get("/api/position", params={"moves": "4453"}).json()["ply"])
"""


def _arena(python: Path, cwd: Path) -> None:
    # the page's static files ship in the wheel (no build step): served from the installed package
    assert run([str(python), "-c", ARENA_PAGE], cwd=cwd).strip().splitlines()[-1] == "4"


def _listing(python: Path, cwd: Path) -> None:
    names = [line.split()[0] for line in run([str(python), "-m", "weights", "--list"], cwd=cwd).splitlines()]
    assert names == list(shipped_weight_files())
