"""The batched opponent's written-out depth-1 and depth-2 search (search.alphabeta._twoply) against the general bitboard search.

Two batches of the same agent answer the same positions, one with the
written-out search allowed (where it applies) and one with the general
search only (``_bitnegamax._iterate``): every reply, score, depth and node
count, and every byte of the transposition tables, must agree.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envs.batched import AlphaBetaBatch
from games import CONNECT4, Connect4, KInARow, Position
from search.agents import make_agent
from tests.test_batch_opponents import opponent_view


def pair(spec: str, n: int, game: KInARow = CONNECT4) -> tuple[AlphaBetaBatch, AlphaBetaBatch]:
    """Two batches of ``spec``: the first may take the written-out search, the second never does."""
    fast = AlphaBetaBatch(make_agent(spec, game), n)  # type: ignore[arg-type]
    general = AlphaBetaBatch(make_agent(spec, game), n)  # type: ignore[arg-type]
    assert fast.two_ply, spec
    general.two_ply = False
    return fast, general


def reply_both(batches: tuple[AlphaBetaBatch, AlphaBetaBatch], positions: list[Position], boards: list[int]) -> np.ndarray:
    """Both batches' replies on ``positions`` (board ``boards[j]``), checked equal with their stats and tables."""
    obs = np.stack([opponent_view(p) for p in positions])
    masks = np.stack([p.legal_mask().astype(np.int8) for p in positions])
    fast, general = batches
    at = np.array(boards, dtype=np.int64)
    got, expected = (batch.reply_batch(obs, masks, at) for batch in batches)
    assert got.tolist() == expected.tolist()
    assert fast.depth[at].tolist() == general.depth[at].tolist()
    assert fast.nodes[at].tolist() == general.nodes[at].tolist()
    assert np.array_equal(fast.score[at], general.score[at])  # to the bit (no tolerance)
    assert fast.tt.tobytes() == general.tt.tobytes()
    return got


@settings(max_examples=150, deadline=None)
@given(
    moves=st.lists(st.integers(0, 6), max_size=48),
    earlier=st.lists(st.integers(0, 48), max_size=3),
    depth=st.sampled_from([1, 2]),
    branching=st.sampled_from([0, 1, 3]),  # 0: no limit
    size=st.sampled_from([1, 2, 16, 4096]),
    seed=st.integers(0, 2**63 - 1),
)
def test_written_out_search_equals_the_general_search(
    moves: list[int], earlier: list[int], depth: int, branching: int, size: int, seed: int
) -> None:
    """On random positions, after earlier searches of the same game in the same table (prefixes of the moves,
    the position itself or its parent included, where the written-out search must not be taken), both
    searches agree on everything; tiny tables make the slots collide."""
    position = CONNECT4.position()
    line = [position.copy()]
    for move in moves:
        if position.is_terminal() or not position.is_legal(move % CONNECT4.cols):
            continue
        position.play(move % CONNECT4.cols)
        if position.is_terminal():
            position.undo()
            break
        line.append(position.copy())
    spec = f"alphabeta:depth={depth},tt={size}" + (f",branching={branching}" if branching else "")
    batches = pair(spec, 1)
    for batch in batches:
        batch.new_episodes(np.array([0]), [seed])
    for plies in earlier:
        reply_both(batches, [line[min(plies, len(line) - 1)]], [0])
    reply_both(batches, [line[-1]], [0])


@pytest.mark.parametrize("spec", ["alphabeta:depth=2,tt=4096", "alphabeta:depth=1,tt=64", "alphabeta:depth=2,branching=2,tt=16"])
def test_written_out_search_plays_the_general_searchs_games(spec: str) -> None:
    """Whole games on 48 boards (random moves for the agent): the same replies, stats and tables at every move,
    the written-out search taken for every reply after the first (each root two stones past the last)."""
    n, rng = 48, np.random.default_rng(3)
    batches, seeds = pair(spec, n), [int(s) for s in rng.integers(0, 2**40, n)]
    for batch in batches:
        batch.new_episodes(np.arange(n), seeds)
    positions = [CONNECT4.position() for _ in range(n)]
    replies = 0
    while True:
        live = [i for i, p in enumerate(positions) if not p.is_terminal()]
        for i in live:
            legal = positions[i].legal_moves()
            positions[i].play(legal[int(rng.integers(len(legal)))])
        live = [i for i in live if not positions[i].is_terminal()]
        if not live:
            break
        before = batches[0].table_ply[live].copy()
        plies = np.array([positions[i].ply for i in live])
        assert (plies >= before + 2).all()  # every search eligible
        got = reply_both(batches, [positions[i] for i in live], live)
        for j, i in enumerate(live):
            positions[i].play(int(got[j]))
        replies += len(live)
    assert replies >= 5 * n


def test_written_out_search_applies_only_where_it_is_the_same_search() -> None:
    """Only depth 1 or 2 of c4_features on the bitboards, without a node budget; bigger boards take it too."""
    assert AlphaBetaBatch(make_agent("alphabeta:depth=2", Connect4(7, 8, 4)), 1).two_ply  # type: ignore[arg-type]
    for spec in ("alphabeta:depth=3", "alphabeta:depth=2,nodes=50", "alphabeta:nodes=50",
                 "alphabeta:depth=2,heuristic=windows", "alphabeta:depth=2,heuristic=square_values"):  # fmt: skip
        assert not AlphaBetaBatch(make_agent(spec, CONNECT4), 1).two_ply, spec  # type: ignore[arg-type]


def test_a_table_never_emptied_takes_the_general_search() -> None:
    """Before the first new_episodes a board's table is zeros, whose stamp-0 entries could match: no written-out search."""
    batch = AlphaBetaBatch(make_agent("alphabeta:depth=2", CONNECT4), 2)  # type: ignore[arg-type]
    assert (batch.table_ply > CONNECT4.n_cells).all()
    batch.new_episodes(np.arange(2), [1, 2])
    assert (batch.table_ply == -2).all()
