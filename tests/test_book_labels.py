"""Book positions as labels (tuning.book_labels): exact values of early Connect-4 positions, in the label format."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games import CONNECT4
from search.solve import Solver
from search.solve.book import installed_book
from tuning.blunders import blunder_rate
from tuning.book_labels import main
from tuning.labels import load_labels, write_labels
from tuning.openings import canonical_key


@pytest.fixture(scope="module", autouse=True)
def _book() -> None:
    if installed_book() is None:
        if os.environ.get("CI") == "true":
            pytest.fail('the opening book is missing in CI: the test extra installs it (pip install "alphabeta-gym[book]")')
        pytest.skip('the opening book is not installed: pip install "alphabeta-gym[book]"')


def test_book_labels_are_exact_and_merge_after_other_files(tmp_path: Path) -> None:
    shipped = load_labels(game=CONNECT4)
    small = tmp_path / "small.labels.jsonl.gz"
    rows = [(p.moves, p.score, [p.move_scores.get(a) for a in range(CONNECT4.cols)]) for p in shipped.positions[:50]]
    write_labels(small, shipped.header, rows)
    out = tmp_path / "book.labels.jsonl.gz"
    assert main(["--count", "12", "--seed", "3", "--min-ply", "5", "--max-ply", "9", "--out", str(out),
                 "--merge", str(small), "--quiet"]) == 0  # fmt: skip
    labels = load_labels(out, game=CONNECT4)
    book_part, rest = labels.positions[:-50], labels.positions[-50:]
    assert [p.moves for p in rest] == [p.moves for p in shipped.positions[:50]]  # the merged file stays whole, last
    assert labels.heldout == labels.positions[-load_labels(small).heldout_count :]  # and keeps its held-out tail
    assert 1 <= len(book_part) <= 12 and all(5 <= p.ply <= 9 for p in book_part)
    keys = [canonical_key(CONNECT4.position(p.moves)) for p in labels.positions]
    assert len(set(keys)) == len(keys)  # no position twice, up to the mirror
    judge = Solver(CONNECT4, book=True)
    for labelled in book_part[:6]:
        exact = judge.solve(CONNECT4.position(labelled.moves), moves=True)
        assert (labelled.score, labelled.move_scores) == (exact.score, dict(exact.move_scores))
    assert blunder_rate("random", labels, positions=book_part).overall.moves == len(book_part)  # usable as a label set


def test_bad_book_label_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--count", "5", "--max-ply", "13", "--out", str(tmp_path / "x.gz")])
    assert "need 0 <= min ply <= max ply <= 12" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--count", "0", "--out", str(tmp_path / "x.gz")])
    assert "--count 0 must be a positive integer" in capsys.readouterr().err


def test_the_held_out_positions_leave_out_the_fitted_ones(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from scripts.book_blunders import heldout_positions
    from scripts.book_blunders import main as blunders_main

    shipped = load_labels(game=CONNECT4)
    first = tmp_path / "first.labels.jsonl.gz"
    write_labels(first, shipped.header, [(p.moves, p.score, [p.move_scores.get(a) for a in range(CONNECT4.cols)])
                                         for p in shipped.positions[:100]])  # fmt: skip
    kept = heldout_positions(shipped, [load_labels(first)], 10, 20)
    moves = {p.moves for p in kept.positions}
    assert moves and all(10 <= p.ply <= 20 for p in kept.positions)
    assert not moves & {p.moves for p in shipped.positions[:100]}
    assert blunders_main([str(first), "random", "--min-ply", "8", "--max-ply", "12"]) == 0
    out = capsys.readouterr().out
    assert "held-out positions of 8 to 12 stones" in out and "random" in out
