"""Beyond the paper: the tuned weights against the paper's defaults and H2, and every evaluator against perfect play."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from games import CONNECT4
from heuristics import NAMES, files, get_spec
from scripts._paper_play import file_weights
from scripts._paper_report import beats, cell_from_match, cells_table, fmt_score, markdown_table, score_bars, wilson
from scripts._paper_run import (
    CANDIDATES_PER_PAIR,
    PERFECT,
    ROOT,
    STAND_IN_WEIGHTS,
    Output,
    Run,
    findings_text,
    settings_text,
    write_outputs,
)
from search.budget import load_weight_file


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
        provenance = json.dumps(json.loads(files.read_text_capped(path)).get("provenance", {}), indent=1)
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
    _, limit = load_weight_file(path, CONNECT4)  # the file was checked when the command line was (tuned_file)
    return (limit.nodes, limit.depth) if limit.nodes is not None and limit.depth is not None else None


def perfect(run: Run) -> Output:
    """Each Connect-4 evaluator against perfect play: draws held and wins converted, by the opening's true value."""
    s = run.settings
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
