"""``threats``: a linear evaluator of tens of named k-in-a-row features, built to be tuned.

The value is ``sum(weights[i] * counts[i])`` in SPEC order, each count own
minus opponent's from the side to move ``me`` (exceptions below), so a fit
of the weights (Texel style: a logistic model of game results) is a linear
regression on these counts.  What each feature encodes, and where from:

Windows (all boards).  A *window* is a run of ``k`` cells along a row,
column or diagonal.  ``wM_now`` / ``wM_later``: windows free of opponent
stones holding ``k - M`` own stones (M = 1, 2, 3; ``w4_*`` lumps M >= 4 for
k >= 5), "now" when every empty cell of the window is playable now (with
gravity the lowest empty cell of its column; without gravity every empty
cell), else "later".  The "ways to win" count of the Connect-4 paper (Kang et
al. 2019, "expansion space") and the generic window score of the COMP 472
report, with the gravity split: a window whose squares can be filled now is a
threat in the making, one whose squares float waits for the columns below.

Threat cells (all boards).  A *threat* of a player is an empty cell that
completes k in a row for it (Allis 1988, "A Knowledge-based Approach of
Connect-Four", section 2: a "threat" is such a square; Allis, van den Herik,
Huntjens 1993, "Go-Moku and Threat-Space Search": a "four").

- ``threat_now_mover`` / ``threat_now_waiting``: threats playable now, of
  the side to move (a win next move) and of the other side (a forced block),
  counted ``+mover`` and ``-waiting``: the one asymmetry of tempo.
- ``multi_threat``: 1 if the player has two or more threats (a double threat
  cannot be blocked with one stone: Allis et al. 1993's "four-four"; in
  Connect-4 the two must not stack, see ``stacked``).
- ``fork_cells``: empty cells that lie in windows with ``k - 2`` own stones
  (and no opponent's) along two or more directions: one stone there makes
  threats on two lines (the "4-3" and "3-3" of gomoku, Allis et al. 1993; the
  "7" shape of Connect-4 play).

Gravity only (Allis 1988, the rules of zugzwang: with an even number of
rows, a second player who answers every move in the same column, "follow-up",
gets every even-row square; so the first player's useful threats are on odd
rows and the second player's on even rows, rows counted from 1 at the
bottom):

- ``odd_first``, ``even_first``, ``odd_second``, ``even_second``: threats
  not playable now and with no opponent threat lower in their column (the
  lower threat would decide the column first), by row parity and by colour:
  "first" is stone 1, the player who moved first.  Signed from ``me``: +1 if
  the player is ``me``.
- ``stacked``: threats with an own threat directly below (the opponent must
  block the lower one and hands over the upper one: a win, Allis 1988).
- ``under_opponent``: threats with an opponent threat higher in the same
  column (the column cannot be filled up to the opponent's threat without
  passing ours first).

Free boards only (no gravity), from windows of ``k + 1`` cells whose two end
cells are empty and whose ``k - 1`` inner cells hold no opponent stone
(Allis et al. 1993's threat classes, k = 5: the "straight four" and the
"three"; the same shapes for any k):

- ``open_k1``: all ``k - 1`` inner cells own (two winning cells on one line).
- ``open_k2_mover`` / ``open_k2_waiting``: ``k - 2`` inner cells own (one
  move from an open ``k - 1``): the side to move makes it at once, the other
  side's must be answered; counted ``+mover`` and ``-waiting``.

Cells (all boards): ``squares``, each stone weighted by the number of
k-windows through its cell (``square_values``, Kang et al. 2019's
Heuristics-2); ``centre_0``..``centre_3``, stones by distance from the
centre (gravity: column distance, 0 for the centre column(s), 3 for three
or more columns out, as c4_features' F4; free boards: the larger of the
column and the row distance).

``tempo``: a constant for the side to move (the side to move of a
k-in-a-row game is never worse off for it: an extra stone never hurts).

Contract (heuristics.spec): mirror symmetric; antisymmetric in colour after
the weight exchange :func:`colour_dual` (a colour swap keeps ``me`` and the
ply, so it trades the mover's counts for the waiting side's, stone 1's
parity counts for stone 2's, and flips ``tempo``); with equal pair weights
and ``tempo`` 0 it is antisymmetric outright.

Defaults (hand-set, in the units of ``square_values``: a centre stone of
6x7 is worth 13 there): windows one move from a threat count 20 when open
now, 10 later, two moves 4/2, further 1/0.5; the full windows (M = 1) 0,
since the threat cells score them once per cell; an immediate threat of the
side to move 1,000 (a win the search may not see at a leaf), of the other
side 60 (a tempo lost to the block), a double threat 100, a fork cell 40;
Allis' good parity threats (odd for the first player, even for the second)
80 and 70, the others 30 and 20; stacked 60, under an opponent's 20; open
``k - 1`` 500, open ``k - 2`` 200 to move and 60 waiting; squares 1;
centre 2, 1, 0, 0; tempo 2.

``_order`` (move ordering, O(k^2)): the change of the window terms (every
window scored with its "now" weight), squares and centre terms when ``me``
plays ``cell``.  Sizes: every board and every ``k >= 2``; nothing is refused.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np
from numba import njit

from games import KInARow
from games._jit import JIT, JIT_INLINE
from heuristics._lines import DIRECTIONS, _stones_in_window
from heuristics.spec import HeuristicSpec, WeightSpec, any_game, every_game, free_only, gravity_only, k_at_least_5, n_windows

NAME = "threats"

_W = (
    ("w1_now", 0.0, 0.0, 200.0, "an opponent-free window holding k-1 own stones, its empty cell playable now"),
    ("w1_later", 0.0, 0.0, 200.0, "an opponent-free window holding k-1 own stones, its empty cell not playable yet"),
    ("w2_now", 20.0, 0.0, 200.0, "an opponent-free window holding k-2 own stones, its empty cells playable now"),
    ("w2_later", 10.0, 0.0, 200.0, "an opponent-free window holding k-2 own stones, some empty cell not playable yet"),
    ("w3_now", 4.0, 0.0, 100.0, "an opponent-free window holding k-3 own stones, its empty cells playable now"),
    ("w3_later", 2.0, 0.0, 100.0, "an opponent-free window holding k-3 own stones, some empty cell not playable yet"),
    ("w4_now", 1.0, 0.0, 50.0, "k >= 5: a window with 1..k-4 own stones, opponent-free, empty cells playable now"),
    ("w4_later", 0.5, 0.0, 50.0, "k >= 5: a window with 1..k-4 own stones, opponent-free, not all playable"),
    ("threat_now_mover", 1000.0, 0.0, 10_000.0, "threat cells of the side to move playable now (a win next move)"),
    ("threat_now_waiting", 60.0, 0.0, 2_000.0, "threat cells of the waiting side playable now (counted negative: a forced block)"),
    ("multi_threat", 100.0, 0.0, 2_000.0, "1 if the player has two or more threat cells"),
    ("fork_cells", 40.0, 0.0, 500.0, "empty cells in opponent-free k-2 windows along two or more directions"),
    ("odd_first", 80.0, 0.0, 1_000.0, "gravity: stone 1's unplayable threats on odd rows, none of stone 2's lower in the column"),
    ("even_first", 30.0, 0.0, 1_000.0, "gravity: stone 1's unplayable threats on even rows, none of stone 2's lower in the column"),
    ("odd_second", 20.0, 0.0, 1_000.0, "gravity: stone 2's unplayable threats on odd rows, none of stone 1's lower in the column"),
    ("even_second", 70.0, 0.0, 1_000.0, "gravity: stone 2's unplayable threats on even rows, none of stone 1's lower in the column"),
    ("stacked", 60.0, 0.0, 1_000.0, "gravity: threat cells directly above an own threat cell"),
    ("under_opponent", 20.0, 0.0, 500.0, "gravity: threat cells with an opponent threat higher in the same column"),
    ("open_k1", 500.0, 0.0, 5_000.0, "free boards: k-1 own stones in a row between two empty cells (straight four at k=5)"),
    ("open_k2_mover", 200.0, 0.0, 2_000.0, "free boards: side to move, k-2 own stones in k-1 cells between two empty cells"),
    ("open_k2_waiting", 60.0, 0.0, 2_000.0, "free boards: waiting side's open k-2 (counted negative: must be answered)"),
    ("squares", 1.0, 0.0, 20.0, "each stone times the number of k-windows through its cell (square_values)"),
    ("centre_0", 2.0, 0.0, 50.0, "stones in the centre column(s) (free boards: centre ring)"),
    ("centre_1", 1.0, 0.0, 50.0, "stones one column (ring) from the centre"),
    ("centre_2", 0.0, 0.0, 50.0, "stones two columns (rings) from the centre"),
    ("centre_3", 0.0, 0.0, 50.0, "stones three or more columns (rings) from the centre"),
    ("tempo", 2.0, -100.0, 100.0, "a constant for the side to move"),
)
def _gravity_and_k_at_least_5(game: KInARow) -> bool:
    return game.gravity and game.k >= 5


_APPLIES = {
    "w4_now": k_at_least_5, "w4_later": _gravity_and_k_at_least_5,
    # free boards: every empty cell is playable, so every window is "now"
    "w1_later": gravity_only, "w2_later": gravity_only, "w3_later": gravity_only,
    "open_k1": free_only, "open_k2_mover": free_only, "open_k2_waiting": free_only,
    **{name: gravity_only for name in ("odd_first", "even_first", "odd_second", "even_second", "stacked", "under_opponent")},
}  # fmt: skip
"""Weights that cannot change an evaluation on some boards (a tuner leaves them out there)."""
N_FEATURES = len(_W)
assert N_FEATURES % 3 == 0  # _weighted_sum adds three partial sums

# Positions in ``weights`` and ``counts`` (the order of SPEC.weights).
W1_NOW = 0
"""``wM_now`` is ``W1_NOW + 2 * (M - 1)``, ``wM_later`` the next one."""
THREAT_MOVER, THREAT_WAITING, MULTI, FORK = 8, 9, 10, 11
ODD_FIRST = 12
"""Parity counts: ``ODD_FIRST + 2 * (stone - 1) + (1 if the row is even)``."""
STACKED, UNDER, OPEN_K1, OPEN_K2_MOVER, OPEN_K2_WAITING = 16, 17, 18, 19, 20
SQUARES, CENTRE, TEMPO = 21, 22, 26
COLOUR_PAIRS = (("threat_now_mover", "threat_now_waiting"), ("open_k2_mover", "open_k2_waiting"),
                ("odd_first", "odd_second"), ("even_first", "even_second"))  # fmt: skip


def colour_dual(weights: dict[str, float]) -> dict[str, float]:
    """The weights under which a colour swap negates the value: each pair of ``COLOUR_PAIRS`` exchanged, tempo negated.

    ``_evaluate(swapped, me, w) == -_evaluate(board, me, colour_dual(w))``
    for every board (swapped: every stone changes colour, ``me`` stays).
    """
    dual = dict(weights)
    for a, b in COLOUR_PAIRS:
        dual[a], dual[b] = weights[b], weights[a]
    dual["tempo"] = -weights["tempo"]
    return dual


def _max_abs(game: KInARow, w: Mapping[str, float]) -> float:
    """The ``bound`` of SPEC (heuristics.bounds): ``|evaluate|`` never exceeds it on ``game``'s board."""
    # Every term is a count, own minus opponent: window classes count windows (<= n_windows), "squares" counts
    # stones x windows through them (<= k x n_windows), threat, fork, parity and centre terms count cells
    # (<= n_cells), open runs count runs per cell and direction (<= 4 x n_cells), tempo is one.  So k x n_windows
    # + 4 x n_cells bounds any single count, per player.
    return 2 * (game.k * n_windows(game) + 4 * game.n_cells) * sum(abs(v) for v in w.values())


SPEC = HeuristicSpec(
    name=NAME,
    summary="linear in 27 window, threat, Allis parity, gomoku threat-class, cell and tempo features, own minus opponent",
    source="Allis 1988 (Connect-4 threats, zugzwang), Allis, van den Herik, Huntjens 1993 (gomoku threats), "
    "Kang, Wang, Hu 2019 and the COMP 472 report (windows)",
    weights=tuple(WeightSpec(n, d, lo, hi, doc=doc, applies=_APPLIES.get(n, every_game)) for n, d, lo, hi, doc in _W),
    refuse=any_game,
    bound=_max_abs,
    colour_dual=colour_dual,
)


@njit(**JIT_INLINE)  # takes arrays: see games._jit.JIT_INLINE
def _weighted_sum(weights, counts):  # type: ignore[no-untyped-def]
    """``sum(weights[i] * counts[i])``: the one combination both kernels use, so their results agree to the bit.

    Three partial sums (indices 0, 3, 6, ..., then 1, 4, ..., then 2, 5, ...)
    added at the end: three short chains of dependent float additions
    instead of one of 27 (the chain's latency was a fifth of a bitboard evaluation).
    """
    t0, t1, t2 = 0.0, 0.0, 0.0
    for i in range(0, N_FEATURES, 3):
        t0 += weights[i] * counts[i]
        t1 += weights[i + 1] * counts[i + 1]
        t2 += weights[i + 2] * counts[i + 2]
    return t0 + t1 + t2


@njit(**JIT)
def centre_group(rows: int, cols: int, gravity: bool, r: int, c: int) -> int:
    """0 (centre) .. 3: column distance from the centre; without gravity the larger of column and row distance."""
    dist = abs(2 * c - (cols - 1)) // 2
    if not gravity:
        dist = max(dist, abs(2 * r - (rows - 1)) // 2)
    return min(dist, 3)


@njit(**JIT_INLINE)  # takes arrays: see games._jit.JIT_INLINE
def _is_playable(board, n, cols, cell):  # type: ignore[no-untyped-def]
    """True if the empty ``cell`` of a gravity board is playable now (bottom row, or the cell below is taken)."""
    return cell + cols >= n or board[cell + cols] != 0


@njit(**JIT_INLINE)  # takes arrays: see games._jit.JIT_INLINE
def _after_is_empty(board, rows, cols, last, d):  # type: ignore[no-untyped-def]
    """True if the cell one step past ``last`` along direction ``d`` (0 row, 1 column, 2 diagonal, 3 anti) is an empty cell."""
    r, c = last // cols + (0 if d == 0 else 1), last % cols + (1 if d == 0 or d == 2 else (0 if d == 1 else -1))
    return 0 <= r < rows and 0 <= c < cols and board[r * cols + c] == 0


@njit(**JIT)
def _windows_pass(board, code, rows, cols, k, gravity, me, windows, counts, threat, forks):  # type: ignore[no-untyped-def]
    """Add the window, squares and open counts of every k-window; mark threat cells and fork directions.

    board : int8[cells]; code : int8[cells], the board with 3 on empty cells not playable now (free boards: the
    board itself); windows : int32[n_windows, k] (``_lines.window_table``);
    counts : int64[N_FEATURES] (added to); threat : uint8[cells], bit ``stone - 1`` set on each stone's
    threat cells; forks : uint8[cells], bit ``d + 4 * (stone - 1)`` if a k-2 window of ``stone`` along
    direction d (0 row, 1 column, 2 diagonal, 3 anti-diagonal) covers the cell.
    """
    squares = 0
    for w in range(windows.shape[0]):
        # Branch-free: one 4-bit counter per code (playable empty, stone 1, stone 2, waiting empty), k <= 7.
        acc = 0
        for i in range(k):
            acc += 1 << (code[windows[w, i]] << 2)
        a, b, blocked = (acc >> 4) & 15, (acc >> 8) & 15, acc >> 12
        squares += a - b  # stones x windows through them = windows x stones in them
        if (a == 0) == (b == 0):
            continue  # empty, or holding both colours: nobody's window
        p, own = (1, a) if b == 0 else (2, b)
        if own == k:
            continue
        m = min(k - own, 4)
        counts[W1_NOW + 2 * (m - 1) + (1 if blocked else 0)] += 1 if p == me else -1
        if k - own > 2:
            continue
        w0, w1 = windows[w, 0], windows[w, 1]  # two consecutive cells tell the direction
        step = w1 - w0
        if w0 // cols == w1 // cols:
            d = 0
        elif step == cols:
            d = 1
        else:
            d = 2 if step == cols + 1 else 3
        if not gravity and board[w0] == 0 and _after_is_empty(board, rows, cols, windows[w, k - 1], d):
            # An open run: this window's first cell, the next cell past its end empty, k - 1 inner cells.
            if own == k - 1:
                counts[OPEN_K1] += 1 if p == me else -1
            elif p == me:
                counts[OPEN_K2_MOVER] += 1
            else:
                counts[OPEN_K2_WAITING] -= 1
        bit = 1 << (p - 1) if k - own == 1 else 1 << (d + 4 * (p - 1))
        for i in range(k):
            cell = windows[w, i]
            if board[cell] == 0:
                if k - own == 1:
                    threat[cell] |= bit
                else:
                    forks[cell] |= bit
    counts[SQUARES] += squares if me == 1 else -squares


@njit(**JIT)
def _column_threats(threat, rows, cols, r, c, bit, below):  # type: ignore[no-untyped-def]
    """True if a cell of column ``c`` strictly below (``below``) or above row ``r`` has threat bit ``bit``."""
    lo, hi = (r + 1, rows) if below else (0, r)
    for rr in range(lo, hi):
        if threat[rr * cols + c] & bit:
            return True
    return False


@njit(**JIT)
def _cells_pass(board, rows, cols, gravity, me, counts, threat, forks):  # type: ignore[no-untyped-def]
    """Add the per-cell counts: centre groups, threats (playable, multiple, parity, stacked, under), fork cells."""
    n_threats_1, n_threats_2 = 0, 0
    for r in range(rows):
        for c in range(cols):
            cell = r * cols + c
            v = board[cell]
            if v != 0:
                counts[CENTRE + centre_group(rows, cols, gravity, r, c)] += 1 if v == me else -1
                continue
            for p in range(1, 3):
                sign = 1 if p == me else -1
                f = (forks[cell] >> (4 * (p - 1))) & 15
                if f & (f - 1):  # two or more direction bits
                    counts[FORK] += sign
                bit = 1 << (p - 1)
                if not threat[cell] & bit:
                    continue
                if p == 1:
                    n_threats_1 += 1
                else:
                    n_threats_2 += 1
                playable = not gravity or _is_playable(board, rows * cols, cols, cell)
                if playable:
                    counts[THREAT_MOVER if p == me else THREAT_WAITING] += sign
                if not gravity:
                    continue
                other = 1 << (2 - p)
                if not playable and not _column_threats(threat, rows, cols, r, c, other, True):
                    counts[ODD_FIRST + 2 * (p - 1) + (1 if (rows - r) % 2 == 0 else 0)] += sign
                if r + 1 < rows and threat[cell + cols] & bit:
                    counts[STACKED] += sign
                if _column_threats(threat, rows, cols, r, c, other, False):
                    counts[UNDER] += sign
    multi = (1 if n_threats_1 >= 2 else 0) - (1 if n_threats_2 >= 2 else 0)  # stone 1's minus stone 2's
    counts[MULTI] += multi if me == 1 else -multi


@njit(**JIT)
def _evaluate(board, heights, rows, cols, k, gravity, me, weights, windows):  # type: ignore[no-untyped-def]
    """The weighted feature counts of ``board`` for the side to move ``me`` (module docstring).

    board : int8[rows * cols]; heights : int32[cols] (unused: playability is read off the board);
    weights : float64[N_FEATURES] in SPEC order; windows : int32[n_windows, k], every k-window.
    """
    assert me == 1 or me == 2
    n = rows * cols
    counts = np.zeros(N_FEATURES, dtype=np.int64)
    threat = np.zeros(n, dtype=np.uint8)
    forks = np.zeros(n, dtype=np.uint8)
    if gravity:
        code = board.copy()
        for cell in range(n):
            if board[cell] == 0 and not _is_playable(board, n, cols, cell):
                code[cell] = 3
        _windows_pass(board, code, rows, cols, k, gravity, me, windows, counts, threat, forks)
    else:  # every empty cell is playable
        _windows_pass(board, board, rows, cols, k, gravity, me, windows, counts, threat, forks)
    _cells_pass(board, rows, cols, gravity, me, counts, threat, forks)
    counts[TEMPO] = 1
    return _weighted_sum(weights, counts)


@njit(**JIT)
def _window_phi(own: int, opp: int, k: int, weights: np.ndarray) -> float:
    """A window's "now" weight for a side with ``own`` stones in it, the other side having ``opp``."""
    if opp > 0 or own < 1 or own >= k:
        return 0.0
    value: float = weights[W1_NOW + 2 * (min(k - own, 4) - 1)]
    return value


@njit(**JIT)
def _order(board, heights, rows, cols, k, gravity, me, weights, windows, cell):  # type: ignore[no-untyped-def]
    """Change of the window ("now" weights), squares and centre terms when ``me`` plays ``cell``: O(k^2).

    board : int8[rows * cols], ``board[cell]`` empty.
    """
    assert board[cell] == 0
    row, col = cell // cols, cell % cols
    change = weights[CENTRE + centre_group(rows, cols, gravity, row, col)]
    for dr, dc in DIRECTIONS:
        for s in range(k):
            own, opp = _stones_in_window(board, rows, cols, k, me, row, col, dr, dc, s)
            if own >= 0:  # on the board
                change += weights[SQUARES]
                change += _window_phi(own + 1, opp, k, weights) - _window_phi(own, opp, k, weights)
                change += _window_phi(opp, own, k, weights) - _window_phi(opp, own + 1, k, weights)
    return change
