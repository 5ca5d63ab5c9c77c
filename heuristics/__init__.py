"""Board evaluators of the seed documents, with named, tunable weights and weight files.

Public API::

    from heuristics import Evaluator, NAMES, get_spec, load_weights, save_weights
    h = Evaluator("c4_features", CONNECT4, {"f4_col_d": 0.0})   # override any default
    h.evaluate(position)          # score for the side to move
    h.move_scores(position)       # ordering scores over the action space (-inf: illegal)

Evaluators (``NAMES``): ``c4_features`` and ``square_values`` (Kang et al.,
heuristics 1 and 2), ``patterns`` and ``windows`` (COMP 472 heuristics 1 and
2), ``mics`` (Bologna m,n,k project), ``threats`` (27 tunable window, threat
and Allis parity features, issue 15).  Each declares its weights, defaults and
tuning bounds in its ``SPEC`` (see :mod:`heuristics.spec`).  Weights that
could push an evaluation into the search's win-score band are refused
(:mod:`heuristics.bounds`); files are written atomically by
:mod:`heuristics.files`.
"""

from heuristics.errors import (
    HeuristicError,
    UnknownHeuristicError,
    UnsupportedGameError,
    WeightError,
    WeightFileError,
)
from heuristics.evaluate import Evaluator
from heuristics.registry import HEURISTICS, NAMES, get_spec
from heuristics.spec import HeuristicSpec, WeightSpec
from heuristics.weights import (
    WeightFile,
    check_weights,
    load_weights,
    save_weights,
)

__all__ = [
    "Evaluator", "HEURISTICS", "HeuristicError", "HeuristicSpec", "NAMES",
    "UnknownHeuristicError", "UnsupportedGameError", "WeightError", "WeightFile", "WeightFileError",
    "WeightSpec", "check_weights", "get_spec", "load_weights", "save_weights",
]  # fmt: skip
