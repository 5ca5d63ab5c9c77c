"""Replay the Connect-4 experiments of Kang, Wang and Hu (2019) with many games and 95% intervals.

The paper (seed 000, JILSA 11:15-31) compares its feature heuristic H1
(``c4_features``) with the square-value heuristic H2 (``square_values``) on
6x7 Connect-4, from 10 to 100 games per pairing and no intervals.  Each
sub-command replays one experiment, writes ``<name>.md`` (the table, the
settings, the paper's claims with a verdict each), ``<name>.json`` (the
counts) and PNG plots into ``--out`` (default ``runs/paper/``, git-ignored;
``--out docs/results`` regenerates the committed results), and prints the
table.  Every input, ``--tuned`` included, is checked before any game; an
experiment's files appear only once it has finished (it writes into a hidden
staging folder whose files are then renamed into ``--out``), so an
experiment that fails or is interrupted leaves the previous files in place:

* ``table6``: H1 against itself at depths 2, 4, 6, 8, every pair.  First the
  paper's protocol: the first-named player always moves first, from the
  empty board, both sides playing a random move every third own move.  Then
  colours alternated: each randomised opening played twice, colours swapped.
* ``figures``: Figures 12 and 13, nodes and time per move along H1 self-play
  games at depth 4 and 6, for plain minimax (no pruning), alpha-beta (no
  table, no ordering: the paper's) and our agent's alpha-beta (table and
  ordering), averaged over games.
* ``table7`` / ``table8``: depth 4, H1 with one feature (F1..F4), then with
  F4+F3, F4+F3+F2, all, and F1+F2, against H2.
* ``table9``: H1 against H2 at equal depths 2, 4, 6, 8.
* ``tuned``: beyond the paper, the tuned weights (``python -m tuning.run``)
  against the paper's defaults and against H2 at depths 2, 4, 6, 8.
* ``perfect``: beyond the paper, every Connect-4 evaluator against the exact
  solver (agent spec ``perfect``); skipped with a note while that agent is
  not available.
* ``all``: everything, plus ``run.md`` with the wall time of each part.

Except ``table6``'s first part, every cell plays colour-swapped pairs over
randomised 4-ply openings (distinct up to mirroring, not decided by a 4-ply
search); both sides also play a random move every ``--random-every`` own
moves (3 by default, as in the paper; 0 turns it off).  The ``tuned`` and
``perfect`` games play none: the tuner judged its weights without them, and
a random move against perfect play only measures the random move.  Cells share openings and seeds, so they
differ only by the players.  Usage::

    python -m scripts.reproduce_paper all --out docs/results   # 1000 games per cell (200 vs perfect play)
    python -m scripts.reproduce_paper table9 --games 400 --workers 2
    python -m scripts.reproduce_paper all --quick --out /tmp/paper   # smoke run
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shlex
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

import numba
import numpy as np
from tqdm import tqdm

from games import CONNECT4
from heuristics import NAMES, WeightFileError, get_spec, load_weights
from scripts._args import int_list, int_range, non_negative_int, positive_int, writable_dir
from scripts._files import staged_folder, write_text_atomic
from scripts._paper_play import (
    PROFILES,
    FixedGame,
    MoveProfile,
    Pool,
    ProfileGame,
    alphabeta_spec,
    feature_weights,
    file_weights,
    opening_value,
    play_fixed_game,
    profile_game,
)
from scripts._paper_report import (
    FAILS,
    HOLDS,
    MARGIN,
    MIN_SAMPLES,
    OPEN,
    Cell,
    beats,
    cell_from_match,
    cell_from_scores,
    cells_table,
    combine,
    flip,
    fmt_diff,
    fmt_pooled,
    fmt_score,
    greater,
    markdown_table,
    near_even,
    pyplot,
    save_figure,
    score_bars,
    score_matrix,
    similar,
    tends_to_beat,
    wilson,
)
from search.agents import AgentSpecError, make_agent
from tuning.match import MatchRunner, default_workers, pair_seed
from tuning.openings import Opening, make_openings

ROOT = Path(__file__).resolve().parent.parent
TUNED_WEIGHTS = ROOT / "weights" / "connect4-c4_features-tuned.json"
"""What ``python -m tuning.run`` exports on its defaults (committed on main once the tuned run is done)."""
STAND_IN_WEIGHTS = ROOT / "weights" / "connect4-c4_features.json"
"""Used, with a warning in the table, while :data:`TUNED_WEIGHTS` does not exist: the paper's defaults."""
DEFAULT_OUT = ROOT / "runs" / "paper"
"""Where a run writes unless told (git-ignored): ``--out docs/results`` regenerates the committed results."""
PAPER_DEPTHS_TEXT = "2,4,6,8"
FEATURE_DEPTH = 4
"""The paper's situation 2 (Tables 7 and 8) plays at depth 4."""
FIGURE_DEPTHS = (("figure12", 4), ("figure13", 6))
TABLE7 = (("F1",), ("F2",), ("F3",), ("F4",))
TABLE8 = (("F4", "F3"), ("F4", "F3", "F2"), ("F1", "F2", "F3", "F4"), ("F1", "F2"))
PERFECT = "perfect"
EXPERIMENTS = ("table6", "figures", "table7", "table8", "table9", "tuned", "perfect")
QUICK_GAMES = 2
"""--quick: one pair (or two single games) per cell, one profiled game per figure ..."""
QUICK_DEPTHS = "2,4"
"""... and depths 2 and 4 only, unless --depths says otherwise (every file is still written)."""


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


# ---------------------------------------------------------------- Table 6


def table6(run: Run) -> Output:
    """H1 against itself at every pair of depths, first-named player first, then colours alternated."""
    s = run.settings
    depths = s.depths
    spec = {d: run.spec("c4_features", d) for d in depths}
    deeper_pairs = [(lo, hi) for i, lo in enumerate(depths) for hi in depths[i + 1 :]]
    bar = run.progress("table6", len(depths) ** 2 * s.games + len(deeper_pairs) * 2 * s.pairs)
    # The paper's protocol starts from the empty board; without random moves every game would be the same.
    fixed_openings = [()] if s.random_every else run.openings()
    fixed = {(a, b): run.fixed(f"H1 d{a}", f"H1 d{b}", spec[a], spec[b], bar, fixed_openings) for a in depths for b in depths}
    alternating = {(hi, lo): run.paired(f"H1 d{hi}", f"H1 d{lo}", spec[hi], spec[lo], bar) for lo, hi in deeper_pairs}
    bar.close()

    first_matrix = [[fixed[(a, b)].score for b in depths] for a in depths]
    alt_matrix = [[None if a == b else (alternating[(a, b)].score if a > b else 1.0 - alternating[(b, a)].score)
                   for b in depths] for a in depths]  # fmt: skip
    score_matrix([("first-named (row) moves first, empty board", first_matrix),
                  ("colours alternated, random openings", alt_matrix)], depths, run.out / "table6.png",
                 "depth of the row player", "depth of the column player")  # fmt: skip

    findings = []
    # The paper: in a column (first player's depth fixed) the second player wins more as its depth grows.
    steps = [(a, b1, b2) for a in depths for b1, b2 in zip(depths, depths[1:])]
    column = [greater(flip(fixed[(a, b2)]), flip(fixed[(a, b1)])) for a, b1, b2 in steps]
    reversed_steps = [f"1st d{a}: 2nd d{b2} - d{b1} {fmt_diff(flip(fixed[(a, b2)]), flip(fixed[(a, b1)]))}"
                      for (a, b1, b2), v in zip(steps, column) if v == FAILS]  # fmt: skip
    findings.append((
        "Table 6 columns: with the first player's depth fixed, the second player scores more as its depth grows",
        f"{len(steps)} steps (first player's depth x deeper second player): {column.count(HOLDS)} significant rises, "
        f"{column.count(FAILS)} significant falls{': ' + '; '.join(reversed_steps) if reversed_steps else ''}",
        combine(column),
    ))  # fmt: skip
    as_first = [beats(fixed[(hi, lo)]) for lo, hi in deeper_pairs]
    as_second = [beats(flip(fixed[(lo, hi)])) for lo, hi in deeper_pairs]
    findings.append((
        "Deeper tends to win (paper's protocol: deeper player moving first / second)",
        "; ".join(f"d{hi} vs d{lo}: {fixed[(hi, lo)].score:.2f} / {1 - fixed[(lo, hi)].score:.2f}" for lo, hi in deeper_pairs),
        f"{combine(as_first + as_second)} ({(as_first + as_second).count(HOLDS)} of {2 * len(deeper_pairs)} significant)",
    ))  # fmt: skip
    alt_cells = [alternating[(hi, lo)] for lo, hi in deeper_pairs]
    alt = [beats(c) for c in alt_cells]
    findings.append((
        "Deeper tends to win (colours alternated, random openings)",
        "; ".join(f"d{hi} vs d{lo}: {fmt_score(alternating[(hi, lo)])}" for lo, hi in deeper_pairs)
        + f"; over the {len(alt)} pairs: {fmt_pooled(alt_cells)}, {alt.count(HOLDS)} of {len(alt)} significant alone",
        tends_to_beat(alt_cells),
    ))  # fmt: skip
    findings.append((
        "(not in the paper) Moving first is an advantage at equal depth",
        "; ".join(f"d{d}: {fmt_score(fixed[(d, d)])}" for d in depths),
        combine([beats(fixed[(d, d)]) for d in depths]),
    ))  # fmt: skip

    fixed_cells = [fixed[(a, b)] for a in depths for b in depths]
    matrix_rows = [[f"d{a} first"] + [f"{fixed[(a, b)].score:.2f} ({fixed[(a, b)].wins}/{fixed[(a, b)].draws}/{fixed[(a, b)].losses})"
                                      for b in depths] for a in depths]  # fmt: skip
    fixed_start = "the empty board" if s.random_every else f"{len(fixed_openings)} random {s.plies}-ply openings"
    markdown = "\n\n".join([
        f"# Table 6: H1 (c4_features) against itself at depths {', '.join(map(str, depths))}",
        settings_text(run),
        "## The paper's protocol: the first-named player always moves first",
        f"Every game starts from {fixed_start}; {s.games} games per cell, intervals from single games (trinomial). "
        "Row: the first player's depth; entries: the first player's score (W/D/L).",
        markdown_table(["first \\ second"] + [f"d{b} second" for b in depths], matrix_rows, left=1),
        cells_table(fixed_cells),
        "## Colours alternated over random openings",
        "The deeper player is A. Identical players (equal depths) are not played: they score 1/2 by symmetry.",
        cells_table(alt_cells),
        "## The paper's claims",
        findings_text(findings),
        "![Table 6](table6.png)",
    ])  # fmt: skip
    write_outputs(run, "table6", markdown, {"first_fixed": fixed_cells, "alternating": alt_cells})
    return Output("table6", markdown, [run.out / "table6.md", run.out / "table6.png"], bar.n)


# ---------------------------------------------------------------- Figures 12 and 13


def profile_rows(profiles: Sequence[MoveProfile]) -> tuple[list[int], np.ndarray, np.ndarray, np.ndarray]:
    """Plies with data, their position counts, and mean nodes and mean milliseconds per ply (one column per profile)."""
    plies = sorted({p.ply for p in profiles})
    counts = np.array([sum(1 for p in profiles if p.ply == ply) for ply in plies])
    nodes = np.array([[np.mean([p.nodes[i] for p in profiles if p.ply == ply]) for i in range(len(PROFILES))] for ply in plies])
    millis = np.array([[1000 * np.mean([p.seconds[i] for p in profiles if p.ply == ply]) for i in range(len(PROFILES))]
                       for ply in plies])  # fmt: skip
    return plies, counts, nodes, millis


def plot_profile(name: str, depth: int, plies: list[int], nodes: np.ndarray, millis: np.ndarray, games: int, path: Path) -> None:
    """Mean nodes and milliseconds per move along the game, one line per search, log scale."""
    plt = pyplot()
    figure, axes = plt.subplots(1, 2, figsize=(11, 4))
    for i, label in enumerate(PROFILES):
        axes[0].plot(plies, nodes[:, i], marker=".", label=label)
        axes[1].plot(plies, millis[:, i], marker=".", label=label)
    for ax, what in zip(axes, ("nodes searched per move", "time per move (ms)")):
        ax.set_yscale("log")
        ax.set_xlabel("move (ply) of the game")
        ax.set_ylabel(what)
        ax.grid(alpha=0.3)
    axes[0].legend()
    figure.suptitle(f"{name.replace('figure', 'Figure ')}: H1 self-play at depth {depth}, mean over {games} games")
    save_figure(figure, path)


MATERIAL_RHO = 0.3
"""Smallest Spearman |rho| that counts as a trend: with thousands of positions a negligible one is significant."""


def falls_verdict(rho: float, p_value: float) -> str:
    """Verdict on "falls as the board fills" from Spearman's rho between ply and the measure.

    Holds for a significant rho at or below ``-MATERIAL_RHO``; does not hold for a significant rise or a
    significant but negligible fall (``|rho| < MATERIAL_RHO``: the curve is about flat); else undecided.
    """
    if not p_value < 0.05:
        return OPEN
    return HOLDS if rho <= -MATERIAL_RHO else FAILS


def figures(run: Run) -> Output:
    """Nodes and time per move along H1 self-play games at depth 4 and 6, three searches each."""
    from scipy.stats import pearsonr, spearmanr

    s = run.settings
    openings = run.openings()
    bar = run.progress("figures", len(FIGURE_DEPTHS) * s.figure_games)
    sections, findings, files, data = [], [], [], {}
    for name, depth in FIGURE_DEPTHS:
        tasks = [ProfileGame(depth, tuple(openings[i % len(openings)]), (pair_seed(s.seed, i, 0, 0), pair_seed(s.seed, i, 0, 1)),
                             s.random_every) for i in range(s.figure_games)]  # fmt: skip
        profiles: list[MoveProfile] = []
        for game in run.pool().imap(profile_game, tasks):
            profiles += game
            bar.update(1)
        plies, counts, nodes, millis = profile_rows(profiles)
        plot_profile(name, depth, plies, nodes, millis, s.figure_games, run.out / f"{name}.png")
        files.append(run.out / f"{name}.png")
        rows = [[str(ply), str(counts[r]), *[f"{v:,.0f}" for v in nodes[r]], *[f"{v:.2f}" for v in millis[r]]]
                for r, ply in enumerate(plies)]  # fmt: skip
        header = ["ply", "positions", *[f"nodes: {p}" for p in PROFILES], *[f"ms: {p}" for p in PROFILES]]
        all_nodes = np.array([p.nodes for p in profiles], dtype=float)
        all_seconds = np.array([p.seconds for p in profiles])
        all_plies = np.array([p.ply for p in profiles])
        for i, label in enumerate(PROFILES):
            rho, p_rho = spearmanr(all_plies, all_nodes[:, i]) if len(profiles) > 2 else (math.nan, math.nan)
            r_time, p_time = pearsonr(all_nodes[:, i], all_seconds[:, i]) if len(profiles) > 2 else (math.nan, math.nan)
            falls = falls_verdict(rho, p_rho)
            peak = plies[int(np.argmax(nodes[:, i]))]
            findings.append((f"Depth {depth}, {label}: nodes fall as the board fills",
                             f"Spearman rho(ply, nodes) = {rho:+.2f} over {len(profiles)} positions; mean curve peaks at ply {peak}",
                             falls))  # fmt: skip
            rho_t, p_rho_t = spearmanr(all_plies, all_seconds[:, i]) if len(profiles) > 2 else (math.nan, math.nan)
            time_falls = falls_verdict(rho_t, p_rho_t)
            time_peak = plies[int(np.argmax(millis[:, i]))]
            findings.append((f"Depth {depth}, {label}: time falls as the board fills",
                             f"Spearman rho(ply, time) = {rho_t:+.2f}; mean curve peaks at ply {time_peak}", time_falls))  # fmt: skip
            correlated = HOLDS if r_time > 0 and p_time < 0.05 else (FAILS if r_time < 0 and p_time < 0.05 else OPEN)
            findings.append((f"Depth {depth}, {label}: nodes and time correlate",
                             f"Pearson r(nodes, time) = {r_time:+.3f}", correlated))  # fmt: skip
        saved = all_nodes[:, 0].sum() / max(all_nodes[:, 1].sum(), 1.0)
        saved_full = all_nodes[:, 0].sum() / max(all_nodes[:, 2].sum(), 1.0)
        sections += [f"## {name.replace('figure', 'Figure ')}: depth {depth}",
                     f"{s.figure_games} self-play games, {len(profiles)} positions. Over all positions minimax searched "
                     f"{saved:,.1f}x the nodes of plain alpha-beta and {saved_full:,.1f}x those of the full agent.",
                     markdown_table(header, rows, left=1), f"![{name}]({name}.png)"]  # fmt: skip
        data[name] = {"depth": depth, "games": s.figure_games, "plies": plies, "positions": counts.tolist(),
                      "mean_nodes": nodes.tolist(), "mean_ms": millis.tolist(), "profiles": list(PROFILES)}  # fmt: skip
    bar.close()
    markdown = "\n\n".join([
        "# Figures 12 and 13: nodes and time per move, H1 self-play at depth 4 and depth 6",
        settings_text(run, games=f"Games per figure: {s.figure_games}", paired=False),
        "Every position of each game (from the empty board: the opening's moves, then the two agents) is searched "
        "three ways at the figure's depth: plain minimax (no pruning), alpha-beta without table and move ordering "
        "(the paper's), and our agent's alpha-beta with table and ordering. Alpha-beta counts every iteration of the "
        "iterative deepening (what the agent pays); minimax searches the one depth. Times are wall times on a shared "
        "machine, measured in the worker processes.",
        f"\"Falls as the board fills\" holds when Spearman's rho between the ply and the measure is significant "
        f"(p < 0.05) and at most -{MATERIAL_RHO}; a significant but weaker trend is about flat over thousands of "
        "positions and does not hold.",
        *sections,
        "## The paper's claims",
        findings_text(findings),
    ])  # fmt: skip
    write_outputs(run, "figures", markdown, {}, {"figures": data})
    return Output("figures", markdown, [run.out / "figures.md", *files], bar.n)


# ---------------------------------------------------------------- Tables 7, 8 and 9


def feature_cells(run: Run, name: str, groups: Sequence[tuple[str, ...]]) -> tuple[list[Cell], int]:
    """H1 with each group of features against H2, both at depth 4."""
    bar = run.progress(name, len(groups) * 2 * run.settings.pairs)
    h2 = run.spec("square_values", FEATURE_DEPTH)
    cells = [run.paired(f"H1 {'+'.join(g)}", "H2", run.spec("c4_features", FEATURE_DEPTH, feature_weights(g)), h2, bar)
             for g in groups]  # fmt: skip
    bar.close()
    return cells, bar.n


def none_beats(cells: Sequence[Cell]) -> str:
    """Verdict on "no A beats its B": fails if one does significantly; holds if each A either loses significantly
    or is level within the margin (its interval ends below 1/2 + MARGIN); otherwise open."""
    if any(beats(c) == HOLDS for c in cells):
        return FAILS
    if all(beats(c) == FAILS or near_even(c) == HOLDS for c in cells):
        return HOLDS
    return OPEN


def table7(run: Run) -> Output:
    """Depth 4: H1 with a single feature (F1, F2, F3 or F4) against H2."""
    cells, games = feature_cells(run, "table7", TABLE7)
    by = {c.a.split()[1]: c for c in cells}
    score_bars(cells, "Table 7: H1 with one feature vs H2, depth 4", run.out / "table7.png")
    findings = [
        ("No single feature of H1 beats H2", "; ".join(f"{c.a}: {fmt_score(c)}" for c in cells), none_beats(cells)),
        ("F1 is about as strong as F3", f"F1 - F3 = {fmt_diff(by['F1'], by['F3'])} (margin +-{MARGIN})", similar(by["F1"], by["F3"])),
        ("F2 is about as strong as F4", f"F2 - F4 = {fmt_diff(by['F2'], by['F4'])} (margin +-{MARGIN})", similar(by["F2"], by["F4"])),
    ]  # fmt: skip
    markdown = "\n\n".join([
        "# Table 7: H1 with a single feature against H2, depth 4",
        settings_text(run),
        "F1..F4 are the paper's features (Table 1); a feature is off when its weights are 0 "
        "(F1 `f1_four`; F2 the four `f2_*` weights; F3 the three `f3_*`; F4 the four `f4_col_*`).",
        cells_table(cells),
        "## The paper's claims",
        findings_text(findings),
        "![Table 7](table7.png)",
    ])  # fmt: skip
    write_outputs(run, "table7", markdown, {"cells": cells})
    return Output("table7", markdown, [run.out / "table7.md", run.out / "table7.png"], games)


def table8(run: Run) -> Output:
    """Depth 4: H1 with F4+F3, F4+F3+F2, all features, and F1+F2 against H2."""
    cells, games = feature_cells(run, "table8", TABLE8)
    f43, f432, full, f12 = cells
    score_bars(cells, "Table 8: H1 with combined features vs H2, depth 4", run.out / "table8.png")
    # Identical results and node counts mean identical games: adding the feature changed no move, so it cannot
    # have won more (F1 scores only four-in-a-row, which the search scores as a win before any evaluation).
    chain = [FAILS if same_games(more, fewer) else greater(more, fewer) for more, fewer in ((f432, f43), (full, f432))]
    same = " (the same games: F1 changes no move)" if same_games(full, f432) else ""
    findings = [
        ("More features win more (F4+F3 < F4+F3+F2 < all four)",
         f"F4+F3+F2 - F4+F3 = {fmt_diff(f432, f43)}; all - F4+F3+F2 = {fmt_diff(full, f432)}{same}", combine(chain)),
        ("H1 with F1+F2 only is close to H2", f"F1+F2: {fmt_score(f12)} (close: within 1/2 +- {MARGIN})", near_even(f12)),
    ]  # fmt: skip
    markdown = "\n\n".join([
        "# Table 8: H1 with combined features against H2, depth 4",
        settings_text(run),
        cells_table(cells),
        "## The paper's claims",
        findings_text(findings),
        "![Table 8](table8.png)",
    ])  # fmt: skip
    write_outputs(run, "table8", markdown, {"cells": cells})
    return Output("table8", markdown, [run.out / "table8.md", run.out / "table8.png"], games)


def same_games(first: Cell, second: Cell) -> bool:
    """True if two cells against the same opponent have the same results and node counts: the same games."""
    return (first.wins, first.draws, first.losses, first.nodes) == (second.wins, second.draws, second.losses, second.nodes)


def much_weaker(cell: Cell) -> str:
    """Verdict on "A is much weaker than B": A's score below 1/2 - MARGIN (holds if the whole interval is, fails if
    none of it is)."""
    if cell.estimate.n < MIN_SAMPLES:
        return OPEN
    if cell.estimate.score_high < 0.5 - MARGIN:
        return HOLDS
    if cell.estimate.score_low > 0.5 - MARGIN:
        return FAILS
    return OPEN


def table9(run: Run) -> Output:
    """H1 against H2 at equal depths."""
    s = run.settings
    bar = run.progress("table9", len(s.depths) * 2 * s.pairs)
    cells = [run.paired(f"H1 d{d}", f"H2 d{d}", run.spec("c4_features", d), run.spec("square_values", d), bar) for d in s.depths]
    bar.close()
    score_bars(cells, "Table 9: H1 vs H2 at equal depths", run.out / "table9.png")
    shallow = [c for d, c in zip(s.depths, cells) if d <= 2]
    deep = [c for d, c in zip(s.depths, cells) if d >= 4]
    findings = []
    if shallow:
        findings.append(("At depth 2, H1 is much weaker than H2",
                         "; ".join(f"{c.a}: {fmt_score(c)} (much weaker: below 1/2 - {MARGIN})" for c in shallow),
                         combine([much_weaker(c) for c in shallow])))  # fmt: skip
    if deep:
        findings.append(("From depth 4 on, H1 is a little stronger than H2",
                         "; ".join(f"{c.a}: {fmt_score(c)}" for c in deep) + f"; together: {fmt_pooled(deep)}",
                         combine([beats(c) for c in deep])))  # fmt: skip
    markdown = "\n\n".join([
        f"# Table 9: H1 against H2 at equal depths {', '.join(map(str, s.depths))}",
        settings_text(run),
        cells_table(cells),
        "## The paper's claims",
        findings_text(findings),
        "![Table 9](table9.png)",
    ])  # fmt: skip
    write_outputs(run, "table9", markdown, {"cells": cells})
    return Output("table9", markdown, [run.out / "table9.md", run.out / "table9.png"], bar.n)


# ---------------------------------------------------------------- beyond the paper


def tuned(run: Run) -> Output:
    """The tuned weights against the paper's defaults and against H2, at each depth."""
    s = run.settings
    path = s.tuned if s.tuned.exists() else STAND_IN_WEIGHTS
    weights = file_weights(str(path))
    defaults = {w.name: w.default for w in get_spec("c4_features").weights}
    note = "" if path == s.tuned else (f"**Stand-in:** `{s.tuned.relative_to(ROOT) if s.tuned.is_relative_to(ROOT) else s.tuned}` "
                                       f"does not exist yet, so these games use `{path.relative_to(ROOT)}` (the paper's "
                                       "defaults): the tuned-vs-defaults rows measure nothing but noise.")  # fmt: skip
    budget = tuner_budget(path)
    bar = run.progress("tuned", (3 * len(s.depths) + (budget is not None)) * 2 * s.pairs)
    vs_defaults, vs_h2, defaults_vs_h2 = [], [], []
    for d in s.depths:  # no random moves: the tuner judged the weights in games without them
        spec_tuned, spec_h1 = run.spec("c4_features", d, weights, random=False), run.spec("c4_features", d, random=False)
        spec_h2 = run.spec("square_values", d, random=False)
        vs_defaults.append(run.paired(f"tuned d{d}", f"H1 d{d}", spec_tuned, spec_h1, bar))
        vs_h2.append(run.paired(f"tuned d{d}", f"H2 d{d}", spec_tuned, spec_h2, bar))
        defaults_vs_h2.append(run.paired(f"H1 d{d}", f"H2 d{d}", spec_h1, spec_h2, bar))
    at_budget = []
    if budget is not None:  # the tuner's own setting: a node budget, the depth capped
        nodes, depth = budget
        label = f"n{nodes}"
        at_budget.append(run.paired(f"tuned {label}", f"H1 {label}", run.spec("c4_features", depth, weights, random=False)
                                    + f",nodes={nodes}", run.spec("c4_features", depth, random=False) + f",nodes={nodes}", bar))  # fmt: skip
    bar.close()
    score_bars(vs_defaults + vs_h2 + defaults_vs_h2 + at_budget, "Tuned weights vs the paper's defaults and vs H2",
               run.out / "tuned.png")  # fmt: skip
    weight_rows = [[name, f"{defaults[name]:,.6g}", f"{value:,.6g}",
                    f"{value / defaults[name]:.3g}x" if defaults[name] else ("=" if value == 0 else "was 0")]
                   for name, value in weights.items()]  # fmt: skip
    provenance = ""
    try:
        provenance = json.dumps(json.loads(path.read_text()).get("provenance", {}), indent=1)
    except (OSError, ValueError):
        pass
    findings = [(f"(ours) tuned beats the paper's defaults at depth {c.a.split()[1][1:]}", fmt_score(c), beats(c)) for c in vs_defaults]
    findings += [(f"(ours) tuned beats H2 at depth {c.a.split()[1][1:]}", fmt_score(c), beats(c)) for c in vs_h2]
    findings += [(f"(ours) tuned beats the paper's defaults at the tuner's own setting ({budget[0]} nodes per move, "
                  f"depth at most {budget[1]})", fmt_score(c), beats(c)) for c in at_budget]  # fmt: skip
    markdown = "\n\n".join(filter(None, [
        "# Beyond the paper: tuned weights against the paper's defaults and against H2",
        settings_text(run, random=False),
        note,
        f"Tuned weights: `{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}`; only the weights are used: "
        "both sides search to the same fixed depth with every move (the file's node budget and branching factor are "
        "ignored, so the rows compare evaluations).",
        markdown_table(["weight", "paper default (ours)", "tuned", "ratio"], weight_rows, left=1),
        f"Provenance recorded in the file:\n\n```json\n{provenance}\n```" if provenance not in ("", "{}") else "",
        "## Tuned against the paper's defaults", cells_table(vs_defaults),
        "## Tuned against H2", cells_table(vs_h2),
        "## The paper's defaults against H2 (the reference for the rows above: no random moves here, unlike Table 9)",
        cells_table(defaults_vs_h2),
        *(["## At the tuner's own setting",
           f"Both sides search with the weight file's node budget ({budget[0]} nodes per move) and depth cap "
           f"({budget[1]}), as `python -m tuning.run` judged the weights (on its own openings; here this run's).",
           cells_table(at_budget)] if budget is not None else []),
        "## Verdicts", findings_text(findings),
        "![tuned](tuned.png)",
    ]))  # fmt: skip
    write_outputs(run, "tuned", markdown, {"vs_defaults": vs_defaults, "vs_h2": vs_h2, "defaults_vs_h2": defaults_vs_h2,
                                           "at_budget": at_budget}, {"weights_file": str(path)})  # fmt: skip
    return Output("tuned", markdown, [run.out / "tuned.md", run.out / "tuned.png"], bar.n)


def tuner_budget(path: Path) -> Optional[tuple[int, int]]:
    """``(nodes, depth)`` of a weight file's search settings if it has a node budget and a depth cap, else None."""
    try:
        search = json.loads(path.read_text()).get("search", {})
    except (OSError, ValueError):
        return None
    nodes, depth = search.get("nodes"), search.get("depth")
    return (int(nodes), int(depth)) if isinstance(nodes, int) and isinstance(depth, int) else None


def perfect_available() -> Optional[str]:
    """None if the ``perfect`` agent exists, else why not."""
    try:
        make_agent(PERFECT, CONNECT4, 0)
    except AgentSpecError as error:
        return str(error)
    return None


def perfect(run: Run) -> Output:
    """Each Connect-4 evaluator against perfect play: draws held and wins converted, by the opening's true value."""
    s = run.settings
    missing = perfect_available()
    if missing is not None:
        markdown = "\n\n".join([
            "# Beyond the paper: each evaluator against perfect play",
            "**Skipped:** the exact solver's agent (spec `perfect`) is not available in this checkout:",
            f"> {missing}",
            "Run `python -m scripts.reproduce_paper perfect` once the solver is merged.",
        ])  # fmt: skip
        write_text_atomic(run.out / "perfect.md", markdown + "\n")
        return Output("perfect", markdown, [run.out / "perfect.md"], 0)
    bar = run.progress("perfect: solving openings", s.perfect_pairs * CANDIDATES_PER_PAIR)
    openings, values = run.balanced_openings(s.perfect_plies, s.perfect_pairs, bar)
    solved = bar.n
    bar.close()
    path = s.tuned if s.tuned.exists() else STAND_IN_WEIGHTS
    players = [(f"{name} d{s.perfect_depth}", run.spec(name, s.perfect_depth, random=False))
               for name in NAMES if get_spec(name).refuse(CONNECT4) is None]  # fmt: skip
    players.insert(1, (f"tuned d{s.perfect_depth}", run.spec("c4_features", s.perfect_depth, file_weights(str(path)), random=False)))
    bar = run.progress("perfect", len(players) * 2 * len(openings))
    rows, cells = [], []
    for label, spec in players:
        counts = {v: [0, 0] for v in (1.0, 0.5, 0.0)}  # true value for our side -> [games, games with that result]

        def record(result: object) -> bool:
            bar.update(2)
            return False

        match = run.runner().match(CONNECT4, spec, PERFECT, openings, len(openings), s.seed, on_pair=record)
        for pair in match.pairs:
            value = values[tuple(pair.opening)]
            for truth, score in ((value, pair.scores[0]), (1.0 - value, pair.scores[1])):
                counts[truth][0] += 1
                counts[truth][1] += score == truth
        cell = cell_from_match(label, "perfect", match)
        cells.append(cell)
        rate = [f"{k}/{n} = {k / n:.0%} [{wilson(k, n)[0]:.0%}, {wilson(k, n)[1]:.0%}]" if n else "-"
                for n, k in (counts[0.5], counts[1.0])]  # fmt: skip
        rows.append([label, str(cell.games), str(cell.wins), str(cell.draws), str(cell.losses), fmt_score(cell), *rate,
                     f"{counts[0.0][1]}/{counts[0.0][0]}"])  # fmt: skip
    bar.close()
    score_bars(cells, f"Evaluators at depth {s.perfect_depth} vs perfect play", run.out / "perfect.png")
    classes = {name: sum(1 for v in values.values() if v == value) for name, value in (("won", 1.0), ("drawn", 0.5), ("lost", 0.0))}
    markdown = "\n\n".join([
        "# Beyond the paper: each evaluator against perfect play",
        settings_text(run, random=False, plies=s.perfect_plies, pairs=s.perfect_pairs),
        f"No random moves here. The openings are {s.perfect_plies} plies long, so that the solver answers each move "
        f"in well under a second (from 4 plies it takes up to minutes). They are balanced: random openings are "
        f"mostly decided, so {solved} were solved to pick {classes['drawn']} drawn ones (both games of their pair "
        f"test holding a draw) and {classes['won'] + classes['lost']} decided ones (one game of their pair tests "
        f"converting the win, the other is lost against perfect play whatever the evaluator does). Values for the "
        f"side to move: {classes['won']} won, {classes['drawn']} drawn, {classes['lost']} lost.",
        markdown_table(["evaluator", "games", "W", "D", "L", "score [95% CI]", "drawn positions: draw held",
                        "won positions: win converted", "lost positions: lost"], rows, left=1),  # fmt: skip
        "![perfect](perfect.png)",
    ])  # fmt: skip
    write_outputs(run, "perfect", markdown, {"cells": cells}, {"opening_values": {str(k): v for k, v in values.items()}})
    return Output("perfect", markdown, [run.out / "perfect.md", run.out / "perfect.png"], bar.n)


RUNNERS: dict[str, Callable[[Run], Output]] = {
    "table6": table6, "figures": figures, "table7": table7, "table8": table8, "table9": table9,
    "tuned": tuned, "perfect": perfect,
}  # fmt: skip


def run_summary(run: Run, outputs: Sequence[Output], seconds: float) -> str:
    """``run.md``: what ``all`` ran, its wall time per experiment and in total."""
    workers = run.settings.workers
    rows = [[o.name, f"{o.games:,}", f"{o.seconds:,.0f}", f"{o.cpu_seconds:,.0f}", f"{o.cpu_seconds / workers:,.0f}",
             f"{o.games / o.seconds:.2f}" if o.seconds > 0 and o.games else "-"] for o in outputs]  # fmt: skip
    cpu = sum(o.cpu_seconds for o in outputs)
    return "\n\n".join([
        "# The whole reproduction",
        settings_text(run),
        markdown_table(["experiment", "games", "wall s", "CPU s", f"CPU s / {workers} workers", "games/s (wall)"], rows, left=1),
        f"Total: {sum(o.games for o in outputs):,} games in {seconds:,.0f} s wall ({seconds / 60:.1f} min) on "
        f"{workers} worker(s); {cpu:,.0f} CPU seconds, i.e. about {cpu / workers / 60:.1f} min on {workers} idle cores. "
        "Wall time on a shared machine depends on the other jobs; CPU time does not (much).",
    ])  # fmt: skip


DEPTH = int_range(1, 12)
"""Search depths the experiments accept (depth 12 already takes the agents seconds per move)."""


def tuned_file(text: str) -> Path:
    """``--tuned``: a readable Connect-4 ``c4_features`` weight file (checked with :func:`heuristics.load_weights`)."""
    path = Path(text).expanduser().resolve()
    try:
        heuristic = load_weights(path, CONNECT4).heuristic
    except WeightFileError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if heuristic != "c4_features":
        raise argparse.ArgumentTypeError(f"{text}: a {heuristic} weight file; the tuned experiments need c4_features weights")
    return path


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.reproduce_paper",
        description="Replay the Connect-4 experiments of Kang, Wang and Hu (2019): Tables 6-9, Figures 12-13, "
        "and two beyond the paper (tuned weights, perfect play), with 95%% intervals.",
    )
    parser.add_argument("experiment", choices=(*EXPERIMENTS, "all"), help="which experiment ('all': every one)")
    parser.add_argument("--games", type=int_range(2), default=1000,
                        help="games per cell (default 1000; paired cells round up to even)")
    parser.add_argument("--perfect-games", type=int_range(2), default=200,
                        help="games per evaluator against perfect play (default 200: the solver makes them the slowest)")
    parser.add_argument("--workers", type=positive_int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seeds the openings and every agent (default 0)")
    parser.add_argument("--random-every", type=non_negative_int, default=3,
                        help="in the paper's experiments both sides play a random move every N own moves, as the paper "
                        "(default 3; 0: never); tuned and perfect never do")
    parser.add_argument("--plies", type=int_range(1, 12), default=4, help="random plies per opening, 1..12 (default 4)")
    parser.add_argument("--depths", type=int_list(1, 12),
                        help=f"depths of Tables 6 and 9 and of the tuned comparison, each 1..12 (default {PAPER_DEPTHS_TEXT}, "
                        f"with --quick {QUICK_DEPTHS})")  # fmt: skip
    parser.add_argument("--figure-games", type=positive_int, help="self-play games per figure (default games/10, at most 100)")
    parser.add_argument("--perfect-depth", type=DEPTH, default=4, help="depth of the evaluators against perfect play (default 4)")
    parser.add_argument("--perfect-plies", type=int_range(8, 20), default=10,
                        help="random plies of the openings played against perfect play, 8..20 (default 10: the solver "
                        "needs well under a second per move from there, against up to minutes from 4 plies)")
    parser.add_argument("--tuned", type=tuned_file, help=f"tuned c4_features weight file (default "
                        f"{TUNED_WEIGHTS.relative_to(ROOT)}; while it does not exist, {STAND_IN_WEIGHTS.relative_to(ROOT)} "
                        "stands in)")  # fmt: skip
    parser.add_argument("--out", type=writable_dir, default=str(DEFAULT_OUT),
                        help=f"output folder (default {DEFAULT_OUT.relative_to(ROOT)}, git-ignored; --out docs/results "
                        "regenerates the committed results)")  # fmt: skip
    parser.add_argument("--quick", action="store_true",
                        help=f"smoke run: {QUICK_GAMES} games per cell, 1 game per figure, depths {QUICK_DEPTHS}")  # fmt: skip
    return parser


def parse_settings(argv: Sequence[str]) -> Settings:
    """Check the whole command line, ``--tuned``'s content included, before anything runs.

    argparse exits with code 2 and a one-line message naming the bad value.
    """
    parser = _parser()
    args = parser.parse_args(argv)
    depths = args.depths or int_list(1, 12)(QUICK_DEPTHS if args.quick else PAPER_DEPTHS_TEXT)
    tuned = args.tuned
    if tuned is None:  # the default file is checked too; while it does not exist, the experiments use the stand-in
        tuned = TUNED_WEIGHTS
        if TUNED_WEIGHTS.exists():
            try:
                tuned = tuned_file(str(TUNED_WEIGHTS))
            except argparse.ArgumentTypeError as error:
                parser.error(f"argument --tuned (default): {error}")
    games = QUICK_GAMES if args.quick else args.games
    figure_games = 1 if args.quick else (args.figure_games or min(100, max(2, args.games // 10)))
    return Settings(games, args.workers or default_workers(), args.seed, args.random_every, args.plies, depths, figure_games,
                    args.perfect_depth, args.perfect_plies,
                    QUICK_GAMES if args.quick else args.perfect_games, tuned, args.out, args.quick, tuple(argv),
                    args.experiment)  # fmt: skip


def run_experiment(run: Run, name: str) -> Output:
    """Run one experiment in a staging folder and move its files into the output folder only once it has finished."""
    began, began_cpu = time.perf_counter(), cpu_seconds()
    with staged_folder(run.settings.out, name) as staging:
        run.out = staging
        try:
            output = RUNNERS[name](run)
        finally:
            run.out = run.settings.out
    output.files = [run.settings.out / path.name for path in output.files]
    output.seconds, output.cpu_seconds = time.perf_counter() - began, cpu_seconds() - began_cpu
    return output


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the chosen experiment(s), print each table, write the output folder (default runs/paper)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    settings = parse_settings(argv)
    names = EXPERIMENTS if settings.experiment == "all" else (settings.experiment,)
    run = Run(settings)
    outputs, started = [], time.perf_counter()
    try:
        for name in names:
            output = run_experiment(run, name)
            outputs.append(output)
            print(output.markdown, end="\n\n", flush=True)
    finally:
        run.close()
    if len(names) > 1:
        summary = run_summary(run, outputs, time.perf_counter() - started)
        write_text_atomic(settings.out / "run.md", summary + "\n")
        print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
