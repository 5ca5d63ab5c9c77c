"""Self-play tuning: match statistics (:mod:`tuning.stats`), openings, paired matches and the Optuna tuner.

Command lines: ``python -m tuning.match A B`` plays two agents; ``python -m tuning.run`` tunes a
heuristic's weights, branching factor and depth and exports a confirmed weight file.
"""
