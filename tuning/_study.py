"""The tuner's study and storage: safe URLs, create-or-resume, dead trials, retries, sampler seeds.

Private to :mod:`tuning.run`.  What it guarantees, for one process or many on one study:

- **No secret leaves the URL.**  :func:`redact` parses with SQLAlchemy's own
  ``make_url`` (the parser Optuna's storage uses) and hides the password,
  every password-like query argument, and a password whose unescaped ``@``
  made the parser take part of it for the host.
- **The paper's defaults are queued once.**  Only the process whose
  ``create_study`` call made the study queues them; a process that finds the
  study made (two workers starting together) does not, so no race can queue
  them twice.
- **New configurations on a resume.**  A fresh study's sampler is seeded with
  ``--seed`` (the run is reproducible); a process that joins or resumes a study
  gets a seed derived from ``--seed``, the study's trial count and fresh
  entropy, so it does not replay the proposals of the run that made the study.
- **No trial left RUNNING, none lost.**  Every trial records its owner (host,
  process id, process start time).  At start-up a RUNNING trial whose owner
  process on this host is gone is failed at once; trials of other hosts are
  failed by Optuna's heartbeat once stale.  Failed trials (killed, interrupted,
  crashed) are queued again with their parameters, at most
  :data:`MAX_RETRY` times each (Optuna's ``RetryHeartbeatStaleTrialCallback``).
"""

from __future__ import annotations

import os
import secrets
import socket
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import numpy as np
import optuna
from optuna.storages import RetryHeartbeatStaleTrialCallback
from optuna.trial import FrozenTrial, TrialState

HEARTBEAT_SECONDS = 10
GRACE_SECONDS = 60
"""A RUNNING trial whose heartbeat is this old belongs to a dead process and is failed (other hosts)."""
MAX_RETRY = 2
"""How often a failed trial is queued again with the same parameters."""
OWNER_KEY = "alphabeta:owner"
TABLE_RACES = ("duplicate key", "already exists", "UNIQUE constraint failed")
"""How PostgreSQL and SQLite say that another process created Optuna's tables first."""
SECRET_QUERY_WORDS = ("pass", "secret", "token")
"""Query arguments whose name contains one of these are hidden (password, sslpassword, ...)."""


def redact(url: str) -> str:
    """``url`` with its password and secret query arguments shown as ``***``.

    Example:
        >>> redact("postgresql://user:hunter2@db.example/optuna?sslpassword=x&sslmode=require")
        'postgresql://user:***@db.example/optuna?sslmode=require&sslpassword=***'
        >>> redact("postgresql://user@db.example/optuna?password=hunter2")
        'postgresql://user@db.example/optuna?password=***'
        >>> redact("sqlite:///runs/tuning.db")
        'sqlite:///runs/tuning.db'
    """
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:  # not a URL at all: show only its scheme, whatever else it holds
        scheme = url.split("://", 1)[0] if "://" in url else "?"
        return f"{scheme}://*** (unparseable URL)"
    secret_keys = [key for key in parsed.query if any(word in key.lower() for word in SECRET_QUERY_WORDS)]
    host_has_at = parsed.host is not None and "@" in parsed.host
    if parsed.password is None and not secret_keys and not host_has_at:
        return url  # nothing to hide: keep the user's own spelling
    if host_has_at:  # "u:p@ss@host": the parser stopped the password at the first '@'
        parsed = parsed.set(host=parsed.host.rsplit("@", 1)[1] if parsed.host else None, password="***")
    if secret_keys:
        parsed = parsed.update_query_dict({key: "***" for key in secret_keys})
    return parsed.render_as_string(hide_password=True).replace("%2A%2A%2A", "***")


def check_url(url: str) -> None:
    """Refuse a URL whose password holds an unescaped ``@`` (it would be read as part of the host)."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception as error:
        raise ValueError(f"--storage {redact(url)}: not a database URL ({type(error).__name__})") from None
    if parsed.host is not None and "@" in parsed.host:
        raise ValueError(f"--storage {redact(url)}: the password holds an unescaped '@'; write it as %40")


def check_writable(path: Path) -> None:
    """Fail now, not after an hour of games, if ``path`` cannot be written: a probe file in its nearest existing
    folder, removed at once.  No folder is made (a run refused later leaves nothing behind)."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        if not folder.is_dir():
            raise NotADirectoryError(20, f"{folder} is not a folder")
        handle, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=folder)
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        raise ValueError(f"cannot write {path}: {error.strerror or error}") from None
    if path.is_dir():
        raise ValueError(f"cannot write {path}: it is a folder")


def open_storage(url: str) -> optuna.storages.RDBStorage:
    """An RDB storage with heartbeats and retries of failed trials; one-line, password-free errors."""
    check_url(url)
    if url.startswith("sqlite:///"):
        path = Path(url[len("sqlite:///") :].split("?", 1)[0])
        if str(path) not in ("", ":memory:"):
            check_writable(path)
            path.parent.mkdir(parents=True, exist_ok=True)  # SQLite makes the file, not its folder
    engine_kwargs = {"connect_args": {"timeout": 60}} if url.startswith("sqlite") else {"pool_pre_ping": True}
    for attempt in range(5):
        try:
            with warnings.catch_warnings():  # heartbeats are experimental in Optuna, relied on knowingly
                warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                return optuna.storages.RDBStorage(
                    url,
                    engine_kwargs=engine_kwargs,
                    heartbeat_interval=HEARTBEAT_SECONDS,
                    grace_period=GRACE_SECONDS,
                    heartbeat_stale_trial_callback=RetryHeartbeatStaleTrialCallback(max_retry=MAX_RETRY),
                )
        except Exception as error:  # sqlalchemy's errors, a missing driver, a bad URL: all one-line messages here
            text = str(error)
            # Two processes creating Optuna's tables at once: the loser retries and finds them made.
            if any(race in text for race in TABLE_RACES) and attempt < 4:
                time.sleep(0.5 * (attempt + 1))
                continue
            first = text.strip().splitlines()[0] if text.strip() else type(error).__name__
            raise ValueError(f"cannot open storage {redact(url)}: {_scrub(first, url)}") from None
    raise AssertionError("unreachable")


def _scrub(text: str, url: str) -> str:
    """``text`` with every secret of ``url`` replaced, for driver messages that quote the URL or its parts."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:
        return text
    secrets_found = [parsed.password] if parsed.password else []
    secrets_found += [str(v) for k, v in parsed.query.items() if any(w in k.lower() for w in SECRET_QUERY_WORDS)]
    if parsed.host and "@" in parsed.host:
        secrets_found.append(parsed.host.rsplit("@", 1)[0])
    text = text.replace(url, redact(url))
    for secret in filter(None, secrets_found):
        text = text.replace(secret, "***")
    return text


def create_or_load(
    storage: optuna.storages.BaseStorage,
    name: str,
    directions: Sequence[optuna.study.StudyDirection],
    pruner: optuna.pruners.BasePruner,
) -> tuple[optuna.Study, bool]:
    """``(study, created)``: ``created`` is True only in the one process whose call made the study."""
    try:
        study = optuna.create_study(storage=storage, study_name=name, pruner=pruner, directions=list(directions))
        return study, True
    except optuna.exceptions.DuplicatedStudyError:
        return optuna.load_study(study_name=name, storage=storage, pruner=pruner), False


def sampler_seed(seed: int, created: bool, trials: int) -> int:
    """``seed`` for a fresh study; for a joined or resumed one, a new seed drawn from it and fresh entropy."""
    if created:
        return seed
    sequence = np.random.SeedSequence([seed & 0xFFFFFFFF, trials, secrets.randbits(64)])
    return int(sequence.generate_state(1)[0])


def _process_start(pid: int) -> Optional[str]:
    """The kernel's start time of ``pid`` (Linux), which tells a live process from a recycled pid."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]  # field 22, counted after the parenthesised command name


def owner() -> dict[str, Any]:
    """This process as the owner of a trial."""
    return {"host": socket.gethostname(), "pid": os.getpid(), "start": _process_start(os.getpid())}


def claim(study: optuna.Study, trial: optuna.Trial) -> None:
    """Record that this process runs ``trial``."""
    study._storage.set_trial_system_attr(trial._trial_id, OWNER_KEY, owner())


def _owner_is_dead(record: Any) -> bool:
    if not isinstance(record, dict) or record.get("host") != socket.gethostname():
        return False  # another machine's trial: its heartbeat decides
    pid = record.get("pid")
    if not isinstance(pid, int):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, another user's
        return False
    started = record.get("start")
    return started is not None and _process_start(pid) != started  # the pid was recycled


def recover(study: optuna.Study) -> tuple[int, int]:
    """Fail the RUNNING trials of dead processes and queue every failed trial again; ``(failed, queued)``.

    Trials whose owner ran on this host are checked by process id now;
    Optuna's heartbeat covers the rest.  A failed trial is queued again unless
    it was already retried or has used up :data:`MAX_RETRY`.
    """
    storage = study._storage
    with warnings.catch_warnings():  # experimental in Optuna, relied on knowingly (tested here)
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        optuna.storages.fail_stale_trials(study)  # other hosts' (and this one's) stale heartbeats
        retry = RetryHeartbeatStaleTrialCallback(max_retry=MAX_RETRY)
    failed = 0
    for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        if _owner_is_dead(trial.system_attrs.get(OWNER_KEY)):
            try:
                if storage.set_trial_state_values(trial._trial_id, state=TrialState.FAIL):
                    failed += 1
            except optuna.exceptions.UpdateFinishedTrialError:  # another process failed it first
                pass
    trials = study.get_trials(deepcopy=False)
    # a retry's history lists every trial it repeats, so a number found there was queued again already
    retried = {n for t in trials for n in t.system_attrs.get("retry_history", [])}
    queued = 0
    for trial in trials:
        if trial.state == TrialState.FAIL and trial.number not in retried and trial.params:
            before = len(study.get_trials(deepcopy=False))
            retry(study, trial)
            queued += len(study.get_trials(deepcopy=False)) - before
    return failed, queued


def finished(study: optuna.Study) -> int:
    """Trials that count toward ``--trials``: complete and pruned (failed ones are retried instead)."""
    return len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED)))


def stop_at(total: int) -> Callable[[optuna.Study, FrozenTrial], None]:
    """A callback that stops this process once the study holds ``total`` finished trials (all workers')."""
    return optuna.study.MaxTrialsCallback(total, states=(TrialState.COMPLETE, TrialState.PRUNED))
