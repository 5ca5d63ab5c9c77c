"""Validation of the plain numbers every layer takes (seeds, budgets, sizes), with one wording.

Python ints and NumPy integers are accepted alike (``np.int64(4)`` is a
depth like ``4``); bools are refused although they are ints, since
``depth=True`` is a mistake, not a depth of 1.  Each check returns the value
as a Python ``int`` so nothing downstream sees a NumPy scalar, and raises
:class:`games.errors.InvalidValueError` (a ``ValueError``) naming the value.

Example:
    >>> import numpy as np
    >>> check_int("depth", np.int64(4), low=1)
    4
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    games.errors.InvalidValueError: seed=-1 is negative: a seed must be a non-negative integer or None
"""

from __future__ import annotations

import math
import numbers
from typing import Optional

import numpy as np

from games.errors import InvalidValueError

INT64_MAX = 2**63 - 1
"""The largest count the kernels hold (they count in int64)."""


def is_integer(value: object) -> bool:
    """True for Python and NumPy integers, False for bools (and everything else)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def is_real(value: object) -> bool:
    """True for Python and NumPy ints and floats (any :class:`numbers.Real`), False for bools."""
    return isinstance(value, (numbers.Real, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def shown(value: object) -> str:
    """``repr(value)``, cut short if long (a 400-digit integer must not flood an error message)."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}...({len(text)} characters)"


def _allowed(low: Optional[int], high: Optional[int]) -> str:
    if high == INT64_MAX:  # the cap of the kernels' int64 counters, not a range anybody means to sweep
        return f"{_allowed(low, None)} of at most 2**63 - 1 = {INT64_MAX}"
    if low is not None and high is not None:
        return f"an integer from {low} to {high}"
    if low is not None:
        return {0: "a non-negative integer", 1: "a positive integer"}.get(low, f"an integer of at least {low}")
    return "an integer" if high is None else f"an integer of at most {high}"


def check_int(name: str, value: object, *, low: Optional[int] = None, high: Optional[int] = None) -> int:
    """``value`` as a Python int if it is an integer in ``[low, high]`` (None: unbounded).

    Raises:
        ValueError: not an integer, or out of range; the message names ``name``,
            the value, and what is allowed.
    """
    if not is_integer(value):
        raise InvalidValueError(f"{name}={shown(value)} must be {_allowed(low, high)}")
    number: int = int(value)  # type: ignore[call-overload]
    if (low is not None and number < low) or (high is not None and number > high):
        raise InvalidValueError(f"{name}={shown(number)} must be {_allowed(low, high)}")
    return number


def check_optional_int(name: str, value: object, *, low: Optional[int] = None, high: Optional[int] = None) -> Optional[int]:
    """:func:`check_int`, letting None through (``None`` means "not set")."""
    if value is None:
        return None
    try:
        return check_int(name, value, low=low, high=high)
    except ValueError as exc:
        raise InvalidValueError(f"{exc} or None") from None


def check_seed(seed: object, name: str = "seed") -> Optional[int]:
    """``seed`` as a Python int (or None, meaning fresh entropy): what ``numpy.random.default_rng`` accepts.

    Raises:
        ValueError: a negative seed or a non-integer; the message names the value.
    """
    if seed is None:
        return None
    if not is_integer(seed):
        raise InvalidValueError(f"{name}={shown(seed)} is not an integer: a seed must be a non-negative integer or None")
    number: int = int(seed)  # type: ignore[call-overload]
    if number < 0:
        raise InvalidValueError(f"{name}={number} is negative: a seed must be a non-negative integer or None")
    return number


def check_optional_positive(name: str, value: object) -> Optional[float]:
    """``value`` as a finite positive float (None lets through), e.g. a time budget.

    Raises:
        ValueError: not a number, not finite, too large for a float, or not positive.
    """
    if value is None:
        return None
    problem = "is not a number"
    if is_real(value):
        try:
            number = float(value)  # type: ignore[arg-type]
        except OverflowError:  # an int beyond the largest float
            number, problem = math.inf, "is too large for a float"
        else:
            problem = "is not positive and finite"
        if math.isfinite(number) and number > 0:
            return number
    raise InvalidValueError(f"{name}={shown(value)} {problem}: {name} must be a positive finite number or None")


def check_finite(name: str, value: object) -> float:
    """``value`` (a Python or NumPy int or float) as a finite float.

    Raises:
        ValueError: a bool, not a number, ``nan``/``inf``, or an int too large for a float.
    """
    if is_real(value):
        try:
            number = float(value)  # type: ignore[arg-type]
        except OverflowError:  # an int beyond the largest float
            number = math.inf
        if math.isfinite(number):
            return number
    raise InvalidValueError(f"{name}={shown(value)} must be a finite number")
