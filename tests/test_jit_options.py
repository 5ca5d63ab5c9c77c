"""Every kernel takes its numba options from games/_jit.py (STUMPY's check_fastmath idea)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["games", "heuristics", "search", "envs", "tuning", "arena"]
NUMBA_DECORATORS = {"njit", "jit", "vectorize", "guvectorize", "cfunc", "generated_jit", "stencil"}


def _name(node: ast.expr) -> str:
    """``njit`` for ``njit`` and ``numba.njit``; "" for anything else."""
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def hand_spelled_options(source: str) -> list[int]:
    """Lines where a numba decorator or call takes anything but exactly one ``**JIT`` / ``**JIT_<NAME>`` from games._jit.

    A bare ``@njit``, ``@njit(cache=True)`` and ``@njit(**JIT, inline="always")`` all count: the options
    must come whole from games/_jit.py.
    """
    lines = []
    for node in ast.walk(ast.parse(source)):
        decorators = node.decorator_list if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
        for decorator in decorators:
            if _name(decorator) in NUMBA_DECORATORS:  # bare @njit: numba's defaults, not ours
                lines.append(decorator.lineno)
        if isinstance(node, ast.Call) and _name(node.func) in NUMBA_DECORATORS:
            options = [k.value for k in node.keywords if k.arg is None]
            whole = (not node.args and len(node.keywords) == 1 and len(options) == 1
                     and _name(options[0]).startswith("JIT"))  # fmt: skip
            if not whole:
                lines.append(node.lineno)
    return sorted(set(lines))


def test_the_check_catches_every_hand_spelled_form() -> None:
    bad = ["@njit\ndef f(): pass", "@njit(cache=True)\ndef f(): pass", "@numba.njit(**JIT, inline='always')\ndef f(): pass",
           "g = njit(nogil=True)(f)", "@jit(**JIT, cache=False)\ndef f(): pass"]  # fmt: skip
    assert all(hand_spelled_options(source) == [1] for source in bad)
    good = "@njit(**JIT)\ndef f(): pass\n@njit(**JIT_PARALLEL)\ndef g(): pass\nh = numba.njit(**JIT_INLINE)(f)\n"
    assert hand_spelled_options(good) == []


def test_no_module_hard_codes_jit_options() -> None:
    offenders = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            source = path.read_text()
            for number in hand_spelled_options(source):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {source.splitlines()[number - 1].strip()}")
    assert not offenders, "use @njit(**JIT) (or JIT_INLINE, JIT_PARALLEL) from games._jit:\n" + "\n".join(offenders)


def test_the_options_cache_compiled_code() -> None:
    from games._jit import JIT

    assert JIT.get("cache") is True and not JIT.get("fastmath", False)


def test_numba_inlines_only_where_a_benchmark_showed_it_pays() -> None:
    """numba's IR inlining re-types the callee at every call site: it was most of the compile time (games._jit)."""
    import games._jit as jit

    options = {name: value for name, value in vars(jit).items() if name.startswith("JIT") and isinstance(value, dict)}
    assert {name for name, value in options.items() if value.get("inline", "never") != "never"} == {"JIT_INLINE"}
    users = sorted(str(path.relative_to(ROOT)) for package in PACKAGES for path in (ROOT / package).rglob("*.py")
                   if "**JIT_INLINE)" in path.read_text())  # fmt: skip
    assert users == sorted(jit.INLINED_MODULES)


def test_stale_kernel_caches_are_dropped_when_any_kernel_source_changes(tmp_path: Path) -> None:
    from games._jit import invalidate_stale_caches

    for package in ("alpha", "beta"):
        (tmp_path / package / "__pycache__").mkdir(parents=True)
        (tmp_path / package / "kernels.py").write_text("@njit\ndef f(): return 1\n")
    cached = [tmp_path / p / "__pycache__" / "kernels.f-1.py311.nbi" for p in ("alpha", "beta")]

    def fill() -> None:
        for path in cached:
            path.write_text("compiled")

    fill()
    assert invalidate_stale_caches(tmp_path, ("alpha", "beta"))  # no stamp yet: start clean
    assert not any(p.exists() for p in cached)
    fill()
    assert not invalidate_stale_caches(tmp_path, ("alpha", "beta"))  # nothing changed: keep the caches
    assert all(p.exists() for p in cached)
    (tmp_path / "beta" / "facade.py").write_text("x = 2\n")  # a facade changes: no recompile
    assert not invalidate_stale_caches(tmp_path, ("alpha", "beta"))
    (tmp_path / "beta" / "kernels.py").write_text("@njit\ndef f(): return 2\n")  # a callee changes ...
    assert invalidate_stale_caches(tmp_path, ("alpha", "beta"))
    assert not any(p.exists() for p in cached)  # ... so callers in other packages recompile too



@pytest.mark.skipif(sys.platform == "win32", reason="the lock is fcntl's")
def test_numba_cache_writes_wait_for_each_other(tmp_path: Path) -> None:
    """A save waits while another process holds the folder's cache lock (two writers could pair an index with the
    other signature's code, games._jit.serialise_cache_writes), then writes an index and data that load back."""
    import fcntl
    import threading

    from numba.core.caching import IndexDataCacheFile

    from games._jit import CACHE_LOCK_NAME

    cache = IndexDataCacheFile(str(tmp_path), "kernels.f-1.py311", ("source stamp",))
    with open(tmp_path / CACHE_LOCK_NAME, "ab") as other_process:  # flock: another open file is another owner
        fcntl.flock(other_process, fcntl.LOCK_EX)
        writer = threading.Thread(target=cache.save, args=(("signature b",), b"machine code b"))
        writer.start()
        writer.join(timeout=0.5)
        assert writer.is_alive() and list(tmp_path.glob("*.nb[ic]")) == []  # waiting, nothing written yet
    writer.join(timeout=60)
    assert not writer.is_alive() and cache.load(("signature b",)) == b"machine code b"


SIGNATURES = """
import json
import gymnasium as gym
import numpy as np
import envs
from games import CONNECT4
from heuristics import Evaluator, _dispatch
from search.alphabeta import _bitnegamax as bn
from search.alphabeta.engine import _search

# a bitboard leaf first: its search must not compile the array evaluators (the dispatch), which it never calls
_search(CONNECT4.position("4453"), Evaluator("c4_features", CONNECT4), depth=3, bitboards=True)
dispatch_after_bits = len(_dispatch._evaluate.signatures) + len(_dispatch._order.signatures)
_search(CONNECT4.position("4453"), Evaluator("windows", CONNECT4), depth=3, bitboards=True)  # an array leaf in step
env = gym.make_vec("alphabeta/Connect4-v0", num_envs=2, vectorization_mode="vector_entry_point",
                   opponent="alphabeta:depth=2,heuristic=windows,tt=64")  # the batched opponent
_obs, infos = env.reset(seed=0)
env.step(np.argmax(infos["action_mask"], axis=1))
single = gym.make("alphabeta/Connect4-v0", opponent="alphabeta:depth=2,heuristic=windows,tt=64")  # an agent's BitSearcher
_obs, info = single.reset(seed=0)
single.step(int(np.argmax(info["action_mask"])))
kernels = {"_iterate": bn._iterate, "_search": bn._search, "_evaluate": _dispatch._evaluate, "_order": _dispatch._order}
print(json.dumps({"dispatch_after_bits": dispatch_after_bits,
                  **{name: [str(s) for s in k.signatures] for name, k in kernels.items()}}))
"""


@pytest.mark.slow  # compiles the bitboard search into an empty cache: about a minute
@pytest.mark.xdist_group("wheel")  # in the wheel's venv (tests/wheelvenv.py), whose cache is empty before its commands
def test_the_search_kernels_compile_once_for_every_caller(wheel_venv: tuple[Path, Path], tmp_path: Path) -> None:
    """A literal argument (``True``, ``1``) or another array layout is another signature: another compile of it all.

    The bitboard search is called by the engine, an agent's BitSearcher and the batched opponent, the evaluators by
    it: each compiles once, the search once with the array board and once without (a bitboard evaluator's: it
    compiles no array evaluator, search.alphabeta._bitnegamax).  ``_search`` is checked too: a counter starting at
    a literal ``0`` in ``_iterate`` compiled all of it a second time, for ``Literal[int](0)``.  (The incremental
    updates compile once per sign on purpose: see search.alphabeta._negamax.)  In a fresh process (other tests' calls would count) on an empty cache: a kernel loaded from the cache brings its
    callees' code along, so their dispatchers would list no signature at all.  The array search's callers are
    checked on the shared cache below (an empty cache would compile every evaluator again for it, 40 s more).

    The empty cache is the wheel's venv's, before ``tests/test_wheel.py`` runs its commands there: the kernels
    compiled here are the ones those commands need, so they compile once for both tests.  Should the venv's
    cache hold kernels already (the wheel's test ran first), an empty folder of its own stands in.
    """
    import json
    import subprocess

    from tests.wheelvenv import cached_kernels, clean_env

    python, empty = wheel_venv
    env = clean_env()
    if cached_kernels(python):
        # NUMBA_OPT=0: the signatures a call compiles do not depend on LLVM's optimisation, which is half the
        # compile time of this cold process; the folder is thrown away, so no slow code is kept
        env.update(NUMBA_CACHE_DIR=str(tmp_path), NUMBA_OPT="0")
    done = subprocess.run([str(python), "-c", SIGNATURES], cwd=empty, env=env, capture_output=True, text=True,
                          timeout=1200)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    signatures = json.loads(done.stdout.strip().splitlines()[-1])
    assert signatures.pop("dispatch_after_bits") == 0, signatures
    assert {name: len(found) for name, found in signatures.items()} == {"_iterate": 2, "_search": 2, "_evaluate": 1,
                                                                        "_order": 1}, signatures  # fmt: skip
    assert sorted("none, none" in s for s in signatures["_iterate"]) == [False, True], signatures  # with, without
    assert not any("Literal" in s for found in signatures.values() for s in found), signatures


ARRAY_SIGNATURES = """
import copy, json, pickle
from games import CONNECT4, MNK
from heuristics import Evaluator
from search.alphabeta import _negamax as nm
from search.agents import make_agent
from search.alphabeta.engine import _search

for name in ("c4_features", "windows"):  # the engine's array search on a gravity board
    _search(CONNECT4.position("4453"), Evaluator(name, CONNECT4), depth=3, bitboards=False)
game = MNK(9, 9, 5)
agent = make_agent("alphabeta:heuristic=windows,depth=2", game, seed=0)  # an agent on a free board, and its copies
for player in (agent, copy.deepcopy(agent), pickle.loads(pickle.dumps(agent))):
    player.select_move(game.position([40, 41]))
print(json.dumps([str(s) for s in nm._negamax.signatures]))
"""


def test_the_array_search_loads_or_compiles_once_for_every_caller() -> None:
    """The array search from the engine on a gravity board and from an m,n,k agent and its copies: one signature.

    A fresh process on the checkout's cache: a kernel called from Python lists what it loaded as well as what it
    compiled, so a second caller's other signature shows (and on an empty cache would compile the search again).
    """
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", ARRAY_SIGNATURES], cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]
    signatures = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(signatures) == 1 and "Literal" not in signatures[0], signatures


BIT_EVALUATOR_SIGNATURES = """
import json
import gymnasium as gym
import numpy as np
import envs
from games import CONNECT4
from heuristics import Evaluator
from search.agents import make_agent
from search.alphabeta import _bitnegamax as bn
from search.alphabeta.engine import search

for name in ("c4_features", "threats", "square_values"):  # the engine, through its kept BitSearcher
    search(CONNECT4.position("4453"), Evaluator(name, CONNECT4), depth=3)
make_agent("alphabeta", CONNECT4).select_move(CONNECT4.position())  # the default agent's first move
env = gym.make("alphabeta/Connect4-v0", opponent="alphabeta:depth=2,tt=64")  # the single env's opponent
_obs, info = env.reset(seed=0)
env.step(int(np.argmax(info["action_mask"])))
print(json.dumps([str(s) for s in bn._iterate.signatures]))
"""


def test_a_search_with_a_bitboard_evaluator_takes_no_array_board() -> None:
    """The Connect-4 searches whose evaluator runs on the bitboards (``c4_features``, ``threats``, ``square_values``:
    the default agent, the single env's opponents, the tuner's candidate and openings) pass ``None`` for the array
    board, so the search is compiled without the array evaluators (two thirds of its cold compile, for code it never
    runs: search.alphabeta._bitnegamax).  Every such caller takes that one signature.  (The batched opponent keeps
    the array board: search.alphabeta._batchsearch says why.)

    A fresh process on the checkout's cache, as above: a kernel called from Python lists what it loaded too.
    """
    import json
    import subprocess

    done = subprocess.run([sys.executable, "-c", BIT_EVALUATOR_SIGNATURES], cwd=ROOT, capture_output=True, text=True,
                          timeout=1200)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    signatures = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(signatures) == 1, signatures
    assert "none, none, Array(uint64, 1, 'A'" in signatures[0] and "Array(int8" not in signatures[0], signatures


GOMOKU_SEARCH = """
import json
from games import MNK
from search.gomoku import _search as gs
from search.budget import Limit
from search.gomoku.engine import GomokuEngine

game = MNK(9, 9, 5)
result = GomokuEngine(game, tt_bits=10).search(game.position([40, 0, 41, 80, 42]), Limit(depth=3))
kernels = ("_negamax", "_vcf", "_vct", "_quiesce", "_root")
print(json.dumps({"move": result.move, "compiled": {name: len(getattr(gs, name).signatures) for name in kernels}}))
"""


@pytest.mark.xdist_group("gomoku")
def test_the_gomoku_engine_loads_its_recursive_kernels_from_the_cache() -> None:
    """numba's cache crashes a process that loads a recursive kernel whose recursive call needed a cast (a numba
    bug: ``1`` where the kernel had been typed with an int64), so every call into the engine's recursive
    kernels passes exactly their types.  Then a process loads the search from the cache (the first run here may
    compile it, the second must not): it lives, compiles none of the recursion and plays the same move."""
    import json
    import subprocess

    runs = [subprocess.run([sys.executable, "-c", GOMOKU_SEARCH], cwd=ROOT, capture_output=True, text=True, timeout=900)
            for _ in range(2)]  # fmt: skip
    assert [run.returncode for run in runs] == [0, 0], runs[-1].stderr[-3000:]
    first, second = (json.loads(run.stdout.strip().splitlines()[-1]) for run in runs)
    assert second["move"] == first["move"]
    assert second["compiled"] == {"_negamax": 0, "_vcf": 0, "_vct": 0, "_quiesce": 0, "_root": 1}, second


GOMOKU_SIGNATURES = """
import json, sys
from numba.core.registry import CPUDispatcher
from games import MNK
from search.agents import make_agent
from search.gomoku.threats import find_vcf, find_vct
from search.agents.warmup import warm_up

game = MNK(15, 15, 5)
warm_up(make_agent("alphabeta:depth=2", game), game)  # the Piskvork brain's START: the engine, the rule kernels
position = game.position("h8 h9")
find_vct(position), find_vcf(position)  # the threat search from Python too, not only from the engine
found = {}
for name, module in list(sys.modules.items()):
    if name.split(".")[0] in ("games", "heuristics", "search"):
        for attribute, kernel in vars(module).items():
            if isinstance(kernel, CPUDispatcher) and kernel.py_func.__module__ == name and len(kernel.signatures) > 1:
                found[f"{name}.{attribute}"] = [str(s) for s in kernel.signatures]
print(json.dumps(found))
"""


@pytest.mark.slow  # compiles the gomoku engine into an empty cache: about a minute
def test_the_gomoku_kernels_compile_once_for_every_caller(tmp_path: Path) -> None:
    """Each kernel of the gomoku engine, the threat search and the rule checks compiles one signature on a cold cache.

    A literal argument (``1``, ``True``, a class constant that is a plain int), an int32 cell where other callers
    pass an int64, or a counter that starts at a literal ``0`` makes another signature, which compiles the kernel
    and all it calls again (a third of the 113 s that a gomoku move and a threat search took to compile cold).  A
    fresh process on an empty cache: a kernel loaded from the cache brings its callees' code along, so their
    dispatchers would list no signature at all and a warm run would pass whatever the calls.  NUMBA_OPT=0 as above
    (the signatures do not depend on it; the folder is thrown away).
    """
    import json
    import os
    import subprocess

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "NUMBA_OPT": "0"}
    done = subprocess.run([sys.executable, "-c", GOMOKU_SIGNATURES], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=1200)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {}
