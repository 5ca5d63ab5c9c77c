"""Self-play tuning: match statistics (:mod:`tuning.stats`), openings, paired matches, labels and the Optuna tuner.

Command lines: ``python -m tuning.match A B`` plays two agents; ``python -m tuning.labels`` makes a labelled
position set for any board; ``python -m tuning.run`` fits a heuristic's weights to labels, searches around the
fit, and exports a weight file confirmed on held-out openings and tested against the incumbent.
"""
