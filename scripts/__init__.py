"""Benchmarks and experiment reproductions, each run as ``python -m scripts.<name>`` from the repository root.

Every script has ``main(argv=None) -> int``; the ``_``-prefixed modules are their shared helpers
(argparse types, atomic files, report printing, the paper reproduction's parts).
"""

__distribution__ = "alphabeta-gym"  # games._commands.check_packages reads this line

try:  # first: a command interrupted while importing ends in one line, and packages named like ours must be ours
    from games import _commands  # isort: skip
except ImportError as error:  # a foreign `games` (a folder in the working directory, say) shadows alphabeta-gym's
    raise (error if error.name != "games" else ImportError(f"alphabeta-gym's 'games' is shadowed: {error}: rename that")) from None
_commands.check_packages()
