"""The wheel as a user gets it: built and installed into a fresh venv whose numba cache starts empty.

Three tests use one such venv (the ``wheel_venv`` fixture of ``tests/conftest.py``, one per worker, and the
three in the ``wheel`` xdist group, so one worker builds it once), in this order (all are marked ``slow``,
and pytest keeps the collection order): ``tests/test_jit_options.py`` counts the bitboard search's signatures
in its empty cache, ``tests/test_warmup.py`` checks that ``envs.play`` says it prepares a cold opponent (the
rules player), and ``tests/test_wheel.py`` then runs every command there.  The first two compile kernels that
the commands would compile anyway, so a fresh clone's run compiles them once, not once in a throwaway cache
and again in the venv.  Each of the first two falls back to an empty cache folder of its own when the venv's
already holds its kernels (another order).

The venv sees the running interpreter's site-packages (numba, gymnasium, optuna: nothing is downloaded) through
a ``.pth`` file, after its own, so the installed wheel shadows any editable install of the project there.  Not
``venv --system-site-packages``: when the running interpreter is itself a venv's (a contributor's), that option
exposes the *base* interpreter's packages, not the venv's, and numba and gymnasium were missing.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "heuristics", "search", "envs", "tuning", "arena", "weights")


def build_venv(work: Path) -> tuple[Path, Path]:
    """Build the wheel from a copy of the checkout under ``work`` and install it into a new venv there.

    Returns ``(the venv's python, an empty folder to run in)``.
    """
    source = work / "source"  # a copy: building in the checkout would leave build/ behind and race other builds
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, source / package, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    # the installed setuptools when there is one (no download); else pip's isolated build fetches it
    isolation = [] if importlib.util.find_spec("setuptools") is None else ["--no-build-isolation"]
    run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", *isolation, "-q", "-w", str(work / "dist")])
    (wheel,) = (work / "dist").glob("alphabeta_gym-*.whl")
    run([sys.executable, "-m", "venv", "--without-pip", str(work / "venv")])
    python = work / "venv" / "bin" / "python"
    own = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).strip())
    (own / "_running_interpreter.pth").write_text("\n".join(running_site_packages()) + "\n")
    # --ignore-installed: the editable install of the project those folders show is not the venv's
    run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--ignore-installed", "-q", str(wheel)])
    empty = work / "empty"
    empty.mkdir()
    return python, empty


def running_site_packages() -> list[str]:
    """The site-packages folders of the interpreter running the tests (a venv's own when it runs in one)."""
    folders = [*site.getsitepackages(), site.getusersitepackages()]
    return [folder for folder in folders if Path(folder).is_dir()]


def cached_kernels(python: Path) -> list[Path]:
    """The numba cache index files in the venv of ``python`` (empty: nothing compiled there yet)."""
    return sorted((python.parents[1] / "lib").rglob("*.nbi"))


def run(command: list[str], cwd: Path = ROOT, stdin: str = "", timeout: float = 900) -> str:
    """Run ``command`` without PYTHONPATH or a numba cache folder of the caller's; return its stdout (it must exit 0)."""
    done = subprocess.run(command, cwd=cwd, env=clean_env(), input=stdin, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{command}: exit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def clean_env() -> dict[str, str]:
    """The caller's environment without what would point a command away from the venv's own code and cache."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR", "NUMBA_DISABLE_JIT")}
