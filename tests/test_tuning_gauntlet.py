"""The gauntlet: its default members, and a confirmation that refuses a candidate losing to any member."""

from __future__ import annotations

from pathlib import Path

import optuna
import pytest

from games import CONNECT4, TIC_TAC_TOE
from heuristics import load_weights
from heuristics.registry import HEURISTICS
from search.budget import Limit
from tuning.gauntlet import default_gauntlet, describe, member_spec
from tuning.run import EXIT_NO_IMPROVEMENT, TuneConfig, main, tune

WEIGHTS = Path(__file__).resolve().parents[1] / "weights"
STRONG = "alphabeta:heuristic=square_values,depth=6"


def test_the_default_gauntlet_is_every_evaluator_and_every_shipped_tuned_file() -> None:
    members = default_gauntlet(CONNECT4, Limit(depth=8, nodes=1000))
    covering = [name for name, spec in HEURISTICS.items() if spec.refuse(CONNECT4) is None]
    tuned = sorted(WEIGHTS.glob("connect4-*-tuned.json"))
    assert tuned and len(members) == len(covering) + len(tuned)
    assert [describe(m) for m in members[: len(covering)]] == covering
    assert all(describe(m).endswith("(tuned)") for m in members[len(covering):])
    assert all("nodes=1000" in m and "depth=8" in m for m in members)  # every member at the run's budget
    shipped = load_weights(tuned[0], CONNECT4)
    assert all(f"{k}={v!r}" in members[len(covering)] for k, v in shipped.weights.items())
    assert len(default_gauntlet(TIC_TAC_TOE, Limit(depth=8, nodes=300))) == sum(s.refuse(TIC_TAC_TOE) is None for s in HEURISTICS.values())


def test_a_member_file_for_another_game_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="tictactoe-windows.json"):
        member_spec(str(WEIGHTS / "tictactoe-windows.json"), CONNECT4, Limit(depth=8, nodes=1000))


def _planted(setup, study, runner, progress):
    """No games in the search: the trial at depth 2 is 'best'; the confirmation plays real games."""
    def objective(trial):
        return float(setup.space.suggest(trial)["depth"])

    return objective


def _config(tmp_path: Path, study: str, opponents: tuple[str, ...]) -> TuneConfig:
    return TuneConfig(heuristic="square_values", tune=("depth",), depth_range=(1, 2), trials=2, pairs=2, confirm_top=1, sampler="tpe",
                      confirm_pairs=8, plies=2, workers=1, nodes=300, opponents=opponents, progress=False,
                      storage=f"sqlite:///{tmp_path / 'study.db'}", study=study)  # fmt: skip


def test_a_candidate_that_beats_the_pool_but_loses_to_one_member_is_not_exported(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    # three random members make the pooled score clearly positive; the depth-6 member beats a depth-2 candidate
    assert tune(_config(tmp_path, "planted", ("random", "random", "random", STRONG)), _planted) == EXIT_NO_IMPROVEMENT
    out = capsys.readouterr().out
    assert "No significant improvement" in out and "it loses to square_values" in out
    assert "whose 95% lower bound" not in out  # the pool alone would have passed
    assert not (tmp_path / "runs" / "planted" / "connect4-square_values-tuned.json").exists()
    stored = optuna.load_study(study_name="planted", storage=f"sqlite:///{tmp_path / 'study.db'}").user_attrs
    members = stored["confirmation:0"]["members"]
    wins, _, losses = members[3]["wdl"]
    assert len(members) == 4 and losses > wins + 4  # the strong member, beaten by nobody here

    # without the strong member the same candidate is exported
    assert tune(_config(tmp_path, "fair", ("random", "random", "random")), _planted) == 0
    assert (tmp_path / "runs" / "fair" / "connect4-square_values-tuned.json").is_file()


def test_baseline_and_opponents_together_are_refused(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(["--baseline", "random", "--opponents", "random", "rules", "--storage", f"sqlite:///{tmp_path / 'db'}"])
    assert exit_info.value.code == 2 and "not both" in capsys.readouterr().err


def test_a_spec_naming_its_weight_file_last_is_a_spec_not_a_path() -> None:
    spec = f"alphabeta:nodes=300,weights={WEIGHTS / 'connect4-square_values.json'}"
    assert member_spec(spec, CONNECT4, Limit(depth=8, nodes=1000)) == spec  # played as written, not re-read as a file


def test_the_recorded_gauntlet_is_tuning_match_against_every_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from heuristics import WeightFile, save_weights
    from scripts.gauntlet_record import main as record_main
    from tuning.match import play_match
    from tuning.openings import make_openings
    from tuning.stats import pentanomial

    path = tmp_path / "t.json"
    save_weights(WeightFile(TIC_TAC_TOE, "windows", dict(HEURISTICS["windows"].defaults), {"nodes": 60},
                            {"note": "kept"}), path)  # fmt: skip
    code = record_main([str(path), "--pairs", "3", "--seed", "5", "--workers", "1", "--write"])
    record = load_weights(path).provenance
    assert record["note"] == "kept" and record["gauntlet"]["pairs"] == 3 and record["gauntlet"]["budget"]["nodes"] == 60
    members = record["gauntlet"]["members"]
    assert list(members) == [name for name, spec in HEURISTICS.items() if spec.refuse(TIC_TAC_TOE) is None]
    assert code == (0 if all(m["elo_low"] is not None and m["elo_low"] > 0 for m in members.values()) else 1)
    # each row is what `python -m tuning.match FILE "alphabeta:heuristic=NAME,nodes=60" --pairs 3 --seed 5` plays
    book = make_openings(TIC_TAC_TOE, count=3, plies=4, seed=5, heldout=0.0)
    same = play_match(TIC_TAC_TOE, str(path), "alphabeta:heuristic=square_values,nodes=60", book.tuning, 3, 5)
    row = members["square_values"]
    assert row["wdl"] == list(same.wdl) and row["pentanomial"] == list(same.pentanomial) and sum(row["wdl"]) == 6
    assert row["elo_low"] == round(pentanomial(same.pentanomial).elo_low, 2)
    assert "square_values" in capsys.readouterr().out


def test_the_recorded_gauntlet_needs_a_node_or_time_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scripts.gauntlet_record import main as record_main

    with pytest.raises(SystemExit) as exit_info:
        record_main([str(WEIGHTS / "tictactoe-windows.json"), "--pairs", "2"])
    assert exit_info.value.code == 2 and "no node or time budget" in capsys.readouterr().err


def test_write_stores_in_the_file_read_and_never_over_a_shipped_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """``--write`` with a shipped file's name wrote a new file ``./NAME`` in the current folder; a shipped file is
    refused before any game (``--out`` stores a copy), and a relative path is written where it was read."""
    from heuristics import WeightFile, save_weights
    from scripts.gauntlet_record import main as record_main

    monkeypatch.chdir(tmp_path)
    for name in ("connect4-threats-tuned", "weights/connect4-threats-tuned.json", str(WEIGHTS / "connect4-threats-tuned.json")):
        with pytest.raises(SystemExit) as exit_info:
            record_main([name, "--pairs", "1", "--write"])
        err = capsys.readouterr().err
        assert exit_info.value.code == 2 and "is a shipped weight file" in err and "with --out PATH" in err
    assert list(tmp_path.iterdir()) == []  # nothing written, no ./connect4-threats-tuned
    (tmp_path / "sub").mkdir()
    save_weights(WeightFile(TIC_TAC_TOE, "windows", dict(HEURISTICS["windows"].defaults), {"nodes": 40}, {}), tmp_path / "sub" / "t.json")
    record_main(["sub/t.json", "--pairs", "1", "--workers", "1", "--write"])
    assert "gauntlet" in load_weights(tmp_path / "sub" / "t.json").provenance and sorted(p.name for p in tmp_path.iterdir()) == ["sub"]
    with pytest.raises(SystemExit) as exit_info:
        record_main(["sub/t.json", "--pairs", "1", "--out", "sub"])
    assert exit_info.value.code == 2 and "is a folder" in capsys.readouterr().err
    record_main(["sub/t.json", "--pairs", "1", "--workers", "1", "--out", "copy.json"])
    assert load_weights(tmp_path / "copy.json").provenance["gauntlet"]["pairs"] == 1
