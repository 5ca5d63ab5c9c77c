"""``python -m games.perft``: count move sequences and distinct positions per ply.

The standard debugging tool of a move generator, and this project's test
oracle (see :func:`games.perft` for what is counted and the known values).

Examples::

    python -m games.perft connect4 --depth 8
    python -m games.perft mnk --rows 3 --cols 3 --k 3 --depth 9
    python -m games.perft connect4 --rows 5 --cols 4 --moves 2233 --depth 6

Bad arguments (sizes, move strings, depth) print a usage error and exit 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Optional, Sequence

from games._perft import perft
from games.cli import add_game_arguments, game_from_args
from games.errors import GameError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.perft",
        description="Count move sequences and distinct positions per ply (games stop at a win or a full board).",
    )
    add_game_arguments(parser, positional=True)
    parser.add_argument("--depth", type=int, required=True, help="plies to count, 0 or more")
    parser.add_argument("--moves", default="", help="start from this move string instead of the empty board")
    parser.add_argument("--no-bitboard", action="store_true", help="walk int8 arrays even where a bitboard fits")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the perft command line; return the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.depth < 0:
        parser.error(f"--depth {args.depth}: the depth must be 0 or more")
    try:
        game = game_from_args(parser, args)
        position = game.position(args.moves)
    except GameError as exc:
        parser.error(str(exc))
    started = time.perf_counter()
    rows = perft(position, args.depth, bitboard=False if args.no_bitboard else None)
    elapsed = time.perf_counter() - started
    print(f"# perft {game}, from {position.move_string() or 'the empty board'!r}")
    print(f"{'ply':>4} {'sequences':>16} {'positions':>14} {'wins':>14} {'draws':>12}")
    for row in rows:
        print(f"{row.ply:>4} {row.sequences:>16} {row.positions:>14} {row.wins:>14} {row.draws:>12}")
    ended = sum(r.wins + r.draws for r in rows)
    distinct = 1 + sum(r.positions for r in rows)
    complete = bool(rows) and rows[-1].sequences == rows[-1].wins + rows[-1].draws
    print(f"# {ended} games ended within {len(rows)} plies; {distinct} distinct positions including the start")
    if complete or position.is_terminal():
        print("# the game tree is exhausted: every game has ended")
    print(f"# {elapsed:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
