"""``python -m tuning.run``: tune a heuristic's weights, q and depth by self-play, confirm, export.

An Optuna study whose trials are candidate configurations playing paired
games (each opening twice, colours swapped) against a gauntlet of opponents:
by default every shipped evaluator at its default weights and every shipped
tuned file for the game, all at the same node budget (:mod:`tuning.gauntlet`),
so a tune must beat the strongest agents the project ships, not only its
own starting point; ``--baseline`` makes it a one-member gauntlet.

1. **Search.**  The space is every weight of the heuristic within its
   registered bounds plus ``branching`` (q) and ``depth`` (``--tune``).  The
   paper's defaults are the first trial.  By default both sides get the same
   node budget per move (``--nodes``), so depth and q trade off inside it
   instead of "deeper always wins"; ``--mode pareto`` instead maximises the
   score and minimises nodes per move (two objectives, no budget).  Each
   trial reports after every pair, so the pruner stops hopeless trials.
2. **Confirmation.**  The best trials of the search were selected on noisy
   results and look better than they are (the winner's curse).  The top
   ``--confirm-top`` are replayed with fresh games on held-out openings the
   search never saw, each opening against every opponent; the best is
   exported only if the 95% lower bound of its pooled Elo is above 0 and no
   opponent is significantly stronger (no member's interval lies below
   1/2).  Otherwise the run says why, keeps the candidate in the run
   directory, and exits with code 3.
3. **Output.**  The weight file (``--out``, provenance included), and a run
   directory with the openings, ``trials.csv``, ``confirmation.csv``,
   ``summary.md`` and PNG plots.

The study lives in an Optuna storage (``sqlite:///runs/tuning.db`` by
default).  ``--trials N`` is the study's target: a run plays trials until
the study holds N finished (complete or pruned) trials, its own and those
of earlier runs and other workers, so re-running the same command after a
kill finishes the job instead of doubling it.  Several processes or
machines running the same command against one storage (a PostgreSQL URL
across machines) share the study.  A run killed mid-trial loses nothing: the
storage commits trial by trial, a dead process's RUNNING trial is failed
(at once on the same host, by the heartbeat elsewhere) and queued again,
confirmations already played are stored in the study and reused, and files
are written atomically.  See :mod:`tuning._study`.

Exit codes: 0 a confirmed improvement was exported; 3 none was found; 2 bad input; 130 interrupted.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from dataclasses import fields
from pathlib import Path
from typing import Any, Optional, Sequence

import optuna
from optuna.exceptions import ExperimentalWarning

from games.cli import add_game_arguments
from games.errors import GameError
from heuristics import save_weights
from heuristics.errors import HeuristicError
from search.agents import AgentSpecError
from tuning._confirm import Confirmation, confirm, export
from tuning._objective import MatchObjective, ObjectiveFactory
from tuning._report import Progress, confirmation_rows, csv_text, print_table, say, summary_markdown, trial_rows, write_plots
from tuning._setup import Setup, open_study, prepare
from tuning._study import finished, recover, redact, stop_at
from tuning.config import MODES, PRUNERS, WARM_STARTS, TuneConfig, parse_depth_range, parse_tune
from tuning.match import MatchRunner
from tuning.openings import write_text_atomic
from tuning.samplers import SAMPLERS
from tuning.spsa import SPSAObjective, SPSASampler

EXIT_NO_IMPROVEMENT = 3
"""Exit code when no candidate confirms a significant improvement."""
EXIT_INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT), as shells report it."""

__all__ = ["EXIT_INTERRUPTED", "EXIT_NO_IMPROVEMENT", "Progress", "TuneConfig", "main", "tune"]


def tune(config: TuneConfig, objective_factory: ObjectiveFactory = MatchObjective) -> int:
    """Run a whole tuning job: prepare, optimise, confirm, export, report; returns the exit code.

    Args:
        config: what to do.
        objective_factory: builds the trial objective from ``(setup, study, runner, progress)``;
            the default plays the candidate against the baseline (:class:`tuning._objective.MatchObjective`).

    Raises:
        ValueError: bad settings, or a study created with other settings (one-line messages).
    """
    return _optimise_and_report(prepare(config), objective_factory)


def _optimise_and_report(setup: Setup, objective_factory: ObjectiveFactory) -> int:
    # heartbeats and the Wilcoxon pruner are marked experimental; the run relies on them knowingly
    warnings.filterwarnings("ignore", category=ExperimentalWarning)
    # Optuna logs every trial at INFO and a failed trial with its traceback at WARNING: the progress bar and the
    # tables say what happened, a trial failed by Ctrl-C gets one line of ours, and any other failure is raised
    # (catch=()) with its traceback anyway
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    config = setup.config
    study, created = open_study(setup)
    setup.book.save(setup.run_dir / "openings.json")
    failed, queued = recover(study)
    done = finished(study)
    remaining = max(0, config.trials - done)
    if not created:
        say(f"resuming study {setup.study_name!r} in {redact(config.storage)}: {done} finished trials"
            + (f", {failed} of a dead process failed" if failed else "") + (f", {queued} queued again" if queued else "")
            + f"; {remaining} more to reach --trials {config.trials}")  # fmt: skip
    confirm_games = 2 * config.confirm_top * config.confirm_pairs * len(setup.opponents)
    progress = Progress(remaining * config.pairs * 2 + confirm_games, config.progress)
    started = time.perf_counter()
    spsa = isinstance(study.sampler, SPSASampler)
    with MatchRunner(config.workers) as runner:
        if remaining:
            objective = (SPSAObjective if spsa else objective_factory)(setup, study, runner, progress)
            study.optimize(objective, n_trials=remaining, timeout=config.timeout, callbacks=[stop_at(config.trials)],
                           catch=(), gc_after_trial=False)  # fmt: skip
        if spsa:
            final = objective_factory(setup, study, runner, progress)
            if isinstance(final, MatchObjective):
                final.prune = False  # one trial, scored in full: there is nothing to compare it with
            _evaluate_spsa_theta(setup, study, final)
        progress.replan(confirm_games)  # trials other workers ran or a timeout cut off are not ours to play
        confirmations = confirm(setup, study, runner, progress)
    progress.close()
    seconds = time.perf_counter() - started
    write_text_atomic(setup.run_dir / "trials.csv", csv_text(trial_rows(study)))
    write_text_atomic(setup.run_dir / "confirmation.csv", csv_text(confirmation_rows(confirmations)))
    code, verdict = _verdict(setup, study, confirmations)
    notes = write_plots(study, setup.run_dir)
    write_text_atomic(setup.run_dir / "summary.md",
                      summary_markdown(setup, study, confirmations, verdict, notes, seconds, progress.games))  # fmt: skip
    print_table(confirmations)
    print(verdict)
    print(f"{progress.games} games in {seconds:.0f} s ({progress.rate:.1f} games/s); run folder {setup.run_dir}")
    print(f"Browse the study (pip install optuna-dashboard): optuna-dashboard {redact(config.storage)}")
    if code == 0 and setup.out.resolve().parent != Path("weights").resolve():
        print(f"To ship it: cp {setup.out} weights/")
    return code


def _evaluate_spsa_theta(setup: Setup, study: optuna.Study, objective: Any) -> None:
    """Score SPSA's current theta against the opponents as one ordinary trial (once per theta): the one to confirm."""
    assert isinstance(study.sampler, SPSASampler)
    theta = study.sampler.current(study, setup.space.distributions())
    done = [t for t in study.get_trials(deepcopy=False) if t.user_attrs.get("spsa") == "final" and t.params == theta]
    if not done:
        study.enqueue_trial(theta, user_attrs={"spsa": "final"})
        study.optimize(objective, n_trials=1, catch=(), gc_after_trial=False)


def _verdict(setup: Setup, study: optuna.Study, confirmations: list[Confirmation]) -> tuple[int, str]:
    """Export the best accepted confirmation (see :attr:`Confirmation.accepted`); ``(exit code, verdict)``."""
    accepted = [c for c in confirmations if c.accepted]
    best = max(accepted or confirmations, key=lambda c: (c.estimate.elo_low, c.estimate.elo), default=None)
    if best is None:
        return EXIT_NO_IMPROVEMENT, "No trial completed, so nothing was confirmed or exported."
    save_weights(best.candidate.weight_file(setup.game, {"trial": best.trial.number, "study": setup.study_name}),
                 setup.run_dir / "candidate.json")  # fmt: skip
    e = best.estimate
    against = "the baseline" if len(setup.opponents) == 1 else f"the {len(setup.opponents)} opponents together"
    if best.accepted:
        path = export(setup, study, best, setup.out)
        return 0, (f"Trial {best.trial.number} confirmed: Elo {e.elo:+.1f} [{e.elo_low:+.1f}, {e.elo_high:+.1f}] "
                   f"over {against} on {e.n} held-out pairs, and worse than none of them. Exported to {path}.")  # fmt: skip
    reasons = []
    if e.elo_low <= 0:
        reasons.append(f"Elo {e.elo:+.1f} [{e.elo_low:+.1f}, {e.elo_high:+.1f}] over {against}, whose 95% lower bound "
                       "is not above 0")  # fmt: skip
    reasons += [f"it loses to {m.name} ({m.estimate.elo:+.1f} [{m.estimate.elo_low:+.1f}, {m.estimate.elo_high:+.1f}])"
                for m in best.losing_to()]  # fmt: skip
    return EXIT_NO_IMPROVEMENT, (
        f"No significant improvement: the best confirmation (trial {best.trial.number}) has " + "; ".join(reasons)
        + f". Nothing exported; the candidate is kept in {setup.run_dir / 'candidate.json'}.")  # fmt: skip


def _default(name: str) -> Any:
    return next(f.default for f in fields(TuneConfig) if f.name == name)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m tuning.run",
        description="Tune a heuristic's weights, branching factor and depth by self-play against a baseline "
        "(an Optuna study), confirm the best on held-out openings, and export a weight file.",
    )
    g = p.add_argument_group("game and heuristic")
    add_game_arguments(g, default=None)  # None: TuneConfig's default (connect4), and a resumed study's own
    g.add_argument("--heuristic", help="evaluator to tune (default: threats, which covers every board)")
    g.add_argument("--opponents", nargs="+", metavar="SPEC",
                   help="the gauntlet: weight files (played at the node budget) and agent specs (played as written) "
                   "(default: every evaluator's defaults and every shipped tuned file for the game)")
    g.add_argument("--baseline", help="one weight file or agent spec instead of a gauntlet")
    s = p.add_argument_group("search space and cost")
    s.add_argument("--tune", help=f"what to tune: any of {','.join(_default('tune'))} (default all)")
    s.add_argument("--mode", choices=MODES,
                   help="fair: same node budget for both sides (default); pareto: score vs nodes per move")
    s.add_argument("--nodes", type=int, help=f"node budget per move in fair mode (default {_default('nodes')})")
    s.add_argument("--depth-range", help="depth range searched, 'low,high' (default %d,%d)" % _default("depth_range"))
    s.add_argument("--bounds", help="narrower bounds, 'name=low:high,...' (weights, depth, branching)")
    s.add_argument("--random-every", type=int, help="both sides play a random move every N-th move (diversity)")
    s.add_argument("--radius", type=int, help="m,n,k: both sides consider only cells within this distance of a stone")
    t = p.add_argument_group("study")
    t.add_argument("--trials", type=int,
                   help="the study's target: run trials until the study holds this many finished (complete or pruned) "
                   f"trials, counting earlier runs and other workers on it (default {_default('trials')})")
    t.add_argument("--timeout", type=float, help="stop starting new trials after this many seconds")
    t.add_argument("--pairs", type=int, help=f"game pairs per trial, at most (default {_default('pairs')})")
    t.add_argument("--sampler", choices=SAMPLERS, help="default tpe (nsga2 in pareto mode)")
    t.add_argument("--pruner", choices=PRUNERS, help="default wilcoxon (none in pareto mode)")
    t.add_argument("--storage", help=f"Optuna storage URL (default {_default('storage')})")
    t.add_argument("--study", help="study name (default <game>-<heuristic>-<mode>); the same name resumes")
    t.add_argument("--seed", type=int, help="default 0")
    t.add_argument("--workers", type=int, help="worker processes, at least 1 (default: all cores)")
    c = p.add_argument_group("openings and confirmation")
    c.add_argument("--plies", type=int, help=f"random plies per opening (default {_default('plies')})")
    c.add_argument("--confirm-top", type=int, help=f"best trials replayed on held-out openings (default {_default('confirm_top')})")
    c.add_argument("--confirm-pairs", type=int, help=f"pairs per confirmation (default {_default('confirm_pairs')})")
    c.add_argument("--warm-start", choices=WARM_STARTS,
                   help="fit: also queue the weights fitted to the game's solver-labelled positions (Texel's method) "
                   "as a trial before the study starts; SPSA starts from them (default none)")
    o = p.add_argument_group("output")
    o.add_argument("--out", help="weight file to export (default <run-dir>/<game>-<heuristic>-tuned.json; "
                   "copy it into weights/ to ship it)")
    o.add_argument("--run-dir", help="folder for openings, tables, plots (default runs/<study>)")
    o.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def config_from_args(args: argparse.Namespace) -> TuneConfig:
    """The command line as a :class:`TuneConfig` (raises ValueError naming a bad option)."""
    options = dict(vars(args))
    options["progress"] = not options.pop("no_progress")
    options["opponents"] = tuple(options["opponents"]) if options["opponents"] is not None else None
    options["tune"] = parse_tune(options["tune"]) if options["tune"] is not None else None
    options["depth_range"] = parse_depth_range(options["depth_range"]) if options["depth_range"] is not None else None
    for name in ("out", "run_dir"):
        options[name] = Path(options[name]) if options[name] is not None else None
    return TuneConfig.from_options(options)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``python -m tuning.run``."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        try:
            setup = prepare(config_from_args(args))
        except (ValueError, GameError, HeuristicError, AgentSpecError, OSError) as error:
            parser.error(str(error))
        try:
            return _optimise_and_report(setup, MatchObjective)
        except ValueError as error:  # settings that clash with a resumed study
            parser.error(str(error))
    except KeyboardInterrupt:
        say("interrupted. The study keeps every finished trial and confirmation; the trial under way is failed "
            "and queued again. Run the same command to resume.")  # fmt: skip
        return EXIT_INTERRUPTED
    return 2


if __name__ == "__main__":
    sys.exit(main())
