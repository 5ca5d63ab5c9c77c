"""Board symmetries for data augmentation: observations, action masks and actions mapped consistently.

A k-in-a-row game is unchanged by the symmetries of its board that keep
its rules: every line of ``k`` cells goes to a line of ``k`` cells.  Which
ones those are depends on the board and on gravity:

=====================  ==========================================================
game                   symmetries (:func:`symmetries`, identity first)
=====================  ==========================================================
Connect-4 (gravity)    ``identity``, ``mirror`` (left-right): stones fall down, so
                       no flip or turn that moves the floor keeps the rules
m,n,k, rows != cols    ``identity``, ``flip_lr``, ``flip_ud``, ``rot180``
m,n,k, square          those four and ``rot90``, ``rot270``, ``transpose``,
                       ``anti_transpose`` (the 8 of the square, the group D4)
=====================  ==========================================================

Each :class:`Symmetry` maps cell ``(r, c)`` (row 0 on top, as in the
observations) to another cell; observations ``(..., 2, rows, cols)``, masks
``(..., n_actions)`` and actions (ints or integer arrays) go through the same
map, so playing the mapped actions on the mapped position gives the mapped
observation and mask (the tests check this on random games), and a policy's
target for a mapped state is the mapped target.  The symmetries of a game
form a group: :meth:`Symmetry.inverse` and :meth:`Symmetry.compose` return
members of the same tuple.

Example:
    >>> import numpy as np
    >>> from games import TIC_TAC_TOE
    >>> from envs.symmetry import symmetries
    >>> [s.name for s in symmetries(TIC_TAC_TOE)]
    ['identity', 'flip_lr', 'flip_ud', 'rot180', 'rot90', 'rot270', 'transpose', 'anti_transpose']
    >>> rot90 = symmetries(TIC_TAC_TOE)[4]
    >>> rot90.action(0), rot90.action(np.array([0, 4, 8])).tolist()   # corner 0 (top left) goes bottom left
    (6, [6, 4, 2])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Union

import numpy as np

from games import KInARow

CellMap = Callable[[int, int, int, int], tuple[int, int]]
"""``(r, c, rows, cols) -> (r', c')``: where the stone on cell (r, c) goes."""

_MAPS: dict[str, CellMap] = {
    "identity": lambda r, c, rows, cols: (r, c),
    "flip_lr": lambda r, c, rows, cols: (r, cols - 1 - c),
    "flip_ud": lambda r, c, rows, cols: (rows - 1 - r, c),
    "rot180": lambda r, c, rows, cols: (rows - 1 - r, cols - 1 - c),
    # the square ones (rows == cols); rot90 turns counter-clockwise, as numpy.rot90 does
    "rot90": lambda r, c, rows, cols: (cols - 1 - c, r),
    "rot270": lambda r, c, rows, cols: (c, rows - 1 - r),
    "transpose": lambda r, c, rows, cols: (c, r),
    "anti_transpose": lambda r, c, rows, cols: (cols - 1 - c, rows - 1 - r),
}
_RECTANGLE = ("identity", "flip_lr", "flip_ud", "rot180")
_SQUARE = (*_RECTANGLE, "rot90", "rot270", "transpose", "anti_transpose")

Actions = Union[int, np.ndarray]


@dataclass(frozen=True, eq=False)
class Symmetry:
    """One symmetry of ``game``'s board (build them with :func:`symmetries`).

    Attributes:
        name: ``identity``, ``mirror`` (Connect-4), ``flip_lr``, ``flip_ud``,
            ``rot180``, ``rot90``, ``rot270``, ``transpose`` or ``anti_transpose``.
        game: the game whose board it maps.
        cells: int64[n_cells]: ``cells[i]`` is where the stone on flat cell ``i`` (``row * cols + col``) goes.
        actions: int64[n_actions]: ``actions[a]`` is the image of action ``a``
            (a column for Connect-4, a cell for m,n,k).
    """

    name: str
    game: KInARow
    cells: np.ndarray = field(repr=False)
    actions: np.ndarray = field(repr=False)

    def observation(self, obs: np.ndarray) -> np.ndarray:
        """The mapped observation(s): any array whose last two axes are ``(rows, cols)``, e.g. ``(N, 2, rows, cols)``."""
        rows, cols = self.game.rows, self.game.cols
        if obs.shape[-2:] != (rows, cols):
            raise ValueError(f"observation shape {obs.shape} does not end in ({rows}, {cols}), the board of {self.game}")
        flat = obs.reshape(*obs.shape[:-2], rows * cols)
        out = np.empty_like(flat)
        out[..., self.cells] = flat  # scatter: the stone on cell i lands on cells[i]
        return out.reshape(obs.shape)

    def mask(self, mask: np.ndarray) -> np.ndarray:
        """The mapped action mask(s): any array whose last axis is ``n_actions`` (dtype kept)."""
        if mask.shape[-1:] != (self.game.n_actions,):
            raise ValueError(f"mask shape {mask.shape} does not end in {self.game.n_actions}, the actions of {self.game}")
        out = np.empty_like(mask)
        out[..., self.actions] = mask
        return out

    def action(self, action: Actions) -> Actions:
        """The mapped action: an int for an int, an int64 array for an integer array.

        Raises:
            ValueError: an action outside ``0 .. n_actions - 1``.
        """
        array = np.asarray(action)
        if array.dtype.kind not in "iu" or array.size and (array.min() < 0 or array.max() >= self.game.n_actions):
            raise ValueError(f"action {action!r} is outside the action space: actions are 0 to {self.game.n_actions - 1}")
        mapped = self.actions[array]
        return int(mapped) if array.ndim == 0 else mapped

    def inverse(self) -> Symmetry:
        """The symmetry that undoes this one (a member of ``symmetries(game)``)."""
        return _member(self.game, np.argsort(self.cells))

    def compose(self, other: Symmetry) -> Symmetry:
        """``self`` after ``other``: first ``other``, then ``self`` (a member of ``symmetries(game)``).

        Raises:
            ValueError: ``other`` belongs to another game.
        """
        if other.game != self.game:
            raise ValueError(f"cannot compose a symmetry of {self.game} with one of {other.game}")
        return _member(self.game, self.cells[other.cells])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Symmetry) and self.game == other.game and np.array_equal(self.cells, other.cells)

    def __hash__(self) -> int:
        return hash((self.game, self.cells.tobytes()))


def symmetries(game: KInARow) -> tuple[Symmetry, ...]:
    """The symmetries of ``game`` that keep its rules, identity first (see the module docstring's table)."""
    return _group(game)


def augment(game: KInARow, obs: np.ndarray, masks: np.ndarray, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every sample under every symmetry: a batch of N becomes ``len(symmetries(game)) * N``, symmetry-major.

    Args:
        game: the game the samples come from.
        obs: (N, 2, rows, cols) observations.
        masks: (N, n_actions) action masks.
        actions: (N,) integer actions (or policy targets' argmax).

    Returns:
        ``(obs, masks, actions)`` stacked: rows ``s * N .. s * N + N - 1`` are symmetry ``s``'s images.

    Raises:
        ValueError: the arrays disagree on N or do not fit the game.
    """
    n = len(obs)
    if len(masks) != n or np.shape(actions) != (n,):
        raise ValueError(f"augment needs N observations, N masks and N actions, got {len(obs)}, {len(masks)}, {np.shape(actions)}")
    group = symmetries(game)
    out_actions = [s.action(np.asarray(actions)) for s in group]
    return (np.concatenate([s.observation(obs) for s in group]), np.concatenate([s.mask(masks) for s in group]),
            np.concatenate(out_actions))  # fmt: skip


@lru_cache(maxsize=64)  # a handful of games per process; the maps are small
def _group(game: KInARow) -> tuple[Symmetry, ...]:
    rows, cols = game.rows, game.cols
    if game.gravity:
        names: tuple[str, ...] = ("identity", "flip_lr")
    else:
        names = _SQUARE if rows == cols else _RECTANGLE
    group = []
    for name in names:
        cells = np.array([_flat(*_MAPS[name](r, c, rows, cols), cols) for r in range(rows) for c in range(cols)], dtype=np.int64)
        if game.gravity:  # actions are columns: where the bottom cell of each column goes
            actions = cells[(rows - 1) * cols :] % cols
        else:
            actions = cells.copy()
        cells.setflags(write=False)
        actions.setflags(write=False)
        group.append(Symmetry("mirror" if game.gravity and name == "flip_lr" else name, game, cells, actions))
    return tuple(group)


def _flat(r: int, c: int, cols: int) -> int:
    return r * cols + c


def _member(game: KInARow, cells: np.ndarray) -> Symmetry:
    for symmetry in _group(game):
        if np.array_equal(symmetry.cells, cells):
            return symmetry
    raise AssertionError("the symmetries of a board are closed under composition and inverse")  # unreachable


__all__ = ["Symmetry", "augment", "symmetries"]
