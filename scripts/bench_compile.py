"""Benchmark the cold start: ``python -m tuning.bench_compile`` under its checkout name.

The benchmark lives in the ``tuning`` package, so that an installed wheel
has it too (``python -m tuning.bench_compile``); see that module for what it
measures and how.  ``python -m scripts.bench_compile [--only NAME ...]
[--kernels N] [--markdown]`` runs the same command on the checkout's
packages.
"""

from __future__ import annotations

import sys
from typing import Optional, Sequence

from tuning import bench_compile


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Measure every chosen entry point cold and warm; print the table (:func:`tuning.bench_compile.main`)."""
    return bench_compile.main(argv, prog="python -m scripts.bench_compile")


if __name__ == "__main__":
    sys.exit(main())
