"""Board symmetries: mapped games give mapped observations and masks; the symmetries form a group."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envs.symmetry import Symmetry, augment, symmetries
from games import CONNECT4, MNK, TIC_TAC_TOE, Connect4, KInARow, Position

GAMES = [CONNECT4, Connect4(5, 4, 3), TIC_TAC_TOE, MNK(4, 4, 3), MNK(3, 5, 3), MNK(4, 2, 2)]


def random_game(game: KInARow, seed: int, plies: int) -> Position:
    """Up to ``plies`` random legal moves (stopping at the end of the game)."""
    rng = np.random.default_rng(seed)
    position = game.position()
    for _ in range(plies):
        legal = position.legal_moves()
        if not legal:
            break
        position.play(int(rng.choice(legal)))
    return position


def test_the_groups_have_the_expected_members() -> None:
    assert [s.name for s in symmetries(CONNECT4)] == ["identity", "mirror"]
    assert [s.name for s in symmetries(MNK(3, 5, 3))] == ["identity", "flip_lr", "flip_ud", "rot180"]
    assert len(symmetries(MNK(4, 4, 3))) == 8 and len(set(symmetries(MNK(4, 4, 3)))) == 8
    mirror = symmetries(CONNECT4)[1]
    assert [mirror.action(a) for a in range(7)] == [6, 5, 4, 3, 2, 1, 0]
    rot90 = dict((s.name, s) for s in symmetries(TIC_TAC_TOE))["rot90"]
    board = np.arange(9).reshape(3, 3)  # rot90 is numpy's counter-clockwise quarter turn
    assert np.array_equal(rot90.observation(board), np.rot90(board))


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 40))
def test_playing_mapped_actions_gives_the_mapped_observation_and_mask(game: KInARow, seed: int, plies: int) -> None:
    position = random_game(game, seed, plies)
    for symmetry in symmetries(game):
        image = game.position()
        for action in position.moves:
            image.play(symmetry.action(action))
        assert np.array_equal(image.planes(), symmetry.observation(position.planes())), symmetry.name
        assert np.array_equal(image.legal_mask(), symmetry.mask(position.legal_mask())), symmetry.name
        assert image.winner == position.winner and image.is_terminal() == position.is_terminal()


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_group_laws(game: KInARow) -> None:
    group = symmetries(game)
    identity = group[0]
    assert identity.name == "identity" and np.array_equal(identity.cells, np.arange(game.n_cells))
    for a in group:
        assert a.compose(a.inverse()) == identity and a.inverse().compose(a) == identity
        assert a.compose(identity) == a == identity.compose(a)
    for a, b in itertools.product(group, repeat=2):
        ab = a.compose(b)
        assert ab in group  # closed
        obs = np.random.default_rng(0).integers(0, 2, (3, 2, game.rows, game.cols)).astype(np.int8)
        assert np.array_equal(ab.observation(obs), a.observation(b.observation(obs)))  # compose = apply b, then a
        for c in group:
            assert a.compose(b.compose(c)) == ab.compose(c)  # associative


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_actions_masks_and_batches_agree(game: KInARow) -> None:
    rng = np.random.default_rng(1)
    masks = rng.integers(0, 2, (5, game.n_actions)).astype(np.int8)
    obs = rng.integers(0, 2, (5, 2, game.rows, game.cols)).astype(np.int8)
    actions = rng.integers(0, game.n_actions, 5)
    for s in symmetries(game):
        mapped = s.mask(masks)
        assert np.array_equal(mapped[np.arange(5), s.action(actions)], masks[np.arange(5), actions])
        assert np.array_equal(s.observation(obs)[2], s.observation(obs[2]))  # batched = one by one
        assert isinstance(s.action(int(actions[0])), int)
    all_obs, all_masks, all_actions = augment(game, obs, masks, actions)
    n = len(symmetries(game))
    assert all_obs.shape == (5 * n, 2, game.rows, game.cols) and all_masks.shape == (5 * n, game.n_actions)
    assert np.array_equal(all_obs[:5], obs) and np.array_equal(all_actions[:5], actions)
    last = symmetries(game)[-1]
    assert np.array_equal(all_masks[-5:], last.mask(masks)) and np.array_equal(all_actions[-5:], last.action(actions))


def test_bad_input_is_refused() -> None:
    mirror: Symmetry = symmetries(CONNECT4)[1]
    with pytest.raises(ValueError, match="does not end in \\(6, 7\\)"):
        mirror.observation(np.zeros((2, 3, 3)))
    with pytest.raises(ValueError, match="does not end in 7"):
        mirror.mask(np.zeros(9))
    with pytest.raises(ValueError, match="action 7 is outside the action space: actions are 0 to 6"):
        mirror.action(7)
    with pytest.raises(ValueError, match="cannot compose"):
        mirror.compose(symmetries(TIC_TAC_TOE)[1])
    with pytest.raises(ValueError, match="N observations, N masks and N actions"):
        augment(CONNECT4, np.zeros((2, 2, 6, 7)), np.zeros((3, 7)), np.zeros(2, dtype=int))
