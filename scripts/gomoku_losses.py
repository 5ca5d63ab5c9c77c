"""Where agent A's lost games of a gomoku match went wrong: the first move of A's after which the opponent proves a VCT.

Reads the JSON of ``python -m scripts.gomoku_match --out`` and replays each game agent A lost.  After each of
A's moves (the opening's stones excluded) the opponent, to move, looks for a forced win by fours and threes
(:func:`search.gomoku.threats.find_vct`, ``--nodes`` moves); the first move after which it finds one is where the game
was lost to an attack a threat search proves, and the moves it took to prove say how big a check would have
seen it.  A game with no such move was lost to something else (a slower attack, a quiet move).  Prints one line
per lost game and a summary of the proof sizes.  ``--alternatives`` also tries each of A's moves within two cells
of a stone at that point: if none leaves the opponent without a proved VCT, no check of the move could have saved
the game, and the mistake came earlier (a move after which the opponent's quiet reply prepares the attack)::

    python -m scripts.gomoku_match alphabeta --boards 15,15,5 15,15,5x 20,20,5 --openings 3 --out runs/match
    python -m scripts.gomoku_losses runs/match.json
    python -m scripts.gomoku_losses runs/match.json --alternatives --nodes 50000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Optional, Sequence

import numpy as np
from scipy.ndimage import binary_dilation

from games import MNK
from scripts._args import load_report, run_interruptible, threat_search_options
from scripts.gomoku_match import board_type
from search.gomoku.threats import find_vct

DEFAULT_NODES = 200_000
"""Moves each threat search may try (about 0.7 s on 15x15 when it finds nothing)."""
DEFAULT_DEPTH = 25
"""Longest VCT looked for, in plies (the attacks that decided games at 1 s a move were 7 to 13 plies long)."""


def first_losing_move(game: MNK, moves: Sequence[int], opening: int, colour: int, nodes: int,
                      depth: int = DEFAULT_DEPTH) -> Optional[tuple[int, int, int]]:  # fmt: skip
    """``(ply, VCT plies, moves tried)`` of the first move of ``colour`` (0 first player) after ply ``opening`` after
    which the opponent proves a VCT of at most ``depth`` plies within ``nodes``, or None."""
    position = game.position(list(moves[:opening]))
    for ply in range(opening, len(moves)):
        position.play(moves[ply])
        if position.is_terminal():
            return None
        if ply % 2 != colour:
            continue
        found = find_vct(position, nodes=nodes, max_depth=depth)
        if found.win:
            return ply, found.plies, found.nodes
    return None


def near_moves(game: MNK, moves: Sequence[int]) -> list[int]:
    """The empty cells within two rows and columns of a stone after ``moves`` (every cell on an empty board)."""
    stones = np.zeros((game.rows, game.cols), dtype=bool)
    for cell in moves:
        stones[divmod(cell, game.cols)] = True
    if not stones.any():
        return list(range(game.n_cells))
    near = binary_dilation(stones, structure=np.ones((5, 5), dtype=bool))  # a 5x5 square around each stone
    return [int(c) for c in np.flatnonzero(near & ~stones)]


def safe_alternatives(game: MNK, moves: Sequence[int], ply: int, nodes: int, depth: int) -> tuple[int, int]:
    """``(safe, tried)``: of the moves near a stone (:func:`near_moves`) the side to move at ``ply`` could have
    played, how many leave the opponent no VCT proved within ``nodes`` and ``depth`` (a move that wins is safe)."""
    before = game.position(list(moves[:ply]))
    candidates = near_moves(game, moves[:ply])
    safe = 0
    for cell in candidates:
        after = before.copy()
        after.play(cell)
        safe += after.is_terminal() or not find_vct(after, nodes=nodes, max_depth=depth).win
    return safe, len(candidates)


def lost_games(data: dict[str, Any]) -> list[tuple[str, int, dict[str, Any], int, int]]:
    """``(board, opening number, game, A's colour, opening stones)`` of every game A lost in a match's JSON."""
    lost = []
    for board in data["boards"]:
        for index, (game, score) in enumerate(zip(board["games"], board["scores"])):
            if score == 0.0:
                stones = len(board["openings"][index // 2])
                colour = (stones + (0 if game["first"] == "A" else 1)) % 2  # "first" moves first after the opening
                lost.append((board["board"], index // 2, game, colour, stones))
    return lost


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scripts.gomoku_losses", description=__doc__.split("\n\n")[0])
    parser.add_argument("matches", nargs="+", type=Path, help="JSON files written by python -m scripts.gomoku_match --out")
    threat_search_options(parser, DEFAULT_NODES, DEFAULT_DEPTH)
    parser.add_argument("--alternatives", action="store_true",
                        help="also count A's moves near a stone at that point that leave no proved VCT (one threat search "
                             "per move: slow; a smaller --nodes helps)")  # fmt: skip
    return parser


def _load(parser: argparse.ArgumentParser, path: Path) -> dict[str, Any]:
    return load_report(parser, path, lambda data: all({"board", "games", "scores", "openings"} <= set(b) for b in data["boards"]),
                       "python -m scripts.gomoku_match --out")  # fmt: skip


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Print A's lost games and where each was lost; 0 on success, 2 on bad arguments, 130 on Ctrl-C."""
    return run_interruptible("scripts.gomoku_losses", _main, argv)


def _main(argv: Optional[Sequence[str]]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    proofs: list[int] = []
    count = unsaved = 0
    for path in args.matches:
        for board, opening, record, colour, stones in lost_games(_load(parser, path)):
            count += 1
            game = board_type(board).game()
            found = first_losing_move(game, record["moves"], stones, colour, args.nodes, args.depth)
            where = "no proved VCT of the opponent's"
            if found is not None:
                ply, plies, tried = found
                proofs.append(tried)
                where = f"ply {ply + 1} {game.format_moves([record['moves'][ply]])}: the opponent's VCT of {plies} plies, {tried:,} moves to prove"
                if args.alternatives:
                    safe, near = safe_alternatives(game, record["moves"], ply, args.nodes, args.depth)
                    unsaved += safe == 0
                    where += f"; {safe} of {near} moves near a stone leave none proved"
            print(f"{path.name} {board} opening {opening} A {'first' if record['first'] == 'A' else 'second'}, "
                  f"{len(record['moves'])} plies: {where}")  # fmt: skip
    proofs.sort()
    sizes = f"; moves to prove: {proofs[0]:,} to {proofs[-1]:,}, median {proofs[len(proofs) // 2]:,}" if proofs else ""
    earlier = f"; {unsaved} of them with no move near a stone that leaves none (lost earlier)" if args.alternatives else ""
    print(f"{count} games lost by A; {len(proofs)} after a move that left the opponent a VCT proved within "
          f"{args.nodes:,} moves{sizes}{earlier}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
