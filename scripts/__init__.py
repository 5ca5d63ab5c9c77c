"""Benchmarks and experiment reproductions, each run as ``python -m scripts.<name>`` from the repository root.

Every script has ``main(argv=None) -> int``; the ``_``-prefixed modules are their shared helpers
(argparse types, atomic files, report printing, the paper reproduction's parts).
"""
