"""The Study view: a tuning study's progress read from its Optuna storage (SQLite file or PostgreSQL URL).

It shows what the tuner (``python -m tuning.run``) records and a generic dashboard does not know how to
read: each trial's Elo with its 95 % interval from the trial's pentanomial counts of game pairs, the
current best trial, the confirmations on held-out openings and the verdict, and the value of each
weight for the best trial beside the paper defaults and the incumbent.  Optuna's own dashboard
(``optuna-dashboard URL``) is the better tool for the generic plots (parameter importances, parallel
coordinates, contour plots): the page links to it with the command to run.

A password is never shown: URLs are redacted as the tuner redacts them, and a driver's message that
quotes the URL or its secrets is scrubbed.  Reading never creates anything: a SQLite file that does
not exist is refused rather than made.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Optional

from arena import _engine as engine
from arena.errors import BadRequest, NotFound, Unavailable

KEPT_STORAGES = 4
CONNECT_SECONDS = 5
_STORAGES: OrderedDict[str, Any] = OrderedDict()
_LOCK = threading.Lock()


def _scrub(text: str, url: str) -> str:
    """``text`` with ``url`` redacted and its password replaced, for driver messages that quote them."""
    from sqlalchemy.engine import make_url

    text = text.replace(url, engine.redact(url))
    try:
        password = make_url(url).password
    except Exception:  # an unparseable URL: its whole text was replaced above
        return text
    return text.replace(str(password), "***") if password else text


def open_storage(url: str) -> Any:
    """The Optuna storage at ``url``, opened once and kept (SQLite files must exist).

    Raises:
        BadRequest: not a database URL.
        NotFound: a SQLite file that does not exist.
        Unavailable: the database does not answer (the message is one line, without the password).
    """
    import optuna
    from sqlalchemy.engine import make_url

    with _LOCK:
        if url in _STORAGES:
            _STORAGES.move_to_end(url)
            return _STORAGES[url]
    shown = engine.redact(url)
    try:
        parsed = make_url(url)
    except Exception:
        raise BadRequest(f"storage {shown!r} is not a database URL: give sqlite:///path/to/file.db or "
                         "postgresql://user@host/database") from None  # fmt: skip
    if parsed.get_backend_name() == "sqlite":
        path = parsed.database or ""
        if path in ("", ":memory:") or not Path(path).is_file():
            raise NotFound(f"storage {shown!r}: no SQLite file {path!r} (a study's storage is made by python -m tuning.run)")
        connect_args: dict[str, Any] = {"timeout": CONNECT_SECONDS}
    else:
        connect_args = {"connect_timeout": CONNECT_SECONDS}
    try:
        storage = optuna.storages.RDBStorage(url, engine_kwargs={"connect_args": connect_args})
    except Exception as error:  # a driver's error, a missing driver, a refused connection: one line, scrubbed
        text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise Unavailable(f"cannot open storage {shown}: {_scrub(text, url)}") from None
    with _LOCK:
        _STORAGES[url] = storage
        while len(_STORAGES) > KEPT_STORAGES:
            _STORAGES.popitem(last=False)
    return storage


def studies(url: str) -> dict[str, Any]:
    """The studies in a storage: name, trials, directions and the tuner's description of each."""
    storage = open_storage(url)
    found = []
    for summary in storage.get_all_studies():
        attrs = summary.user_attrs
        found.append({"name": summary.study_name, "directions": [d.name.lower() for d in summary.directions],
                      "game": attrs.get("game"), "heuristic": attrs.get("heuristic"), "mode": attrs.get("mode")})  # fmt: skip
    return {"storage": engine.redact(url), "studies": found, "dashboard": dashboard_command(url)}


def dashboard_command(url: str) -> str:
    """The command that opens Optuna's dashboard on this storage (password redacted: type your own)."""
    return f"optuna-dashboard {engine.redact(url)}"


def _finite(value: Any) -> Optional[float]:
    """A finite float, else None (JSON has no infinity: an interval with no losses is open-ended)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return round(number, 2) if math.isfinite(number) else None


def _elo(counts: Any) -> dict[str, Optional[float]]:
    """Elo and its 95 % interval from pentanomial counts (the tuner's statistics), None where undefined."""
    if not isinstance(counts, list) or len(counts) != 5 or sum(counts) == 0:
        return {"elo": None, "elo_low": None, "elo_high": None}
    estimate = engine.pentanomial(counts)
    return {"elo": _finite(estimate.elo), "elo_low": _finite(estimate.elo_low), "elo_high": _finite(estimate.elo_high)}


def _trial_json(trial: Any) -> dict[str, Any]:
    attrs = trial.user_attrs
    return {
        "number": trial.number, "state": trial.state.name.lower(),
        "value": _finite(trial.values[0]) if trial.values else None, **_elo(attrs.get("pentanomial")),
        "pairs": attrs.get("pairs"), "games": attrs.get("games"), "pentanomial": attrs.get("pentanomial"),
        "start": attrs.get("start"), "spec": attrs.get("spec"), "params": {k: _finite(v) for k, v in trial.params.items()},
    }  # fmt: skip


def study(url: str, name: str) -> dict[str, Any]:
    """One study: its trials with Elo intervals, the best trial, the weights, confirmations and verdict.

    Raises:
        NotFound: no study of that name (the message lists the storage's studies).
    """
    import optuna

    storage = open_storage(url)
    names = [s.study_name for s in storage.get_all_studies()]
    if name not in names:
        raise NotFound(f"study {name!r} is not in {engine.redact(url)}: its studies are {', '.join(names) or 'none'}")
    loaded = optuna.load_study(study_name=name, storage=storage)
    trials = [_trial_json(t) for t in loaded.get_trials(deepcopy=False)]
    done = [t for t in trials if t["state"] == "complete" and t["value"] is not None]
    best = max(done, key=lambda t: (t["value"], -t["number"])) if done else None
    by_start = {t["start"]: t for t in trials if t["start"]}
    distributions = {n: d for t in loaded.get_trials(deepcopy=False) for n, d in t.distributions.items()}
    weights = [{"name": n, "low": _finite(getattr(d, "low", None)), "high": _finite(getattr(d, "high", None)),
                "best": best["params"].get(n) if best else None,
                "defaults": by_start.get("paper defaults", {}).get("params", {}).get(n),
                "incumbent": by_start.get("incumbent", {}).get("params", {}).get(n)}
               for n, d in sorted(distributions.items())]  # fmt: skip
    attrs = loaded.user_attrs
    confirmations = [{"trial": int(key.split(":", 1)[1]), **_elo(value.get("pentanomial")), "pairs": value.get("pairs")}
                     for key, value in attrs.items()
                     if key.startswith("confirmation:") and isinstance(value, dict)]  # fmt: skip
    counts = {state: sum(t["state"] == state for t in trials) for state in ("complete", "pruned", "running", "fail")}
    return {
        "storage": engine.redact(url), "study": name, "directions": [d.name.lower() for d in loaded.directions],
        "settings": {k: attrs.get(k) for k in ("game", "heuristic", "mode", "opponents", "nodes", "incumbent")},
        "counts": counts, "trials": trials, "best": best, "weights": weights,
        "confirmations": sorted(confirmations, key=lambda c: c["trial"]),
        "verdict": attrs.get("verdict"), "dashboard": dashboard_command(url),
    }  # fmt: skip
