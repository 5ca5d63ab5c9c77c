"""Which labels fit best?  Each label source under the same time budget, a Texel fit of each, a match of each fit.

For every source (``--sources``: ``solver``, ``search``, ``selfplay``, and
``shipped`` for the set in ``tuning/data/``) this makes a label set within
``--seconds`` on all cores (:func:`tuning.labels.make_labels`, reused from
``OUT`` on a re-run), fits the evaluator's weights to its training part from
the defaults (:func:`tuning.texel.fit_weights`; an exact set's children too, as
the tuner fits), and plays the fit, at ``--nodes`` a move and depth 8, against
the evaluator's defaults at the same budget (``"alphabeta:heuristic=H,nodes=N"``,
the goal's yardstick; H is the board's strongest evaluator unless
``--heuristic`` names another) over
``--pairs`` paired openings.  The table gives each set's size, its
held-out cross-entropy before and after the fit (on its own labels: not
comparable across sources), the cross-entropy on an exact held-out set when
the board has one (comparable), and the match's Elo with its 95% interval:
the number that decides.

    python -m scripts.compare_labels --game connect4 --rows 7 --cols 8 --seconds 240 --pairs 200
    python -m scripts.compare_labels --game mnk --rows 9 --cols 9 --k 5 --sources search,selfplay
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Optional, Sequence

import numpy as np

from games.cli import add_game_arguments, game_from_args
from heuristics import Evaluator
from scripts._args import int_range, positive_float, run_interruptible
from scripts._files import write_text_atomic
from scripts._report import print_machine_and_command, print_table
from search.budget import Limit
from tuning.label_sources import make_source, strongest_default
from tuning.labels import LabelSet, default_path, load_labels, make_labels
from tuning.match import MatchRunner, default_workers
from tuning.openings import make_openings
from tuning.space import Candidate, agent_defaults
from tuning.texel import cross_entropy, fit_weights, targets_of

SOURCES = ("solver", "search", "selfplay")


def _labels(args: argparse.Namespace, game: Any, name: str) -> LabelSet:
    if name == "shipped":
        return load_labels(default_path(game), game)
    out = args.out / f"{name}.labels.jsonl.gz"
    if out.is_file():
        return load_labels(out, game)
    source = make_source(name, game, nodes=args.nodes) if name != "solver" else make_source(name, game)
    return make_labels(game, source, count=None, seconds=args.seconds, seed=args.seed, heldout=0.2, out=out,
                       command=f"scripts.compare_labels --sources {name}", workers=args.workers,
                       report=lambda line: print(f"  {name}: {line}", file=sys.stderr, flush=True))  # fmt: skip


def _exact_loss(game: Any, heuristic: str, weights: dict[str, float], scale: float, exact: Optional[LabelSet]) -> float:
    """Cross-entropy of the fit on an exact set's held-out positions, its own logistic scale (nan without a set)."""
    if exact is None:
        return float("nan")
    evaluator = Evaluator(heuristic, game, weights)
    evals = np.array([evaluator.evaluate(game.position(p.moves)) for p in exact.heldout], dtype=np.float64)
    return cross_entropy(evals, targets_of(exact.heldout), scale)


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Make, fit and play every source; one result dict each."""
    game = args.game_value
    exact = load_labels(default_path(game), game) if default_path(game).is_file() else None
    openings = make_openings(game, count=min(args.pairs, 500), plies=4, seed=args.seed + 99, heldout=0.0).tuning
    baseline = f"alphabeta:heuristic={args.heuristic},nodes={args.nodes}"
    results = []
    with MatchRunner(args.workers) as runner:
        for name in args.sources:
            started = time.perf_counter()
            labels = _labels(args, game, name)
            made = time.perf_counter() - started
            fit = fit_weights(game, args.heuristic, labels, start=agent_defaults(args.heuristic, game), children=labels.exact)
            spec = Candidate(args.heuristic, fit.weights, Limit(depth=8, nodes=args.nodes)).spec()
            match = runner.match(game, spec, baseline, openings, args.pairs, seed=args.seed)
            e = match.estimate()
            results.append({
                "source": name, "positions": len(labels.positions), "heldout": labels.heldout_count,
                "games": labels.header.get("games"), "seconds": round(made, 1),
                "heldout_before": fit.heldout_before, "heldout_after": fit.heldout_after,
                "exact_heldout_after": _exact_loss(game, args.heuristic, fit.weights, fit.scale, exact),
                "elo": e.elo, "elo_low": e.elo_low, "elo_high": e.elo_high, "pairs": e.n, "wdl": list(match.wdl),
                "weights": fit.weights,
            })  # fmt: skip
            print(f"{name}: {len(labels.positions)} positions, fit held-out {fit.heldout_before:.4f} -> "
                  f"{fit.heldout_after:.4f}, Elo {e.elo:+.1f} [{e.elo_low:+.1f}, {e.elo_high:+.1f}]", file=sys.stderr)  # fmt: skip
    return results


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the comparison and print the table; 2 on a bad argument."""
    parser = argparse.ArgumentParser(prog="python -m scripts.compare_labels", description=__doc__.splitlines()[0])
    add_game_arguments(parser)
    parser.add_argument("--sources", default=",".join(SOURCES), help=f"comma-separated, of {', '.join(SOURCES)}, shipped")
    parser.add_argument("--heuristic", help="the evaluator to fit (default: the board's strongest, as the tuner's)")
    parser.add_argument("--seconds", type=positive_float, default=240.0, help="label budget per source (default 240)")
    parser.add_argument("--nodes", type=int_range(1), default=1000, help="node budget of the matches (default 1000)")
    parser.add_argument("--pairs", type=int_range(1, 20_000), default=200, help="pairs per match (default 200)")
    parser.add_argument("--seed", type=int_range(0), default=0)
    parser.add_argument("--workers", type=int_range(1, 256), default=default_workers())
    parser.add_argument("--out", type=Path, help="folder for the label sets and labels.json (default runs/labels-BOARD)")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = parser.parse_args(argv)
    try:
        args.game_value = game_from_args(parser, args)
        args.heuristic = args.heuristic or strongest_default(args.game_value)
        args.sources = [s.strip() for s in args.sources.split(",") if s.strip()]
        unknown = [s for s in args.sources if s not in (*SOURCES, "shipped")]
        if unknown:
            raise ValueError(f"--sources {','.join(unknown)}: choose from {', '.join(SOURCES)}, shipped")
        if "shipped" in args.sources and not default_path(args.game_value).is_file():
            raise ValueError(f"--sources shipped: no shipped set for {args.game_value}")
        for name in args.sources:
            if name != "shipped":
                make_source(name, args.game_value, **({} if name == "solver" else {"nodes": args.nodes}))
    except ValueError as exc:
        parser.error(str(exc))
    g = args.game_value
    args.out = args.out or Path("runs") / f"labels-{g.kind}-{g.rows}x{g.cols}x{g.k}"
    args.out.mkdir(parents=True, exist_ok=True)
    print_machine_and_command(argv)
    results = run(args)
    write_text_atomic(args.out / "labels.json", json.dumps(results, indent=1) + "\n")
    rows = [[r["source"], f"{r['positions']:,}", f"{r['seconds']:.0f}", f"{r['heldout_before']:.4f} -> {r['heldout_after']:.4f}",
             "" if r["exact_heldout_after"] != r["exact_heldout_after"] else f"{r['exact_heldout_after']:.4f}",
             f"{r['elo']:+.1f} [{r['elo_low']:+.1f}, {r['elo_high']:+.1f}]"] for r in results]  # fmt: skip
    print_table(["source", "positions", "seconds", "own held-out loss", "exact held-out loss", f"Elo vs defaults, {args.pairs} pairs"],
                rows, args.markdown)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(run_interruptible("compare_labels", main, None))
