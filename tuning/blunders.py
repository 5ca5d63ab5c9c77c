"""The blunder rate: how often an agent spoils a position, judged by exact move values.

A move is a **blunder** when it lowers the position's game-theoretic value
for the side to move: a won position into a draw or a loss, or a drawn one
into a loss.  Playing a slower win, or a faster loss in a lost position, is
not a blunder (only the weak values win/draw/loss count).  Every position of
a label set (:mod:`tuning.labels`) stores the exact value of every legal
move, so the agent's move is judged without running the solver.

**Held-out positions only, by default.**  A rate measured on the positions a
weight file was fitted to flatters it (the shipped Connect-4 file blundered
on 2.85% of the whole set, most of which it was fitted to, and on 3.00% of
the positions held out of the fit, the rate of the defaults).  So the
command counts the label set's held-out split (:attr:`tuning.labels.LabelSet.heldout`),
positions no fit used, and says so; ``--positions all`` counts every one.

The rate is the share of the agent's moves over the set that are blunders,
with a 95% Wilson score interval (binomial: each position is one move, the
positions are fixed), overall and by game phase (bands of plies).  The agent
is reset and reseeded (``seed`` plus a checksum of the position's moves)
before each position, as if each were a new game, so the answer does not
depend on the order of the positions or on which others are in the set.
Lost positions count too (no move can blunder there): the rate is per move
over the set, and :attr:`BlunderReport.avoidable` says how many positions had
a blunder to make at all.

Command line::

    python -m tuning.blunders weights/connect4-threats-tuned.json            # the held-out positions
    python -m tuning.blunders "alphabeta:heuristic=c4_features,nodes=1000"
    python -m tuning.blunders "alphabeta:weights=weights/connect4-c4_features-tuned.json,nodes=1000"
    python -m tuning.blunders random --game tictactoe --limit 200
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from dataclasses import asdict, dataclass, replace
from typing import Optional, Sequence, Union

from games import KInARow
from games.cli import add_game_arguments, game_from_args
from search.agents import AgentType, make_agent
from search.agents.spec import weight_file_of
from tuning._sigint import exit_at_once_on_ctrl_c
from tuning.labels import LabelledPosition, LabelSet, default_path, load_labels
from tuning.stats import wilson as wilson  # the blunder table's interval, defined with the other statistics


@dataclass(frozen=True)
class Rate:
    """Blunders among moves, with the 95% Wilson interval; ``low``/``high`` are plies (a band) or None (all)."""

    moves: int
    blunders: int
    rate: float
    ci_low: float
    ci_high: float
    low: Optional[int] = None
    high: Optional[int] = None

    @classmethod
    def of(cls, blunders: int, moves: int, low: Optional[int] = None, high: Optional[int] = None) -> Rate:
        """The rate of ``blunders`` in ``moves`` (0 when there are no moves)."""
        return cls(moves, blunders, blunders / moves if moves else 0.0, *wilson(blunders, moves), low, high)


@dataclass(frozen=True)
class BlunderReport:
    """An agent's blunder rate over a set of positions, overall and by ply band."""

    agent: str
    overall: Rate
    bands: tuple[Rate, ...]
    avoidable: int
    """Positions where some legal move is a blunder (won or drawn positions with a spoiling move)."""
    seconds: float


def is_blunder(labelled: LabelledPosition, move: int) -> bool:
    """True if ``move`` lowers the weak value of the position for the side to move."""
    return labelled.move_value(move) < labelled.value


def default_band_width(game: KInARow) -> int:
    """Plies per phase band: a seventh of the board, at least one (Connect-4 6x7: 6)."""
    return max(1, game.n_cells // 7)


def blunder_rate(agent: Union[AgentType, str], labels: LabelSet, *, positions: Optional[Sequence[LabelledPosition]] = None,
                 band_width: Optional[int] = None, seed: int = 0) -> BlunderReport:  # fmt: skip
    """Play ``agent`` (an agent or a :func:`search.agents.make_agent` spec) once on every position and count blunders.

    Args:
        agent: the agent, or its spec.
        labels: the label set (its game).
        positions: a subset of ``labels.positions`` (default: all).
        band_width: plies per phase band (default :func:`default_band_width`).
        seed: the agent is reseeded with ``seed`` plus the CRC-32 of the move string before each position.

    Raises:
        ValueError: a bad spec or band width, an agent for another game, or a set without exact move values.
    """
    game = labels.game
    if not labels.exact:
        raise ValueError(f"blunder rates need exact move values; this set holds {labels.source} labels of {game} "
                         "(make one with python -m tuning.labels --source solver)")  # fmt: skip
    width = default_band_width(game) if band_width is None else band_width
    if isinstance(width, bool) or not isinstance(width, int) or width < 1:
        raise ValueError(f"band_width={band_width!r} must be a positive integer")
    player = make_agent(agent, game, seed=seed) if isinstance(agent, str) else agent
    chosen = labels.positions if positions is None else positions
    counts: dict[int, list[int]] = {}
    avoidable, started = 0, time.perf_counter()
    for labelled in chosen:
        player.reset()
        player.seed(seed + zlib.crc32(labelled.moves.encode()))
        move = player.select_move(game.position(labelled.moves))
        band = counts.setdefault(labelled.ply // width, [0, 0])
        band[0] += 1
        band[1] += is_blunder(labelled, move)
        avoidable += any(is_blunder(labelled, m) for m in labelled.move_scores)
    bands = tuple(Rate.of(b, n, key * width, key * width + width - 1) for key, (n, b) in sorted(counts.items()))
    overall = Rate.of(sum(r.blunders for r in bands), sum(r.moves for r in bands))
    return BlunderReport(getattr(player, "name", str(agent)), overall, bands, avoidable, time.perf_counter() - started)


def spread(items: Sequence[LabelledPosition], limit: Optional[int]) -> Sequence[LabelledPosition]:
    """At most ``limit`` positions evenly spread over ``items`` (all phases keep their share)."""
    if limit is None or limit >= len(items):
        return items
    return [items[i * len(items) // limit] for i in range(limit)]


# --------------------------------------------------------------------------- command line


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tuning.blunders", description=__doc__.splitlines()[0])
    parser.add_argument("agent", help="an agent spec or weight file, as python -m tuning.match takes")
    add_game_arguments(parser)
    parser.add_argument("--data", help="a label file with exact values (default: the shipped set of the game)")
    parser.add_argument("--positions", choices=POSITIONS, default="heldout",
                        help="heldout: the set's held-out split, positions no fit used (default); all; train")
    parser.add_argument("--limit", type=int, help="use at most this many positions, evenly spread over the set")
    parser.add_argument("--band-width", type=int, help="plies per phase band (default: a seventh of the board)")
    parser.add_argument("--seed", type=int, default=0, help="agents are reseeded with seed + a checksum of each position (default 0)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--write", action="store_true",
                        help="store the rate in the weight file's provenance as 'blunders' (the agent must be a weight "
                        "file; all the positions chosen, no --limit)")  # fmt: skip
    return parser


POSITIONS = ("heldout", "all", "train")
"""Which positions of a set ``--positions`` counts."""


def chosen_positions(labels: LabelSet, which: str) -> Sequence[LabelledPosition]:
    """The held-out split, every position, or the training split of ``labels``."""
    return {"heldout": labels.heldout, "all": labels.positions, "train": labels.train}[which]


def describe_positions(labels: LabelSet, which: str, count: int) -> str:
    """``on 1,600 held-out positions (not used by any fit) of the Connect-4 6x7 k=4 set``: what a rate is measured on."""
    where = {"heldout": "held-out positions (not used by any fit)", "all": "positions (training and held-out)",
             "train": "training positions (the ones fits use: a flattering measure)"}[which]  # fmt: skip
    return f"on {count:,} {where} of the {labels.game} set"


def provenance_record(report: BlunderReport, labels: LabelSet, data: str, which: str) -> dict[str, object]:
    """The ``blunders`` record a weight file keeps (``--write``): the rate, its interval and what it was measured on."""
    o = report.overall
    return {"positions": which, "count": o.moves, "blunders": o.blunders, "rate": round(o.rate, 6),
            "ci_low": round(o.ci_low, 6), "ci_high": round(o.ci_high, 6), "data": data,
            "note": "held-out positions: none was used by any fit" if which == "heldout" else "includes fitted positions",
            "command": "python -m tuning.blunders FILE" + ("" if which == "heldout" else f" --positions {which}")}  # fmt: skip


def _print(report: BlunderReport) -> None:
    o = report.overall
    print(f"{report.agent}: {o.blunders} blunders in {o.moves} moves = {100 * o.rate:.2f}% "
          f"[{100 * o.ci_low:.2f}, {100 * o.ci_high:.2f}] (95% Wilson); {report.avoidable} positions had one to make")  # fmt: skip
    for band in report.bands:
        print(f"  plies {band.low:>2}-{band.high:<2} {band.blunders:>5} / {band.moves:<5} {100 * band.rate:6.2f}% "
              f"[{100 * band.ci_low:.2f}, {100 * band.ci_high:.2f}]")  # fmt: skip


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; return the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        parser.error(f"--limit {args.limit} must be a positive integer")
    written = weight_file_of(args.agent) if args.write else None
    if args.write and (written is None or args.limit is not None):
        parser.error("--write needs a weight file as the agent and every position (no --limit)")
    try:
        with exit_at_once_on_ctrl_c("tuning.blunders: interrupted"):  # numba's compiler would swallow the interrupt
            game = game_from_args(parser, args)
            player = make_agent(args.agent, game, seed=args.seed)
            labels = load_labels(args.data or default_path(game), game)
            positions = spread(chosen_positions(labels, args.positions), args.limit)
            report = blunder_rate(player, labels, positions=positions, band_width=args.band_width, seed=args.seed)
    except ValueError as exc:  # bad game, label file, agent spec, weight file or band width: all ValueErrors
        parser.error(str(exc))
    if args.json:
        print(json.dumps({**asdict(report), "positions": args.positions}, indent=2))
    else:
        print(describe_positions(labels, args.positions, len(positions)))
        _print(report)
    if written is not None:
        from heuristics import load_weights, resolve_weight_file, save_weights

        written = str(resolve_weight_file(written))  # a shipped file's name, or a path
        loaded = load_weights(written)
        data = args.data or f"(shipped) tuning/data/{default_path(game).name}"
        record = provenance_record(report, labels, data, args.positions)
        save_weights(replace(loaded, provenance={**loaded.provenance, "blunders": record}), written)
        print(f"stored in {written} (provenance.blunders)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
