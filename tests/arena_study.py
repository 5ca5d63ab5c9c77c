"""A small tuning study in a SQLite file, with the attributes ``python -m tuning.run`` records (arena tests).

Trials carry what :mod:`tuning._objective` writes (``spec``, ``pairs``, ``games``, ``pentanomial``, ``elo``),
the first two the ``start`` marks of :mod:`tuning._setup` (the incumbent, the paper defaults), and the
study the settings and a confirmation as :mod:`tuning._confirm` stores them.
"""

from __future__ import annotations

from pathlib import Path

COUNTS = [  # pentanomial counts [0, 1/2, 1, 3/2, 2] per trial; None: pruned after 4 pairs
    [2, 4, 20, 8, 6], [5, 6, 18, 7, 4], [1, 3, 19, 10, 7], [3, 5, 20, 8, 4], [0, 2, 18, 12, 8], [6, 6, 20, 5, 3],
    [2, 5, 21, 8, 4], [1, 4, 18, 11, 6],
]  # fmt: skip


def make_study(path: Path, trials: int = len(COUNTS)) -> str:
    """Write the study ``connect4-threats-fair`` to the SQLite file ``path``; return its URL."""
    import optuna
    from optuna.distributions import FloatDistribution, IntDistribution
    from optuna.trial import TrialState, create_trial

    from tuning.stats import pentanomial

    url = f"sqlite:///{path}"
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(storage=url, study_name="connect4-threats-fair", direction="maximize")
    for key, value in {"game": "connect4 6x7 k=4", "heuristic": "threats", "mode": "fair", "nodes": 1000,
                       "opponents": ["rules", "connect4-threats-tuned"], "params": ["f1", "f2", "depth"]}.items():  # fmt: skip
        study.set_user_attr(key, value)
    distributions = {"f1": FloatDistribution(0.0, 4.0), "f2": FloatDistribution(-2.0, 2.0), "depth": IntDistribution(2, 8)}
    for number in range(trials):
        counts = COUNTS[number % len(COUNTS)]
        pruned = number == 3
        if pruned:
            counts = [0, 1, 2, 1, 0]
        estimate = pentanomial(counts)
        attrs = {"spec": f"alphabeta:heuristic=threats,f1={number}", "pairs": sum(counts), "games": 2 * sum(counts),
                 "pentanomial": counts, "elo": estimate.elo}  # fmt: skip
        if number < 2:
            attrs["start"] = ("incumbent", "paper defaults")[number]
        params = {"f1": 1.0 if number == 1 else (0.37 * number + 0.5) % 4.0, "f2": (0.1 * number) % 2.0 - 0.3, "depth": 2 + number % 6}
        study.add_trial(create_trial(params=params, distributions=distributions, user_attrs=attrs,
                                     state=TrialState.PRUNED if pruned else TrialState.COMPLETE,
                                     value=None if pruned else estimate.score))  # fmt: skip
    study.set_user_attr("confirmation:4", {"seed": 1, "pairs": 40, "pentanomial": [1, 3, 20, 10, 6], "wdl": [30, 40, 10]})
    return url
