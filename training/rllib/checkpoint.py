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

from pathlib import Path

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
    manifest = ckpt.read_manifest(folder, f"RLlib-backend checkpoint ({FORMAT})")
    if manifest.get("format") != FORMAT:
        raise ckpt.CheckpointError(f"{ckpt.MANIFEST} is not an RLlib-backend checkpoint manifest ({FORMAT})")
    step = manifest.get("step")
    if not isinstance(step, int) or isinstance(step, bool) or step < 0:
        raise ckpt.CheckpointError(f"{ckpt.MANIFEST}: step missing or malformed")
    ckpt.verify_files(folder, manifest, FILES)
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
    """The newest checkpoint ``read`` accepts, and (name, why) for each newer one skipped (``checkpoint.find_intact``
    with this backend's reader)."""
    return ckpt.find_intact(run_dir, read)
