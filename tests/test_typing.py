"""``mypy --strict`` over the packages (configuration in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # 40 to 75 s: handed out among the first tests (tests/conftest.py), not left to run alone at the end
def test_packages_type_check_strictly() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "games", "heuristics", "search", "envs", "tuning", "arena", "weights"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
