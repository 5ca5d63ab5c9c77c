"""A command interrupted while it imports, or cut off from its reader, ends in one line or silently, not a traceback."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from games._commands import running_command
from tests.interrupts import default_sigint

ROOT = Path(__file__).resolve().parents[1]

# Imported first by the child (PYTHONPATH): it announces numpy's import on stderr, then holds it for a while, so the
# test's Ctrl-C lands inside the command's imports every time, not before or after them.
SLOW_IMPORT = '''
import sys, time
class _Slow:
    def find_spec(self, name, path=None, target=None):
        if name == "numpy":
            sys.meta_path.remove(self)
            print("importing numpy", file=sys.stderr, flush=True)
            time.sleep(5)
        return None
sys.meta_path.insert(0, _Slow())
'''


@pytest.mark.parametrize("argv, command", [
    (["python", "-m", "weights", "--list"], "weights"),
    (["python", "-X", "dev", "-mtuning.run", "--trials", "2"], "tuning.run"),
    (["python", "-m", "json.tool"], None),
    (["python", "script.py", "-m", "weights"], None),
    (["python", "-c", "import weights"], None),
    (["pytest", "tests"], None),
])  # fmt: skip
def test_the_hook_is_for_this_projects_commands_only(argv: list[str], command: str) -> None:
    assert running_command(argv) == command


@pytest.mark.parametrize("argv", [
    ["weights", "--list"],
    ["scripts.bounds_around", "connect4-threats-tuned"],
    ["search.solve", "--help"],
])  # fmt: skip
def test_ctrl_c_while_a_command_imports_is_one_line(argv: list[str], tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text(SLOW_IMPORT)
    child = subprocess.Popen([sys.executable, "-m", *argv], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
                             preexec_fn=default_sigint)  # fmt: skip
    try:
        assert child.stderr is not None
        assert child.stderr.readline().strip() == "importing numpy"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
    assert err.strip() == f"python -m {argv[0]}: interrupted" and out == ""
    assert child.returncode in (130, -signal.SIGINT)  # Python ends by SIGINT itself: a shell shows 130


def test_a_listing_cut_off_from_its_reader_ends_quietly() -> None:
    child = subprocess.Popen([sys.executable, "-m", "weights", "--list"], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)  # fmt: skip
    assert child.stdout is not None
    child.stdout.close()  # the reader is gone before the first line (as `| head -0` would be)
    _, err = child.communicate(timeout=120)
    assert err == "" and child.returncode == 1
