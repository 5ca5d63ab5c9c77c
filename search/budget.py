"""One search budget: :class:`Limit`, the value every caller of the search passes around.

``search()``, :class:`search.agents.AlphaBetaAgent`, agent specs, weight files'
``"search"`` section and the tuner's candidates all describe a search by the
same five settings; this frozen type holds them and validates them once, when
it is built (python-chess's ``chess.engine.Limit`` is the model).

* ``depth``: the deepest iteration (plies);
* ``branching``: q, only the q best-ordered moves are searched at each node;
* ``nodes``: nodes per move, over all iterations;
* ``time_ms``: wall time per move, in milliseconds;
* ``radius``: m,n,k only: cells within this king-move distance of a stone.

None means "not limited" for each.  ``depth``, ``nodes`` and ``time_ms``
stop a search; a search needs at least one of them (:attr:`Limit.bounded`),
but a weight file may leave them all open.

Weight files keep the section as a plain mapping (``heuristics`` sits below
``search`` and cannot import this type); :meth:`Limit.to_dict` writes it and
:meth:`Limit.from_dict` / :func:`load_weight_file` read it back.

Example:
    >>> limit = Limit(depth=6, branching=4)
    >>> limit.to_dict()
    {'depth': 6, 'branching': 4, 'nodes': None, 'time_ms': None, 'radius': None}
    >>> Limit(nodes=1000).merged_over(limit)
    Limit(depth=6, branching=4, nodes=1000)
    >>> Limit(depth=0)
    Traceback (most recent call last):
    ...
    search.budget.LimitError: depth=0 must be a positive integer of at most 2**63 - 1 = 9223372036854775807 or None
"""

from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass, fields
from typing import Any, Mapping, Optional, Union, get_args, get_type_hints

from games import KInARow, Position
from games.checks import INT64_MAX, check_optional_int, check_optional_positive
from heuristics import Evaluator, WeightFile, WeightFileError, load_weights
from search.errors import BudgetError, SearchError

PathLike = Union[str, "os.PathLike[str]"]


class LimitError(BudgetError):
    """A search budget that is not allowed; :attr:`field` names the setting at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, kw_only=True)
class Limit:
    """A search budget: depth, branching, nodes, time and radius, each None for "not limited".

    Fields are keyword-only, in the order weight files write them.  Integer
    settings may be Python or NumPy integers and are stored as ``int``;
    ``time_ms`` as ``float``.

    Raises:
        LimitError: ``depth``, ``nodes`` or ``branching`` not an integer in
            [1, 2**63 - 1] (the kernels count in int64), ``radius`` not an
            integer in [0, 2**63 - 1], or ``time_ms`` not a finite positive
            number; the message names the value and what is allowed.
    """

    depth: Optional[int] = None
    branching: Optional[int] = None
    """q, the number of best-ordered moves searched at each node (immediate wins and forced blocks are kept)."""
    nodes: Optional[int] = None
    time_ms: Optional[float] = None
    radius: Optional[int] = None
    """m,n,k only (ignored under gravity): the king-move distance from a stone a candidate cell may have."""

    def __post_init__(self) -> None:
        for name in FIELDS:
            value = getattr(self, name)
            if value is None:
                continue
            # Values already in their stored form skip the general checks: a Limit is built on every
            # search() call given keywords, and the checks below cost microseconds.
            if name == "time_ms":
                if type(value) is float and 0.0 < value < math.inf:
                    continue
            elif type(value) is int and (0 if name == "radius" else 1) <= value <= INT64_MAX:
                continue
            try:
                if name == "time_ms":
                    checked: object = check_optional_positive(name, value)
                else:
                    checked = check_optional_int(name, value, low=0 if name == "radius" else 1, high=INT64_MAX)
            except ValueError as exc:
                raise LimitError(name, str(exc)) from None
            object.__setattr__(self, name, checked)  # a NumPy integer becomes an int, an int time a float

    def __repr__(self) -> str:
        """Only the settings that are set: ``Limit(depth=6, branching=4)``."""
        return f"Limit({', '.join(f'{name}={value!r}' for name, value in self.to_dict().items() if value is not None)})"

    @property
    def bounded(self) -> bool:
        """True if something stops a search: a depth, node or time budget."""
        return self.depth is not None or self.nodes is not None or self.time_ms is not None

    def replace(self, **changes: Any) -> Limit:
        """A copy with some settings changed (validated like a new one)."""
        return dataclasses.replace(self, **changes)

    def merged_over(self, defaults: Limit) -> Limit:
        """This limit, with every setting left None here taken from ``defaults``."""
        return Limit(**{name: _first(getattr(self, name), getattr(defaults, name)) for name in FIELDS})

    def to_dict(self) -> dict[str, Any]:
        """Every setting by name, None included: a weight file's ``"search"`` section."""
        return {name: getattr(self, name) for name in FIELDS}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Limit:
        """The limit of a mapping like :meth:`to_dict`'s (missing names and None: not limited).

        Raises:
            LimitError: not a mapping, an unknown name, or a bad value (its ``field`` names it).
        """
        if not isinstance(data, Mapping):
            raise LimitError("", f"a search budget must be a mapping of {', '.join(FIELDS)}, not {type(data).__name__}")
        unknown = sorted(set(data) - set(FIELDS), key=str)
        if unknown:
            raise LimitError(str(unknown[0]), f"unknown field {unknown[0]!r}; allowed: {', '.join(FIELDS)}")
        return cls(**data)


def _first(value: Any, default: Any) -> Any:
    return default if value is None else value


FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Limit))
"""The settings' names, in the order weight files write them: the one list agent specs and the tuner use."""

FIELD_TYPES: dict[str, type] = {name: get_args(hint)[0] for name, hint in get_type_hints(Limit).items()}
"""Each setting's type (``int``, or ``float`` for ``time_ms``), for parsing command-line text."""


def as_limit(limit: Optional[Limit], **keywords: Any) -> Limit:
    """``limit``, or the :class:`Limit` the budget keywords describe: the two ways callers give a budget, one at a time.

    Raises:
        ValueError: both given, ``limit`` not a Limit, or (:class:`LimitError`) a bad keyword value.
    """
    if limit is None:
        return Limit(**keywords)
    if not isinstance(limit, Limit):
        raise BudgetError(f"limit={limit!r} must be a search.Limit or None")
    given = sorted(name for name, value in keywords.items() if value is not None)
    if given:
        raise BudgetError(f"give the budget either as limit= or as keywords, not both (limit={limit} and {', '.join(given)})")
    return limit


def check_searchable(position: Position, evaluator: Evaluator, limit: Limit) -> None:
    """Refuse what no budget can search: another game's evaluator, a finished position, no stopping budget.

    The budget's values were checked when ``limit`` was built (:class:`Limit`).

    Raises:
        ValueError: (:class:`search.errors.SearchError`) the evaluator is for another game, or the position
            is over; (:class:`search.errors.BudgetError`) ``limit`` stops nothing.
    """
    if position.game is not evaluator.game and position.game != evaluator.game:
        raise SearchError(f"the evaluator is for {evaluator.game}, the position is of {position.game}")
    if position.is_terminal():
        raise SearchError(f"position {position.move_string()!r} is over: there is nothing to search")
    if not limit.bounded:
        raise BudgetError(f"give at least one budget: depth, nodes or time_ms (got {limit})")


def load_weight_file(path: PathLike, game: Optional[KInARow] = None) -> tuple[WeightFile, Limit]:
    """:func:`heuristics.load_weights`, and the file's ``"search"`` section as a :class:`Limit`.

    Raises:
        WeightFileError: as :func:`heuristics.load_weights`, or a bad search
            section (the message names the file and the field, e.g. ``search.depth``).
    """
    record = load_weights(path, game)
    try:
        return record, Limit.from_dict(record.search)
    except LimitError as exc:
        where = f"search.{exc.field}" if exc.field else "search"
        raise WeightFileError(f"{path}: field {where!r}: {exc}") from None

