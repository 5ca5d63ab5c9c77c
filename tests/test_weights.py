"""Weight files: round trip, every malformed case, atomic writes, and the shipped defaults."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable

import pytest

from games import CONNECT4, GOMOKU, TIC_TAC_TOE, Connect4
from heuristics import (
    Evaluator,
    UnknownHeuristicError,
    UnsupportedGameError,
    WeightError,
    WeightFile,
    WeightFileError,
    get_spec,
    load_weights,
    save_weights,
    shipped_weight_files,
)
from heuristics.defaults import default_weight_files
from search.budget import Limit

REPO = Path(__file__).resolve().parents[1]


def sample_record() -> WeightFile:
    spec = get_spec("square_values")
    return WeightFile(
        CONNECT4, "square_values", {n: 2.5 for n in spec.weight_names}, Limit(depth=6, branching=3, nodes=20000).to_dict(),
        {"study": "s1", "trial": 7, "elo": 31.5, "elo_ci": [3.0, 60.0]},
    )  # fmt: skip


def test_round_trip(tmp_path: Path) -> None:
    record = sample_record()
    path = save_weights(record, tmp_path / "w.json")
    assert load_weights(path) == record
    assert load_weights(path, CONNECT4) == record
    assert [p.name for p in tmp_path.iterdir()] == ["w.json"]  # no temporary left behind


def test_every_default_record_round_trips(tmp_path: Path) -> None:
    for name, record in default_weight_files().items():
        assert load_weights(save_weights(record, tmp_path / name), record.game) == record


def test_shipped_default_files_match_the_registry() -> None:
    expected = default_weight_files()
    files = shipped_weight_files()  # read as package data: the same files a wheel carries
    shipped = sorted(f"{name}.json" for name in files if not name.endswith("-tuned"))
    assert shipped == sorted(expected), "regenerate with: python -m heuristics.defaults"
    for name, record in expected.items():
        assert load_weights(files[name[: -len(".json")]]) == record, name
    assert {"connect4-c4_features.json", "connect4-square_values.json", "gomoku-mics.json"} <= set(expected)


Edit = Callable[[dict[str, Any]], Any]


def edit(path: str, value: Any) -> Edit:
    """Set a dotted field of the JSON object (``None`` value with key '-' deletes)."""

    def apply(data: dict[str, Any]) -> Any:
        *parents, last = path.split(".")
        node = data
        for part in parents:
            node = node[part]
        if value == "-":
            del node[last]
        else:
            node[last] = value
        return data

    return apply


@pytest.mark.parametrize(
    "change, field, problem",
    [
        (edit("heuristic", "magic"), "heuristic", "unknown heuristic 'magic': choose one of c4_features"),
        (edit("heuristic", 3), "heuristic", "3 is not a name"),
        (edit("weights.scale", "-"), "weights", "missing weight(s) 'scale'"),
        (edit("weights.bogus", 1.0), "weights", "unknown weight(s) 'bogus' for square_values: its weights are scale"),
        (edit("weights.scale", "1.5"), "weights", "weight 'scale' = '1.5' is not a finite number"),
        (edit("weights.scale", True), "weights", "is not a finite number"),
        (edit("weights", [1.0]), "weights", "must be an object"),
        (edit("version", 2), "version", "2 is not supported (this package reads version 1)"),
        (edit("format", "other"), "format", "'other' is not 'alphabeta-gym-weights'"),
        (edit("game.rows", 0), "game", "rows=0 is out of range"),
        (edit("game.kind", "chess"), "game", "kind 'chess' is not 'connect4' or 'mnk'"),
        (edit("game.k", "-"), "game", "exactly kind, rows, cols, k"),
        (edit("search", [4]), "search", "must be an object"),  # its values: tests/test_budget.py
        (edit("provenance", [1]), "provenance", "must be an object"),
        (edit("extra", 1), "extra", "unknown field; allowed:"),
        (edit("heuristic", "-"), "heuristic", "missing"),
        (edit("weights.scale", 10**400), "weights", "weight 'scale' = 10000000000000000000...(401 characters) is too "
                                                    "large for a float"),
        (edit("weights.scale", 1e300), "weights", "weights of square_values too large for Connect-4 6x7 k=4"),
    ],
)
def test_malformed_files_name_the_file_and_the_field(tmp_path: Path, change: Edit, field: str, problem: str) -> None:
    data = change(sample_record().to_json())
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(WeightFileError) as info:
        load_weights(path)
    message = str(info.value)
    assert message.startswith(f"{path}: field {field!r}: ") and problem in message, message


def test_duplicate_keys_and_deep_nesting_are_one_line_errors(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    text = json.dumps(sample_record().to_json())
    path.write_text(text.replace('"scale": 2.5', '"scale": 2.5, "scale": 1e300'))
    with pytest.raises(WeightFileError, match="key 'scale' appears twice in one JSON object"):
        load_weights(path)  # json.loads alone keeps the last value silently
    path.write_text(text.replace('"search":', '"format": "x", "search":'))
    with pytest.raises(WeightFileError, match="key 'format' appears twice"):
        load_weights(path)
    path.write_text(text.replace('"study": "s1"', '"study": ' + "[" * 100_000 + "]" * 100_000))
    with pytest.raises(WeightFileError, match="JSON nested too deeply to read"):
        load_weights(path)  # a RecursionError from json otherwise
    path.write_text(text.replace('"scale": 2.5', '"scale": ' + "9" * 5000))
    with pytest.raises(WeightFileError, match="not valid JSON: Exceeds the limit"):
        load_weights(path)  # Python refuses integers of over 4300 digits with a ValueError


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_weights_are_refused(tmp_path: Path, literal: str) -> None:
    text = json.dumps(sample_record().to_json()).replace('"scale": 2.5', f'"scale": {literal}')
    path = tmp_path / "nan.json"
    path.write_text(text)
    with pytest.raises(WeightFileError, match=r"field 'weights': weight 'scale' = .* is not a finite number"):
        load_weights(path)


def test_game_mismatch_and_refused_games(tmp_path: Path) -> None:
    path = save_weights(sample_record(), tmp_path / "c4.json")
    with pytest.raises(WeightFileError, match=r"field 'game': the file is for Connect-4 6x7 k=4, not m,n,k 3,3,3"):
        load_weights(path, TIC_TAC_TOE)
    data = default_weight_files()["connect4-c4_features.json"].to_json()
    data["game"] = {"kind": "mnk", "rows": 15, "cols": 15, "k": 5}
    (tmp_path / "refused.json").write_text(json.dumps(data))
    with pytest.raises(WeightFileError, match=r"field 'game': .*k=4"):
        load_weights(tmp_path / "refused.json")


def test_unreadable_and_non_json_files(tmp_path: Path) -> None:
    with pytest.raises(WeightFileError, match="cannot read"):
        load_weights(tmp_path / "missing.json")
    (tmp_path / "junk.json").write_text("{not json")
    with pytest.raises(WeightFileError, match="junk.json: not valid JSON"):
        load_weights(tmp_path / "junk.json")
    (tmp_path / "list.json").write_text("[]")
    with pytest.raises(WeightFileError, match="top level must be a JSON object"):
        load_weights(tmp_path / "list.json")


def test_writes_are_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = save_weights(sample_record(), tmp_path / "w.json")
    before = target.read_text()

    def crash(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    other = WeightFile(GOMOKU, "square_values", {"scale": 1.0})
    with pytest.raises(WeightFileError, match="w.json: cannot write there: disk full"):
        save_weights(other, target)
    assert target.read_text() == before and [p.name for p in tmp_path.iterdir()] == ["w.json"]
    with pytest.raises(WeightFileError, match="cannot write there"):
        save_weights(other, tmp_path / "no-such-folder" / "w.json")
    with pytest.raises(WeightFileError, match="cannot be written as JSON"):
        save_weights(WeightFile(CONNECT4, "square_values", {"scale": 1.0}, provenance={"bad": object()}), tmp_path / "x.json")
    assert not (tmp_path / "x.json").exists()


def test_records_validate_on_construction() -> None:
    with pytest.raises(WeightError, match="missing weight"):
        WeightFile(CONNECT4, "square_values", {})
    with pytest.raises(UnknownHeuristicError, match="choose one of"):
        WeightFile(CONNECT4, "nope", {})


def test_evaluator_from_file_and_overrides(tmp_path: Path) -> None:
    path = save_weights(sample_record(), tmp_path / "w.json")
    h = Evaluator.from_file(path)
    assert h.weights == {"scale": 2.5} and h.game == CONNECT4
    pos = CONNECT4.position("4")
    assert h.evaluate(pos) == 2.5 * Evaluator("square_values", CONNECT4).evaluate(pos)
    with pytest.raises(WeightError, match="unknown weight"):
        Evaluator("square_values", CONNECT4, {"scael": 1.0})
    with pytest.raises(UnsupportedGameError, match="k=4"):
        Evaluator("c4_features", GOMOKU)
    with pytest.raises(ValueError, match="bound to Connect-4 6x7 k=4"):
        h.evaluate(Connect4(rows=5).position())
