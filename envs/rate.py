"""python -m envs.rate: a player's Elo on the rating ladder, with its 95% interval and per-rung scores.

Examples::

    python -m envs.rate "alphabeta:depth=2"                       # an agent spec (or a weight file)
    python -m envs.rate runs/ppo/connect4.zip --games 400         # a MaskablePPO / PPO policy (nothing in it runs)
    python -m envs.rate d1-eps50 --rungs random,d1-eps25          # a rung by name, against chosen rungs
    python -m envs.rate --calibrate --calibration-pairs 400 --workers 2   # re-run the round robin, rewrite the data

The ladder is the shipped ``envs/data/ladder-<game>.json`` (or ``--ladder``);
``--calibrate`` replays its round robin and writes the file atomically (to
``--ladder`` if given), then rates the player, if one is given, on the new
ladder.  A player that is one of the rungs is rated against the other rungs.
A ``.zip`` policy is loaded without running code from the file (:mod:`envs.models`);
``--trust-model`` loads it with stable-baselines3's own loader instead, which
runs the Python objects pickled in it: only for a file you trust.
Exit status: 0, 2 for bad arguments, 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import tempfile
from pathlib import Path
from typing import Callable, Optional, Sequence

from envs._players import PolicyAgent, sb3_policy
from envs._rounds import MAX_GAMES
from envs.rating import LADDERS, as_agent, calibrate, ladder_path, load_ladder, rate
from games import GAME_KINDS, GameError, make_game
from search.agents.spec import AgentSpecError


def _count(most: int) -> Callable[[str], int]:
    """An argparse type: an ASCII integer from 1 to ``most`` (a count beyond what this machine can play is refused)."""

    def count(text: str) -> int:
        if not text.isascii() or not text.strip().isdigit() or not 1 <= int(text) <= most:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer from 1 to {most:,}")
        return int(text)

    return count


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
    summary = __doc__.splitlines()[0].partition(": ")[2]
    description = summary[:1].upper() + summary[1:]
    parser = argparse.ArgumentParser(prog="python -m envs.rate", description=description)
    parser.add_argument("player", nargs="?",
                        help="an agent spec, a weight file (a path or a shipped name, python -m weights --list), "
                             "an SB3 .zip policy, or a rung's name")  # fmt: skip
    parser.add_argument("--trust-model", action="store_true",
                        help="load an SB3 .zip with stable-baselines3's own loader, which runs the Python objects "
                             "pickled in the file: only for a file you trust (default: only its weights and plain "
                             "settings are read, nothing in it runs)")  # fmt: skip
    parser.add_argument("--game", default="connect4", choices=GAME_KINDS,
                        help=f"the game (ladders: {', '.join(LADDERS)}; default connect4)")  # fmt: skip
    parser.add_argument("--rows", type=int)
    parser.add_argument("--cols", type=int)
    parser.add_argument("--k", type=int)
    parser.add_argument("--games", type=_count(MAX_GAMES),
                        help="games the player plays, an even number (default 200)")  # fmt: skip
    parser.add_argument("--batch", type=_count(MAX_GAMES // 2),
                        help="pairs per round against one rung (default 10; the last round plays what is left)")  # fmt: skip
    parser.add_argument("--rungs", help="comma-separated rung names to play in turn (default: the rung nearest the estimate)")
    parser.add_argument("--seed", type=_seed, default=0, help="seed of the openings and the agents (default 0)")
    parser.add_argument("--ladder", help="a ladder file to read (or, with --calibrate, to write)")
    parser.add_argument("--calibrate", action="store_true", help="re-run the ladder's round robin and write its file")
    parser.add_argument("--calibration-pairs", type=_count(MAX_GAMES // 2),
                        help="pairs between neighbouring rungs in the round robin (default 400)")  # fmt: skip
    parser.add_argument("--workers", type=_count(os.cpu_count() or 1),
                        help="processes for the round robin (default 1, at most the cores)")  # fmt: skip
    return parser


def _refuse_unused(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Exit 2 on an option that would be silently ignored (calibration options without --calibrate, and so on)."""
    if not args.calibrate:
        for option in ("calibration_pairs", "workers"):
            if getattr(args, option) is not None:
                parser.error(f"--{option.replace('_', '-')} applies to --calibrate only")
    if args.player is None:
        for option in ("games", "batch", "rungs"):
            if getattr(args, option) is not None:
                parser.error(f"--{option} applies to rating a player: give one")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``python -m envs.rate``; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.player is None and not args.calibrate:
        parser.error("give a player to rate (an agent spec, weight file, .zip policy or rung name), or --calibrate")
    _refuse_unused(parser, args)
    games, batch = args.games or 200, args.batch or 10
    if games % 2:
        parser.error(f"argument --games: {games} is odd: games are played in pairs (each opening with both colours): "
                     "give an even number, at least 2")  # fmt: skip
    rungs = None if args.rungs is None else [r.strip() for r in args.rungs.split(",")]
    if rungs is not None and not all(rungs):
        parser.error(f"argument --rungs: {args.rungs!r} has an empty rung name: give comma-separated rung names")
    try:
        try:
            game = make_game(args.game, args.rows, args.cols, args.k)
            player = args.player
            if args.trust_model:
                if player is None or not player.endswith(".zip"):
                    parser.error("--trust-model applies to an SB3 .zip player only")
                player = PolicyAgent(sb3_policy(player, trusted=True), game, name=Path(player).name)
            if args.calibrate:
                target = Path(args.ladder) if args.ladder else ladder_path(game)
                _check_writable(target)  # before minutes of games, not after
                if player is not None:
                    as_agent(player, game)  # a bad player too
                command = "python -m envs.rate " + shlex.join(sys.argv[1:] if argv is None else argv)
                ladder = calibrate(game, pairs=args.calibration_pairs or 400, seed=args.seed, workers=args.workers or 1,
                                   command=command)  # fmt: skip
                ladder.save(target)
                print(f"wrote {target}: {ladder.header['games_played']} games")
                for rung, elo, low, high in zip(ladder.rungs, ladder.elo, ladder.low, ladder.high):
                    print(f"  {rung.name:12s} {elo:+7.0f}  [{low:+.0f}, {high:+.0f}]")
            else:
                ladder = load_ladder(game, args.ladder)
            if args.player is not None:
                on = "the new ladder" if args.calibrate else f"the {ladder.game} ladder"
                print(f"envs.rate: rating {args.player} on {on} ({games} games)", file=sys.stderr, flush=True)
                rating = rate(player, ladder, games=games, seed=args.seed, batch=batch, rungs=rungs, name=args.player)
                print(rating.report())
        except (AgentSpecError, GameError, ValueError, TypeError, OSError) as error:
            parser.error(str(error).splitlines()[0])
    except KeyboardInterrupt:
        print("envs.rate: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
