"""Texel fit: planted weights are recovered, the linear fast path equals the evaluator, the CLI writes a weight file."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy.special import expit

from games import CONNECT4, TIC_TAC_TOE, KInARow
from heuristics import Evaluator, get_spec, load_weights
from tuning.fit import main
from tuning.labels import LabelledPosition, load_labels
from tuning.texel import _Evaluations, cross_entropy, fit_scale, fit_weights, warm_start_weights


def _walk_positions(game: KInARow, count: int, seed: int) -> list[LabelledPosition]:
    """Real Connect-4 positions of every phase (random walks stopped at a random ply), with dummy labels."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        position, stop = game.position(), int(rng.integers(4, game.n_cells - 4))
        while position.ply < stop and not position.is_terminal():
            moves = position.legal_moves()
            position.play(moves[int(rng.integers(len(moves)))])
        if not position.is_terminal():
            out.append(LabelledPosition(position.move_string(), position.ply, 0, {m: 0 for m in position.legal_moves()}))
    return out


def _planted_targets(game: KInARow, heuristic: str, weights: dict[str, float], items: list[LabelledPosition],
                     scale: float, seed: int) -> np.ndarray:  # fmt: skip
    """Win/loss labels drawn from the logistic model of the planted weights."""
    evaluator = Evaluator(heuristic, game, weights)
    p = expit(np.array([evaluator.evaluate(game.position(i.moves)) for i in items]) / scale)
    return (np.random.default_rng(seed).random(len(items)) < p).astype(float)


def test_fit_recovers_a_planted_square_values_scale() -> None:
    items = _walk_positions(CONNECT4, 3000, seed=1)
    targets = _planted_targets(CONNECT4, "square_values", {"scale": 3.0}, items, scale=20.0, seed=2)
    fit = fit_weights(CONNECT4, "square_values", items, targets=targets, scale=20.0, regularization=0.0, heldout=0.0)
    assert fit.linear and fit.scale == 20.0
    assert fit.weights["scale"] == pytest.approx(3.0, rel=0.1)
    assert fit.loss_after < fit.loss_before


def test_fit_recovers_planted_c4_features_weights() -> None:
    items = _walk_positions(CONNECT4, 4000, seed=3)
    # Weights planted far from their defaults, large enough to move P (the ones planted tiny, such as f4_col_bf
    # at 200 / 50,000 per stone, have too little signal for 4,000 labels to pin down).
    planted = {**get_spec("c4_features").defaults, "f2_three_half": 200_000.0, "f3_two_open": 20_000.0,
               "f3_two_side": 30_000.0, "f4_col_d": 5_000.0, "f4_col_ag": 8_000.0}  # fmt: skip
    targets = _planted_targets(CONNECT4, "c4_features", planted, items, scale=50_000.0, seed=4)
    fit = fit_weights(CONNECT4, "c4_features", items, targets=targets, scale=50_000.0, regularization=0.0, heldout=0.0)
    assert fit.linear
    at_truth = fit_weights(CONNECT4, "c4_features", items, targets=targets, scale=50_000.0, start=planted, max_iter=0,
                           heldout=0.0)  # fmt: skip
    assert fit.loss_after <= at_truth.loss_before  # the optimiser reached at least the planted vector's likelihood
    for name in ("f2_three_half", "f3_two_open", "f3_two_side", "f4_col_d", "f4_col_ag"):
        # each moved most of the way from its default to the planted value
        start, found, truth = math.log(fit.start[name]), math.log(fit.weights[name]), math.log(planted[name])
        assert abs(found - truth) < 0.2 * abs(start - truth), (name, fit.weights[name], planted[name])


def test_linear_fast_path_equals_the_evaluator_and_nonlinear_heuristics_use_the_evaluator() -> None:
    items = _walk_positions(CONNECT4, 200, seed=5)
    positions = [CONNECT4.position(i.moves) for i in items]
    linear = _Evaluations(CONNECT4, "c4_features", positions)
    assert linear.linear
    rng = np.random.default_rng(6)
    weights = rng.uniform(0, 1e6, len(linear.names))
    assert np.allclose(linear(weights), linear.generic(weights), rtol=1e-9)
    assert not _Evaluations(CONNECT4, "windows", positions).linear  # blocked_scale multiplies other weights


def test_fit_scale_finds_the_minimum_of_the_cross_entropy() -> None:
    evals = np.linspace(-100, 100, 201)
    targets = expit(evals / 25.0)  # exact probabilities of scale 25
    assert fit_scale(evals, targets) == pytest.approx(25.0, rel=1e-3)
    assert cross_entropy(np.array([1e300]), np.array([1.0]), 1.0) == 0.0  # no overflow


def test_fit_on_tic_tac_toe_lowers_loss_and_stays_in_bounds() -> None:
    labels = load_labels(game=TIC_TAC_TOE)
    fit = fit_weights(TIC_TAC_TOE, "windows", labels)
    assert not fit.linear and fit.train_size + fit.heldout_size == 627 and fit.heldout_size == 125
    assert fit.loss_after < fit.loss_before and fit.heldout_after < fit.heldout_before
    for spec in get_spec("windows").weights:
        assert spec.low <= fit.weights[spec.name] <= spec.high


def test_fit_beats_the_defaults_on_held_out_connect4_positions() -> None:
    fit = fit_weights(CONNECT4, "c4_features", load_labels(game=CONNECT4))
    assert fit.linear and fit.heldout_size == 1600
    # measured: 0.7229 -> 0.6518 (mean cross-entropy; 0.6931 is a coin flip)
    assert fit.heldout_after < fit.heldout_before - 0.03 and fit.heldout_after < math.log(2)


def test_warm_start_is_the_fit_of_the_shipped_set() -> None:
    weights = warm_start_weights(TIC_TAC_TOE, "windows")
    labels = load_labels(game=TIC_TAC_TOE)
    assert labels.exact  # so the fit takes the children too, as the tuner's does
    assert weights == fit_weights(TIC_TAC_TOE, "windows", labels, children=True).weights
    assert weights != fit_weights(TIC_TAC_TOE, "windows", labels).weights
    assert list(weights) == list(get_spec("windows").weight_names)


@pytest.mark.parametrize(
    "kwargs, message",
    [({"heldout": 1.0}, "heldout"), ({"scale": -1.0}, "scale"), ({"regularization": -1.0}, "regularization"),
     ({"start": {"good": 1e9}}, "outside its tuning bounds"), ({"targets": [0.5]}, "targets")],
)  # fmt: skip
def test_bad_fit_arguments_are_refused(kwargs: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError, match=message):
        fit_weights(TIC_TAC_TOE, "windows", load_labels(game=TIC_TAC_TOE), **kwargs)


def test_cli_writes_a_weight_file_with_provenance(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "w.json"
    assert main(["--game", "tictactoe", "--heuristic", "windows", "--out", str(out)]) == 0
    loaded = load_weights(out, TIC_TAC_TOE)
    record = json.loads(out.read_text())["provenance"]
    assert loaded.heuristic == "windows" and record["heldout_after"] < record["heldout_before"]
    assert record["data_count"] == 627 and record["tool"].startswith("python -m tuning.fit")
    assert "held-out loss" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--heuristic", "nope"], "unknown heuristic 'nope'"),
        (["--game", "tictactoe", "--heuristic", "c4_features"], "k=4"),
        (["--game", "tictactoe", "--heuristic", "windows", "--heldout", "1.5"], "heldout"),
        (["--game", "tictactoe", "--heuristic", "windows", "--data", "missing.gz"], "no such label file"),
        (["--game", "tictactoe", "--heuristic", "windows", "--start", "weights/tictactoe-mics.json"], "mics weight file"),
    ],
)
def test_cli_bad_arguments_exit_2_with_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert message in last and last.startswith("python -m tuning.fit: error:")


def test_a_truncated_label_file_is_one_line_naming_it(tmp_path: Path, capsys) -> None:
    from tuning.labels import default_path

    truncated = tmp_path / "cut.labels.jsonl.gz"
    whole = default_path(TIC_TAC_TOE).read_bytes()
    truncated.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(SystemExit) as exit_info:
        main(["--game", "tictactoe", "--heuristic", "windows", "--data", str(truncated)])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert exit_info.value.code == 2 and str(truncated) in last and "truncated" in last


def test_the_fit_help_opens_with_a_sentence(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    description = text.split("\n\n")[1].strip()
    assert description.startswith("Fit a heuristic's weights") and "`" not in description
