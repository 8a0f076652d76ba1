"""Checkpoints for exact resume, in formats whose loading runs no code, and finding the newest intact one.

A checkpoint is a folder ``RUN/checkpoints/step_<N>/`` holding:

* ``policy.json`` + ``policy.safetensors``: the policy's weights (float32, the
  whole actor-critic), a code-free policy file (``pokerzoo.agents.policy_file``)
  that ``policy:RUN`` also plays while the run is unfinished;
* ``optimizer.pt``: Adam's state dict, read with ``torch.load(weights_only=True)``;
* ``state.pt``: the rest, as plain data (tensors, numbers, strings, lists,
  dicts), read with ``torch.load(weights_only=True)``: the global RNG states,
  the last observations, episode buffers, the logger's pending values, the
  trainer's own counters, and every env's state as bytes, which are read with
  the restricted unpickler of ``pokerzoo.training.env_state``;
* ``checkpoint.json``: the format, the step, the model's counters and the
  SHA-256 of every file above, written last.

The model itself is rebuilt from the run's config (``MaskablePPO(...)``), so
Stable-Baselines3's own zip, whose loading unpickles objects, is never read.
``read`` checks a folder completely (hashes, every file loads, every env
state reads) and raises ``CheckpointError`` with the reason; ``find_intact``
returns the newest intact checkpoint and the ones it skipped with why.
"""

from __future__ import annotations

import collections
import hashlib
import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from pokerzoo.agents.policy_file import PolicyFileError, read_policy
from pokerzoo.training import env_state
from pokerzoo.training.policy_export import save_policy

FORMAT = "pokerzoo.checkpoint/1"
MANIFEST = "checkpoint.json"
FILES = ("policy.json", "policy.safetensors", "optimizer.pt", "state.pt")
MODEL_COUNTERS = (
    "num_timesteps",
    "_n_updates",
    "_episode_num",
    "_num_timesteps_at_start",
    "_total_timesteps",
    "_current_progress_remaining",
)
STATE_KEYS = (
    "num_timesteps",
    "rng",
    "envs",
    "masks",
    "last_obs",
    "last_episode_starts",
    "ep_info_buffer",
    "ep_success_buffer",
    "logger",
    "trainer",
)
LEGACY_FILES = ("model.zip", "state.pkl")


class CheckpointError(ValueError):
    """A checkpoint folder that cannot be resumed from (missing, corrupt, tampered with, or of the old format)."""


@dataclass
class Checkpoint:
    path: Path
    step: int
    model: dict  # the model's counters (MODEL_COUNTERS)
    optimizer: dict  # Adam's state dict
    state: dict  # STATE_KEYS, decoded
    policy: Path = field(default=Path())  # policy.json


# --------------------------------------------------------------------------- plain data both ways
def encode(obj: Any) -> Any:
    """``obj`` as data ``torch.load(weights_only=True)`` reads: numpy arrays as tensors, tagged to come back."""
    if isinstance(obj, np.ndarray):
        if obj.dtype == object:
            raise TypeError("object arrays cannot go into a checkpoint")
        return {"__numpy__": "array", "data": torch.from_numpy(np.array(obj, copy=True))}
    if isinstance(obj, np.generic):
        return {"__numpy__": "scalar", "dtype": obj.dtype.str, "value": obj.item()}
    if isinstance(obj, collections.deque):
        return {"__deque__": [encode(x) for x in obj], "maxlen": obj.maxlen}
    if isinstance(obj, dict):
        return {k: encode(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [encode(x) for x in obj]
    if isinstance(obj, tuple):
        return tuple(encode(x) for x in obj)
    if obj is None or isinstance(obj, bool | int | float | str | bytes | torch.Tensor):
        return obj
    raise TypeError(f"{type(obj).__name__} cannot go into a checkpoint")


def decode(obj: Any) -> Any:
    if isinstance(obj, dict):
        tag = obj.get("__numpy__")
        if tag == "array" and isinstance(obj.get("data"), torch.Tensor):
            return obj["data"].numpy().copy()
        if tag == "scalar" and isinstance(obj.get("dtype"), str):
            return np.dtype(obj["dtype"]).type(obj["value"])
        if "__deque__" in obj and isinstance(obj["__deque__"], list):
            return collections.deque((decode(x) for x in obj["__deque__"]), maxlen=obj.get("maxlen"))
        return {k: decode(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [decode(x) for x in obj]
    if isinstance(obj, tuple):
        return tuple(decode(x) for x in obj)
    return obj


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# --------------------------------------------------------------------------- writing
def write(folder: Path, *, model, document: dict, state: dict) -> Path:
    """Write the checkpoint of ``model`` (and ``state``, see STATE_KEYS) into the new folder ``folder``."""
    folder.mkdir(parents=True)
    save_policy(model.policy, folder / "policy.json", document)
    torch.save(model.policy.optimizer.state_dict(), folder / "optimizer.pt")
    torch.save(encode(state), folder / "state.pt")
    counters = {k: getattr(model, k) for k in MODEL_COUNTERS}
    manifest = {
        "format": FORMAT,
        "step": int(model.num_timesteps),
        "model": {k: (int(v) if isinstance(v, int | np.integer) else float(v)) for k, v in counters.items()},
        "files": {name: file_sha256(folder / name) for name in FILES},
    }
    tmp = folder / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps(manifest, indent=2) + "\n")
    os.replace(tmp, folder / MANIFEST)
    return folder


def commit(tmp: Path, final: Path) -> None:
    """Put the written folder ``tmp`` in place as ``final`` (a rename: a reader sees all of it or none)."""
    shutil.rmtree(final, ignore_errors=True)
    os.replace(tmp, final)


def publish(tmp: Path, final: Path, keep: int) -> Path:
    """``commit``, point ``checkpoints/latest`` at ``final`` (atomically), delete all but the ``keep`` newest."""
    commit(tmp, final)
    root = final.parent
    pointer_tmp = root / ".latest.tmp"
    pointer_tmp.write_text(final.name + "\n")
    os.replace(pointer_tmp, root / "latest")
    kept = sorted(p for p in root.iterdir() if p.is_dir() and p.name.startswith("step_"))
    for old in kept[:-keep]:
        shutil.rmtree(old, ignore_errors=True)
    return final


# --------------------------------------------------------------------------- reading
def step_of(folder: Path) -> int | None:
    name = folder.name
    if not name.startswith("step_") or not name[5:].isdigit():
        return None
    return int(name[5:])


def read(folder: Path) -> Checkpoint:
    """Check checkpoint ``folder`` completely and read it; ``CheckpointError`` says why it cannot be used."""
    if not folder.is_dir():
        raise CheckpointError("missing")
    if not (folder / MANIFEST).is_file() and any((folder / f).exists() for f in LEGACY_FILES):
        raise CheckpointError(
            "old format (model.zip + state.pkl, pickles whose loading can run code): not read; "
            "start a new run with init_from after `pokerzoo policy convert --trust` of its model.zip"
        )
    manifest = read_manifest(folder, f"pokerzoo checkpoint ({FORMAT})")
    if manifest.get("format") != FORMAT:
        raise CheckpointError(f"{MANIFEST} is not a pokerzoo checkpoint manifest ({FORMAT})")
    model = manifest.get("model")
    if not isinstance(model, dict) or set(model) != set(MODEL_COUNTERS) or not all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in model.values()
    ):
        raise CheckpointError(f"{MANIFEST}: model counters missing or malformed")
    verify_files(folder, manifest, FILES)
    optimizer, state = load_optimizer_and_state(folder, STATE_KEYS)
    if state["num_timesteps"] != model["num_timesteps"] or not isinstance(state["envs"], list):
        raise CheckpointError("state.pt does not belong to this checkpoint")
    for i, blob in enumerate(state["envs"]):
        try:
            env_state.loads(blob)
        except env_state.EnvStateError as exc:
            raise CheckpointError(f"env state {i}: {exc}") from None
    return Checkpoint(folder, int(model["num_timesteps"]), model, optimizer, state, folder / "policy.json")


def torch_load(path: Path) -> Any:
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # whatever torch raises on a bad file, the file is unusable
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise CheckpointError(
            f"{path.name} is not loadable as plain data ({type(exc).__name__}: {first[:200]})"
        ) from None


def read_manifest(folder: Path, kind: str) -> dict:
    """``folder``'s manifest as a dict (``kind`` names the checkpoint in the error when it is not one); the
    three checkpoint formats (MaskablePPO's, the batched trainer's, the RLlib backend's) share this."""
    path = folder / MANIFEST
    if not path.is_file():
        raise CheckpointError(f"no {MANIFEST} (unfinished or damaged)")
    try:
        manifest = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise CheckpointError(f"{MANIFEST} is not readable JSON ({exc})") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        raise CheckpointError(f"{MANIFEST} is not a {kind} manifest")
    return manifest


def verify_files(folder: Path, manifest: dict, names: tuple[str, ...]) -> None:
    """Every file of ``names`` is there with the SHA-256 the manifest gives, and the policy file reads as one."""
    files = manifest["files"]
    for name in names:
        path = folder / name
        if not path.is_file():
            raise CheckpointError(f"{name} is missing")
        if files.get(name) != file_sha256(path):
            raise CheckpointError(f"{name} does not match its SHA-256 in {MANIFEST} (truncated or changed)")
    try:
        read_policy(folder / "policy.json")
    except (PolicyFileError, FileNotFoundError) as exc:
        raise CheckpointError(f"policy: {exc}") from None


def load_optimizer_and_state(folder: Path, state_keys: tuple[str, ...]) -> tuple[dict, dict]:
    """``optimizer.pt`` and ``state.pt`` as plain data; the state must hold exactly ``state_keys``."""
    optimizer = torch_load(folder / "optimizer.pt")
    state = decode(torch_load(folder / "state.pt"))
    if not isinstance(state, dict) or set(state) != set(state_keys) or not isinstance(optimizer, dict):
        raise CheckpointError("state.pt or optimizer.pt does not hold what a checkpoint holds")
    return optimizer, state


def candidates(run_dir: Path) -> list[Path]:
    """The run's checkpoint folders, newest first."""
    root = run_dir / "checkpoints"
    if not root.is_dir():
        return []
    found = [(step_of(p), p) for p in root.iterdir() if p.is_dir()]
    return [p for step, p in sorted(((s, p) for s, p in found if s is not None), reverse=True)]


def find_intact(run_dir: Path, reader: Callable[[Path], Any] | None = None) -> tuple[Any, list[tuple[str, str]]]:
    """The newest checkpoint that ``reader`` (default ``read``) accepts, and (name, why) for each newer one it skipped.

    ``reader`` reads one checkpoint folder or raises ``CheckpointError``: each
    trainer's own format (the batched trainer's is ``training.selfplay.checkpoint.read``).
    """
    reader = reader or read
    skipped = []
    pointer = run_dir / "checkpoints" / "latest"
    if pointer.is_file():
        named = pointer.read_text(errors="replace").strip()
        if named and not (run_dir / "checkpoints" / named).is_dir():
            skipped.append((named, "missing (the latest pointer names it)"))
    for folder in candidates(run_dir):
        try:
            return reader(folder), skipped
        except CheckpointError as exc:
            skipped.append((folder.name, str(exc)))
    return None, skipped


def intact_to_resume(run_dir: Path, reader: Callable[[Path], Any] | None = None) -> tuple[Any, list[tuple[str, str]]]:
    """``find_intact``, for ``--resume``: a ``CheckpointError`` naming every skipped checkpoint where none is intact."""
    found, skipped = find_intact(run_dir, reader)
    if found is None:
        why = "; ".join(f"{name}: {reason}" for name, reason in skipped)
        skipped_note = f" (skipped {why})" if why else ""
        raise CheckpointError(f"{run_dir} has no intact checkpoint to resume from{skipped_note}")
    return found, skipped
