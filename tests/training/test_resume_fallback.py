"""Resume falls back to the newest intact checkpoint, saying which it skipped and why; files are corrupted,
replaced and deleted on purpose. Checkpoints are read without running code from them."""

from __future__ import annotations

import hashlib
import json
import pickle
import shutil
from pathlib import Path

import numpy as np
import pytest
import torch

from pokerzoo.agents.policy_file import read_policy
from pokerzoo.training import checkpoint as ckpt
from pokerzoo.training.config import load_config
from pokerzoo.training.train import Trainer

CFG = {
    "game": "perico",
    "engine": "aec",
    "options": {"num_players": 3},
    "seed": 11,
    "total_timesteps": 256,
    "n_envs": 2,
    "vec_env": "dummy",
    "checkpoint_every": 64,
    "keep_checkpoints": 10,
    "ppo": {"n_steps": 32, "batch_size": 32, "n_epochs": 1, "net_arch": [8]},
    "opponents": {"scripted": {"random": 1.0}, "self_play": 1.0, "snapshot_every": 64},
    "eval": {"every": 0, "final_deals": 2, "final_workers": 1},
}
STEPS = [64, 128, 192, 256]


def step_dir(run: Path, step: int) -> Path:
    return run / "checkpoints" / f"step_{step:012d}"


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    run = tmp_path_factory.mktemp("fallback") / "run"
    Trainer(load_config(CFG), run, progress=False).train()
    return run


@pytest.fixture
def killed(reference, tmp_path) -> Path:
    """The reference run as if killed after its last checkpoint (no final report yet)."""
    run = tmp_path / "run"
    shutil.copytree(reference, run)
    shutil.rmtree(run / "final")
    return run


def rehash(folder: Path, name: str) -> None:
    """Rewrite the manifest so that it vouches for ``name`` as it now is (a tamperer would)."""
    manifest = json.loads((folder / ckpt.MANIFEST).read_text())
    manifest["files"][name] = hashlib.sha256((folder / name).read_bytes()).hexdigest()
    (folder / ckpt.MANIFEST).write_text(json.dumps(manifest))


def same_policy(a: Path, b: Path) -> bool:
    ta, tb = read_policy(a).tensors, read_policy(b).tensors
    return ta.keys() == tb.keys() and all(np.array_equal(ta[k], tb[k]) for k in ta)


def test_every_checkpoint_of_a_run_is_intact(reference):
    assert [ckpt.read(step_dir(reference, s)).step for s in STEPS] == STEPS


def test_a_truncated_newest_checkpoint_is_skipped_and_the_run_still_ends_exactly(reference, killed):
    state = step_dir(killed, 256) / "state.pt"
    state.write_bytes(state.read_bytes()[:1000])
    trainer = Trainer.resume(killed, progress=False)
    assert trainer._resume_from.name == f"step_{192:012d}"
    assert trainer.skipped_checkpoints == [(f"step_{256:012d}", "state.pt does not match its SHA-256 in "
                                            "checkpoint.json (truncated or changed)")]  # fmt: skip
    trainer.train()
    assert same_policy(reference / "final" / "policy.json", killed / "final" / "policy.json")


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        (lambda d: shutil.rmtree(d), "missing (the latest pointer names it)"),
        (lambda d: (d / ckpt.MANIFEST).unlink(), "no checkpoint.json (unfinished or damaged)"),
        (lambda d: (d / "optimizer.pt").unlink(), "optimizer.pt is missing"),
        (lambda d: (d / "policy.safetensors").write_bytes(b"\0" * 64), "policy.safetensors does not match"),
        (lambda d: ((d / "state.pt").write_bytes(np.random.default_rng(0).bytes(5000)), rehash(d, "state.pt")),
         "state.pt is not loadable as plain data"),
        (lambda d: ((d / "optimizer.pt").write_bytes(b"not a torch file"), rehash(d, "optimizer.pt")),
         "optimizer.pt is not loadable as plain data"),
        (lambda d: (d / ckpt.MANIFEST).write_text("{"), "checkpoint.json is not readable JSON"),
    ],
    ids=["deleted", "no-manifest", "file-missing", "weights-changed", "random-state", "bad-optimizer",
         "bad-manifest"],
)  # fmt: skip
def test_a_damaged_newest_checkpoint_is_skipped_saying_why(killed, damage, why):
    damage(step_dir(killed, 256))
    found, skipped = ckpt.find_intact(killed)
    assert found.step == 192
    assert len(skipped) == 1 and skipped[0][0] == f"step_{256:012d}" and skipped[0][1].startswith(why)


def test_the_cli_names_the_skipped_checkpoints_and_one_line_says_when_none_is_intact(killed, capsys):
    from pokerzoo.cli.main import main

    (step_dir(killed, 256) / ckpt.MANIFEST).unlink()
    trainer = Trainer.resume(killed, progress=False)
    assert trainer._resume_from.name == f"step_{192:012d}"
    for step in STEPS:
        (step_dir(killed, step) / "state.pt").write_bytes(b"")
    assert main(["train", "--resume", str(killed), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "has no intact checkpoint to resume from" in err
    assert "step_000000000064: state.pt does not match" in err and "Traceback" not in err


def payload_bytes(marker: Path) -> bytes:
    """A pickle whose loading writes ``marker`` (what a crafted file would do, harmlessly)."""

    class Payload:
        def __reduce__(self):
            return (Path.write_text, (marker, "pwned"))

    return pickle.dumps(Payload())


@pytest.mark.filterwarnings("ignore:Detected pickle protocol")
def test_a_pickle_payload_anywhere_in_a_checkpoint_is_refused_unrun(killed, tmp_path):
    marker = tmp_path / "marker"
    newest = step_dir(killed, 256)
    # 1. an env state inside an otherwise valid state.pt
    state = torch.load(newest / "state.pt", weights_only=True)
    state["envs"][0] = payload_bytes(marker)
    torch.save(state, newest / "state.pt")
    rehash(newest, "state.pt")
    # 2. state.pt and optimizer.pt themselves as pickles with a payload (torch.save pickles what it is given)
    for step, name in ((192, "state.pt"), (128, "optimizer.pt")):
        (step_dir(killed, step) / name).write_bytes(payload_bytes(marker))  # a bare pickle with the payload
        rehash(step_dir(killed, step), name)
    # 3. the old format: a state.pkl with the payload and no manifest
    old = step_dir(killed, 64)
    shutil.rmtree(old)
    old.mkdir()
    (old / "state.pkl").write_bytes(payload_bytes(marker))
    (old / "model.zip").write_bytes(b"PK")
    found, skipped = ckpt.find_intact(killed)
    assert found is None
    reasons = dict(skipped)
    assert "builtins" in reasons[newest.name] or "pathlib" in reasons[newest.name]
    assert "may not hold" in reasons[newest.name]
    assert "not loadable as plain data" in reasons[f"step_{192:012d}"]
    assert "not loadable as plain data" in reasons[f"step_{128:012d}"]
    assert "old format" in reasons[old.name]
    with pytest.raises(ckpt.CheckpointError, match="no intact checkpoint"):
        Trainer.resume(killed, progress=False)
    assert not marker.exists(), "a checkpoint ran code"
