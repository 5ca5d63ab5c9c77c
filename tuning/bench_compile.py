"""How long a first use compiles: ``python -m tuning.bench_compile``, each entry point cold and warm.

Every kernel is ``@njit(cache=True)``: the first process that uses it
compiles it (seconds to a minute), later processes load the machine code
from numba's cache (a fraction of a second).  This command runs each entry
point below in fresh Python processes, all sharing one empty temporary
``NUMBA_CACHE_DIR`` per entry point, from an empty scratch folder, on the
installed packages (the wheel's, or the checkout's this module was imported
from):

1. **cold**: the first process, on the empty cache: what a user pays the
   first time (imports, compilation, the work);
2. **warm**: a second process on the cache the first one filled (imports,
   cache loads, the work; kernels numba cannot cache, the ``parallel=True``
   ones, compile again here);
3. **run**: the same work repeated inside the warm process (no loading at
   all): the work's own time.

"compile" is cold minus warm: the compilation the cache saves.  "cold CPU"
is the cold process's own CPU seconds (user and system): on a machine that
other jobs share, the wall time grows with their load, the CPU time much
less.  "whole" is the cold process to the end of its work (``tuning.run``:
the whole run; the others: the same as cold).  The last columns count the kernel specialisations (a kernel once per
signature) each process compiled, from numba's dispatcher statistics: the
warm process compiles none but the parallel kernels.  ``--kernels N`` also
lists, per entry point, the N kernels whose compilation took longest in the
cold process (numba's compile events, each kernel's own seconds without
its callees').  Entry points:

* ``c4 move``: ``make_agent("alphabeta", CONNECT4)`` (the default agent:
  ``c4_features``, depth 4) and its first move from the empty board;
* ``tuning.run``: a one-trial ``python -m tuning.run`` on Connect-4 with the
  default heuristic and gauntlet (every shipped evaluator), 2 game pairs, 1
  confirmation of 2 pairs, one worker, a temporary SQLite storage, run in
  the process; "cold s" is the time to its first pair of games, "whole s"
  to its end (the trial and the confirmation play every evaluator);
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

``--only`` picks entry points by name.  Run it on an otherwise idle
machine (other jobs slow compilation down as much as anything else), e.g.
``python -m tuning.bench_compile --only "c4 move" tuning.run --markdown``;
all of them take about 10 minutes on an idle 2-core machine.  In a
checkout, ``python -m scripts.bench_compile`` is the same command.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
"""The folder holding the packages this module was imported from (site-packages, or a checkout): the processes
measured import theirs from there."""


@dataclass(frozen=True)
class EntryPoint:
    """A first-use scenario: Python code, ``setup`` then ``work``, run in a fresh process.

    ``setup`` may set the global ``_mark = time.perf_counter(), time.process_time()`` the first time the work reaches
    the point a user waits for (``tuning.run``: its first pair of games); without a mark, the first ``work``'s end
    is that point.
    """

    name: str
    setup: str
    """Imports and objects, timed with the first ``work`` (a first use pays both)."""
    work: str
    """The call whose first run compiles; run again in each process (``repeat``) for its own time."""
    repeat: bool = True
    """Run ``work`` a second time (False for a command whose second run would do something else: a resumed study)."""


TUNING_ARGV = ("--trials", "1", "--pairs", "2", "--confirm-top", "1", "--confirm-pairs", "2", "--workers", "1",
               "--no-progress")  # fmt: skip
"""``tuning.run``'s options in the ``tuning.run`` entry point (storage, run folder and output go to a scratch folder)."""

FIRST_PAIR_MARK = """
import tempfile
import tuning.progress
_advance = tuning.progress.Progress.advance
def _marking_advance(self, *args, **kwargs):
    global _mark
    if _mark is None:  # the first pair of games is over: what a user waits for
        _mark = time.perf_counter(), time.process_time()
    return _advance(self, *args, **kwargs)
tuning.progress.Progress.advance = _marking_advance
import tuning.run
_scratch = tempfile.mkdtemp(prefix="bench-compile-run-")
"""
"""Marks the first ``Progress.advance``: the tuner counts games there, after each pair."""

ENTRY_POINTS: tuple[EntryPoint, ...] = (
    EntryPoint(
        "c4 move",
        "from games import CONNECT4\nfrom search.agents import make_agent\nagent = make_agent('alphabeta', CONNECT4)",
        "agent.reset()\nagent.select_move(CONNECT4.position())",
    ),
    EntryPoint(
        "tuning.run",
        FIRST_PAIR_MARK,
        "tuning.run.main([*" + repr(TUNING_ARGV) + ", '--storage', f'sqlite:///{_scratch}/tuning.db', "
        "'--run-dir', f'{_scratch}/run', '--out', f'{_scratch}/weights.json'])",
        repeat=False,
    ),
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

KERNEL_PACKAGES = ("games", "heuristics", "search", "envs", "tuning")

COMPILE_EVENTS = """
from numba.core import event as _event

class _CompileClock(_event.Listener):
    \"\"\"Each kernel's own compile seconds (numba's compile events, less the compiles nested in them).\"\"\"

    def __init__(self):
        self.open, self.seconds = [], {}

    def on_start(self, ev):
        self.open.append([time.perf_counter(), 0.0])

    def on_end(self, ev):
        began, nested = self.open.pop()
        spent = time.perf_counter() - began
        if self.open:
            self.open[-1][1] += spent
        function = ev.data["dispatcher"].py_func
        name = f"{function.__module__}.{function.__qualname__}"
        self.seconds[name] = self.seconds.get(name, 0.0) + spent - nested

_compile_clock = _CompileClock()
_event.register("numba:compile", _compile_clock)
"""
"""Times numba's compile events in the measured process (``--kernels``)."""

COUNT_KERNELS = f"""
def _kernels():
    import sys
    from numba.core.registry import CPUDispatcher
    compiled = loaded = 0
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in {KERNEL_PACKAGES!r}:
            for value in list(vars(module).values()):
                if isinstance(value, CPUDispatcher) and value.py_func.__module__ == name:
                    compiled += sum(value.stats.cache_misses.values())
                    loaded += sum(value.stats.cache_hits.values())
    return compiled, loaded
"""
"""Counts the kernel specialisations the process compiled and loaded from the cache (numba's dispatcher stats)."""


def child_code(entry: EntryPoint) -> str:
    """The measured program: ``setup`` + the first ``work`` timed (wall and CPU), then ``work`` again; prints JSON.

    The JSON's keys: ``first`` and ``first_cpu`` (seconds to the mark, or to the end of the first ``work``),
    ``whole`` and ``whole_cpu`` (seconds to the end of the first ``work``), ``run`` (the second ``work``; NaN
    without one), ``compiled`` and ``loaded`` (kernel specialisations), ``kernels`` (each compiled kernel's own
    seconds) and ``root`` (the folder the packages came from).
    """
    again = entry.work if entry.repeat else "pass"
    return "\n".join([
        "import json, time", "_start, _start_cpu = time.perf_counter(), time.process_time()", "_mark = None",
        COMPILE_EVENTS, entry.setup, entry.work, "_first = time.perf_counter()", "_first_cpu = time.process_time()",
        again, "_second = time.perf_counter()", COUNT_KERNELS, "_compiled, _loaded = _kernels()",
        "_at, _at_cpu = _mark if _mark is not None else (_first, _first_cpu)",
        "import games",
        "print(json.dumps({'first': _at - _start, 'first_cpu': _at_cpu - _start_cpu, 'whole': _first - _start, "
        "'whole_cpu': _first_cpu - _start_cpu, "
        f"'run': (_second - _first) if {entry.repeat} else float('nan'), 'compiled': _compiled, 'loaded': _loaded, "
        "'kernels': _compile_clock.seconds, 'root': games.__file__}))",
    ])  # fmt: skip


def child_env(cache: Path) -> dict[str, str]:
    """The measured processes' environment: numba's cache in ``cache``, the packages from :data:`PACKAGE_ROOT` first."""
    path = os.pathsep.join(p for p in (str(PACKAGE_ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONHASHSEED": "0", "PYTHONPATH": path}
    env.pop("NUMBA_DISABLE_JIT", None)  # a benchmark of the compiler measures the compiler
    return env


def run_process(entry: EntryPoint, cache: Path, scratch: Path, timeout: float) -> dict[str, object]:
    """Run ``entry`` once in a fresh process on numba cache ``cache``, in the empty folder ``scratch``.

    Returns the child's JSON (see :func:`child_code`).

    Raises:
        RuntimeError: the process failed, or imported the packages from elsewhere than :data:`PACKAGE_ROOT`.
    """
    argv = [sys.executable, "-c", child_code(entry)]
    done = subprocess.run(argv, cwd=scratch, env=child_env(cache), capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"{entry.name} failed:\n{textwrap.indent(done.stderr[-2000:], '  ')}")
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    root = Path(str(result["root"])).resolve().parents[1]
    if root != PACKAGE_ROOT:
        raise RuntimeError(f"{entry.name} imported the packages from {root}, not {PACKAGE_ROOT}: something on the "
                           "path shadows them")  # fmt: skip
    return result


def measure(entry: EntryPoint, timeout: float) -> tuple[dict[str, object], dict[str, object]]:
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


def _number(result: dict[str, object], key: str) -> float:
    """A number of a child's JSON."""
    value = result[key]
    assert isinstance(value, (int, float)), (key, value)
    return float(value)


def row(entry: EntryPoint, cold: dict[str, object], warm: dict[str, object]) -> list[str]:
    """The table row of ``entry``: cold seconds and CPU seconds, to the mark and whole, warm, run, compile, kernels."""
    run = _number(warm, "run") * 1000
    return [entry.name, f"{_number(cold, 'first'):.1f}", f"{_number(cold, 'first_cpu'):.1f}",
            f"{_number(cold, 'whole'):.1f}", f"{_number(cold, 'whole_cpu'):.1f}", f"{_number(warm, 'first'):.2f}",
            "-" if math.isnan(run) else f"{run:.1f}", f"{_number(cold, 'first') - _number(warm, 'first'):.1f}",
            f"{_number(cold, 'compiled'):.0f}", f"{_number(warm, 'compiled'):.0f}"]  # fmt: skip


HEADER = ("entry point", "cold s", "cold CPU s", "whole s", "whole CPU s", "warm s", "run ms", "compile s (cold - warm)",
          "kernels compiled cold", "compiled warm")  # fmt: skip


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]], markdown: bool) -> None:
    """Aligned columns (the first left-aligned, the rest right-aligned), or a Markdown table."""
    table = [list(header), *[list(r) for r in rows]]
    widths = [max(len(r[c]) for r in table) for c in range(len(header))]
    for number, cells in enumerate(table):
        line = [cell.ljust(w) if c == 0 else cell.rjust(w) for c, (cell, w) in enumerate(zip(cells, widths))]
        print(f"| {' | '.join(line)} |" if markdown else "  ".join(line))
        if number == 0:
            rules = ["-" * w if c == 0 else "-" * (w - 1) + ":" for c, w in enumerate(widths)]
            print(f"| {' | '.join(rules)} |" if markdown else "  ".join("-" * w for w in widths))


def _positive_float(text: str) -> float:
    """A finite number > 0 (``--timeout``)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive finite number of seconds")
    return value


def _count(text: str) -> int:
    """An integer >= 0 (``--kernels``)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a count (an integer >= 0)")
    return value


def _parser(prog: str) -> argparse.ArgumentParser:
    assert __doc__ is not None
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    p.add_argument("--only", nargs="+", choices=NAMES, metavar="NAME",
                   help=f"entry points to measure (default all: {', '.join(repr(n) for n in NAMES)})")  # fmt: skip
    p.add_argument("--timeout", type=_positive_float, default=1800.0, help="seconds per process before giving up (default 1800)")
    p.add_argument("--kernels", type=_count, default=0, metavar="N",
                   help="also list the N kernels that took longest to compile in each cold process (default 0)")
    p.add_argument("--markdown", action="store_true", help="print a Markdown table")
    return p


def main(argv: Optional[Sequence[str]] = None, prog: str = "python -m tuning.bench_compile") -> int:
    """Measure every chosen entry point cold and warm; print the table."""
    args = _parser(prog).parse_args(argv)
    chosen = [e for e in ENTRY_POINTS if args.only is None or e.name in args.only]
    import numba
    import numpy

    print(f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python "
          f"{platform.python_version()}, numpy {numpy.__version__}, numba {numba.__version__}, load average "
          f"{os.getloadavg()[0]:.2f} at start")  # fmt: skip
    print(f"Command: {shlex.join(sys.orig_argv if argv is None else [prog, *argv])}")
    print(f"Packages: {PACKAGE_ROOT}")
    rows, notes, total_compile = [], [], 0.0
    try:
        for entry in chosen:
            cold, warm = measure(entry, args.timeout)
            total_compile += _number(cold, "first") - _number(warm, "first")
            rows.append(row(entry, cold, warm))
            print(f"  {entry.name}: cold {_number(cold, 'first'):.1f} s ({_number(cold, 'first_cpu'):.1f} s CPU), "
                  f"warm {_number(warm, 'first'):.2f} s", file=sys.stderr, flush=True)  # fmt: skip
            if args.kernels:
                seconds = cold["kernels"]
                assert isinstance(seconds, dict)
                slowest = sorted(seconds.items(), key=lambda item: -item[1])[: args.kernels]
                notes.append(f"{entry.name}: " + ", ".join(f"{name} {s:.1f} s" for name, s in slowest))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    print_table(HEADER, rows, args.markdown)
    for note in notes:
        print(note)
    print(f"Total compile: {total_compile:.1f} s; load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
