"""``python -m tuning.fit``: fit a heuristic's weights to a solver-labelled set (Texel's method) and save them.

Examples::

    python -m tuning.fit --heuristic c4_features                                   # the shipped Connect-4 set
    python -m tuning.fit --heuristic c4_features --out weights/connect4-c4_features-texel.json
    python -m tuning.fit --game tictactoe --heuristic windows --data my.labels.jsonl.gz
    python -m tuning.fit --game connect4 --rows 7 --cols 8 --heuristic threats     # the cached set of the board

The fit uses the set's training positions only (its held-out split judges
it), and, where the labels are exact, every position one move away from a
training position too, labelled by that move's exact value
(:func:`tuning.texel.with_children`; ``--no-children`` turns it off).

The weight file (:func:`heuristics.save_weights`, written atomically) records
the fit in its provenance: the data file and its header's seed and command,
the logistic scale, training and held-out losses before and after, and the
regularisation.  Its search settings are those of ``--start`` if that is a
weight file, else none.  The method and its decisions: :mod:`tuning.texel`.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Optional, Sequence

from games import KInARow, game_from_record
from games.cli import add_game_arguments, game_from_args
from heuristics import WeightFile, get_spec, save_weights
from search.budget import Limit, load_weight_file
from tuning._sigint import exit_at_once_on_ctrl_c
from tuning.labels import LabelSet, default_path, find_labels, load_labels
from tuning.texel import DEFAULT_HELDOUT, DEFAULT_REGULARIZATION, FitResult, fit_weights


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tuning.fit", description=_summary())
    parser.add_argument("--heuristic", required=True, help="the evaluator whose weights to fit")
    add_game_arguments(parser)
    parser.add_argument("--data", help="a label file (default: the shipped set of the game)")
    parser.add_argument("--start", help="a weight file to start from (default: the heuristic's defaults)")
    parser.add_argument("--out", help="write the fitted weights to this weight file (default: print only)")
    parser.add_argument("--regularization", type=float, default=DEFAULT_REGULARIZATION,
                        help=f"pull toward the defaults (default {DEFAULT_REGULARIZATION})")  # fmt: skip
    parser.add_argument("--heldout", type=float,
                        help="share of positions held out to judge the fit (default: the set's own split, "
                        f"else {DEFAULT_HELDOUT})")  # fmt: skip
    parser.add_argument("--no-children", action="store_true",
                        help="fit the positions only: by default an exact set also labels every position one move "
                        "away from a training position, by that move's exact value")  # fmt: skip
    return parser


def _summary() -> str:
    """The docstring's first line without its ````python -m tuning.fit``:```` prefix: what --help opens with."""
    first = (__doc__ or "").splitlines()[0]
    summary = first.split("``: ", 1)[-1]
    return summary[:1].upper() + summary[1:]


def package_version() -> str:
    """The installed ``alphabeta-gym`` version, or ``unknown`` from a bare checkout."""
    try:
        return version("alphabeta-gym")
    except PackageNotFoundError:
        return "unknown"


def provenance(result: FitResult, data: Path, header: dict[str, Any], argv: Sequence[str]) -> dict[str, Any]:
    """The weight file's provenance for a fit of ``data`` (the shipped set named by its package path)."""
    result_game = game_from_record(header["game"])
    return {
        "tool": "python -m tuning.fit " + " ".join(argv), "method": "texel (logistic regression on exact values)",
        "data": str(data) if data != default_path(result_game) else f"(shipped) tuning/data/{data.name}", "data_seed": header.get("seed"), "data_count": header.get("count"),
        "data_command": header.get("command"), **result.summary(),
        "package_version": package_version(), "created": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }  # fmt: skip


def _fit(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[KInARow, LabelSet, Path, FitResult, Limit]:
    """Load the start and the labels, and fit; a bad value is the parser's one-line error."""
    search = Limit()
    try:
        game = game_from_args(parser, args)
        get_spec(args.heuristic)
        start = None
        if args.start:
            loaded, search = load_weight_file(args.start, game)
            if loaded.heuristic != args.heuristic:
                parser.error(f"--start {args.start} is a {loaded.heuristic} weight file, not {args.heuristic}")
            start = loaded.weights
        data = Path(args.data) if args.data else (find_labels(game) or default_path(game))
        labels = load_labels(data, game)
        result = fit_weights(game, args.heuristic, labels, start=start, regularization=args.regularization,
                             heldout=args.heldout, children=labels.exact and not args.no_children)  # fmt: skip
    except ValueError as exc:  # every error of games, heuristics and label files is one
        parser.error(str(exc))
    return game, labels, data, result, search


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; return the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    with exit_at_once_on_ctrl_c("tuning.fit: interrupted; nothing written"):  # numba's compiler would swallow it
        game, labels, data, result, search = _fit(parser, args)
    print(f"{args.heuristic} on {len(labels.positions)} positions of {game} ({data}), scale {result.scale:.6g}")
    print(f"  training loss {result.loss_before:.5f} -> {result.loss_after:.5f}")
    print(f"  held-out loss {result.heldout_before:.5f} -> {result.heldout_after:.5f}")
    for name, value in result.weights.items():
        print(f"  {name} = {value:.6g}  (start {result.start[name]:.6g})")
    if args.out:
        used = list(sys.argv[1:] if argv is None else argv)
        record = WeightFile(game, args.heuristic, result.weights, search.to_dict(),
                            provenance(result, data, labels.header, used))  # fmt: skip
        try:
            save_weights(record, args.out)
        except ValueError as exc:
            parser.error(str(exc))
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
