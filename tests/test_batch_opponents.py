"""Batched opponents: the batch's replies against the per-board agents and policies, in games and in vector envs."""

from __future__ import annotations

from typing import Any, Callable

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from hypothesis import given, settings
from hypothesis import strategies as st

import envs  # noqa: F401
from envs._seeding import _draw_rows, _pcg64_states, reseed
from envs.batched import AlphaBetaBatch, BatchOpponent
from games import CONNECT4, MNK, TIC_TAC_TOE, Connect4, IllegalMoveError, KInARow, Position
from games._bits import _from_board
from search.agents import make_agent
from search.alphabeta._batchsearch import _bits_from_obs, _board_from_obs
from tests.positions import random_position
from tests.test_env_vector import assert_same, masked_random_actions


def opponent_view(position: Position) -> np.ndarray:
    """int8[2, rows, cols]: plane 0 the stones of the side to move (the opponent in an env), row 0 on top."""
    game = position.game
    board = position._board.reshape(game.rows, game.cols)
    mover = 1 + position.to_move
    return np.stack([board == mover, board == 3 - mover]).astype(np.int8)


BATCH_CASES = [
    (CONNECT4, "alphabeta:depth=2"),  # bitboards, c4_features on the bitboards
    (CONNECT4, "alphabeta:depth=4,heuristic=windows,tt=4096"),  # bitboards with the array board kept in step
    (CONNECT4, "alphabeta:nodes=300,heuristic=square_values"),  # a node budget
    (CONNECT4, "alphabeta:depth=3,branching=3,random_every=3,tt=1024"),  # random moves between searches
    (Connect4(9, 9, 5), "alphabeta:depth=3,tt=1024"),  # gravity past 64 bits: the array kernel
    (TIC_TAC_TOE, "alphabeta:depth=9,tt=1024"),
    (MNK(7, 7, 4), "alphabeta:depth=2,heuristic=mics,radius=1,tt=1024,tss_nodes=0"),  # free: not the gomoku engine
]


@pytest.mark.parametrize("game, spec", BATCH_CASES)
def test_batched_alpha_beta_plays_the_per_board_agents_games(game: KInARow, spec: str) -> None:
    """Boards played to the end: every reply, depth, node count and score equals a seeded agent's on its own board.

    The agents keep their tables across a game's moves, so this also checks the batch's per-board tables.
    """
    n, rng = 6, np.random.default_rng(0)
    batch = AlphaBetaBatch(make_agent(spec, game), n)  # type: ignore[arg-type]
    seeds = [1000 + 7 * i for i in range(n)]
    batch.new_episodes(np.arange(n), seeds)
    agents, positions = [], [game.position() for _ in range(n)]
    for seed in seeds:
        agent = make_agent(spec, game)
        agent.seed(seed)
        agent.reset()
        agents.append(agent)
    replies = 0
    while True:
        live = [i for i, p in enumerate(positions) if not p.is_terminal()]
        if not live:
            break
        for i in live:  # the "agent" side: a random legal move
            moves = positions[i].legal_moves()
            positions[i].play(moves[int(rng.integers(len(moves)))])
        live = [i for i in live if not positions[i].is_terminal()]
        if not live:
            break
        obs = np.stack([opponent_view(positions[i]) for i in live])
        masks = np.stack([positions[i].legal_mask().astype(np.int8) for i in live])
        got = batch.reply_batch(obs, masks, np.array(live))
        stats = batch.search_stats(np.array(live))
        assert stats is not None
        for j, i in enumerate(live):
            expected = agents[i].select_move(positions[i])
            result = agents[i].last_result
            assert got[j] == expected, (spec, i, positions[i].move_string())
            assert stats.searched[j] == (result is not None)
            if result is not None:
                found = (int(stats.depth[j]), int(stats.nodes[j]), float(stats.score[j]))
                assert found == (result.depth, result.nodes, result.score), (spec, positions[i].move_string())
            positions[i].play(expected)
            replies += 1
    assert replies >= 3 * n


@pytest.mark.slow  # compiles and runs the threaded batch search: about 35 s (the threaded env step's test stays in the default run)
def test_boards_searched_on_threads_get_the_same_replies() -> None:
    """numba.prange over boards: each board touches only its own buffers, so the replies and stats do not change."""
    rng, n = np.random.default_rng(9), 40
    positions = []
    while len(positions) < n:
        position = CONNECT4.position()
        for _ in range(int(rng.integers(0, 30))):
            if position.is_terminal():
                break
            moves = position.legal_moves()
            position.play(moves[int(rng.integers(len(moves)))])
        if not position.is_terminal():
            positions.append(position)
    obs = np.stack([opponent_view(p) for p in positions])
    masks = np.stack([p.legal_mask().astype(np.int8) for p in positions])
    results = []
    for parallel in (False, True):
        batch = AlphaBetaBatch(make_agent("alphabeta:depth=3,tt=1024", CONNECT4), n, parallel=parallel)  # type: ignore[arg-type]
        batch.new_episodes(np.arange(n), list(range(n)))
        replies = batch.reply_batch(obs, masks, np.arange(n))
        results.append((replies.tolist(), batch.nodes.tolist(), batch.score.tolist()))
    assert results[0] == results[1]


def test_the_default_takes_the_way_that_measured_faster_and_retries_the_other_ever_more_rarely() -> None:
    """parallel=None: serial, then threads, each until measured past its first call; then the faster way, the slower
    one measured again after RETRY_EVERY calls, twice as long after each confirmation, and taken once it wins."""
    batch = AlphaBetaBatch(make_agent("alphabeta:depth=2,tt=16", CONNECT4), 2)  # type: ignore[arg-type]
    every = AlphaBetaBatch.RETRY_EVERY

    def calls(count: int, serial: float, threaded: float) -> list[int]:
        """The calls (0-based) that took the threads, of ``count`` calls at these seconds per board."""
        taken = []
        for i in range(count):
            threads = batch._pick_threads()
            batch._timed(threads, threaded if threads else serial)
            taken += [i] if threads else []
        return taken

    assert calls(4, 1.0, 2.0) == [2, 3]  # serial twice, threads twice (each way's first call is not kept)
    assert calls(3 * every, 1.0, 2.0) == [every - 1, 3 * every - 1]  # threads slower: tried after 16 calls, then 32
    assert batch._retry == 4 * every
    taken = calls(4 * every + every, 1.0, 0.1)  # the machine got idle: the next try finds threads faster
    # threads from then on; serial tried again after 16 calls (the interval starts over), still slower: 32 next
    assert taken == list(range(4 * every - 1, 5 * every - 1)) and batch._retry == 2 * every


def test_noise_drawn_ahead_is_the_noise_drawn_per_search() -> None:
    """The batch draws 8 searches' root noise at once; the agent one search at a time: the same doubles."""
    ahead, one_by_one = np.random.default_rng(5), np.random.default_rng(5)
    rows = ahead.random((AlphaBetaBatch.NOISE_ROWS, 7)) * 1e-3
    assert np.array_equal(rows, np.stack([one_by_one.random(7) * 1e-3 for _ in range(AlphaBetaBatch.NOISE_ROWS)]))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=6))
def test_reseeded_generators_draw_what_default_rng_draws(seeds: list[int]) -> None:
    """envs._seeding reseeds kept PCG64s in place: every draw the batch makes (doubles, bounded integers) equals
    ``np.random.default_rng(seed)``'s, for seeds of one and two 32-bit words, 0 and 2**64 - 1 included."""
    kept = [np.random.PCG64(99) for _ in seeds]
    reseed(kept, seeds)
    for bit_generator, seed in zip(kept, seeds):
        assert bit_generator.state == np.random.PCG64(seed).state
        ours, reference = np.random.Generator(bit_generator), np.random.default_rng(seed)
        assert np.array_equal(ours.random((3, 7)), reference.random((3, 7)))
        assert [int(ours.integers(k)) for k in (2, 7, 49)] == [int(reference.integers(k)) for k in (2, 7, 49)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=6), st.integers(1, 9), st.integers(1, 3))
def test_numba_pcg64_draws_what_default_rng_draws(seeds: list[int], actions: int, refills: int) -> None:
    """The PCG64 kept in numba (envs._seeding._pcg64_states, _draw_rows) draws ``default_rng(seed).random`` times
    1e-3, bit for bit, refill after refill, on the boards it is given and no other; 0 and 2**64 - 1 included."""
    n, rows = len(seeds) + 2, 4
    boards = np.arange(1, len(seeds) + 1, dtype=np.int64)  # boards 0 and n - 1 are left alone
    states = np.zeros((n, 4), dtype=np.uint64)
    _pcg64_states(np.array(seeds, dtype=np.uint64), boards, states)
    noise, cursor = np.full((n, rows, actions), -1.0), np.zeros(n, dtype=np.int64)
    drawn: list[list[np.ndarray]] = [[] for _ in range(n)]
    for _ in range(refills):
        cursor[boards] = rows
        _draw_rows(np.arange(n, dtype=np.int64), cursor, states, noise, 1e-3)
        for b in range(n):
            drawn[b].append(noise[b].copy())
    assert (noise[0] == -1.0).all() and (noise[n - 1] == -1.0).all()  # their cursors never ran out: nothing drawn
    for b, seed in zip(boards.tolist(), seeds):
        expected = np.random.default_rng(seed).random((refills * rows, actions)) * 1e-3
        assert np.array_equal(np.concatenate(drawn[b]), expected)


def test_a_board_reseeded_mid_game_replays_its_episode() -> None:
    """A batch's board reseeded with the seed of an episode it played gets the same replies again (kept PCG64s)."""
    n, spec = 3, "alphabeta:depth=2,tt=1024,random_every=3"
    batch = AlphaBetaBatch(make_agent(spec, CONNECT4), n)  # type: ignore[arg-type]
    position = CONNECT4.position([3, 3, 2])
    obs, masks = np.stack([opponent_view(position)] * n), np.stack([position.legal_mask()] * n)
    played = []
    for _ in range(2):
        batch.new_episodes(np.arange(n), [11, 2**40 + 3, 11])
        played.append([batch.reply_batch(obs, masks, np.arange(n)).tolist() for _ in range(6)])
    assert played[0] == played[1]
    assert [row[0] for row in played[0]] == [row[2] for row in played[0]]  # boards 0 and 2 share their seed


def test_what_cannot_be_batched_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot be batched: only AlphaBetaAgent with a depth and/or node budget"):
        AlphaBetaBatch(make_agent("alphabeta:time_ms=5", CONNECT4), 4)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cannot be batched"):
        AlphaBetaBatch(make_agent("rules", CONNECT4), 4)  # type: ignore[arg-type]


def vector_pair(env_id: str, opponents: list[Any], mode: AutoresetMode, **kwargs: Any) -> tuple[Any, Any]:
    """The batched env with one opponent per board, and Gymnasium's SyncVectorEnv of single envs with them."""
    n = len(opponents)
    batched = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", autoreset_mode=mode,
                           opponent=opponents, **kwargs)  # fmt: skip
    makers: list[Callable[[], gym.Env]] = [lambda o=o: gym.make(env_id, opponent=o, **kwargs) for o in opponents]  # type: ignore[misc]
    return batched, SyncVectorEnv(makers, autoreset_mode=mode)


def run_pair(batched: Any, sync: Any, steps: int, seed: int = 11) -> int:
    """Step both with the same random legal actions; assert equal results; return the episodes ended."""
    ours, reference = batched.reset(seed=seed), sync.reset(seed=seed)
    assert_same(reference, ours, "reset")
    rng, ended = np.random.default_rng(seed), 0
    for t in range(steps):
        actions = masked_random_actions(rng, ours[-1]["action_mask"])
        ours, reference = batched.step(actions), sync.step(actions)
        assert_same(reference, ours, f"step {t}")
        ended += int(ours[2].sum())
    return ended


def first_legal(obs: np.ndarray, mask: np.ndarray) -> int:
    """A deterministic callable opponent."""
    return int(np.flatnonzero(mask)[-1])


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_a_league_of_mixed_opponents_equals_single_envs(mode: AutoresetMode) -> None:
    """Board i plays opponents[i]: two batched alpha-beta groups, the kernel's random player, rules, a callable."""
    d2, d1 = "alphabeta:depth=2,tt=1024", "alphabeta:depth=1,random_every=4,tt=1024"
    opponents: list[Any] = [d2, "random", "rules", d1, first_legal, d2, "random", d1]
    batched, sync = vector_pair("alphabeta/Connect4-v0", opponents, mode, agent_plays="random")
    groups = batched.unwrapped._batch.groups
    kinds = sorted(type(g).__name__ for g in groups.groups)
    assert kinds == ["AlphaBetaBatch", "AlphaBetaBatch", "KernelRandom", "PerBoard", "PerBoard"]
    assert run_pair(batched, sync, 50) >= len(opponents)


def test_the_opponent_list_must_have_one_per_board() -> None:
    with pytest.raises(ValueError, match="a list of 2 opponents for 3 boards: give one per board"):
        gym.make_vec("alphabeta/Connect4-v0", num_envs=3, vectorization_mode="vector_entry_point",
                     opponent=["random", "rules"])  # fmt: skip


class Cheater(BatchOpponent):
    """Plays column 0 whatever the mask says."""

    def reply_batch(self, obs: np.ndarray, masks: np.ndarray, boards: np.ndarray) -> np.ndarray:
        return np.zeros(len(boards), dtype=np.int64)


def test_an_illegal_batch_reply_names_the_board_and_the_move() -> None:
    env = gym.make_vec("alphabeta/Connect4-v0", num_envs=2, vectorization_mode="vector_entry_point", opponent=Cheater())
    env.reset(seed=0)
    for _ in range(3):  # the agent and the cheater fill column 0 with alternating stones: no four
        env.step(np.array([0, 0]))
    with pytest.raises(IllegalMoveError, match=r"chose the illegal action 0 on board 0; legal actions: \[1, 2, 3"):
        env.step(np.array([1, 1]))


def torch_net(seed: int) -> Any:
    torch = pytest.importorskip("torch")
    torch.manual_seed(seed)
    return torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(2 * 6 * 7, 16), torch.nn.Tanh(), torch.nn.Linear(16, 7))


def test_policy_replies_equal_the_policy_on_each_board_alone() -> None:
    torch = pytest.importorskip("torch")
    from envs.policy import PolicyOpponent

    net = torch_net(0)
    rng = np.random.default_rng(3)
    obs = (rng.random((64, 2, 6, 7)) < 0.3).astype(np.int8)
    masks = (rng.random((64, 7)) < 0.6).astype(np.int8)
    masks[:, 6] = 1
    got = PolicyOpponent(net).reply_batch(obs, masks, np.arange(64))
    for j in range(64):
        with torch.no_grad():
            logits = net(torch.as_tensor(obs[j : j + 1], dtype=torch.float32))[0].numpy()
        assert got[j] == int(np.argmax(np.where(masks[j] == 1, logits, -np.inf)))
    assert masks[np.arange(64), got].all() and len(set(got.tolist())) > 1


@pytest.mark.parametrize("deterministic", [True, False])
def test_a_policy_opponent_in_the_batched_env_equals_single_envs(deterministic: bool) -> None:
    """One forward pass for all boards plays as each single env's own policy (sampling: seeded per episode)."""
    pytest.importorskip("torch")
    from envs.policy import PolicyOpponent

    net = torch_net(1)
    n = 6
    batched = gym.make_vec("alphabeta/Connect4-v0", num_envs=n, vectorization_mode="vector_entry_point",
                           opponent=PolicyOpponent(net, deterministic=deterministic), agent_plays="random")  # fmt: skip
    makers = [lambda: gym.make("alphabeta/Connect4-v0", opponent=PolicyOpponent(net, deterministic=deterministic),
                               agent_plays="random") for _ in range(n)]  # fmt: skip
    assert run_pair(batched, SyncVectorEnv(makers), 40) >= n


def test_an_sb3_maskable_policy_plays_what_it_predicts() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from envs.policy import PolicyOpponent

    model = MaskablePPO("MlpPolicy", gym.make("alphabeta/Connect4-v0"), seed=0, device="cpu")
    rng = np.random.default_rng(4)
    obs = (rng.random((32, 2, 6, 7)) < 0.3).astype(np.int8)
    masks = (rng.random((32, 7)) < 0.5).astype(np.int8)
    masks[:, 3] = 1
    got = PolicyOpponent(model).reply_batch(obs, masks, np.arange(32))
    for j in range(32):
        action, _ = model.predict(obs[j], action_masks=masks[j].astype(bool), deterministic=True)
        assert got[j] == int(action)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([CONNECT4, Connect4(5, 4, 3), Connect4(7, 8, 4)]))
def test_bitboards_read_from_the_observation_are_the_array_boards(seed: int, game: KInARow) -> None:
    """search.alphabeta._batchsearch._bits_from_obs (the batch's root, no array board) equals _board_from_obs then _from_board."""
    obs = opponent_view(random_position(game, seed))
    board, heights = np.zeros(game.n_cells, dtype=np.int8), np.zeros(game.cols, dtype=np.int32)
    ply = _board_from_obs(obs, game.rows, game.cols, board, heights)
    assert tuple(int(x) for x in _bits_from_obs(obs, game.rows, game.cols)) == (*_from_board(board, game.rows, game.cols, ply), ply)
