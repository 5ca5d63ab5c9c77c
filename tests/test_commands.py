"""A command interrupted while it imports, or cut off from its reader, ends in one line or silently, not a traceback."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from games._commands import MARKER, ForeignPackageError, check_packages, running_command
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


def _package(folder: Path, name: str, ours: bool) -> None:
    (folder / name).mkdir(parents=True)
    (folder / name / "__init__.py").write_text(f'"""A package."""\n{MARKER if ours else "x = 1"}\n')


def test_a_package_named_like_ours_that_is_not_ours_is_refused_with_the_fix(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    site, work = tmp_path / "site", tmp_path / "work"
    _package(site, "abg_one", ours=True)
    _package(site, "abg_two", ours=True)
    _package(work, "abg_two", ours=False)  # a folder in the working directory, first on sys.path
    _package(site, "abg_three", ours=False)  # overwritten by another distribution's package of that name
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.syspath_prepend(str(work))
    check_packages(site, ("abg_one", "abg_four"))  # ours, and one not installed here (a wheel has no scripts/)
    with pytest.raises(ForeignPackageError, match=r"'abg_two' Python finds first is .*work/abg_two/__init__.py, not "
                                                  r"alphabeta-gym's .*shadows it.*rename that folder"):  # fmt: skip
        check_packages(site, ("abg_one", "abg_two"))
    with pytest.raises(ForeignPackageError, match=r"site/abg_three/__init__.py is not alphabeta-gym's: another "
                                                  r"distribution installed .* pip show abg_three.*uninstall both"):  # fmt: skip
        check_packages(site, ("abg_three",))


def test_every_package_of_the_project_declares_itself() -> None:
    for name in ("games", "heuristics", "search", "envs", "tuning", "weights", "scripts"):
        assert MARKER in (ROOT / name / "__init__.py").read_text(), name
    check_packages()  # the checkout as it is passes


def test_a_folder_named_envs_in_the_working_directory_stops_the_import_with_its_name(tmp_path: Path) -> None:
    (tmp_path / "envs").mkdir()
    (tmp_path / "envs" / "__init__.py").write_text("value = 'a project of the user'\n")
    done = subprocess.run([sys.executable, "-c", "import search"], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})  # fmt: skip
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 1 and last.startswith("games._commands.ForeignPackageError: the package 'envs'")
    assert str(tmp_path / "envs") in last and "rename that folder" in last
