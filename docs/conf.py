"""Sphinx configuration of the alphabeta-gym documentation.

Build it from the repository root with warnings as errors, as the test suite does
(``tests/test_docs.py``)::

    python -m sphinx -W --keep-going -n -b html docs docs/_build/html

The guides are Markdown (MyST); the API reference is generated from the docstrings
(autodoc + autosummary, Google style through napoleon).  Importing the packages
compiles no numba kernel: kernels compile on their first call.
"""

from __future__ import annotations

import shutil
import sys
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the checkout's packages, installed or not
# autosummary writes one stub per module here at every build; start empty so that a
# module that was removed or renamed leaves no stale page behind (autodoc would fail on it).
shutil.rmtree(Path(__file__).resolve().parent / "api" / "_autosummary", ignore_errors=True)

project = "alphabeta-gym"
author = "the alphabeta-gym developers"
copyright = "the alphabeta-gym developers"
try:
    release = metadata.version("alphabeta-gym")
except metadata.PackageNotFoundError:  # building from a checkout that was never installed
    release = "unknown"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

# MyST: Markdown guides, ``{eval-rst}`` where a directive needs RST, heading anchors
# so that ``page.md#section`` links are checked.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# The API reference: one page per public module, generated at build time.
autosummary_generate = True
autosummary_ignore_module_all = True
autodoc_default_options = {"members": True, "show-inheritance": True, "member-order": "bysource"}
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented_params"
# The arena's web server needs its extra (Starlette, uvicorn); the docs extra alone builds its pages without them.
autodoc_mock_imports = ["starlette", "uvicorn"]
autodoc_preserve_defaults = True
autodoc_mock_imports: list[str] = []
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False

html_theme = "furo"
html_title = "alphabeta-gym"
html_static_path: list[str] = []

# The environments' docstrings follow Gymnasium's convention: Markdown sections
# ("## Description", "## Action Space", ...) and fenced code.  Turn those two
# constructs into reStructuredText before napoleon and autodoc read the docstring.
_FENCE = "```"


def _markdown_sections_to_rst(lines: list[str]) -> None:
    out: list[str] = []
    in_code = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith(_FENCE):
            if in_code:
                in_code = False
                out.append("")
            else:
                in_code = True
                out.extend([f".. code-block:: {stripped[3:] or 'text'}", ""])
            continue
        if in_code:
            out.append("   " + line if line else "")
        elif stripped.startswith("## "):
            out.extend([f".. rubric:: {stripped[3:]}", ""])
        else:
            out.append(line)
    lines[:] = out


def _convert_gymnasium_docstring(app: object, what: str, name: str, obj: object, options: object, lines: list[str]) -> None:
    if any(line.startswith("## ") for line in lines):
        _markdown_sections_to_rst(lines)


def _defining_module(app: Sphinx, modname: str, fullname: str) -> str:
    """The module whose source page a documented name links to: where it is defined, as viewcode does, except a
    name bound to a builtin (``Action = int``), whose "module" ``builtins`` has no source: it stays on its own."""
    import importlib

    try:
        found: object = importlib.import_module(modname)
        for part in fullname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError):
        return modname
    defined = getattr(found, "__module__", None)
    return defined if isinstance(defined, str) and defined != "builtins" else modname


def setup(app: Sphinx) -> None:
    app.connect("autodoc-process-docstring", _convert_gymnasium_docstring, priority=100)
    app.connect("viewcode-follow-imported", _defining_module)
