"""One Gomocup-protocol session (:class:`Brain`): the board, the manager's limits and the agent; the CLI is :mod:`search.piskvork`.

Example:
    >>> brain = Brain(k=3, spec="rules")
    >>> brain.handle("START 3"), brain.handle("TURN 0,0")    # the rule-based agent takes the centre
    (['OK'], ['1,1'])
    >>> brain.handle("TURN 1,1")
    ['ERROR TURN 1,1: cell 1,1 is taken']
"""

from __future__ import annotations

import re
import time
from importlib import metadata
from typing import Callable, Optional

from games import Action, KInARow, Player, Position, make_game
from games.errors import GameError
from search.agents import AgentType, make_agent
from search.agents.warmup import warm_up
from search.errors import SearchError
from search.piskvork._time import MIN_BUDGET_MS, Limits, move_budget_ms, table_slots, turn_ms, with_budget

DEFAULT_SPEC = "alphabeta"
"""The default engine: a plain ``alphabeta``, which on these boards (``4 <= k <= 15``) plays the gomoku engine
(:class:`search.gomoku.GomokuEngine` with its tuned pattern table, see :func:`search.agents.uses_gomoku_engine`),
with the turn's time budget; on longer lines the m,n,k default setting (:data:`search.agents.MNK_DEFAULT`).
``alphabeta:heuristic=mics,radius=2,branching=6`` plays the setting recommended before the engine."""
GOMOKU_K = 5
"""Stones in a row to win unless ``--k`` says otherwise."""
RULE_EXACT = 1
"""INFO rule bit 0: exactly five (k) in a row wins: an overline does not."""
UNSUPPORTED_RULES = {2: "continuous game", 4: "renju", 8: "caro"}
"""The other INFO rule bits the protocol defines; this engine does not play them."""
_INFO_INTS = ("timeout_turn", "timeout_match", "time_left", "max_memory", "game_type", "rule")
_COORDS = re.compile(r"\s*([0-9]+)\s*,\s*([0-9]+)\s*")  # ASCII digits: int() would also read "\u0663" as 3
_STONE = re.compile(r"\s*([0-9]+)\s*,\s*([0-9]+)\s*,\s*([0-9]+)\s*")


class ProtocolError(SearchError):
    """A line the engine cannot act on; its message becomes the ``ERROR`` reply."""


def _version() -> str:
    try:
        return metadata.version("alphabeta-gym")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "0.1.0"


class Brain:
    """One protocol session: the board, the manager's limits, the agent; :meth:`handle` answers one line.

    Args:
        k: stones in a row to win.
        spec: the agent spec (see :func:`search.agents.make_agent`); alpha-beta
            specs get a time budget per move (module docstring).
        name: the engine name ABOUT reports.
        debug: precede each move with a ``DEBUG`` line about its search.
    """

    def __init__(self, k: int = GOMOKU_K, spec: str = DEFAULT_SPEC, name: str = "alphabeta-gym", debug: bool = False) -> None:
        self.k, self.spec, self.name, self.debug = k, spec, name, debug
        self.limits = Limits()
        self.exact = False
        self.position: Optional[Position] = None
        self.own: Optional[Player] = None
        """The engine's side (0 first, 1 second) once a move or a board has told."""
        self.finished = False
        """True after END."""
        self._stones: Optional[list[tuple[int, int, int]]] = None  # between BOARD and DONE: (x, y, who)
        self._agent: Optional[tuple[str, KInARow, AgentType]] = None
        self._warm = False
        self._received = time.perf_counter()
        self._used_ms = 0.0  # own reply time this game: the match clock when the manager sends no time_left
        self._commands: dict[str, Callable[[str], list[str]]] = {
            "START": self._start, "RECTSTART": self._rectstart, "RESTART": self._restart, "BEGIN": self._begin,
            "TURN": self._turn, "BOARD": self._board, "INFO": self._info, "TAKEBACK": self._takeback,
            "ABOUT": self._about, "END": self._end,
        }  # fmt: skip

    # ------------------------------------------------------------------ dispatch
    def handle(self, line: str) -> list[str]:
        """The reply lines to one input line (none for INFO, END, blank lines and the lines of a BOARD)."""
        self._received = time.perf_counter()  # a move's clock runs from the manager's line, not from the search
        text = line.strip()
        if not text:
            return []
        word, _, rest = text.partition(" ")
        command = word.upper()
        try:
            if self._stones is not None:
                if command == "DONE":
                    return self._done()
                if command not in self._commands:
                    return self._stone_line(text)
                self._stones = None  # a command inside a BOARD: the manager gave up on it
                return [f"ERROR BOARD ended by {word} without DONE: the board is ignored", *self.handle(text)]
            handler = self._commands.get(command)
            if handler is None:
                known = ", ".join([*self._commands, "DONE"])
                return [f"UNKNOWN command {word!r} in {text!r}: this engine knows {known}"]
            return handler(rest.strip())
        except ValueError as exc:  # ProtocolError, the game core's errors, an agent refusing the board
            return [f"ERROR {f'{command} {rest.strip()}'.strip()}: {exc}"]

    # ------------------------------------------------------------------ commands
    def _start(self, args: str) -> list[str]:
        if not (args.isascii() and args.isdecimal()):
            raise ProtocolError(f"board size {args!r} is not a whole number: START N gives an N x N board")
        return self._new_board(int(args), int(args))

    def _rectstart(self, args: str) -> list[str]:
        x, y = self._pair(args, "RECTSTART W,H")
        return self._new_board(x, y)

    def _new_board(self, width: int, height: int) -> list[str]:
        try:
            game = self._game(height, width, self.exact)
        except GameError as exc:
            raise ProtocolError(f"a {width}x{height} board with k={self.k} is not supported: {exc}") from None
        try:
            self._warm_up(game)
        except ValueError as exc:
            raise ProtocolError(f"agent {self.spec!r} cannot play {game}: {exc}") from None
        self.position, self.own, self._agent = Position(game), None, None
        self._used_ms = 0.0
        return ["OK"]

    def _restart(self, args: str) -> list[str]:
        position = self._need_board()
        self.position, self.own = Position(position.game), None
        self._used_ms = 0.0
        self._reset_agent()
        return ["OK"]

    def _begin(self, args: str) -> list[str]:
        position = self._need_board()
        if position.ply:
            raise ProtocolError(f"the board already holds {position.ply} stone(s): BEGIN opens an empty board")
        self.own = 0
        self._reset_agent()
        return self._think()

    def _turn(self, args: str) -> list[str]:
        position = self._need_board()
        action = self._cell(args, "TURN x,y")
        if self.own is not None and position.to_move == self.own:
            raise ProtocolError("it is this engine's move, not the opponent's (BEGIN, BOARD or a move came before)")
        self._check_open(position)
        self.own = 1 - position.to_move
        position.play(action)
        if position.is_terminal():
            outcome = "a draw: the board is full" if position.winner is None else "won by the opponent"
            raise ProtocolError(f"the game is over after it: {outcome}")
        return self._think()

    def _board(self, args: str) -> list[str]:
        self._need_board()
        self._stones = []
        return []

    def _stone_line(self, text: str) -> list[str]:
        position = self._need_board()
        assert self._stones is not None
        match = _STONE.fullmatch(text)
        if match is None:
            return [f"ERROR BOARD line {text!r}: a stone is x,y,who with who 1 (own) or 2 (opponent's)"]
        x, y, who = (int(g) for g in match.groups())
        if who == 3:
            return [f"ERROR BOARD line {text!r}: who=3 marks a continuous game's line, which this engine does not play"]
        if who not in (1, 2):
            return [f"ERROR BOARD line {text!r}: who={who} is not 1 (own stone) or 2 (opponent's)"]
        problem = self._off_board(x, y, position.game)
        if problem is None and any((x, y) == (sx, sy) for sx, sy, _ in self._stones):
            problem = f"cell {x},{y} is given twice"
        if problem is not None:
            return [f"ERROR BOARD line {text!r}: {problem}"]
        self._stones.append((x, y, who))
        return []

    def _done(self) -> list[str]:
        stones, self._stones = self._stones or [], None
        position = self._need_board()
        own = [self._action(x, y) for x, y, who in stones if who == 1]
        theirs = [self._action(x, y) for x, y, who in stones if who == 2]
        if len(theirs) - len(own) not in (0, 1):
            raise ProtocolError(f"{len(own)} own and {len(theirs)} opponent's stones: with this engine to move the "
                                "opponent has as many stones as it, or one more")  # fmt: skip
        side = len(theirs) - len(own)  # the engine's side: 0 if it opened, 1 if the opponent did
        self._rebuild(position.game, own if side == 0 else theirs, theirs if side == 0 else own)
        self.own = side
        self._reset_agent()
        return self._think()

    def _info(self, args: str) -> list[str]:
        key, _, value = args.partition(" ")
        key, value = key.lower(), value.strip()
        if not key:
            raise ProtocolError("INFO needs a key and a value, e.g. INFO timeout_turn 5000")
        if key not in _INFO_INTS:
            return []  # evaluate, folder and keys of later protocol versions: the protocol lets a brain ignore them
        if not (value.isascii() and value.isdecimal()):
            raise ProtocolError(f"{key} value {value!r} is not a whole number >= 0")
        number = int(value)
        if key == "rule":
            return self._rule(number)
        if key != "game_type":  # the opponent's kind changes nothing in how this engine plays
            setattr(self.limits, key, number)
        return []

    def _rule(self, rule: int) -> list[str]:
        notes = [f"MESSAGE rule {bit} ({name}) is not supported: playing {self.k} in a row without it"
                 for bit, name in UNSUPPORTED_RULES.items() if rule & bit]  # fmt: skip
        unknown = rule & ~(RULE_EXACT | sum(UNSUPPORTED_RULES))
        if unknown:
            notes.append(f"MESSAGE rule bits {unknown} are not defined by the protocol: ignored")
        exact = bool(rule & RULE_EXACT)
        if exact != self.exact:
            if self.position is not None:  # the same stones under the new rule
                replay = Position(self._game(self.position.game.rows, self.position.game.cols, exact))
                for action in self.position.moves:
                    replay.play(action)
                self.position, self._agent = replay, None
            self.exact = exact
        return notes

    def _takeback(self, args: str) -> list[str]:
        position = self._need_board()
        action = self._cell(args, "TAKEBACK x,y")
        moves = position.moves
        if action not in moves:
            raise ProtocolError(f"cell {args.strip()} is empty: there is no stone to take back")
        first = [a for a in moves[0::2] if a != action]
        second = [a for a in moves[1::2] if a != action]
        if len(first) - len(second) not in (0, 1):
            raise ProtocolError(f"taking {args.strip()} back leaves {len(first)} first-player and {len(second)} "
                                "second-player stones, which no game reaches")  # fmt: skip
        self._rebuild(position.game, first, second)
        return ["OK"]

    def _about(self, args: str) -> list[str]:
        return [f'name="{self.name}", version="{_version()}", author="alphabeta-gym contributors", country="n/a"']

    def _end(self, args: str) -> list[str]:
        self.finished = True
        return []

    # ------------------------------------------------------------------ helpers
    def _game(self, rows: int, cols: int, exact: bool) -> KInARow:
        """The m,n,k game of this board; ``exact``: the exact-k rule (an overline does not win)."""
        return make_game("mnk", rows, cols, self.k, exact_k=exact)

    def _need_board(self) -> Position:
        if self.position is None:
            raise ProtocolError("no board yet: send START N or RECTSTART W,H first")
        return self.position

    def _pair(self, text: str, form: str) -> tuple[int, int]:
        match = _COORDS.fullmatch(text)
        if match is None:
            raise ProtocolError(f"{text!r} is not two whole numbers: the form is {form}")
        return int(match.group(1)), int(match.group(2))

    def _cell(self, text: str, form: str) -> Action:
        """The action of ``x,y`` after checking it names an empty cell of the board."""
        position = self._need_board()
        x, y = self._pair(text, form)
        problem = self._off_board(x, y, position.game)
        if problem is not None:
            raise ProtocolError(problem)
        action = self._action(x, y)
        if form.startswith("TURN") and position.board()[y, x]:
            raise ProtocolError(f"cell {x},{y} is taken")
        return action

    @staticmethod
    def _off_board(x: int, y: int, game: KInARow) -> Optional[str]:
        if x < game.cols and y < game.rows:
            return None
        return f"cell {x},{y} is off the {game.cols}x{game.rows} board: x is 0 to {game.cols - 1}, y is 0 to {game.rows - 1}"

    def _action(self, x: int, y: int) -> Action:
        assert self.position is not None
        return y * self.position.game.cols + x

    def _format(self, action: Action) -> str:
        assert self.position is not None
        y, x = divmod(action, self.position.game.cols)
        return f"{x},{y}"

    @staticmethod
    def _check_open(position: Position) -> None:
        if position.is_terminal():
            outcome = "drawn" if position.winner is None else "won"
            raise ProtocolError(f"the game is already over ({outcome}): send RESTART or BOARD for a new one")

    def _rebuild(self, game: KInARow, first: list[Action], second: list[Action]) -> None:
        """Set the board to ``first``'s and ``second``'s stones, played alternately (the first player's first)."""
        position = Position(game)
        for i, action in enumerate([a for pair in zip(first, second + [-1]) for a in pair if a >= 0]):
            if position.is_terminal():
                raise ProtocolError(f"the position is already won by the {'first' if i % 2 else 'second'} player")
            position.play(action)
        self._check_open(position)
        self.position = position

    # ------------------------------------------------------------------ thinking
    def _agent_for(self, spec: str, game: KInARow) -> AgentType:
        """The agent of ``spec``, kept while the spec and the game stay the same (its table lives across moves)."""
        if self._agent is None or self._agent[:2] != (spec, game):
            self._agent = (spec, game, make_agent(spec, game))
        return self._agent[2]

    def _reset_agent(self) -> None:
        if self._agent is not None:
            self._agent[2].reset()

    def _warm_up(self, game: KInARow) -> None:
        """Build the agent for ``game`` (it may refuse the board); the first time, play the warm-up positions
        untimed (:func:`search.agents.warmup.warm_up`), so that compiling or loading the kernels of every code path
        (search, threat search, the block of a four) does not eat a timed move's time."""
        agent = make_agent(with_budget(self.spec, MIN_BUDGET_MS), game)
        if not self._warm:
            warm_up(agent, game)
            self._warm = True

    def _think(self) -> list[str]:
        """The move (and the DEBUG line): the search gets the move's budget less what this reply has already
        used since its line came in (parsing, rebuilding the board), so the whole reply stays inside the turn."""
        position = self._need_board()
        self._check_open(position)
        planned = move_budget_ms(self.limits, (position.game.n_cells - position.ply + 1) // 2, self._used_ms)
        budget = max(MIN_BUDGET_MS, planned - (time.perf_counter() - self._received) * 1000)
        agent = self._agent_for(with_budget(self.spec, int(budget), table_slots(self.limits)), position.game)
        started = time.perf_counter()
        action = agent.select_move(position)
        position.play(action)
        self._used_ms += (time.perf_counter() - self._received) * 1000
        replies = [self._format(action)]
        if self.debug:
            result = getattr(agent, "last_result", None)
            found = f"depth {result.depth} score {result.score:g} nodes {result.nodes} " if result is not None else ""
            searched, whole = ((time.perf_counter() - t) * 1000 for t in (started, self._received))
            replies.insert(0, f"DEBUG {agent.name}: {found}searched {searched:.0f} ms of a {int(budget)} ms budget; "
                              f"replied in {whole:.0f} ms of the turn's {turn_ms(self.limits):.0f} ms")  # fmt: skip
        return replies
