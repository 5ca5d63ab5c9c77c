"""Figures 12 and 13 of the paper: nodes and time per move along H1 self-play games, three searches each."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

import numpy as np

from scripts._paper_play import PROFILES, MoveProfile, ProfileGame, profile_game
from scripts._paper_report import FAILS, HOLDS, OPEN, markdown_table, pyplot, save_figure
from scripts._paper_run import Output, Run, findings_text, settings_text, write_outputs
from tuning.match import pair_seed

FIGURE_DEPTHS = (("figure12", 4), ("figure13", 6))


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
