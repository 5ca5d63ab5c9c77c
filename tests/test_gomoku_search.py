"""The gomoku engine's search: threats (a VCF found, fours and open threes answered, the opponent's VCT avoided),
alpha-beta equal to plain negamax, time limits, the exact solver on small boards, which spec plays it, and bad
weights refused."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import time

import numpy as np
import pytest

from games import CONNECT4, MNK, Position
from heuristics import Evaluator, WeightError
from heuristics._gomoku_state import CLASS_WIN, N_CLASSES, _make, _unmake
from search.agents import AlphaBetaAgent, make_agent
from search.budget import Limit
from search.errors import SearchError
from search.gomoku import _search as gs
from search.gomoku import player as agents_module
from search.gomoku.engine import GomokuEngine
from search.gomoku.threats import DEFAULT_VCT_DEPTH, find_vcf, find_vct
from search.protocol import WIN_SCORE
from search.result import SearchResult
from search.solve import solve
from tests import naive_gomoku as naive

# Every test module that searches with the gomoku engine runs on one worker: on a fresh clone its kernels (a minute
# of compiling) then compile once, not in both workers at the same time.
pytestmark = pytest.mark.xdist_group("gomoku")


def _moves(game: MNK, xs: list[tuple[int, int]], os: list[tuple[int, int]]) -> list[int]:
    """Alternating moves placing x on ``xs`` and o on ``os`` (x moves first; len(os) is len(xs) or one less)."""
    cells = [[r * game.cols + c for r, c in side] for side in (xs, os)]
    return [cell for pair in zip(*cells) for cell in pair] + cells[0][len(cells[1]):]


def _vcf_position() -> tuple[MNK, list[int], set[int]]:
    """x to move wins in 5 plies by fours only: Q=(5,4) fours the row and lifts column 4 to three, then P=(6,4)
    is a double four (or P first, then Q).  No x move wins sooner."""
    game = MNK(11, 11, 5)
    xs = [(5, 1), (5, 2), (5, 3), (3, 4), (4, 4), (6, 5), (6, 6), (6, 7)]
    os = [(5, 0), (2, 4), (6, 8), (10, 10), (0, 10), (10, 0), (0, 0), (9, 5)]
    return game, _moves(game, xs, os), {5 * 11 + 4, 6 * 11 + 4}  # the two 5-ply first moves (a longer VCF exists)


@pytest.mark.parametrize("switches", [{}, {"lmr": 4, "threat_width": 1}, {"futility": 1, "razor": 1}, {"futility": 0}],
                         ids=str)
def test_finds_a_constructed_vcf_and_wins_it(switches: dict[str, int]) -> None:
    game, moves, firsts = _vcf_position()
    engine = GomokuEngine(game, tt_bits=12)
    engine.set_switches(switches)
    position = game.position(moves)
    result = engine.search(position, Limit(depth=2))
    assert result.score >= WIN_SCORE - 7 and result.threat_depth == WIN_SCORE - result.score
    defender = GomokuEngine(game, tt_bits=12)
    for _ in range(result.threat_depth):  # the engine plays it out against its own best defence
        mover = engine if position.to_move == 0 else defender
        position.play(mover.search(position, Limit(depth=2)).move)
        if position.is_terminal():
            break
    assert position.winner == 0


def _horizon(engine: GomokuEngine, position: Position, last_own: int, near: bool) -> tuple[float, int]:
    """The horizon's value of ``position`` two plies below a root where its side to move played ``last_own``, and
    the VCF moves it cost."""
    engine.sync(position)
    ctl = engine.ctx[0]
    ctl[gs.C_ABORTED] = ctl[gs.C_VCF_NODES] = 0
    ctl[gs.C_VCF_BUDGET], ctl[gs.C_VCF_NEAR], ctl[gs.C_TIME_MASK] = engine.horizon_vcf, int(near), 63
    engine.ctx[1][0] = np.inf
    engine.ctx[8][0] = last_own
    value = gs._quiesce(engine.st, engine.cfg, engine.ctx, position.to_move, 2)
    return value, int(ctl[gs.C_VCF_NODES])


def test_the_horizon_vcf_tries_the_fours_of_the_last_own_move_and_remembers_what_it_found() -> None:
    game, moves, _ = _vcf_position()
    position = game.position(moves)
    engine = GomokuEngine(game, tt_bits=12)
    row_stone = 5 * 11 + 3  # x's row three, on the VCF's lines
    value, tried = _horizon(engine, position, row_stone, near=True)
    assert value == gs.WIN - 2 - 5 and tried > 0
    assert _horizon(engine, position, row_stone, near=True) == (value, 0)  # found before: no VCF move
    engine.reset()
    far = 10 * 11 + 5  # no x four lies on its lines within reach
    value, _ = _horizon(engine, position, far, near=True)
    assert value < gs.LOST and value == gs._evaluate(engine.st, position.to_move)
    engine.reset()
    assert gs.LOST < _horizon(engine, position, far, near=False)[0] <= gs.WIN - 2 - 5  # every four: a VCF found (the
    # first found, which need not be the shortest)


# The pruning switches at their most aggressive: reductions touch only quiet moves, the threatened node keeps its
# best-ordered answers and futility pruning stays off where the opponent threatens, so the forced lines stay.
PRUNING = [{}, {"lmr": 4, "threat_width": 1}, {"lmr": 0, "threat_width": 2}, {"futility": 1, "razor": 1}, {"futility": 0}]


@pytest.mark.parametrize("switches", PRUNING, ids=str)
def test_blocks_a_four(switches: dict[str, int]) -> None:
    game = MNK(11, 11, 5)
    position = game.position(_moves(game, [(5, 3), (5, 4), (5, 5), (5, 6)], [(0, 0), (10, 10), (0, 10)]))
    engine = GomokuEngine(game, tt_bits=12)
    engine.set_switches(switches)
    assert engine.search(position, Limit(depth=5)).move in (5 * 11 + 2, 5 * 11 + 7)


@pytest.mark.parametrize("switches", PRUNING, ids=str)
def test_answers_an_open_three(switches: dict[str, int]) -> None:
    game = MNK(11, 11, 5)
    position = game.position(_moves(game, [(5, 4), (5, 5), (5, 6)], [(0, 0), (10, 10)]))
    engine = GomokuEngine(game, tt_bits=12)
    engine.set_switches(switches)
    move = engine.search(position, Limit(depth=5)).move
    position.play(move)
    engine.sync(position)  # after the answer x has no cell making an open four or a double four
    assert engine.st[6][3 + CLASS_WIN] == 0
    board = position.board().ravel()
    assert not any(naive.pattern(board, 11, 11, 5, False, int(c), d, 1) == 7 for c in np.flatnonzero(board == 0)
                   for d in range(4))  # fmt: skip


@pytest.mark.parametrize("game", [MNK(7, 7, 4), MNK(8, 8, 5, exact_k=True)], ids=str)
@pytest.mark.parametrize("pvs", [False, True])
def test_alpha_beta_equals_plain_negamax(game: MNK, pvs: bool) -> None:
    rng = np.random.default_rng(5)
    for trial in range(4):
        engine = GomokuEngine(game, tt_bits=10, width=0, lmr=False, threat_width=0, futility=0, razor=0, pvs=pvs,
                              use_tt=False)
        engine.horizon_vcf = 0
        position = game.position()
        for cell in rng.permutation(game.n_cells)[: 5 + trial]:
            position.play(int(cell))
        if position.is_terminal():
            continue
        engine.sync(position)
        colour = position.to_move
        for depth in (1, 2, 3):
            engine.ctx[0][gs.C_ABORTED] = 0
            engine.ctx[1][0] = np.inf
            got = gs._negamax(engine.st, engine.cfg, engine.tt, engine.ctx, depth, -np.inf, np.inf, 0, colour)
            assert got == naive.negamax(engine, colour, depth), (position.move_string(), depth)


def test_the_pruning_switches_reach_the_search() -> None:
    game = MNK(11, 11, 5)
    threatened = game.position(_moves(game, [(5, 4), (5, 5), (5, 6)], [(0, 0), (10, 10)]))
    quiet = game.position([60])

    def nodes(position: Position, switches: dict[str, int], depth: int) -> int:
        engine = GomokuEngine(game, tt_bits=14)
        engine.set_switches(switches)
        return engine.search(position, Limit(depth=depth)).nodes

    assert nodes(threatened, {"threat_width": 1}, 4) < nodes(threatened, {"threat_width": 0}, 4)
    lmr = [nodes(quiet, {"lmr": schedule, "futility": 0}, 6) for schedule in (4, 1, 0)]
    assert lmr[0] < lmr[1] < lmr[2]
    assert nodes(quiet, {"futility": 50}, 6) < nodes(quiet, {"futility": 400}, 6) < nodes(quiet, {"futility": 0}, 6)
    assert nodes(quiet, {"futility": 0, "razor": 50}, 6) < nodes(quiet, {"futility": 0, "razor": 0}, 6)


def test_futility_and_razoring_cut_a_quiet_null_window_node_near_the_horizon_and_nothing_else() -> None:
    game = MNK(11, 11, 5)
    quiet = game.position([60, 61, 48])  # no open three or four for either side
    threatened = game.position(_moves(game, [(5, 4), (5, 5), (5, 6), (0, 0)], [(0, 10), (10, 10), (10, 0)]))

    def negamax(position: Position, margins: tuple[int, int], depth: int, alpha: float, beta: float) -> tuple[float, int]:
        engine = GomokuEngine(game, tt_bits=10, futility=margins[0], razor=margins[1])
        engine.sync(position)
        ctl = engine.ctx[0]
        ctl[gs.C_ABORTED] = ctl[gs.C_NODES] = 0
        engine.ctx[1][0] = np.inf
        value = gs._negamax(engine.st, engine.cfg, engine.tt, engine.ctx, depth, alpha, beta, 1, position.to_move)
        return value, int(ctl[gs.C_NODES])

    static = GomokuEngine(game, tt_bits=10).evaluate(quiet)
    depth = gs.FUTILITY_DEPTH
    high = (static - depth - 1, static - depth)  # static - margin >= beta: reverse futility pruning
    low = (static + depth, static + depth + 1)  # static + margin <= alpha: razoring to the horizon's value, which is
    # the static one here (no four, so no VCF)
    assert negamax(quiet, (1, 0), depth, *high) == (static, 1)
    assert negamax(quiet, (0, 1), depth, *low) == (static, 1)
    for margins, d, alpha, beta in (((0, 0), depth, *high),  # off
                                    ((0, 1), depth, *high),  # razoring does not cut above beta
                                    ((1, 0), depth, *low),  # nor reverse futility below alpha
                                    ((1, 1), depth, static - depth + 1, static - depth + 2),  # within the margins
                                    ((1, 1), depth + 1, static - depth - 2, static - depth - 1),  # too far from the horizon
                                    ((1, 1), depth, static - depth - 1, static + depth + 1)):  # an open window
        assert negamax(quiet, margins, d, alpha, beta)[1] > 1
    static = GomokuEngine(game, tt_bits=10).evaluate(threatened)  # o to move must answer x's open three
    assert negamax(threatened, (1, 1), 1, static - 3, static - 2)[1] > 1


def test_a_search_width_lasts_for_that_search_only() -> None:
    game = MNK(11, 11, 5)
    position = game.position([60, 61, 48])
    engine = GomokuEngine(game, tt_bits=12)
    engine.search(position, Limit(depth=2, branching=2))
    assert engine.ctx[0][gs.C_WIDTH] == 2
    engine.search(position, Limit(depth=2))
    assert engine.ctx[0][gs.C_WIDTH] == engine.width == GomokuEngine(game, tt_bits=12).ctx[0][gs.C_WIDTH]


def test_after_reset_a_search_is_the_search_of_a_fresh_engine() -> None:
    game = MNK(11, 11, 5)
    position = game.position([60, 61, 48])
    engine = GomokuEngine(game, tt_bits=12)
    first = engine.search(position, Limit(depth=4))
    engine.reset()  # a table entry left deeper than the new search's would keep its result out of the table
    again = engine.search(position, Limit(depth=4))
    assert (again.move, again.score, again.nodes) == (first.move, first.score, first.nodes)


def test_make_then_unmake_leaves_the_state_unchanged_inside_a_search() -> None:
    game = MNK(9, 9, 5)
    engine = GomokuEngine(game, tt_bits=12)
    position = game.position([40, 41, 31, 49, 22])
    engine.sync(position)
    before = [a.copy() for a in engine.st]
    engine.search(position, Limit(depth=4))
    n = game.n_cells
    for i, (a, b) in enumerate(zip(before, engine.st)):
        if i == 5:  # the candidate list may be reordered: compare near counts and the set listed
            assert np.array_equal(a[:n], b[:n]) and set(a[n : n + before[6][0]]) == set(b[n : n + engine.st[6][0]])
        elif a.dtype.kind == "f":
            assert np.allclose(a, b)
        else:
            assert np.array_equal(a, b)
    _make(engine.st, engine.cfg, 0, 1)
    _unmake(engine.st, engine.cfg, 0)


def test_time_budget_is_kept_with_a_margin() -> None:
    game = MNK(15, 15, 5)
    engine = GomokuEngine(game)
    position = game.position([112, 113, 97, 98, 127])
    engine.search(position, Limit(depth=2))  # compile first
    result = engine.search(position, Limit(time_ms=300))
    assert result.seconds < 0.3 - 0.04 and result.depth >= 2


@pytest.mark.parametrize(
    ("spec", "game", "engine"),
    [("alphabeta:heuristic=gomoku", MNK(15, 15, 5), True), ("alphabeta:heuristic=gomoku,time_ms=100", MNK(15, 15, 5, exact_k=True), True),
     ("alphabeta:heuristic=gomoku,depth=2", MNK(20, 20, 5), True), ("alphabeta:heuristic=gomoku,open_three=60", MNK(9, 9, 4), True),
     ("alphabeta", MNK(15, 15, 5), True), ("alphabeta", MNK(20, 20, 16), False), ("alphabeta:heuristic=gomoku", CONNECT4, False),
     ("alphabeta:heuristic=mics,radius=2,time_ms=850,solve_ms=400,branching=6", MNK(15, 15, 5), False),
     ("alphabeta:heuristic=windows", MNK(15, 15, 5), False), ("alphabeta", MNK(3, 3, 3), False),
     ("alphabeta", MNK(4, 4, 3), False), ("alphabeta", CONNECT4, False)],
)  # fmt: skip
def test_which_spec_plays_the_engine(spec: str, game: MNK, engine: bool) -> None:
    agent = make_agent(spec, game)
    assert isinstance(agent, AlphaBetaAgent) and (agent.gomoku is not None) == engine
    if engine:
        assert agent.evaluator.name == "gomoku"


def test_an_engine_agent_keeps_one_table_of_tt_size_slots() -> None:
    from search.tt import TableSizeError

    game = MNK(15, 15, 5)
    agent = make_agent("alphabeta:depth=2,tt=4096", game)
    assert isinstance(agent, AlphaBetaAgent) and agent.gomoku is not None
    assert agent.gomoku.tt[0].size == 4096 and agent.table.size <= 2  # the generic search's table would be dead weight
    rounded = make_agent("alphabeta:depth=2,tt=3000", game)
    assert isinstance(rounded, AlphaBetaAgent) and rounded.gomoku is not None
    assert rounded.gomoku.tt[0].size == 4096  # rounded up, as the generic table is
    with pytest.raises(TableSizeError, match="tt_size=0"):
        AlphaBetaAgent(game, depth=2, tt_size=0)


def test_the_yardstick_spec_keeps_its_engine() -> None:
    agent = make_agent("alphabeta:heuristic=mics,radius=2,time_ms=850,solve_ms=400,branching=6", MNK(15, 15, 5))
    assert isinstance(agent, AlphaBetaAgent) and agent.evaluator.name == "mics" and agent.gomoku is None


def test_bad_weights_are_refused_with_their_names() -> None:
    game = MNK(15, 15, 5)
    with pytest.raises(WeightError, match="open_thre"):
        GomokuEngine(game, {"open_thre": 3.0})
    with pytest.raises(WeightError, match="open_three"):
        GomokuEngine(game, {"open_three": float("nan")})
    with pytest.raises(ValueError, match="open_thre"):
        make_agent("alphabeta:open_thre=4", game)
    with pytest.raises(SearchError, match="gravity"):
        GomokuEngine(CONNECT4)
    with pytest.raises(ValueError, match="k=3"):
        Evaluator("gomoku", MNK(5, 5, 3))
    with pytest.raises(SearchError, match="k=3"):
        GomokuEngine(MNK(5, 5, 3))


def test_counts_per_class_sum_to_the_empty_cells() -> None:
    game = MNK(9, 9, 5)
    engine = GomokuEngine(game, tt_bits=10)
    engine.sync(game.position([40, 41, 31, 49, 22]))
    counts = engine.st[6][3:]
    assert counts[:N_CLASSES].sum() == counts[N_CLASSES:].sum() == game.n_cells - 5


# An exact-k game from balanced openings the engine lost at depth 8: here o's last stones give it attacks built
# from threes, and most x moves leave o a VCT (e9: o wins in 9 plies, found in some 9,500 nodes); f10 leaves none.
_VCT_GAME = MNK(15, 15, 5, exact_k=True)
_VCT_MOVES = "e11 j10 k7 i9 j9 k11 h8 i11"


def _leaves_a_win(position: Position, move: int) -> bool:
    """True if the opponent proves a win by VCF or VCT (200,000 nodes) after ``move``."""
    after = position.copy()
    after.play(move)
    return find_vcf(after, nodes=200_000).win or find_vct(after, nodes=200_000).win


def test_the_agent_replaces_an_engine_move_that_leaves_the_opponent_a_vct(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's search sees fours, not threes: its move (made e9 here) is checked against the opponent's VCT."""
    position = _VCT_GAME.position(_VCT_MOVES)
    e9 = _VCT_GAME.parse_move("e9")
    assert _leaves_a_win(position, e9)
    agent = make_agent("alphabeta:heuristic=gomoku,depth=3", _VCT_GAME)
    engine = agent.gomoku
    assert engine is not None
    search = engine.search

    def blundering(at: Position, limit: Limit) -> SearchResult:
        result = search(at, limit)
        engine.root_order = (e9, *(m for m in engine.root_order if m != e9))
        return dataclasses.replace(result, move=e9)

    monkeypatch.setattr(engine, "search", blundering)
    move = agent.select_move(position)
    assert move != e9 and move in engine.root_order and not _leaves_a_win(position, move)
    unguarded = make_agent("alphabeta:heuristic=gomoku,depth=3,tss_nodes=0", _VCT_GAME)
    monkeypatch.setattr(unguarded.gomoku, "search", lambda at, limit: dataclasses.replace(search(at, limit), move=e9))
    assert unguarded.select_move(position) == e9  # tss_nodes=0 switches the guard off


@pytest.mark.parametrize("spec, nodes, depth, clocked", [
    # the clock bounds the check: the big budget and the longer VCTs
    ("alphabeta:heuristic=gomoku,time_ms=300", agents_module.GOMOKU_GUARD_NODES, agents_module.GOMOKU_GUARD_VCT_DEPTH, True),
    ("alphabeta:heuristic=gomoku,depth=2", agents_module.GOMOKU_TSS_NODES, DEFAULT_VCT_DEPTH, False),  # no clock: the root's
    ("alphabeta:heuristic=gomoku,time_ms=300,tss_nodes=700", 700, DEFAULT_VCT_DEPTH, True),  # a budget given is the budget
])
def test_the_guard_gets_the_rest_of_a_timed_move(monkeypatch: pytest.MonkeyPatch, spec: str, nodes: int, depth: int,
                                                  clocked: bool) -> None:  # fmt: skip
    calls: list[tuple[int, object, int]] = []

    def recording(position: Position, move: int, candidates: object, budget: int, deadline: object = None,
                  vct_depth: int = DEFAULT_VCT_DEPTH) -> tuple[int, int]:  # fmt: skip
        calls.append((budget, deadline, vct_depth))
        return move, 0

    monkeypatch.setattr(agents_module, "guard_threats", recording)
    position = _VCT_GAME.position(_VCT_MOVES)
    agent = make_agent(spec, _VCT_GAME)
    begun = time.perf_counter()
    agent.select_move(position)
    [(budget, deadline, vct_depth)] = calls
    assert (budget, vct_depth) == (nodes, depth)
    assert (deadline is not None) == clocked
    if deadline is not None:  # the move's deadline, the engine's safety margin before the 300 ms
        assert begun < deadline < begun + 0.3  # type: ignore[operator]


def test_the_engine_plays_exactly_where_the_solver_fits() -> None:
    game = MNK(5, 5, 4)
    position = game.position("c3 b2 c2 c4 b3 d3 a1 e5 a5 e1")  # 15 empty cells: solved in milliseconds
    exact = solve(position, moves=True)  # first: the solver's kernels are compiled outside the agent's clock
    agent = make_agent("alphabeta:heuristic=gomoku,time_ms=5000", game)
    move = agent.select_move(position)
    assert move in exact.best_moves
    assert agent.last_result.depth == game.n_cells - position.ply  # the solver's move, not the search's
    timeless = make_agent("alphabeta:heuristic=gomoku,depth=2", game)
    timeless.select_move(position)
    assert timeless.last_result.depth <= 2  # without a clock there is no share to give the solver


def _root_value(engine: GomokuEngine, position: Position, move: int, depth: int, vct_budget: int) -> float:
    """The engine's value of the root move ``move`` searched ``depth`` plies with the in-tree VCT check's budget."""
    engine.reset()
    engine.sync(position)
    ctl = engine.ctx[0]
    ctl[gs.C_ABORTED] = ctl[gs.C_NODE_LIMIT] = 0
    ctl[gs.C_VCT_BUDGET], ctl[gs.C_VCT_PLY] = vct_budget, 1
    engine.ctx[1][0] = np.inf
    moves, scores = np.array([move], np.int32), np.zeros(1)
    score, _, done = gs._root(engine.st, engine.cfg, engine.tt, engine.ctx, depth, -np.inf, np.inf,
                              position.to_move, moves, scores, 1)  # fmt: skip
    assert done == 1
    return float(score)


def test_the_in_tree_vct_check_scores_a_move_that_allows_one_as_lost() -> None:
    """After e9 the opponent wins by threes (a VCT), which the search's fours-only VCF misses: with the check
    one ply below the root, e9 is a proved loss; without it, an evaluation."""
    position = _VCT_GAME.position(_VCT_MOVES)
    e9 = _VCT_GAME.parse_move("e9")
    engine = GomokuEngine(_VCT_GAME, tt_bits=12)
    checked = _root_value(engine, position, e9, 2, 20_000)
    assert checked <= -gs.LOST and int(engine.ctx[0][gs.C_VCT_NODES]) > 0
    assert abs(_root_value(engine, position, e9, 2, 0)) < gs.LOST


def test_the_in_tree_vct_check_stops_the_search_at_the_deadline_and_remembers_nothing() -> None:
    """A threat search that ends past the move's deadline aborts the engine's search (its own clock reads are too
    rare for nodes that each run one), and, having proved nothing, is not kept as a failure: with time again, the
    same position is searched again."""
    game = MNK(15, 15, 5)
    position = game.position("h8 h9 i8 i9")  # two against two: the threat search tries threes, none of them wins
    engine = GomokuEngine(game, tt_bits=12)
    engine.reset()
    engine.sync(position)
    ctl, colour = engine.ctx[0], position.to_move
    key = engine.st[6][gs.M_HASH] ^ np.int64(colour)
    ctl[gs.C_ABORTED], ctl[gs.C_VCT_BUDGET], ctl[gs.C_VCT_NODES] = 0, 500, 0
    engine.ctx[1][0] = 0.0  # the deadline passed long ago
    assert gs._vct_win(engine.st, engine.cfg, engine.ctx, colour, key) == -1
    assert ctl[gs.C_ABORTED] == 1 and ctl[gs.C_VCT_NODES] > 0
    searched = int(ctl[gs.C_VCT_NODES])
    ctl[gs.C_ABORTED], engine.ctx[1][0] = 0, np.inf
    assert gs._vct_win(engine.st, engine.cfg, engine.ctx, colour, key) == -1
    assert ctl[gs.C_ABORTED] == 0 and int(ctl[gs.C_VCT_NODES]) == 2 * searched  # searched again, then kept
    assert gs._vct_win(engine.st, engine.cfg, engine.ctx, colour, key) == -1
    assert int(ctl[gs.C_VCT_NODES]) == 2 * searched  # the failure proved with time is remembered


def test_the_in_tree_vct_check_changes_nothing_without_threats() -> None:
    """Sparse positions (no attack of threes for anyone): the search with the check equals the one without."""
    game = MNK(15, 15, 5)
    rng = np.random.default_rng(11)
    for _ in range(4):
        position = game.position()
        for cell in rng.choice(game.n_cells, size=4, replace=False):
            position.play(int(cell))
        results = []
        for budget in (0, 2_000):
            engine = GomokuEngine(game, tt_bits=14)
            engine.vct_budget = budget
            results.append(engine.search(position, Limit(depth=3)))
        assert (results[0].move, results[0].score, results[0].nodes) == (results[1].move, results[1].score, results[1].nodes)


@pytest.mark.parametrize(("moves", "last", "expected"), [
    ("h9 a1 i8 a3 h8", "h8", True),  # two open twos through h8: with h9 and with i8
    ("h9 a1 i8 a3 h8", "h9", True),  # through h9 as well: with h8 and, on a diagonal, with i8
    ("h9 a1 h8", "h8", False),  # one open two: threat cells on one line only
    ("h9 a1 i8 a3 o15", "o15", False),  # a move far from its stones
    ("h9 a1 i9 a3 j9", "j9", True),  # an open three: cells that make an open four, on one line
])
def test_the_in_tree_check_runs_below_the_root_only_where_the_last_move_left_threats_on_two_lines(
        moves: str, last: str, expected: bool) -> None:  # fmt: skip
    """The cheap test before the in-tree VCT check: a new attack of threes needs the side's last move to have left
    it open-three cells (or better) on two lines through it, or a double threat on one."""
    game = MNK(15, 15, 5)
    engine = GomokuEngine(game, tt_bits=10)
    engine.sync(game.position(moves))
    assert gs._prepares(engine.st, engine.cfg, np.int64(0), np.int64(game.parse_move(last))) is expected


def _kernel_vct(engine: GomokuEngine, position: Position, near: int, budget: int, limit: int) -> int:
    """The plies of the engine's own VCT (:func:`search.gomoku._search._vct`) for the side to move, or -1."""
    engine.sync(position)
    ctl = engine.ctx[0]
    ctl[gs.C_ABORTED], ctl[gs.C_HVCT_CALL_NODES] = 0, budget
    engine.ctx[1][0] = np.inf
    return int(gs._vct(engine.st, engine.cfg, engine.ctx, position.to_move, np.int64(0), np.int64(limit),
                       np.int64(near), np.int64(0)))  # fmt: skip


def test_the_engines_vct_is_a_win_the_threat_space_search_confirms() -> None:
    """Positions of noisy play on both rule sets: every VCT the engine's own search claims (fours and threes over its
    pattern state, the defender's answers cut to Allis' defence set) is a win the exhaustive threat-space search
    (every defender move tried) proves too, and some are found."""
    rng = np.random.default_rng(3)
    found = 0
    for exact in (False, True):
        game = MNK(15, 15, 5, exact_k=exact)
        for _ in range(6):
            position = game.position("h8")
            for _ in range(14):
                near = [c for c in position.legal_moves() if any(max(abs(c // 15 - s // 15), abs(c % 15 - s % 15)) <= 1
                                                               for s in position.moves)]  # fmt: skip
                position.play(int(rng.choice(near)))
                if position.is_terminal() or find_vcf(position, nodes=20_000).win:
                    break
                engine = GomokuEngine(game, tt_bits=10)
                plies = _kernel_vct(engine, position, -1, 5_000, 7)
                if plies > 0:
                    found += 1
                    assert find_vct(position, nodes=500_000, max_depth=plies).win, position.move_string()
    assert found >= 3


def _horizon_value(budget: int) -> float:
    """The horizon's value for o after o's i11 and x's e9 in the exact-k game above, with ``budget`` horizon VCT moves
    (o's VCT there starts on the column of i11)."""
    position = _VCT_GAME.position(_VCT_MOVES + " e9")
    engine = GomokuEngine(_VCT_GAME, tt_bits=10)
    engine.sync(position)
    ctl = engine.ctx[0]
    ctl[gs.C_VCF_BUDGET], ctl[gs.C_VCF_NEAR], ctl[gs.C_HVCT_BUDGET] = engine.horizon_vcf, 1, budget
    engine.ctx[1][0] = np.inf
    engine.ctx[8][0], engine.ctx[8][1] = _VCT_GAME.parse_move("i11"), _VCT_GAME.parse_move("e9")
    return float(gs._quiesce(engine.st, engine.cfg, engine.ctx, position.to_move, np.int64(2)))


def test_the_horizon_vct_sees_an_attack_of_threes_from_the_last_move() -> None:
    """o's VCT after e9 (9 plies by the threat-space search) from the lines of its last stone: with the horizon VCT
    the horizon is a proved win for o, without it (the fours-only VCF) an evaluation."""
    assert _horizon_value(5_000) >= gs.LOST
    assert abs(_horizon_value(0)) < gs.LOST


def test_the_shallow_vct_scores_a_move_that_allows_one_as_lost() -> None:
    """The VCT of a node near the root (a ply below it: from any threat) sees o's attack after e9, as the in-tree
    check with the threat-space search does, and the engine's search then avoids e9."""
    position = _VCT_GAME.position(_VCT_MOVES)
    e9 = _VCT_GAME.parse_move("e9")
    engine = GomokuEngine(_VCT_GAME, tt_bits=12)
    engine.shallow_vct, engine.shallow_vct_ply = 5_000, 1
    engine.reset()
    engine.sync(position)
    ctl = engine.ctx[0]
    ctl[gs.C_ABORTED] = ctl[gs.C_NODE_LIMIT] = 0
    ctl[gs.C_SVCT_BUDGET], ctl[gs.C_SVCT_PLY] = 5_000, 1
    engine.ctx[1][0] = np.inf
    moves, scores = np.array([e9], np.int32), np.zeros(1)
    score, _, _ = gs._root(engine.st, engine.cfg, engine.tt, engine.ctx, 2, -np.inf, np.inf, position.to_move, moves,
                           scores, 1)  # fmt: skip
    assert score <= -gs.LOST
    assert engine.search(position, Limit(depth=3)).move != e9


def test_copies_of_an_engine_agent_search_with_the_kernels_already_compiled() -> None:
    """A deep-copied (an environment's opponent) or pickled engine takes the shared read-only pattern table again:
    a writable copy is another signature, for which the whole recursive search would compile again."""
    game = MNK(9, 9, 5)
    agent = make_agent("alphabeta:heuristic=gomoku,depth=3", game, seed=0)
    position = game.position([40, 0, 41])
    move = agent.select_move(position)
    compiled = len(gs._root.signatures)
    for twin in (copy.deepcopy(agent), pickle.loads(pickle.dumps(agent))):
        assert twin.select_move(position) == move
    assert len(gs._root.signatures) == compiled
