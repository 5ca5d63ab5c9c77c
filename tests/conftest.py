"""Suite-wide pytest hooks and the fixtures that more than one test module shares."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

# The tuner keeps openings and label sets in the user's cache (tuning._cache).  The suite keeps its own, one per
# process (and the commands its tests start inherit it), so no test reads what a user made or writes into their home.
# Underscores, not hyphens, before mkdtemp's random letters: the help texts show this folder, and a random part
# standing alone as a word could read as a commit hash to the docs test that forbids those (it did: "9afec6f9").
_CACHE = tempfile.mkdtemp(prefix="alphabeta_gym_test_cache_")
os.environ["ALPHABETA_GYM_CACHE"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` first, the rest in their order: pytest-xdist hands tests out in collection order,
    so a two-minute test collected last (the wheel's, the guides') kept one worker busy alone at the end."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def wheel_venv(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """``(python of a venv holding only the wheel, an empty folder to run in)``: built once per process for the
    tests of the ``wheel`` xdist group (``tests/wheelvenv.py``); its numba cache starts empty."""
    from tests.wheelvenv import build_venv

    return build_venv(tmp_path_factory.mktemp("wheel"))
