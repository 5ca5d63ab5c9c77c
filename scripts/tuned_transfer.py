"""Does what is tuned at 1000 nodes hold elsewhere?  Each shipped tuned file against the gauntlet at other budgets.

For every tuned weight file shipped for Connect-4 (``weights/connect4-*-tuned.json``)
and every budget (300, 1000 and 5000 nodes per move, and 50 ms per move), the
tuned agent plays paired openings against every gauntlet member searching
under the same budget: the shipped evaluators at their default weights
(:func:`tuning.gauntlet.default_gauntlet` without the tuned files, so each
file is compared with the defaults it must beat).  The table gives,
per file and budget, the pooled Elo over the members and the Elo against
each member, with 95% intervals from pairs.  Time budgets make the games
depend on the machine's load (say so when quoting them).

Run it with ``python -m scripts.tuned_transfer [--pairs 100] [--budgets 300,1000,5000,50ms] [--markdown]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Optional, Sequence

from games import CONNECT4
from scripts._args import non_negative_int, positive_int, writable_dir
from scripts._files import write_text_atomic
from scripts._report import print_machine_and_command, print_table
from search.budget import Limit, load_weight_file
from tuning.gauntlet import WEIGHTS_DIR, default_gauntlet, describe
from tuning.match import MatchRunner
from tuning.openings import make_openings
from tuning.space import Candidate

MAX_DEPTH = CONNECT4.rows * CONNECT4.cols
"""No depth cap: the budget alone stops the search."""


def parse_budget(text: str) -> Limit:
    """``"300"`` (nodes) or ``"50ms"`` (time per move) as the search budget it becomes (no depth cap)."""
    text = text.strip()
    try:
        value = int(text[:-2]) if text.endswith("ms") else int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"budget {text!r} is neither a node count nor a time like 50ms") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"budget {text!r} must be at least 1")
    return Limit(depth=MAX_DEPTH, time_ms=value) if text.endswith("ms") else Limit(depth=MAX_DEPTH, nodes=value)


def budget_option(budget: Limit) -> str:
    """``nodes=300`` or ``time_ms=50``: how the budget is named in the JSON output."""
    return f"nodes={budget.nodes}" if budget.nodes is not None else f"time_ms={budget.time_ms:g}"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scripts.tuned_transfer", description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default="300,1000,5000,50ms",
                        help="comma-separated node counts and times per move (default 300,1000,5000,50ms)")
    parser.add_argument("--pairs", type=positive_int, default=100, help="openings per member and budget (default 100)")
    parser.add_argument("--files", nargs="+", type=Path, help="tuned weight files (default: every shipped Connect-4 one)")
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument("--workers", type=positive_int, help="match workers (default: all cores)")
    parser.add_argument("--out", type=writable_dir, default=Path("runs/transfer"), help="where the JSON goes")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Play every (file, budget, member) match and print one table per file."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        budgets = [parse_budget(b) for b in args.budgets.split(",") if b.strip()]
        files = args.files or sorted(WEIGHTS_DIR.glob("connect4-*-tuned.json"))
        loaded = {path: load_weight_file(path, CONNECT4) for path in files}
    except (argparse.ArgumentTypeError, ValueError, OSError) as error:
        parser.error(str(error))
    if not budgets or not files:
        parser.error("nothing to play: give at least one budget and one tuned file")
    print_machine_and_command(argv)
    openings = make_openings(CONNECT4, args.pairs, plies=4, seed=args.seed, heldout=0.0).tuning
    results = []
    with MatchRunner(args.workers) as runner:
        for path, (tuned, tuned_limit) in loaded.items():
            rows = []
            for budget in budgets:
                members = default_gauntlet(CONNECT4, budget, weights_dir=None)
                spec = Candidate(tuned.heuristic, tuned.weights, budget.replace(branching=tuned_limit.branching)).spec()
                result = runner.match(CONNECT4, spec, members, openings, args.pairs * len(members), seed=args.seed)
                pooled = result.estimate()
                option = budget_option(budget)
                row = [option.replace("nodes=", "").replace("time_ms=", "") + (" ms" if "time" in option else " nodes"),
                       f"{pooled.elo:+.0f} [{pooled.elo_low:+.0f}, {pooled.elo_high:+.0f}]"]  # fmt: skip
                per_member = {}
                for i, member in enumerate(members):
                    e = result.against(i, describe(member)).estimate()
                    row.append(f"{e.elo:+.0f} [{e.elo_low:+.0f}, {e.elo_high:+.0f}]")
                    per_member[describe(member)] = [e.elo, e.elo_low, e.elo_high]
                rows.append(row)
                results.append({"file": path.name, "budget": option, "pairs": len(result.pairs),
                                "pooled": [pooled.elo, pooled.elo_low, pooled.elo_high], "members": per_member})  # fmt: skip
                print(f"{path.name} at {option}: {pooled.describe()}", file=sys.stderr, flush=True)
            print(f"\n{path.name} ({tuned.heuristic}), {args.pairs} pairs per member:")
            print_table(["budget", "pooled Elo", *(describe(m) for m in members)], rows, args.markdown)
    write_text_atomic(args.out / "transfer.json", json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
