"""The Bologna m,n,k tournament replayed: agent specs over its 25 configurations, under its time limit, forfeits and scoring.

Every pair of agents plays 4 games per configuration (2 as first player);
a win as first player scores 2, as second 3, a draw 1; a move over the
limit or an illegal move forfeits (rules and budgets: :mod:`tuning.tournament`).
The output is a table per configuration (points, slowest move of each
agent, forfeits) with totals, in Markdown on stdout and, with ``--out``,
as ``<out>.md`` and ``<out>.json`` (both checked before any game, and
rewritten atomically after every game, so an interrupted or failed run
keeps exactly the games it finished: the report then says how many of the
configurations are finished, and how far the others got; the JSON marks
each configuration ``finished`` or not).  Configurations
the game core cannot build are reported as not playable, with the reason.
``--max-plies`` adjudicates long games as draws (the report says how many);
``--workers`` plays configurations in that many processes at once, one
game per process, so each agent still has a core of its own for its move
when the machine has that many cores.

Ctrl-C ends the run at once with one line on stderr and exit code 130: the
game in progress (in every worker) is dropped, never scored as a forfeit.

Run it from the repository root::

    python -m scripts.mnk_tournament "alphabeta:heuristic=mics,radius=2" "alphabeta:heuristic=windows,radius=2" --out runs/mnk
    python -m scripts.mnk_tournament perfect rules --configs 3,3,3 4,4,3 --time-ms 500
"""

from __future__ import annotations

import argparse
import concurrent.futures
import copy
import functools
import json
import multiprocessing
import os
import platform
import queue
import shlex
import signal
import sys
import time
from typing import Any, Callable, Optional, Sequence

import numba

from games import MNK
from scripts._args import (
    int_range,
    non_negative_int,
    positive_float,
    positive_int,
    report_outputs,
    run_interruptible,
    writable_file,
)
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


def as_json(results: Sequence[ConfigurationResult], labels: Sequence[str], args: argparse.Namespace,
            finished: Optional[set[Config]] = None) -> dict[str, Any]:  # fmt: skip
    """Everything the tournament produced, games included (moves are m,n,k cell actions: row * N + column);
    ``finished`` (None: all) are the configurations whose games are all played, the others are marked unfinished."""
    return {
        "time_ms": args.time_ms, "games_per_pair": args.games, "seed": args.seed, "agents": list(labels),
        "max_plies": args.max_plies, "workers": args.workers,
        "totals": {label: sum(r.points.get(label, 0) for r in results) for label in labels},
        "configurations": [{
            "config": r.name, "finished": finished is None or r.config in finished, "playable": r.playable,
            "reason": r.reason, "points": r.points,
            "slowest_ms": {label: round(s * 1000, 3) for label, s in r.slowest.items()}, "refused": r.refused,
            "games": [{
                "first": g.first, "second": g.second, "winner": g.winner, "reason": g.reason, "detail": g.detail,
                "points": list(g.points), "moves": list(g.moves), "seconds": round(g.seconds, 4),
                "slowest_ms": [round(s * 1000, 3) for s in g.slowest],
            } for g in r.games],
        } for r in results],
    }  # fmt: skip


def _play_one(config: Config, args: argparse.Namespace,
              on_game: Optional[Callable[[ConfigurationResult], None]] = None) -> ConfigurationResult:  # fmt: skip
    """One configuration; ``on_game`` gets the result so far after each finished game."""
    return play_configuration(config, args.specs, args.time_ms, args.games, args.seed, max_plies=args.max_plies,
                              on_game=on_game)  # fmt: skip


_progress_queue: Any = None
"""In a worker process: the queue its finished games go to (set by :func:`_start_worker`)."""


def _start_worker(progress: Any) -> None:
    """A worker's start: keep the queue for its progress; Ctrl-C is the parent's to answer (already ignored)."""
    global _progress_queue
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _progress_queue = progress


def _play_in_worker(config: Config, args: argparse.Namespace) -> ConfigurationResult:
    """One configuration in a worker process, each finished game's result so far sent to the parent."""
    return _play_one(config, args, lambda result: _progress_queue.put((config, copy.deepcopy(result))))


def _progress(result: ConfigurationResult) -> None:
    shown = ", ".join(f"{p}" for p in result.points.values()) if result.playable else f"not playable ({result.reason})"
    print(f"{result.name}: {shown}", file=sys.stderr, flush=True)


def _play_all(configs: Sequence[Config], args: argparse.Namespace,
              done: Callable[[list[ConfigurationResult], set[Config]], object]) -> list[ConfigurationResult]:  # fmt: skip
    """Every configuration's result, in the order of ``configs``; with workers, the biggest boards start first.

    ``done(results, finished)`` is called after each finished game with the results so far, in ``configs`` order,
    and the configurations among them that are finished (the others hold the games finished so far).
    """
    by_config: dict[Config, ConfigurationResult] = {}
    finished: set[Config] = set()

    def played(config: Config, result: ConfigurationResult, last: bool) -> None:
        if config in finished:
            return  # a late progress message of a configuration already reported whole
        by_config[config] = result
        if last:
            finished.add(config)
        done([by_config[c] for c in configs if c in by_config], finished)
        if last:
            _progress(result)  # after the write: a reader of this line finds the files up to date

    if args.workers == 1:
        for config in configs:
            played(config, _play_one(config, args, functools.partial(played, config, last=False)), True)
    else:
        _play_in_workers(configs, args, played)
    return [by_config[config] for config in configs]


def _play_in_workers(configs: Sequence[Config], args: argparse.Namespace,
                     played: Callable[[Config, ConfigurationResult, bool], None]) -> None:  # fmt: skip
    """Play ``configs`` in ``args.workers`` processes, the biggest boards first, reporting to ``played``.

    The workers start with Ctrl-C ignored: Ctrl-C in a terminal reaches every process of the group, and the
    parent alone answers it (a KeyboardInterrupt here) by ending the workers at once, their games in progress
    unrecorded, without a traceback from any of them.  A worker that dies (killed, out of memory) ends the run
    with an error (``BrokenProcessPool``), as it did before.
    """
    # spawn, not fork: a forked child would inherit numba's state from a parent that may have started threads
    context = multiprocessing.get_context("spawn")
    progress = context.Queue()
    pool = concurrent.futures.ProcessPoolExecutor(args.workers, mp_context=context, initializer=_start_worker,
                                                  initargs=(progress,))  # fmt: skip
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # the workers, started by submit, inherit it
        try:
            pending = {pool.submit(_play_in_worker, config, args): config
                       for config in sorted(configs, key=lambda c: -c[0] * c[1])}  # fmt: skip
        finally:
            signal.signal(signal.SIGINT, previous)
        while pending:
            try:
                config, result = progress.get(timeout=0.05)
                played(config, result, False)
            except queue.Empty:
                pass
            for job in [job for job in pending if job.done()]:
                played(pending.pop(job), job.result(), True)  # a worker's exception is raised here
    except BaseException:
        for worker in multiprocessing.active_children():  # the pool's workers: their games in progress are dropped
            worker.terminate()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        progress.close()
        progress.join_thread()


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the tournament; return the exit code (2 for bad arguments, 130 on Ctrl-C: ``--out`` keeps the games
    that finished)."""
    return run_interruptible("scripts.mnk_tournament", _main, argv)


def _main(argv: Optional[Sequence[str]]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    _check_specs(parser, args.specs, args.time_ms)
    configs = list(dict.fromkeys(c for group in args.configs for c in group)) if args.configs else list(CONFIGURATIONS)
    labels = labels_of(args.specs)
    outputs = report_outputs(parser, args.out)
    started = time.perf_counter()

    def write(results: list[ConfigurationResult], finished: set[Config]) -> str:
        report = markdown(results, labels, args, time.perf_counter() - started)
        if len(finished) < len(configs):
            report = report.replace("\n", f"\n\n{_partial_note(results, finished, configs, args)}\n", 1)
        if outputs is not None:
            write_text_atomic(outputs[1], json.dumps(as_json(results, labels, args, finished), indent=1) + "\n")
            write_text_atomic(outputs[0], report)
        return report

    results = _play_all(configs, args, write)
    print(write(results, set(configs)), end="")
    return 0


def _partial_note(results: Sequence[ConfigurationResult], finished: set[Config], configs: Sequence[Config],
                  args: argparse.Namespace) -> str:  # fmt: skip
    """The line of a report written before the end: the configurations finished, and the games of the others."""
    pairs = len(args.specs) * (len(args.specs) - 1) // 2
    started = [f"{r.name} ({len(r.games)} of {pairs * args.games} games)" for r in results if r.config not in finished]
    return (f"Partial: {len(finished)} of {len(configs)} configurations so far"
            + (f"; under way: {', '.join(started)}." if started else "."))


if __name__ == "__main__":
    sys.exit(main())
