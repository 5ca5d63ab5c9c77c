"""Engine work off the event loop: a thread pool, cancellable jobs, and the bridge to a request or an event stream.

The kernels release the GIL (numba ``nogil``), so a search in a worker thread leaves the server free to
answer.  A request that goes away cancels its job: the bridge polls the connection while it waits, and a
job stops at its next check (between iterations, columns or moves; the exact solver at its next node).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, AsyncIterator, Callable, Optional, TypeVar

from arena.errors import ArenaError

LOG = logging.getLogger("arena")
WORKERS = 3
"""Engine threads: two cores' worth of searches and one more, so a short job never waits behind two long ones."""
POLL_SECONDS = 0.2
"""How often a waiting request checks that its page is still there."""
HEARTBEAT_SECONDS = 5.0
"""An event stream with nothing to say sends a comment this often (proxies and the browser keep it open)."""

_EXECUTOR: Optional[ThreadPoolExecutor] = None
T = TypeVar("T")
Emit = Callable[[str, Any], None]


def executor() -> ThreadPoolExecutor:
    """The engine threads (made on first use)."""
    global _EXECUTOR
    if _EXECUTOR is None:
        _EXECUTOR = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="arena-engine")
    return _EXECUTOR


class Job:
    """A unit of engine work that can be cancelled from another thread."""

    def __init__(self) -> None:
        self.cancelled = threading.Event()
        self._hooks: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    def cancel(self) -> None:
        """Ask the job to stop, and run its cancel hooks (which stop a running kernel)."""
        with self._lock:
            self.cancelled.set()
            hooks = list(self._hooks)
        for hook in hooks:
            hook()

    def on_cancel(self, hook: Callable[[], None]) -> Callable[[], None]:
        """Run ``hook`` on cancellation (at once if already cancelled); returns a function that removes it."""
        with self._lock:
            self._hooks.append(hook)
            already = self.cancelled.is_set()
        if already:
            hook()

        def remove() -> None:
            with self._lock:
                if hook in self._hooks:
                    self._hooks.remove(hook)

        return remove


async def run_job(is_disconnected: Callable[[], Any], work: Callable[[Job], T]) -> T:
    """Run ``work(job)`` on an engine thread and return its result; cancel it if the client goes away.

    ``is_disconnected`` is the request's coroutine function (Starlette's ``request.is_disconnected``).
    """
    job = Job()
    future = asyncio.get_running_loop().run_in_executor(executor(), work, job)
    try:
        while True:
            done, _ = await asyncio.wait({future}, timeout=POLL_SECONDS)
            if done:
                return future.result()
            if await is_disconnected():
                job.cancel()
                return await future
    finally:
        job.cancel()  # a cancelled request (server shutdown) stops the work too


def sse(event: str, data: Any) -> str:
    """One server-sent event: ``event:`` line, one ``data:`` line of JSON, a blank line."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def stream_job(is_disconnected: Callable[[], Any], work: Callable[[Job, Emit], None]) -> AsyncIterator[str]:
    """Run ``work(job, emit)`` on an engine thread and yield what it emits as server-sent events.

    The stream ends with an ``end`` event (or ``error`` with a one-line ``{"error": ...}`` if the work
    refused its input or failed).  The job is cancelled when the client disconnects.
    """
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
    job = Job()

    def emit(event: str, data: Any) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, (event, data))

    def run() -> None:
        try:
            work(job, emit)
            emit("end", {"cancelled": job.cancelled.is_set()})
        except ArenaError as error:
            emit("error", {"error": str(error)})
        except Exception as error:  # noqa: BLE001 - reported to the page, logged here; the server goes on
            LOG.exception("engine job failed")
            emit("error", {"error": f"the engine failed: {type(error).__name__}: {error}"})

    loop.run_in_executor(executor(), run)
    idle = 0.0
    try:
        while True:
            try:
                event, data = await asyncio.wait_for(queue.get(), timeout=POLL_SECONDS)
            except asyncio.TimeoutError:
                if await is_disconnected():
                    return
                idle += POLL_SECONDS
                if idle >= HEARTBEAT_SECONDS:
                    idle = 0.0
                    yield ": still working\n\n"
                continue
            idle = 0.0
            yield sse(event, data)
            if event in ("end", "error"):
                return
    finally:
        job.cancel()
