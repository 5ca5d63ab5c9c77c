"""Benchmark the cold start: seconds of numba compilation each entry point costs a first-time user.

Every kernel is ``@njit(cache=True)``: the first process that uses it
compiles it (tens of seconds), later processes load the machine code from
numba's cache (a fraction of a second).  This script runs each entry point
below in fresh Python processes, all sharing one empty temporary
``NUMBA_CACHE_DIR`` per entry point:

1. **cold**: the first process, on the empty cache: what a user pays the
   first time they run that command (imports, compilation, the work);
2. **warm**: a second process on the cache the first one filled (imports,
   cache loads, the work; kernels numba cannot cache, the ``parallel=True``
   ones, compile again here);
3. **run**: the same work repeated inside the warm process (no loading at
   all): the work's own time.

"compile" is cold minus warm: the compilation the cache saves.  The last
columns count the kernel specialisations (a kernel once per signature)
each process compiled, from numba's dispatcher statistics: the warm
process compiles none but the parallel kernels.  Python
entry points time the work from before their imports to after their first
call; the command-line entry points (``tuning.run``) time the whole
process.  Entry points:

* ``tuning.run``: a one-trial ``python -m tuning.run`` on Connect-4 with the
  default heuristic and gauntlet (every shipped evaluator, so a trial
  compiles them all), 2 game pairs, 1 confirmation of 2 pairs, one worker,
  a temporary SQLite storage;
* ``c4 search``: ``search`` on Connect-4 (bitboard kernel, ``threats``), depth 6;
* ``mnk search``: ``search`` on m,n,k 9,9,5 (array kernel, ``mics``, radius 2), depth 3;
* ``gomoku agent``: the timed agent on 15,15,5 (the gomoku engine, its
  threat check and the pattern evaluation), one move at 300 ms, then
  ``find_vct`` and ``find_vcf`` (the threat-space search);
* ``solver``: ``solve`` of a Connect-4 position;
* ``env + alpha-beta``: ``gym.make("alphabeta/Connect4-v0",
  opponent="alphabeta:depth=2")``, one episode;
* ``batched env``: ``gym.make_vec`` with 256 boards against
  ``alphabeta:depth=2,tt=4096`` (the threaded kernels), 10 steps.

``--only`` picks entry points by name.  Run it as
``python -m scripts.bench_compile [--markdown]`` on an otherwise idle machine:
other jobs slow compilation down as much as anything else.  About 5-8
minutes on an idle 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from scripts._args import positive_float
from scripts._report import print_machine_and_command, print_table

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class EntryPoint:
    """A first-use scenario: Python code (``setup`` then ``work``) or a command line (``argv``)."""

    name: str
    setup: str = ""
    """Imports and objects, timed with the first ``work`` (a first use pays both)."""
    work: str = ""
    """The call whose first run compiles; run twice in each process."""
    argv: tuple[str, ...] = ()
    """A command line run as ``python -m ...`` instead; ``{tmp}`` is a fresh scratch folder per process."""


ENTRY_POINTS: tuple[EntryPoint, ...] = (
    EntryPoint("tuning.run", argv=(
        "-m", "tuning.run", "--trials", "1", "--pairs", "2", "--confirm-top", "1", "--confirm-pairs", "2",
        "--workers", "1", "--storage", "sqlite:///{tmp}/tuning.db", "--run-dir", "{tmp}/run",
        "--out", "{tmp}/weights.json", "--no-progress")),  # fmt: skip
    EntryPoint(
        "c4 search",
        "from games import CONNECT4\nfrom heuristics import Evaluator\nfrom search.alphabeta.engine import search\n"
        "evaluator = Evaluator('threats', CONNECT4)",
        "search(CONNECT4.position('4453'), evaluator, depth=6)",
    ),
    EntryPoint(
        "mnk search",
        "from games import MNK\nfrom heuristics import Evaluator\nfrom search.alphabeta.engine import search\n"
        "game = MNK(9, 9, 5)\nevaluator = Evaluator('mics', game)",
        "search(game.position('e5 d4 e4'), evaluator, depth=3, radius=2)",
    ),
    EntryPoint(
        "gomoku agent",
        "from games import MNK\nfrom search.agents import make_agent\nfrom search.gomoku.threats import find_vcf, find_vct\n"
        "game = MNK(15, 15, 5)\nagent = make_agent('alphabeta:time_ms=300', game)\nposition = game.position('h8 h9')",
        "agent.select_move(position)\nfind_vct(position)\nfind_vcf(position)",
    ),
    EntryPoint(
        "solver",
        "from games import CONNECT4\nfrom search.solve import solve",
        "solve(CONNECT4.position('2252576253462244111563365343671351441'))",
    ),
    EntryPoint(
        "env + alpha-beta",
        "import gymnasium as gym\nimport envs\nimport numpy as np\n"
        "env = gym.make('alphabeta/Connect4-v0', opponent='alphabeta:depth=2')",
        "obs, info = env.reset(seed=0)\ndone = False\n"
        "while not done:\n"
        "    obs, reward, term, trunc, info = env.step(int(np.flatnonzero(info['action_mask'])[0]))\n"
        "    done = term or trunc",
    ),
    EntryPoint(
        "batched env",
        "import gymnasium as gym\nimport envs\nimport numpy as np\n"
        "env = gym.make_vec('alphabeta/Connect4-v0', num_envs=256, vectorization_mode='vector_entry_point', "
        "opponent='alphabeta:depth=2,tt=4096')\nrng = np.random.default_rng(0)",
        "obs, infos = env.reset(seed=0)\n"
        "for _ in range(10):\n"
        "    actions = np.argmax(infos['action_mask'] * rng.random(infos['action_mask'].shape), axis=1)\n"
        "    obs, rewards, term, trunc, infos = env.step(actions)",
    ),
)
NAMES = tuple(e.name for e in ENTRY_POINTS)


COUNT_KERNELS = """
def _kernels():
    import sys
    from numba.core.registry import CPUDispatcher
    compiled = loaded = 0
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in ("games", "heuristics", "search", "envs", "tuning"):
            for value in list(vars(module).values()):
                if isinstance(value, CPUDispatcher) and value.py_func.__module__ == name:
                    compiled += sum(value.stats.cache_misses.values())
                    loaded += sum(value.stats.cache_hits.values())
    return compiled, loaded
"""
"""Counts the kernel specialisations the process compiled and loaded from the cache (numba's dispatcher stats)."""


def child_code(entry: EntryPoint) -> str:
    """A program timing ``setup`` + the first ``work``, then ``work`` again; prints the times and kernel counts as JSON."""
    return "\n".join([
        "import json, time", "_start = time.perf_counter()", entry.setup, entry.work, "_first = time.perf_counter()",
        entry.work, "_second = time.perf_counter()", COUNT_KERNELS, "_compiled, _loaded = _kernels()",
        "print(json.dumps({'first': _first - _start, 'run': _second - _first, 'compiled': _compiled, 'loaded': _loaded}))",
    ])  # fmt: skip


def run_process(entry: EntryPoint, cache: Path, scratch: Path, timeout: float) -> dict[str, float]:
    """Run ``entry`` once in a fresh process on numba cache ``cache``.

    Returns ``{'first': s, 'run': s, 'compiled': n, 'loaded': n}``: seconds to the end of the first
    ``work``, seconds of the second, and the kernel specialisations compiled and loaded from the
    cache (NaN for command lines, which are timed whole).
    """
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONHASHSEED": "0"}
    if entry.argv:
        argv = [sys.executable, *(a.replace("{tmp}", str(scratch)) for a in entry.argv)]
    else:
        argv = [sys.executable, "-c", child_code(entry)]
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - start
    if entry.argv:
        if done.returncode not in (0, 3):  # tuning.run: 3 is "no confirmed improvement", expected on 2 pairs
            raise RuntimeError(f"{entry.name} exited {done.returncode}:\n{done.stderr[-2000:]}")
        return {"first": wall, "run": math.nan, "compiled": math.nan, "loaded": math.nan}
    if done.returncode != 0:
        raise RuntimeError(f"{entry.name} failed:\n{textwrap.indent(done.stderr[-2000:], '  ')}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def measure(entry: EntryPoint, timeout: float) -> tuple[dict[str, float], dict[str, float]]:
    """``(cold, warm)``: :func:`run_process`'s results for ``entry`` on a fresh empty numba cache, then on the filled one."""
    with tempfile.TemporaryDirectory(prefix="bench-compile-") as tmp:
        cache = Path(tmp) / "numba-cache"
        cache.mkdir()
        scratch = [Path(tmp) / f"scratch-{i}" for i in range(2)]
        for folder in scratch:
            folder.mkdir()
        cold = run_process(entry, cache, scratch[0], timeout)
        warm = run_process(entry, cache, scratch[1], timeout)
    return cold, warm


def _shown(value: float, spec: str) -> str:
    """``value`` formatted, or "-" where it was not measured (NaN)."""
    return "-" if math.isnan(value) else format(value, spec)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m scripts.bench_compile", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    p.add_argument("--only", nargs="+", choices=NAMES, metavar="NAME",
                   help=f"entry points to measure (default all: {', '.join(repr(n) for n in NAMES)})")  # fmt: skip
    p.add_argument("--timeout", type=positive_float, default=1800.0, help="seconds per process before giving up (default 1800)")
    p.add_argument("--markdown", action="store_true", help="print a Markdown table")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Measure every chosen entry point cold and warm; print the table."""
    args = _parser().parse_args(argv)
    chosen = [e for e in ENTRY_POINTS if args.only is None or e.name in args.only]
    print_machine_and_command(argv, f", load average {os.getloadavg()[0]:.2f} at start")
    rows, total_compile = [], 0.0
    try:
        for entry in chosen:
            cold, warm = measure(entry, args.timeout)
            total_compile += cold["first"] - warm["first"]
            rows.append([entry.name, f"{cold['first']:.1f}", f"{warm['first']:.2f}", _shown(warm["run"] * 1000, ".1f"),
                         f"{cold['first'] - warm['first']:.1f}", _shown(cold["compiled"], ".0f"),
                         _shown(warm["compiled"], ".0f")])  # fmt: skip
            print(f"  {entry.name}: cold {cold['first']:.1f} s, warm {warm['first']:.2f} s", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    print_table(["entry point", "cold s", "warm s", "run ms", "compile s (cold - warm)", "kernels compiled cold",
                 "compiled warm"], rows, args.markdown)  # fmt: skip
    print(f"Total compile: {total_compile:.1f} s; load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
