"""The sampler study end to end on a tiny budget: every run confirmed, the table, the verdict, the plot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow  # a study per sampler: about 11 s
def test_a_tiny_sampler_study_confirms_every_run_and_compares_with_the_one_percent_rule(tmp_path: Path, capsys) -> None:
    from scripts import compare_samplers

    argv = ["--samplers", "random,onepercent", "--seeds", "2", "--trials", "2", "--pairs", "2", "--confirm-pairs", "2",
            "--nodes", "100", "--heuristic", "square_values", "--workers", "1", "--out", str(tmp_path)]  # fmt: skip
    assert compare_samplers.main(argv) == 0
    out = capsys.readouterr().out
    results = json.loads((tmp_path / "samplers.json").read_text())
    assert sorted((r["sampler"], r["seed"]) for r in results) == [("onepercent", 0), ("onepercent", 1), ("random", 0), ("random", 1)]
    assert all(r["elo_low"] <= r["elo"] <= r["elo_high"] for r in results)
    assert "Highest mean confirmed Elo" in out and "the paper's 1% rule" in out
    assert (tmp_path / "samplers.png").stat().st_size > 0
    # a re-run resumes: the studies and their confirmations are reused, so the results are the same
    assert compare_samplers.main(argv) == 0
    assert json.loads((tmp_path / "samplers.json").read_text()) == [{**r, "seconds": pytest.approx(r["seconds"], abs=1e9)}
                                                                     for r in results]  # fmt: skip


def test_statistics_of_the_comparison() -> None:
    from scripts import compare_samplers

    mean, low, high = compare_samplers.mean_interval([10.0, 20.0, 30.0])
    assert mean == 20.0 and low < 20.0 < high and round(high - mean, 3) == round(mean - low, 3)
    diff, dl, dh = compare_samplers.welch_interval([10.0, 12.0, 11.0], [0.0, 1.0, 2.0])
    assert diff == 10.0 and dl > 0  # clearly separated samples: the interval excludes 0
