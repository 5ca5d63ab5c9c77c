"""What a tuning run leaves behind: CSV tables, plots, ``summary.md``, the end-of-run table.

Private to :mod:`tuning.run`.
"""

from __future__ import annotations

import csv
import io
import math
import os
import warnings
from pathlib import Path
from typing import Any, Optional, Sequence

import optuna
from optuna.trial import TrialState

from tuning._confirm import Confirmation, Versus, unique
from tuning._setup import Setup
from tuning._study import redact
from tuning.gauntlet import describe
from tuning.spsa import OBJECTIVE_ATTR


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
    """One dict per trial: number, state, start (incumbent, defaults, fit), mean score over the pairs it played,
    Elo with its interval, games, nodes/move, parameters.

    The score is the trial's own estimate from every pair it played, for a pruned trial too (Optuna keeps the
    last report as a pruned trial's value: one pair's score, 0 to 1, whatever the pairs before it said).
    """
    names = sorted({n for t in study.trials for n in t.params})
    rows = []
    for t in study.trials:
        row: dict[str, Any] = {"number": t.number, "state": t.state.name, "start": t.user_attrs.get("start", "")}
        score = t.user_attrs.get("score")
        if score is None and t.state == TrialState.COMPLETE and t.values:
            score = t.values[0]  # a study made before the score was recorded
        row["score"] = score
        if len(study.directions) > 1:
            row["nodes_per_move_objective"] = t.values[1] if t.values else None
        row.update({k: t.user_attrs.get(k) for k in ("elo", "elo_low", "elo_high", "pairs", "games", "nodes_per_move")})
        row["pentanomial"] = " ".join(map(str, t.user_attrs.get("pentanomial", [])))
        row.update({n: t.params.get(n) for n in names})
        rows.append(row)
    return rows


def write_plots(study: optuna.Study, run_dir: Path, setup: Optional[Setup] = None,
                confirmations: Sequence[Confirmation] = ()) -> list[str]:  # fmt: skip
    """PNG plots: Elo by trial (``progress.png``, confirmed trials with their intervals), each weight's move from its
    start (``weights.png``), Optuna's history and importances; returns notes on plots that could not be drawn."""
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
        plots["progress.png"] = lambda: _progress_plot(plt, study, confirmations)
        if setup is not None and confirmations:
            plots["weights.png"] = lambda: _weights_plot(plt, setup, _chosen(confirmations))
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


def _chosen(confirmations: Sequence[Confirmation]) -> Confirmation:
    """The confirmation the verdict is about: the best accepted one, else the best of all (to explain why not);
    best by the lower bound against its strongest opponent, then by the pooled lower bound (a pool carried by weak
    members says little)."""
    accepted = [c for c in confirmations if c.accepted]
    return max(accepted or confirmations, key=lambda c: (strongest(c).estimate.elo_low, c.estimate.elo_low, c.estimate.elo))


def choose(confirmations: Sequence[Confirmation]) -> Optional[Confirmation]:
    """:func:`_chosen`, or None without a confirmation."""
    return _chosen(confirmations) if confirmations else None


def _progress_plot(plt: Any, study: optuna.Study, confirmations: Sequence[Confirmation]) -> Any:
    """Each trial's Elo against the gauntlet in the search, and the confirmed ones with their 95% intervals."""
    figure, axes = plt.subplots()
    for state, spsa, marker, label in (
        (TrialState.COMPLETE, False, "o", "search: played in full"),
        (TrialState.PRUNED, False, "x", "search: pruned (estimate from the pairs played)"),
        # an SPSA iteration plays theta+ against theta-, not the opponents: its Elo is the one over the other
        (TrialState.COMPLETE, True, ".", "SPSA iteration: theta+ over theta- (not against the opponents)"),
    ):  # fmt: skip
        points = [(t.number, t.user_attrs["elo"]) for t in study.trials
                  if t.state == state and isinstance(t.user_attrs.get("elo"), (int, float))
                  and (t.user_attrs.get(OBJECTIVE_ATTR) == "spsa") == spsa]  # fmt: skip
        if points:
            axes.scatter(*zip(*points), marker=marker, s=18, alpha=0.6, label=label)
    for index, (attr, label) in enumerate((("pool", "confirmed, all opponents together"),
                                           ("strongest", "confirmed, against the strongest opponent"))):  # fmt: skip
        rows = []
        for c in confirmations:
            e = c.estimate if attr == "pool" else strongest(c).estimate
            if all(map(math.isfinite, (e.elo, e.elo_low, e.elo_high))):
                rows.append((c.trial.number + 0.25 * index, e.elo, e.elo - e.elo_low, e.elo_high - e.elo))
        if rows:
            x, y, low, high = zip(*rows)
            axes.errorbar(x, y, yerr=[low, high], fmt="s", capsize=4, label=label)
    axes.axhline(0.0, color="grey", linewidth=0.8)
    axes.set_xlabel("trial")
    axes.set_ylabel("Elo (95% interval where confirmed)")
    axes.set_title("Elo by trial")
    axes.legend(fontsize=8)
    return axes


def _weights_plot(plt: Any, setup: Setup, chosen: Confirmation) -> Any:
    """How far each searched weight moved from the evaluator's default (log2 of the ratio): the fit and the result."""
    rows = weight_rows(setup, chosen)
    figure, axes = plt.subplots(figsize=(8, max(3.0, 0.28 * len(rows))))
    names = [r["name"] for r in rows]
    for key, label, marker in (("fit", "Texel fit", "|"), ("result", f"trial {chosen.trial.number}", "o")):
        values = [_log_ratio(r[key], r["default"]) for r in rows]
        points = [(v, i) for i, v in enumerate(values) if v is not None]
        if points:
            axes.scatter(*zip(*points), marker=marker, s=60 if marker == "|" else 25, label=label)
    axes.set_yticks(range(len(names)), names, fontsize=7)
    axes.axvline(0.0, color="grey", linewidth=0.8)
    axes.set_xlabel("log2(value / default); ±6 where one side is 0")
    axes.set_title("Weights against the evaluator's defaults")
    axes.legend(fontsize=8)
    return axes


def _log_ratio(value: Optional[float], default: float) -> Optional[float]:
    if value is None:
        return None
    if value == default:
        return 0.0
    if value <= 0 or default <= 0:
        return -6.0 if value < default else 6.0
    return max(-6.0, min(6.0, math.log2(value / default)))


def weight_rows(setup: Setup, chosen: Confirmation) -> list[dict[str, Any]]:
    """Per searched parameter: its default (start), the fit's value (None without a fit) and the chosen trial's."""
    defaults = setup.space.defaults()
    return [{"name": name, "default": float(defaults[name]),
             "fit": float(setup.warm[name]) if setup.warm is not None and name in setup.warm else None,
             "result": float(chosen.trial.params[name]) if name in chosen.trial.params else None}
            for name in setup.space.names]  # fmt: skip


def strongest(confirmation: Confirmation) -> Versus:
    """The opponent the candidate did worst against in its confirmation (the pool itself for a lone opponent)."""
    return min(confirmation.members, key=lambda m: (m.estimate.elo, m.estimate.elo_high)) if confirmation.members \
        else confirmation.pool


def summary_markdown(setup: Setup, study: optuna.Study, confirmations: list[Confirmation], verdict: str,
                     notes: list[str], seconds: float, games: int, advice: Sequence[str] = ()) -> str:  # fmt: skip
    """The run's ``summary.md``: what was done, the verdict and what to try next, the confirmations, the weights."""
    a = setup.config
    states = {s.name: sum(t.state == s for t in study.trials) for s in TrialState}
    lines = [f"# Tuning run: study `{setup.study_name}`", ""]
    if a.quick:
        lines += quick_look(setup, confirmations) + [""]
    lines += ["## Verdict", "", verdict, ""] + [f"- {line}" for line in advice] + (["" if advice else ""])
    lines += [
        "## What was done", "",
        f"- game: {setup.game}; heuristic: `{setup.space.heuristic}`; mode: {a.mode}"
        + (f", node budget {a.nodes} per move for both sides" if a.mode == "fair" else ""),
        f"- opponents ({len(setup.opponents)}): " + ", ".join(f"`{n}`" for n in unique([describe(o) for o in setup.opponents])),
        f"- tuned: {', '.join(setup.space.names)}",
        "- incumbent: " + (f"{_named(setup.incumbent)}, to be beaten in an SPRT on nElo [{a.incumbent_sprt[0]:g}, "
                           f"{a.incumbent_sprt[1]:g}] capped at {a.incumbent_pairs} pairs" if setup.incumbent else "none"),
        f"- trials in the study: {len(study.trials)} ({', '.join(f'{k.lower()} {v}' for k, v in states.items() if v)})",
        f"- this invocation: {games} games in {seconds:.0f} s ({games / max(seconds, 1e-9):.1f} games/s), seed {a.seed}",
        f"- openings: {len(setup.book.tuning)} for tuning, {len(setup.book.heldout)} held out, {setup.book.plies} plies",
        "- fit: " + (f"Texel's method on {setup.fit['labels']}; held-out loss {_g(setup.fit['heldout_before'])} "
                     f"(defaults) -> {_g(setup.fit['heldout_after'])}; queued after the defaults, the search looks in a "
                     "box around it" if setup.fit else "none"),
        f"- sampler: {a.sampler_name}, pruner: {a.pruner_name}",
        "", "## Elo by trial", "", "![Elo by trial](progress.png)", "",
        "Each trial's Elo against the opponents in the search (pruned trials: from the pairs they played; an SPSA "
        "iteration's is its theta+ over its theta-, near 0 by design), and the confirmed trials with their 95% "
        "intervals on held-out openings.", "",
        "## Confirmation on held-out openings (fresh games)", "",
        "| trial | search score | confirmation pairs | W/D/L | Elo | 95% interval | LOS |", "|---|---|---|---|---|---|---|",
    ]  # fmt: skip
    for c in confirmations:
        w, d, l = c.wdl
        e = c.estimate
        lines.append(f"| {c.trial.number} | {search_score(c.trial)} | {e.n} | {w}/{d}/{l} | {e.elo:+.1f} | "
                     f"[{e.elo_low:+.1f}, {e.elo_high:+.1f}] | {e.los:.1%} |")  # fmt: skip
    if len(setup.opponents) > 1:
        lines += ["", "## Confirmation by opponent", "", "| trial | opponent | pairs | W/D/L | Elo | 95% interval |",
                  "|---|---|---|---|---|---|"]  # fmt: skip
        for c in confirmations:
            for m in c.members:
                e = m.estimate
                lines.append(f"| {c.trial.number} | `{m.name}` | {e.n} | {'/'.join(map(str, m.wdl))} | {e.elo:+.1f} | "
                             f"[{e.elo_low:+.1f}, {e.elo_high:+.1f}] |")  # fmt: skip
    if confirmations and setup.space.params:
        chosen = _chosen(confirmations)
        lines += ["", f"## Weights: the defaults, the fit, trial {chosen.trial.number}", "", "![weights](weights.png)", "",
                  "| parameter | default | fit | " + f"trial {chosen.trial.number} |", "|---|---:|---:|---:|"]  # fmt: skip
        for row in weight_rows(setup, chosen):
            lines.append(f"| `{row['name']}` | {_g(row['default'])} | {_g(row['fit'])} | {_g(row['result'])} |")
    lines.append("")
    if notes:
        lines += ["## Notes", ""] + [f"- {n}" for n in notes] + [""]
    lines += ["Browse the study with [optuna-dashboard](https://github.com/optuna/optuna-dashboard) "
              "(`pip install optuna-dashboard`): `optuna-dashboard " + redact(a.storage) + "`", ""]
    return "\n".join(lines)


def search_score(trial: Any) -> str:
    """A trial's mean score in the search (a pruned trial's from the pairs it played, marked ``p``)."""
    score = trial.user_attrs.get("score")
    if score is None:
        score = trial.values[0] if trial.values else math.nan
    return f"{score:.3f}" + ("p" if trial.state == TrialState.PRUNED else "")


def _named(incumbent: Any) -> str:
    """``the `threats` defaults`` or a file name in backticks."""
    return f"the `{incumbent.heuristic}` defaults" if incumbent.path is None else f"`{incumbent.name}`"


def _g(value: Optional[float]) -> str:
    return "" if value is None else f"{value:.4g}"


def quick_look(setup: Setup, confirmations: Sequence[Confirmation]) -> list[str]:
    """What a ``--quick`` run can and cannot show, with its own numbers."""
    a = setup.config
    width = ""
    if confirmations:
        e = _chosen(confirmations).estimate
        if math.isfinite(e.elo_low) and math.isfinite(e.elo_high):
            width = f" (here about ±{(e.elo_high - e.elo_low) / 2:.0f} Elo over the opponents together)"
    return ["## A quick look, not a tuning run", "",
            f"`--quick` played {a.trials} trials of at most {a.pairs} pairs, confirmed the best on {a.confirm_pairs} "
            f"held-out openings per opponent and capped the incumbent test at {a.incumbent_pairs} pairs, with no label "
            "making (a fit only where a set already exists).",
            "", "What it shows: that the board, the evaluator, the gauntlet and the fit work together; how many games a "
            "second this machine plays on this board (so how long a full run takes); a candidate far ahead of or far "
            "behind the opponents.",
            "", f"What it cannot show: a real improvement. Its intervals are wide{width}, so a gain of the size tuning "
            "finds (tens of Elo) is not told apart from noise, and its incumbent test can rarely decide. For that, run "
            "the same command without `--quick`."]  # fmt: skip


def print_table(confirmations: list[Confirmation]) -> None:
    """The end-of-run table on stdout: each confirmed trial, pooled, then by opponent when there are several."""
    print(f"{'trial':>5} {'search':>7} {'opponent':<22} {'pairs':>5} {'W/D/L':>11} {'Elo':>7} {'95% interval':>18} {'LOS':>6}")
    for c in confirmations:
        rows = [("all", c.pool)] + ([(m.name, m) for m in c.members] if len(c.members) > 1 else [])
        for i, (name, versus) in enumerate(rows):
            e = versus.estimate
            search = search_score(c.trial) if i == 0 else ""
            print(f"{c.trial.number if i == 0 else '':>5} {search:>7} {name[:22]:<22} {e.n:>5} {'/'.join(map(str, versus.wdl)):>11} "
                  f"{e.elo:>+7.1f} {f'[{e.elo_low:+.1f}, {e.elo_high:+.1f}]':>18} {e.los:>6.1%}")  # fmt: skip


