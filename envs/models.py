"""Load a saved MaskablePPO or PPO policy without running code from the file.

A stable-baselines3 ``.zip`` holds a JSON file (``data``) whose non-JSON entries are Python objects pickled with
cloudpickle (the ``:serialized:`` fields: the policy class, spaces, schedules), and the weights as PyTorch
files.  ``MaskablePPO.load`` unpickles those entries, and unpickling runs whatever code the file's author
put there: loading a model from someone else is running their program.

:func:`load_policy` reads only what is safe by construction:

* the ``data`` file as plain JSON, using only its plain fields (the policy class's name, the spaces' shapes and
  sizes, ``net_arch``, the activation's class name from a fixed list of ``torch.nn`` activations), never a
  ``:serialized:`` one;
* ``policy.pth`` with ``torch.load(..., weights_only=True)``, which reads tensors and refuses any other object;

then builds the known policy class (sb3-contrib's ``MaskableActorCriticPolicy`` or stable-baselines3's
``ActorCriticPolicy``, or their multi-input forms for the envs' ``dict_obs``) with those settings and loads the
weights into it.  A model that needs more (a custom feature extractor, another policy class, a kwarg that is
not plain JSON) is refused with a message that names what it needs.

``trusted=True`` (``--trust-model`` on the command lines) loads the file with stable-baselines3's own
``load`` instead, for a model you made yourself: it runs the file's pickled objects.
"""

from __future__ import annotations

import io
import json
import os
import re
import zipfile
from typing import Any, Callable

import numpy as np

from games.errors import AlphabetaError
from heuristics.files import read_bytes_capped

__all__ = ["MAX_MODEL_BYTES", "ModelError", "load_policy"]

MAX_MODEL_BYTES = 1 << 30
"""The largest model file read (1 GiB): an MLP policy for these boards is a few hundred kilobytes to a few megabytes."""

_POLICIES = {
    "MaskableActorCriticPolicy": ("sb3_contrib.common.maskable.policies", True),
    "MaskableMultiInputActorCriticPolicy": ("sb3_contrib.common.maskable.policies", True),
    "ActorCriticPolicy": ("stable_baselines3.common.policies", False),
    "MultiInputActorCriticPolicy": ("stable_baselines3.common.policies", False),
}
"""The policy classes built without unpickling: name -> (module, masked)."""

_ACTIVATIONS = ("Tanh", "ReLU", "LeakyReLU", "ELU", "GELU", "SiLU", "Sigmoid", "SELU", "Softplus", "Mish")
"""``torch.nn`` activations a ``policy_kwargs.activation_fn`` may name."""

_BOX_REPR = re.compile(r"'(\w+)': Box\(([-+\w.]+), ([-+\w.]+), \(([\d, ]*)\), (\w+)\)")
"""One ``'name': Box(low, high, (shape), dtype)`` of a Dict space's repr, as the model's ``data`` keeps it."""

_PLAIN_KWARGS = {"net_arch", "activation_fn", "ortho_init", "share_features_extractor", "normalize_images", "log_std_init"}

Policy = Callable[[np.ndarray, np.ndarray], Any]


class ModelError(AlphabetaError):
    """A model file that cannot be loaded safely (the message says why and what would load it)."""


def load_policy(path: str | os.PathLike[str], deterministic: bool = True, trusted: bool = False) -> Policy:
    """A saved MaskablePPO or PPO model as a masked policy callable ``(observation, action_mask) -> action``.

    MaskablePPO gets the mask; a plain PPO model's choice, if illegal, is replaced by its most probable legal
    action.  A model trained on the envs' ``dict_obs`` observations gets ``{"observation", "action_mask"}``.

    Args:
        path: the ``.zip`` written by ``model.save``.
        deterministic: the most probable action (else a sample).
        trusted: load with stable-baselines3's own ``load``, which runs the pickled objects in the file (only
            for a file you trust); by default nothing from the file runs (module docstring).

    Raises:
        ModelError: not a regular file, too large, not a model zip, a model that cannot be built safely, or the
            rl extra (stable-baselines3, sb3-contrib, torch) missing.
    """
    text = os.fspath(path)
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3 import PPO
    except ImportError as error:
        raise ModelError(f"loading an SB3 policy needs the rl extra (pip install 'alphabeta-gym[rl]'): {error}") from None
    if trusted:
        model = _trusted_model(text, (MaskablePPO, PPO))
        policy, masked, dict_obs = model.policy, isinstance(model, MaskablePPO), hasattr(model.observation_space, "spaces")
    else:
        policy, masked, dict_obs = _safe_policy(text)
    policy.set_training_mode(False)

    def choose(observation: np.ndarray, mask: np.ndarray) -> int:
        obs: Any = {"observation": observation, "action_mask": mask} if dict_obs else observation
        if masked:
            return int(policy.predict(obs, action_masks=mask.astype(bool), deterministic=deterministic)[0])
        action = int(policy.predict(obs, deterministic=deterministic)[0])
        if mask[action]:
            return action
        with torch.no_grad():
            tensor, _ = policy.obs_to_tensor(obs)
            probs = policy.get_distribution(tensor).distribution.probs[0].numpy()
        return int(np.argmax(np.where(mask.astype(bool), probs, -1.0)))

    choose.__name__ = os.path.basename(text)
    return choose


def _read_zip(path: str) -> zipfile.ZipFile:
    """The model file as an open zip: a regular file of at most :data:`MAX_MODEL_BYTES` (the project's one reader of
    user-given files, :func:`heuristics.files.read_bytes_capped`)."""
    raw = read_bytes_capped(path, ModelError, MAX_MODEL_BYTES)
    try:
        return zipfile.ZipFile(io.BytesIO(raw))
    except zipfile.BadZipFile as error:
        raise ModelError(f"model file {path!r} is not a zip written by model.save: {error}") from None


def _member(archive: zipfile.ZipFile, name: str, path: str) -> bytes:
    """One file of the archive, its unpacked size checked first (a zip bomb is refused, not unpacked)."""
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise ModelError(f"model file {path!r} has no {name!r}: not a stable-baselines3 model zip") from None
    if info.file_size > MAX_MODEL_BYTES:
        raise ModelError(f"model file {path!r}: {name!r} unpacks to {info.file_size:,} bytes, above the {MAX_MODEL_BYTES:,} read")
    return archive.read(name)


def _safe_policy(path: str) -> tuple[Any, bool, bool]:
    """``(policy, masked, dict_obs)`` built from the file's plain fields and tensors only."""
    import importlib

    import torch

    archive = _read_zip(path)
    try:
        data = json.loads(_member(archive, "data", path))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ModelError(f"model file {path!r}: its 'data' is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise ModelError(f"model file {path!r}: its 'data' is not a JSON object")
    name = _policy_name(data, path)
    module, masked = _POLICIES[name]
    cls = getattr(importlib.import_module(module), name)
    observation_space = _space(data, "observation_space", path)
    action_space = _space(data, "action_space", path)
    kwargs = _policy_kwargs(data, path)
    try:
        state = torch.load(io.BytesIO(_member(archive, "policy.pth", path)), map_location="cpu", weights_only=True)
    except Exception as error:  # noqa: BLE001 (torch raises many kinds; weights_only refuses anything but tensors)
        raise ModelError(f"model file {path!r}: policy.pth holds more than tensors or is damaged: {error}") from None
    policy = cls(observation_space, action_space, lr_schedule=lambda _: 0.0, **kwargs)
    try:
        policy.load_state_dict(state)
    except (RuntimeError, TypeError, AttributeError) as error:
        raise ModelError(f"model file {path!r}: its weights do not fit a {name} with {kwargs}: {error}") from None
    return policy, masked, name.startswith(("MaskableMultiInput", "MultiInput"))


def _policy_name(data: dict[str, Any], path: str) -> str:
    """The policy class's name, read from the plain text the file keeps beside the pickled class."""
    entry = data.get("policy_class")
    found = re.search(r"<function (\w+)\.__init__", str(entry.get("__init__", ""))) if isinstance(entry, dict) else None
    if found is None or found.group(1) not in _POLICIES:
        shown = found.group(1) if found else "unknown"
        raise ModelError(f"model file {path!r}: policy class {shown!r} is not one that loads without running code from "
                         f"the file ({', '.join(_POLICIES)}); if you trust the file, pass --trust-model (trusted=True)")  # fmt: skip
    return found.group(1)


def _space(data: dict[str, Any], key: str, path: str) -> Any:
    """The observation or action space, rebuilt from its plain fields (a Box of int8 / float32, a Discrete, or the
    envs' Dict of an observation Box and an action-mask Box)."""
    import gymnasium.spaces as spaces

    found = data.get(key)
    entry: dict[str, Any] = found if isinstance(found, dict) else {}
    kind = str(entry.get(":type:", ""))
    try:
        if kind.endswith("discrete.Discrete'>"):
            return spaces.Discrete(int(entry["n"]), start=int(entry.get("start", 0)))
        if kind.endswith("box.Box'>"):
            shape = tuple(int(n) for n in entry["_shape"])
            dtype = np.dtype(str(entry["dtype"]))
            return spaces.Box(low=0, high=1, shape=shape, dtype=dtype)
        if kind.endswith("dict.Dict'>"):  # the envs' dict_obs: its repr names each Box
            boxes = _BOX_REPR.findall(str(entry["spaces"]))
            if not boxes:
                raise ValueError(f"no Box in {entry['spaces']!r}")
            return spaces.Dict({name: spaces.Box(low=float(low), high=float(high), dtype=np.dtype(dtype),
                                                 shape=tuple(int(n) for n in shape.replace(" ", "").split(",") if n))
                                for name, low, high, shape, dtype in boxes})  # fmt: skip
    except (KeyError, TypeError, ValueError) as error:
        raise ModelError(f"model file {path!r}: its {key} cannot be read: {error}") from None
    raise ModelError(f"model file {path!r}: its {key} ({kind or 'missing'}) is not a Box or Discrete this loader "
                     "rebuilds without running code from the file; if you trust the file, pass --trust-model")  # fmt: skip


def _policy_kwargs(data: dict[str, Any], path: str) -> dict[str, Any]:
    """``policy_kwargs`` from their plain fields: ``net_arch``, booleans, and an activation from a fixed list."""
    import torch

    entry = data.get("policy_kwargs") or {}
    if not isinstance(entry, dict):
        raise ModelError(f"model file {path!r}: its policy_kwargs are not a JSON object")
    plain = {key: value for key, value in entry.items() if not key.startswith(":")}
    unknown = sorted(set(plain) - _PLAIN_KWARGS)
    if unknown:
        raise ModelError(f"model file {path!r}: policy_kwargs {', '.join(unknown)} need code from the file to load; "
                         "if you trust the file, pass --trust-model")  # fmt: skip
    if "activation_fn" in plain:
        found = re.fullmatch(r"<class 'torch\.nn\.modules\.activation\.(\w+)'>", str(plain["activation_fn"]))
        if found is None or found.group(1) not in _ACTIVATIONS:
            raise ModelError(f"model file {path!r}: activation {plain['activation_fn']!r} is not one of torch.nn's "
                             f"{', '.join(_ACTIVATIONS)}; if you trust the file, pass --trust-model")  # fmt: skip
        plain["activation_fn"] = getattr(torch.nn, found.group(1))
    return plain


def _trusted_model(path: str, classes: tuple[Any, ...]) -> Any:
    """The model as stable-baselines3 loads it (running its pickled objects): for a file the user trusts."""
    _read_zip(path)  # the same checks first: a regular file, not too large, a zip
    for cls in classes:
        try:
            return cls.load(path, device="cpu")
        except Exception:  # noqa: BLE001 (SB3 raises many kinds for a file of the other class or no model)
            continue
    raise ModelError(f"{path!r} is not a MaskablePPO or PPO model zip")
