"""Suite-wide pytest hooks."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` first, the rest in their order: pytest-xdist hands tests out in collection order,
    so a two-minute test collected last (the wheel's, the guides') kept one worker busy alone at the end."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
