"""``python -m tuning.run``: tune a heuristic's weights, q and depth by self-play, confirm, export.

An Optuna study whose trials are candidate configurations playing paired
games (each opening twice, colours swapped) against a gauntlet of opponents:
by default every shipped evaluator at its default weights and every shipped
tuned file for the game, all at the same node budget (:mod:`tuning.gauntlet`),
so a tune must beat the strongest agents the project ships, not only its
own starting point; ``--baseline`` makes it a one-member gauntlet.

1. **Search.**  The space is every weight of the heuristic within its
   registered bounds plus ``branching`` (q) and ``depth`` (``--tune``).  The
   incumbent (below), then the paper's defaults, are the first trials.  By default both sides get the same
   node budget per move (``--nodes``), so depth and q trade off inside it
   instead of "deeper always wins"; ``--mode pareto`` instead maximises the
   score and minimises nodes per move (two objectives, no budget).  Each
   trial reports after every pair, so the pruner stops hopeless trials.
2. **Confirmation.**  The best trials of the search were selected on noisy
   results and look better than they are (the winner's curse).  The top
   ``--confirm-top`` are replayed with fresh games on held-out openings the
   search never saw, each opening against every opponent; a candidate is
   accepted only if the 95% lower bound of its pooled Elo is above 0 and no
   opponent is significantly stronger (no member's interval lies below
   1/2).  The intervals are :func:`tuning.stats.score_interval`'s, which do
   not collapse on a handful of one-sided games.
3. **The incumbent.**  Beating the gauntlet is not beating what the user
   already has.  When the game and heuristic have a shipped tuned file
   (``weights/<game>-<heuristic>-tuned.json``) or ``--incumbent FILE`` names
   one, that file is the champion: its point is the first trial (SPSA's
   starting theta), and the accepted candidate is exported only after it
   beats the incumbent itself in an SPRT on normalised Elo
   ``--incumbent-sprt`` (default ``0,5``, alpha = beta = 0.05) capped at
   ``--incumbent-pairs`` pairs, on fresh openings (see
   :mod:`tuning._incumbent`).  Otherwise the verdict is "no improvement
   over <incumbent>: Elo x [lo, hi]", exit code 3 and no advice to ship.
   Without an incumbent (``--incumbent none``) the accepted candidate is
   exported.  Otherwise the run says why, keeps the candidate in the run
   directory, and exits with code 3.
4. **Output.**  The weight file (``--out``, provenance included), and a run
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
are written atomically.  See :mod:`tuning._study`.  A study that already
holds ``--trials`` finished trials and a verdict is not replayed: the same
command says it is complete and repeats the recorded verdict and exit code;
one that changes a check after the search (``--confirm-pairs``, ``--confirm-top``,
``--incumbent-pairs``, ``--incumbent-sprt``, ``--out``) plays that check
(the same seed replays the games already played, then goes on).

Exit codes: 0 a confirmed improvement (over the incumbent, when there is one) was exported; 3 none was found;
2 bad input; 130 interrupted (Ctrl-C); 143 terminated (SIGTERM: the same clean stop as Ctrl-C).
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
from tuning._incumbent import INCUMBENT_SEED_OFFSET, Challenge, challenge
from tuning._objective import MatchObjective, ObjectiveFactory, SPSAObjective
from tuning._report import (
    choose,
    confirmation_rows,
    csv_text,
    print_table,
    strongest,
    summary_markdown,
    trial_rows,
    write_plots,
)
from tuning._setup import Setup, open_study, prepare
from tuning._sigint import EXIT_INTERRUPTED, EXIT_TERMINATED, Terminated, exit_at_once_on_ctrl_c, exit_code, sigterm_as_interrupt
from tuning._study import finished, recover, redact, stop_at
from tuning.config import (
    GAUNTLETS,
    LABEL_SOURCES,
    MODES,
    PRUNERS,
    QUICK,
    WARM_STARTS,
    TuneConfig,
    parse_depth_range,
    parse_tune,
)
from tuning.labels import game_args
from tuning.match import MatchRunner
from tuning.openings import write_text_atomic
from tuning.progress import Progress, say
from tuning.samplers import SAMPLERS
from tuning.spsa import SPSASampler
from tuning.stats import Sprt, parse_sprt

EXIT_NO_IMPROVEMENT = 3
"""Exit code when no candidate confirms a significant improvement."""
VERDICT_KEY = "verdict"
"""Study attribute holding the last finished run's exit code, verdict and advice (what a re-run reports)."""

__all__ = ["EXIT_INTERRUPTED", "EXIT_NO_IMPROVEMENT", "EXIT_TERMINATED", "Progress", "TuneConfig", "main", "tune"]


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
    recorded = study.user_attrs.get(VERDICT_KEY)
    if not remaining and isinstance(recorded, dict) and recorded.get("checks") == _checks(setup) and not (failed or queued):
        return _complete(setup, done, recorded)
    if not created:
        say(f"resuming study {setup.study_name!r} in {redact(config.storage)}: {done} finished trials"
            + (f", {failed} of a dead process failed" if failed else "") + (f", {queued} queued again" if queued else "")
            + f"; {remaining} more to reach --trials {config.trials}")  # fmt: skip
    tail = 2 * config.confirm_top * config.confirm_pairs * len(setup.opponents)
    tail += 2 * config.incumbent_pairs if setup.incumbent is not None else 0
    progress = Progress(remaining * config.pairs * 2 + tail, config.progress, trials=remaining, tail=tail,
                        timeout=config.timeout)
    started = time.perf_counter()
    try:
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
            progress.replan(tail)  # trials other workers ran or a timeout cut off are not ours to play
            confirmations = confirm(setup, study, runner, progress)
            best = _best(confirmations)
            versus = _challenge(setup, study, runner, progress, best) if best is not None and best.accepted else None
    except BaseException:
        progress.abandon()  # the message about it starts on a line of its own
        raise
    progress.close()
    seconds = time.perf_counter() - started
    write_text_atomic(setup.run_dir / "trials.csv", csv_text(trial_rows(study)))
    write_text_atomic(setup.run_dir / "confirmation.csv", csv_text(confirmation_rows(confirmations)))
    code, verdict = _verdict(setup, study, best, versus)
    advice = f"To ship it: cp {setup.out} weights/" if code == 0 and not _in_weights(setup.out) else None
    next_steps = _next_steps(setup, versus, code)
    notes = write_plots(study, setup.run_dir, setup, confirmations)
    write_text_atomic(setup.run_dir / "summary.md", summary_markdown(setup, study, confirmations, verdict, notes, seconds,
                                                                      progress.games, next_steps))  # fmt: skip
    study.set_user_attr(VERDICT_KEY, {"code": code, "verdict": verdict, "advice": advice, "next": next_steps,
                                      "trials": finished(study), "checks": _checks(setup)})  # fmt: skip
    print_table(confirmations)
    print(verdict)
    for line in next_steps:
        print(f"  {line}")
    print(f"{progress.games} games in {seconds:.0f} s ({progress.rate:.1f} games/s); run folder {setup.run_dir}")
    print(f"Browse the study (pip install optuna-dashboard): optuna-dashboard {redact(config.storage)}")
    if advice:
        print(advice)
    return code


def _in_weights(path: Path) -> bool:
    return path.resolve().parent == Path("weights").resolve()


def _checks(setup: Setup) -> dict[str, Any]:
    """The settings of the checks after the search: a re-run that changes one (say, a longer incumbent test) plays it."""
    c = setup.config
    return {"confirm_top": c.confirm_top, "confirm_pairs": c.confirm_pairs, "incumbent_pairs": c.incumbent_pairs,
            "incumbent_sprt": list(c.incumbent_sprt), "incumbent": setup.incumbent.spec if setup.incumbent else None,
            "out": str(setup.out)}  # fmt: skip


def _complete(setup: Setup, done: int, recorded: dict[str, Any]) -> int:
    """A finished study run again: its recorded verdict, no game, no file rewritten."""
    print(f"study {setup.study_name!r} complete ({done} finished trials; raise --trials to continue). "
          f"Its record: {setup.run_dir / 'summary.md'}")  # fmt: skip
    print(recorded.get("verdict", ""))
    for line in recorded.get("next") or []:
        print(f"  {line}")
    if recorded.get("advice"):
        print(recorded["advice"])
    code = recorded.get("code")
    return code if isinstance(code, int) else EXIT_NO_IMPROVEMENT


def _best(confirmations: list[Confirmation]) -> Optional[Confirmation]:
    """The confirmation to export: the best accepted one, else the best of all (to explain why not); best by the
    lower bound against its strongest opponent, then pooled (:func:`tuning._report.choose`)."""
    return choose(confirmations)


def _challenge(setup: Setup, study: optuna.Study, runner: MatchRunner, progress: Progress,
               best: Confirmation) -> Optional[Challenge]:  # fmt: skip
    """The SPRT of the best confirmed candidate against the incumbent (None without an incumbent)."""
    incumbent, config = setup.incumbent, setup.config
    if incumbent is None:
        return None
    sprt = Sprt(*config.incumbent_sprt)
    return challenge(study, runner, progress, setup.game, setup.book, incumbent, best.trial.number, best.candidate.spec(),
                     sprt, config.incumbent_pairs, config.seed + INCUMBENT_SEED_OFFSET)  # fmt: skip


def _evaluate_spsa_theta(setup: Setup, study: optuna.Study, objective: Any) -> None:
    """Score SPSA's current theta against the opponents as one ordinary trial (once per theta): the one to confirm;
    and the fit, SPSA's start, likewise (once), so the confirmation can prefer it when the steps did not help."""
    assert isinstance(study.sampler, SPSASampler)
    theta = study.sampler.current(study, setup.space.distributions())
    points = [(theta, {"spsa": "final"})] + ([(setup.warm, {"start": "texel fit"})] if setup.warm is not None else [])
    for point, attrs in points:
        key, value = next(iter(attrs.items()))
        done = [t for t in study.get_trials(deepcopy=False) if t.user_attrs.get(key) == value and t.params == point]
        if not done:
            study.enqueue_trial(point, user_attrs=attrs)
            study.optimize(objective, n_trials=1, catch=(), gc_after_trial=False)


def _margins(setup: Setup, best: Confirmation) -> str:
    """``Elo +35.7 [-6.1, +77.4] over threats, the strongest of the 7 opponents (+177.9 [...] over all 7 together)``:
    the strongest member first, since a pool carried by weak members says little."""
    e, m = best.estimate, strongest(best)
    pooled = _elo(e.elo, e.elo_low, e.elo_high)
    if len(setup.opponents) == 1:
        return f"{pooled} over the baseline"
    s = m.estimate
    return (f"{_elo(s.elo, s.elo_low, s.elo_high)} over {m.name}, the strongest of the {len(setup.opponents)} "
            f"opponents ({pooled} over all {len(setup.opponents)} together)")


def _elo(elo: float, low: float, high: float) -> str:
    """``Elo +35.7 [-6.1, +77.4]`` (an even score shows as +0.0, not -0.0)."""
    return f"Elo {elo + 0.0:+.1f} [{low + 0.0:+.1f}, {high + 0.0:+.1f}]"


def _verdict(setup: Setup, study: optuna.Study, best: Optional[Confirmation],
             versus: Optional[Challenge]) -> tuple[int, str]:  # fmt: skip
    """Export ``best`` if it is accepted (and beat the incumbent, when there is one); ``(exit code, verdict)``.

    Every verdict leads with the margin over the strongest opponent (:func:`tuning._report.strongest`).
    """
    if best is None:
        return EXIT_NO_IMPROVEMENT, "No trial completed, so nothing was confirmed or exported."
    save_weights(best.candidate.weight_file(setup.game, {"trial": best.trial.number, "study": setup.study_name}),
                 setup.run_dir / "candidate.json")  # fmt: skip
    e = best.estimate
    margins = _margins(setup, best)
    kept = f"Nothing exported; the candidate is kept in {setup.run_dir / 'candidate.json'}."
    if best.accepted and setup.incumbent is not None and (versus is None or not versus.beaten):
        assert versus is not None
        return EXIT_NO_IMPROVEMENT, (f"No improvement over {setup.incumbent.name}: {versus.describe(setup.incumbent)}. "
                                     f"(Trial {best.trial.number} confirmed: {margins}.) {kept}")  # fmt: skip
    if best.accepted:
        path = export(setup, study, best, setup.out, versus)
        beaten = f"; it beat {setup.incumbent.name}: {versus.describe(setup.incumbent)}" if versus and setup.incumbent else ""
        return 0, (f"Trial {best.trial.number} confirmed: {margins} on {e.n} held-out pairs, and worse than none of "
                   f"them{beaten}. Exported to {path}.")  # fmt: skip
    reasons = []
    if e.elo_low <= 0:
        reasons.append(f"a pooled 95% lower bound not above 0 ({e.elo_low:+.1f})")
    reasons += [f"it loses to {m.name} ({m.estimate.elo:+.1f} [{m.estimate.elo_low:+.1f}, {m.estimate.elo_high:+.1f}])"
                for m in best.losing_to()]  # fmt: skip
    return EXIT_NO_IMPROVEMENT, (
        f"No significant improvement: the best confirmation, trial {best.trial.number}, scored {margins}, with "
        + "; ".join(reasons) + f". {kept}")  # fmt: skip


def _next_steps(setup: Setup, versus: Optional[Challenge], code: int) -> list[str]:
    """Plain words after a verdict that keeps the user's file: it is a result, and what to try next."""
    config = setup.config
    if code == 0:
        return []
    keep = setup.incumbent.name if setup.incumbent is not None else "what you have"
    steps = [f"This is a result, not a failure: {config.trials} trial{'s' if config.trials != 1 else ''} found nothing that beats {keep} by a margin "
             f"these games can show, so keep {keep}: it is still the best you have."]  # fmt: skip
    if config.quick:
        return steps[:0] + ["This was a quick look (--quick): its few games cannot show a real gain. Run the same "
                            "command without --quick for a test that can."]  # fmt: skip
    if versus is not None and versus.verdict == "cap":
        steps.append(f"The test against {keep} reached its cap undecided: the same command with --incumbent-pairs "
                     f"{4 * versus.cap} plays only that test, longer (the search is not replayed).")  # fmt: skip
    steps.append(f"To look further: the same command with --trials {2 * config.trials} carries the study on.")
    if setup.fit is None:
        steps.append("A fit to labelled positions gave the shipped Connect-4 file most of its gain: give this board "
                     f"labels (python -m tuning.labels {game_args(setup.game)} --time 600) and run with a new --study.")  # fmt: skip
    else:
        steps.append(f"More labels make a better fit: python -m tuning.labels {game_args(setup.game)} --time 900 "
                     "replaces the cached set; then run with a new --study.")  # fmt: skip
    others = " or ".join(f"--sampler {name}" for name in ("spsa", "cmaes", "tpe") if name != config.sampler_name)
    steps.append(f"Another sampler may find what this one missed: {others} (a new --study).")
    return steps


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
    g.add_argument("--gauntlet", choices=GAUNTLETS,
                   help="all: every evaluator's defaults and every shipped tuned file for the game (default); "
                   "defaults: the evaluators' defaults only")
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
    t.add_argument("--quick", action="store_true",
                   help="a quick look within about a minute: " + ", ".join(f"--{k.replace('_', '-')} {v:g}" for k, v in QUICK.items())
                   + " (options given override these), a study of its own; it shows that the pipeline runs on your board "
                   "and how fast, not whether a change is better")
    t.add_argument("--trials", type=int,
                   help="the study's target: run trials until the study holds this many finished (complete or pruned) "
                   f"trials, counting earlier runs and other workers on it (default {_default('trials')})")
    t.add_argument("--timeout", type=float, help="stop starting new trials after this many seconds")
    t.add_argument("--pairs", type=int, help=f"game pairs per trial, at most (default {_default('pairs')})")
    t.add_argument("--sampler", choices=SAMPLERS, help="default spsa, around the fit (nsga2 in pareto mode)")
    t.add_argument("--pruner", choices=PRUNERS, help="default wilcoxon (none in pareto mode)")
    t.add_argument("--storage", help=f"Optuna storage URL (default {_default('storage')})")
    t.add_argument("--study", help="study name (default <game>-<heuristic>-<mode>); the same name resumes")
    t.add_argument("--seed", type=int, help="default 0")
    t.add_argument("--workers", type=int, help="worker processes, at least 1 (default: all cores)")
    c = p.add_argument_group("openings and confirmation")
    c.add_argument("--plies", type=int, help=f"random plies per opening (default {_default('plies')})")
    c.add_argument("--confirm-top", type=int, help=f"best trials replayed on held-out openings (default {_default('confirm_top')})")
    c.add_argument("--confirm-pairs", type=int, help=f"pairs per confirmation (default {_default('confirm_pairs')})")
    c.add_argument("--incumbent", metavar="FILE",
                   help="the weight file a result must beat in an SPRT to be exported; 'defaults' for the evaluator's "
                   "defaults, 'none' for no such test (default: the shipped weights/<game>-<heuristic>-tuned.json, "
                   "else the evaluator's defaults)")
    c.add_argument("--incumbent-pairs", type=int,
                   help=f"cap of the SPRT against the incumbent, in pairs (default {_default('incumbent_pairs')})")
    c.add_argument("--incumbent-sprt", metavar="ELO0,ELO1",
                   help="that SPRT's normalised-Elo bounds (default %g,%g)" % _default("incumbent_sprt"))
    f = p.add_argument_group("labels and fit (Texel's method; the fit comes first, the search looks around it)")
    f.add_argument("--warm-start", choices=WARM_STARTS,
                   help="auto: fit the weights to the board's labelled positions wherever labels exist or can be made "
                   "within --label-budget (default); fit: the same, or an error before anything is drawn; none: no fit")
    f.add_argument("--labels", metavar="FILE", help="a label file to fit to (default: the board's shipped or cached set, "
                   "made if missing; see python -m tuning.labels)")
    f.add_argument("--label-source", choices=LABEL_SOURCES,
                   help="how missing labels are made (default auto: the exact solver where it is fast, else deep search)")
    f.add_argument("--label-budget", type=float, metavar="SECONDS",
                   help=f"time allowed to make missing labels (default {_default('label_budget'):g}; 0: use existing ones only)")
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
    if options["incumbent_sprt"] is not None:
        options["incumbent_sprt"] = parse_sprt(options["incumbent_sprt"])
    for name in ("out", "run_dir"):
        options[name] = Path(options[name]) if options[name] is not None else None
    return TuneConfig.from_options(options)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``python -m tuning.run``."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        with sigterm_as_interrupt():  # timeout, kill and job schedulers end the run as Ctrl-C does
            try:
                # nothing to clean up yet, and numba's compiler would swallow a KeyboardInterrupt: leave at once
                with exit_at_once_on_ctrl_c("tuning.run: interrupted during start-up; nothing was played or stored"):
                    setup = prepare(config_from_args(args))
            except (ValueError, GameError, HeuristicError, AgentSpecError, OSError) as error:
                parser.error(str(error))
            try:
                return _optimise_and_report(setup, MatchObjective)
            except ValueError as error:  # settings that clash with a resumed study
                parser.error(str(error))
    except KeyboardInterrupt as interrupt:
        what = "terminated (SIGTERM)" if isinstance(interrupt, Terminated) else "interrupted"
        say(f"{what}. The study keeps every finished trial and confirmation; the trial under way is failed "
            "and queued again, and the match workers are stopped. Run the same command to resume.")  # fmt: skip
        return exit_code(interrupt)
    return 2


if __name__ == "__main__":
    sys.exit(main())
