"""The kernels' clock: ``time.perf_counter()`` read from compiled code without running any Python.

Every search kernel with a time budget reads the clock about every half millisecond.  It used to do so through
an object-mode block, which runs Python: a Ctrl-C arriving just then raised ``KeyboardInterrupt`` inside the
compiled code, which numba reports as a ``SystemError`` (a match script then counted a forfeit and played on).
:func:`_now` instead calls the interpreter's own perf-counter function, the one behind ``time.perf_counter``, so
a deadline computed in Python compares with it exactly, and checks for a pending Ctrl-C on the way:

* no Ctrl-C: the time, in seconds (about 40 ns, against about 1 us for the object-mode block);
* a Ctrl-C arrived: ``inf``, past every deadline, so the search stops as if its time were up, and the signal is
  raised again (``PyErr_SetInterrupt``), so Python's handler runs and raises ``KeyboardInterrupt`` in the caller
  the moment the kernel returns.  Every later read in the same call returns ``inf`` too.

Outside the main thread, and where SIGINT is ignored, no Ctrl-C is ever seen (as in Python).
"""

from __future__ import annotations

import sys
import time

from llvmlite import ir
from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from games._jit import JIT

# The interpreter's perf counter in nanoseconds: private before 3.13, public (and renamed) since.
_PUBLIC_CLOCK = sys.version_info >= (3, 13)


@intrinsic
def _perf_counter_ns(typingctx):  # type: ignore[no-untyped-def]
    """``time.perf_counter_ns()`` from compiled code: the C function behind it, which needs no GIL."""
    signature = types.int64()

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        i64 = ir.IntType(64)
        if _PUBLIC_CLOCK:  # int PyTime_PerfCounterRaw(PyTime_t *result): 0 on success, and it cannot fail
            function_type = ir.FunctionType(ir.IntType(32), [i64.as_pointer()])
            clock = cgutils.get_or_insert_function(builder.module, function_type, "PyTime_PerfCounterRaw")
            slot = cgutils.alloca_once(builder, i64)
            builder.call(clock, [slot])
            return builder.load(slot)
        function_type = ir.FunctionType(i64, [])  # _PyTime_t _PyTime_GetPerfCounter(void)
        clock = cgutils.get_or_insert_function(builder.module, function_type, "_PyTime_GetPerfCounter")
        return builder.call(clock, [])

    return signature, codegen


@intrinsic
def _interrupt_pending(typingctx):  # type: ignore[no-untyped-def]
    """True if Ctrl-C (SIGINT) arrived and Python has not handled it yet; the signal stays pending.

    ``PyOS_InterruptOccurred`` consumes the signal, so it is raised again with ``PyErr_SetInterrupt`` (which is
    async-signal-safe): Python's handler then runs as soon as the kernel returns.  The GIL is taken for the
    check (about 0.1 us), since compiled kernels may run without it.
    """
    signature = types.boolean()

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        i32 = ir.IntType(32)
        pyapi = context.get_python_api(builder)
        gil = pyapi.gil_ensure()
        occurred_type = ir.FunctionType(i32, [])
        occurred = builder.call(cgutils.get_or_insert_function(builder.module, occurred_type, "PyOS_InterruptOccurred"), [])
        pending = builder.icmp_signed("!=", occurred, ir.Constant(i32, 0))
        with builder.if_then(pending):
            raise_type = ir.FunctionType(ir.VoidType(), [])
            builder.call(cgutils.get_or_insert_function(builder.module, raise_type, "PyErr_SetInterrupt"), [])
        pyapi.gil_release(gil)
        return pending

    return signature, codegen


def _now_compiled() -> float:
    """``time.perf_counter()`` in seconds, or ``inf`` once Ctrl-C is pending (the module docstring)."""
    if _interrupt_pending():
        return float("inf")
    return _perf_counter_ns() / 1e9


# With NUMBA_DISABLE_JIT=1 (the kernels' tests run that way too) the kernels are Python, which handles Ctrl-C
# itself, and an intrinsic cannot run: the clock is then time.perf_counter.
_now = time.perf_counter if config.DISABLE_JIT else njit(**JIT)(_now_compiled)
