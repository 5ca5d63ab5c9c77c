"""``python -m search.piskvork`` driven through a pipe with scripted Gomocup-protocol sessions, and its time budget."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Iterator, Optional

import pytest

from games import MAX_SIDE
from search.piskvork._time import Limits, move_budget_ms, table_slots, with_budget
from tests.interrupts import interrupt_when

ROOT = Path(__file__).resolve().parent.parent


class Engine:
    """The engine in a subprocess: lines in, replies out, each read with a timeout."""

    def __init__(self, *args: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen([sys.executable, "-m", "search.piskvork", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)  # fmt: skip
        self.replies: queue.Queue[Optional[str]] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.replies.put(line.rstrip("\r\n"))
        self.replies.put(None)

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self, timeout: float = 120) -> str:
        reply = self.replies.get(timeout=timeout)
        assert reply is not None, f"the engine exited: {self.stderr()}"
        return reply

    def ask(self, *lines: str) -> str:
        """Send ``lines`` (the last one expects an answer) and return that answer."""
        self.send(*lines)
        return self.read()

    def timed(self, *lines: str) -> tuple[str, float]:
        """An answer and the seconds from sending the last line to receiving it."""
        self.send(*lines[:-1])
        start = time.perf_counter()
        reply = self.ask(lines[-1])
        return reply, time.perf_counter() - start

    def stderr(self) -> str:
        self.proc.kill()
        assert self.proc.stderr is not None
        return self.proc.stderr.read()

    def end(self) -> int:
        self.send("END")
        return self.proc.wait(timeout=60)


@pytest.fixture(scope="module")
def gomoku() -> Iterator[Engine]:
    engine = Engine()
    yield engine
    if engine.proc.poll() is None:
        engine.proc.kill()


def board(engine: Engine, own: list[tuple[int, int]], theirs: list[tuple[int, int]]) -> str:
    """Set up a position with BOARD (own stones ``1``, the opponent's ``2``) and return the engine's move."""
    lines = [f"{x},{y},1" for x, y in own] + [f"{x},{y},2" for x, y in theirs]
    return engine.ask("BOARD", *lines, "DONE")


def fresh(engine: Engine, size: int = 15, turn_ms: int = 300, rule: int = 0) -> None:
    """A new game with the given limits; asserts START's OK."""
    assert engine.ask(f"START {size}") == "OK"
    engine.send(f"INFO timeout_turn {turn_ms}", "INFO timeout_match 0", f"INFO rule {rule}")


def row(y: int, *xs: int) -> list[tuple[int, int]]:
    return [(x, y) for x in xs]


# ------------------------------------------------------------------ playing


def test_it_completes_its_own_five_before_blocking(gomoku: Engine) -> None:
    fresh(gomoku)
    # Own open four on row 7 (x = 5..8), opponent's four on row 0 from the edge (wins at 4,0 next).
    assert board(gomoku, row(7, 5, 6, 7, 8), row(0, 0, 1, 2, 3)) in ("4,7", "9,7")


def test_it_blocks_an_immediate_loss(gomoku: Engine) -> None:
    fresh(gomoku)
    # The opponent's four along the top edge wins at 4,0; the engine has nothing faster.
    assert board(gomoku, [(7, 7), (9, 9), (12, 3)], row(0, 0, 1, 2, 3)) == "4,0"
    # A broken four in a column: x is the column, y the row from the top (the gap is 10,6).
    fresh(gomoku)
    assert board(gomoku, [(2, 2), (3, 12), (12, 12)], [(10, 4), (10, 5), (10, 7), (10, 8)]) == "10,6"


def test_x_is_the_column_on_a_rectangular_board(gomoku: Engine) -> None:
    assert gomoku.ask("RECTSTART 20,10") == "OK"
    gomoku.send("INFO timeout_turn 300")
    # x = 15 exists only as a column of 20 (10 rows): the opponent's column four from the top edge, blocked at 15,4.
    assert board(gomoku, [(2, 5), (6, 6), (9, 9)], [(15, 0), (15, 1), (15, 2), (15, 3)]) == "15,4"


def runs_through(stones: set[tuple[int, int]], x: int, y: int, k: int) -> bool:
    """True if a stone at x,y would make ``k`` or more in a row with ``stones`` (the obvious scan)."""
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            step = 1
            while (x + sign * step * dx, y + sign * step * dy) in stones:
                count, step = count + 1, step + 1
        if count >= k:
            return True
    return False


def far_cell(size: int, taken: set[tuple[int, int]]) -> tuple[int, int]:
    """The opponent's idle move: the first free cell sweeping from the top-right corner."""
    return next((x, y) for y in range(size) for x in reversed(range(size)) if (x, y) not in taken)


@pytest.mark.parametrize("k, size", [(5, 15), (4, 9)])
def test_a_full_short_game_takes_every_win_and_blocks_every_loss(k: int, size: int) -> None:
    """From a board where the opponent threatens to win at once, a scripted opponent (blocks one of the engine's
    winning cells, else plays an idle far cell) against the engine: at each reply the engine wins if it can,
    else blocks a single threat; it blocks at once, never loses, and wins the game."""
    engine = Engine(*(["--k", str(k)] if k != 5 else []))
    try:
        assert engine.ask(f"START {size}") == "OK"
        engine.send("INFO timeout_turn 200")
        mid = size // 2
        own = {(mid - 1 + i, mid) for i in range(k - 2)}  # an open run of k - 2
        theirs = {(i, size - 1) for i in range(k - 1)}  # k - 1 along the bottom edge: wins at k - 1, size - 1 next
        reply = board(engine, sorted(own), sorted(theirs))
        checked = {"win": 0, "block": 0}
        for _ in range(size * size // 2):
            empty = {(x, y) for y in range(size) for x in range(size)} - own - theirs
            wins = {cell for cell in empty if runs_through(own, *cell, k)}
            threats = {cell for cell in empty if runs_through(theirs, *cell, k)}
            x, y = (int(v) for v in reply.split(","))
            assert (x, y) in empty, reply
            if wins:
                assert (x, y) in wins, (reply, wins)
                checked["win"] += 1
                break
            if len(threats) == 1:
                assert (x, y) in threats, (reply, threats)
                checked["block"] += 1
            own.add((x, y))
            wins = {cell for cell in empty - {(x, y)} if runs_through(own, *cell, k)}
            move = min(wins) if wins else far_cell(size, own | theirs)
            assert not runs_through(theirs, *move, k), "the opponent wins: the engine missed a block"
            theirs.add(move)
            reply = engine.ask(f"TURN {move[0]},{move[1]}")
        assert checked["win"] == 1 and checked["block"] >= 1, checked
        assert engine.end() == 0
    finally:
        engine.proc.kill()


def test_rule_1_makes_an_overline_not_count(gomoku: Engine) -> None:
    own, theirs = row(7, 0, 1, 2, 4, 5), [*row(14, 0, 1, 2, 3), (14, 0)]
    fresh(gomoku, rule=0)  # freestyle: 3,7 makes six in a row, a win
    assert board(gomoku, own, theirs) == "3,7"
    fresh(gomoku, rule=1)  # exactly five: six is no win, so the opponent's five at 4,14 must be blocked
    assert board(gomoku, own, theirs) == "4,14"


def test_unsupported_rules_are_named_and_play_goes_on(gomoku: Engine) -> None:
    fresh(gomoku, rule=0)
    gomoku.send("INFO rule 12")
    assert [gomoku.read(), gomoku.read()] == [
        "MESSAGE rule 4 (renju) is not supported: playing 5 in a row without it",
        "MESSAGE rule 8 (caro) is not supported: playing 5 in a row without it",
    ]
    assert board(gomoku, [(7, 7), (9, 9), (12, 3)], row(0, 0, 1, 2, 3)) == "4,0"
    gomoku.send("INFO rule 0")


def test_takeback_and_restart(gomoku: Engine) -> None:
    fresh(gomoku)
    first = gomoku.ask("BEGIN")
    second = gomoku.ask("TURN 0,0")
    assert gomoku.ask(f"TAKEBACK {second}") == "OK"
    assert gomoku.ask(f"TAKEBACK {first}").startswith(  # the opponent's stone would be the first
        f"ERROR TAKEBACK {first}: taking {first} back leaves 0 first-player and 1 second-player stones")
    assert gomoku.ask("TAKEBACK 0,0") == "OK"
    assert gomoku.ask("TAKEBACK 0,0") == "ERROR TAKEBACK 0,0: cell 0,0 is empty: there is no stone to take back"
    assert gomoku.ask("TURN 0,0").count(",") == 1  # free again: the engine answers
    assert gomoku.ask("RESTART") == "OK"
    assert gomoku.ask(f"TURN {first}").count(",") == 1  # the board is empty after RESTART


# ------------------------------------------------------------------ time


def test_answers_stay_within_timeout_turn() -> None:
    engine = Engine("--debug")  # the DEBUG line before each move gives the search's budget
    try:
        fresh(engine, turn_ms=1000)
        for line in ("BEGIN", "TURN 0,0", "TURN 14,14", "TURN 0,14"):
            debug, seconds = engine.timed(line)
            move = engine.read()
            assert seconds < 1.0 and move.count(",") == 1, (line, debug, move, seconds)
            # it is given the turn (90 % of it less 20 ms, less what the reply spent before the search), and no more:
            # the gomoku engine may stop early, at half its budget, when another iteration would not fit
            budget = float(debug.split(" ms budget")[0].rsplit("of a ", 1)[1])
            assert 700 <= budget <= 880, debug
    finally:
        engine.proc.kill()


def test_time_left_shortens_the_move(gomoku: Engine) -> None:
    fresh(gomoku, turn_ms=5000)
    gomoku.send("INFO timeout_match 60000", "INFO time_left 5000")  # 5 s over 25 moves: 200 ms a move
    reply, seconds = gomoku.timed("BEGIN")
    assert seconds < 0.4, (reply, seconds)
    gomoku.send("INFO timeout_match 0")


def test_budget_from_the_limits() -> None:
    assert move_budget_ms(Limits(), own_moves_left=100) == 880  # no INFO: 1 s a move
    assert move_budget_ms(Limits(timeout_turn=0), 10) == 5  # "as fast as possible": the floor
    assert move_budget_ms(Limits(timeout_turn=30000, time_left=2500), 3) == pytest.approx(2500 / 3 * 0.9 - 20)
    # 0: no match limit; 90% of 300 would end 30 ms short of the turn: the 50 ms margin caps it at 300 - 50 - 20
    assert move_budget_ms(Limits(timeout_turn=300, timeout_match=0, time_left=10), 3) == 230
    assert table_slots(Limits(max_memory=0)) is None and table_slots(Limits(max_memory=100 << 20)) == 1 << 19
    assert table_slots(Limits(max_memory=1 << 50)) == 1 << 20  # a generous limit asks for no more than 32 MB


def test_with_budget_keeps_the_smaller_time_and_leaves_other_agents() -> None:
    assert with_budget("alphabeta:time_ms=100,depth=3", 450.0) == "alphabeta:time_ms=100,depth=3"
    assert with_budget("alphabeta:time_ms=900", 450.5) == "alphabeta:time_ms=450.5"
    assert with_budget("weights/x.json", 200.0, tt=1024) == "alphabeta:weights=weights/x.json,time_ms=200,tt=1024"
    assert with_budget("alphabeta:tt=64", 200.0, tt=1024) == "alphabeta:tt=64,time_ms=200"
    assert with_budget("rules", 200.0) == "rules" and with_budget("perfect:weak=1", 9.0) == "perfect:weak=1"


# ------------------------------------------------------------------ malformed input


TOO_BIG = MAX_SIDE + 1
MALFORMED_BEFORE_START = [
    ("TURN 7,7", "ERROR TURN 7,7: no board yet"),
    ("BEGIN", "ERROR BEGIN: no board yet"),
    ("TAKEBACK 1,1", "ERROR TAKEBACK 1,1: no board yet"),
    ("RESTART", "ERROR RESTART: no board yet"),
    (f"START {TOO_BIG}", f"ERROR START {TOO_BIG}: a {TOO_BIG}x{TOO_BIG} board with k=5 is not supported: rows={TOO_BIG} is out"),
    ("START 4", "ERROR START 4: a 4x4 board with k=5 is not supported: k=5 is out of range"),
    ("START abc", "ERROR START abc: board size 'abc' is not a whole number"),
    ("START -3", "ERROR START -3: board size '-3' is not a whole number"),
    ("START 1\u0665", "ERROR START 1\u0665: board size '1\u0665' is not a whole number"),  # an Arabic-Indic 5
    ("RECTSTART \u0661\u0665,15", "ERROR RECTSTART \u0661\u0665,15: '\u0661\u0665,15' is not two whole numbers"),
    ("RECTSTART 10", "ERROR RECTSTART 10: '10' is not two whole numbers: the form is RECTSTART W,H"),
    (f"RECTSTART {TOO_BIG},10", f"ERROR RECTSTART {TOO_BIG},10: a {TOO_BIG}x10 board with k=5 is not supported: cols={TOO_BIG} is"),
    ("FROB 1", "UNKNOWN command 'FROB' in 'FROB 1'"),
]
MALFORMED_IN_GAME = [
    ("TURN 15,3", "ERROR TURN 15,3: cell 15,3 is off the 15x15 board: x is 0 to 14, y is 0 to 14"),
    ("TURN 3", "ERROR TURN 3: '3' is not two whole numbers: the form is TURN x,y"),
    ("TURN -1,2", "ERROR TURN -1,2: '-1,2' is not two whole numbers"),
    ("TURN 7,7", "ERROR TURN 7,7: cell 7,7 is taken"),
    ("BEGIN", "ERROR BEGIN: the board already holds 2 stone(s)"),
    ("INFO timeout_turn -5", "ERROR INFO timeout_turn -5: timeout_turn value '-5' is not a whole number >= 0"),
    ("INFO rule x", "ERROR INFO rule x: rule value 'x' is not a whole number"),
    ("INFO timeout_turn \u0665\u0660\u0660", "ERROR INFO timeout_turn \u0665\u0660\u0660: timeout_turn value"),
    ("TURN \u0663,3", "ERROR TURN \u0663,3: '\u0663,3' is not two whole numbers"),
    ("INFO", "ERROR INFO: INFO needs a key and a value"),
    ("TAKEBACK 0,0", "ERROR TAKEBACK 0,0: cell 0,0 is empty"),
]


def test_every_malformed_line_gets_one_error_naming_it() -> None:
    engine = Engine()
    try:
        for line, expected in MALFORMED_BEFORE_START:
            assert engine.ask(line).startswith(expected), line
        assert engine.ask("START 15") == "OK"
        engine.send("INFO timeout_turn 100", "INFO folder /tmp", "INFO evaluate 3,3")  # ignored keys: no answer
        first = engine.ask("TURN 7,7")
        for line, expected in MALFORMED_IN_GAME:
            assert engine.ask(line).startswith(expected), (line, expected)
        assert engine.ask(f"TURN {first}") == f"ERROR TURN {first}: cell {first} is taken"
        # BOARD: each bad stone line is named and skipped; DONE plays from the good ones.
        engine.send("BOARD", "1,2", "1,2,5", "3,3,3", "99,1,1", "4,4,1", "4,4,2", "5,5,2")
        assert engine.read() == "ERROR BOARD line '1,2': a stone is x,y,who with who 1 (own) or 2 (opponent's)"
        assert engine.read() == "ERROR BOARD line '1,2,5': who=5 is not 1 (own stone) or 2 (opponent's)"
        assert engine.read().startswith("ERROR BOARD line '3,3,3': who=3 marks a continuous game's line")
        assert engine.read().startswith("ERROR BOARD line '99,1,1': cell 99,1 is off the 15x15 board")
        assert engine.read() == "ERROR BOARD line '4,4,2': cell 4,4 is given twice"
        assert engine.ask("DONE").count(",") == 1  # one own, one opponent's stone: the engine moves
        assert engine.ask("BOARD", "1,1,1", "2,2,1", "DONE").startswith("ERROR DONE: 2 own and 0 opponent's stones")
        assert engine.ask("BOARD", "1,1,2", "TURN 3,3").startswith("ERROR BOARD ended by TURN without DONE")
        assert engine.read().count(",") == 1  # the TURN itself, played on the board from before that BOARD
        assert engine.ask("about\r").startswith('name="alphabeta-gym", version="')  # any case; CR LF line ends
        assert engine.end() == 0
        assert "Traceback" not in engine.stderr()
    finally:
        engine.proc.kill()


@pytest.mark.parametrize("args, message", [
    (["--k", "1"], "--k 1 is too small"),
    (["--agent", "nosuch:x=1"], "unknown agent 'nosuch'"),
    (["--agent", "alphabeta:depth=x"], "depth='x' is not a number"),
    (["--agent", "alphabeta:heuristic=c4_features"], "c4_features"),
])  # fmt: skip
def test_bad_options_exit_2_with_one_line(args: list[str], message: str) -> None:
    out = subprocess.run([sys.executable, "-m", "search.piskvork", *args], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, input="", timeout=120)  # fmt: skip
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_a_weight_file_for_a_gomoku_board_plays_that_board() -> None:
    """``--agent`` is checked on the boards a manager is likely to start, not on k x k (which refused every gomoku
    weight file at launch): the tuned gomoku table plays START 15 and answers another size with ERROR."""
    engine = Engine("--agent", "gomoku-gomoku-tuned")
    try:
        fresh(engine, size=15, turn_ms=300)
        reply = board(engine, [(7, 7), (9, 9), (12, 3)], row(0, 0, 1, 2, 3))
        assert reply == "4,0"  # it plays, and blocks the four
        assert engine.ask("START 20").startswith("ERROR START 20: agent 'gomoku-gomoku-tuned' cannot play m,n,k 20,20,5")
        assert engine.end() == 0
    finally:
        engine.proc.kill()
    out = subprocess.run([sys.executable, "-m", "search.piskvork", "--agent", "gomoku-gomoku-tuned", "--k", "4"],
                         capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, input="",
                         timeout=120)  # fmt: skip
    assert out.returncode == 2 and out.stderr.splitlines()[-1].endswith("the file is for m,n,k 15,15,5, not m,n,k 15,15,4")


def test_ctrl_c_during_a_search_is_one_line_on_stderr_and_130() -> None:
    """A real SIGINT while the engine searches a move (a 10 s turn): no ERROR line to the manager, no traceback."""
    ended = interrupt_when(["search.piskvork"], line=lambda text: text == "OK\n", delay=0.5,
                           stdin="START 15\nINFO timeout_turn 10000\nTURN 7,7\n")  # fmt: skip
    assert (ended.returncode, ended.stdout, ended.stderr) == (130, "OK\n", "search.piskvork: interrupted\n")


def test_the_exact_solver_is_refused_per_start_size_not_at_launch() -> None:
    engine = Engine("--agent", "perfect", "--k", "3")
    try:
        assert engine.ask("START 3") == "OK"
        assert engine.ask("TURN 1,1") in {"0,0", "2,0", "0,2", "2,2"}  # only a corner holds the draw
        assert engine.ask("START 15").startswith("ERROR START 15: agent 'perfect' cannot play m,n,k 15,15,3: the solver")
        assert engine.ask("START 4") == "OK"
        assert engine.end() == 0
    finally:
        engine.proc.kill()


def test_the_reply_fits_the_turn_time_spent_before_the_search_included(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search gets the move's budget less what the reply already used, and DEBUG reports the whole reply."""
    from search.piskvork import _brain as _piskvork_brain
    from search.piskvork._brain import Brain

    brain = Brain(k=5, spec="alphabeta:heuristic=windows,radius=2", debug=True)
    assert brain.handle("INFO timeout_turn 600") == [] and brain.handle("START 9") == ["OK"]
    budgets: list[int] = []
    agent_for = Brain._agent_for

    def spy(self: Brain, spec: str, game: object) -> object:
        budgets.append(int(spec.rpartition("time_ms=")[2].partition(",")[0]))
        return agent_for(self, spec, game)  # type: ignore[arg-type]

    def slow_check(position: object) -> None:  # TURN checks twice before the search: 200 ms of the reply spent
        time.sleep(0.1)

    monkeypatch.setattr(Brain, "_agent_for", spy)
    monkeypatch.setattr(_piskvork_brain.Brain, "_check_open", staticmethod(slow_check))
    debug, move = brain.handle("TURN 4,4")
    planned = move_budget_ms(Limits(timeout_turn=600), 40)
    assert budgets == [pytest.approx(planned - 200, abs=15)]
    whole = float(debug.split("replied in ")[1].split(" ms")[0])
    assert debug.startswith("DEBUG ") and debug.endswith("of the turn's 600 ms") and 200 <= whole
    assert f"of a {budgets[0]} ms budget" in debug and "," in move
