"""What every benchmark script prints: aligned or Markdown tables, the machine, the command line.

Imported as ``from scripts._report import ...``: the scripts run as
``python -m scripts.bench_*`` from the repository root.
"""

from __future__ import annotations

import os
import platform
import shlex
import sys
from typing import Optional, Sequence

import numba
import numpy as np


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]], markdown: bool, left: int = 1) -> None:
    """Print aligned columns (the first ``left`` left-aligned, the rest right-aligned), or a Markdown table."""
    table = [list(header), *[list(r) for r in rows]]
    widths = [max(len(row[c]) for row in table) for c in range(len(header))]
    for r, row in enumerate(table):
        cells = [cell.ljust(w) if c < left else cell.rjust(w) for c, (cell, w) in enumerate(zip(row, widths))]
        print(f"| {' | '.join(cells)} |" if markdown else "  ".join(cells))
        if r == 0:
            if markdown:
                print(f"| {' | '.join('-' * w if c < left else '-' * (w - 1) + ':' for c, w in enumerate(widths))} |")
            else:
                print("  ".join("-" * w for w in widths))


def print_machine_and_command(argv: Optional[Sequence[str]], extra: str = "") -> None:
    """Print the machine line (CPU, cores, Python, numpy, numba, ``extra``) and the command that ran."""
    print(
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}{extra}"
    )
    print(f"Command: {shlex.join(sys.orig_argv if argv is None else [sys.argv[0], *argv])}")
