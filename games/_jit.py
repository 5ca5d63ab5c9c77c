"""The one place where numba options are set, and the guard that keeps numba's cache honest.

Every kernel in the project is decorated with ``@njit(**JIT)``.  Keeping the
options here means a change (say, turning on ``fastmath`` for an experiment)
happens in one line, and ``tests/test_jit_options.py`` checks that no module
hard-codes its own options.

``cache=True`` stores compiled machine code next to the sources, so only the
first import on a machine pays the compile time.  ``fastmath`` stays off: the
kernels are integer code, and exact float results keep evaluations
reproducible across machines.

numba's IR inlining (``inline="always"``, :data:`JIT_INLINE`) is kept for
the few helpers where a benchmark shows it pays (:data:`INLINED_MODULES`):
it copies and re-types the callee's numba IR at every call site, nested
inlines included, and it was most of the compile time (the bitboard
search's ``_search`` held three inlined copies of the c4_features
evaluator, each with two inlined copies of its per-player counts, each
with dozens of inlined popcounts).  LLVM inlines small callees anyway, also
callees loaded from numba's cache (the cache keeps each kernel's LLVM
bitcode for linking into its callers), so a popcount or a mask helper
called from the search compiles to the same instructions; a large callee
(a whole evaluator) stays a call.  ``scripts/bench_compile.py`` measures
the compile time, ``scripts/bench_search.py`` and ``scripts/bench_envs.py``
the speed.

Numba invalidates a cached kernel when *its own* file changes, but not when a
kernel it calls from another file does: after editing ``heuristics/_mics.py``
the cached search kernel would still run the old evaluator.  So on import
this module hashes the kernel modules (files with ``@njit``) of every
package and, when the hash
differs from the one recorded with the cache, deletes the cached kernels of
all of them (they recompile once).  It costs a millisecond or two per import.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, Sequence

JIT: dict[str, Any] = {"cache": True, "nogil": True}

JIT_INLINE: dict[str, Any] = {**JIT, "inline": "always"}
"""numba IR inlining, only in :data:`INLINED_MODULES` (``tests/test_jit_options.py`` checks), for small helpers
of hot loops that take arrays: a call reference-counts every array argument, which LLVM's inlining does not
remove.  Measured with every helper called instead (one run of both, under load): the env's steps/s with a
random opponent went from 102,021 to 58,499 (single env) and from 2.23 M to 0.72 M (256 boards,
``scripts/bench_envs.py``), the incremental ``windows`` and ``patterns`` searches lost a third of their
nodes/s (``scripts/bench_mnk.py``).  Helpers of scalars and tuples (the bitboard evaluators, popcounts,
masks) are plain ``JIT``: LLVM inlines them as well, without the compile cost; two exceptions, measured
(their comments say): mics' ``_class_of``, and the c4_features bitboard evaluator's body inside the batched
search's column loop (``_c4_bits._evaluate_columns``: with no call left in the loop LLVM vectorizes it, 7
evaluations in about 65 ns against about 55 ns each called one by one)."""

INLINED_MODULES = ("envs/_kernels.py", "envs/_seeding.py", "heuristics/_c4_bits.py", "heuristics/_c4_features.py", "heuristics/_gomoku_state.py",
                   "heuristics/_lines.py",
                   "heuristics/_mics.py", "heuristics/_mics_lines.py", "heuristics/_threats.py")  # fmt: skip
"""The only files whose kernels use :data:`JIT_INLINE`."""

JIT_PARALLEL: dict[str, Any] = {**JIT, "cache": False, "parallel": True}
"""For kernels that spread a loop over threads with ``numba.prange``: numba's
cache does not reliably hold parallel kernels (their thread-pool glue is
built per process), so they compile once per process instead."""

KERNEL_PACKAGES = ("games", "heuristics", "search", "envs", "tuning")
_STAMP = "kernel-sources.sha1"


def invalidate_stale_caches(root: Path, packages: Sequence[str] = KERNEL_PACKAGES) -> bool:
    """Delete numba's cached kernels under ``root/<package>/__pycache__`` if any source changed.

    Returns True if caches were deleted.  Read-only installs are left alone.
    """
    digest = hashlib.sha1()
    for package in packages:
        for source in sorted((root / package).glob("*.py")):
            text = source.read_bytes()
            if b"@njit" in text:  # only kernel modules: editing a facade needs no recompile
                digest.update(f"{package}/{source.name}\0".encode())
                digest.update(text)
    stamp = root / packages[0] / "__pycache__" / _STAMP
    current = digest.hexdigest()
    try:
        if stamp.read_text() == current:
            return False
    except OSError:
        pass
    try:
        for package in packages:
            for cached in (root / package / "__pycache__").glob("*.nb[ic]"):
                cached.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        temporary = stamp.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(current)
        os.replace(temporary, stamp)
    except OSError:
        return False
    return True


CACHE_LOCK_NAME = "numba-cache.lock"
"""The lock file :func:`serialise_cache_writes` takes in each cache folder (``__pycache__``, ignored by git)."""


def serialise_cache_writes() -> None:
    """Make numba's cache writes one process at a time, so that processes compiling at once cannot mix up the cache.

    numba saves a kernel as an index (``.nbi``: signature -> data file name) and numbered data files (``.nbc``),
    each replaced atomically, but the pair is not: a process picks the next free number from the index it read
    *before* another process added its own entry, so two processes compiling one kernel for two signatures at
    once can both pick ``.1.nbc``, and the index left behind can name the other signature's machine code.  The
    parallel test run (pytest-xdist workers, the CLI subprocesses they start) and the tuner's worker processes
    compile the same kernels at the same time on a cold cache.  Holding an exclusive lock (``fcntl``) on a file
    beside the index from reading the index to writing the data closes that gap; cache reads take no lock (they
    only ever see whole files).  Without ``fcntl`` (Windows) or where numba's class has changed, nothing changes.
    """
    try:
        import fcntl

        from numba.core.caching import IndexDataCacheFile
    except ImportError:
        return
    save = getattr(IndexDataCacheFile, "save", None)
    if save is None or getattr(save, "serialised", False):
        return

    def locked_save(self: Any, key: Any, data: Any) -> None:
        try:
            lock = open(os.path.join(self._cache_path, CACHE_LOCK_NAME), "ab")
        except OSError:  # a folder we cannot write: numba's own save fails or falls back the same way
            save(self, key, data)
            return
        with lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            save(self, key, data)

    locked_save.serialised = True  # type: ignore[attr-defined]
    setattr(IndexDataCacheFile, "save", locked_save)  # numba has no hook for this


serialise_cache_writes()
if not os.environ.get("NUMBA_CACHE_DIR"):  # a user-chosen cache folder is the user's to manage
    invalidate_stale_caches(Path(__file__).resolve().parents[1])
