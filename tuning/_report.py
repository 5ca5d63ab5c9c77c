"""What a tuning run leaves behind: CSV tables, plots, ``summary.md``, the end-of-run table.

Private to :mod:`tuning.run`.
"""

from __future__ import annotations

import csv
import io
import os
import warnings
from pathlib import Path
from typing import Any

import optuna
from optuna.trial import TrialState

from tuning._confirm import Confirmation, unique
from tuning._setup import Setup
from tuning._study import redact
from tuning.gauntlet import describe


def csv_text(rows: list[dict[str, Any]]) -> str:
    """``rows`` as CSV text with a header (empty for no rows)."""
    buffer = io.StringIO()
    if rows:
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return buffer.getvalue()


def confirmation_rows(confirmations: list[Confirmation]) -> list[dict[str, Any]]:
    """One dict per confirmation: trial, spec, pairs, W/D/L, pentanomial counts, Elo and interval, LOS."""
    return [{"trial": c.trial.number, "spec": c.candidate.spec(), "pairs": c.estimate.n, "wdl": "/".join(map(str, c.wdl)),
             "pentanomial": " ".join(map(str, c.pentanomial)), "elo": c.estimate.elo, "elo_low": c.estimate.elo_low,
             "elo_high": c.estimate.elo_high, "los": c.estimate.los} for c in confirmations]  # fmt: skip


def trial_rows(study: optuna.Study) -> list[dict[str, Any]]:
    """One dict per trial: number, state, values, games, Elo, nodes/move, parameters."""
    names = sorted({n for t in study.trials for n in t.params})
    rows = []
    for t in study.trials:
        row: dict[str, Any] = {"number": t.number, "state": t.state.name}
        for i, v in enumerate(t.values or [None] * len(study.directions)):
            row["score" if i == 0 else "nodes_per_move_objective"] = v
        row.update({k: t.user_attrs.get(k) for k in ("pairs", "games", "elo", "nodes_per_move")})
        row["pentanomial"] = " ".join(map(str, t.user_attrs.get("pentanomial", [])))
        row.update({n: t.params.get(n) for n in names})
        rows.append(row)
    return rows


def write_plots(study: optuna.Study, run_dir: Path) -> list[str]:
    """PNG plots via optuna.visualization.matplotlib; returns notes on plots that could not be drawn."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from optuna.visualization import matplotlib as ovm
    except ImportError:
        return ["no plots: matplotlib is not installed (pip install matplotlib, or the 'tuning' extra)"]
    notes = []
    plots: dict[str, Any] = {}
    if len(study.directions) == 1:
        plots["history.png"] = lambda: ovm.plot_optimization_history(study)
        plots["importances.png"] = lambda: ovm.plot_param_importances(study)
    else:
        plots["pareto_front.png"] = lambda: ovm.plot_pareto_front(study, target_names=["score", "nodes per move"])
        plots["importances.png"] = lambda: ovm.plot_param_importances(study, target=lambda t: t.values[0], target_name="score")
    for name, draw in plots.items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                axes = draw()
            figure = axes.figure if hasattr(axes, "figure") else axes.flat[0].figure
            figure.set_size_inches(8, 5)
            temp = run_dir / f".{name}.tmp.png"
            figure.savefig(temp, dpi=100, bbox_inches="tight")
            os.replace(temp, run_dir / name)
            plt.close(figure)
        except Exception as error:  # e.g. importances need two completed trials with varied parameters
            notes.append(f"no {name}: {str(error).splitlines()[0] if str(error) else type(error).__name__}")
    return notes


def summary_markdown(setup: Setup, study: optuna.Study, confirmations: list[Confirmation], verdict: str,
                     notes: list[str], seconds: float, games: int) -> str:  # fmt: skip
    """The run's ``summary.md``: settings, top trials, confirmations, verdict."""
    a = setup.config
    states = {s.name: sum(t.state == s for t in study.trials) for s in TrialState}
    lines = [
        f"# Tuning run: study `{setup.study_name}`", "",
        f"- game: {setup.game}; heuristic: `{setup.space.heuristic}`; mode: {a.mode}"
        + (f", node budget {a.nodes} per move for both sides" if a.mode == "fair" else ""),
        f"- opponents ({len(setup.opponents)}): " + ", ".join(f"`{n}`" for n in unique([describe(o) for o in setup.opponents])),
        f"- tuned: {', '.join(setup.space.names)}",
        "- incumbent: " + (f"`{setup.incumbent.name}`, to be beaten in an SPRT on nElo [{a.incumbent_sprt[0]:g}, "
                           f"{a.incumbent_sprt[1]:g}] capped at {a.incumbent_pairs} pairs" if setup.incumbent else "none"),
        f"- trials in the study: {len(study.trials)} ({', '.join(f'{k.lower()} {v}' for k, v in states.items() if v)})",
        f"- this invocation: {games} games in {seconds:.0f} s ({games / max(seconds, 1e-9):.1f} games/s), seed {a.seed}",
        f"- openings: {len(setup.book.tuning)} for tuning, {len(setup.book.heldout)} held out, {setup.book.plies} plies",
        "", "## Confirmation on held-out openings (fresh games)", "",
        "| trial | search score | confirmation pairs | W/D/L | Elo | 95% interval | LOS |", "|---|---|---|---|---|---|---|",
    ]  # fmt: skip
    for c in confirmations:
        w, d, l = c.wdl
        e = c.estimate
        lines.append(f"| {c.trial.number} | {c.trial.values[0]:.3f} | {e.n} | {w}/{d}/{l} | {e.elo:+.1f} | "
                     f"[{e.elo_low:+.1f}, {e.elo_high:+.1f}] | {e.los:.1%} |")  # fmt: skip
    if len(setup.opponents) > 1:
        lines += ["", "## Confirmation by opponent", "", "| trial | opponent | pairs | W/D/L | Elo | 95% interval |",
                  "|---|---|---|---|---|---|"]  # fmt: skip
        for c in confirmations:
            for m in c.members:
                e = m.estimate
                lines.append(f"| {c.trial.number} | `{m.name}` | {e.n} | {'/'.join(map(str, m.wdl))} | {e.elo:+.1f} | "
                             f"[{e.elo_low:+.1f}, {e.elo_high:+.1f}] |")  # fmt: skip
    lines += ["", "## Verdict", "", verdict, ""]
    if notes:
        lines += ["## Notes", ""] + [f"- {n}" for n in notes] + [""]
    lines += ["Browse the study with [optuna-dashboard](https://github.com/optuna/optuna-dashboard) "
              "(`pip install optuna-dashboard`): `optuna-dashboard " + redact(a.storage) + "`", ""]
    return "\n".join(lines)


def print_table(confirmations: list[Confirmation]) -> None:
    """The end-of-run table on stdout: each confirmed trial, pooled, then by opponent when there are several."""
    print(f"{'trial':>5} {'search':>7} {'opponent':<22} {'pairs':>5} {'W/D/L':>11} {'Elo':>7} {'95% interval':>18} {'LOS':>6}")
    for c in confirmations:
        rows = [("all", c.pool)] + ([(m.name, m) for m in c.members] if len(c.members) > 1 else [])
        for i, (name, versus) in enumerate(rows):
            e = versus.estimate
            search = f"{c.trial.values[0]:.3f}" if i == 0 else ""
            print(f"{c.trial.number if i == 0 else '':>5} {search:>7} {name[:22]:<22} {e.n:>5} {'/'.join(map(str, versus.wdl)):>11} "
                  f"{e.elo:>+7.1f} {f'[{e.elo_low:+.1f}, {e.elo_high:+.1f}]':>18} {e.los:>6.1%}")  # fmt: skip


