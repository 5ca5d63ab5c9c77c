"""Train sb3-contrib MaskablePPO on alphabeta/Connect4-v0: against the random opponent, then alpha-beta depth 1.

The curriculum: ``--random-steps`` steps against ``random``, then
``--alphabeta-steps`` against ``alphabeta:depth=1`` (it plays a winning move
when there is one and blocks an immediate threat).  Sides are drawn at random
every episode.  Before training and after each phase the policy
(deterministic, masked) plays ``--eval-games`` games (default 200, seeds
fixed, sides random) against both opponents; the table gives win / draw /
loss rates with a 95% Wilson interval on the win rate, and the policy's Elo
on the rating ladder (:mod:`envs.rating`: random = 0, with its 95% interval,
from ``--ladder-games`` paired games against the rungs nearest its strength).

Needs the ``rl`` extra: ``pip install -e ".[rl]"`` (CPU-only machines: install
the CPU wheel of torch first, see the README).  Run it as::

    python -m scripts.train_maskable_ppo --markdown --save runs/ppo/connect4.zip

``--save`` is checked before training starts and written atomically.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Optional, Sequence

import gymnasium as gym

import envs  # noqa: F401  (registers the alphabeta/ environments)
from envs.rating import load_ladder, rate
from games import CONNECT4
from scripts._args import non_negative_int, positive_int, writable_file
from scripts._files import atomic_path
from scripts._report import print_machine_and_command, print_table
from tuning.stats import wilson

ENV_ID = "envs:alphabeta/Connect4-v0"  # "envs:" imports the package inside SB3's worker processes too
OPPONENTS = ("random", "alphabeta:depth=1")


def evaluate(model: Any, opponent: str, games: int, seed: int) -> tuple[int, int, int]:
    """Wins, draws and losses of the masked deterministic policy over ``games`` seeded games (random sides)."""
    env = gym.make(ENV_ID, opponent=opponent, agent_plays="random", illegal_action="raise")
    counts = [0, 0, 0]
    for game in range(games):
        obs, _ = env.reset(seed=seed + game)
        terminated, reward = False, 0.0
        while not terminated:
            action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
            obs, reward, terminated, _, _ = env.step(int(action))
        counts[0 if reward > 0 else (1 if reward == 0 else 2)] += 1
    return counts[0], counts[1], counts[2]


def ladder_elo(model: Any, games: int, seed: int) -> str:
    """The masked deterministic policy's Elo on the Connect-4 ladder with its 95% interval (``-`` when ``games`` is 0)."""
    if games == 0:
        return "-"

    def policy(observation: Any, mask: Any) -> int:
        return int(model.predict(observation, action_masks=mask.astype(bool), deterministic=True)[0])

    rating = rate(policy, load_ladder(CONNECT4), games=games, seed=seed)
    return f"{rating.elo:+.0f} [{rating.low:+.0f}, {rating.high:+.0f}]"


def make_env(opponent: str, n_envs: int, seed: int) -> Any:
    """SB3's vectorised env of ``n_envs`` copies (masks reach MaskablePPO through ``action_masks()``)."""
    from stable_baselines3.common.env_util import make_vec_env

    return make_vec_env(ENV_ID, n_envs=n_envs, seed=seed, env_kwargs={"opponent": opponent, "agent_plays": "random"})


def model_path(text: str) -> Path:
    """``--save``: a writable file path, ``.zip`` appended when it has no suffix (SB3 would: the check is on the real file)."""
    return writable_file(text if Path(text).suffix else f"{text}.zip")


def describe(counts: tuple[int, int, int]) -> str:
    wins, draws, losses = counts
    games = wins + draws + losses
    low, high = wilson(wins, games)
    return f"{wins / games:.1%} [{low:.0%}, {high:.0%}] / {draws / games:.0%} / {losses / games:.0%}"


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Train, evaluate before and after each phase, print the table, the machine and the command line.

    Args:
        argv: command-line arguments without the program name (default: ``sys.argv[1:]``).

    Returns:
        The exit status, 0.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-steps", type=non_negative_int, default=150_000, help="steps against the random opponent")
    parser.add_argument("--alphabeta-steps", type=non_negative_int, default=150_000, help="steps against alphabeta:depth=1")
    parser.add_argument("--eval-games", type=positive_int, default=200, help="evaluation games per opponent (default 200)")
    parser.add_argument("--ladder-games", type=non_negative_int, default=100,
                        help="games for the ladder Elo of each evaluation (default 100; 0 skips it)")  # fmt: skip
    parser.add_argument("--n-envs", type=positive_int, default=8, help="parallel environments (default 8)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of the model, the envs and the evaluation")
    parser.add_argument("--save", type=model_path,
                        help="save the trained model to this path (.zip added if it has no suffix, as SB3 does; "
                        "checked before training)")  # fmt: skip
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = parser.parse_args(argv)
    if args.ladder_games % 2:
        parser.error(f"argument --ladder-games: '{args.ladder_games}' is not 0 or an even integer >= 2 "
                     "(games are played in pairs)")  # fmt: skip

    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)  # small networks: threads cost more than they bring on 2 cores
    model = MaskablePPO(
        "MlpPolicy", make_env(OPPONENTS[0], args.n_envs, args.seed), n_steps=256, batch_size=256, n_epochs=4,
        learning_rate=3e-4, gamma=0.99, ent_coef=0.01, policy_kwargs={"net_arch": [128, 128]}, seed=args.seed,
        device="cpu", verbose=0,
    )  # fmt: skip
    eval_seed = 10_000 + args.seed
    rows: list[tuple[str, ...]] = []

    def report(phase: str, seconds: float) -> None:
        results = [describe(evaluate(model, opponent, args.eval_games, eval_seed)) for opponent in OPPONENTS]
        elo = ladder_elo(model, args.ladder_games, eval_seed)
        rows.append((phase, f"{model.num_timesteps:,}", f"{seconds:.0f}", *results, elo))
        print(f"{phase}: " + "; ".join(f"vs {o}: {r}" for o, r in zip(OPPONENTS, results)) + f"; ladder Elo {elo}", flush=True)

    report("before training", 0.0)
    start = time.perf_counter()
    model.learn(total_timesteps=args.random_steps)
    report("after the random phase", time.perf_counter() - start)
    model.set_env(make_env(OPPONENTS[1], args.n_envs, args.seed + 1))
    start = time.perf_counter()
    model.learn(total_timesteps=args.alphabeta_steps, reset_num_timesteps=False)
    report("after the alphabeta:depth=1 phase", time.perf_counter() - start)
    if args.save is not None:
        with atomic_path(args.save) as temp:
            model.save(temp)

    print()
    header = ("policy", "steps", "train s", *(f"vs {o}: win [95% CI] / draw / loss" for o in OPPONENTS), "ladder Elo [95% CI]")
    print_table(header, rows, args.markdown)
    print(f"\n{args.eval_games} evaluation games per cell, seeds {eval_seed}..{eval_seed + args.eval_games - 1}, "
          "sides drawn at random, masked deterministic policy.")  # fmt: skip
    if args.ladder_games:
        print(f"Ladder Elo: {args.ladder_games} paired games against the rungs nearest the policy "
              "(python -m envs.rate; random = 0).")  # fmt: skip
    print_machine_and_command(argv, extra=f", torch {torch.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
