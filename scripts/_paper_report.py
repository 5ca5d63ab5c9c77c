"""Cells, verdicts, Markdown tables and plots of ``reproduce_paper.py``.

A *cell* is one pairing of the paper's tables: A's wins, draws and losses
against B and A's mean score with a 95% interval.  Paired games (each
opening twice, colours swapped) get the pentanomial interval, single games
the trinomial one (see :mod:`tuning.stats`).

Verdicts on the paper's claims use the intervals only:

* "A beats B": *holds* when the interval of A's score lies above 1/2, *does
  not hold* when it lies below, otherwise it *cannot be decided*;
* "A and B are about as strong" (against a common opponent): *holds* when the
  95% interval of the score difference lies within +-:data:`MARGIN`, *does not
  hold* when it excludes 0, otherwise it *cannot be decided*.  The
  difference's standard error treats the two cells as independent, which
  overstates it when they share openings and seeds: conservative;
* "A tends to beat B" over several cells (deeper beats shallower, at every
  pair of depths): *holds* when the interval of the mean of the cells'
  scores lies above 1/2 and no cell lies significantly below, *does not
  hold* when the pooled interval lies below 1/2 or at most level, otherwise
  it *cannot be decided*.  A trend is a claim about the cells together: it
  can hold while single small gaps (d8 against d6) are still undecided.

Imported as ``from scripts._paper_report import ...`` (see ``_paper_play``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from scripts._files import atomic_path
from tuning.match import MatchResult
from tuning.stats import Z95, Estimate, pentanomial, trinomial
from tuning.stats import wilson as wilson  # the experiments' interval of a proportion (scripts import it from here)

MARGIN = 0.10
"""Largest score difference (about 70 Elo near 1/2) that still counts as "about as strong"."""
MIN_SAMPLES = 20
"""Fewer game pairs (or single games) than this decide nothing: the normal interval needs some games."""
HOLDS, FAILS, OPEN = "holds", "does not hold", "cannot be decided at this sample size"


@dataclass(frozen=True)
class Cell:
    """One pairing: A against B.

    Attributes:
        a, b: labels of the two players.
        wins, draws, losses: A's results.
        estimate: A's score with its 95% interval (and Elo).
        stderr: the standard error of A's mean score.
        paired: True if games came in colour-swapped pairs (pentanomial statistics).
        nodes: mean search nodes per searched move of A and of B.
    """

    a: str
    b: str
    wins: int
    draws: int
    losses: int
    estimate: Estimate
    stderr: float
    paired: bool
    nodes: tuple[float, float]

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """A's mean score."""
        return self.estimate.score


def _stderr(counts: Sequence[int], outcomes: Sequence[float]) -> float:
    n = sum(counts)
    if n == 0:
        return math.inf
    mean = sum(c * x for c, x in zip(counts, outcomes)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, outcomes)) / n
    return math.sqrt(var / n)


def cell_from_match(a: str, b: str, result: MatchResult) -> Cell:
    """The cell of a paired match (A is ``result``'s first agent)."""
    wins, draws, losses = result.wdl
    counts = result.pentanomial
    return Cell(a, b, wins, draws, losses, pentanomial(counts), _stderr(counts, (0.0, 0.25, 0.5, 0.75, 1.0)), True,
                (result.nodes_per_move(0), result.nodes_per_move(1)))  # fmt: skip


def cell_from_scores(a: str, b: str, scores: Sequence[float], nodes: tuple[float, float]) -> Cell:
    """The cell of single games with A's ``scores`` (1, 1/2 or 0 each)."""
    bad = [s for s in scores if s not in (0.0, 0.5, 1.0)]
    if bad:
        raise ValueError(f"game scores must be 0, 0.5 or 1; got {bad[:3]}")
    counts = (list(scores).count(1.0), list(scores).count(0.5), list(scores).count(0.0))
    return Cell(a, b, *counts, trinomial(*counts), _stderr(counts, (1.0, 0.5, 0.0)), False, nodes)


def beats(cell: Cell) -> str:
    """Verdict on "A beats B" from A's score interval."""
    if cell.estimate.n < MIN_SAMPLES:
        return OPEN
    if cell.estimate.score_low > 0.5:
        return HOLDS
    if cell.estimate.score_high < 0.5:
        return FAILS
    return OPEN


def difference(first: Cell, second: Cell) -> tuple[float, float, float]:
    """Score of ``first`` minus score of ``second``, with a 95% interval (cells taken as independent)."""
    diff = first.score - second.score
    half = Z95 * math.hypot(first.stderr, second.stderr)
    return diff, diff - half, diff + half


def similar(first: Cell, second: Cell, margin: float = MARGIN) -> str:
    """Verdict on "first and second score about the same" (an equivalence test with ``margin``)."""
    if min(first.estimate.n, second.estimate.n) < MIN_SAMPLES:
        return OPEN
    _, low, high = difference(first, second)
    if -margin <= low and high <= margin:
        return HOLDS
    if low > 0.0 or high < 0.0:
        return FAILS
    return OPEN


def greater(first: Cell, second: Cell) -> str:
    """Verdict on "first scores more than second"."""
    if min(first.estimate.n, second.estimate.n) < MIN_SAMPLES:
        return OPEN
    _, low, high = difference(first, second)
    if low > 0.0:
        return HOLDS
    if high < 0.0:
        return FAILS
    return OPEN


def combine(verdicts: Sequence[str]) -> str:
    """One verdict for a claim made of several: fails if any part fails, holds if all hold, else open."""
    if FAILS in verdicts:
        return FAILS
    if all(v == HOLDS for v in verdicts):
        return HOLDS
    return OPEN


def pooled(cells: Sequence[Cell]) -> tuple[float, float, float]:
    """The mean of the cells' scores with a 95% interval (cells taken as independent)."""
    mean = sum(c.score for c in cells) / len(cells)
    half = Z95 * math.sqrt(sum(c.stderr**2 for c in cells)) / len(cells)
    return mean, mean - half, mean + half


def tends_to_beat(cells: Sequence[Cell]) -> str:
    """Verdict on "A tends to beat B" over ``cells`` (see the module docstring)."""
    if not cells or any(c.estimate.n < MIN_SAMPLES for c in cells):
        return OPEN
    _, low, high = pooled(cells)
    if high <= 0.5:
        return FAILS
    if low > 0.5 and not any(beats(c) == FAILS for c in cells):
        return HOLDS
    return OPEN


def fmt_pooled(cells: Sequence[Cell]) -> str:
    """``mean 0.600 [0.570, 0.630]`` of the cells' scores."""
    mean, low, high = pooled(cells)
    return f"mean {mean:.3f} [{low:.3f}, {high:.3f}]"


def fmt_score(cell: Cell) -> str:
    """``0.613 [0.560, 0.666]``."""
    e = cell.estimate
    return f"{e.score:.3f} [{e.score_low:.3f}, {e.score_high:.3f}]"


def fmt_diff(first: Cell, second: Cell) -> str:
    """``+0.052 [-0.020, +0.124]``."""
    diff, low, high = difference(first, second)
    return f"{diff:+.3f} [{low:+.3f}, {high:+.3f}]"


def _fmt_elo(value: float) -> str:
    if not math.isfinite(value):
        return "+inf" if value > 0 else "-inf"
    return f"{round(value):+d}"


CELL_HEADER = ("A", "B", "games", "W", "D", "L", "A's score [95% CI]", "Elo A-B", "nodes/move A", "nodes/move B")


def cell_row(cell: Cell) -> list[str]:
    """The row of :data:`CELL_HEADER` for ``cell``."""
    e = cell.estimate
    return [cell.a, cell.b, str(cell.games), str(cell.wins), str(cell.draws), str(cell.losses), fmt_score(cell),
            f"{_fmt_elo(e.elo)} [{_fmt_elo(e.elo_low)}, {_fmt_elo(e.elo_high)}]", f"{cell.nodes[0]:,.0f}",
            f"{cell.nodes[1]:,.0f}"]  # fmt: skip


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]], left: int = 2) -> str:
    """A Markdown table, the first ``left`` columns left-aligned and the rest right-aligned."""
    table = [list(header), *[list(r) for r in rows]]
    widths = [max(3, *(len(row[c]) for row in table)) for c in range(len(header))]  # a delimiter needs a dash
    lines = []
    for r, row in enumerate(table):
        cells = [cell.ljust(w) if c < left else cell.rjust(w) for c, (cell, w) in enumerate(zip(row, widths))]
        lines.append(f"| {' | '.join(cells)} |")
        if r == 0:
            lines.append(f"| {' | '.join('-' * w if c < left else '-' * (w - 1) + ':' for c, w in enumerate(widths))} |")
    return "\n".join(lines)


def cells_table(cells: Sequence[Cell]) -> str:
    """The Markdown table of ``cells``."""
    return markdown_table(CELL_HEADER, [cell_row(c) for c in cells])


def save_figure(figure: object, path: Path) -> None:
    """Save a matplotlib figure as PNG atomically (a temporary file renamed over ``path``), then close it."""
    import matplotlib.pyplot as plt

    try:
        with atomic_path(path) as temp:
            figure.savefig(temp, dpi=110, bbox_inches="tight", format="png")  # type: ignore[attr-defined]
    finally:
        plt.close(figure)  # type: ignore[arg-type]


def pyplot():  # type: ignore[no-untyped-def]
    """matplotlib.pyplot on the file-only Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def score_bars(cells: Sequence[Cell], title: str, path: Path, labels: Optional[Sequence[str]] = None) -> None:
    """Horizontal bars of A's score with 95% intervals, one per cell, and the line at 1/2."""
    plt = pyplot()
    names = list(labels) if labels is not None else [f"{c.a} vs {c.b}" for c in cells]
    figure, axes = plt.subplots(figsize=(7.5, 0.45 * len(cells) + 1.4))
    ys = list(range(len(cells)))[::-1]
    scores = [c.score for c in cells]
    errors = [[c.score - c.estimate.score_low for c in cells], [c.estimate.score_high - c.score for c in cells]]
    axes.barh(ys, scores, xerr=errors, color="#4c78a8", capsize=3)
    axes.axvline(0.5, color="black", linewidth=0.8, linestyle="--")
    axes.set_yticks(ys, names)
    axes.set_xlim(0.0, 1.0)
    axes.set_xlabel("score of the first-named player (95% interval)")
    axes.set_title(title)
    save_figure(figure, path)


def score_matrix(matrices: Sequence[tuple[str, list[list[Optional[float]]]]], depths: Sequence[int], path: Path,
                 row_label: str, col_label: str) -> None:  # fmt: skip
    """Heatmaps of row player's score against column player, one panel per ``(title, matrix)``; None cells blank."""
    plt = pyplot()
    figure, axes = plt.subplots(1, len(matrices), figsize=(5.2 * len(matrices), 4.4), squeeze=False)
    for ax, (title, matrix) in zip(axes[0], matrices):
        values = [[math.nan if v is None else v for v in row] for row in matrix]
        image = ax.imshow(values, cmap="RdBu", vmin=0.0, vmax=1.0)
        for r, row in enumerate(matrix):
            for c, v in enumerate(row):
                dark = v is not None and abs(v - 0.5) > 0.3  # white text on the saturated ends of the colour map
                ax.text(c, r, "-" if v is None else f"{v:.2f}", ha="center", va="center", fontsize=10,
                        color="white" if dark else "black")  # fmt: skip
        ax.set_xticks(range(len(depths)), [str(d) for d in depths])
        ax.set_yticks(range(len(depths)), [str(d) for d in depths])
        ax.set_xlabel(col_label)
        ax.set_ylabel(row_label)
        ax.set_title(title, fontsize=10)
    figure.colorbar(image, ax=list(axes[0]), shrink=0.8, label="row player's score")
    save_figure(figure, path)


def flip(cell: Cell) -> Cell:
    """The same cell from B's point of view."""
    e = cell.estimate
    mirrored = Estimate(e.n, e.games, 1.0 - e.score, 1.0 - e.score_high, 1.0 - e.score_low, -e.elo, -e.elo_high, -e.elo_low,
                        1.0 - e.los, e.confidence)  # fmt: skip
    return Cell(cell.b, cell.a, cell.losses, cell.draws, cell.wins, mirrored, cell.stderr, cell.paired,
                (cell.nodes[1], cell.nodes[0]))  # fmt: skip


def near_even(cell: Cell, margin: float = MARGIN) -> str:
    """Verdict on "A is about as strong as B": A's score interval within 1/2 +- ``margin``."""
    e = cell.estimate
    if e.n < MIN_SAMPLES:
        return OPEN
    if 0.5 - margin <= e.score_low and e.score_high <= 0.5 + margin:
        return HOLDS
    if e.score_low > 0.5 + margin or e.score_high < 0.5 - margin:
        return FAILS
    return OPEN
