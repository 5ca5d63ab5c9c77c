"""The one place where numba options are set.

Every kernel in the project is decorated with ``@njit(**JIT)``.  Keeping the
options here means a change (say, turning on ``fastmath`` for an experiment)
happens in one line, and ``tests/test_jit_options.py`` checks that no module
hard-codes its own options.

``cache=True`` stores compiled machine code next to the sources, so only the
first import on a machine pays the compile time.  ``fastmath`` stays off: the
kernels are integer code, and exact float results keep evaluations
reproducible across machines.
"""

from __future__ import annotations

from typing import Any

JIT: dict[str, Any] = {"cache": True, "nogil": True}

JIT_CLOCK: dict[str, Any] = {**JIT, "nogil": False}
"""For the one kernel that reads the clock through an object-mode block,
which needs the GIL (numba warns if such a kernel asks to release it)."""
