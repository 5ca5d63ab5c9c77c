"""Play a k-in-a-row game in the terminal against any agent, through the Gymnasium environment.

Usage::

    python -m envs.play connect4 --opponent alphabeta:depth=6
    python -m envs.play connect4 --opponent connect4-threats-tuned --you second   # a shipped weight file
    python -m envs.play mnk --rows 3 --cols 3 --k 3 --opponent rules
    python -m envs.play gomoku --opponent alphabeta:depth=2,radius=1

Moves use the game's notation: a column number for Connect-4 (``4``), a
cell name for m,n,k (``b2``: column letter, row counted from the bottom).
The board is redrawn after every move pair (yours and the opponent's); a bad or illegal move is
answered with the reason and asked again; ``q`` quits.  Reads standard
input, so moves can be piped in: ``printf '4\\n4\\n4\\n' | python -m envs.play connect4``.
Before the first move the opponent plays a few untimed warm-up positions
(:func:`search.agents.warmup.warm_up`); the first run after an install compiles
its kernels then, and says so ("preparing the opponent").
Exit status: 0 when the game ends or you quit, 1 if the input ends first,
2 for bad arguments, 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence, cast

import numpy as np

from envs.core import KInARowEnv
from envs.render import text_board
from games import GameError, IllegalMoveError, KInARow
from games.cli import add_game_arguments, game_from_args
from games.position import STONE_SYMBOLS
from search.agents.warmup import first_compile_seconds, warm_up
from search.protocol import Agent

DEFAULT_OPPONENTS = {"connect4": "alphabeta:depth=6"}
"""The opponent when ``--opponent`` is not given: alpha-beta for Connect-4, the rule-based player elsewhere."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m envs.play", description=__doc__.splitlines()[0])
    add_game_arguments(parser, positional=True)
    parser.add_argument("--opponent", help="an agent spec (alphabeta:depth=4, rules, random, ...), a weight file, or "
                                           "a shipped one's name (python -m weights --list) "
                                           "(default: alphabeta:depth=6 for Connect-4, rules otherwise)")  # fmt: skip
    parser.add_argument("--you", choices=("first", "second", "random"), default="first", help="your side (default first)")
    parser.add_argument("--seed", type=int, default=None, help="seed for who starts and the opponent's choices")
    return parser


def _prompt(game: KInARow) -> str:
    if game.gravity:
        return f"your move (column 1-{game.cols}, q to quit): "
    last = "abcdefghijklmnopqrstuvwxyz"[game.cols - 1]
    return f"your move (cell a1-{last}{game.rows}, q to quit): "


def _result(winner: int, you: int) -> str:
    if winner == -1:
        return "Draw."
    return "You win!" if winner == you else "You lose."


ENV_COMPILE_SECONDS = 5.0
"""About how long a cold cache makes the environment's own reset and step kernels compile (4 to 5 s measured)."""


def announce(spec: str, game: KInARow) -> None:
    """Say "preparing the opponent" when its kernels (and the env's) will compile: before the env is built,
    since building some agents (``perfect``) already compiles."""
    seconds = first_compile_seconds(spec, game)
    if seconds is not None:
        print(f"preparing the opponent (the first run compiles for about {seconds + ENV_COMPILE_SECONDS:.0f} s; "
              "later runs start at once) ...", flush=True)  # fmt: skip


def prepare(env: KInARowEnv) -> None:
    """Compile before the game: the env's reset and step kernels (a throwaway move), and the opponent's
    kernels (:func:`search.agents.warmup.warm_up`), so that the first reply comes at once."""
    env.reset()  # unseeded: the game's own reset(seed=...) decides who starts, as it did before
    env.step(int(np.flatnonzero(env.position().legal_mask())[0]))
    opponents = env._batch.opponents
    if opponents and opponents[0].is_agent:  # not the kernel's random player, nor a callable policy
        warm_up(cast(Agent, opponents[0].player), env.game)


def play(env: KInARowEnv, seed: Optional[int]) -> int:
    """Run one game on stdin/stdout; return the exit status (0 done or quit, 1 input ended)."""
    game = env.game
    _, info = env.reset(seed=seed)
    you = info["agent_player"]
    print(f"{game}: you play {STONE_SYMBOLS[you + 1]} ({'first' if you == 0 else 'second'}) against {env.opponent}.")
    if info["opponent_action"] >= 0:
        print(f"opponent played {game.format_move(info['opponent_action'])}")
    while True:
        print(text_board(env.position(), you, who="you"))
        while True:
            try:
                line = input(_prompt(game))
            except EOFError:
                print("\ninput ended before the game did", file=sys.stderr)
                return 1
            text = line.strip()
            if text.lower() in ("q", "quit", "exit"):
                print("bye")
                return 0
            try:
                _, _, terminated, _, info = env.step(game.parse_move(text))
            except (GameError, IllegalMoveError) as exc:
                print(f"not a legal move: {exc}")
                continue
            break
        if info["opponent_action"] >= 0:
            print(f"opponent played {game.format_move(info['opponent_action'])}")
        if terminated:
            print(text_board(env.position(), you, who="you"))
            print(_result(info["winner"], you))
            return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, build the environment and play one game.

    Args:
        argv: command-line arguments without the program name (default: ``sys.argv[1:]``).

    Returns:
        The exit status (0 game over or quit, 1 input ended, 2 bad arguments, 130 interrupted).
    """
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C at the prompt or while the opponent thinks: a short note, not a traceback
        print("\ninterrupted", file=sys.stderr)
        return 130  # 128 + SIGINT, as shells report it


def _main(argv: Sequence[str] | None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.seed is not None and args.seed < 0:
        parser.error(f"--seed {args.seed}: a seed must be a non-negative integer")
    try:
        game = game_from_args(parser, args)
        opponent = args.opponent or DEFAULT_OPPONENTS.get(game.kind, "rules")
        announce(opponent, game)
        env = KInARowEnv(game, opponent=opponent, agent_plays=args.you, illegal_action="raise")
    except (ValueError, TypeError) as exc:
        parser.error(str(exc))
    prepare(env)
    return play(env, args.seed)


if __name__ == "__main__":
    sys.exit(main())
