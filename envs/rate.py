"""``python -m envs.rate``: a player's Elo on the rating ladder, with its 95% interval and per-rung scores.

Examples::

    python -m envs.rate "alphabeta:depth=2"                       # an agent spec (or a weight file)
    python -m envs.rate runs/ppo/connect4.zip --games 400         # a MaskablePPO / PPO policy
    python -m envs.rate d1-eps50 --rungs random,d1-eps25          # a rung by name, against chosen rungs
    python -m envs.rate --calibrate --calibration-pairs 400 --workers 2   # re-run the round robin, rewrite the data

The ladder is the shipped ``envs/data/ladder-<game>.json`` (or ``--ladder``);
``--calibrate`` replays its round robin and writes the file atomically (to
``--ladder`` if given).  Exit status: 0, 2 for bad arguments, 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
from pathlib import Path
from typing import Optional, Sequence

from envs.rating import LADDERS, calibrate, ladder_path, load_ladder, rate
from games import GAME_KINDS, GameError, make_game
from search.agent_spec import AgentSpecError


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer >= 1") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer >= 1")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a non-negative integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a non-negative integer")
    return value


def _check_writable(path: Path) -> None:
    """Raise OSError unless a file can be created in ``path``'s folder (created if missing)."""
    if path.is_dir():
        raise OSError(f"--ladder {str(path)!r} is a folder, not a file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except OSError as error:
        raise OSError(f"--ladder {str(path)!r} cannot be written: {error.strerror} ({error.filename})") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m envs.rate", description=__doc__.splitlines()[0].strip("`: "))
    parser.add_argument("player", nargs="?",
                        help="an agent spec, a weight file (a path or a shipped name, python -m weights --list), "
                             "an SB3 .zip policy, or a rung's name")  # fmt: skip
    parser.add_argument("--game", default="connect4", choices=GAME_KINDS,
                        help=f"the game (ladders: {', '.join(LADDERS)}; default connect4)")  # fmt: skip
    parser.add_argument("--rows", type=int)
    parser.add_argument("--cols", type=int)
    parser.add_argument("--k", type=int)
    parser.add_argument("--games", type=_count, default=200, help="games the player plays (default 200)")
    parser.add_argument("--batch", type=_count, default=10, help="pairs per round against one rung (default 10)")
    parser.add_argument("--rungs", help="comma-separated rung names to play in turn (default: the rung nearest the estimate)")
    parser.add_argument("--seed", type=_seed, default=0, help="seed of the openings and the agents (default 0)")
    parser.add_argument("--ladder", help="a ladder file to read (or, with --calibrate, to write)")
    parser.add_argument("--calibrate", action="store_true", help="re-run the ladder's round robin and write its file")
    parser.add_argument("--calibration-pairs", type=_count, default=400,
                        help="pairs between neighbouring rungs in the round robin (default 400)")  # fmt: skip
    parser.add_argument("--workers", type=_count, default=1, help="processes for the round robin (default 1)")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``python -m envs.rate``; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.player is None and not args.calibrate:
        parser.error("give a player to rate (an agent spec, weight file, .zip policy or rung name), or --calibrate")
    try:
        try:
            game = make_game(args.game, args.rows, args.cols, args.k)
            if args.calibrate:
                target = Path(args.ladder) if args.ladder else ladder_path(game)
                _check_writable(target)  # before minutes of games, not after
                command = "python -m envs.rate " + shlex.join(sys.argv[1:] if argv is None else argv)
                ladder = calibrate(game, pairs=args.calibration_pairs, seed=args.seed, workers=args.workers,
                                   command=command)  # fmt: skip
                ladder.save(target)
                print(f"wrote {target}: {ladder.header['games_played']} games")
                for rung, elo, low, high in zip(ladder.rungs, ladder.elo, ladder.low, ladder.high):
                    print(f"  {rung.name:12s} {elo:+7.0f}  [{low:+.0f}, {high:+.0f}]")
            else:
                ladder = load_ladder(game, args.ladder)
            if args.player is not None:
                rungs = [r.strip() for r in args.rungs.split(",")] if args.rungs else None
                rating = rate(args.player, ladder, games=args.games, seed=args.seed, batch=args.batch, rungs=rungs,
                              name=args.player)  # fmt: skip
                print(rating.report())
        except (AgentSpecError, GameError, ValueError, TypeError, OSError) as error:
            parser.error(str(error).splitlines()[0])
    except KeyboardInterrupt:
        print("envs.rate: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
