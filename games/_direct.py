"""Calling a kernel without numba's per-call type dispatch, where the caller's argument types never change.

Every call of an ``@njit`` function first works out the numba type of each
argument to pick the compiled version.  For arrays and scalars that is fast;
for a :class:`games._rules.Rules` named tuple it costs about 2 us a call
(measured: a one-line kernel taking an array and the rules, 2.3 us through
the dispatcher, 0.35 us through its compiled entry point), as much as a
whole Connect-4 env step or an end-game solve.  A hot path whose arguments
keep their types (the same arrays, the same rules) can look the compiled
version up once and call it directly.

The entry point trusts its arguments: arrays of another dtype, layout or
dimension would be read as if they had the first call's types.  Only use it
where every argument is of a type fixed when the entry point is taken (the
callers' own arrays, ``int``/``float``/``bool``/``np.uint64`` scalars, the
game's rules).

Example:
    >>> import numpy as np
    >>> from games._bits import _popcount
    >>> popcount = direct(_popcount, np.uint64(7))
    >>> popcount(np.uint64(255))
    8
"""

from __future__ import annotations

from typing import Any, Callable


def direct(kernel: Any, *example: Any) -> Callable[..., Any]:
    """``kernel``'s compiled entry point for the types of ``example`` (compiled, or loaded from the cache, now).

    With ``NUMBA_DISABLE_JIT=1`` the kernel is a plain Python function, returned as it is.
    """
    if not hasattr(kernel, "compile") or not hasattr(kernel, "typeof_pyval"):
        return kernel  # type: ignore[no-any-return]
    entry: Callable[..., Any] = kernel.compile(tuple(kernel.typeof_pyval(value) for value in example))
    return entry
