"""``python -m arena.record``: play a match as ``python -m tuning.match`` does, and keep every game's moves in a JSON file.

``tuning.match`` reports statistics only; this plays the same games (the same openings from the same
seed, each played twice with colours swapped, the same per-game agent seeds, so the same moves wherever
the budgets are not clocks) and writes them, atomically, for the Watch view to replay::

    python -m arena.record "alphabeta:depth=4" "alphabeta:depth=2" --pairs 10 --out runs/match-games.json
    python -m arena.record connect4-threats-tuned rules --game connect4 --pairs 4 --out games.json

The file: ``{"format": "alphabeta-gym match games", "game": {...}, "A": spec, "B": spec, "seed": S,
"plies": P, "score": A's mean score, "games": [{"pair", "first", "second", "winner" (0 first, 1 second,
null draw), "moves" (actions from the empty board, the opening included), "opening_plies"}]}``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Optional, Sequence

from arena import _engine as engine
from arena.replay import MATCH_FORMAT


def play_pair_recorded(game: engine.KInARow, specs: tuple[str, str], opening: Sequence[int], seed: int,
                       index: int) -> list[dict[str, Any]]:  # fmt: skip
    """The two games of pair ``index`` as ``tuning.match`` plays them, with their moves."""
    records = []
    for game_number in (0, 1):
        a = engine.cached_agent(game, specs[0], 0, engine.pair_seed(seed, index, game_number, 0))
        b = engine.cached_agent(game, specs[1], 1, engine.pair_seed(seed, index, game_number, 1))
        first, second = (a, b) if game_number == 0 else (b, a)
        labels = ("A", "B") if game_number == 0 else ("B", "A")
        position = game.position(list(opening))
        agents = (first, second)
        side = 0
        while not position.is_terminal():
            position.play(agents[side].select_move(position))
            side = 1 - side
        mover = len(opening) % 2  # the colour of the side to move after the opening: "first" in the record
        winner = None if position.winner is None else (0 if position.winner == mover else 1)
        spec_of = {"A": specs[0], "B": specs[1]}
        records.append({"pair": index, "first": f"{labels[0]}: {spec_of[labels[0]]}",
                        "second": f"{labels[1]}: {spec_of[labels[1]]}", "winner": winner,
                        "moves": position.moves, "opening_plies": len(opening)})  # fmt: skip
    return records


def record_match(game: engine.KInARow, specs: tuple[str, str], pairs: int, plies: int = 4, seed: int = 0) -> dict[str, Any]:
    """Play ``pairs`` pairs and return the file's content (module docstring).

    Raises:
        AgentSpecError, ValueError: a spec that cannot play ``game``.
    """
    for spec in specs:
        engine.make_agent(spec, game)
    book = engine.make_openings(game, count=min(pairs, 500), plies=plies, seed=seed, heldout=0.0)
    games: list[dict[str, Any]] = []
    for index in range(pairs):
        games += play_pair_recorded(game, specs, book.tuning[index % len(book.tuning)], seed, index)
    points = [(1.0 if g["winner"] == 0 else 0.0 if g["winner"] == 1 else 0.5) for g in games]
    a_points = [p if i % 2 == 0 else 1.0 - p for i, p in enumerate(points)]  # A moves first in a pair's first game
    return {"format": MATCH_FORMAT, "game": game.to_record(), "A": specs[0], "B": specs[1], "seed": seed, "plies": plies,
            "score": sum(a_points) / len(a_points), "games": games}  # fmt: skip


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Play and write the file; 0 on success, 2 on bad arguments, 130 on Ctrl-C (nothing written)."""
    parser = argparse.ArgumentParser(prog="python -m arena.record", description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="agent spec or shipped weight file of A")
    parser.add_argument("b", help="agent spec or shipped weight file of B")
    engine.add_game_arguments(parser)
    parser.add_argument("--pairs", type=int, default=10, help="game pairs (default 10)")
    parser.add_argument("--plies", type=int, default=4, help="random plies per opening (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="seeds the openings and the agents (default 0)")
    parser.add_argument("--out", required=True, help="the JSON file to write (atomically)")
    args = parser.parse_args(argv)
    game = engine.game_from_args(parser, args)
    if not 1 <= args.pairs <= 100_000:
        parser.error(f"--pairs {args.pairs} must be from 1 to 100000")
    out = Path(args.out)
    if not out.parent.is_dir():
        parser.error(f"--out {args.out}: folder {str(out.parent)!r} does not exist")
    try:
        data = record_match(game, (args.a, args.b), args.pairs, args.plies, args.seed)
    except (engine.AgentSpecError, ValueError) as error:
        parser.error(str(error))
    except KeyboardInterrupt:
        print("arena.record: interrupted; nothing written", file=sys.stderr)
        return 130
    engine.write_text_atomic(out, json.dumps(data, indent=1) + "\n")
    print(f"{len(data['games'])} games, A scored {data['score']:.3f}: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
