"""Rebuild the gomoku puzzle set (``search/gomoku/data/gomoku-puzzles.json``) from games between existing agents, reproducibly.

For each board (15,15,5 freestyle, 15,15,5 exact-k, 20,20,5 freestyle),
seeded games are played from a few random stones near the centre between
cheap agents that blunder into forced wins (a depth-2 alpha-beta without
threat search, with a random move now and then, against the same or the
rule-based player).  After every move the side to move's shortest VCF is
looked for (:func:`search.gomoku.threats.find_vcf`); the first position of a game
with one of at least 3 plies becomes a candidate, and it is kept if its
set of winning first moves (:func:`search.gomoku.puzzles.winning_moves`, every
move that keeps a proved VCF against every defence) is non-empty and at
most ``--most-winning`` moves (a position where almost anything wins
tests nothing).  Each board collects up to ``--per-length`` puzzles for
each VCF length 3, 5, 7, 9 and 11 or more.  The 15x15 boards then collect
``--vct-per-length`` VCT-only puzzles per length 5, 7, 9, 11+ the same way
(the attacker has no VCF; the shortest proved win uses threes; a winning
move keeps a proved VCF or VCT against every reply).  The same seed gives
the same file.

Run it from the repository root (several minutes)::

    python -m scripts.make_puzzles --seed 1 --out search/gomoku/data/gomoku-puzzles.json
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from games import MNK, Position
from scripts._args import int_range, non_negative_int, positive_int, writable_file
from scripts._files import write_text_atomic
from search.agents import AgentType, make_agent
from search.gomoku.puzzles import CHECK_NODES, VCT_CHECK_NODES, Puzzle, puzzles_json, winning_moves
from search.gomoku.threats import find_vcf, find_vct

BOARDS: tuple[tuple[int, int, int, bool, int], ...] = ((15, 15, 5, False, 1), (15, 15, 5, True, 1), (20, 20, 5, False, 2))
"""(rows, cols, k, exact_k, weight): the 20x20 board gets ``weight`` times fewer puzzles per length."""
LENGTHS = (3, 5, 7, 9, 11)
"""VCF length buckets (11 collects 11 and longer)."""
VCT_LENGTHS = (5, 7, 9, 11)
"""VCT length buckets (a VCT is at least 5 plies: a three, a reply, then a VCF of at least 3)."""
SPECS = ("alphabeta:heuristic=mics,radius=2,depth=2,tss_nodes=0,random_every=5", "rules")
"""The cheap players whose games the positions come from."""
OPENING_STONES = 4
"""Random stones placed within 3 cells of the centre before the agents play."""
SEARCH_NODES = 50_000
"""Node budget of the VCF search that finds candidates."""


def _bucket(plies: int) -> int:
    return min(plies, LENGTHS[-1])  # both kinds' last bucket is 11


def _opening(game: MNK, rng: np.random.Generator) -> Position:
    position = game.position()
    centre_r, centre_c = game.rows // 2, game.cols // 2
    while position.ply < OPENING_STONES:
        cell = (centre_r + int(rng.integers(-3, 4))) * game.cols + centre_c + int(rng.integers(-3, 4))
        if position.is_legal(cell):
            position.play(cell)
    return position


def _agents(game: MNK, rng: np.random.Generator) -> tuple[AgentType, AgentType]:
    first, second = SPECS[0], SPECS[int(rng.integers(len(SPECS)))]
    pair = (first, second) if rng.integers(2) else (second, first)
    return make_agent(pair[0], game, seed=int(rng.integers(1 << 30))), make_agent(pair[1], game, seed=int(rng.integers(1 << 30)))


def _first_win(game: MNK, rng: np.random.Generator, wanted: set[int], vct: bool) -> Optional[tuple[Position, int, tuple[int, ...]]]:
    """Play one game; the first position whose side to move has a forced win of at least 3 plies: a VCF, or with
    ``vct`` a VCT and no VCF.  None if that win's length is not ``wanted`` or the game has none."""
    position = _opening(game, rng)
    agents = _agents(game, rng)
    while not position.is_terminal():
        found = find_vcf(position, nodes=SEARCH_NODES)
        if vct and not found.win and found.complete:
            found = find_vct(position, nodes=SEARCH_NODES)
        elif vct and found.plies >= 3:
            return None  # a VCF came first in this game
        if found.win and found.plies >= 3:
            return (position.copy(), found.plies, found.line) if _bucket(found.plies) in wanted else None
        position.play(agents[position.ply & 1].select_move(position))
    return None


def _collect(game: MNK, rng: np.random.Generator, quota: int, vct: bool, args: argparse.Namespace,
             puzzles: list[Puzzle]) -> None:  # fmt: skip
    """Add up to ``quota`` puzzles per length bucket of ``game`` (VCF or VCT-only) to ``puzzles``."""
    kind = "vct" if vct else "vcf"
    lengths = VCT_LENGTHS if vct else LENGTHS
    counts = dict.fromkeys(lengths, 0)
    tag = f"{game.rows}x{game.cols}-{'exact' if game.exact_k else 'free'}-{kind}"
    for number in range(args.max_games):
        wanted = {length for length, n in counts.items() if n < quota}
        if not wanted:
            break
        found = _first_win(game, rng, wanted, vct)
        if found is None:
            continue
        position, plies, line = found
        winning = winning_moves(position, nodes=VCT_CHECK_NODES if vct else CHECK_NODES, hints=line, vct=vct,
                                most=args.most_winning)  # fmt: skip
        if not winning or len(winning) > args.most_winning or line[0] not in winning:
            continue
        counts[_bucket(plies)] += 1
        name = f"{tag}-{sum(p.name.startswith(tag) for p in puzzles) + 1:03d}"
        source = f"generated: {kind} game {number} of seed {args.seed} between {' and '.join(SPECS)}"
        puzzles.append(Puzzle(name, game, tuple(position.moves), plies, winning, line, source, kind))
        print(f"{name}: {kind} of {plies} plies, {len(winning)} winning moves", file=sys.stderr, flush=True)


def build(args: argparse.Namespace) -> list[Puzzle]:
    """The puzzle set (module docstring)."""
    rng = np.random.default_rng(args.seed)
    puzzles: list[Puzzle] = []
    for rows, cols, k, exact_k, weight in BOARDS:
        game = MNK(rows, cols, k, exact_k=exact_k)
        _collect(game, rng, max(1, args.per_length // weight), False, args, puzzles)
        if weight == 1 and args.vct_per_length > 0:
            _collect(game, rng, args.vct_per_length, True, args, puzzles)
    return puzzles


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Build the set and write it atomically; 0 on success, 2 on bad arguments, 130 on Ctrl-C (nothing written)."""
    parser = argparse.ArgumentParser(prog="python -m scripts.make_puzzles", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=non_negative_int, default=1, help="seeds every game (default 1)")
    parser.add_argument("--per-length", type=int_range(1, 1000), default=6,
                        help="puzzles per VCF length and board (default 6; 20x20 gets half)")  # fmt: skip
    parser.add_argument("--vct-per-length", type=int_range(0, 1000), default=2,
                        help="VCT-only puzzles per length on the 15x15 boards (default 2; 0: none)")  # fmt: skip
    parser.add_argument("--most-winning", type=positive_int, default=12,
                        help="skip positions with more winning first moves than this (default 12)")  # fmt: skip
    parser.add_argument("--max-games", type=positive_int, default=400, help="games per board at most (default 400)")
    parser.add_argument("--out", type=writable_file, default=Path("search/gomoku/data/gomoku-puzzles.json"),
                        help="the file to write (default search/gomoku/data/gomoku-puzzles.json)")  # fmt: skip
    args = parser.parse_args(argv)
    try:
        started = time.perf_counter()
        puzzles = build(args)
        meta = {"seed": args.seed, "per_length": args.per_length, "vct_per_length": args.vct_per_length,
                "most_winning": args.most_winning,
                "generator": "python -m scripts.make_puzzles"}  # fmt: skip
        write_text_atomic(args.out, puzzles_json(puzzles, meta))
    except KeyboardInterrupt:
        print("scripts.make_puzzles: interrupted", file=sys.stderr)
        return 130
    print(f"{len(puzzles)} puzzles written to {args.out} in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
