"""The arena's JSON API without a browser: answers checked against the solver and the game core, and bad input.

The application runs in-process (Starlette's TestClient) without its background warm-up; the first test
that searches loads the kernels from numba's cache (or compiles them on a cold one).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from arena import _engine as engine  # noqa: E402
from arena import analysis, board_svg  # noqa: E402
from arena.jobs import Job, run_job  # noqa: E402
from arena.positions import score_distance  # noqa: E402
from arena.server import create_app  # noqa: E402
from games import CONNECT4, MNK, Connect4  # noqa: E402
from search.solve import solve  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
POSITIONS = [line.split() for line in (DATA / "connect4" / "Test_L2_R1").read_text().splitlines()[:6]]


@pytest.fixture(scope="module")
def client() -> TestClient:
    with TestClient(create_app(warm=False)) as test_client:
        yield test_client


def events(text: str) -> list[tuple[str, dict]]:
    """``(event, data)`` of each server-sent event of a stream's text."""
    found = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":"))
        if "event" in lines:
            found.append((lines["event"], json.loads(lines["data"])))
    return found


def error_of(response) -> str:  # type: ignore[no-untyped-def]
    assert response.status_code in (400, 404, 502), response.text
    message = response.json()["error"]
    assert "\n" not in message  # one line
    return message


# ------------------------------------------------------------------------------------------------- analysis


@pytest.mark.parametrize("moves,score", POSITIONS, ids=[m for m, _ in POSITIONS])
def test_column_scores_are_the_solvers_in_pons_convention(client: TestClient, moves: str, score: str) -> None:
    data = client.get("/api/analysis", params={"game": "connect4", "moves": moves, "time_ms": 20000}).json()
    assert data["complete"] and len(data["scores"]) == CONNECT4.cols
    assert data["score"] == int(score) == max(s for s in data["scores"] if s is not None)  # the benchmark file's score
    position = CONNECT4.position(moves)
    for column, value in enumerate(data["scores"]):
        if not position.is_legal(column):
            assert value is None and data["distances"][column] is None
            continue
        child = position.copy()
        child.play(column)
        expected = (42 + 1 - position.ply) // 2 if child.winner is not None else 0 if child.is_terminal() else -solve(child).score
        assert value == expected, column
    assert data["best"] == [c for c, s in enumerate(data["scores"]) if s == data["score"]]


def test_a_full_column_is_null_and_a_win_at_once_is_one_ply_away(client: TestClient) -> None:
    # column 4 full; x (to move) wins at once in column 1 (three x's stacked there)
    moves = "444444121315"
    position = CONNECT4.position(moves)
    assert not position.is_legal(3)
    data = client.get("/api/analysis", params={"game": "connect4", "moves": moves}).json()
    assert data["scores"][3] is None
    win_now = (42 + 1 - position.ply) // 2
    assert data["scores"][0] == win_now == data["score"] and data["distances"][0] == 1


def test_score_distance_inverts_the_convention_on_every_board_parity() -> None:
    cells = 42
    for ply in range(0, 40):
        for plies in range(1, cells - ply + 1):
            stones = ply + plies - 1  # the winning stone goes on a board of this many
            sign = 1 if plies % 2 == 1 else -1  # an odd count: the side playing the move wins
            assert score_distance(sign * ((cells + 1 - stones) // 2), ply, cells) == plies


def test_analysis_of_an_empty_board_stops_at_its_budget_and_says_why(client: TestClient,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    # 7x8, which no book covers: its empty board takes the solver far longer than the budget
    started = time.perf_counter()
    data = client.get("/api/analysis", params={"game": "connect4", "rows": 7, "cols": 8, "moves": "", "time_ms": 300}).json()
    assert time.perf_counter() - started < 5
    assert not data["complete"] and data["score"] is None and data["pending"]
    assert data["message"] == analysis.BUDGET_MESSAGE
    # on 6x7 without the book, the message names it (with the book every 6x7 position is answered at once)
    monkeypatch.setattr(engine, "thread_solver", lambda game: engine.Solver(game, book=False))
    data = client.get("/api/analysis", params={"game": "connect4", "moves": "", "time_ms": 300}).json()
    assert not data["complete"] and "opening book" in data["message"] and "alphabeta-gym[book]" in data["message"]


def test_a_cancelled_solve_stops_at_once() -> None:
    job = Job()
    threading.Timer(0.3, job.cancel).start()
    started = time.perf_counter()
    data = analysis.solver_values(Connect4(7, 8).position(), 60_000, job)  # an empty board no book covers: minutes
    assert time.perf_counter() - started < 3
    assert data["cancelled"] and not data["complete"]


@pytest.mark.parametrize("game,moves", [(CONNECT4, "4453"), (MNK(15, 15, 5), "h8 h9 i8 i9 j8")])
def test_a_cancelled_search_stops_within_a_time_slice(game, moves: str) -> None:  # type: ignore[no-untyped-def]
    analysis.deepen(game.position(moves), 50, Job(), lambda event, data: None)  # compiled before the clock starts
    job, depths = Job(), []
    threading.Timer(1.0, job.cancel).start()
    started = time.perf_counter()
    analysis.deepen(game.position(moves), 60_000, job, lambda event, data: depths.append(data.get("depth")))
    assert time.perf_counter() - started < 1.0 + 3 * analysis.SLICE_MS / 1000 + 0.5  # not the minute of its budget
    assert depths[0] is None and depths[1:] == list(range(1, len(depths)))  # the engine, then every depth in order


def test_a_request_whose_client_went_away_is_cancelled() -> None:
    import asyncio

    seen: list[bool] = []

    def work(job: Job) -> bool:
        job.cancelled.wait(30)
        seen.append(job.cancelled.is_set())
        return job.cancelled.is_set()

    async def gone() -> bool:
        return True

    started = time.perf_counter()
    assert asyncio.run(run_job(gone, work)) is True and seen == [True]
    assert time.perf_counter() - started < 5


def test_an_event_stream_whose_client_went_away_cancels_its_work() -> None:
    import asyncio

    from arena.jobs import stream_job

    finished = threading.Event()

    def work(job: Job, emit) -> None:  # type: ignore[no-untyped-def]
        emit("started", {})
        job.cancelled.wait(30)  # a long analysis: stops only when cancelled
        finished.set()

    polls = []

    async def disconnected() -> bool:
        polls.append(1)
        return len(polls) > 2  # the page goes away after two polls

    async def consume() -> list[str]:
        return [chunk async for chunk in stream_job(disconnected, work)]

    started = time.perf_counter()
    chunks = asyncio.run(consume())
    assert chunks[0].startswith("event: started") and finished.wait(5)
    assert time.perf_counter() - started < 5


def test_the_search_streams_deeper_iterations_with_legal_lines(client: TestClient) -> None:
    with client.stream("GET", "/api/search/stream", params={"game": "connect4", "moves": "4453", "time_ms": 1500}) as response:
        text = "".join(response.iter_text())
    found = events(text)
    iterations = [data for name, data in found if name == "iteration"]
    assert found[-1][0] == "end" and len(iterations) >= 3
    assert [it["depth"] for it in iterations] == list(range(1, len(iterations) + 1))
    for it in iterations:
        CONNECT4.position("4453" + "".join(str(a + 1) for a in it["pv"]))  # the line is playable
        assert it["pv"][0] == it["move"] and it["nodes"] > 0


def test_threat_search_finds_the_vcf_of_an_open_three(client: TestClient) -> None:
    params = {"game": "mnk", "rows": 9, "cols": 9, "k": 5, "moves": "e5 a9 f5 a8 g5 a7"}
    data = client.get("/api/threats", params=params).json()
    assert data["vcf"]["win"] and data["vcf"]["notation"] == ["d5", "c5", "h5"]
    assert "gravity" in error_of(client.get("/api/threats", params={"game": "connect4"}))


# ------------------------------------------------------------------------------------------------- play and watch


def test_an_agent_answers_with_a_legal_move_and_the_position_after_it(client: TestClient) -> None:
    data = client.get("/api/move", params={"game": "connect4", "moves": "44", "agent": "perfect", "time_ms": 200}).json()
    after = CONNECT4.position("44" + data["notation"])
    assert data["position"]["moves"] == after.move_string() and data["info"]["source"] in ("solver", "solver-partial", "alphabeta")


def test_a_won_position_is_drawn_with_its_winning_line(client: TestClient) -> None:
    data = client.get("/api/position", params={"game": "tictactoe", "moves": "a1 b1 a2 b2 a3"}).json()
    assert data["over"] and data["winner"] == 0 and data["winning_cells"] == [[0, 0], [1, 0], [2, 0]]


def test_watching_two_agents_plays_a_legal_game_to_its_end(client: TestClient) -> None:
    params = {"game": "tictactoe", "a": "rules", "b": "random", "time_ms": 200}
    with client.stream("GET", "/api/watch/stream", params=params) as response:
        text = "".join(response.iter_text())
    found = events(text)
    moves = [data for name, data in found if name == "move"]
    result = next(data for name, data in found if name == "result")
    position = MNK(3, 3, 3).position([m["move"] for m in moves])
    assert position.is_terminal() and result["moves"] == position.move_string()
    assert [m["side"] for m in moves] == [i % 2 for i in range(len(moves))]


def test_board_svg_draws_stones_and_a_numbered_line() -> None:
    svg = board_svg(CONNECT4.position("4453"), pv=[3, 3, 6], labels={0: "-2"})
    assert svg.count('class="stone"') == 4 and svg.count('class="pv"') == 3 and ">-2<" in svg


# ------------------------------------------------------------------------------------------------- replay


@pytest.mark.parametrize("name,kind,count", [("mnk-tournament.json", "mnk_tournament", 4),
                                             ("gomoku-match-9x9x5.json", "gomoku_match", 4),
                                             ("match-connect4.json", "match", 4)])  # fmt: skip
def test_every_game_file_format_replays(client: TestClient, name: str, kind: str, count: int) -> None:
    text = (DATA / "arena" / name).read_text()
    data = client.post("/api/replay", content=text).json()
    assert data["kind"] == kind and len(data["games"]) == count
    raw = json.loads(text)
    first = data["games"][0]
    assert first["moves"] == (raw.get("games") or (raw.get("boards") or raw.get("configurations"))[0]["games"])[0]["moves"]
    assert len(first["notation"]) == len(first["moves"])


def test_a_recorded_match_is_the_match_tuning_match_plays() -> None:
    from arena._engine import make_openings  # through the adapter: it follows the engine's moves
    from arena.record import record_match
    from tuning.match import play_match

    game, specs = MNK(3, 3, 3), ("alphabeta:depth=2", "random")
    recorded = record_match(game, specs, pairs=3, plies=2, seed=5)
    book = make_openings(game, count=3, plies=2, seed=5, heldout=0.0)
    played = play_match(game, specs[0], specs[1], book.tuning, pairs=3, seed=5)
    a_scores = [(1.0 if g["winner"] == 0 else 0.0 if g["winner"] == 1 else 0.5) for g in recorded["games"]]
    a_scores = [s if i % 2 == 0 else 1.0 - s for i, s in enumerate(a_scores)]
    assert a_scores == [s for pair in played.pairs for s in pair.scores]
    assert [len(g["moves"]) - 2 for g in recorded["games"]] == [n for pair in played.pairs for n in pair.plies]


@pytest.mark.parametrize("body,expected", [
    ("not json", "not JSON"),
    ('{"hello": 1}', "not a game file"),
    ('{"format": "alphabeta-gym match games", "game": {"kind": "connect4", "rows": 6, "cols": 7, "k": 4}, "games": []}', "holds no game"),
    ('{"format": "alphabeta-gym match games", "game": {"kind": "connect4", "rows": 6, "cols": 7, "k": 4}, '
     '"games": [{"moves": [3, 3, 3, 3, 3, 3, 3]}]}', "game 1: move 7"),
    ('{"agents": ["a"], "configurations": [{"config": "3,3", "games": []}]}', "not M,N,K"),
    ('{"A": "x", "boards": [{"board": "9,9,5", "games": [{"moves": ["e5"]}]}]}', "not an action number"),
])  # fmt: skip
def test_a_malformed_game_file_gets_a_message_naming_what_is_wrong(client: TestClient, body: str, expected: str) -> None:
    assert expected in error_of(client.post("/api/replay", content=body))


# ------------------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("params,expected", [
    ({"game": "chess"}, "choose one of connect4, tictactoe, gomoku, mnk"),
    ({"game": "connect4", "moves": "4444444"}, "the column is full"),
    ({"game": "connect4", "moves": "48"}, "'8' is not a column"),
    ({"game": "tictactoe", "moves": "b2 b2"}, "the cell is taken"),
    ({"game": "mnk", "rows": "3"}, "missing: cols, k"),
    ({"game": "connect4", "rows": "x"}, "rows='x' is not an integer"),
    ({"game": "connect4", "rows": "200"}, "rows=200 is out of range"),
])  # fmt: skip
def test_bad_positions_are_refused_with_the_value_named(client: TestClient, params: dict, expected: str) -> None:
    assert expected in error_of(client.get("/api/position", params=params))


def test_an_unknown_agent_is_refused_with_the_valid_agents_listed(client: TestClient) -> None:
    message = error_of(client.get("/api/move", params={"game": "connect4", "agent": "bogus"}))
    assert "'bogus'" in message and all(name in message for name in ("alphabeta", "perfect", "random", "rules"))
    assert "unknown key" in error_of(client.get("/api/move", params={"game": "connect4", "agent": "alphabeta:depht=3"}))
    assert "time_ms" in error_of(client.get("/api/move", params={"game": "connect4", "agent": "rules", "time_ms": "-1"}))


def test_streams_report_bad_input_as_an_error_event(client: TestClient) -> None:
    text = client.get("/api/search/stream", params={"game": "connect4", "moves": "99"}).text
    assert text.startswith("event: error") and "not a column" in text


def test_a_study_url_that_does_not_connect_never_shows_its_password(client: TestClient, tmp_path: Path) -> None:
    secret = "s3cr3t-pw"
    response = client.get("/api/study", params={"storage": f"postgresql://tuner:{secret}@127.0.0.1:1/optuna"})
    message = error_of(response)
    assert response.status_code == 502 and secret not in response.text and "tuner:***@127.0.0.1:1" in message
    missing = tmp_path / "nothing.db"
    assert "no SQLite file" in error_of(client.get("/api/study", params={"storage": f"sqlite:///{missing}"}))
    assert not missing.exists()  # reading never creates a storage
    assert "not a database URL" in error_of(client.get("/api/study", params={"storage": "not a url"}))


def test_a_study_shows_elo_intervals_the_best_trial_and_the_weights(client: TestClient, tmp_path: Path) -> None:
    from tests.arena_study import make_study
    from tuning.stats import pentanomial

    url = make_study(tmp_path / "tuning.db")
    listing = client.get("/api/study", params={"storage": url}).json()
    assert [s["name"] for s in listing["studies"]] == ["connect4-threats-fair"]
    data = client.get("/api/study", params={"storage": url, "study": "connect4-threats-fair"}).json()
    complete = [t for t in data["trials"] if t["state"] == "complete"]
    assert data["best"]["number"] == max(complete, key=lambda t: t["value"])["number"]
    for trial in complete:
        estimate = pentanomial(trial["pentanomial"])
        assert trial["elo_low"] == pytest.approx(estimate.elo_low, abs=0.01) and trial["elo"] == pytest.approx(estimate.elo, abs=0.01)
    weights = {w["name"]: w for w in data["weights"]}
    assert weights["f1"]["best"] == data["best"]["params"]["f1"] and weights["f1"]["defaults"] == 1.0
    assert data["dashboard"] == f"optuna-dashboard {url}"
    assert "not in" in error_of(client.get("/api/study", params={"storage": url, "study": "nope"}))


def test_the_server_keeps_serving_and_refuses_other_hosts(client: TestClient) -> None:
    for _ in range(3):
        client.get("/api/position", params={"moves": "0"})
        client.post("/api/replay", content=b"\xff\xfe")
    assert client.get("/api/status").json()["ready"] is True
    assert client.get("/api/nowhere").status_code == 404
    assert client.get("/api/status", headers={"host": "attacker.example"}).status_code == 400
    page = client.get("/")
    assert page.status_code == 200 and '<script type="module" src="/static/app.js">' in page.text
    assert client.get("/static/board.js").status_code == 200


def test_the_page_says_the_engine_is_being_prepared_until_it_is() -> None:
    from arena.server import Warmup

    app = create_app(warm=False)
    app.state.warmup = warming = Warmup()
    warming.step = "the solver"
    with TestClient(app) as local:
        status = local.get("/api/status").json()
        assert status["ready"] is False and status["message"].startswith("preparing the engine: the solver")
        warming.done.set()
        assert local.get("/api/status").json() == {"ready": True, "seconds": None, "error": None, "message": None}


def test_the_command_serves_the_page_and_refuses_a_port_in_use() -> None:
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        refused = subprocess.run([sys.executable, "-m", "arena", "--port", str(port), "--no-browser"], cwd=ROOT,
                                 capture_output=True, text=True, timeout=60)  # fmt: skip
    assert refused.returncode == 2 and f"port {port} on 127.0.0.1 is in use" in refused.stderr
    server = subprocess.Popen([sys.executable, "-m", "arena", "--port", "0", "--no-browser"], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        url = line.split("serving on ")[1].split()[0]
        assert url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(url, timeout=10) as page:
            assert b"alphabeta-gym" in page.read()
    finally:
        server.terminate()
        server.wait(10)


def test_the_opponents_offered_are_the_agents_and_the_weight_files_of_the_game(client: TestClient) -> None:
    from heuristics import load_weights, shipped_weight_files

    data = client.get("/api/games", params={"game": "gomoku"}).json()
    assert data["agents"] == ["alphabeta", "minimax", "random", "rules", "perfect"] and data["solver"] is False
    assert data["weights"] and all(load_weights(shipped_weight_files()[name]).game == MNK(15, 15, 5) for name in data["weights"])
    assert "connect4-threats-tuned" in client.get("/api/games", params={"game": "connect4"}).json()["weights"]


def test_the_svg_endpoint_draws_the_position_and_its_line(client: TestClient) -> None:
    response = client.get("/api/svg", params={"game": "tictactoe", "moves": "b2 a1", "pv": "c3 a3"})
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert response.text.count('class="stone"') == 2 and response.text.count('class="pv"') == 2
    assert "the cell is taken" in error_of(client.get("/api/svg", params={"game": "tictactoe", "moves": "b2", "pv": "b2"}))
