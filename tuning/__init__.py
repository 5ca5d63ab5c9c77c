"""Self-play tuning: match statistics (:mod:`tuning.stats`), openings, paired matches and the Optuna tuner.

Command lines: ``python -m tuning.match A B`` plays two agents; ``python -m tuning.run`` tunes a
heuristic's weights, branching factor and depth and exports a confirmed weight file.
"""

from games import _commands  # noqa: F401  # isort: skip  (first: a command interrupted while it imports ends in one line)
