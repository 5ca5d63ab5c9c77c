"""Blunder rate: the perfect player never blunders, random play does, the interval and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games import CONNECT4, TIC_TAC_TOE
from tuning.blunders import blunder_rate, is_blunder, main, spread, wilson
from tuning.labels import LabelledPosition, load_labels


def test_wilson_interval_known_values_and_coverage() -> None:
    assert [round(x, 4) for x in wilson(5, 10)] == [0.2366, 0.7634]  # the textbook example, p = 1/2, n = 10
    assert [round(x, 4) for x in wilson(0, 10)] == [0.0, 0.2775]
    assert wilson(0, 0) == (0.0, 1.0)
    for successes in range(0, 31):
        low, high = wilson(successes, 30)
        assert low <= successes / 30 <= high
    with pytest.raises(ValueError, match="successes=11"):
        wilson(11, 10)


def test_only_a_lower_weak_value_is_a_blunder() -> None:
    won = LabelledPosition("", 0, 3, {0: 3, 1: 1, 2: 0, 3: -2})
    assert not is_blunder(won, 0) and not is_blunder(won, 1)  # a slower win is still a win
    assert is_blunder(won, 2) and is_blunder(won, 3)
    drawn = LabelledPosition("", 0, 0, {0: 0, 1: -1})
    assert not is_blunder(drawn, 0) and is_blunder(drawn, 1)
    lost = LabelledPosition("", 0, -1, {0: -1, 1: -4})
    assert not is_blunder(lost, 1)  # nothing left to spoil


def test_perfect_never_blunders_and_random_does_on_tic_tac_toe() -> None:
    labels = load_labels(game=TIC_TAC_TOE)
    perfect = blunder_rate("perfect", labels)
    assert perfect.overall.moves == 627 and perfect.overall.blunders == 0 and perfect.overall.ci_high < 0.01
    random = blunder_rate("random", labels, seed=1)
    assert random.overall.blunders > 0 and random.overall.ci_low > 0.2
    assert sum(band.moves for band in random.bands) == 627 and [b.low for b in random.bands] == list(range(9))
    assert random.avoidable == perfect.avoidable > 0


def test_perfect_never_blunders_and_random_does_on_a_connect4_slice() -> None:
    labels = load_labels(game=CONNECT4)
    late = spread([p for p in labels.positions if p.ply >= 18], 60)
    assert blunder_rate("perfect", labels, positions=late).overall.blunders == 0
    random = blunder_rate("random", labels, positions=late)
    assert random.overall.blunders > 0 and random.overall.moves == 60


def test_blunder_rate_does_not_depend_on_the_order_of_positions() -> None:
    labels = load_labels(game=TIC_TAC_TOE)
    ordered = blunder_rate("rules", labels).overall
    backwards = blunder_rate("rules", labels, positions=labels.positions[::-1]).overall
    assert ordered.blunders == backwards.blunders  # the rule-based player is deterministic up to seeded ties


def test_cli_reports_json_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perfect", "--game", "tictactoe", "--json", "--limit", "100"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["overall"]["moves"] == 100 and report["overall"]["blunders"] == 0
    assert main(["random", "--game", "tictactoe", "--band-width", "3", "--positions", "all"]) == 0
    out = capsys.readouterr().out
    assert "95% Wilson" in out and "plies  0-2" in out and "plies  6-8" in out
    assert "on 627 positions (training and held-out)" in out


def test_the_rate_is_measured_on_the_held_out_positions_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    labels = load_labels(game=CONNECT4)
    assert labels.heldout_count == 1600 and labels.heldout == labels.positions[-1600:]  # a version 1 file: the last fifth
    assert main(["random", "--limit", "40"]) == 0
    out = capsys.readouterr().out
    assert "on 40 held-out positions (not used by any fit)" in out and "in 40 moves" in out
    assert main(["random", "--limit", "40", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["positions"] == "heldout"


def test_a_set_without_exact_move_values_gives_no_blunder_rate(tmp_path) -> None:
    from tuning.labels import write_labels

    inexact = tmp_path / "outcomes.jsonl.gz"
    header = {"format": "alphabeta-gym-labels", "version": 2, "game": TIC_TAC_TOE.to_record(), "source": {"name": "selfplay"}}
    one = load_labels(game=TIC_TAC_TOE).positions[1].moves  # a position after one move
    write_labels(inexact, header, [("", 0, None, 0.5), (one, 1, None, 1.0)])
    with pytest.raises(ValueError, match="need exact move values; this set holds selfplay labels"):
        blunder_rate("random", load_labels(inexact, TIC_TAC_TOE))


@pytest.mark.parametrize(
    "args, message",
    [
        (["nosuchagent", "--game", "tictactoe"], "unknown agent 'nosuchagent'"),
        (["random", "--game", "tictactoe", "--limit", "0"], "--limit 0"),
        (["random", "--game", "tictactoe", "--band-width", "0"], "band_width=0"),
        (["random", "--game", "tictactoe", "--data", "missing.gz"], "no such label file"),
        (["random", "--game", "chess"], "chess"),
        (["alphabeta:depth=2,bogus=1", "--game", "tictactoe"], "bogus"),
    ],
)
def test_cli_bad_arguments_exit_2_with_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert message in last and last.startswith("python -m tuning.blunders: error:")


def test_write_stores_the_held_out_rate_in_the_weight_file(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    from heuristics import load_weights

    copy = tmp_path / "w.json"
    shutil.copy(Path(__file__).resolve().parents[1] / "weights" / "tictactoe-windows.json", copy)
    assert main([str(copy), "--game", "tictactoe", "--write"]) == 0
    record = load_weights(copy).provenance["blunders"]
    assert record["positions"] == "heldout" and record["count"] == 125 and 0 <= record["ci_low"] <= record["rate"]
    assert "held-out" in record["note"]
    with pytest.raises(SystemExit):
        main(["random", "--game", "tictactoe", "--write"])  # not a weight file
    assert "--write needs a weight file" in capsys.readouterr().err
