"""README.md as a newcomer meets it: every Python block runs verbatim, in order, without writing into the checkout.

The blocks run in one fresh interpreter with the repository root as the
working directory (as a reader pasting them would), sharing one namespace;
``git status`` must be the same afterwards.  Shell examples that read a
file must name one the repository ships.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
BLOCKS = [(lang, body) for lang, body in FENCE.findall(README)]
PYTHON = [body for lang, body in BLOCKS if lang == "python"]
SHELL = [body for lang, body in BLOCKS if lang in ("bash", "sh", "shell", "console")]

DRIVER = """
import json, sys
namespace = {"__name__": "__main__"}
for number, block in enumerate(json.loads(sys.stdin.read()), 1):
    print(f"--- block {number}", flush=True)
    exec(compile(block, f"README.md python block {number}", "exec"), namespace)
"""


def git_status() -> str:
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout  # fmt: skip


def test_the_readme_has_the_blocks_this_test_expects() -> None:
    # the RL and play-or-solve recipes; set-up, next steps, solver, Piskvork, the site's build: a broken fence
    # regex must not pass vacuously
    assert len(PYTHON) >= 2 and len(SHELL) >= 6
    assert any("MaskablePPO" in body for body in PYTHON) and any("search.piskvork" in body for body in SHELL)


@pytest.mark.slow  # the kernels' first compile and a short MaskablePPO run: about 2 minutes on a cold, shared 2-core VM
@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout")
def test_every_python_block_runs_verbatim_without_touching_the_checkout() -> None:
    before = git_status()
    result = subprocess.run([sys.executable, "-c", DRIVER], input=json.dumps(PYTHON), cwd=ROOT, capture_output=True,
                            text=True, timeout=900)  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    assert result.stdout.count("--- block") == len(PYTHON)
    assert git_status() == before


def test_shell_examples_read_only_files_that_exist() -> None:
    commands = [line.split("#")[0] for body in SHELL for line in body.splitlines()]  # comments may hold "<moves>"
    inputs = [path for line in commands for path in re.findall(r"(?<![<\d])<\s*([^\s<'\"]+)", line)]
    assert "tests/data/connect4/Test_L3_R1" in inputs
    missing = [path for path in inputs if not (ROOT / path).is_file()]
    assert missing == []


def test_no_internal_tools_or_stale_promises() -> None:
    assert "flock" not in README  # the maintainers' machine lock: not a user's command
    assert "once the solver lands" not in README
    assert "the CPU build `torch" not in README  # the index's torch==2.13.0 is the CUDA build


def test_installed_torch_satisfies_the_pin_the_extras_declare() -> None:
    torch = pytest.importorskip("torch")
    from packaging.specifiers import SpecifierSet

    pins = set(re.findall(r'"torch(==[^"]+)"', (ROOT / "pyproject.toml").read_text()))
    assert len(pins) == 1  # the rl and test extras pin the same torch
    assert SpecifierSet(pins.pop()).contains(torch.__version__)  # 2.13.0+cpu: the CPU wheel satisfies it


def test_script_commands_run_the_scripts_as_modules() -> None:
    docs = [README, *(p.read_text() for p in sorted((ROOT / "docs").rglob("*.md")))]
    assert not [d for d in docs if re.search(r"python scripts/|PYTHONPATH", d)]  # `python -m scripts.<name>` needs neither
    named = {name for d in docs for name in re.findall(r"python -m scripts\.(\w+)", d)}
    assert "reproduce_paper" in named and all((ROOT / "scripts" / f"{name}.py").is_file() for name in named)
