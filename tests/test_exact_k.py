"""The exact-k rule (an overline of more than k does not win) through games, search, solver, envs and tuning.

Each layer is checked against a reference that does not share its code:
the naive rules of :mod:`tests.naive`, plain minimax, the naive exact
scores of :mod:`tests.naive_solve`; and each check would fail if the layer
ignored the rule (the same positions differ under "k or more").
"""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import envs  # noqa: F401  (registers the alphabeta/* ids)
from games import GOMOKU, MNK, Connect4, InvalidGameError, KInARow, game_from_record, make_game
from heuristics import Evaluator, load_weights
from heuristics.defaults import game_tag
from search import minimax, search
from search.alphabeta.engine import _search, _uses_bitboards
from search.solve import Solver
from tests.naive import NaiveGame
from tests.naive_search import naive_negamax
from tests.naive_solve import naive_score
from tests.positions import random_position

STANDARD_GOMOKU = MNK(15, 15, 5, exact_k=True)


def test_an_overline_does_not_win_and_the_game_goes_on() -> None:
    # x: h8 i8 j8 k8, then m8 (a gap), then l8 fills it: six in a row.
    moves = "h8 a1 i8 a2 j8 a3 k8 a5 m8 a7 l8"
    assert GOMOKU.position(moves).winner == 0  # freestyle: six wins
    standard = STANDARD_GOMOKU.position(moves)
    assert standard.winner is None and not standard.is_terminal()
    standard.play(STANDARD_GOMOKU.parse_move("c3"))  # play goes on
    assert STANDARD_GOMOKU.position("h8 a1 i8 a2 j8 a3 k8 a5 l8").winner == 0  # exactly five wins


def test_the_rule_is_part_of_the_game_value_and_its_names() -> None:
    assert STANDARD_GOMOKU != GOMOKU and hash(STANDARD_GOMOKU) != hash(GOMOKU)
    assert str(STANDARD_GOMOKU) == "m,n,k 15,15,5 exact" and repr(GOMOKU) == "MNK(rows=15, cols=15, k=5)"
    assert STANDARD_GOMOKU.rules.exact_k == 1 and GOMOKU.rules.exact_k == 0
    assert make_game("gomoku", exact_k=True) == STANDARD_GOMOKU
    assert game_tag(STANDARD_GOMOKU) == "mnk-15x15x5-exact" and game_tag(GOMOKU) == "gomoku"
    assert game_from_record(STANDARD_GOMOKU.to_record()) == STANDARD_GOMOKU
    assert "exact_k" not in GOMOKU.to_record()  # older files stay byte-identical
    with pytest.raises(InvalidGameError, match="exact_k='yes' is not a bool"):
        MNK(3, 3, 3, exact_k="yes")  # type: ignore[arg-type]
    with pytest.raises(InvalidGameError, match="exact_k=1 is not a bool"):
        game_from_record({"kind": "mnk", "rows": 3, "cols": 3, "k": 3, "exact_k": 1})


@pytest.mark.parametrize("game", [Connect4(6, 7, 3, exact_k=True), MNK(5, 5, 3, exact_k=True), Connect4(9, 9, 4, exact_k=True)],
                         ids=str)  # fmt: skip
def test_random_games_end_where_the_naive_rules_say(game: KInARow) -> None:
    rng = np.random.default_rng(7)
    overlines = 0
    for _ in range(60):
        pos, naive = game.position(), NaiveGame.of(game)
        freestyle = type(game)(game.rows, game.cols, game.k).position()
        while not pos.is_terminal():
            move = int(rng.choice(pos.legal_moves()))
            pos.play(move)
            naive = naive.played(move)
            if freestyle.winner is None:
                freestyle.play(move)
                overlines += freestyle.winner is not None and pos.winner is None
            assert (pos.winner, pos.is_terminal()) == (naive.winner(), naive.terminal())
    assert overlines > 0  # the games did make overlines, so the rule was exercised


SEARCH_GAMES = [Connect4(4, 5, 3, exact_k=True), MNK(4, 4, 3, exact_k=True), Connect4(9, 7, 3, exact_k=True)]


@pytest.mark.parametrize("game", SEARCH_GAMES, ids=str)
def test_alpha_beta_equals_plain_minimax_under_the_exact_rule(game: KInARow) -> None:
    evaluator = Evaluator("windows", game)
    for seed in range(12):
        pos = random_position(game, seed, plies=int(np.random.default_rng(seed).integers(0, game.n_cells // 2)))
        if pos.is_terminal():
            continue
        depth = 3
        expected = naive_negamax(pos, evaluator, depth)
        assert search(pos, evaluator, depth=depth, use_tt=False).score == expected
        assert minimax(pos, evaluator, depth)[0] == expected


def test_the_bitboard_and_array_kernels_agree_under_the_exact_rule() -> None:
    game = Connect4(exact_k=True)
    assert _uses_bitboards(game.position())
    for name in ("c4_features", "square_values", "threats"):
        evaluator = Evaluator(name, game)
        for seed in range(8):
            pos = random_position(game, seed, plies=2 * seed + 14)
            if pos.is_terminal():
                continue
            bits = _search(pos, evaluator, bitboards=True, depth=4, use_tt=False)
            array = _search(pos, evaluator, bitboards=False, depth=4, use_tt=False)
            assert bits.score == array.score, (name, pos.move_string())


@pytest.mark.parametrize("game, min_ply", [(Connect4(4, 5, 3, exact_k=True), 8), (MNK(3, 4, 2, exact_k=True), 3)], ids=str)
def test_the_solver_is_exact_under_the_exact_rule(game: KInARow, min_ply: int) -> None:
    solver, freestyle_solver = Solver(game), Solver(type(game)(game.rows, game.cols, game.k))
    differ = 0
    for seed in range(40):
        pos = random_position(game, seed)
        if pos.ply < min_ply:
            continue
        expected = naive_score(pos.copy())
        assert solver.solve(pos).score == expected, pos.move_string()
        free = freestyle_solver.game.position()
        for move in pos.moves:
            if not free.is_terminal():
                free.play(move)
        differ += free.is_terminal() or freestyle_solver.solve(free).score != expected
    assert differ > 0  # the rule changed some values, so the check is not vacuous


def test_an_env_plays_the_exact_rule() -> None:
    env = gym.make("alphabeta/Connect4-v0", rows=4, cols=6, k=2, exact_k=True, opponent="random")
    assert env.unwrapped.game == Connect4(4, 6, 2, exact_k=True)
    vector = gym.make_vec("alphabeta/Gomoku-v0", num_envs=2, vectorization_mode="vector_entry_point", exact_k=True)
    assert vector.unwrapped.game == STANDARD_GOMOKU
    rng = np.random.default_rng(0)
    overlines = 0
    for episode in range(40):
        _, info = env.reset(seed=episode)
        terminated = False
        while not terminated:
            action = int(rng.choice(np.flatnonzero(env.unwrapped.action_masks())))
            _, reward, terminated, _, info = env.step(action)
        moves = env.unwrapped.position().moves
        naive = NaiveGame.of(env.unwrapped.game)
        freestyle = NaiveGame(4, 6, 2, True)
        for move in moves:
            naive, freestyle = naive.played(move), freestyle if freestyle.terminal() else freestyle.played(move)
        assert naive.terminal() and not (len(moves) < 24 and naive.winner() is None)
        overlines += len(freestyle.moves) < len(moves)
    assert overlines > 0  # some episodes went on past a line the freestyle rule would have ended
    env.close()
    vector.close()


def test_the_tuner_exports_a_weight_file_for_the_exact_game(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from tuning.run import main

    monkeypatch.chdir(tmp_path)
    code = main(["--game", "mnk", "--rows", "4", "--cols", "4", "--k", "3", "--exact-k", "--heuristic", "windows",
                 "--trials", "1", "--pairs", "2", "--confirm-top", "1", "--confirm-pairs", "2", "--plies", "2",
                 "--workers", "1", "--nodes", "200", "--depth-range", "1,3", "--no-progress", "--baseline", "random",
                 "--label-budget", "0",  # no label making: the fit's own tests cover it, and it takes its whole budget
                 "--storage", f"sqlite:///{tmp_path / 'db.sqlite'}", "--study", "exact", "--out", "tuned.json"])  # fmt: skip
    assert code in (0, 3)
    summary = (tmp_path / "runs" / "exact" / "summary.md").read_text()
    assert "exact" in summary
    if code == 0:
        raw = json.loads((tmp_path / "tuned.json").read_text())
        assert raw["game"]["exact_k"] is True
        assert load_weights(tmp_path / "tuned.json", MNK(4, 4, 3, exact_k=True)).game.exact_k
