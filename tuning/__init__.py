"""Self-play tuning: match statistics (:mod:`tuning.stats`), openings, paired matches, labels and the Optuna tuner.

Command lines: ``python -m tuning.match A B`` plays two agents; ``python -m tuning.labels`` makes a labelled
position set for any board; ``python -m tuning.run`` fits a heuristic's weights to labels, searches around the
fit, and exports a weight file confirmed on held-out openings and tested against the incumbent.
"""

__distribution__ = "alphabeta-gym"  # games._commands.check_packages reads this line

try:  # first: a command interrupted while importing ends in one line, and packages named like ours must be ours
    from games import _commands  # isort: skip
except ImportError as error:  # a foreign `games` (a folder in the working directory, say) shadows alphabeta-gym's
    raise (error if error.name != "games" else ImportError(f"alphabeta-gym's 'games' is shadowed: {error}: rename that")) from None
_commands.check_packages()
