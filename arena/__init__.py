"""The arena: play, analyse and watch k-in-a-row games in a browser, and follow a tuning study.

``python -m arena`` starts a local web server (Starlette and uvicorn, the ``arena`` extra) and opens the
page.  Every view reads a JSON API (:mod:`arena.server`); boards are SVG, drawn in the page by a small
script and in Python by :func:`board_svg` (for notebooks and documents).

Public pieces::

    from arena import board_svg, create_app
    board_svg(CONNECT4.position("4453"))   # an SVG string
    app = create_app()                     # the Starlette application (needs the arena extra)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__distribution__ = "alphabeta-gym"
"""Whose package this is: the project's check for a foreign package of the same name reads this line."""

try:  # first: a command interrupted while importing ends in one line, and packages named like ours must be ours
    from games import _commands  # isort: skip
except ImportError as error:  # a foreign `games` (a folder in the working directory, say) shadows alphabeta-gym's
    raise (error if error.name != "games" else ImportError(f"alphabeta-gym's 'games' is shadowed: {error}: rename that")) from None
_commands.check_packages()

from arena.svg import board_svg  # noqa: E402

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["board_svg", "create_app"]


def create_app(**options: Any) -> "Starlette":
    """The arena's web application (see :func:`arena.server.create_app`); needs the ``arena`` extra."""
    from arena.server import create_app as build

    return build(**options)
