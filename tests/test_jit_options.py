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
                if re.match(r"\s*@(numba\.)?(njit|jit)\b", line) and "**JIT" not in line:
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, "use @njit(**JIT) from games._jit:\n" + "\n".join(offenders)


def test_the_options_cache_compiled_code() -> None:
    from games._jit import JIT

    assert JIT.get("cache") is True and not JIT.get("fastmath", False)


def test_stale_kernel_caches_are_dropped_when_any_kernel_source_changes(tmp_path: Path) -> None:
    from games._jit import invalidate_stale_caches

    for package in ("alpha", "beta"):
        (tmp_path / package / "__pycache__").mkdir(parents=True)
        (tmp_path / package / "kernels.py").write_text("@njit\ndef f(): return 1\n")
    cached = [tmp_path / p / "__pycache__" / "kernels.f-1.py311.nbi" for p in ("alpha", "beta")]

    def fill() -> None:
        for path in cached:
            path.write_text("compiled")

    fill()
    assert invalidate_stale_caches(tmp_path, ("alpha", "beta"))  # no stamp yet: start clean
    assert not any(p.exists() for p in cached)
    fill()
    assert not invalidate_stale_caches(tmp_path, ("alpha", "beta"))  # nothing changed: keep the caches
    assert all(p.exists() for p in cached)
    (tmp_path / "beta" / "facade.py").write_text("x = 2\n")  # a facade changes: no recompile
    assert not invalidate_stale_caches(tmp_path, ("alpha", "beta"))
    (tmp_path / "beta" / "kernels.py").write_text("@njit\ndef f(): return 2\n")  # a callee changes ...
    assert invalidate_stale_caches(tmp_path, ("alpha", "beta"))
    assert not any(p.exists() for p in cached)  # ... so callers in other packages recompile too
