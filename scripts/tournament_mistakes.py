"""Which of an m,n,k tournament's positions left one agent a forced win: the opponent's mistakes it could have used.

Reads the JSON of ``python -m scripts.mnk_tournament --out``.  For one agent (``--agent``: ``A``, ``B``, ... or
its label; default A) it replays every game the agent played and checks each position right after the opponent
moved (a position reached in several games is checked once): can the agent, to move, force a win?  Two checks:
threat-space search (:func:`search.gomoku.threats.find_vcf`, then :func:`~search.gomoku.threats.find_vct` with ``--nodes``
moves, on boards without gravity and ``k >= 4``), whose wins are proofs, and, with ``--think SPEC``, that
agent's search returning a win score (``alphabeta:time_ms=3000`` thinks three times as long as a tournament
move; a pruned search's win is its claim, not a proof).  Against an opponent that never errs no agent scores
more than half the points of a configuration played with both colours, so these positions are where any share
above half must come from.

The file is checked before anything is printed (:func:`check_tournament`: the fields this script reads, and
every game's moves replayed), as are ``--agent``, ``--configs``, ``--think`` and the budgets: a bad one ends in
one line naming it and exit code 2.  Ctrl-C ends the run with one line and exit code 130.

Prints, per configuration, the positions checked and, per game with one, the first position where a win
showed (the ply after which it showed, what proved it, and how the game ended), then a total::

    python -m scripts.mnk_tournament alphabeta "alphabeta:heuristic=mics,radius=2,time_ms=850,solve_ms=400,branching=6" \\
        --games 4 --out runs/bologna
    python -m scripts.tournament_mistakes runs/bologna.json --configs 6,6,5 7,7,5 10,10,5 --think alphabeta:time_ms=3000
"""

from __future__ import annotations

import argparse
import re
import string
import sys
from pathlib import Path
from typing import Any, Optional, Sequence

from games import make_game
from games.position import Position
from heuristics.files import describe_json
from scripts._args import load_report, run_interruptible, threat_search_options
from search.agents import make_agent
from search.gomoku.threats import applies, find_vcf, find_vct
from search.protocol import is_win_score, plies_to_end

DEFAULT_NODES = 300_000
"""Moves each threat search may try (VCF, then VCT): a few seconds at most on a 10x10 board."""
DEFAULT_DEPTH = 21
"""Longest VCT looked for, in plies."""


def agent_label(data: dict[str, Any], name: str) -> str:
    """The label of the agent ``name`` names: a letter (``A`` the first spec) or a label of ``data["agents"]``."""
    labels = list(data["agents"])
    if len(name) == 1 and name in string.ascii_letters and ord(name.upper()) - ord("A") < len(labels):
        return labels[ord(name.upper()) - ord("A")]
    if name in labels:
        return name
    letters = ", ".join(f"{chr(ord('A') + i)} ({label})" for i, label in enumerate(labels))
    raise ValueError(f"no agent {name!r} in the tournament: its agents are {letters}")


def checked_plies(moves: Sequence[int], first: bool) -> range:
    """The plies (moves played so far) at which the agent was to move right after its opponent's move.

    The agent moves at even plies when it moved first, odd ones otherwise; ply 0 follows no opponent move.
    Only plies at which the game went on are included (a finished position has nothing to find)."""
    return range(2 if first else 1, len(moves), 2)


def forced_win(position: Position, nodes: int, depth: int, thinker: Any = None) -> Optional[str]:
    """What shows a win for the side to move (``"VCF of 5 plies"``, ``"search: a win in 9 plies"``), or None.

    ``thinker`` is an agent whose ``last_result.score`` is a search score (an alpha-beta agent) or None."""
    if applies(position):
        found, name = find_vcf(position, nodes=nodes), "VCF"
        if not found.win:
            found, name = find_vct(position, nodes=nodes, max_depth=depth), "VCT"
        if found.win:
            return f"{name} of {found.plies} plies"
    if thinker is not None:
        thinker.select_move(position)
        score = thinker.last_result.score
        if is_win_score(score) and score > 0:
            plies = plies_to_end(score)
            return f"search: a win in {plies} {'ply' if plies == 1 else 'plies'}"
    return None


def outcome(record: dict[str, Any], label: str) -> str:
    """How a game ended for ``label``: won, lost or drawn, and why when it was not on the board."""
    if record["winner"] is None:
        return "drawn" if record["reason"] == "draw" else f"drawn ({record['reason']})"
    winner = record["first"] if record["winner"] == 0 else record["second"]  # 0: the first player won
    result = "won" if winner == label else "lost"
    return result if record["reason"] == "k in a row" else f"{result} ({record['reason']})"


def check_configuration(entry: dict[str, Any], label: str, nodes: int, depth: int,
                        think: Optional[str] = None, seed: int = 0) -> tuple[int, list[str]]:  # fmt: skip
    """``(positions checked, one line per game of label's in which a win showed)`` for one configuration's entry."""
    game = _game_of(entry)
    thinker = None
    if think is not None:
        thinker = make_agent(think, game, seed=seed)
        thinker.select_move(game.position())  # load its compiled kernels before a timed think
    verdicts: dict[tuple[int, ...], Optional[str]] = {}
    lines = []
    for number, record in enumerate(entry["games"], 1):
        if label not in (record["first"], record["second"]):
            continue
        first = record["first"] == label
        for ply in checked_plies(record["moves"], first):
            key = tuple(record["moves"][:ply])
            if key not in verdicts:
                verdicts[key] = forced_win(game.position(list(key)), nodes, depth, thinker)
            if verdicts[key] is not None:
                move = game.format_moves([record["moves"][ply - 1]])
                lines.append(f"  game {number} ({'first' if first else 'second'}, {outcome(record, label)}): "
                             f"a win after ply {ply} ({move}): {verdicts[key]}")  # fmt: skip
                break
    return len(verdicts), lines


def _game_of(entry: dict[str, Any]) -> Any:
    """The m,n,k game of a configuration's entry (``"M,N,K"``: M rows, N columns; ValueError if it is none)."""
    found = _CONFIG.fullmatch(entry["config"])
    if found is None:
        raise ValueError(f"{entry['config']!r} is not M,N,K (rows, columns, k)")
    rows, cols, k = (int(group) for group in found.groups())
    return make_game("mnk", rows, cols, k)


_CONFIG = re.compile(r"([0-9]{1,6}),([0-9]{1,6}),([0-9]{1,6})")


def check_tournament(data: Any) -> bool:
    """True if ``data`` is the JSON of a tournament this script can replay; else ValueError naming the first bad field.

    Checked: the agents (two or more distinct labels); per configuration its ``config`` (a board the game core
    builds, if ``playable``), and per game ``first`` and ``second`` (two of the agents), ``winner`` (0, 1 or
    null), ``reason`` (a string) and ``moves`` (cell actions that replay from the empty board, none after the end).
    """
    if not isinstance(data, dict):
        raise ValueError(f"the document is {describe_json(data)}, not an object")
    agents = _field(data, "agents", list, "")
    if len(agents) < 2 or not all(isinstance(a, str) for a in agents) or len(set(agents)) < len(agents):
        raise ValueError("agents must list two or more distinct agent labels (strings)")
    for i, entry in enumerate(_field(data, "configurations", list, "")):
        where = f"configurations[{i}]"
        if not isinstance(entry, dict):
            raise ValueError(f"{where} is {describe_json(entry)}, not an object")
        _field(entry, "config", str, where)
        games = _field(entry, "games", list, where)
        if not _field(entry, "playable", bool, where, default=True):
            continue  # its games (none) are never replayed
        try:
            game = _game_of(entry)
        except ValueError as error:
            raise ValueError(f"{where}.config: {error}") from None
        for j, record in enumerate(games):
            _check_game(record, game, agents, f"{where}.games[{j}]")
    return True


def _check_game(record: Any, game: Any, agents: Sequence[str], where: str) -> None:
    """ValueError naming the first field of a game ``record`` that this script cannot use."""
    if not isinstance(record, dict):
        raise ValueError(f"{where} is {describe_json(record)}, not an object")
    players = [_field(record, key, str, where) for key in ("first", "second")]
    if players[0] == players[1] or not all(p in agents for p in players):
        raise ValueError(f"{where}: 'first' and 'second' must be two of the agents {', '.join(agents)}")
    if "winner" not in record:
        raise ValueError(f"{where}.winner is missing")
    winner = record["winner"]
    if winner is not None and (isinstance(winner, bool) or winner not in (0, 1)):
        raise ValueError(f"{where}.winner is {describe_json(winner)}, not 0 (the first player), 1 or null (a draw)")
    _field(record, "reason", str, where)
    try:
        game.position(_field(record, "moves", list, where))
    except ValueError as error:  # IllegalMoveError: a cell given twice or off the board, a move after the end
        raise ValueError(f"{where}.moves: {error}") from None


def _field(data: dict[str, Any], key: str, kind: type, where: str, default: Any = None) -> Any:
    """``data[key]`` if it is a ``kind`` (str, list or bool); ``default`` if missing and one is given."""
    name = f"{where}.{key}" if where else key
    if key not in data:
        if default is not None:
            return default
        raise ValueError(f"{name} is missing")
    value = data[key]
    if not isinstance(value, kind):
        raise ValueError(f"{name} is {describe_json(value)}, not {_TYPE_NAMES[kind]}")
    return value


_TYPE_NAMES = {str: "a string", list: "a list", bool: "true or false"}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scripts.tournament_mistakes", description=__doc__.split("\n\n")[0])
    parser.add_argument("tournament", type=Path, help="JSON written by python -m scripts.mnk_tournament --out")
    parser.add_argument("--agent", default="A", help="the agent whose chances are checked: A, B, ... or its label (default A)")
    parser.add_argument("--configs", nargs="+", metavar="M,N,K", help="configurations to check (default: all played)")
    threat_search_options(parser, DEFAULT_NODES, DEFAULT_DEPTH)
    parser.add_argument("--think", metavar="SPEC",
                        help="also search each position with this alpha-beta spec (e.g. alphabeta:time_ms=3000) "
                             "and count a win score")  # fmt: skip
    return parser


def _load(parser: argparse.ArgumentParser, path: Path) -> dict[str, Any]:
    return load_report(parser, path, check_tournament, "python -m scripts.mnk_tournament --out")  # type: ignore[no-any-return]


def _check_think(parser: argparse.ArgumentParser, spec: Optional[str], entries: Sequence[dict[str, Any]]) -> None:
    """Exit 2 unless ``spec`` builds, on every configuration to check, an agent that reports a search score."""
    if spec is None:
        return
    for entry in entries:
        try:
            agent = make_agent(spec, _game_of(entry))
        except ValueError as error:  # a malformed spec, a budget out of range, or a key this board's agent refuses
            parser.error(f"--think on {entry['config']}: {error}")
        if not hasattr(agent, "last_result"):
            parser.error(f"--think: {spec!r} reports no search score; use an alphabeta spec")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Print where the agent had a forced win; 0 on success, 2 on bad arguments, 130 on Ctrl-C."""
    return run_interruptible("scripts.tournament_mistakes", _main, argv)


def _main(argv: Optional[Sequence[str]]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    data = _load(parser, args.tournament)
    try:
        label = agent_label(data, args.agent)
    except ValueError as error:
        parser.error(f"--agent: {error}")
    entries = [c for c in data["configurations"] if c.get("playable", True)]
    if args.configs is not None:
        played = {c["config"] for c in entries}
        unknown = [c for c in args.configs if c not in played]
        if unknown:
            parser.error(f"--configs: {', '.join(unknown)} not played in {str(args.tournament)!r} "
                         f"(played: {' '.join(sorted(played)) or 'none'})")  # fmt: skip
        entries = [c for c in entries if c["config"] in args.configs]
    _check_think(parser, args.think, entries)
    print(f"Agent {label}: positions right after its opponent's move where it could force a win "
          f"(threat-space search, {args.nodes:,} moves{'; ' + args.think if args.think else ''})")  # fmt: skip
    positions = found = 0
    for entry in entries:
        checked, lines = check_configuration(entry, label, args.nodes, args.depth, args.think)
        positions, found = positions + checked, found + len(lines)
        print(f"{entry['config']}: {checked} positions checked, a win in {len(lines)} game(s)", flush=True)
        for line in lines:
            print(line, flush=True)
    print(f"{len(entries)} configuration(s), {positions} positions: a forced win for {label} showed in {found} game(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
