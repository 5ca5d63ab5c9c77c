"""Exact solver kernels: null-window negamax over bitboards, for Connect-4 (gravity) and small m,n,k boards.

Bit layout: the one of :mod:`games._bits` (bit ``col * (rows + 1) + row``,
row 0 at the bottom, a sentinel bit on top of every column), for both games;
``current`` holds the stones of the side to move and ``mask`` every stone.
m,n,k boards use the same layout without gravity: any empty cell is a move.

Score (the convention of the standard Connect-4 benchmark sets, Pascal Pons'
solver): 0 for a draw; if the side to move can force a win, ``(cells + 1 -
n) // 2`` where ``n`` is the number of stones on the board just before it
plays its winning stone, so a faster win scores higher; the negative of that
if the opponent can force a win.  The largest score in a position with
``ply`` stones is ``(cells + 1 - ply) // 2`` (win with the next stone).

Contract of ``_negamax`` (fail-soft, null-window friendly, as Pons'
``Solver::negamax``).  Preconditions: ``alpha < beta`` and the side to move
cannot win with its next stone (``_solve`` checks that first: a winning move
ends the solve before any node is counted).  The returned ``v`` satisfies

* ``alpha < v < beta``: ``v`` is the exact score;
* ``v <= alpha``: the exact score is at most ``v`` (an upper bound);
* ``v >= beta``: the exact score is at least ``v`` (a lower bound).

Each node entered counts one (``work[cells + 1, 0]``), as Pons' solver
counts "positions explored" (one per call of his recursive negamax): node
counts compare directly with his published ones.

What prunes (the techniques of Pons' tutorial, parts 4-12; written afresh here):

* never explore a move that loses at once: if the opponent has a cell it
  could win on next move, that cell is forced (two such cells: lost); with
  gravity, never play directly under an opponent's winning cell;
* a window narrowed by what is still possible: the side to move cannot win
  with its next stone (precondition) and the opponent cannot win with its
  next one (after the pruning above), so the score lies in
  ``[-((cells - 2 - ply) // 2), (cells - 1 - ply) // 2]``;
* a transposition table of upper and lower bounds (fixed size, so memory is
  bounded; always-replace; see ``_tt_value``);
* move ordering by the number of winning cells a move creates (threats),
  ties broken centre-first;
* the root (``_solve``) narrows the score interval with null-window
  searches ``[med, med + 1]`` (MTD-like bisection); the weak mode first asks
  whether either side wins fast (cheap probes near the ends of the range),
  then probes around 0, and stops once the interval shows the sign.

Argument bundles (all search kernels):

rules : games._rules.Rules, the game (gravity: Connect-4 rules, else m,n,k; exact_k honoured by the win test)
board : uint64, every playable cell; bottom : uint64, the bottom cell of every column
order : int64[width]  what to try, centre-first: columns (gravity) or the cells' bit indices
tt : uint64[2**tt_bits]  the table (see ``_tt_value``); stamp : its current generation
work : int64[cells + 2, 2 * width + 4], nodes : uint64[cells + 2, 5]  the search stack (see ``_negamax``)
book_keys : uint32[n], book_scores : int8[n], book_index : int64[65537]  the opening book
(:mod:`search.solve._book_kernels`); book_at : int8[cells + 1]  1 at the stone counts it covers (all 0: no book)

Opening book: a node whose stone count the book covers takes its exact score
instead of being searched (it counts one node, as the search would have
counted it; a position the book lacks is searched as usual).  The search
above it is the same null-window search, so positions a few stones short of
the book solve by a small search over the book's positions.

Budget (``PerfectAgent``'s time and node limits; all zero for an unlimited
solve): ``work[cells + 1, B_LIMIT]`` stops the search once that many nodes
have been entered, ``work[cells + 1, B_DEADLINE]`` (``time.perf_counter``
nanoseconds) once the clock, read at the first node and every ``B_CLOCK_EVERY``
nodes after it, passes it.  Every search, limited or not, also stops on
Ctrl-C: every ``B_CLOCK_EVERY`` nodes it asks Python whether SIGINT arrived
(``_interrupted``) and, if so, sets ``work[cells + 1, B_INTERRUPTED]``; the
facade then raises ``KeyboardInterrupt``.
A stopped search sets ``work[cells + 1, B_STOPPED]`` and returns at once
without storing anything for the unfinished nodes, so the table stays true.

``_solve_batch`` solves many positions in one call (each from an empty
table, as the benchmark protocol asks), timing each with the CPU's cycle
counter (``_cycles``): no Python between positions.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from games._bits import _popcount, _winning_cells
from games._jit import JIT
from games._rules import Rules
from search._clock import _now
from search.solve._book_kernels import MISSING, _book_score

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_BYTE = np.uint64(0xFF)
_HASH = np.uint64(0x9E3779B97F4A7C15)  # odd: key * _HASH is a bijection of 64-bit words (Fibonacci hashing)

TT_OFFSET = 64
"""Table values: ``score + TT_OFFSET`` for an upper bound (> 0), ``-(score + TT_OFFSET)`` for a
lower bound (< 0); scores stay within +-32 on any board that fits, so a value fits a signed byte."""


@intrinsic
def _prefetch(typingctx, array, index):  # type: ignore[no-untyped-def]
    """Ask the CPU to start loading ``array[index]`` into the cache (LLVM's prefetch; no effect on results).

    The table is far larger than the caches, so nearly every probe misses;
    prefetching the children's slots while the moves are ordered overlaps
    those misses with useful work.
    """
    signature = types.void(array, index)

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        data = context.make_array(sig.args[0])(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, sig.args[0], data, [args[1]])
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        function_type = ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32])
        prefetch = cgutils.get_or_insert_function(builder.module, function_type, "llvm.prefetch.p0")
        # read (0), high temporal locality (3), data cache (1)
        builder.call(prefetch, [builder.bitcast(pointer, byte_pointer), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return signature, codegen


@intrinsic
def _interrupted(typingctx):  # type: ignore[no-untyped-def]
    """True once if SIGINT (Ctrl-C) arrived since the last call: CPython's ``PyOS_InterruptOccurred``.

    The kernels run without the GIL, so Python's own handler cannot run
    until they return; this asks the interpreter directly (taking the GIL
    for the call, about 0.1 us) and consumes the signal, which the caller
    turns into ``KeyboardInterrupt``.  Always False outside the main thread
    and when SIGINT is ignored (Python then installs no handler).
    """
    signature = types.boolean()

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        pyapi = context.get_python_api(builder)
        gil = pyapi.gil_ensure()
        function_type = ir.FunctionType(ir.IntType(32), [])
        occurred = cgutils.get_or_insert_function(builder.module, function_type, "PyOS_InterruptOccurred")
        result = builder.call(occurred, [])
        pyapi.gil_release(gil)
        return builder.icmp_signed("!=", result, ir.Constant(ir.IntType(32), 0))

    return signature, codegen


@intrinsic
def _cycles(typingctx):  # type: ignore[no-untyped-def]
    """The CPU's cycle counter (LLVM's readcyclecounter: ``rdtsc`` on x86; 0 where there is none).

    Reading it costs a few nanoseconds, against some 40 ns for the kernels'
    clock (:mod:`search._clock`, which also checks for Ctrl-C): cheap enough to
    time positions solved in a microsecond.  ``cycles_per_second`` converts.
    """
    signature = types.int64()

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        function_type = ir.FunctionType(ir.IntType(64), [])
        counter = cgutils.get_or_insert_function(builder.module, function_type, "llvm.readcyclecounter")
        return builder.call(counter, [])

    return signature, codegen


@njit(**JIT)
def _read_cycles() -> int:
    """``_cycles()`` for Python (calibrating the counter against ``time.perf_counter``)."""
    return _cycles()


@njit(**JIT)
def _tt_value(entry: np.uint64, expected: np.uint64) -> int:
    """The value in table ``entry`` if it belongs to the key and generation in ``expected``, else 0.

    tt : uint64[2**bits]; an entry packs, from the top: the low ``64 - bits``
    bits of ``h = key * _HASH``, a generation stamp (``bits - 8`` bits), the
    value (a signed byte); ``_tt_slot`` gives the slot and ``expected``.
    The slot is the top ``bits`` bits of ``h``, so slot and stored bits
    together are all of ``h``, hence of the key (multiplying by an odd number
    is invertible): no two positions ever share an entry by mistake, with one
    8-byte word a slot.  Bumping the stamp empties the table in O(1)
    (``Solver.reset``).
    """
    if entry & ~_BYTE != expected:
        return 0
    value = np.int64(entry & _BYTE)
    return value - 256 if value > 127 else value


@njit(**JIT)
def _tt_slot(key: np.uint64, bits: int, stamp: int) -> tuple[int, np.uint64]:
    """``(slot, expected)`` of ``key``: where it lives and its entry without the value byte (see ``_tt_value``)."""
    h = key * _HASH
    return int(h >> np.uint64(64 - bits)), (h << np.uint64(bits)) | (np.uint64(stamp) << np.uint64(8))


@njit(**JIT)
def _tt_put(tt: np.ndarray, slot: int, expected: np.uint64, value: int) -> None:
    """Store ``value`` (non-zero, a signed byte) for the key of ``(slot, expected)``, replacing the slot's entry."""
    tt[slot] = expected | np.uint64(value & 0xFF)


@njit(**JIT)
def _trunc_half(x: int) -> int:
    """``x / 2`` rounded toward zero (C's integer division, which the probe choice below relies on)."""
    return x // 2 if x >= 0 else -((-x) // 2)


# --------------------------------------------------------------------------- search


@njit(**JIT)
def _key(current: np.uint64, mask: np.uint64, rows: int, cols: int, gravity: bool) -> np.uint64:
    """A unique 64-bit key of the position."""
    if gravity:
        return current + mask  # the sentinel row stops every column's carry
    # No gravity: the two players' stones side by side (the facade checks they fit one word).
    return current | ((current ^ mask) << np.uint64((rows + 1) * cols))


@njit(**JIT)
def _can_win_next(current: np.uint64, mask: np.uint64, rules: Rules, board: np.uint64, bottom: np.uint64) -> bool:
    """True if the side to move has a playable cell that wins at once."""
    empty = board & ~mask
    # With gravity, adding the bottom bits carries up to the first empty cell of each column.
    playable = (mask + bottom) & board if rules.gravity else empty
    return _winning_cells(current, rules) & playable != _ZERO


# Columns of a ``work`` row past the move list and its threat counts (``2 * width`` entries).
W_ALPHA, W_BETA, W_COUNT, W_NEXT = range(4)
# Columns of a ``nodes`` row.
N_CURRENT, N_MASK, N_PLAYABLE, N_SLOT, N_EXPECTED = range(5)
B_LIMIT, B_DEADLINE, B_STOPPED, B_INTERRUPTED = 1, 2, 3, 4  # columns of work[cells + 1] (column 0 counts nodes)
B_CLOCK_EVERY = 4096  # nodes between clock reads (~1 ms) and Ctrl-C checks


@njit(**JIT)
def _out_of_budget(work, cells):  # type: ignore[no-untyped-def]
    """True (and the stop flag set) once Ctrl-C came, or the node limit or the deadline in ``work[cells + 1]`` is passed.

    Called at every node of a limited search, and every ``B_CLOCK_EVERY`` nodes of any search.
    """
    count = work[cells + 1, 0]
    if count % B_CLOCK_EVERY == 0 and _interrupted():
        work[cells + 1, B_INTERRUPTED] = 1
        work[cells + 1, B_STOPPED] = 1
        return True
    limit = work[cells + 1, B_LIMIT]
    if limit > 0 and (count >= limit or (
        work[cells + 1, B_DEADLINE] > 0 and count % B_CLOCK_EVERY == 1 and _now() * 1e9 > work[cells + 1, B_DEADLINE]
    )):  # fmt: skip
        work[cells + 1, B_STOPPED] = 1
        return True
    return False


@njit(**JIT)
def _negamax(current, mask, ply, alpha, beta, rules, board, bottom, order,  # type: ignore[no-untyped-def]
             tt, tt_bits, stamp, work, nodes, book_keys, book_scores, book_index, book_at):  # fmt: skip
    """Fail-soft negamax score (see the module docstring for the contract).

    The recursion of Pons' ``Solver::negamax`` written as a loop over an
    explicit stack, one row per ply (numba spends more on a recursive call
    with array arguments than on the rest of a node).  ``descend`` is true
    while a node is being entered, false while a value (``score``) is being
    handed back to the parent.

    current, mask : uint64 bitboards; ply : stones on the board; rules : the game.
    order : int64[width]  what to try, centre-first: columns (gravity) or cells' bit indices.
    work : int64[cells + 2, 2 * width + 4]: row ``ply`` holds the node's
    ordered moves (entries of ``order``), their threat counts, then alpha,
    beta, the number of moves and the index of the move being searched
    (``W_*``); ``work[cells + 1, 0]`` counts nodes.
    nodes : uint64[cells + 2, 5]: row ``ply`` holds current, mask, playable, the table slot and entry (``N_*``).
    book_* : the opening book (module docstring); a node of a stone count it covers takes the book's score.
    """
    rows, cols, gravity = rules.rows, rules.cols, rules.gravity
    cells = rows * cols
    width = order.size
    column_bits = (_ONE << np.uint64(rows)) - _ONE
    root = ply
    nodes[ply, N_CURRENT], nodes[ply, N_MASK] = current, mask
    work[ply, W_ALPHA + 2 * width], work[ply, W_BETA + 2 * width] = alpha, beta
    descend = True
    score = 0
    while True:
        if descend:
            # ---- enter the node at ``ply``: prune, probe the table, order the moves
            current, mask = nodes[ply, N_CURRENT], nodes[ply, N_MASK]
            alpha, beta = work[ply, W_ALPHA + 2 * width], work[ply, W_BETA + 2 * width]
            count = work[cells + 1, 0] + 1
            work[cells + 1, 0] = count
            if (work[cells + 1, B_LIMIT] > 0 or count % B_CLOCK_EVERY == 0) and _out_of_budget(work, cells):
                return 0  # the caller sees work[cells + 1, B_STOPPED]; the value means nothing
            descend = False  # unless a child gets searched below
            if book_at[ply]:
                score = _book_score(current, mask, ply, book_keys, book_scores, book_index)
                if score != MISSING:  # exact, so right for any window (a complete book never misses)
                    continue
            slot, expected = _tt_slot(_key(current, mask, rows, cols, gravity), tt_bits, stamp)
            entry = tt[slot]  # loaded now, used below: the memory access overlaps the work in between
            empty = board & ~mask
            playable = (mask + bottom) & board if gravity else empty
            opponent_wins = _winning_cells(current ^ mask, rules) & empty
            forced = playable & opponent_wins
            if forced != _ZERO:
                if forced & (forced - _ONE) != _ZERO:  # two cells to block: the opponent wins next move
                    score = -((cells - ply) // 2)
                    continue
                playable = forced
            if gravity:
                # Playing right under an opponent's winning cell would hand it over.
                playable &= ~(opponent_wins >> _ONE)
                if playable == _ZERO:
                    score = -((cells - ply) // 2)
                    continue
            if ply >= cells - 2:  # we cannot win next, nor can the opponent after the pruning above
                score = 0
                continue
            low = -((cells - 2 - ply) // 2)  # the opponent cannot win with its next stone
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    score = alpha
                    continue
            high = (cells - 1 - ply) // 2  # we cannot win with our next stone
            if beta > high:
                beta = high
                if alpha >= beta:
                    score = beta
                    continue
            stored = _tt_value(entry, expected)
            if stored > 0:
                high = stored - TT_OFFSET
                if beta > high:
                    beta = high
                    if alpha >= beta:
                        score = beta
                        continue
            elif stored < 0:
                low = -stored - TT_OFFSET
                if alpha < low:
                    alpha = low
                    if alpha >= beta:
                        score = alpha
                        continue

            # Order: most winning cells created first; insertion keeps centre-first among equals.
            n = 0
            for rank in range(width):
                where = order[rank]
                if gravity:
                    move = playable & (column_bits << np.uint64(where * (rows + 1)))
                else:
                    move = playable & (_ONE << np.uint64(where))
                if move == _ZERO:
                    continue
                threats = _popcount(_winning_cells(current | move, rules) & empty & ~move)
                _prefetch(tt, _tt_slot(_key(current ^ mask, mask | move, rows, cols, gravity), tt_bits, stamp)[0])
                i = n
                while i > 0 and work[ply, width + i - 1] < threats:
                    work[ply, i] = work[ply, i - 1]
                    work[ply, width + i] = work[ply, width + i - 1]
                    i -= 1
                work[ply, i] = where
                work[ply, width + i] = threats
                n += 1
            nodes[ply, N_PLAYABLE], nodes[ply, N_SLOT], nodes[ply, N_EXPECTED] = playable, slot, expected
            work[ply, W_ALPHA + 2 * width], work[ply, W_BETA + 2 * width] = alpha, beta
            work[ply, W_COUNT + 2 * width], work[ply, W_NEXT + 2 * width] = n, 0
        else:
            # ---- hand ``score`` (the value of the node at ``ply``) back to its parent
            if ply == root:
                return score
            ply -= 1
            score = -score
            alpha, beta = work[ply, W_ALPHA + 2 * width], work[ply, W_BETA + 2 * width]
            slot, expected = int(nodes[ply, N_SLOT]), nodes[ply, N_EXPECTED]
            if score >= beta:
                _tt_put(tt, slot, expected, -(score + TT_OFFSET))  # a lower bound
                continue
            if score > alpha:
                alpha = score
                work[ply, W_ALPHA + 2 * width] = alpha
            i = work[ply, W_NEXT + 2 * width] + 1
            if i >= work[ply, W_COUNT + 2 * width]:
                _tt_put(tt, slot, expected, alpha + TT_OFFSET)  # an upper bound (fail low, or exact)
                score = alpha
                continue
            work[ply, W_NEXT + 2 * width] = i
        # ---- search the child of the move ``work[ply, W_NEXT]``, in the window [-beta, -alpha]
        current, mask, playable = nodes[ply, N_CURRENT], nodes[ply, N_MASK], nodes[ply, N_PLAYABLE]
        where = work[ply, work[ply, W_NEXT + 2 * width]]
        if gravity:
            move = playable & (column_bits << np.uint64(where * (rows + 1)))
        else:
            move = _ONE << np.uint64(where)
        # The child: the opponent to move (its stones are current ^ mask), one more stone.
        nodes[ply + 1, N_CURRENT], nodes[ply + 1, N_MASK] = current ^ mask, mask | move
        work[ply + 1, W_ALPHA + 2 * width], work[ply + 1, W_BETA + 2 * width] = -beta, -alpha
        ply += 1
        descend = True


@njit(**JIT)
def _solve(current, mask, ply, weak, rules, board, bottom, order,  # type: ignore[no-untyped-def]
           tt, tt_bits, stamp, work, nodes, book_keys, book_scores, book_index, book_at):  # fmt: skip
    """Exact score of a position that is not over; weak: a number of the score's sign.

    Narrows ``[low, high]`` with null-window probes ``[med, med + 1]``: a
    result ``<= med`` is an upper bound, ``> med`` a lower bound.

    Strong: bisection of the whole range, Pons' sequence of probes (so node
    counts equal his).

    Weak (stops as soon as the bounds show the sign): first two probes near
    the ends of the range, three quarters of the way from 0 to the fastest
    loss, then to the fastest win ("does either side win within the next few
    moves?"), each skipped once the sign is known; then Pons' weak sequence,
    ``[0, 1]`` and, if that fails low at 0, ``[-1, 0]``.  A probe near an end
    is cheap: every line that cannot win fast enough is cut by the bound on
    the score still reachable; and it settles big wins and losses, where
    ``[0, 1]`` alone is dear.  Measured mean nodes, each position from an
    empty table, relative to Pons' weak sequence alone (his sets End-Easy
    ``Test_L3_R1`` and Middle-Easy ``Test_L2_R1``, 1000 positions each; 150
    random positions, not over and with no win at once, per even number of
    empty cells from 6 to 30)::

        weak sequence                         End-Easy  Middle-Easy  random
        Pons': [0, 1], then [-1, 0]             1.00       1.00       1.00
        the strong bisection, up to the sign    1.58       0.61       1.08 to 1.73
        ends at 1/2 of the range, then Pons'    1.26       0.55       1.00 to 1.28
        ends at 3/4 of the range, then Pons'    1.07       0.75       0.94 to 1.14 (this one)

    Pons' sets hold more fast wins and losses than random positions do, where
    the probes near the ends are mostly wasted: at 3/4 they cost at most 14%
    more than Pons' sequence, and at most 3% from 14 empty cells on.
    """
    cells = rules.rows * rules.cols
    if _can_win_next(current, mask, rules, board, bottom):
        return (cells + 1 - ply) // 2
    if book_at[ply]:
        work[cells + 1, 0] += 1  # one node, as the search would count it
        score = _book_score(current, mask, ply, book_keys, book_scores, book_index)
        if score != MISSING:
            return score
    low, high = -((cells - ply) // 2), (cells + 1 - ply) // 2
    if weak:
        for far in (-((-low) - (-low) // 4), high - high // 4):
            if low > 0 or high < 0:
                break  # the sign is known
            if low <= far < high:  # else the bounds already answer this probe
                r = _negamax(current, mask, ply, far, far + 1, rules, board, bottom, order, tt, tt_bits,
                             stamp, work, nodes, book_keys, book_scores, book_index, book_at)  # fmt: skip
                if work[cells + 1, B_STOPPED]:
                    return 0  # out of budget: no score (the caller checks the flag)
                if r <= far:
                    high = r
                else:
                    low = r
        # Pons' weak window: [-1, 1] is all the sign needs (the bounds the loop returns are proven by probes).
        low, high = max(low, -1), min(high, 1)
    while low < high:
        if weak and (low > 0 or high < 0):  # the sign is known
            break
        med = low + (high - low) // 2
        # Pons' choice: probe halfway from 0 to the bound on the middle's side when that is further out.
        if med <= 0 and _trunc_half(low) < med:
            med = _trunc_half(low)
        elif med >= 0 and _trunc_half(high) > med:
            med = _trunc_half(high)
        r = _negamax(current, mask, ply, med, med + 1, rules, board, bottom, order,
                     tt, tt_bits, stamp, work, nodes, book_keys, book_scores, book_index, book_at)  # fmt: skip
        if work[cells + 1, B_STOPPED]:
            return 0  # out of budget: no score (the caller checks the flag)
        if r <= med:
            high = r
        else:
            low = r
    return high if high < 0 else low  # low == high, or (weak) the bound that shows the sign


@njit(**JIT)
def _at_least(current, mask, ply, value, rules, board, bottom, order,  # type: ignore[no-untyped-def]
              tt, tt_bits, stamp, work, nodes, book_keys, book_scores, book_index, book_at):  # fmt: skip
    """1 if the exact score of a position that is not over is at least ``value``, else 0 (one null-window search).

    The perfect agent's test of a move (:func:`search.solve._perfect.optimal_move`):
    a single probe ``[value - 1, value]`` instead of the bisection of ``_solve``.
    Out of budget: 0, with ``work[cells + 1, B_STOPPED]`` set (the caller checks it).
    """
    cells = rules.rows * rules.cols
    if _can_win_next(current, mask, rules, board, bottom):
        return 1 if (cells + 1 - ply) // 2 >= value else 0
    if book_at[ply]:
        work[cells + 1, 0] += 1
        score = _book_score(current, mask, ply, book_keys, book_scores, book_index)
        if score != MISSING:
            return 1 if score >= value else 0
    r = _negamax(current, mask, ply, value - 1, value, rules, board, bottom, order,
                 tt, tt_bits, stamp, work, nodes, book_keys, book_scores, book_index, book_at)  # fmt: skip
    return 1 if r >= value else 0


@njit(**JIT)
def _solve_batch(currents, masks, plies, weak, fresh, rules, board, bottom, order,  # type: ignore[no-untyped-def]
                 tt, tt_bits, stamp, work, nodes, book_keys, book_scores, book_index, book_at, out):  # fmt: skip
    """``_solve`` on every position in turn, in one call; returns ``(positions done, table stamp now)``.

    currents, masks : uint64[n] the positions' bitboards; plies : int64[n] their stone counts (none is over).
    fresh : each position from an empty table (the stamp moves on first, and
    the table is really cleared when the stamp runs out, as ``Solver.reset``
    does); else the table is shared, as successive ``Solver.solve`` calls share it.
    out : int64[n, 3]  written per position: score (weak: its sign), nodes, cycles spent (``_cycles``).
    Stops early on Ctrl-C (``work[cells + 1, B_INTERRUPTED]`` set; positions from the returned count on are
    not solved); SIGINT is also checked before every 256th position, since small positions never reach
    ``B_CLOCK_EVERY`` nodes.  No node or time limit (``work[cells + 1, B_LIMIT]`` must be 0).
    """
    cells = rules.rows * rules.cols
    stamps = 1 << (tt_bits - 8)
    for i in range(currents.size):
        if i % 256 == 255 and _interrupted():
            work[cells + 1, B_INTERRUPTED] = 1
            return i, stamp
        if fresh:
            stamp += 1
            if stamp >= stamps:
                tt[:] = 0
                stamp = 1
        work[cells + 1, 0] = 0
        started = _cycles()
        score = _solve(currents[i], masks[i], plies[i], weak, rules, board, bottom, order, tt, tt_bits, stamp, work, nodes,
                       book_keys, book_scores, book_index, book_at)
        out[i, 2] = _cycles() - started
        if work[cells + 1, B_STOPPED]:
            return i, stamp
        out[i, 0] = (1 if score > 0 else (-1 if score < 0 else 0)) if weak else score
        out[i, 1] = work[cells + 1, 0]
    return currents.size, stamp
