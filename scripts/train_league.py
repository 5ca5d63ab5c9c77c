"""Train a MaskablePPO CNN policy on Connect-4 6x7 against a league, within a wall-clock budget, and report it.

The learner plays the batched env through the SB3 adapter (:mod:`envs.sb3`,
``--boards`` boards, sides drawn at random every episode).  Every board's
opponent is drawn per episode from a league (:mod:`scripts._league_train`):
the fixed rungs ``random``, ``alphabeta:depth=1`` and ``alphabeta:depth=2``
(each searched for all its boards in one numba call) unlocked one by one by a
curriculum as the learner's score against the top rung passes
``--promote``, plus frozen snapshots of the learner itself (one every
``--snapshot-seconds``, the last ``--snapshots`` of them in play).  Every
training episode starts from a random opening of ``--opening-plies`` plies
played by the env for both sides before the learner's first decision (4 by
default, as the evaluation and the ladder: PPO only learns from moves its
policy chose).  With ``--mirror`` every other episode of a board is shown
mirrored.  Rewards are the game result only (+1 / 0 / -1).

``--minutes`` bounds everything but the final evaluation: start-up, the
ladder rating of the untrained policy and training.  Then the model is saved
(atomically) and the masked argmax of the network alone (no search at play
time) is evaluated: ``--eval-pairs`` paired games against
``alphabeta:depth=2`` (each from a random opening of ``--eval-plies`` plies, 4 by default as on the ladder,
played once with each colour; the opponent's tie-breaks are seeded per game),
with a 95% Wilson interval on the win rate, and the ladder Elo
(:mod:`envs.rating`) before and after.  Run it as::

    python -m scripts.train_league --minutes 30 --save runs/league/model.zip --out docs/results/train_league

which prints the Markdown report and, with ``--out``, writes it as
``<out>.md`` and ``<out>.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any, Optional, Sequence

import numpy as np

from scripts._args import int_range, non_negative_int, positive_float, positive_int, writable_file
from scripts._files import atomic_path, write_text_atomic
from tuning.stats import wilson

RUNGS = ("random", "alphabeta:depth=1,tt=4096", "alphabeta:depth=2,tt=4096")
"""The league's fixed rungs, weakest first (small tables: one per board)."""
TARGET = "alphabeta:depth=2"


def fraction(text: str) -> float:
    """An argparse type: a number from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number from 0 to 1") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number from 0 to 1")
    return value


def opening_range(text: str) -> tuple[int, int]:
    """``--opening-plies``: ``N`` or ``LOW-HIGH`` plies of random opening, within what the env allows on 6x7."""
    from envs._batch import max_opening_plies
    from games import CONNECT4

    top = max_opening_plies(CONNECT4)
    low, _, high = text.partition("-")
    try:
        pair = (int(low), int(high or low))
    except ValueError:
        pair = (-1, -1)
    if not 0 <= pair[0] <= pair[1] <= top:
        raise argparse.ArgumentTypeError(f"{text!r} is not N or LOW-HIGH with 0 <= LOW <= HIGH <= {top}")
    return pair


def model_path(text: str) -> Path:
    """``--save``: a writable ``.zip`` path (``.zip`` appended when missing, as SB3 does)."""
    return writable_file(text if text.endswith(".zip") else f"{text}.zip")


def parse_args(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    """The command line (bad values exit 2 with argparse's one-line message)."""
    parser = argparse.ArgumentParser(prog="python -m scripts.train_league", description=__doc__.splitlines()[0])
    add = parser.add_argument
    add("--minutes", type=positive_float, default=30.0, help="wall-clock budget of everything but the final evaluation")
    add("--boards", type=positive_int, default=256, help="boards of the batched env (default 256)")
    add("--n-steps", type=positive_int, default=32, help="steps per board per rollout (default 32)")
    add("--batch-size", type=positive_int, default=1024, help="minibatch (default 1024)")
    add("--epochs", type=positive_int, default=4, help="PPO epochs per rollout (default 4)")
    add("--lr", type=positive_float, default=3e-4, help="learning rate (default 3e-4)")
    add("--ent-coef", type=fraction, default=0.01, help="entropy bonus (default 0.01)")
    add("--gamma", type=fraction, default=0.99, help="discount (default 0.99)")
    add("--channels", type=positive_int, default=32, help="filters per convolution (default 32)")
    add("--layers", type=int_range(1, 8), default=3, help="convolutions (default 3)")
    add("--features", type=positive_int, default=128, help="units of the dense layer after the convolutions (default 128)")
    add("--mirror", action="store_true", help="show every other episode of a board mirrored (augmentation)")
    add("--opening-plies", type=opening_range, default=(4, 4),
        help="random plies (N or LOW-HIGH, drawn per episode) before the learner's first decision (default 4)")  # fmt: skip
    add("--opening-random", type=fraction, default=0.0,
        help="chance that the opponent's first move after the opening is random (default 0)")  # fmt: skip
    add("--promote", type=fraction, default=0.55, help="score against the top rung that unlocks the next (default 0.55)")
    add("--snapshot-seconds", type=positive_float, default=120.0, help="seconds between snapshots of the learner")
    add("--snapshots", type=non_negative_int, default=4, help="latest snapshots in play (0: none; default 4)")
    add("--threads", type=positive_int, default=2, help="torch threads (default 2: the machine's two cores)")
    add("--eval-pairs", type=positive_int, default=200, help="paired games against alphabeta:depth=2 (default 200)")
    add(
        "--eval-plies", type=int_range(0, 8), default=4, help="random plies of each evaluation opening (default 4, as the ladder)"
    )
    add("--ladder-games", type=int_range(2), default=200, help="games of each ladder rating (default 200)")
    add("--seed", type=non_negative_int, default=0, help="seed of the model, the envs and the evaluation")
    add("--save", type=model_path, default="runs/league/model.zip",
        help="where to save the model (default runs/league/model.zip; checked before training)")  # fmt: skip
    add("--out", type=writable_file, help="also write the report to OUT.md and OUT.json")
    args = parser.parse_args(argv)
    if args.ladder_games % 2:  # the ladder plays pairs (each opening with both colours): refused now, not after training
        parser.error(f"argument --ladder-games: {args.ladder_games} is odd: give an even number of games")
    if args.batch_size > args.boards * args.n_steps:
        parser.error(f"argument --batch-size: {args.batch_size} is more than a rollout's "
                     f"{args.boards * args.n_steps} steps (--boards x --n-steps)")  # fmt: skip
    return args


def policy_of(model: Any) -> Any:
    """The network alone as a player: masked argmax of the policy's logits (no search)."""

    def play(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(model.predict(observation, action_masks=mask.astype(bool), deterministic=True)[0])

    return play


def evaluate(model: Any, pairs: int, plies: int, seed: int) -> dict[str, Any]:
    """Paired games against alphabeta:depth=2 from random openings: W/D/L in total and per colour."""
    from envs.rating import as_agent, play_pairs
    from games import CONNECT4
    from search.agents import make_agent
    from tuning.openings import make_openings

    # Openings are distinct up to the mirror: 6x7 has only 1, 4 and 25 of them after 0, 1 and 2 plies (pairs then cycle).
    count = min(pairs, {0: 1, 1: 4, 2: 25}.get(plies, pairs))
    openings = make_openings(CONNECT4, count=count, plies=plies, seed=seed, heldout=0.0).tuning
    scores = play_pairs(CONNECT4, as_agent(policy_of(model), CONNECT4), make_agent(TARGET, CONNECT4), openings, pairs, seed)
    colours = {}
    for side, name in enumerate(("first", "second")):
        column = [pair[side] for pair in scores]
        colours[name] = [column.count(1.0), column.count(0.5), column.count(0.0)]
    wins, draws, losses = (colours["first"][i] + colours["second"][i] for i in range(3))
    low, high = wilson(wins, 2 * pairs)
    return {"opponent": TARGET, "games": 2 * pairs, "wins": wins, "draws": draws, "losses": losses,
            "win_rate": wins / (2 * pairs), "wilson_low": low, "wilson_high": high, "colours": colours,
            "openings": len(openings), "opening_plies": plies}  # fmt: skip


def ladder(model: Any, games: int, seed: int) -> dict[str, float]:
    """The policy's ladder Elo with its 95% interval."""
    from envs.rating import load_ladder, rate
    from games import CONNECT4

    rating = rate(policy_of(model), load_ladder(CONNECT4), games=games, seed=seed)
    return {"elo": rating.elo, "low": rating.low, "high": rating.high, "games": rating.games}


def build(args: argparse.Namespace) -> tuple[Any, Any, Any]:
    """The league, the wrapped SB3 env and the model."""
    from sb3_contrib import MaskablePPO

    from envs.sb3 import make_sb3_vec_env
    from games import CONNECT4
    from scripts._league_train import BoardCNN, LeagueBatch, LeagueVecEnv, rung_opponent

    league = LeagueBatch(args.boards, seed=args.seed, opening_random=args.opening_random)
    for spec in RUNGS:
        league.add(spec, rung_opponent(spec, CONNECT4, args.boards))
    league.set_weights({RUNGS[0]: 1.0})
    vec = make_sb3_vec_env("alphabeta/Connect4-v0", num_envs=args.boards, opponent=league, agent_plays="random",
                           opening_plies=args.opening_plies)  # fmt: skip
    vec.seed(args.seed)
    env = LeagueVecEnv(vec, league, mirror=args.mirror)
    kwargs = {"features_extractor_class": BoardCNN, "net_arch": {"pi": [64], "vf": [64]},
              "features_extractor_kwargs": {"channels": args.channels, "layers": args.layers, "features_dim": args.features}}  # fmt: skip
    model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=args.batch_size, n_epochs=args.epochs,
                        learning_rate=args.lr, gamma=args.gamma, ent_coef=args.ent_coef, policy_kwargs=kwargs,
                        seed=args.seed, device="cpu", verbose=0)  # fmt: skip
    return league, env, model


def train(args: argparse.Namespace, deadline: float, league: Any, env: Any, model: Any) -> dict[str, Any]:
    """Train ``model`` until ``deadline`` (``time.monotonic()``); returns the training log."""
    from stable_baselines3.common.callbacks import BaseCallback

    from scripts._league_train import Curriculum, snapshot_member

    curriculum = Curriculum(RUNGS, promote=args.promote)
    snapshots: list[str] = []
    log: list[str] = []
    start = time.monotonic()
    record: dict[str, list[int]] = {}

    class Steer(BaseCallback):  # type: ignore[misc]  # SB3's classes are untyped
        """Stops at the deadline; after each rollout, moves the curriculum and adds snapshots."""

        last_snapshot = start
        last_note = start

        def _on_step(self) -> bool:
            return time.monotonic() < deadline

        def _on_rollout_end(self) -> None:
            results = env.take_results()
            for name, counts in results.items():
                total = record.setdefault(name, [0, 0, 0])
                record[name] = [a + b for a, b in zip(total, counts)]
            moved = curriculum.update(results)
            now = time.monotonic()
            if moved is not None:
                log.append(f"{now - start:.0f} s, {model.num_timesteps:,} steps: top rung now {moved}")
            if args.snapshots and now - self.last_snapshot >= args.snapshot_seconds:
                name = f"snapshot-{len(snapshots)}@{model.num_timesteps}"
                league.add(name, snapshot_member(model))
                snapshots.append(name)
                self.last_snapshot = now
            league.set_weights(curriculum.weights(snapshots[-args.snapshots :] if args.snapshots else []))
            if now - self.last_note >= 30.0:  # progress on stderr: the report itself goes to stdout
                self.last_note = now
                scores = {n: f"{(w + d / 2) / max(w + d + lo, 1):.2f}" for n, (w, d, lo) in results.items()}
                print(
                    f"[{now - start:.0f} s] {model.num_timesteps:,} steps, {model.num_timesteps / (now - start):,.0f}/s, "
                    f"top {curriculum.rungs[curriculum.level]}, scores {scores}",
                    file=sys.stderr,
                    flush=True,
                )

    model.learn(total_timesteps=10**12, callback=Steer())
    seconds = time.monotonic() - start
    return {"seconds": seconds, "log": log, "record": record, "level": RUNGS[curriculum.level],
            "top_score": curriculum.score(), "snapshots": len(snapshots)}  # fmt: skip


def interval(rating: dict[str, float]) -> str:
    """``+284 [+208, +361]``."""
    return f"{rating['elo']:+.0f} [{rating['low']:+.0f}, {rating['high']:+.0f}]"


def report(result: dict[str, Any], command: str) -> str:
    """The Markdown report of a run."""
    e = result["eval"]
    first, second = e["colours"]["first"], e["colours"]["second"]
    top = "-" if result["top_score"] is None else f"{result['top_score']:.1%}"
    lines = [
        "| measure | value |",
        "| --- | ---: |",
        f"| ladder Elo before training [95% CI] | {interval(result['elo_before'])} |",
        f"| ladder Elo after training [95% CI] | {interval(result['elo_after'])} |",
        f"| vs `{e['opponent']}`: win [95% Wilson] / draw / loss | {e['win_rate']:.1%} [{e['wilson_low']:.1%}, "
        f"{e['wilson_high']:.1%}] / {e['draws'] / e['games']:.1%} / {e['losses'] / e['games']:.1%} |",
        f"| games (W / D / L) | {e['games']} ({e['wins']} / {e['draws']} / {e['losses']}) |",
        f"| as first player (W / D / L) | {sum(first)} ({first[0]} / {first[1]} / {first[2]}) |",
        f"| as second player (W / D / L) | {sum(second)} ({second[0]} / {second[1]} / {second[2]}) |",
        f"| steps trained | {result['steps']:,} |",
        f"| training wall-clock | {result['train_seconds']:.0f} s (budget {result['budget_seconds']:.0f} s incl. set-up "
        f"and the first rating) |",
        f"| steps/s | {result['steps_per_second']:,.0f} |",
        f"| top rung at the end (score against it) | `{result['level']}` ({top}) |",
        "",
        f"Evaluation: {e['games'] // 2} pairs, each from a random {e['opening_plies']}-ply opening ({e['openings']} "
        "distinct) played once with each colour; the opponent's tie-breaks seeded per game; the policy is the "
        "network alone (masked argmax, no search). Ladder: `envs.rating.rate`, random = 0, "
        f"{result['elo_after']['games']} games each.",
    ]
    if result["log"]:
        lines += ["", "Curriculum: " + "; ".join(result["log"]) + "."]
    lines += ["", "League results of the learner during training (W / D / L): "
              + "; ".join(f"`{n}` {w}/{d}/{lo}" for n, (w, d, lo) in sorted(result["record"].items())) + "."]  # fmt: skip
    lines += ["", f"Settings: {result['settings']}.", "", f"Machine: {result['machine']}.", "", f"Command: `{command}`"]
    return "\n".join(lines) + "\n"


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Train within the budget, save, evaluate, print (and write) the report; returns 0."""
    begun = time.monotonic()
    args = parse_args(argv)
    import os
    import platform
    import shlex

    import torch

    # Both cores for torch: during a run nothing else is heavy, and the env's numba step runs between
    # torch calls, not beside them (measured in the short trials, see the README).
    torch.set_num_threads(args.threads)
    deadline = begun + 60.0 * args.minutes
    league, env, model = build(args)
    elo_before = ladder(model, args.ladder_games, seed=args.seed)
    trained = train(args, deadline, league, env, model)
    with atomic_path(args.save) as temp:
        model.save(temp)
    evaluation = evaluate(model, args.eval_pairs, args.eval_plies, seed=args.seed)
    elo_after = ladder(model, args.ladder_games, seed=args.seed)
    command = shlex.join(["python", "-m", "scripts.train_league", *(sys.argv[1:] if argv is None else argv)])
    settings = (f"{args.boards} boards, n_steps {args.n_steps}, batch {args.batch_size}, {args.epochs} epochs, lr {args.lr}, "
                f"ent {args.ent_coef}, CNN {args.layers}x{args.channels} + {args.features}, mirror {args.mirror}, "
                f"opening plies {args.opening_plies[0]}-{args.opening_plies[1]}, opening random {args.opening_random}, "
                f"promote {args.promote}, snapshots {args.snapshots} every "
                f"{args.snapshot_seconds:.0f} s, torch threads {args.threads}")  # fmt: skip
    result = {
        "elo_before": elo_before, "elo_after": elo_after, "eval": evaluation, "steps": int(model.num_timesteps),
        "train_seconds": trained["seconds"], "budget_seconds": 60.0 * args.minutes,
        "steps_per_second": model.num_timesteps / max(trained["seconds"], 1e-9), "level": trained["level"],
        "top_score": None if math.isnan(trained["top_score"]) else trained["top_score"], "log": trained["log"], "record": trained["record"],
        "snapshots": trained["snapshots"], "settings": settings, "command": command, "model": str(args.save),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, torch {torch.__version__}",
    }  # fmt: skip
    text = report(result, command)
    print(text, end="")
    if args.out is not None:
        write_text_atomic(args.out.with_suffix(".md"), "# Training against a league\n\n" + text)
        write_text_atomic(args.out.with_suffix(".json"), json.dumps(result, indent=1, default=float) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
