"""The paper reproduction's run: its checked settings, the worker pools and openings, and how experiments write.

:class:`Run` is what every experiment (``_paper_tables``, ``_paper_figures``,
``_paper_beyond``) gets: the settings, the opening book, the pools that play
the games, progress bars, and the folder the experiment writes into;
:func:`settings_text` and :func:`write_outputs` give every table the same
settings paragraph and the same JSON counts.
"""

from __future__ import annotations

import json
import math
import os
import platform
import shlex
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Optional, Sequence

import numba
import numpy as np
from tqdm import tqdm

from games import CONNECT4
from scripts._files import write_text_atomic
from scripts._paper_play import FixedGame, Pool, alphabeta_spec, opening_value, play_fixed_game
from scripts._paper_report import Cell, cell_from_match, cell_from_scores, markdown_table
from tuning.match import MatchRunner, pair_seed
from tuning.openings import Opening, make_openings

ROOT = Path(__file__).resolve().parent.parent
TUNED_WEIGHTS = ROOT / "weights" / "connect4-c4_features-tuned.json"
"""What ``python -m tuning.run`` exports on its defaults (committed on main once the tuned run is done)."""
STAND_IN_WEIGHTS = ROOT / "weights" / "connect4-c4_features.json"
"""Used, with a warning in the table, while :data:`TUNED_WEIGHTS` does not exist: the paper's defaults."""
DEFAULT_OUT = ROOT / "runs" / "paper"
"""Where a run writes unless told (git-ignored): ``--out docs/results`` regenerates the committed results."""
PERFECT = "perfect"


@dataclass(frozen=True)
class Settings:
    """The command line, checked."""

    games: int
    workers: int
    seed: int
    random_every: int
    plies: int
    depths: tuple[int, ...]
    figure_games: int
    perfect_depth: int
    perfect_plies: int
    perfect_games: int
    tuned: Path
    out: Path
    quick: bool
    argv: tuple[str, ...]
    experiment: str

    @property
    def pairs(self) -> int:
        """Colour-swapped pairs per cell (games rounded up to even)."""
        return (self.games + 1) // 2

    @property
    def perfect_pairs(self) -> int:
        """Colour-swapped pairs per evaluator against perfect play."""
        return (self.perfect_games + 1) // 2


CANDIDATES_PER_PAIR = 12
"""Random openings drawn per pair wanted against perfect play: about 13% of 10-ply ones are drawn, half are wanted."""


class Run:
    """One invocation: settings, the opening book, the worker pools (started on first use), the output folder."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.out = settings.out
        """Where the experiment running now writes: its staging folder (see :func:`run_experiment`)."""
        self._runner: Optional[MatchRunner] = None
        self._pool: Optional[Pool] = None
        self._openings: Optional[list[Opening]] = None

    def openings(self) -> list[Opening]:
        """One random opening per pair: distinct up to mirroring, undecided at depth 4 (tuning.openings)."""
        if self._openings is None:
            s = self.settings
            self._openings = list(make_openings(CONNECT4, count=s.pairs, plies=s.plies, seed=s.seed, heldout=0.0).tuning)
        return self._openings

    def balanced_openings(self, plies: int, pairs: int, bar: Optional[tqdm] = None) -> tuple[list[Opening], dict[Opening, float]]:
        """``pairs`` random openings of ``plies`` plies, half of them drawn and half decided, and their exact values.

        Random openings are mostly decided (about 13% of 10-ply ones are
        drawn), so candidates are solved in batches until both halves are
        full; if the candidates run out first, fewer drawn openings are used.
        ``bar`` counts the candidates solved.
        """
        s = self.settings
        want_drawn = pairs // 2
        candidates = list(make_openings(CONNECT4, count=pairs * CANDIDATES_PER_PAIR, plies=plies, seed=s.seed + 1, heldout=0.0).tuning)
        drawn: list[Opening] = []
        decided: list[Opening] = []
        values: dict[Opening, float] = {}
        batch = 8 * s.workers
        for start in range(0, len(candidates), batch):
            chunk = candidates[start : start + batch]
            for opening, value in zip(chunk, self.pool().imap(opening_value, chunk)):
                values[tuple(opening)] = value
                (drawn if value == 0.5 else decided).append(tuple(opening))
            if bar is not None:
                bar.update(len(chunk))
            if len(drawn) >= want_drawn and len(decided) >= pairs - want_drawn:
                break
        drawn = drawn[:want_drawn]
        chosen = drawn + decided[: pairs - len(drawn)]
        return chosen, {o: values[o] for o in chosen}

    def runner(self) -> MatchRunner:
        """The pool that plays colour-swapped pairs."""
        if self._runner is None:
            self._runner = MatchRunner(self.settings.workers)
        return self._runner

    def pool(self) -> Pool:
        """The pool that plays single games and profiled games."""
        if self._pool is None:
            self._pool = Pool(self.settings.workers)
        return self._pool

    def close(self) -> None:
        """Stop both pools."""
        for pool in (self._runner, self._pool):
            if pool is not None:
                pool.close()
        self._runner = self._pool = None

    def paired(self, a: str, b: str, spec_a: str, spec_b: str, bar: tqdm) -> Cell:
        """A against B over the openings, each twice with colours swapped."""
        if spec_a == spec_b:
            raise ValueError(f"{a} and {b} have the same spec {spec_a!r}: identical players score 1/2 by symmetry")

        def progress(_: object) -> bool:
            bar.update(2)
            return False

        s = self.settings
        result = self.runner().match(CONNECT4, spec_a, spec_b, self.openings(), s.pairs, s.seed, on_pair=progress)
        return cell_from_match(a, b, result)

    def fixed(self, a: str, b: str, spec_a: str, spec_b: str, bar: tqdm, openings: Sequence[Opening] = ((),)) -> Cell:
        """A moving first against B in every game (game ``i`` starts from ``openings[i % len(openings)]``)."""
        s = self.settings
        tasks = [FixedGame(spec_a, spec_b, tuple(openings[i % len(openings)]),
                           (pair_seed(s.seed, i, 0, 0), pair_seed(s.seed, i, 0, 1))) for i in range(s.games)]  # fmt: skip
        scores, nodes, searched = [], [0, 0], [0, 0]
        for result in self.pool().imap(play_fixed_game, tasks):
            scores.append(result.score)
            for side in (0, 1):
                nodes[side] += result.nodes[side]
                searched[side] += result.searched[side]
            bar.update(1)
        per_move = (nodes[0] / max(searched[0], 1), nodes[1] / max(searched[1], 1))
        return cell_from_scores(a, b, scores, per_move)

    def spec(self, heuristic: str, depth: int, weights: Optional[dict[str, float]] = None, random: bool = True) -> str:
        """An alpha-beta spec at ``depth`` with this run's random moves (``random=False``: none)."""
        return alphabeta_spec(heuristic, depth, self.settings.random_every if random else 0, weights)

    def progress(self, name: str, total: int) -> tqdm:
        """A progress bar on stderr counting games."""
        return tqdm(total=total, desc=name, unit="game", file=sys.stderr, mininterval=1.0, dynamic_ncols=True)


@dataclass
class Output:
    """What an experiment wrote: its name, its Markdown, its files, games played and wall time."""

    name: str
    markdown: str
    files: list[Path]
    games: int
    seconds: float = 0.0
    cpu_seconds: float = 0.0


def cpu_seconds() -> float:
    """CPU seconds (user + system) used so far by this process and its live child processes (the worker pools).

    Read from /proc, so Linux only (0 for the children elsewhere).  On a
    shared machine the wall time depends on the other jobs; the CPU time
    divided by the workers is what the run would take on idle cores.
    """
    own = time.process_time()
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    children = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # the process ended meanwhile
        if int(fields[1]) == os.getpid():  # fields[1] is the parent pid, [11] and [12] utime and stime in ticks
            children += (int(fields[11]) + int(fields[12])) / ticks
    return own + children


def machine_line() -> str:
    """CPU, cores, Python, numpy and numba versions."""
    return (f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
            f"numpy {np.__version__}, numba {numba.__version__}")  # fmt: skip


def command_line(settings: Settings) -> str:
    """The command that reproduces this run."""
    return shlex.join(["python", "-m", "scripts.reproduce_paper", *settings.argv])


def settings_text(run: Run, games: Optional[str] = None, paired: bool = True, random: bool = True,
                  plies: Optional[int] = None, pairs: Optional[int] = None) -> str:
    """The paragraph under each title: games, openings, random moves, seed, machine, command.

    ``games`` replaces "<n> games per cell"; ``random=False``: the experiment plays no random moves;
    ``plies``, ``pairs``: the openings' length and number, if not ``--plies`` and one per pair of ``--games``.
    """
    s = run.settings
    pairs = pairs or s.pairs
    moves = f"a random move every {s.random_every} own moves (as the paper)" if s.random_every and random else "no random moves"
    lines = [f"- {games or f'Games per cell: {2 * pairs if paired else s.games}'}; both sides play {moves}; seed {s.seed}."]
    if paired:
        lines.append(f"- Openings: {pairs} random {plies or s.plies}-ply openings (distinct up to mirroring, undecided at depth 4), "
                     "each played twice with colours swapped; intervals from the game pairs (pentanomial).")  # fmt: skip
    lines += [f"- Machine: {machine_line()}; {s.workers} worker(s).", f"- Command: `{command_line(s)}`"]
    return "\n".join(lines)


def findings_text(findings: Sequence[tuple[str, str, str]]) -> str:
    """The findings table: the paper's claim, our numbers, the verdict."""
    return markdown_table(("paper's claim", "our numbers", "verdict"), [list(f) for f in findings], left=3)


def write_outputs(run: Run, name: str, markdown: str, cells: dict[str, list[Cell]], extra: Optional[dict] = None) -> Path:  # type: ignore[type-arg]
    """Write ``<name>.md`` and ``<name>.json`` (every cell's counts and interval) into the output folder."""
    out = run.out
    write_text_atomic(out / f"{name}.md", markdown.rstrip() + "\n")
    data = {"experiment": name, "settings": {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(run.settings).items()},
            "cells": {group: [cell_json(c) for c in group_cells] for group, group_cells in cells.items()}, **(extra or {})}  # fmt: skip
    write_text_atomic(out / f"{name}.json", json.dumps(data, indent=1, default=_finite) + "\n")
    return out / f"{name}.md"


def _finite(value: object) -> object:
    return str(value)


def cell_json(cell: Cell) -> dict[str, object]:
    """A cell as JSON (infinite Elo as a string)."""
    e = cell.estimate
    return {"a": cell.a, "b": cell.b, "games": cell.games, "wins": cell.wins, "draws": cell.draws, "losses": cell.losses,
            "score": e.score, "score_low": e.score_low, "score_high": e.score_high,
            "elo": e.elo if math.isfinite(e.elo) else str(e.elo), "paired": cell.paired,
            "nodes_per_move": list(cell.nodes)}  # fmt: skip
