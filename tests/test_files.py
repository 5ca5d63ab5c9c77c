"""The atomic-write helper: permissions from the umask, nothing half-written, no temporary file left behind."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Iterator

import pytest

from games import CONNECT4
from heuristics import WeightFile, save_weights
from heuristics.files import write_bytes_atomic, write_text_atomic
from tuning.openings import write_text_atomic as write_report


@pytest.fixture(params=[0o022, 0o027, 0o002])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_files_get_the_mode_open_would_give(tmp_path: Path, umask: int) -> None:
    """0o666 minus the umask, as ``open(path, "w")``, not mkstemp's 0o600 (the old behaviour of all three writers)."""
    expected = 0o666 & ~umask
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    assert mode(plain) == expected  # what the system itself gives
    assert mode(write_text_atomic(tmp_path / "a.txt", "é\n")) == expected
    assert (tmp_path / "a.txt").read_bytes() == "é\n".encode()
    assert mode(write_bytes_atomic(tmp_path / "b.png", b"\x89PNG")) == expected
    weights = save_weights(WeightFile(CONNECT4, "square_values", {"scale": 1.0}), tmp_path / "w.json")
    assert mode(weights) == expected
    write_report(tmp_path / "new" / "run.md", "# run\n")  # the tuner's name, now delegating
    assert mode(tmp_path / "new" / "run.md") == expected


@pytest.mark.parametrize("failure", [OSError("disk full"), KeyboardInterrupt()])
def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             failure: BaseException) -> None:  # fmt: skip
    target = write_text_atomic(tmp_path / "t.txt", "old")

    def fail(*args: object) -> None:
        raise failure

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(type(failure)):
        write_text_atomic(target, "new")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["t.txt"]
    with pytest.raises(FileNotFoundError):
        write_text_atomic(tmp_path / "missing" / "t.txt", "x")
