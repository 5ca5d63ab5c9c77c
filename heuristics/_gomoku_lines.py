"""Line patterns of free k-in-a-row boards (gomoku and its kin): the classifier and its lookup table.

The gomoku engine (:mod:`heuristics._gomoku_state`, :mod:`search.gomoku._search`) asks one question per
empty cell, direction and colour: *if this colour played here, what would the line through the cell
become?*  The answer is a pattern code, named after gomoku (k = 5) but defined by how many stones a
k-window still misses, so it means the same on every k::

    FIVE       a live window is full: the move wins
    OPEN_FOUR  one stone short, with two or more different completing cells (``.XXXX.``, ``X.XXX.X``)
    FOUR       one stone short, one completing cell (``OXXXX.``, ``XX.XX``)
    OPEN_THREE two short, and one more stone can make an OPEN_FOUR (``..XXX..``, ``.X.XX.``)
    THREE      two short otherwise
    OPEN_TWO   three short, and one more stone can make an OPEN_THREE
    TWO        three short otherwise
    WEAK       four or more short, but at least two own stones share a live window (long k only)
    NONE       no live window through the cell holds another own stone

A window is *live* if it holds no opponent stone and no edge; under the exact-k rule (standard gomoku:
an overline does not win) also only if the cells just outside it are not own stones, since filling it
would then make a line longer than k.  So an overline is a FIVE under freestyle only.

The classifier sees the cell's *segment*: the ``H`` cells on each side along the line (``H = k - 1``
freestyle, ``H = k`` exact-k, which also needs the cells just outside the outermost windows).  A
segment is kept as a key of 2 bits per cell (0 empty, 1 first player, 2 second player, 3 off the
board), the cell itself left out::

    offsets   -H ... -1 | +1 ... +H          digit i at bits 2i, 2i+1
    digit i   0 ...  H-1 | H ... 2H-1

Worked example (k = 5 freestyle, H = 4): the row ``. x x [c] . o`` around cell c (``[c]``), board edge
after ``o``, has offsets -4..+4 = ``.``, ``.``, ``x``, ``x`` | ``.``, ``o``, edge, edge: digits
(0, 0, 1, 1, 0, 2, 3, 3), key ``0b11_11_10_00_01_01_00_00``.

Where the key fits 20 bits (k <= 5, and k = 6 freestyle) every key is classified once into a table
(the pattern-table evaluation of Gomocup engines such as Rapfi, Embryo and Yixin, as their authors
describe it publicly: one lookup per cell and direction); longer k classify by a scan of the segment, kept
in a memo (:func:`pattern_memo`, a direct-mapped cache keyed by the whole key): the keys of a game's
positions are few next to the ``4 ** 2H`` possible ones, and a scan asking the openness questions costs
hundreds to thousands of operations against one probe.
Keys are classified from the first player's side; the second player's key is turned into it by
swapping digits 1 and 2 (:func:`_as_first`).  The table is built in order of falling own-stone counts,
so the "can it become open" questions of OPEN_THREE and OPEN_TWO are lookups of keys already done.
"""

# Kernels return elements of untyped NumPy arrays, which mypy reads as Any; numba types them itself.
# mypy: disable-error-code="no-any-return"
from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from games._jit import JIT

NONE, WEAK, TWO, OPEN_TWO, THREE, OPEN_THREE, FOUR, OPEN_FOUR, FIVE = range(9)
N_PATTERNS = 9
PATTERN_NAMES = ("none", "weak", "two", "open_two", "three", "open_three", "four", "open_four", "five")
TABLE_BITS = 20
"""Keys of up to this many bits are classified once into a table (4**10 entries, 1 MB); longer ones by scan."""

MEMO_BITS = 16
"""log2 of the entries of a scanned-pattern memo (64 Ki int64, 512 KB: within the L2 cache)."""

_LOW_BITS = np.int64(0x5555555555555555 & 0x0FFFFFFFFFFFFFFF)  # the low bit of every 2-bit digit (60 bits)


def half_width(k: int, exact_k: bool) -> int:
    """H: the cells on each side of a cell that its patterns depend on (k - 1 freestyle, k exact-k)."""
    return k if exact_k else k - 1


def uses_table(k: int, exact_k: bool) -> bool:
    """True if patterns are looked up in a table (the key fits :data:`TABLE_BITS`), False if scanned."""
    return 4 * half_width(k, exact_k) <= TABLE_BITS


@njit(**JIT)
def _as_first(key: np.int64) -> np.int64:
    """The key seen by the other colour: digits 1 and 2 swapped, 0 and 3 kept.

    Why: a digit's two bits differ exactly for 1 (01) and 2 (10); ``(key ^ key >> 1) & low`` marks those
    digits at their low bit, and xor with the mark times 3 flips both bits of each marked digit only.
    """
    differ = (key ^ (key >> np.int64(1))) & _LOW_BITS
    return key ^ (differ * np.int64(3))


@njit(**JIT)
def _decode(key: np.int64, half: int, cells: np.ndarray) -> None:
    """Fill ``cells`` (int8[2 * half + 1], the cell at ``half``) from ``key``: 0 empty, 1 own, 2 blocked."""
    for i in range(2 * half):
        digit = (key >> np.int64(2 * i)) & np.int64(3)
        at = i if i < half else i + 1
        cells[at] = 0 if digit == 0 else (1 if digit == 1 else 2)
    cells[half] = 1


@njit(**JIT)
def _shortfall(cells: np.ndarray, half: int, k: int, exact_k: bool) -> tuple[int, int, int]:
    """``(missing, completions, best)`` over the live windows through the middle cell.

    cells : int8[2 * half + 1], 0 empty, 1 own, 2 blocked; the middle cell is own.
    missing: the fewest empty cells of a live window (k + 1 if none is live); completions: how many
    different empty cells complete a live window missing one; best: the most own stones in a live window.
    """
    missing, best, completions = k + 1, 0, 0
    first_done = -1
    for start in range(half - k + 1, half + 1):
        if start < 0 or start + k > 2 * half + 1:
            continue
        if exact_k and ((start > 0 and cells[start - 1] == 1) or (start + k < 2 * half + 1 and cells[start + k] == 1)):
            continue
        own, empty, hole, live = 0, 0, -1, True
        for i in range(start, start + k):
            if cells[i] == 2:
                live = False
                break
            if cells[i] == 1:
                own += 1
            else:
                empty += 1
                hole = i
        if not live:
            continue
        best = max(best, own)
        if empty < missing:
            missing = empty
        if empty == 1 and hole != first_done:  # a window missing one: its hole completes it
            if completions == 0:
                first_done = hole
                completions = 1
            elif completions == 1:
                completions = 2
    return missing, completions, best


@njit(**JIT)
def _base_code(missing: int, completions: int, best: int, k: int) -> int:
    """The pattern code before the openness questions (FOUR/OPEN_FOUR decided, threes and twos closed)."""
    if best <= 1 or missing > k:
        return NONE
    if missing == 0:
        return FIVE
    if missing == 1:
        return OPEN_FOUR if completions >= 2 else FOUR
    if missing == 2:
        return THREE
    if missing == 3:
        return TWO
    return WEAK


@njit(**JIT)
def _plain_code(key: np.int64, half: int, k: int, exact_k: bool, cells: np.ndarray) -> int:
    """The code of ``key`` before the openness questions (threes and twos counted closed)."""
    _decode(key, half, cells)
    missing, completions, best = _shortfall(cells, half, k, exact_k)
    return _base_code(missing, completions, best, k)


@njit(**JIT)
def _opens(key: np.int64, half: int, k: int, exact_k: bool, wanted: int, cells: np.ndarray) -> bool:
    """True if one more own stone on an empty cell of ``key`` makes the (plain) code ``wanted``."""
    for i in range(2 * half):
        if (key >> np.int64(2 * i)) & np.int64(3) == 0:
            if _plain_code(key | (np.int64(1) << np.int64(2 * i)), half, k, exact_k, cells) == wanted:
                return True
    return False


@njit(**JIT)
def _scan_code(key: np.int64, half: int, k: int, exact_k: bool) -> int:
    """Classify ``key`` (first player's view) by scanning the segment (no table; loops, not recursion).

    An OPEN_THREE is a THREE with a cell that makes an OPEN_FOUR; an OPEN_TWO a TWO with a cell that
    makes a THREE which itself has a cell making an OPEN_FOUR.
    """
    cells = np.empty(2 * half + 1, dtype=np.int8)
    code = _plain_code(key, half, k, exact_k, cells)
    if code == THREE:
        return OPEN_THREE if _opens(key, half, k, exact_k, OPEN_FOUR, cells) else THREE
    if code == TWO:
        for i in range(2 * half):
            if (key >> np.int64(2 * i)) & np.int64(3) == 0:
                more = key | (np.int64(1) << np.int64(2 * i))
                if _plain_code(more, half, k, exact_k, cells) == THREE and _opens(more, half, k, exact_k, OPEN_FOUR, cells):
                    return OPEN_TWO
    return code


@njit(**JIT)
def _fill_table(half: int, k: int, exact_k: bool, table: np.ndarray) -> None:
    """Classify every key of ``4 * half`` bits into ``table`` (int8[4 ** (2 * half)]), most own stones first."""
    size = table.shape[0]
    counts = np.zeros(size, dtype=np.int8)
    cells = np.empty(2 * half + 1, dtype=np.int8)
    for key in range(size):
        n = 0
        for i in range(2 * half):
            if (key >> (2 * i)) & 3 == 1:
                n += 1
        counts[key] = n
    for own in range(2 * half, -1, -1):
        for key in range(size):
            if counts[key] != own:
                continue
            _decode(np.int64(key), half, cells)
            missing, completions, best = _shortfall(cells, half, k, exact_k)
            code = _base_code(missing, completions, best, k)
            if code == THREE or code == TWO:
                wanted = OPEN_FOUR if code == THREE else OPEN_THREE
                for i in range(2 * half):
                    if (key >> (2 * i)) & 3 == 0 and table[key | (1 << (2 * i))] == wanted:
                        code += 1
                        break
            table[key] = code


@lru_cache(maxsize=8)
def pattern_table(k: int, exact_k: bool) -> np.ndarray:
    """The pattern code of every key (int8, read-only) where :func:`uses_table`, else an empty array."""
    if not uses_table(k, exact_k):
        return np.zeros(1, dtype=np.int8)
    half = half_width(k, exact_k)
    table = np.zeros(1 << (4 * half), dtype=np.int8)
    _fill_table(half, k, exact_k, table)
    table.setflags(write=False)
    return table


def pattern_memo(k: int, exact_k: bool, bits: int = MEMO_BITS) -> np.ndarray:
    """An empty memo of scanned codes, int64[2 ** bits], where patterns are scanned (not :func:`uses_table`);
    int64[1] where they are tabled or ``bits`` is 0 (no memo: :func:`_memo_code` scans every time).

    Raises:
        ValueError: ``bits`` outside 0..24 (the message names it).
    """
    if isinstance(bits, bool) or not isinstance(bits, int) or not 0 <= bits <= 24:
        raise ValueError(f"memo bits must be an int in 0..24, got {bits!r}")
    if uses_table(k, exact_k) or bits == 0:
        return np.zeros(1, dtype=np.int64)
    return np.zeros(1 << bits, dtype=np.int64)


@njit(**JIT)
def _memo_code(key: np.int64, half: int, k: int, exact_k: bool, memo: np.ndarray) -> int:
    """The code of ``key`` (first player's view) by :func:`_scan_code`, remembered in ``memo``.

    An entry is ``key << 4 | (code + 1)`` (keys have at most 60 bits, codes 0..8; 0 marks an empty slot),
    so a hit compares the whole key: a memo changes no code, only the time (``tests/test_gomoku_patterns.py``).
    The slot is a Fibonacci hash of the key folded to 31 bits (multiplicative: it spreads keys that differ in
    a few digits; the product stays under 2 ** 63, so it is the same with the JIT off, without overflow).
    """
    if memo.shape[0] <= 1:
        return _scan_code(key, half, k, exact_k)
    folded = (key ^ (key >> np.int64(29))) & np.int64(0x7FFFFFFF)
    slot = int(((folded * np.int64(0x9E3779B1)) >> np.int64(24)) & np.int64(memo.shape[0] - 1))
    tagged = key << np.int64(4)
    entry = memo[slot]
    if entry != 0 and entry & np.int64(-16) == tagged:
        return int(entry & np.int64(15)) - 1
    code = _scan_code(key, half, k, exact_k)
    memo[slot] = tagged | np.int64(code + 1)
    return code


@njit(**JIT)
def _code_of(key: np.int64, colour: int, half: int, k: int, exact_k: bool, table: np.ndarray, tabled: bool,
             memo: np.ndarray) -> int:  # fmt: skip
    """The pattern code of ``key`` for ``colour`` (0 first player, 1 second): a table lookup or a memoized scan."""
    own_key = _as_first(key) if colour == 1 else key
    if tabled:
        return table[own_key]
    return _memo_code(own_key, half, k, exact_k, memo)
