"""Board evaluators of the papers and projects the package follows, with named, tunable weights and weight files.

Public API::

    from heuristics import Evaluator, NAMES, get_spec, load_weights, save_weights
    h = Evaluator("c4_features", CONNECT4, {"f4_col_d": 0.0})   # override any default
    h.evaluate(position)          # score for the side to move
    h.move_scores(position)       # ordering scores over the action space (-inf: illegal)

Evaluators (``NAMES``): ``c4_features`` and ``square_values`` (Kang et al.,
heuristics 1 and 2), ``patterns`` and ``windows`` (COMP 472 heuristics 1 and
2), ``mics`` (Bologna m,n,k project), ``threats`` (27 tunable window, threat
and Allis parity features).  Each declares its weights, defaults and
tuning bounds in its ``SPEC`` (see :mod:`heuristics.spec`).  Weights that
could push an evaluation into the search's win-score band are refused
(:mod:`heuristics.bounds`); files are written atomically by
:mod:`heuristics.files`.

Add an evaluator (``heuristics.registry`` is the one registration; every
list of evaluators, the bounds check, the tuner's gauntlet and the tests'
per-evaluator cases derive from it):

1. ``heuristics/_<name>.py``: ``SPEC`` (:class:`HeuristicSpec`: name,
   weights with defaults and tuning ranges, ``refuse``, ``bound``, and
   ``colour_dual`` if a feature tells the colours apart) and the
   ``_evaluate``/``_order`` kernels with the shared signature of
   :mod:`heuristics.spec`, decorated ``@njit(**JIT)``; it must pass
   ``mypy --strict`` like its siblings.
2. ``heuristics/registry.py``: import it and append
   ``Registration(<next id>, _<name>)`` to ``REGISTRY`` (ids are never
   reused or renumbered).
3. ``heuristics/_dispatch.py``: import its two kernels and add its id's
   branch to ``_evaluate`` and ``_order`` (numba needs the literal chains;
   the ``assert`` moves to the new last id; ``tests/test_registry.py``
   fails until chains and registry agree).
4. ``python -m heuristics.defaults`` writes its default weight files
   ``weights/<game>-<name>.json`` (a test compares them to the registry).
5. ``tests/test_h_<name>.py`` against a slow reference
   (``tests/naive_<name>.py``); the contract, bound and search tests pick it
   up from the registry.  Doctests that list every evaluator (the gauntlet's
   in :mod:`tuning.gauntlet`) then show it too.

That is all the array search needs; a bitboard leaf for Connect-4 sizes is
optional extra work in ``search/_bitnegamax.py`` (its ``HID_*`` ids come
from the registry).
"""

__distribution__ = "alphabeta-gym"  # games._commands.check_packages reads this line

try:  # first: a command interrupted while importing ends in one line, and packages named like ours must be ours
    from games import _commands  # isort: skip
except ImportError as error:  # a foreign `games` (a folder in the working directory, say) shadows alphabeta-gym's
    raise (error if error.name != "games" else ImportError(f"alphabeta-gym's 'games' is shadowed: {error}: rename that")) from None
_commands.check_packages()
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
    resolve_weight_file,
    save_weights,
    shipped_weight_files,
)

__all__ = [
    "Evaluator", "HEURISTICS", "HeuristicError", "HeuristicSpec", "NAMES",
    "UnknownHeuristicError", "UnsupportedGameError", "WeightError", "WeightFile", "WeightFileError",
    "WeightSpec", "check_weights", "get_spec", "load_weights", "resolve_weight_file", "save_weights",
    "shipped_weight_files",
]  # fmt: skip
