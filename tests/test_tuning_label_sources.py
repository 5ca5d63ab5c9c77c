"""Label sources beyond the solver: deep search and self-play outcomes, the parallel generator, the cache."""

from __future__ import annotations

import math
import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from games import CONNECT4, TIC_TAC_TOE, make_game
from search.solve import Solver
from tuning._generate import generate, split_point
from tuning.label_sources import Row, default_source, immediate_win, is_quiet, make_source
from tuning.labels import (
    cache_path,
    default_path,
    find_labels,
    load_labels,
    main,
    make_labels,
    missing_message,
    write_labels,
)
from tuning.texel import fit_weights, with_children

SMALL = make_game("connect4", 4, 5, 4)
FAST = "alphabeta:heuristic=threats,depth=2"


def _naive_immediate_win(position) -> bool:
    """Brute force for the side to move: play every legal move and look for a winner."""
    for action in position.legal_moves():
        trial = position.copy()
        trial.play(action)
        if trial.winner == position.to_move:
            return True
    return False


@pytest.mark.parametrize("seed", range(6))
def test_immediate_win_for_the_side_to_move_agrees_with_playing_every_move(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for game in (CONNECT4, make_game("mnk", 5, 5, 4)):
        for _ in range(40):
            position = game.position()
            for _ in range(int(rng.integers(0, game.n_cells - 2))):
                if position.is_terminal():
                    break
                moves = position.legal_moves()
                position.play(moves[int(rng.integers(len(moves)))])
            if position.is_terminal():
                continue
            assert immediate_win(position, position.to_move) == _naive_immediate_win(position)


def test_quiet_means_no_win_to_take_and_none_to_block() -> None:
    to_take = CONNECT4.position("121213")  # x has three in column a and is to move
    assert immediate_win(to_take, 0) and not is_quiet(to_take)
    to_block = CONNECT4.position("12121")  # the same three, o to move: o must block
    assert immediate_win(to_block, 0) and not immediate_win(to_block, 1) and not is_quiet(to_block)
    assert is_quiet(CONNECT4.position("44"))


@pytest.mark.parametrize("name", ["search", "selfplay"])
def test_search_and_selfplay_sets_are_the_same_for_any_worker_count_and_hold_quiet_positions(name: str) -> None:
    options = {"player": FAST} if name == "selfplay" else {"player": FAST, "deep": "alphabeta:heuristic=threats,depth=4"}
    source = make_source(name, SMALL, **options)
    one = generate(SMALL, source, count=40, seconds=None, seed=5, workers=1)
    two = generate(SMALL, source, count=40, seconds=None, seed=5, workers=2)
    assert [(r.moves, r.target) for r in one.rows] == [(r.moves, r.target) for r in two.rows]
    assert len(one.rows) == 40 and one.header["source"]["name"] == name
    for row in one.rows:
        position = SMALL.position(row.moves)
        assert is_quiet(position) and not position.is_terminal() and 0.0 <= row.target <= 1.0
        if name == "selfplay":
            assert row.target == row.outcome and row.target in (0.0, 0.5, 1.0)
    if name == "search":
        assert one.header["source"]["scale"] > 0
        unproven = [r for r in one.rows if 0.0 < r.target < 1.0]
        assert unproven and all(math.isfinite(r.target) for r in one.rows)


def test_the_held_out_split_falls_between_two_games() -> None:
    rows = [Row(str(i), 0, None, 0.5, None, game) for i, game in enumerate([0, 0, 0, 1, 1, 2, 2, 2, 2, 3])]
    cut = split_point(rows, 0.2)
    assert cut == 9 and rows[cut - 1].game != rows[cut].game  # the nearest boundary to 8
    assert split_point(rows[:3], 0.5) == 1  # one game: cut where the share falls (round(1.5) = 2 held out)
    assert split_point(rows, 0.0) == len(rows)


def test_a_time_budget_stops_the_generator_and_the_cli_writes_to_the_cache(capsys) -> None:
    assert main(["--game", "connect4", "--rows", "4", "--cols", "5", "--source", "selfplay", "--player", FAST,
                 "--time", "3", "--workers", "1"]) == 0  # fmt: skip
    written = cache_path(SMALL, "selfplay")
    assert written.is_file() and str(written).startswith(os.environ["ALPHABETA_GYM_CACHE"])
    labels = load_labels(written, SMALL)
    assert labels.source == "selfplay" and not labels.exact and 0 < labels.heldout_count < len(labels.positions)
    assert find_labels(SMALL) == written and find_labels(CONNECT4) == default_path(CONNECT4)  # shipped sets first
    out = capsys.readouterr()
    assert "labelled" in out.err and "held out" in out.out
    message = missing_message(Path("x.gz"), make_game("mnk", 9, 9, 5))
    assert "connect4-4x5-selfplay (cached)" in message and "connect4-6x7 (shipped)" in message
    assert "python -m tuning.labels --game mnk --rows 9 --cols 9 --k 5 --time 300" in message


def test_default_sources_follow_the_measured_choice() -> None:
    assert default_source(CONNECT4) == "solver" and default_source(TIC_TAC_TOE) == "solver"
    assert default_source(make_game("connect4", 7, 8, 4)) == "search"  # the solver reaches 7x8 only late in a game
    assert default_source(make_game("mnk", 9, 9, 5)) == "search"  # beyond the solver


def test_a_set_with_its_split_is_fitted_on_its_training_part_only(tmp_path: Path) -> None:
    source = make_source("selfplay", SMALL, player=FAST)
    labels = make_labels(SMALL, source, count=120, seconds=None, seed=1, heldout=0.25, out=tmp_path / "s.gz",
                         command="test")  # fmt: skip
    fit = fit_weights(SMALL, "windows", labels)
    assert fit.train_size == len(labels.train) and fit.heldout_size == labels.heldout_count


def test_the_children_of_solver_labelled_positions_carry_their_exact_values() -> None:
    labels = load_labels(game=CONNECT4)
    late = [p for p in labels.train if p.ply >= 30][:12]
    grown = with_children(CONNECT4, late)
    assert grown[: len(late)] == late and len(grown) > 2 * len(late)
    solver = Solver(CONNECT4, tt_size=1 << 18)
    for child in grown[len(late) :: 5]:
        value = solver.solve(CONNECT4.position(child.moves)).score
        assert child.win_probability == ((value > 0) - (value < 0) + 1) / 2
    fit = fit_weights(CONNECT4, "square_values", labels.positions[:400], heldout=0.25, children=True)
    assert fit.heldout_size == 100 and fit.train_size > 300


def test_no_child_of_a_training_position_is_a_held_out_one() -> None:
    from tuning.openings import canonical_key

    labels = load_labels(game=CONNECT4)
    parent = next(p for p in labels.train if p.ply >= 20 and len(p.move_scores) >= 3)
    position = CONNECT4.position(parent.moves)
    moves = sorted(parent.move_scores)
    held = []
    for move in moves[:2]:  # two of its children, each mirrored, posing as held-out positions
        position.play(move)
        mirrored = "".join(str(CONNECT4.cols + 1 - int(c)) for c in position.move_string())  # columns 1..7
        held.append(replace(parent, moves=mirrored, ply=position.ply))
        position.undo()
    everything = with_children(CONNECT4, [parent])
    kept = with_children(CONNECT4, [parent], exclude=held)
    assert len(everything) - len(kept) == 2
    assert not {canonical_key(CONNECT4.position(p.moves)) for p in kept} & {
        canonical_key(CONNECT4.position(p.moves)) for p in held
    }


def test_version_2_rows_round_trip_and_version_1_sets_keep_a_fifth_held_out(tmp_path: Path) -> None:
    shipped = load_labels(game=TIC_TAC_TOE)
    assert shipped.header["version"] == 1 and shipped.heldout_count == 125 and shipped.exact
    header = {"format": "alphabeta-gym-labels", "version": 2, "game": TIC_TAC_TOE.to_record(), "heldout": 1,
              "source": {"name": "search"}}  # fmt: skip
    moves = [p.moves for p in shipped.positions[:3]]
    write_labels(tmp_path / "v2.gz", header, [(moves[0], 3, None, 0.25), (moves[1], -2, None, 0.75), (moves[2], 0, None, 0.5)])
    again = load_labels(tmp_path / "v2.gz", TIC_TAC_TOE)
    assert [p.win_probability for p in again.positions] == [0.25, 0.75, 0.5] and again.heldout_count == 1
    assert again.heldout == again.positions[2:] and not again.exact


def test_merging_sets_keeps_the_first_held_out_split_and_no_position_twice() -> None:
    from scripts.merge_labels import merge
    from tuning.labels import LabelSet

    shipped = load_labels(game=CONNECT4)
    first = LabelSet(CONNECT4, {"heldout": 20}, shipped.positions[:100])
    second = LabelSet(CONNECT4, {"heldout": 10}, shipped.positions[60:200])  # overlaps both parts of the first
    positions, heldout = merge([first, second])
    assert heldout == 20 and positions[-20:] == list(first.heldout)
    assert positions[:80] == list(first.train) and len(positions) == 200  # positions 100-199 added, 60-99 already in
    assert len({p.moves for p in positions}) == len(positions)
    with pytest.raises(ValueError, match="cannot merge"):
        merge([first, load_labels(game=TIC_TAC_TOE)])
