"""The arena's web application: the page, its static files, and the JSON API behind every view.

Every endpoint answers JSON; bad input gets HTTP 400 (404 for what does not exist, 502 for a storage
that does not answer) with ``{"error": "<one line naming the bad value and what is allowed>"}``, and
the server goes on serving.  Work that can run long (the solver, a search, an agent's move, a watched
game) runs on an engine thread and is cancelled when the page goes away.  The endpoints, their
parameters and their answers are documented in the arena guide (``docs/guide/arena.md``).
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from arena import _engine as engine
from arena import analysis, play, replay, study
from arena.errors import ArenaError, BadRequest, NotFound
from arena.jobs import Job, run_job, sse, stream_job
from arena.positions import KINDS, game_from_params, position_from_params, position_json
from arena.svg import board_svg

STATIC = Path(__file__).resolve().parent / "static"
LOG = logging.getLogger("arena")
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
Endpoint = Callable[[Request], Awaitable[Response]]


class Warmup:
    """The engine's first compile (or cache load), run in the background so the page appears at once."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.seconds: float | None = None
        self.error: str | None = None
        self.step = "starting"
        self.done = threading.Event()

    def run(self) -> None:
        """Load or compile the kernels the views use, Connect-4's first (:func:`arena._engine.warm_up_steps`)."""
        try:
            for name, step in engine.warm_up_steps():
                self.step = name
                step()
        except Exception as error:  # noqa: BLE001 - shown on the page; every request still works (compiling itself)
            LOG.exception("warm-up failed")
            self.error = f"{type(error).__name__}: {error}"
        self.seconds = time.perf_counter() - self.started
        self.done.set()

    def json(self) -> dict[str, Any]:
        """``ready``, and what the page says while the engine is prepared."""
        ready = self.done.is_set()
        return {"ready": ready, "seconds": None if self.seconds is None else round(self.seconds, 2), "error": self.error,
                "message": None if ready else f"preparing the engine: {self.step} (a first run compiles it, later runs load it)"}  # fmt: skip


def api(handler: Endpoint) -> Endpoint:
    """Answer an :class:`ArenaError` with its status and ``{"error": message}``, anything else with HTTP 500."""

    @functools.wraps(handler)
    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except ArenaError as error:
            return JSONResponse({"error": str(error)}, status_code=error.status)
        except Exception as error:  # noqa: BLE001 - one request failed; the server goes on
            LOG.exception("request failed: %s", request.url.path)
            return JSONResponse({"error": f"internal error: {type(error).__name__}: {error}"}, status_code=500)

    return wrapped


def event_stream(handler: Endpoint) -> Endpoint:
    """An event-stream endpoint: bad input is one ``error`` event (a browser's EventSource cannot read an HTTP 400)."""

    @functools.wraps(handler)
    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except ArenaError as error:
            return Response(sse("error", {"error": str(error)}), media_type="text/event-stream")

    return api(wrapped)


def _params(request: Request) -> dict[str, str]:
    return dict(request.query_params)


def _position(params: dict[str, str]) -> engine.Position:
    return position_from_params(game_from_params(params), params)


def _events(request: Request, work: Callable[[Job, Any], None]) -> StreamingResponse:
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return StreamingResponse(stream_job(request.is_disconnected, work), media_type="text/event-stream", headers=headers)


@api
async def status(request: Request) -> Response:
    """``GET /api/status``: is the engine ready."""
    return JSONResponse(request.app.state.warmup.json())


@api
async def games(request: Request) -> Response:
    """``GET /api/games``: the games, and the opponents offered for the one asked (agent names, weight files)."""
    game = game_from_params(_params(request))
    return JSONResponse({"kinds": list(KINDS), "game": position_json(game.position())["game"], **play.agent_names(game)})


@api
async def position(request: Request) -> Response:
    """``GET /api/position``: a position from its move string (illegal moves refused with the move named)."""
    return JSONResponse(position_json(_position(_params(request))))


@api
async def svg(request: Request) -> Response:
    """``GET /api/svg``: the board as an SVG picture, optionally with a line (``pv``, a move string) drawn on it."""
    params = _params(request)
    board = _position(params)
    line = position_from_params(board.game, {"moves": board.move_string() + " " + params.get("pv", "")}).moves[board.ply :]
    return Response(board_svg(board, pv=line), media_type="image/svg+xml")


@api
async def move(request: Request) -> Response:
    """``GET /api/move``: the agent's move (``agent``, ``time_ms``) in the position."""
    params = _params(request)
    board = _position(params)
    think = play.think_ms(params.get("time_ms", ""))
    spec = await run_job(request.is_disconnected, lambda job: play.checked_spec(board.game, params.get("agent", ""), think))
    return JSONResponse(await run_job(request.is_disconnected, lambda job: play.agent_move(board, spec, think, job)))


@api
async def solver_analysis(request: Request) -> Response:
    """``GET /api/analysis``: the exact score of every move (Pascal Pons' convention), ``null`` for a full column."""
    params = _params(request)
    board = _position(params)
    budget = analysis.budget_ms(params, "time_ms", analysis.DEFAULT_SOLVER_MS)
    return JSONResponse(await run_job(request.is_disconnected, lambda job: analysis.solver_values(board, budget, job)))


@event_stream
async def solver_stream(request: Request) -> Response:
    """``GET /api/analysis/stream``: the same, one ``value`` event per move as it is solved, then ``analysis``."""
    params = _params(request)
    board = _position(params)
    budget = analysis.budget_ms(params, "time_ms", analysis.DEFAULT_SOLVER_MS)

    def work(job: Job, emit: Any) -> None:
        emit("analysis", analysis.solver_values(board, budget, job, lambda value: emit("value", value)))

    return _events(request, work)


@event_stream
async def search_stream(request: Request) -> Response:
    """``GET /api/search/stream``: iterative deepening, one ``iteration`` event per completed depth."""
    params = _params(request)
    board = _position(params)
    budget = analysis.budget_ms(params, "time_ms", analysis.DEFAULT_SEARCH_MS)
    return _events(request, lambda job, emit: analysis.deepen(board, budget, job, emit))


@api
async def threats(request: Request) -> Response:
    """``GET /api/threats``: VCF and VCT for the side to move (boards without gravity, k >= 4)."""
    params = _params(request)
    board = _position(params)
    nodes = params.get("nodes", "") or str(analysis.DEFAULT_THREAT_NODES)
    if not nodes.isdigit() or not 1 <= int(nodes) <= 100_000_000:
        raise BadRequest(f"nodes={nodes!r} must be an integer from 1 to 100000000")
    budget = analysis.budget_ms(params, "time_ms", 5000.0)
    return JSONResponse(await run_job(request.is_disconnected, lambda job: analysis.threats(board, int(nodes), budget, job)))


@api
async def replay_file(request: Request) -> Response:
    """``POST /api/replay``: the games of a match or tournament file (the file's text is the request body)."""
    body = await request.body()
    if len(body) > replay.MAX_FILE_BYTES:
        raise BadRequest(f"the file holds {len(body):,} bytes: at most {replay.MAX_FILE_BYTES:,} are read")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("the file is not UTF-8 text: a game file is JSON") from None
    return JSONResponse(await run_job(request.is_disconnected, lambda job: replay.read_games(text)))


@event_stream
async def watch_stream(request: Request) -> Response:
    """``GET /api/watch/stream``: agents ``a`` and ``b`` play from ``moves``; a ``move`` event per move, then ``result``."""
    params = _params(request)
    board = _position(params)
    think = play.think_ms(params.get("time_ms", ""), default=300.0)
    delay = params.get("delay_ms", "0") or "0"
    if not delay.isdigit() or int(delay) > 10_000:
        raise BadRequest(f"delay_ms={delay!r} must be an integer from 0 to 10000")
    specs = (params.get("a", ""), params.get("b", ""))

    def work(job: Job, emit: Any) -> None:
        timed = (play.checked_spec(board.game, specs[0], think), play.checked_spec(board.game, specs[1], think))
        play.watch(board, timed, think, job, emit, delay_ms=float(delay))

    return _events(request, work)


@api
async def study_view(request: Request) -> Response:
    """``GET /api/study``: the studies of a storage (``storage``), or one study (``study``) in detail."""
    params = _params(request)
    url = params.get("storage", "").strip()
    if not url:
        raise BadRequest("storage= is empty: give a storage URL such as sqlite:///runs/tuning.db")
    name = params.get("study", "")
    work = (lambda job: study.study(url, name)) if name else (lambda job: study.studies(url))
    return JSONResponse(await run_job(request.is_disconnected, work))


@api
async def not_found(request: Request) -> Response:
    """Any other ``/api/`` path."""
    raise NotFound(f"no API endpoint {request.url.path!r}: see the arena guide for the endpoints")


async def index(request: Request) -> Response:
    """The page."""
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


def create_app(*, host: str = "127.0.0.1", warm: bool = True) -> Starlette:
    """The application.

    Args:
        host: the address served; on a loopback address only requests naming a loopback host are answered
            (a web page elsewhere cannot reach the API by pointing its own name at this machine).
        warm: load or compile the engine in a background thread at once (the page says so while it does).
    """
    routes = [
        Route("/", index),
        Route("/api/status", status), Route("/api/games", games), Route("/api/position", position),
        Route("/api/svg", svg), Route("/api/move", move), Route("/api/analysis", solver_analysis),
        Route("/api/analysis/stream", solver_stream), Route("/api/search/stream", search_stream),
        Route("/api/threats", threats), Route("/api/replay", replay_file, methods=["POST"]),
        Route("/api/watch/stream", watch_stream), Route("/api/study", study_view),
        Route("/api/{rest:path}", not_found, methods=["GET", "POST"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]  # fmt: skip
    allowed = ["127.0.0.1", "localhost", "[::1]", "testserver"] if host in LOOPBACK else ["*"]
    app = Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=allowed)])
    app.state.warmup = Warmup()
    if warm:
        threading.Thread(target=app.state.warmup.run, name="arena-warmup", daemon=True).start()
    else:
        app.state.warmup.done.set()
    return app
