"""Tables 6 to 9 of the paper: H1 (``c4_features``) against itself by depth, with some features against H2, and against H2."""

from __future__ import annotations

from typing import Sequence

from scripts._paper_play import feature_weights
from scripts._paper_report import (
    FAILS,
    HOLDS,
    MARGIN,
    MIN_SAMPLES,
    OPEN,
    Cell,
    beats,
    cells_table,
    combine,
    flip,
    fmt_diff,
    fmt_pooled,
    fmt_score,
    greater,
    markdown_table,
    near_even,
    score_bars,
    score_matrix,
    similar,
    tends_to_beat,
)
from scripts._paper_run import Output, Run, findings_text, settings_text, write_outputs

FEATURE_DEPTH = 4
"""The paper's situation 2 (Tables 7 and 8) plays at depth 4."""
TABLE7 = (("F1",), ("F2",), ("F3",), ("F4",))
TABLE8 = (("F4", "F3"), ("F4", "F3", "F2"), ("F1", "F2", "F3", "F4"), ("F1", "F2"))


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
