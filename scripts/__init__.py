"""Benchmarks and experiment reproductions, each run as ``python -m scripts.<name>`` from the repository root.

Every script has ``main(argv=None) -> int``; the ``_``-prefixed modules are their shared helpers
(argparse types, atomic files, report printing, the paper reproduction's parts).
"""

from games import _commands  # noqa: F401  # isort: skip  (first: a command interrupted while it imports ends in one line)
