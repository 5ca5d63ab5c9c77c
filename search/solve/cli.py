"""``python -m search.solve``: solve positions read from stdin (Connect-4), or one given on the command line.

Lines are solved in batches, one kernel call per batch
(:meth:`search.solve.Solver.solve_batch`): a batch is whatever input is
available at once (a redirected file: thousands of lines; a program writing
one line and waiting for the answer: that line), so piped input streams as
before and a benchmark file pays no Python between positions.  Each output
line is ``<moves> <score> <nodes> <microseconds>``, the microseconds of that
position's search alone (the CPU's cycle counter), as Pascal Pons' solver
reports them; the kernels are compiled (or loaded) before the first
position, so no line includes compilation.

Connect-4 6x7 with the opening book installed (:mod:`search.solve.book`):
positions of up to 12 stones, the empty board included, are answered at
once (a lookup counts one node); ``--no-book`` searches without it.  Without
the book, an early position can take minutes, and a note on stderr says so.

Ctrl-C stops a running solve within a fraction of a second (the kernels
check for it as they check their budgets): one line on stderr, exit 130.
A reader that goes away (``| head``) ends the run quietly with 141, the
status of a Unix tool stopped by SIGPIPE.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from typing import Iterable, Iterator, Optional, Sequence, TextIO

from games import KInARow, Position
from games.cli import add_game_arguments, game_from_args
from games.errors import GameError
from games.position import STONE_SYMBOLS
from search.solve import DEFAULT_TT_SIZE, Solver, SolveResult, cycles_per_second
from search.solve.book import INSTALL, is_book_game

TEXT_CHUNK = 4096
"""Lines per batch when stdin is a text stream without bytes underneath (a test's ``io.StringIO``)."""
_READ_BYTES = 1 << 16


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m search.solve",
        description="Solve positions exactly. Connect-4: one position a line on stdin (1-based column digits from "
        "the empty board, or column numbers separated by commas on boards wider than 9; a second field, such as "
        "an expected score, is ignored), one line out each: '<moves> <score> <nodes> <microseconds>' (nodes: "
        "positions explored; microseconds: the search alone). Blank lines are skipped; a malformed line is "
        "reported on stderr with its number and the exit code is 1. m,n,k: solve the empty board, or the moves "
        "given, and print the value. Ctrl-C stops at once (exit 130).",
    )
    parser.add_argument("moves", nargs="*", help="solve this one position instead of reading stdin (connect4) "
                        "or instead of the empty board (mnk); m,n,k cells like 'b2 a1'")  # fmt: skip
    add_game_arguments(parser)
    parser.add_argument("--weak", action="store_true", help="score only win/draw/loss as 1/0/-1 (faster)")
    parser.add_argument("--tt-size", type=int, default=DEFAULT_TT_SIZE,
                        help=f"transposition-table slots, rounded up to a power of two (default {DEFAULT_TT_SIZE})")  # fmt: skip
    parser.add_argument("--no-book", action="store_true",
                        help="Connect-4 6x7: search without the opening book even if it is installed (node counts then "
                             "compare with other solvers' on positions of up to 12 stones too)")  # fmt: skip
    return parser


def _chunks(stream: TextIO) -> Iterator[list[str]]:
    """The lines of ``stream``, a batch at a time: what one read returns (everything already written, up to 64 KB).

    A line cut by the end of a read waits for the next; the last line may lack its newline.
    """
    read1 = getattr(getattr(stream, "buffer", None), "read1", None)
    if read1 is None:
        lines = iter(stream)
        while chunk := list(itertools.islice(lines, TEXT_CHUNK)):
            yield chunk
        return
    pending = b""
    while data := read1(_READ_BYTES):
        *complete, pending = (pending + data).split(b"\n")
        if complete:
            yield [line.decode(errors="replace") for line in complete]
    if pending:
        yield [pending.decode(errors="replace")]


def _position(game: KInARow, moves: str) -> tuple[Optional[Position], str]:
    """The position a move string describes, or ``(None, why it cannot be solved)``."""
    try:
        position = game.position(moves)
    except GameError as exc:
        return None, str(exc)
    if position.is_terminal():
        return None, f"the game is already over ({position.outcome()}) after {moves!r}: nothing to solve"
    return position, ""


SLOW_WITHOUT_BOOK = 12
"""Connect-4 6x7 positions of at most this many stones get the note on stderr when no book is used."""


def _slow_note(solver: Solver, position: Position, err: TextIO) -> bool:
    """Say once on ``err`` that an early 6x7 position may take minutes without the book; True if said."""
    if solver.book is not None or not is_book_game(solver.game) or position.ply > SLOW_WITHOUT_BOOK:
        return False
    err.write(f"search.solve: without the opening book, 6x7 positions of up to {SLOW_WITHOUT_BOOK} stones can take "
              f"minutes each; {INSTALL} makes them instant\n")  # fmt: skip
    err.flush()
    return True


def _run_lines(solver: Solver, game: KInARow, chunks: Iterable[list[str]], weak: bool, out: TextIO,
               err: TextIO) -> int:  # fmt: skip
    """Solve every line, a batch per chunk; return the number of malformed lines (each reported on ``err``)."""
    bad, number, noted = 0, 0, False
    for chunk in chunks:
        entries: list[tuple[int, str, Optional[Position], str]] = []
        for line in chunk:
            number += 1
            fields = line.split()
            if fields:
                entries.append((number, fields[0], *_position(game, fields[0])))
        solved = [position for _, _, position, _ in entries if position is not None]
        if solved and not noted:  # the earliest position of the batch decides
            noted = _slow_note(solver, min(solved, key=_ply), err)
        # Each line from an empty table, as the reference solver does: node counts are comparable.
        results = iter(solver.solve_batch(solved, weak=weak).results if solved else ())
        for at, moves, position, problem in entries:
            if position is None:
                bad += 1
                err.write(f"line {at}: {problem}\n")
                err.flush()
            else:
                result = next(results)
                out.write(f"{moves} {result.score} {result.nodes} {round(result.seconds * 1e6)}\n")
        out.flush()
    return bad


def _ply(position: Position) -> int:
    return position.ply


def _verdict(position: Position, score: int) -> str:
    """The value of a position in words, naming the winner."""
    if score == 0:
        return "draw"
    winner = position.to_move if score > 0 else 1 - position.to_move
    return f"win for {STONE_SYMBOLS[winner + 1]} (the {'first' if winner == 0 else 'second'} player)"


def _compile(solver: Solver) -> None:
    """Compile (or load) both solver kernels and measure the cycle counter before any position is timed."""
    solver._score(solver.game.position(), weak=True, deadline=1e-9)  # past: the first node reads the clock and stops
    solver.solve_batch([])
    cycles_per_second()
    solver._tt.fill(0)  # touch the table's pages now: their first-touch faults would land in the first lines' times
    solver.reset()


def _solve_one(solver: Solver, game: KInARow, moves: str, weak: bool) -> int:
    """Solve the position of the command line's moves and print it with its verdict."""
    position, problem = _position(game, moves)
    if position is None:
        print(f"moves {moves!r}: {problem}", file=sys.stderr)
        return 1
    _slow_note(solver, position, sys.stderr)
    result: SolveResult = solver.solve(position, weak=weak)
    shown = game.format_moves(game.parse_moves(moves)).replace(" ", ",") or "-"
    print(f"{shown} {result.score} {result.nodes} {round(result.seconds * 1e6)}")
    where = f"after {moves!r}" if moves.strip() else "from the empty board"
    print(f"# {game}, {where}: {_verdict(position, result.score)}")
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the solver command line; return the exit code (1 if any input line was malformed, 130 on Ctrl-C)."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C: a short note, not a traceback; 130 = 128 + SIGINT, as shells report it
        print("search.solve: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader left (``| head``): no traceback, and none at exit when Python flushes stdout
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, what a Unix tool stopped by a closed pipe reports


def _main(argv: Optional[Sequence[str]]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        game = game_from_args(parser, args)
        solver = Solver(game, args.tt_size, book=False if args.no_book else None)
    except ValueError as exc:  # a BookError too: a damaged book (one line, with the fix)
        parser.error(str(exc))
    _compile(solver)
    if game.gravity and not args.moves:
        return 1 if _run_lines(solver, game, _chunks(sys.stdin), args.weak, sys.stdout, sys.stderr) else 0
    return _solve_one(solver, game, " ".join(args.moves), args.weak)
