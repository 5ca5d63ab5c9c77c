"""The arena's goals, measured: the first page after the server is up, the solver's analysis after 12 plies, a replay's scrub.

Starts ``python -m arena`` on a free port as a user would, then:

1. **First page**: from the server's "serving on" line to the page's board drawn in headless Chromium
   (Playwright driving ``/usr/bin/chromium``), and to the HTML and its scripts fetched over HTTP;
2. **Analysis**: ``GET /api/analysis`` on ``--positions`` Connect-4 6x7 positions reached by ``--plies``
   random moves (seeded, positions still open), each from a fresh request: the time the answer took,
   whether it was exact, and how many took over 1 s;
3. **Replay**: a 210-move game of ``tests/data/arena/gomoku-match-20x20x6.json`` scrubbed from the first move to
   the last through the page's slider, the milliseconds per redrawn move.

Run from the repository root::

    python -m scripts.bench_arena --positions 100
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Optional, Sequence

from games import CONNECT4

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"


def random_positions(count: int, plies: int, seed: int) -> list[str]:
    """``count`` distinct open Connect-4 positions of ``plies`` random moves (seeded)."""
    rng = random.Random(seed)
    found: dict[str, None] = {}
    while len(found) < count:
        position = CONNECT4.position()
        while position.ply < plies and not position.is_terminal():
            position.play(rng.choice(position.legal_moves()))
        if not position.is_terminal() and position.ply == plies:
            found[position.move_string()] = None
    return list(found)


def get(url: str) -> tuple[float, Any]:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=120) as response:
        body = response.read()
    seconds = time.perf_counter() - started
    return seconds, json.loads(body) if response.headers.get_content_type() == "application/json" else body


def start_server() -> tuple[subprocess.Popen[str], str, float]:
    """The server as ``python -m arena`` starts it; returns the process, its address and when it said it was up."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "arena", "--port", "0", "--no-browser"], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert process.stdout is not None
    line = process.stdout.readline()
    up = time.perf_counter()
    print(json.dumps({"command_to_serving_s": round(up - started, 3)}))
    match = re.search(r"(http://\S+/)", line)
    if not match:
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, match.group(1), up


def first_page(url: str, up: float) -> dict[str, float]:
    """Seconds from "up" to the page's files fetched, and to its board drawn in Chromium (when it is installed)."""
    out = {}
    for path in ("", "static/app.js", "static/board.js", "static/play.js"):
        get(url + path)
    out["http_files_s"] = time.perf_counter() - up
    if not Path(CHROMIUM).is_file():
        return out
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        args = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                "--disable-component-update"]
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        page = browser.new_page()
        launched = time.perf_counter()
        page.goto(url)
        page.wait_for_selector("svg.board circle")
        out["page_board_s"] = time.perf_counter() - launched
        out["browser_launch_s"] = launched - up
        page.goto(url + "#/watch")
        page.set_input_files("#file", str(ROOT / "tests" / "data" / "arena" / "gomoku-match-20x20x6.json"))
        page.wait_for_selector("#replay:not([hidden])")
        milliseconds = page.evaluate("""() => { const s = document.querySelector('#ply'); const t = performance.now();
            for (let p = 0; p <= 210; p++) { s.value = p; s.dispatchEvent(new Event('input')); } return performance.now() - t; }""")
        out["scrub_ms_per_move"] = milliseconds / 211
        browser.close()
    return out


def analysis_times(url: str, positions: Sequence[str]) -> dict[str, Any]:
    """The time of each analysis request, how many were exact, and how many took over a second."""
    times, exact = [], 0
    for moves in positions:
        seconds, data = get(f"{url}api/analysis?game=connect4&moves={moves}&time_ms=30000")
        times.append(seconds)
        exact += bool(data["complete"])
    times.sort()
    return {"positions": len(times), "exact": exact, "median_s": statistics.median(times),
            "p90_s": times[int(0.9 * (len(times) - 1))], "max_s": times[-1], "over_1s": sum(t > 1.0 for t in times)}  # fmt: skip


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Print the measurements as JSON lines, with the machine's load."""
    parser = argparse.ArgumentParser(prog="python -m scripts.bench_arena", description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=100, help="analysed positions (default 100)")
    parser.add_argument("--plies", type=int, default=12, help="random moves before each position (default 12)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    process, url, up = start_server()
    try:
        page = first_page(url, up)
        for _ in range(600):  # the analysis is measured once the engine is loaded, as a user who waited sees it
            _, status = get(url + "api/status")
            if status["ready"]:
                break
            time.sleep(0.5)
        print(json.dumps({"first_page": {k: round(v, 3) for k, v in page.items()}, "warm_up_s": status["seconds"]}))
        result = analysis_times(url, random_positions(args.positions, args.plies, args.seed))
        print(json.dumps({"analysis_after_plies": args.plies, **{k: round(v, 3) if isinstance(v, float) else v
                                                                  for k, v in result.items()}}))  # fmt: skip
        print(json.dumps({"load_average": os.getloadavg(), "cpus": os.cpu_count()}))
    finally:
        process.terminate()
        process.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
