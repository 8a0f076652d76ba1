"""The RLlib backend's checkpoints: what a folder holds, and reading one back without running code from it.

``checkpoints/step_<N>/`` (``N`` learner steps) holds ``policy.json`` +
``policy.safetensors`` (the learner, a code-free policy file), ``state.pt``
(``{"format", "algorithm": Algorithm.get_state(), "trainer": the trainer's
counters and league}``, plain data written by ``training.checkpoint.encode``
and read with ``torch.load(weights_only=True)``) and ``checkpoint.json`` (format,
step, SHA-256 of each file; written last, so a folder without it is
unfinished). RLlib's own ``save_to_path`` checkpoints are pickles and are never
written or read (``pokerzoo.training.rllib.trainer``). This module imports no
Ray, so run folders can be checked without the 'ray' extra.
"""

from __future__ import annotations

import json
from pathlib import Path

from pokerzoo.agents.policy_file import read_policy, sha256_of
from pokerzoo.training import checkpoint as ckpt

FORMAT = "pokerzoo.rllib-checkpoint/1"
FILES = ("policy.json", "policy.safetensors", "state.pt")


def latest_checkpoint(run_dir: Path) -> Path | None:
    """The newest checkpoint folder with its manifest (not checked further; ``read`` checks)."""
    for folder in ckpt.candidates(run_dir):
        if (folder / ckpt.MANIFEST).is_file():
            return folder
    return None


def read(folder: Path | None) -> ckpt.Checkpoint:
    """Check an RLlib checkpoint folder completely and read it (``CheckpointError`` says why it cannot be used)."""
    if folder is None or not folder.is_dir():
        raise ckpt.CheckpointError("missing")
    try:
        manifest = json.loads((folder / ckpt.MANIFEST).read_text())
    except FileNotFoundError:
        raise ckpt.CheckpointError(f"no {ckpt.MANIFEST} (unfinished or damaged)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise ckpt.CheckpointError(f"{ckpt.MANIFEST} is not readable JSON ({exc})") from None
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT or not isinstance(files, dict):
        raise ckpt.CheckpointError(f"{ckpt.MANIFEST} is not an RLlib-backend checkpoint manifest ({FORMAT})")
    step = manifest.get("step")
    if not isinstance(step, int) or isinstance(step, bool) or step < 0:
        raise ckpt.CheckpointError(f"{ckpt.MANIFEST}: step missing or malformed")
    for name in FILES:
        if not (folder / name).is_file():
            raise ckpt.CheckpointError(f"{name} is missing")
        if files.get(name) != sha256_of(folder / name):
            raise ckpt.CheckpointError(f"{name} does not match its SHA-256 in {ckpt.MANIFEST} (truncated or changed)")
    try:
        read_policy(folder / "policy.json")
    except (ValueError, FileNotFoundError) as exc:
        raise ckpt.CheckpointError(f"policy: {exc}") from None
    state = ckpt.decode(ckpt.torch_load(folder / "state.pt"))
    ok = (
        isinstance(state, dict)
        and state.get("format") == FORMAT
        and isinstance(state.get("algorithm"), dict)
        and isinstance(state.get("trainer"), dict)
        and state["trainer"].get("steps") == step
    )
    if not ok:
        raise ckpt.CheckpointError("state.pt does not hold what an RLlib-backend checkpoint holds")
    return ckpt.Checkpoint(folder, step, {}, {}, state, folder / "policy.json")


def find_intact(run_dir: Path) -> tuple[ckpt.Checkpoint | None, list[tuple[str, str]]]:
    """The newest checkpoint ``read`` accepts, and (name, why) for each newer one skipped."""
    skipped = []
    for folder in ckpt.candidates(run_dir):
        try:
            return read(folder), skipped
        except ckpt.CheckpointError as exc:
            skipped.append((folder.name, str(exc)))
    return None, skipped
