"""scripts/reproduce_paper.py: the --quick run end to end, its tables' arithmetic, bad input, and the helpers."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games import CONNECT4
from heuristics import get_spec
from search.agents import make_agent
from search.budget import Limit
from tuning.stats import trinomial

ROOT = Path(__file__).resolve().parent.parent

from scripts import _paper_tables as paper_tables
from scripts import reproduce_paper
from scripts._paper_play import FEATURE_GROUPS, alphabeta_spec, feature_weights
from scripts._paper_report import (
    FAILS,
    HOLDS,
    OPEN,
    beats,
    cell_from_scores,
    flip,
    near_even,
    pooled,
    score_bars,
    similar,
    tends_to_beat,
    wilson,
)
from tests.inprocess import run_main

TABLES = ("table6", "figures", "table7", "table8", "table9", "tuned", "perfect")
PLOTS = ("table6", "figure12", "figure13", "table7", "table8", "table9", "tuned", "perfect")


def run_script(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``python -m scripts.reproduce_paper`` from the repository root, without PYTHONPATH (as the README runs it)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-m", "scripts.reproduce_paper", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=timeout)  # fmt: skip


def markdown_tables(text: str) -> list[list[dict[str, str]]]:
    """Every Markdown table in ``text`` as a list of rows (dicts by header)."""
    tables, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and set(lines[i + 1].replace("|", "").strip()) <= set("-: "):
            header = [c.strip() for c in lines[i].strip("|").split("|")]
            rows, i = [], i + 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(dict(zip(header, (c.strip() for c in lines[i].strip("|").split("|")))))
                i += 1
            tables.append(rows)
        else:
            i += 1
    return tables


@pytest.mark.slow
def test_quick_run_writes_every_table_and_plot_and_the_counts_add_up(tmp_path: Path) -> None:
    result = run_script("all", "--quick", "--workers", "2", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr[-3000:]
    for name in TABLES:
        assert (tmp_path / f"{name}.md").stat().st_size > 0
    for name in PLOTS:
        assert (tmp_path / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    checked = 0
    for name in TABLES:
        text = (tmp_path / f"{name}.md").read_text()
        assert text in result.stdout  # every table is printed too
        for table in markdown_tables(text):
            for row in table:
                if {"games", "W", "D", "L"} <= set(row):
                    games, w, d, loss = (int(row[k]) for k in ("games", "W", "D", "L"))
                    assert w + d + loss == games == 2, (name, row)
                    checked += 1
    # 4 + 1 (Table 6, depths 2 and 4) + 4 + 4 + 2 + 4 rows at least
    assert checked >= 19
    for name in ("table6", "table7", "table8", "table9", "tuned"):
        data = json.loads((tmp_path / f"{name}.json").read_text())
        for cells in data["cells"].values():
            for cell in cells:
                assert cell["wins"] + cell["draws"] + cell["losses"] == cell["games"]
                assert cell["score"] == pytest.approx((cell["wins"] + 0.5 * cell["draws"]) / cell["games"])
    figures = json.loads((tmp_path / "figures.json").read_text())["figures"]
    for figure in figures.values():
        minimax_nodes = [row[0] for row in figure["mean_nodes"]]
        alphabeta_nodes = [row[1] for row in figure["mean_nodes"]]
        assert all(a <= m for a, m in zip(alphabeta_nodes, minimax_nodes)) or figure["depth"] > 4
    assert "Total:" in (tmp_path / "run.md").read_text()


@pytest.mark.parametrize(
    "args, message",
    [
        (["table9", "--games", "1"], "argument --games: '1' is not an integer >= 2"),
        (["table9", "--depths", "2,x"], "argument --depths: '2,x' is not comma-separated integers"),
        (["table9", "--depths", "0"], "'0': each must be within 1..12"),
        (["table9", "--random-every", "-1"], "argument --random-every: '-1'"),
        (["table9", "--tuned", "no/such/file.json"], "no/such/file.json: cannot read"),
        (["table10"], "invalid choice: 'table10'"),
    ],
)
def test_bad_arguments_exit_2_naming_the_value(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_main(reproduce_paper.main, args, capsys)
    assert status == 2
    assert message in err


def test_feature_weights_turn_off_exactly_the_other_features() -> None:
    defaults = {w.name: w.default for w in get_spec("c4_features").weights}
    assert sorted(n for group in FEATURE_GROUPS.values() for n in group) == sorted(defaults)
    weights = feature_weights(("F4", "F3"))
    for feature, names in FEATURE_GROUPS.items():
        for name in names:
            assert weights[name] == (defaults[name] if feature in ("F3", "F4") else 0.0)
    with pytest.raises(ValueError, match="F5"):
        feature_weights(("F5",))


def test_alphabeta_spec_builds_the_agent_it_describes() -> None:
    weights = {**feature_weights(("F2",)), "f2_three_half": 123456.789012345}
    agent = make_agent(alphabeta_spec("c4_features", 6, 3, weights), CONNECT4)
    assert agent.limit == Limit(depth=6) and agent.random_every == 3
    assert agent.evaluator.weights == weights


def test_cells_and_verdicts() -> None:
    wins = cell_from_scores("A", "B", [1.0] * 60 + [0.5] * 20 + [0.0] * 20, (1.0, 2.0))
    assert (wins.wins, wins.draws, wins.losses, wins.games) == (60, 20, 20, 100)
    assert wins.estimate.score_low == pytest.approx(trinomial(60, 20, 20).score_low)
    assert beats(wins) == HOLDS and beats(flip(wins)) == FAILS
    assert flip(wins).score == pytest.approx(1 - wins.score) and flip(wins).nodes == (2.0, 1.0)
    even = cell_from_scores("A", "B", [1.0, 0.0] * 200, (0.0, 0.0))
    assert beats(even) == OPEN and near_even(even) == HOLDS
    assert similar(even, flip(even)) == HOLDS and similar(wins, even) == FAILS
    few = cell_from_scores("A", "B", [1.0] * 4, (0.0, 0.0))  # all wins, zero variance: decides nothing
    assert beats(few) == OPEN and similar(few, few) == OPEN
    with pytest.raises(ValueError, match="0, 0.5 or 1"):
        cell_from_scores("A", "B", [0.25], (0.0, 0.0))


def test_wilson_interval_known_values() -> None:
    # Wilson (1927) score interval, z = 1.96: 5 of 10 -> [0.2366, 0.7634]; 0 of 10 -> [0, 0.2775]
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert not math.isnan(wilson(10, 10)[0])


def test_claim_verdicts_of_tables_7_and_9() -> None:
    def cell(wins: int, losses: int, draws: int = 0):  # type: ignore[no-untyped-def]
        return cell_from_scores("A", "B", [1.0] * wins + [0.5] * draws + [0.0] * losses, (0.0, 0.0))

    losing, level, winning, unclear = cell(60, 140), cell(200, 200), cell(140, 60), cell(110, 90)
    assert paper_tables.none_beats([losing, level]) == HOLDS  # each either loses or is level within the margin
    assert paper_tables.none_beats([losing, winning]) == FAILS
    assert paper_tables.none_beats([losing, unclear]) == OPEN  # 0.55 [0.48, 0.62]: might beat B by more than the margin
    assert paper_tables.much_weaker(losing) == HOLDS  # 0.30: below 1/2 - 0.1 with its whole interval
    assert paper_tables.much_weaker(level) == FAILS and paper_tables.much_weaker(cell(85, 115)) == OPEN  # 0.425 [0.36, 0.49]


def test_trend_verdict_pools_the_cells() -> None:
    def cell(wins: int, losses: int):  # type: ignore[no-untyped-def]
        return cell_from_scores("A", "B", [1.0] * wins + [0.0] * losses, (0.0, 0.0))

    small_edges = [cell(110, 90)] * 6  # 0.55 each: none significant alone (n = 200), the six together are
    assert all(beats(c) == OPEN for c in small_edges)
    mean, low, high = pooled(small_edges)
    # six independent cells: the mean's standard error is one cell's over sqrt(6)
    assert mean == pytest.approx(0.55) and low > 0.5
    assert high - mean == pytest.approx(1.959963984540054 * small_edges[0].stderr / math.sqrt(6))
    assert tends_to_beat(small_edges) == HOLDS
    assert tends_to_beat([*small_edges, cell(60, 140)]) == OPEN  # one pair significantly against the trend
    assert tends_to_beat([cell(95, 105)] * 6) == OPEN  # 0.475 pooled: its interval reaches above 1/2
    assert tends_to_beat([cell(90, 110)] * 6) == FAILS
    assert tends_to_beat([cell(5, 5)] * 6) == OPEN  # too few games to decide anything


# ---------------------------------------------------------------- inputs checked first, outputs only when finished


def no_games(*_: object, **__: object) -> None:
    raise AssertionError("the run started before its inputs were checked")


@pytest.mark.parametrize(
    "content, message",
    [
        ((ROOT / "weights" / "connect4-square_values.json").read_text(), "a square_values weight file"),
        ((ROOT / "weights" / "gomoku-windows.json").read_text(), "game"),
        ('{"format": "alphabeta-gym-weights", "version": 1', "not valid JSON"),
        ("", "not valid JSON"),
    ],
    ids=["other heuristic", "other game", "truncated", "empty"],
)
def test_bad_tuned_file_fails_before_any_game(content: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    from scripts import reproduce_paper as rp

    monkeypatch.setattr(rp.Run, "__init__", no_games)
    tuned = tmp_path / "tuned.json"
    tuned.write_text(content)
    with pytest.raises(SystemExit) as exit_info:
        rp.main(["all", "--tuned", str(tuned), "--out", str(tmp_path / "out")])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --tuned: {tuned}" in err and message in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_default_output_is_not_the_committed_results() -> None:
    from scripts import reproduce_paper as rp

    settings = rp.parse_settings(["table9"])
    assert settings.out == ROOT / "runs" / "paper"
    assert "runs/" in (ROOT / ".gitignore").read_text().splitlines()
    assert rp.parse_settings(["table9", "--out", str(ROOT / "docs" / "results")]).out == ROOT / "docs" / "results"


def fake_paired(self: object, a: str, b: str, spec_a: str, spec_b: str, bar: object) -> object:
    """Run.paired without games: A scores 5/8 (the cells' arithmetic is tested elsewhere)."""
    return cell_from_scores(a, b, [1.0, 1.0, 0.0, 0.5] * 2, (100.0, 90.0))


def previous_results(out: Path, names: tuple[str, ...]) -> dict[str, bytes]:
    out.mkdir(parents=True, exist_ok=True)
    for name in names:
        (out / name).write_bytes(f"previous {name}\n".encode())
    return {name: (out / name).read_bytes() for name in names}


def test_experiment_failing_after_writing_leaves_the_previous_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scripts import reproduce_paper as rp

    out = tmp_path / "results"
    before = previous_results(out, ("table9.md", "table9.json", "table9.png"))
    real_write = paper_tables.write_outputs

    def write_then_fail(*args: object, **kwargs: object) -> object:
        real_write(*args, **kwargs)  # type: ignore[arg-type]
        raise OSError("disk full")  # after the plot, the table and the counts were written

    monkeypatch.setattr(rp.Run, "paired", fake_paired)
    monkeypatch.setattr(paper_tables, "write_outputs", write_then_fail)
    with pytest.raises(OSError, match="disk full"):
        rp.main(["table9", "--quick", "--workers", "1", "--out", str(out)])
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # nothing new, nothing half-written, no staging


def test_interrupted_first_experiment_creates_no_output_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scripts import reproduce_paper as rp

    def interrupted(*_: object, **__: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(rp.Run, "paired", interrupted)
    with pytest.raises(KeyboardInterrupt):
        rp.main(["table9", "--quick", "--workers", "1", "--out", str(tmp_path / "new" / "out")])
    assert not (tmp_path / "new" / "out").exists()


def test_finished_experiment_replaces_its_files_and_all_keeps_finished_ones(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    from scripts import reproduce_paper as rp

    out = tmp_path / "results"
    before = previous_results(out, ("table7.md", "table8.md", "table8.png", "run.md"))
    monkeypatch.setattr(rp.Run, "paired", fake_paired)

    def table8_fails(run: object) -> object:
        score_bars([], "partial", run.out / "table8.png")  # type: ignore[attr-defined]
        raise RuntimeError("table8 broke")

    monkeypatch.setattr(rp, "EXPERIMENTS", ("table7", "table8", "table9"))
    monkeypatch.setitem(rp.RUNNERS, "table8", table8_fails)
    with pytest.raises(RuntimeError, match="table8 broke"):
        rp.main(["all", "--quick", "--workers", "1", "--out", str(out)])
    files = {p.name: p.read_bytes() for p in out.iterdir()}
    assert sorted(files) == ["run.md", "table7.json", "table7.md", "table7.png", "table8.md", "table8.png"]
    assert files["table7.md"] != before["table7.md"] and b"Table 7" in files["table7.md"]  # table7 finished: replaced
    assert files["table7.png"][:8] == b"\x89PNG\r\n\x1a\n"
    for kept in ("table8.md", "table8.png", "run.md"):  # table8 failed, and 'all' did not finish: untouched
        assert files[kept] == before[kept]


def test_tuner_budget_reads_the_weight_files_search_settings() -> None:
    from scripts._paper_beyond import tuner_budget

    assert tuner_budget(ROOT / "weights" / "connect4-c4_features-tuned.json") == (1000, 8)
    assert tuner_budget(ROOT / "weights" / "connect4-c4_features.json") is None  # a depth, no node budget


def test_reproduce_paper_modules_stay_small() -> None:
    sizes = {p.name: len(p.read_text().splitlines()) for p in (ROOT / "scripts").glob("*paper*.py")}
    assert "_paper_tables.py" in sizes and max(sizes.values()) <= 400, sizes
