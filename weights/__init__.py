"""The weight files shipped with alphabeta-gym: a data package (its only code is the listing command, ``__main__``).

Every ``*.json`` file in this folder is package data (``pyproject.toml``
includes it), so a wheel carries the same files as a checkout and every
reader finds them the same way, through :mod:`importlib.resources`:

* ``<game>-<heuristic>.json``: each evaluator's default weights for each
  preset game it covers, written by ``python -m heuristics.defaults``;
* ``<game>-<heuristic>-tuned.json``: the tuned agents (the tuner's gauntlet
  and the rating ladder play them).

A file is named by its name alone (``connect4-threats-tuned``, with or
without ``.json``) wherever a weight file is accepted: the rule is
:func:`heuristics.weights.resolve_weight_file`, and ``python -m weights
--list`` lists the names.
"""

__distribution__ = "alphabeta-gym"  # games._commands.check_packages reads this line
