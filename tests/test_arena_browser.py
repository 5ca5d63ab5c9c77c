"""The arena in a real browser: Debian's Chromium, headless, driven by Playwright against the real server.

No browser is downloaded (``playwright install`` is never run): Playwright's Python package drives the
system's ``/usr/bin/chromium`` (``apt-get install chromium``; ``.ci/run`` installs it when missing).
Marked ``browser``: left out of the default run, run by CI with the slow tests (``python -m pytest -m
"slow or browser"``, or ``-m browser`` alone).  Without Chromium they skip, except in CI (``CI`` set), where they fail.  With
``ARENA_SCREENSHOTS=1`` they write the documentation's screenshots to ``docs/images/``.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest

from games import CONNECT4
from search.solve import solve

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
CHROMIUM = os.environ.get("ARENA_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-gpu",
        "--disable-dev-shm-usage"]  # a container's small /dev/shm must not crash the renderer
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI must run the browser tests (.ci/run installs chromium with apt-get)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The arena on a free port of 127.0.0.1, warmed up, in a thread of this process."""
    uvicorn = pytest.importorskip("uvicorn")
    from arena.server import create_app

    app = create_app()
    instance = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    while not instance.started:
        time.sleep(0.05)
    port = instance.servers[0].sockets[0].getsockname()[1]
    assert app.state.warmup.done.wait(600), "the engine's warm-up did not finish"
    yield f"http://127.0.0.1:{port}"
    instance.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).is_file() and not shutil.which("chromium"):
        _missing(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM if Path(CHROMIUM).is_file() else shutil.which("chromium"),
                                              args=ARGS)  # fmt: skip
        yield launched
        launched.close()


@pytest.fixture
def page(browser, server: str):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1180, "height": 760}, base_url=server)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    context.close()
    assert errors == [], f"the page's script failed: {errors}"


def screenshot(page, name: str, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    """Save the page as ``name`` (docs/images/ with ARENA_SCREENSHOTS=1, else a temporary folder)."""
    folder = ROOT / "docs" / "images" if os.environ.get("ARENA_SCREENSHOTS") == "1" else tmp_path
    path = folder / name
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000  # a picture, not a blank page
    return path


def test_the_page_loads_with_a_board_and_the_engine_ready(page, server: str) -> None:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    page.goto("/")
    page.wait_for_selector("svg.board circle", timeout=10_000)
    seconds = time.perf_counter() - started
    assert page.locator("nav a.active").inner_text() == "Play"
    page.wait_for_selector("#engine-status[data-ready='1']")
    assert page.locator("#engine-status").inner_text() == "engine ready"
    assert seconds < 5, seconds  # the 1 s goal is measured by scripts.bench_arena; test machines are shared and loaded


def test_a_full_connect4_game_against_perfect_by_clicking_columns(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page.goto("/#/play?game=connect4&agent=perfect&time_ms=300&human=0")
    status = page.locator("#status")
    played = 0  # plies on the board when it was last our move
    for _ in range(30):
        # our move again (the agent answered: two plies more) or the game is over; never the click's own stale text
        page.wait_for_function(f"""() => document.querySelector('#status').dataset.over === '1' ||
            (document.querySelector('#status').textContent.startsWith('Your move') &&
             document.querySelector('#record').value.length >= {played})""", timeout=30_000)
        if status.get_attribute("data-over") == "1":
            break
        played = len(page.locator("#record").input_value()) + 2
        page.locator("svg.board rect.target:not(.full)").first.click()  # the leftmost free column: the solver punishes it
    text = status.inner_text()
    assert "Game over: won by o" in text and "you lost (perfect won)" in text
    record = page.locator("#record").input_value()
    final = CONNECT4.position(record)
    assert final.winner == 1 and final.is_terminal()
    assert page.locator("svg.board circle.win").count() >= CONNECT4.k
    assert page.locator("svg.board circle.stone").count() == final.ply
    assert page.locator("#agent-info").inner_text().startswith("perfect played")
    screenshot(page, "arena-play.png", tmp_path)
    page.locator("#take-back").click()  # the agent's winning move and yours are taken back: your move again
    page.wait_for_function(f"() => document.querySelector('#record').value.length === {len(record) - 2}")
    page.locator("#new-game").click()
    page.wait_for_function("() => document.querySelector('#record').value === ''")
    page.locator("#swap").click()  # now the agent plays x, and moves first
    page.wait_for_function("() => document.querySelector('#record').value.length === 1", timeout=30_000)
    assert page.locator("#status").inner_text() == "Your move (o)."


def test_analysing_a_position_shows_the_solvers_value_of_every_column(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    moves = "47611556754127222"  # a middle-game position of the benchmark set Test_L2_R1: every kind of value
    page.goto(f"/#/analyse?game=connect4&moves={moves}")
    page.wait_for_selector("#solver-status[data-complete='1']", timeout=30_000)
    shown = page.locator("#value-scores td").all_inner_texts()
    expected = solve(CONNECT4.position(moves), moves=True).move_scores
    assert shown == [f"+{expected[c]}" if expected[c] > 0 else str(expected[c]) for c in range(CONNECT4.cols)]
    labels = page.locator("svg.board text.label").all_text_contents()
    assert labels == shown  # the same values above the columns
    # the distances: -7 (the opponent's 6th move wins), 0, -12 (its next move), +12 (our 2nd move), ...
    assert page.locator("#value-distances td").all_inner_texts() == ["loss 6", "", "loss 1", "win 2", "win 12", "win 2", "win 12"]
    page.wait_for_function("() => document.querySelector('#engine-panel #engine-status').textContent === 'done'", timeout=60_000)
    assert page.locator("svg.board g.pv").count() >= 1  # the principal variation, drawn on the board
    depths = [int(d) for d in page.locator("#iterations tr td:first-child").all_inner_texts()]
    assert depths == list(range(len(depths), 0, -1))  # every depth, the deepest on top
    # +12 on 17 stones: the winning stone goes on a board of 19 ((43 - 19) // 2 = 12), 3 plies from here
    assert page.locator("#iterations tr td").nth(1).inner_text() == "win in 3 plies"
    page.locator("#moves").fill("445345671233")  # for the picture: a balanced position after 12 plies, searched deep
    page.locator("#load").click()
    page.wait_for_function("""() => document.querySelector('#status').textContent.includes('move 13') &&
        document.querySelector('#solver-status').dataset.complete === '1' &&
        document.querySelectorAll('#iterations tr').length >= 8""", timeout=60_000)
    screenshot(page, "arena-analyse.png", tmp_path)
    page.locator("#moves").fill(moves + "222")  # column 2 holds four stones: the third is one too many
    page.locator("#load").click()
    page.wait_for_selector("#message.error")
    assert "the column is full" in page.locator("#message").inner_text()
    page.locator("svg.board rect.target:not(.full)").first.click()  # the page still plays on
    page.wait_for_function("() => document.querySelector('#moves').value === '4453456712331'")


def test_replaying_a_match_file_move_by_move_and_scrubbing_200_plies(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page.goto("/#/watch")
    page.set_input_files("#file", str(DATA / "arena" / "gomoku-match-20x20x6.json"))
    page.wait_for_selector("#replay:not([hidden])")
    board = page.locator("#replay-board svg")
    assert board.get_attribute("data-stones") == "210"
    page.locator("#first").click()
    assert board.get_attribute("data-stones") == "0"
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert page.locator("#replay-board svg").get_attribute("data-stones") == "5"
    assert page.locator("#ply-label").inner_text() == "move 5 of 210"
    milliseconds = page.evaluate("""() => {
        const slider = document.querySelector('#ply');
        const started = performance.now();
        for (let ply = 0; ply <= 210; ply++) { slider.value = ply; slider.dispatchEvent(new Event('input')); }
        return performance.now() - started; }""")
    assert page.locator("#replay-board svg").get_attribute("data-stones") == "210"
    assert milliseconds / 211 < 50, milliseconds  # a redraw per ply well under a frame of a slow machine
    page.locator("#move-list li[data-ply='120']").click()
    assert page.locator("#replay-board svg").get_attribute("data-stones") == "120"
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "arena-watch.png", tmp_path)
    page.set_input_files("#file", str(DATA / "connect4" / "Test_L3_R1"))  # not a game file
    page.wait_for_selector("#message.error")
    assert "not JSON" in page.locator("#message").inner_text()


def test_watching_two_agents_play_live(page) -> None:  # type: ignore[no-untyped-def]
    page.goto("/#/watch?game=tictactoe&a=rules&b=random&time_ms=100")
    page.locator("#start").click()
    page.wait_for_function("() => /won by|drawn/.test(document.querySelector('#live-status').textContent)", timeout=30_000)
    moves = page.locator("#live-status").inner_text().split(": ", 1)[1]
    assert len(re.findall(r"[a-c][1-3]", moves)) == page.locator("#live-board svg circle.stone").count() >= 5


def test_opening_a_study_shows_elo_by_trial_the_best_and_the_weights(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from tests.arena_study import make_study

    url = make_study(tmp_path / "tuning.db", trials=24)
    page.goto("/#/study")
    page.locator("#storage").fill(url)
    page.locator("#open").click()
    page.wait_for_selector("#best")
    assert page.locator("#study-name").inner_text() == "connect4-threats-fair"
    assert re.match(r"Best so far: trial \d+, score 0\.\d+, Elo [+-]?\d", page.locator("#best").inner_text())
    assert page.locator("#elo-chart circle.trial-dot").count() == 24
    assert page.locator("table.weights tbody tr").count() == 3
    assert "optuna-dashboard sqlite:///" in page.locator("#view").inner_text()
    screenshot(page, "arena-study.png", tmp_path)
    page.locator("#storage").fill("postgresql://tuner:hunter2@127.0.0.1:1/optuna")
    page.locator("#open").click()
    page.wait_for_selector("#message.error", timeout=30_000)
    message = page.locator("#message").inner_text()
    assert "cannot open storage" in message and "hunter2" not in page.content()
