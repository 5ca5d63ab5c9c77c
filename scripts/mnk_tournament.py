"""The Bologna m,n,k tournament replayed: agent specs over its 25 configurations, under its time limit, forfeits and scoring.

Every pair of agents plays 4 games per configuration (2 as first player);
a win as first player scores 2, as second 3, a draw 1; a move over the
limit or an illegal move forfeits (rules and budgets: :mod:`tuning.tournament`).
The output is a table per configuration (points, slowest move of each
agent, forfeits) with totals, in Markdown on stdout and, with ``--out``,
as ``<out>.md`` and ``<out>.json`` (both checked before any game, and
rewritten atomically as each configuration finishes, so an interrupted or
failed run keeps what it played: the report then says how many of the
configurations it holds).  Configurations
the game core cannot build are reported as not playable, with the reason.
``--max-plies`` adjudicates long games as draws (the report says how many);
``--workers`` plays configurations in that many processes at once, one
game per process, so each agent still has a core of its own for its move
when the machine has that many cores.

Run it from the repository root::

    python -m scripts.mnk_tournament "alphabeta:heuristic=mics,radius=2" "alphabeta:heuristic=windows,radius=2" --out runs/mnk
    python -m scripts.mnk_tournament perfect rules --configs 3,3,3 4,4,3 --time-ms 500
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import multiprocessing
import os
import platform
import shlex
import sys
import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import numba

from games import MNK
from scripts._args import _unwritable, int_range, non_negative_int, positive_float, positive_int, run_interruptible, writable_file
from scripts._files import write_text_atomic
from search.agents import AgentSpecError, make_agent
from tuning.tournament import (
    BUDGET_SHARE,
    CONFIGURATIONS,
    DRAW,
    GAMES_PER_PAIR,
    WIN_FIRST,
    WIN_SECOND,
    ConfigurationResult,
    budgeted,
    labels_of,
    play_configuration,
)  # fmt: skip

Config = tuple[int, int, int]
MAX_GAMES = 1_000_000
"""The most games per pair and configuration (a million at a millisecond a move is already days of play)."""


def configurations(text: str) -> list[Config]:
    """An argparse type: one or more ``M,N,K`` (M rows, N columns, K in a row) separated by blanks."""
    configs = []
    for token in text.split():
        parts = token.split(",")
        if len(parts) != 3 or not all(part.isdecimal() and int(part) > 0 for part in parts):
            raise argparse.ArgumentTypeError(f"{token!r} is not M,N,K: three positive integers (rows, columns, k), e.g. 7,7,5")
        configs.append((int(parts[0]), int(parts[1]), int(parts[2])))
    if not configs:
        raise argparse.ArgumentTypeError(f"{text!r} holds no configuration: give M,N,K, e.g. 7,7,5")
    return configs


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.mnk_tournament",
        description="Play agent specs against each other over the Bologna m,n,k tournament's configurations under its rules "
        f"(each pair {GAMES_PER_PAIR} games per configuration, half as first player; a win as first scores {WIN_FIRST}, "
        f"as second {WIN_SECOND}, a draw {DRAW}; a move over the time limit or an illegal move forfeits).",
    )
    parser.add_argument("specs", nargs="+", help="two or more agent specs (see search.agents.make_agent)")
    parser.add_argument("--configs", nargs="+", type=configurations, metavar="M,N,K",
                        help="configurations to play (default: the tournament's 25)")  # fmt: skip
    parser.add_argument("--time-ms", type=positive_float, default=1000.0,
                        help=f"time limit per move in ms (default 1000); alpha-beta specs without a budget search for "
                        f"{round(BUDGET_SHARE * 100)}%% of it")  # fmt: skip  (%%: argparse %-formats help strings)
    parser.add_argument("--games", type=int_range(1, MAX_GAMES), default=GAMES_PER_PAIR,
                        help=f"games per pair and configuration, first player alternating (default {GAMES_PER_PAIR})")  # fmt: skip
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seeds the agents (default 0)")
    parser.add_argument("--max-plies", type=positive_int,
                        help="adjudicate a game still open after this many plies as a draw (default: play it out)")  # fmt: skip
    parser.add_argument("--workers", type=int_range(1, os.cpu_count() or 1), default=1,
                        help="configurations played at once, each in its own process (default 1)")  # fmt: skip
    parser.add_argument("--out", type=writable_file, help="write <out>.md and <out>.json (a .md or .json suffix is dropped)")
    return parser


def _check_specs(parser: argparse.ArgumentParser, specs: Sequence[str], time_ms: float) -> None:
    """Refuse malformed specs before any game (errors that depend on the board come per configuration)."""
    if len(specs) < 2:
        parser.error(f"a tournament needs two or more agent specs; got {len(specs)}: {' '.join(specs)}")
    for spec in specs:
        try:
            make_agent(budgeted(spec, time_ms * BUDGET_SHARE), MNK(7, 7, 4))
        except AgentSpecError as exc:
            parser.error(str(exc))
        except ValueError:
            pass  # the spec is well formed; this board is not its kind (e.g. the solver): reported per configuration


def _letters(labels: Sequence[str]) -> list[str]:
    return [chr(ord("A") + i) if i < 26 else f"P{i + 1}" for i in range(len(labels))]


def markdown(results: Sequence[ConfigurationResult], labels: Sequence[str], args: argparse.Namespace, seconds: float) -> str:
    """The report: legend, the table per configuration with totals, the forfeits, the configurations not played."""
    short = _letters(labels)
    lines = ["# m,n,k tournament (the Bologna tournament's rules)", ""]
    lines += [f"- {letter}: `{label}`" for letter, label in zip(short, labels)]
    lines += ["", f"Time limit {args.time_ms:g} ms per move ({BUDGET_SHARE:.0%} of it is the search budget of alpha-beta "
              f"specs without one); {args.games} games per pair and configuration, first player alternating; win as "
              f"first {WIN_FIRST}, as second {WIN_SECOND}, draw {DRAW}, loss 0; forfeits give the opponent the win."
              + _cap_note(results, args.max_plies) + _workers_note(args.workers), "",
              "| M,N,K | " + " | ".join(f"{s} points" for s in short) + " | " + " | ".join(f"{s} slowest ms" for s in short)
              + " | forfeits |",
              "|---|" + "---:|" * (2 * len(short)) + "---|"]  # fmt: skip
    totals = dict.fromkeys(labels, 0)
    for result in results:
        if not result.playable:
            lines.append(f"| {result.name} | " + " | ".join("-" for _ in range(2 * len(short))) + " | not playable |")
            continue
        forfeits = sum(game.reason in ("time", "illegal", "error") for game in result.games)
        points = [str(result.points[label]) for label in labels]
        slowest = [f"{result.slowest[label] * 1000:.0f}" for label in labels]
        lines.append(f"| {result.name} | {' | '.join(points)} | {' | '.join(slowest)} | {forfeits} |")
        for label in labels:
            totals[label] += result.points[label]
    lines.append("| **total** | " + " | ".join(f"**{totals[label]}**" for label in labels) + " |" + " |" * len(labels) + " |")
    lines += ["", "Total points: " + ", ".join(f"{s} {totals[label]}" for s, label in zip(short, labels))]
    details = [f"- {r.name}: {g.reason} forfeit ({g.detail})" for r in results for g in r.games
               if g.reason in ("time", "illegal", "error")]  # fmt: skip
    if details:
        lines += ["", "Forfeits:", *sorted(set(details))]
    missing = [f"- {r.name}: not playable: {r.reason}" for r in results if not r.playable]
    if missing:
        lines += ["", "Not played:", *missing]
    lines += ["", f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, numba "
              f"{numba.__version__}; {seconds:.1f} s in all.", f"Command: `{shlex.join(['python', '-m', 'scripts.mnk_tournament', *args.argv])}`"]  # fmt: skip
    return "\n".join(lines) + "\n"


def _cap_note(results: Sequence[ConfigurationResult], max_plies: Optional[int]) -> str:
    """The sentence on adjudicated games (empty without a cap)."""
    if max_plies is None:
        return ""
    capped = [r.name for r in results for g in r.games if g.reason == "ply cap"]
    where = ", ".join(f"{name} ({capped.count(name)})" for name in dict.fromkeys(capped)) or "none"
    return (f" Games still open after {max_plies} plies were adjudicated as draws (the tournament plays them out): "
            f"{len(capped)} games; by configuration: {where}.")  # fmt: skip


def _workers_note(workers: int) -> str:
    """The sentence on parallel play (empty for one process)."""
    if workers == 1:
        return ""
    return f" {workers} configurations were played at once, each in its own process ({os.cpu_count()} CPUs)."


def as_json(results: Sequence[ConfigurationResult], labels: Sequence[str], args: argparse.Namespace) -> dict[str, Any]:
    """Everything the tournament produced, games included (moves are m,n,k cell actions: row * N + column)."""
    return {
        "time_ms": args.time_ms, "games_per_pair": args.games, "seed": args.seed, "agents": list(labels),
        "max_plies": args.max_plies, "workers": args.workers,
        "totals": {label: sum(r.points.get(label, 0) for r in results) for label in labels},
        "configurations": [{
            "config": r.name, "playable": r.playable, "reason": r.reason, "points": r.points,
            "slowest_ms": {label: round(s * 1000, 3) for label, s in r.slowest.items()}, "refused": r.refused,
            "games": [{
                "first": g.first, "second": g.second, "winner": g.winner, "reason": g.reason, "detail": g.detail,
                "points": list(g.points), "moves": list(g.moves), "seconds": round(g.seconds, 4),
                "slowest_ms": [round(s * 1000, 3) for s in g.slowest],
            } for g in r.games],
        } for r in results],
    }  # fmt: skip


def _play_one(config: Config, args: argparse.Namespace) -> ConfigurationResult:
    """One configuration, as a worker process plays it."""
    return play_configuration(config, args.specs, args.time_ms, args.games, args.seed, max_plies=args.max_plies)


def _progress(result: ConfigurationResult) -> None:
    shown = ", ".join(f"{p}" for p in result.points.values()) if result.playable else f"not playable ({result.reason})"
    print(f"{result.name}: {shown}", file=sys.stderr, flush=True)


def _play_all(configs: Sequence[Config], args: argparse.Namespace,
              done: Callable[[list[ConfigurationResult]], None]) -> list[ConfigurationResult]:  # fmt: skip
    """Every configuration's result, in the order of ``configs``; with workers, the biggest boards start first.

    ``done`` is called with the results so far (in ``configs`` order) each time a configuration finishes.
    """
    by_config: dict[Config, ConfigurationResult] = {}

    def finished(config: Config, result: ConfigurationResult) -> None:
        by_config[config] = result
        done([by_config[c] for c in configs if c in by_config])
        _progress(result)  # after the write: a reader of this line finds the files up to date

    if args.workers == 1:
        for config in configs:
            finished(config, _play_one(config, args))
        return [by_config[config] for config in configs]
    biggest_first = sorted(configs, key=lambda c: -c[0] * c[1])
    # spawn, not fork: a forked child would inherit numba's state from a parent that may have started threads
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(args.workers, mp_context=context) as pool:
        futures = {pool.submit(_play_one, config, args): config for config in biggest_first}
        for future in concurrent.futures.as_completed(futures):
            finished(futures[future], future.result())
    return [by_config[config] for config in configs]


def _outputs(parser: argparse.ArgumentParser, out: Optional[Path]) -> Optional[tuple[Path, Path]]:
    """The report's two files (``<out>.md``, ``<out>.json``), each checked writable before any game (exit 2 if not)."""
    if out is None:
        return None
    stem = out.with_suffix("") if out.suffix in (".md", ".json") else out
    paths = (Path(f"{stem}.md"), Path(f"{stem}.json"))
    for path in paths:
        problem = _unwritable(path, want_dir=False)
        if problem is not None:
            parser.error(f"argument --out: {str(path)!r} {problem}")
    return paths


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the tournament; return the exit code (2 for bad arguments, 130 on Ctrl-C: ``--out`` keeps the
    configurations that finished)."""
    return run_interruptible("scripts.mnk_tournament", _main, argv)


def _main(argv: Optional[Sequence[str]]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    _check_specs(parser, args.specs, args.time_ms)
    configs = list(dict.fromkeys(c for group in args.configs for c in group)) if args.configs else list(CONFIGURATIONS)
    labels = labels_of(args.specs)
    outputs = _outputs(parser, args.out)
    started = time.perf_counter()

    def write(results: list[ConfigurationResult]) -> str:
        report = markdown(results, labels, args, time.perf_counter() - started)
        if len(results) < len(configs):
            report = report.replace("\n", f"\n\nPartial: {len(results)} of {len(configs)} configurations so far.\n", 1)
        if outputs is not None:
            write_text_atomic(outputs[1], json.dumps(as_json(results, labels, args), indent=1) + "\n")
            write_text_atomic(outputs[0], report)
        return report

    print(write(_play_all(configs, args, write)), end="")
    return 0

if __name__ == "__main__":
    sys.exit(main())
