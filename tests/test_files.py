"""The atomic-write helper: permissions from the umask, nothing half-written, no temporary file left behind."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Callable, Iterator

import pytest

from games import CONNECT4
from heuristics import WeightFile, files, save_weights
from heuristics.files import write_bytes_atomic, write_text_atomic
from tests.inprocess import call_within
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


def _loaders() -> dict[str, Callable[[Path], object]]:
    """Every reader of a file a user names, by what it reads (each raises its domain's ValueError)."""
    from envs.rating import load_ladder
    from heuristics import load_weights
    from search.agents.openings import OpeningBook
    from search.gomoku.puzzles import load_puzzles
    from tuning.labels import load_labels

    return {"weights": load_weights, "openings": OpeningBook.load, "puzzles": load_puzzles, "labels": load_labels,
            "ladder": lambda path: load_ladder(CONNECT4, path)}  # fmt: skip


KINDS = {"device": "a character device, not a regular file", "fifo": "a named pipe (FIFO), not a regular file",
         "folder": "a folder, not a regular file", "large": "is too large: only a regular file of at most 100 bytes is read"}  # fmt: skip


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("what", ["weights", "openings", "puzzles", "labels", "ladder"])
def test_only_a_regular_file_within_the_cap_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, what: str, kind: str) -> None:
    """``/dev/zero`` was read until the memory ran out (or for minutes), a named pipe blocked the reader forever,
    a folder gave a raw OSError: each now ends at once in one line naming the path and what is read."""
    path = {"device": Path("/dev/zero"), "folder": tmp_path, "fifo": tmp_path / "pipe", "large": tmp_path / "big"}[kind]
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "large":
        path.write_bytes(b"{" + b" " * 200 + b"}")  # a small file over a small cap: no huge file is written
        monkeypatch.setattr(files, "MAX_INPUT_BYTES", 100)
    with pytest.raises(ValueError) as raised:  # a blocked read: a writer on the pipe lets it go, and the test fails
        call_within(30, lambda: _loaders()[what](path), lambda: os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK)))
    message = str(raised.value)
    assert f"{path}: " in message and KINDS[kind] in message and "\n" not in message, message


def test_the_cap_counts_the_bytes_read_and_text_must_be_utf8(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(b"x" * 100)
    assert files.read_bytes_capped(path, limit=100) == b"x" * 100  # the cap itself is allowed
    with pytest.raises(ValueError, match=r"f.json: 101 bytes is too large: only a regular file of at most 100 bytes"):
        path.write_bytes(b"x" * 101)
        files.read_bytes_capped(path, limit=100)
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(KeyError, match="f.json: not UTF-8 text"):  # the caller's error class
        files.read_text_capped(path, KeyError)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="missing.json: cannot read: No such file or directory"):
        files.read_text_capped(tmp_path / "missing.json")
    assert files.MAX_INPUT_BYTES == 64 * 2**20
