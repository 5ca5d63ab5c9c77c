"""Threat-space search (search/gomoku/threats.py over search/_tss.py) against known wins and the slow references of tests/naive_tss.py."""

from __future__ import annotations

import numpy as np
import pytest

from games import MNK, Position
from search.agents import make_agent
from search.gomoku.threats import ThreatResult, find_vcf, find_vct, guard_threats, threat_move
from tests import naive_tss as nv
from tests.positions import random_position

FILLERS = [(0, 0), (0, 14), (14, 0), (14, 14), (0, 7), (14, 7), (7, 0), (7, 14)]
"""Far-away cells for the defender's spare stones on 15x15 (they make no line with anything)."""


def position_from(game: MNK, xs: list[tuple[int, int]], os: list[tuple[int, int]]) -> Position:
    """The position with x on ``xs`` and o on ``os`` (row 0 at the top), played alternately from x."""
    assert len(xs) - len(os) in (0, 1)
    pos = game.position()
    for i in range(len(xs) + len(os)):
        r, c = xs[i // 2] if i % 2 == 0 else os[i // 2]
        pos.play(r * game.cols + c)
    assert not pos.is_terminal()
    return pos


def padded(xs: list[tuple[int, int]], os: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``os`` with filler stones added until x is to move."""
    return os + FILLERS[: len(xs) - len(os)]


def flat(pos: Position) -> list[int]:
    """The board as the flat list the slow reference takes."""
    return [int(v) for v in pos.board().ravel()]


def assert_forced_vcf(pos: Position, result: ThreatResult, exact: bool = False) -> None:
    """The line is a forced win by the slow reference, every defender reply tried."""
    g = pos.game
    assert result.win and result.plies == len(result.line) and result.move == result.line[0]
    assert nv.line_is_forced_vcf(flat(pos), g.rows, g.cols, g.k, exact, 1 + pos.to_move, list(result.line))
    replay = pos.copy()
    for move in result.line:
        replay.play(move)
    assert replay.winner == pos.to_move


# Known wins on 15x15 freestyle (k = 5), x to move.  Cells are (row, col), row 0 at the top.
DOUBLE_FOUR = ([(7, 3), (7, 4), (7, 5), (4, 6), (5, 6), (6, 6)], [(7, 2), (3, 6)])  # (7,6): two fours, 3 plies
FOUR_THREE = ([(7, 3), (7, 4), (7, 5), (5, 6), (6, 6)], [(7, 2)])  # (7,6): a four and an open three, 5 plies
THREE_FOURS = ([(10, 2), (10, 3), (10, 4), (7, 5), (8, 5), (9, 6), (9, 7)], [(10, 1), (6, 5)])  # fours at (10,5), (9,5), then an open four: 7
DOUBLE_THREE = ([(7, 5), (7, 6), (5, 7), (6, 7)], [])  # no four at all; (7,7) makes two open threes: VCT in 5


@pytest.mark.parametrize(
    "stones, plies, first",
    [(DOUBLE_FOUR, 3, (7, 6)), (FOUR_THREE, 5, (7, 6)), (THREE_FOURS, 7, (10, 5))],
    ids=["double-four", "four-three", "three-fours"],
)
def test_vcf_finds_the_known_shortest_win_on_15x15(stones: tuple, plies: int, first: tuple[int, int]) -> None:
    xs, os = stones
    pos = position_from(MNK(15, 15, 5), xs, padded(xs, os))
    result = find_vcf(pos)
    assert result.plies == plies and result.move == first[0] * 15 + first[1]
    assert_forced_vcf(pos, result)


def test_a_vcf_needs_fours_the_double_three_is_found_by_vct_only() -> None:
    xs, os = DOUBLE_THREE
    game = MNK(15, 15, 5)
    pos = position_from(game, xs, padded(xs, os))
    vcf = find_vcf(pos)
    assert not vcf.win and vcf.complete
    vct = find_vct(pos)
    assert vct.win and vct.plies == 5 and vct.move == 7 * 15 + 7
    # every defence loses within 5 plies: the slow reference, x's first move fixed, then cells next to its stones
    first_then_near = nv.near_moves(15, 15)
    moves = lambda b, me: [vct.move] if b[vct.move] == 0 else first_then_near(b, me)  # noqa: E731
    assert nv.proves(flat(pos), 15, 15, 5, False, 1, 5, moves)


SMALL = [(MNK(6, 6, 4), False), (MNK(7, 7, 4), True), (MNK(8, 8, 5), False)]


def random_vcf_cases() -> list[tuple[MNK, bool, int]]:
    """(game, exact-k, seed) for the VCF equivalence test."""
    return [(game, exact, seed) for game, exact in SMALL for seed in range(12)]


@pytest.mark.parametrize("game, exact, seed", random_vcf_cases(), ids=lambda v: str(v).replace(" ", ""))
def test_vcf_equals_the_slow_reference_on_random_small_boards(game: MNK, exact: bool, seed: int) -> None:
    """Same shortest length as an AND-OR search over every four and every defence (so no false proof, none missed)."""
    pos = random_position(game, seed, plies=game.n_cells // 5 + 2 * (seed % 5))
    result = find_vcf(pos, max_depth=7, exact_k=exact)
    assert result.complete
    expected = nv.shortest_vcf(flat(pos), game.rows, game.cols, game.k, exact, 1 + pos.to_move, 7)
    assert result.plies == expected
    if result.win:
        assert_forced_vcf(pos, result, exact)


VCT_SAMPLE = [(MNK(5, 5, 4), s) for s in range(30)] + [(MNK(6, 6, 4), s) for s in range(30)]


def vct_sample_position(game: MNK, seed: int) -> Position:
    """A random position of the VCT soundness sample (about a quarter of the board filled)."""
    return random_position(game, 2000 + seed, plies=game.n_cells // 4 + seed % 4)


@pytest.mark.parametrize("game, seed", VCT_SAMPLE, ids=lambda v: str(v).replace(" ", ""))
def test_vct_never_claims_a_win_full_width_minimax_refutes(game: MNK, seed: int) -> None:
    """A claimed VCT is a win for plain minimax (every attacker and defender move) within the claimed plies;
    where minimax proves no win within 5 plies, VCT claims none."""
    pos = vct_sample_position(game, seed)
    result = find_vct(pos, max_depth=5)
    board, me = flat(pos), 1 + pos.to_move
    if result.win:
        assert result.plies <= 5 and nv.proves(board, game.rows, game.cols, game.k, False, me, result.plies, nv.all_moves)
    else:
        assert result.complete
    if not nv.proves(board, game.rows, game.cols, game.k, False, me, 5, nv.all_moves):
        assert not result.win


def test_the_vct_sample_holds_wins_that_need_a_three() -> None:
    """The sample above is not all VCF: some wins need a three (VCT finds them, VCF at the same depth does not)."""
    needs_three = sum(
        find_vct(pos, max_depth=5).win and not find_vcf(pos, max_depth=5).win
        for pos in (vct_sample_position(game, seed) for game, seed in VCT_SAMPLE)
    )
    assert needs_three >= 2


def test_exact_k_a_four_that_would_make_an_overline_is_no_four() -> None:
    """x x x x . x on a row: freestyle wins at the gap (a six), exact-k (gomoku's standard rule) does not."""
    game = MNK(9, 9, 5)
    xs = [(4, 0), (4, 1), (4, 2), (4, 3), (4, 5)]
    pos = position_from(game, xs, [(0, 8), (8, 8), (8, 0), (0, 4), (8, 4)][: len(xs)])
    assert find_vcf(pos).plies == 1  # the gap wins with a six in freestyle
    exact = find_vcf(pos, exact_k=True)
    assert not exact.win and exact.complete
    assert nv.shortest_vcf(flat(pos), 9, 9, 5, True, 1, 7) == 0


def test_exact_k_a_double_four_in_freestyle_is_a_single_four() -> None:
    """x x x . . x on row 4 and a column of three: (4,3) is a double four in freestyle (its row win cell makes six),
    a single four in exact-k; both lengths agree with the slow reference."""
    game = MNK(9, 9, 5)
    xs = [(4, 0), (4, 1), (4, 2), (4, 5), (1, 3), (2, 3), (3, 3)]
    os = [(0, 3), (8, 8), (8, 0), (0, 8), (8, 4), (0, 0), (8, 6)]
    pos = position_from(game, xs, os)
    free, exact = find_vcf(pos), find_vcf(pos, exact_k=True)
    assert free.plies == 3 and free.move == 4 * 9 + 3
    assert exact.plies != 3
    for rule, result in ((False, free), (True, exact)):
        assert result.plies == nv.shortest_vcf(flat(pos), 9, 9, 5, rule, 1, 9)
        if result.win:
            assert_forced_vcf(pos, result, rule)


@pytest.mark.parametrize("counter, plies", [(True, 0), (False, 5)], ids=["o-counter-four", "no-counter"])
def test_a_counter_four_refutes_the_four_three(counter: bool, plies: int) -> None:
    """(4,4) is a four-three for x; with o's three on column 5, o's forced block (4,5) is a double four for o."""
    game = MNK(9, 9, 5)
    xs = [(4, 1), (4, 2), (4, 3), (5, 4), (6, 4)]
    os = [(4, 0), (1, 5), (2, 5), (3, 5), (8, 8)] if counter else [(4, 0), (0, 8), (8, 8), (8, 0), (0, 2)]
    pos = position_from(game, xs, os)
    result = find_vcf(pos)
    assert result.plies == plies == nv.shortest_vcf(flat(pos), 9, 9, 5, False, 1, 9)
    if result.win:
        assert result.move == 4 * 9 + 4
        assert_forced_vcf(pos, result)


def test_the_budget_stops_the_search_and_says_so() -> None:
    xs, os = THREE_FOURS
    pos = position_from(MNK(15, 15, 5), xs, padded(xs, os))
    cut = find_vcf(pos, nodes=3)
    assert not cut.win and not cut.complete and cut.nodes <= 3
    assert find_vcf(pos, max_depth=5).complete and not find_vcf(pos, max_depth=5).win  # 7 plies are needed


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: find_vcf(MNK(15, 15, 5).position(), nodes=0), "nodes=0 must be a positive integer"),
        (lambda: find_vcf(MNK(15, 15, 5).position(), max_depth=0), "max_depth=0 must be a positive integer"),
        (lambda: find_vct(MNK(15, 15, 5).position(), nodes=1.5), "nodes=1.5"),
        (lambda: find_vcf(MNK(3, 3, 3).position()), "k >= 4"),
        (lambda: find_vcf(MNK(6, 6, 4).position(), exact_k=1), "exact_k=1 must be True, False or None"),
        (lambda: find_vcf(MNK(4, 4, 4).position("a1 a2 b1 b2 c1 c2 d1")), "is over"),
        (lambda: find_vct(MNK(15, 15, 5).position("h8"), deadline="soon"), "deadline='soon' must be a time"),
        (lambda: find_vcf(MNK(15, 15, 5).position("h8"), deadline=float("nan")), "deadline=nan must be a time"),
        (lambda: find_vcf(MNK(15, 15, 5).position("h8"), deadline=True), "deadline=True must be a time"),
        (lambda: threat_move(MNK(15, 15, 5).position("h8"), vct_depth=0), "vct_depth=0 must be a positive integer"),
        (lambda: guard_threats(MNK(15, 15, 5).position("h8"), 0, [1], 0, vct_depth=2.5), "vct_depth=2.5 must be"),
    ],
)
def test_bad_input_gets_a_clear_error(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace(".", r"\.").replace("(", r"\(")):
        call()  # type: ignore[operator]


def test_gravity_boards_are_refused() -> None:
    from games import CONNECT4

    with pytest.raises(ValueError, match="without gravity"):
        find_vcf(CONNECT4.position())
    with pytest.raises(TypeError, match="not a games.Position"):
        find_vcf("e5")  # type: ignore[arg-type]


def test_the_agent_plays_a_proved_win_that_its_alpha_beta_cannot_see() -> None:
    from search.agents import AlphaBetaAgent, make_agent
    from search.protocol import WIN_SCORE, is_win_score

    xs, os = THREE_FOURS
    game = MNK(15, 15, 5)
    pos = position_from(game, xs, padded(xs, os))
    agent = make_agent("alphabeta:depth=1,tss_nodes=500", game)
    assert agent.select_move(pos) == 10 * 15 + 5
    assert agent.last_result is not None and agent.last_result.score == WIN_SCORE - 7
    assert list(agent.last_result.pv) == list(find_vcf(pos).line)
    plain = AlphaBetaAgent(game, "mics", depth=1, tss_nodes=0)  # the generic search (the gomoku engine sees VCFs itself)
    plain.select_move(pos)
    assert plain.last_result is not None and not is_win_score(plain.last_result.score)  # 1 ply cannot see 7


def test_the_agent_option_is_checked_and_ignored_where_tss_does_not_apply() -> None:
    from games import CONNECT4
    from search.agents import AlphaBetaAgent, make_agent

    with pytest.raises(ValueError, match="tss_nodes=-1 must be a non-negative integer"):
        make_agent("alphabeta:tss_nodes=-1", MNK(9, 9, 5))
    pos = CONNECT4.position("4444")
    with_tss = AlphaBetaAgent(CONNECT4, depth=3, tss_nodes=10_000, seed=1)
    without = AlphaBetaAgent(CONNECT4, depth=3, tss_nodes=0, seed=1)
    assert with_tss.select_move(pos) == without.select_move(pos)
    a, b = with_tss.last_result, without.last_result
    assert a is not None and b is not None and (a.score, a.depth, a.nodes, a.pv) == (b.score, b.depth, b.nodes, b.pv)


def test_the_benchmark_runs_end_to_end_and_refuses_bad_input() -> None:
    import os
    import re
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root)}
    script = str(root / "scripts" / "bench_tss.py")
    run = subprocess.run([sys.executable, script, "--repeats", "1", "--ab-seconds", "0.2", "--random", "1", "--nodes", "50"],
                         capture_output=True, text=True, env=env, timeout=600)  # fmt: skip
    assert run.returncode == 0, run.stderr
    table = [line for line in run.stdout.splitlines() if line.startswith(("double", "four-three", "three fours"))]
    cells = [re.split(r"\s{2,}", line.strip()) for line in table]
    assert [(c[1], c[2]) for c in cells] == [("vcf", "3"), ("vcf", "5"), ("vcf", "7"), ("vct", "5")]  # kind, plies
    bad = subprocess.run([sys.executable, script, "--nodes", "0"], capture_output=True, text=True, env=env, timeout=600)
    assert bad.returncode == 2 and "--nodes=0 must be a positive integer" in bad.stderr and "Traceback" not in bad.stderr


def threatened_four_three(game: MNK) -> Position:
    """x to move on 15x15, o one move from FOUR_THREE's four-three (x's stones are far-off fillers)."""
    os, xs = FOUR_THREE[0], [(7, 2), *FILLERS[:4]]
    position = game.position()
    for x, o in zip(xs, os):
        position.play(x[0] * 15 + x[1])
        position.play(o[0] * 15 + o[1])
    return position


def test_the_agent_stops_the_opponents_vcf_that_its_alpha_beta_does_not_see() -> None:
    """o threatens the four-three of FOUR_THREE; x's depth-1 search alone leaves o a VCF, the guarded agent does not."""
    from search.agents import AlphaBetaAgent
    from search.gomoku.threats import guard_move

    game = MNK(15, 15, 5)
    pos = threatened_four_three(game)
    assert pos.to_move == 0 and find_vcf(pos).plies == 0  # x has nothing

    def leaves_a_vcf(move: int) -> bool:
        after = pos.copy()
        after.play(move)
        return find_vcf(after).win

    # windows at full width, the setting the position was built for (a plain alphabeta now plays mics, top-6)
    plain = AlphaBetaAgent(game, "windows", depth=1, tss_nodes=0).select_move(pos)
    assert leaves_a_vcf(plain)  # the unguarded choice loses by force (this is what the guard is for)
    guarded = AlphaBetaAgent(game, "windows", depth=1).select_move(pos)
    assert not leaves_a_vcf(guarded)
    assert guard_move(pos, plain, 0) == plain  # a zero budget switches the guard off


@pytest.mark.parametrize(
    "game, seed, exact",
    [(MNK(5, 5, 4), 12, False), (MNK(5, 5, 4), 19, True), (MNK(5, 5, 4), 28, False), (MNK(5, 5, 4), 57, True),
     (MNK(6, 6, 4), 26, False), (MNK(6, 6, 4), 35, True)],
    ids=lambda v: str(v).replace(" ", ""),
)  # fmt: skip
def test_vct_finds_seven_ply_wins_that_need_threes_and_minimax_agrees_on_the_length(game: MNK, seed: int, exact: bool) -> None:
    """Random positions (found by a sweep) where full-width minimax wins in 7 plies and not in 5, and no VCF exists."""
    pos = random_position(game, 9000 + seed, plies=game.n_cells // 5 + seed % 4)
    board, me = flat(pos), 1 + pos.to_move
    assert not find_vcf(pos, max_depth=7, exact_k=exact).win
    result = find_vct(pos, max_depth=7, exact_k=exact)
    assert result.win and result.plies == 7 and len(result.line) == 7
    assert nv.proves(board, game.rows, game.cols, game.k, exact, me, 7, nv.all_moves)
    assert not nv.proves(board, game.rows, game.cols, game.k, exact, me, 5, nv.all_moves)
    first = list(board)
    first[result.move] = me  # the first move is a real start: after it, every defence still loses within 6 plies
    moves = lambda b, m: nv.all_moves(b, m)  # noqa: E731
    opp = 3 - me
    for x in [e for e, v in enumerate(first) if v == 0]:
        first[x] = opp
        assert nv.proves(first, game.rows, game.cols, game.k, exact, me, 5, moves), f"defence {x} holds"
        first[x] = 0


def test_vct_finds_a_shorter_win_than_the_shortest_vcf() -> None:
    """THREE_FOURS needs 7 plies by fours alone, but a three first wins in 5 (plain alpha-beta agrees: see bench_tss)."""
    xs, os = THREE_FOURS
    pos = position_from(MNK(15, 15, 5), xs, padded(xs, os))
    assert find_vcf(pos).plies == 7
    vct = find_vct(pos)
    assert vct.plies == 5 and vct.move is not None
    near = nv.near_moves(15, 15)
    moves = lambda b, me: [vct.move] if b[vct.move] == 0 else near(b, me)  # noqa: E731
    assert nv.proves(flat(pos), 15, 15, 5, False, 1, 5, moves)


def test_the_default_depths_are_clamped_on_small_boards() -> None:
    # The agent's defaults (31 and 11 plies) exceed a 4x4 board: the search must clamp, not refuse, or the
    # agent forfeits every move of a tournament game on it.
    game = MNK(4, 4, 4)
    assert not find_vcf(game.position("a1")).win and not find_vct(game.position("a1")).win
    agent = make_agent("alphabeta:heuristic=mics,depth=2", game)
    assert agent.select_move(game.position("a1 b2 c3")) in game.position("a1 b2 c3").legal_moves()


# 20,20,5 after the balanced opening n10 m12 h9 and five moves of a game the engine lost: x (to move) is under an
# attack of threes; after most of its moves o has a VCT (after n11 one of 9 plies, 20,429 nodes to prove; after l9
# one of 11 plies, 189,932 nodes), after m9 none within 200,000 nodes.
UNDER_ATTACK = "n10 m12 h9 m11 m10 l10 n9 l11"


def test_a_deadline_stops_the_search_and_says_so() -> None:
    import time

    from search.gomoku._tss import CLOCK_NODES

    game = MNK(20, 20, 5)
    after = game.position(UNDER_ATTACK + " n11")
    cut = find_vct(after, nodes=1_000_000, deadline=0.0)  # long past: stopped at the first read of the clock
    assert not cut.win and not cut.complete and cut.nodes == CLOCK_NODES
    full = find_vct(after, nodes=1_000_000, deadline=time.perf_counter() + 600.0)
    assert full.win and full.plies == 9 and full.nodes > CLOCK_NODES
    plain = find_vct(after, nodes=1_000_000)
    assert (full.line, full.nodes) == (plain.line, plain.nodes)
    assert find_vct(after, nodes=1_000_000, deadline=np.float64(0.0)).nodes == CLOCK_NODES  # NumPy times are times


def test_a_bigger_guard_budget_sees_the_longer_attack() -> None:
    game = MNK(20, 20, 5)
    pos = game.position(UNDER_ATTACK)
    n11, o10, l9, m9 = (game.parse_move(m) for m in ("n11", "o10", "l9", "m9"))
    # 25,000 nodes prove n11 and o10 lost and miss l9's attack; 200,000 see it too
    assert guard_threats(pos, n11, [o10, l9, m9], 25_000) == (l9, 2)
    assert guard_threats(pos, n11, [o10, l9, m9], 200_000) == (m9, 3)


def test_a_deeper_guard_sees_the_13_ply_attack() -> None:
    game = MNK(15, 15, 5)
    # a game the gomoku engine lost at 1 s a move: after its f6, o wins by a VCT of 13 plies and none shorter
    pos = game.position("e11 j10 k7 i11 k9 j11 k11 d11 j12 k10 l10 m9 j8 i7 i12 i9 i8 h8 h12")
    f6 = game.parse_move("f6")
    after = pos.copy()
    after.play(f6)
    assert threat_move(after, 200_000) is None  # the default VCT depth, 11 plies, proves nothing
    found = threat_move(after, 200_000, vct_depth=13)
    assert found is not None and found.depth == 13 and len(found.pv) == 13
    f7 = game.parse_move("f7")
    assert guard_threats(pos, f6, [f7], 200_000) == (f6, 0)  # unseen: kept, no candidate checked
    assert guard_threats(pos, f6, [f7], 200_000, vct_depth=13)[1] == 1  # seen: the candidate is checked


def test_guard_threats_returns_the_first_candidate_that_leaves_no_vct() -> None:
    game = MNK(15, 15, 5, exact_k=True)
    pos = game.position("e11 j10 k7 i9 j9 k11 h8 i11")  # most x moves leave o a VCT here (o wins in 9 plies)
    e9, c9, f10, i8 = (game.parse_move(m) for m in ("e9", "c9", "f10", "i8"))
    after = pos.copy()
    after.play(e9)
    assert find_vct(after, nodes=20_000).win
    assert guard_threats(pos, e9, [e9, c9, f10, i8], 20_000) == (f10, 2)  # e9 itself skipped, c9 loses too
    assert guard_threats(pos, e9, [c9, f10], 0) == (e9, 0)  # a zero budget switches it off
    assert guard_threats(pos, e9, [c9, f10], 20_000, deadline=0.0) == (e9, 0)  # past the deadline: kept
    assert guard_threats(pos, f10, [i8], 20_000) == (f10, 0)  # a safe move is kept unchecked
