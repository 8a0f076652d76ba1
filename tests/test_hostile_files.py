"""A crafted file with a pickle payload (a ``__reduce__`` that writes a marker file) is refused by every
loader pokerzoo has, policy and checkpoint alike, and the marker never appears.

The payload is harmless (it writes one file in the test's folder), but it is exactly what a malicious
policy swapped between users would carry: ``MaskablePPO.load`` and a plain ``pickle.load`` would run it.
"""

from __future__ import annotations

import base64
import json
import pickle
import zipfile
from pathlib import Path

import pytest
import yaml

from pokerzoo.agents.policy import PolicyAgent, load_policy_net, shipped_policies
from pokerzoo.agents.policy_file import PolicyFileError, read_policy
from pokerzoo.agents.registry import make_agent
from pokerzoo.envs.engine.options import ConfigError


def payload(marker: Path) -> bytes:
    class Payload:
        def __reduce__(self):
            return (Path.write_text, (marker, "the payload ran"))

    return pickle.dumps(Payload(), protocol=2)


@pytest.fixture
def marker(tmp_path) -> Path:
    path = tmp_path / "MARKER"
    yield path
    assert not path.exists(), "a loader ran the payload"


@pytest.fixture
def crafted_zip(tmp_path, marker) -> Path:
    """An SB3 zip laid out like a real one, its ``policy_kwargs`` replaced by the payload (as cloudpickle
    serialises it): ``MaskablePPO.load`` would run it."""
    data = {
        "policy_class": {":type:": "<class 'abc.ABCMeta'>", ":serialized:": base64.b64encode(payload(marker)).decode()},
        "policy_kwargs": {":type:": "<class 'dict'>", ":serialized:": base64.b64encode(payload(marker)).decode()},
        "pokerzoo": {"format": 1, "game": "caribbean_stud_v0", "config": {}},
    }
    path = tmp_path / "ppo.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps(data))
        z.writestr("policy.pth", payload(marker))
        z.writestr("_stable_baselines3_version", "2.9.2")
    return path


def test_policy_loaders_refuse_a_crafted_sb3_zip(crafted_zip, tmp_path, capsys):
    from pokerzoo.cli.main import main

    for load in (
        lambda: make_agent("caribbean_stud", f"policy:{crafted_zip}"),
        lambda: make_agent("caribbean_stud", f"policy:{crafted_zip.parent}"),
        lambda: PolicyAgent(crafted_zip, env_name="caribbean_stud"),
        lambda: load_policy_net(crafted_zip),
        lambda: read_policy(crafted_zip),
    ):
        with pytest.raises(PolicyFileError, match="convert --trust"):
            load()
    # The same bytes under a policy's own names.
    for name in ("p.json", "p.safetensors"):
        (tmp_path / name).write_bytes(crafted_zip.read_bytes())
    with pytest.raises(PolicyFileError):
        read_policy(tmp_path / "p.json")
    for name in ("p.pkl", "p.pt", "p.pth"):
        (tmp_path / name).write_bytes(payload(tmp_path / "MARKER"))
        with pytest.raises(PolicyFileError, match="not a pokerzoo policy file"):
            make_agent("caribbean_stud", f"policy:{tmp_path / name}")
    # Through the command line: evaluate, play and convert without --trust refuse it, exit status 2.
    for argv in (
        ["evaluate", "caribbean_stud", "--agents", f"policy:{crafted_zip}", "random", "--games", "2"],
        ["play", "caribbean_stud", "--opponents", f"policy:{crafted_zip}"],
        ["policy", "convert", str(crafted_zip)],
        ["policy", "show", str(crafted_zip)],
    ):
        assert main(argv) == 2, argv
        assert "Traceback" not in capsys.readouterr().err


def test_weights_that_are_a_pickle_are_refused(tmp_path, marker):
    """A real policy document whose weights file is swapped for a pickle, with the hash updated to match."""
    import hashlib
    import shutil

    src = shipped_policies("caribbean_stud")["ppo"]
    doc = json.loads(src.read_text())
    (tmp_path / "ppo.safetensors").write_bytes(payload(marker))
    doc["weights"]["sha256"] = hashlib.sha256(payload(marker)).hexdigest()
    (tmp_path / "ppo.json").write_text(json.dumps(doc))
    with pytest.raises(PolicyFileError, match="not a valid safetensors file"):
        PolicyAgent(tmp_path / "ppo.json")
    shutil.copy(src.with_suffix(".safetensors"), tmp_path / "ppo.safetensors")  # the genuine pair still loads
    doc["weights"]["sha256"] = hashlib.sha256((tmp_path / "ppo.safetensors").read_bytes()).hexdigest()
    (tmp_path / "ppo.json").write_text(json.dumps(doc))
    assert PolicyAgent(tmp_path / "ppo.json").meta["game"] == "caribbean_stud_v0"


def test_init_from_refuses_a_crafted_zip(crafted_zip, tmp_path):
    from pokerzoo.training.config import load_config
    from pokerzoo.training.train import Trainer

    cfg = load_config({"game": "caribbean_stud", "engine": "aec", "n_envs": 1, "vec_env": "dummy", "total_timesteps": 8,
                       "ppo": {"n_steps": 8, "batch_size": 8}, "init_from": str(crafted_zip)})  # fmt: skip
    with pytest.raises(PolicyFileError, match="convert --trust"):
        Trainer(cfg, tmp_path / "run", progress=False).train()


def test_checkpoint_and_env_state_loaders_refuse_a_payload(tmp_path, marker):
    from pokerzoo.training import checkpoint as ckpt
    from pokerzoo.training import env_state
    from pokerzoo.training.single_seat import SingleSeatEnv

    with pytest.raises(env_state.EnvStateError, match="may not hold"):
        env_state.loads(payload(marker))
    with pytest.raises(env_state.EnvStateError):
        SingleSeatEnv("caribbean_stud").set_state(payload(marker))
    folder = tmp_path / "run" / "checkpoints" / "step_000000000008"
    folder.mkdir(parents=True)
    for name in ("state.pkl", "model.zip"):  # a checkpoint of the old format
        (folder / name).write_bytes(payload(marker))
    with pytest.raises(ckpt.CheckpointError, match="old format"):
        ckpt.read(folder)
    for name in ckpt.FILES:  # the new format's names, every file a payload, the manifest vouching for them
        (folder / name).write_bytes(payload(marker))
    manifest = {"format": ckpt.FORMAT, "step": 8, "model": dict.fromkeys(ckpt.MODEL_COUNTERS, 0),
                "files": {n: ckpt.file_sha256(folder / n) for n in ckpt.FILES}}  # fmt: skip
    (folder / ckpt.MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(ckpt.CheckpointError):
        ckpt.read(folder)
    for name in ("optimizer.pt", "state.pt"):
        with pytest.raises(ckpt.CheckpointError, match="not loadable as plain data"):
            ckpt.torch_load(folder / name)
    assert ckpt.find_intact(tmp_path / "run")[0] is None


def test_the_batched_trainers_checkpoints_refuse_a_payload(tmp_path, marker):
    """Every file of a batched-trainer checkpoint a payload (state.pt, optimizer.pt, arrays.npz with a
    pickled object array), the manifest vouching for them: refused, nothing run."""
    import io

    import numpy as np

    from pokerzoo.training import checkpoint as ckpt
    from pokerzoo.training.selfplay import checkpoint as sp_ckpt

    folder = tmp_path / "run" / "checkpoints" / "step_000000000008"
    folder.mkdir(parents=True)
    for name in sp_ckpt.FILES:
        (folder / name).write_bytes(payload(marker))
    npy = io.BytesIO()  # an object array whose data is the payload: np.load(allow_pickle=True) would run it
    np.lib.format.write_array_header_1_0(npy, {"descr": "|O", "fortran_order": False, "shape": (1,)})
    npy.write(payload(marker))
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("env.npy", npy.getvalue())
    (folder / "arrays.npz").write_bytes(archive.getvalue())
    manifest = {"format": sp_ckpt.FORMAT, "step": 8, "files": {n: ckpt.file_sha256(folder / n) for n in sp_ckpt.FILES}}
    (folder / ckpt.MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(ckpt.CheckpointError):
        sp_ckpt.read(folder)
    (folder / "policy.json").unlink()  # past the policy check, the torch files and the arrays are next
    with pytest.raises(ckpt.CheckpointError, match=r"policy\.json is missing"):
        sp_ckpt.read(folder)
    for name in ("optimizer.pt", "state.pt"):
        with pytest.raises(ckpt.CheckpointError, match="not loadable as plain data"):
            ckpt.torch_load(folder / name)
    with pytest.raises(ckpt.CheckpointError, match=r"arrays\.npz is not loadable as plain arrays"):
        sp_ckpt._load_arrays(folder / "arrays.npz")
    assert ckpt.find_intact(tmp_path / "run", sp_ckpt.read)[0] is None


def test_a_yaml_config_with_a_python_tag_is_refused(tmp_path, marker):
    from pokerzoo.training.config import load_config

    path = tmp_path / "evil.yaml"
    path.write_text(f"game: caribbean_stud\nname: !!python/object/apply:pathlib.Path.write_text ['{marker}', x]\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(path)
    with pytest.raises(yaml.YAMLError):
        yaml.safe_load(path.read_text())


def test_a_history_file_that_is_a_pickle_is_refused(tmp_path, marker):
    from pokerzoo.evaluation import history

    path = tmp_path / "h.jsonl"
    path.write_bytes(payload(marker))
    with pytest.raises(ValueError):
        list(history.read(path))
