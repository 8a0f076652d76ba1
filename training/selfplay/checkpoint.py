"""Checkpoints of the batched trainer, in formats whose loading runs no code.

``RUN/checkpoints/step_<N>/`` holds:

* ``policy.json`` + ``policy.safetensors``: the network (float32, actor and
  critic), a policy file that ``policy:RUN`` plays while the run is unfinished;
* ``critic.safetensors``: the privileged critic's weights (``critic.privileged``
  runs only; safetensors, no code);
* ``optimizer.pt``: Adam's state dict, read with ``torch.load(weights_only=True)``;
* ``arrays.npz``: every numpy array of the learner's state, read with
  ``np.load(allow_pickle=False)``: the batched env (game state arrays, every
  row's generator, the waiting observations and masks), the open decisions
  carried to the next rollout, the per-(row, seat) reward accounts and the
  seats' controllers;
* ``state.pt``: the rest as plain data (``torch.load(weights_only=True)``):
  counters, the league (members, their sources and PFSP statistics; snapshots
  are policy files in ``RUN/snapshots/``), the global RNG states, the rolling
  episode returns, the logger's pending values and the trainer's tallies;
* ``checkpoint.json``: the format, the step and every file's SHA-256, written last.

The folder is written under a temporary name and renamed into place
(``pokerzoo.training.checkpoint.publish``); ``read`` checks a folder
completely and raises ``CheckpointError`` naming what is wrong, so
``find_intact`` falls back to the newest checkpoint that is whole.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, save_file

from pokerzoo.training import checkpoint as ckpt
from pokerzoo.training.checkpoint import CheckpointError, encode, file_sha256
from pokerzoo.training.policy_export import save_policy

FORMAT = "pokerzoo.selfplay-checkpoint/1"
FILES = ("policy.json", "policy.safetensors", "optimizer.pt", "state.pt", "arrays.npz")
CRITIC = "critic.safetensors"  # only in the checkpoints of runs with a privileged critic
STATE_KEYS = ("step", "loop", "rng", "logger", "trainer")


@dataclass
class SelfPlayCheckpoint:
    path: Path
    step: int
    optimizer: dict
    state: dict  # STATE_KEYS
    arrays: dict[str, np.ndarray]
    policy: Path
    critic: dict[str, torch.Tensor] | None = None  # the privileged critic's state dict, if the run has one


def write(folder: Path, *, model, optimizer, document: dict, state: dict, arrays: dict[str, np.ndarray],
          critic: torch.nn.Module | None = None) -> Path:  # fmt: skip
    """Write a checkpoint into the new folder ``folder`` (``state``: STATE_KEYS)."""
    folder.mkdir(parents=True)
    save_policy(model, folder / "policy.json", document)
    names = FILES
    if critic is not None:
        save_file({k: v.detach().contiguous() for k, v in critic.state_dict().items()}, str(folder / CRITIC))
        names = (*FILES, CRITIC)
    torch.save(optimizer.state_dict(), folder / "optimizer.pt")
    torch.save(encode(state), folder / "state.pt")
    np.savez(folder / "arrays.npz", **arrays)
    manifest = {
        "format": FORMAT,
        "step": int(state["step"]),
        "files": {name: file_sha256(folder / name) for name in names},
    }
    tmp = folder / f".{ckpt.MANIFEST}.tmp"
    tmp.write_text(json.dumps(manifest, indent=2) + "\n")
    os.replace(tmp, folder / ckpt.MANIFEST)
    return folder


def read(folder: Path) -> SelfPlayCheckpoint:
    """Check checkpoint ``folder`` completely and read it; ``CheckpointError`` says why it cannot be used."""
    if not folder.is_dir():
        raise CheckpointError("missing")
    manifest = ckpt.read_manifest(folder, f"batched-trainer checkpoint ({FORMAT})")
    if manifest.get("format") == ckpt.FORMAT:
        raise CheckpointError(f"a checkpoint of engine aec ({ckpt.FORMAT}), not of the batched trainer")
    step = manifest.get("step")
    if manifest.get("format") != FORMAT or not _is_count(step):
        raise CheckpointError(f"{ckpt.MANIFEST} is not a batched-trainer checkpoint manifest ({FORMAT})")
    has_critic = CRITIC in manifest.get("files", {})
    ckpt.verify_files(folder, manifest, (*FILES, CRITIC) if has_critic else FILES)
    optimizer, state = ckpt.load_optimizer_and_state(folder, STATE_KEYS)
    if state["step"] != step:
        raise CheckpointError("state.pt does not belong to this checkpoint")
    critic = _load_critic(folder / CRITIC) if has_critic else None
    return SelfPlayCheckpoint(folder, int(step), optimizer, state, _load_arrays(folder / "arrays.npz"),
                              folder / "policy.json", critic)  # fmt: skip


def _load_critic(path: Path) -> dict[str, torch.Tensor]:
    try:
        return load_file(str(path))
    except (SafetensorError, OSError, ValueError) as exc:
        raise CheckpointError(f"{path.name} is not a safetensors file ({type(exc).__name__})") from None


def _is_count(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def _load_arrays(path: Path) -> dict[str, np.ndarray]:
    try:
        with np.load(path, allow_pickle=False) as data:
            if not isinstance(data, np.lib.npyio.NpzFile):
                raise ValueError("not an npz archive")
            arrays = {k: data[k] for k in data.files}
    except Exception as exc:  # whatever numpy or zipfile raise on a bad file, the file is unusable
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        why = f"{type(exc).__name__}: {first[:200]}"
        raise CheckpointError(f"{path.name} is not loadable as plain arrays ({why})") from None
    if any(a.dtype.hasobject for a in arrays.values()):
        raise CheckpointError(f"{path.name} holds object arrays")
    return arrays
