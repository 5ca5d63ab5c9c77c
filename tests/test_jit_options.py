"""Every kernel takes its numba options from games/_jit.py (STUMPY's check_fastmath idea)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["games", "heuristics", "search", "envs", "tuning"]


def test_no_module_hard_codes_jit_options() -> None:
    offenders = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if re.search(r"@(numba\.)?(njit|jit)\b", line) and "**JIT" not in line:
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, "use @njit(**JIT) from games._jit:\n" + "\n".join(offenders)


def test_the_options_cache_compiled_code() -> None:
    from games._jit import JIT

    assert JIT.get("cache") is True and not JIT.get("fastmath", False)
