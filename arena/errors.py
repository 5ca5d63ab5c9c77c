"""The arena's errors: bad input answered as a one-line message, with the HTTP status it is sent with."""

from __future__ import annotations

from arena._engine import AlphabetaError


class ArenaError(AlphabetaError):
    """Input the arena refuses (a ``ValueError``, as every error of the project); the message names the bad value
    and what is allowed."""

    status = 400


class BadRequest(ArenaError):
    """A malformed or illegal request parameter (HTTP 400)."""


class NotFound(ArenaError):
    """A study, file or route that does not exist (HTTP 404)."""

    status = 404


class Unavailable(ArenaError):
    """A storage that does not answer (HTTP 502: the fault is on the far side)."""

    status = 502
