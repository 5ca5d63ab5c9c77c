"""For tests that send Ctrl-C (SIGINT) to a child process.

A shell without job control starts background commands with SIGINT
ignored, and an ignored signal stays ignored across fork and exec; Python
then installs no KeyboardInterrupt handler at all.  A test suite run that
way (a CI runner may be) would send SIGINT into the void, so the children
these tests interrupt restore the default first, as an interactive terminal
would have it.  :func:`interrupt_when` runs a command and sends it Ctrl-C
once it has reached a given point.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable, Optional, Sequence


def default_sigint() -> None:
    """``preexec_fn`` for :class:`subprocess.Popen`: the child reacts to SIGINT as a terminal's foreground job does."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@dataclass
class Interrupted:
    """How a command ended after Ctrl-C: its exit status, what it wrote, and the processes it had started."""

    returncode: int
    stdout: str
    stderr: str
    children: list[int]
    """The ids of the command's child processes just before the signal (worker processes, their tracker)."""


def interrupt_when(args: Sequence[str], line: Optional[Callable[[str], bool]] = None,
                   when: Optional[Callable[[], bool]] = None, *, delay: float = 0.3, group: bool = False,
                   stdin: Optional[str] = None, timeout: float = 60.0) -> Interrupted:  # fmt: skip
    """Run ``python -m args`` from the repository root; once a ``line`` of its stderr or stdout satisfies ``line``,
    or ``when()`` is true (polled every 20 ms: a file it writes), wait ``delay`` seconds and send SIGINT: to the
    process, or with ``group`` to its whole process group, as Ctrl-C in a terminal does (worker processes
    included).  ``stdin`` is written first (then left open, as a manager does).

    Raises:
        AssertionError: the command ended, or ``timeout`` seconds passed, before it was ready.
    """
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.Popen([sys.executable, "-m", *args], cwd=root, env={**os.environ, "PYTHONPATH": str(root)},
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_sigint, start_new_session=group)  # fmt: skip
    lines: queue.Queue[Optional[str]] = queue.Queue()
    kept: dict[str, list[str]] = {"stdout": [], "stderr": []}

    def pump(name: str, stream: IO[str]) -> None:
        for text in stream:
            kept[name].append(text)
            lines.put(text)
        lines.put(None)

    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    pumps = [threading.Thread(target=pump, args=(name, stream), daemon=True)
             for name, stream in (("stdout", proc.stdout), ("stderr", proc.stderr))]  # fmt: skip
    for thread in pumps:
        thread.start()
    try:
        if stdin is not None:
            proc.stdin.write(stdin)
            proc.stdin.flush()
        deadline, ended = time.monotonic() + timeout, 0
        while not (when is not None and when()):
            assert time.monotonic() < deadline, f"not ready after {timeout} s: {''.join(kept['stderr'])[-2000:]}"
            try:
                text = lines.get(timeout=0.02)
            except queue.Empty:
                continue
            ended += text is None
            assert ended < 2, f"the command ended before it was ready: {''.join(kept['stderr'])[-2000:]}"
            if text is not None and line is not None and line(text):
                break
        time.sleep(delay)
        children = _children(proc.pid)
        if group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        proc.wait(timeout=timeout)
        for thread in pumps:
            thread.join(timeout=10)
    finally:
        proc.kill()
    return Interrupted(proc.returncode, "".join(kept["stdout"]), "".join(kept["stderr"]), children)


def _children(pid: int) -> list[int]:
    """The ids of ``pid``'s child processes (Linux: from /proc/*/stat; empty elsewhere)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        if int(fields[1]) == pid:  # the fields after the name: state, ppid, ...
            found.append(int(stat.parent.name))
    return found


def is_running(pid: int) -> bool:
    """True if a process ``pid`` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
