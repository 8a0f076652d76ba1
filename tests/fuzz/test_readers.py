"""Fuzz every reader of files a user may be handed: random bytes and random JSON as policy files, hand
histories and training configs (and checkpoints). Each may succeed or fail, but only with the project's
documented errors (README, Security): PolicyFileError, ConfigError, CheckpointError, ValueError for
histories, FileNotFoundError."""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pokerzoo.agents.policy import PolicyAgent, shipped_policies
from pokerzoo.agents.policy_file import PolicyFileError
from pokerzoo.envs import game_class
from pokerzoo.envs.engine.options import ConfigError
from pokerzoo.evaluation import history

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                HealthCheck.function_scoped_fixture])  # fmt: skip
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=25,
)
POLICY_ERRORS = (PolicyFileError, ConfigError, FileNotFoundError)


@pytest.fixture(scope="module")
def genuine() -> tuple[dict, bytes]:
    src = shipped_policies("caribbean_stud")["ppo"]
    return json.loads(src.read_text()), src.with_suffix(".safetensors").read_bytes()


def load_policy(folder: Path, document: bytes | str, weights: bytes) -> None:
    (folder / "p.json").write_bytes(document if isinstance(document, bytes) else document.encode())
    (folder / "ppo.safetensors").write_bytes(weights)
    try:
        agent = PolicyAgent(folder / "p.json", env_name="caribbean_stud")
    except POLICY_ERRORS:
        return
    game = game_class("caribbean_stud")(seed=0)
    agent.act(game.view(0), game.legal_mask(), game)  # a policy that loads also plays


@FUZZ
@given(data=st.binary(max_size=2000))
def test_random_bytes_as_a_policy_document(genuine, data):
    with tempfile.TemporaryDirectory() as tmp:
        load_policy(Path(tmp), data, genuine[1])


@FUZZ
@given(document=JSON)
def test_random_json_as_a_policy_document(genuine, document):
    with tempfile.TemporaryDirectory() as tmp:
        load_policy(Path(tmp), json.dumps(document), genuine[1])


def _paths(doc, prefix=()):
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield (*prefix, k)
            yield from _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield (*prefix, i)
            yield from _paths(v, (*prefix, i))


@FUZZ
@given(data=st.data(), value=JSON)
def test_a_genuine_policy_document_with_one_field_replaced(genuine, data, value):
    doc = json.loads(json.dumps(genuine[0]))
    paths = [p for p in _paths(doc) if p[0] != "provenance"]
    path = data.draw(st.sampled_from(paths))
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with tempfile.TemporaryDirectory() as tmp:
        load_policy(Path(tmp), json.dumps(doc), genuine[1])


@FUZZ
@given(weights=st.binary(max_size=3000), keep_header=st.booleans())
def test_random_bytes_as_the_weights_of_a_genuine_document(genuine, weights, keep_header):
    doc, real = json.loads(json.dumps(genuine[0])), genuine[1]
    if keep_header:  # a genuine safetensors header over random data: the parser's checks, not the hash's
        size = int.from_bytes(real[:8], "little")
        weights = real[: 8 + size] + weights
    doc["weights"]["sha256"] = hashlib.sha256(weights).hexdigest()
    with tempfile.TemporaryDirectory() as tmp:
        load_policy(Path(tmp), json.dumps(doc), weights)


# --------------------------------------------------------------------------- hand histories
def replay_file(path: Path) -> None:
    try:
        for line, record in history.read(path):
            result = history.replay(record, line)
            assert isinstance(result.describe(), str)
    except ValueError:
        pass


@FUZZ
@given(data=st.binary(max_size=2000))
def test_random_bytes_as_a_hand_history(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "h.jsonl"
        path.write_bytes(data)
        replay_file(path)


HISTORY_FIELDS = st.fixed_dictionaries(
    {
        "game": st.sampled_from(["caribbean_stud_v0", "perico", "mexican_poker_v0", "chess"]) | st.text(max_size=5),
        "config": st.dictionaries(st.sampled_from(["num_players", "boxes", "num_hands", "x"]), JSON, max_size=2)
        | JSON,
        "seed": st.integers(-5, 2**70) | JSON,
        "actions": st.lists(st.integers(-2, 60), max_size=30) | JSON,
        "events": st.lists(JSON, max_size=4) | JSON,
        "rewards": st.lists(st.floats(allow_nan=True) | st.integers(), max_size=4) | JSON,
    },
    optional={"over": JSON, "seats": JSON},
)


@FUZZ
@given(records=st.lists(HISTORY_FIELDS | JSON, min_size=1, max_size=3))
def test_random_json_lines_as_a_hand_history(records):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "h.jsonl"
        path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
        replay_file(path)


def test_a_genuine_history_replays_and_an_edited_one_is_a_mismatch(tmp_path):
    from pokerzoo.evaluation.tournament import Tournament, run_tournament

    result = run_tournament(Tournament("perico", ("random",) * 4, deals=1, record=True), workers=1)
    record = result.records[0].history
    assert history.replay(record).ok
    edited = {**record, "actions": [*record["actions"][:-1], (record["actions"][-1] + 1) % 40]}
    assert not history.replay(edited).ok


# --------------------------------------------------------------------------- training configs
def load_config_file(path: Path) -> None:
    from pokerzoo.training.config import load_config

    with contextlib.suppress(ConfigError, FileNotFoundError):
        load_config(path)


@FUZZ
@given(data=st.binary(max_size=1000))
def test_random_bytes_as_a_training_config(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.yaml"
        path.write_bytes(data)
        load_config_file(path)


def config_dicts():
    from pokerzoo.training import config as train

    agents = st.sampled_from(["random", "heuristic", "nobody", "ppo", "policy:/x", "equity(simulations=3)",
                              "heuristic+random", "pimc(bid_budget=x)", ""])  # fmt: skip
    value = JSON | agents | st.lists(agents, max_size=3) | st.dictionaries(agents, JSON, max_size=2)
    sections = {
        name: st.dictionaries(st.sampled_from([o.name for o in options] + ["bogus"]), value, max_size=3)
        for name, options in train.SECTIONS.items()
    }
    top = st.dictionaries(st.sampled_from([o.name for o in train.TOP if o.name not in train.SECTIONS]), value,
                          max_size=4)  # fmt: skip
    game = st.sampled_from(["caribbean_stud", "perico", "breed_the_heifer", "chess"])
    return st.tuples(top, game, st.fixed_dictionaries({}, optional=sections)).map(
        lambda t: {**t[0], "game": t[1], **t[2]}
    )


@FUZZ
@given(cfg=config_dicts() | JSON)
def test_random_json_as_a_training_config(cfg):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.yaml"
        path.write_text(json.dumps(cfg))  # JSON is YAML
        load_config_file(path)
        path.write_text(yaml.safe_dump(cfg) if isinstance(cfg, dict) else json.dumps(cfg))
        load_config_file(path)


# --------------------------------------------------------------------------- checkpoints
@pytest.fixture(scope="module")
def checkpoint_folder(tmp_path_factory) -> Path:
    from pokerzoo.training.config import load_config
    from pokerzoo.training.train import Trainer

    run = tmp_path_factory.mktemp("ckpt") / "run"
    cfg = {"game": "caribbean_stud", "engine": "aec", "n_envs": 2, "vec_env": "dummy", "total_timesteps": 32,
           "checkpoint_every": 32,
           "ppo": {"n_steps": 16, "batch_size": 16, "net_arch": [4]}, "eval": {"every": 0, "final_deals": 2,
           "final_workers": 1}}  # fmt: skip
    Trainer(load_config(cfg), run, progress=False).train()
    return next((run / "checkpoints").glob("step_*"))


def test_the_genuine_checkpoint_reads(checkpoint_folder):
    from pokerzoo.training import checkpoint as ckpt

    assert ckpt.read(checkpoint_folder).step == 32
    assert np.isfinite(ckpt.read(checkpoint_folder).state["last_obs"]).all()


# --------------------------------------------------------------------------- the batched trainer's checkpoints
@pytest.fixture(scope="module")
def selfplay_checkpoint(tmp_path_factory) -> Path:
    from pokerzoo.training.config import load_config
    from pokerzoo.training.selfplay.trainer import SelfPlayTrainer

    run = tmp_path_factory.mktemp("sp_ckpt") / "run"
    cfg = {"game": "high_card", "n_envs": 16, "total_timesteps": 64, "checkpoint_every": 32,
           "ppo": {"n_steps": 2, "batch_size": 16, "net_arch": [4]}, "league": {"snapshot_every": 1},
           "eval": {"every": 0, "final_deals": 2, "final_workers": 1}}  # fmt: skip
    SelfPlayTrainer(load_config(cfg), run, progress=False).train()
    return next((run / "checkpoints").glob("step_*"))


def checkpoint_kind(request, kind: str):
    """(a genuine checkpoint folder, its reader, its files) of either trainer."""
    from pokerzoo.training import checkpoint as ckpt
    from pokerzoo.training.selfplay import checkpoint as sp_ckpt

    if kind == "aec":
        return request.getfixturevalue("checkpoint_folder"), ckpt.read, ckpt.FILES
    return request.getfixturevalue("selfplay_checkpoint"), sp_ckpt.read, sp_ckpt.FILES


@pytest.mark.parametrize("kind", ["aec", "batched"])
@FUZZ
@given(data=st.data(), vouch=st.booleans())
def test_random_bytes_as_any_file_of_a_checkpoint(request, kind, data, vouch):
    from pokerzoo.training import checkpoint as ckpt

    original, read, files = checkpoint_kind(request, kind)
    name = data.draw(st.sampled_from([ckpt.MANIFEST, *files]))
    raw = data.draw(st.binary(max_size=1500))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / original.name
        shutil.copytree(original, folder)
        (folder / name).write_bytes(raw)
        if vouch and name != ckpt.MANIFEST:  # the manifest rewritten to vouch for the new bytes
            manifest = json.loads((folder / ckpt.MANIFEST).read_text())
            manifest["files"][name] = hashlib.sha256(raw).hexdigest()
            (folder / ckpt.MANIFEST).write_text(json.dumps(manifest))
        with pytest.raises(ckpt.CheckpointError):
            read(folder)


@pytest.mark.parametrize("kind", ["aec", "batched"])
@FUZZ
@given(manifest=JSON)
def test_random_json_as_a_checkpoint_manifest(request, kind, manifest):
    from pokerzoo.training import checkpoint as ckpt

    original, read, _ = checkpoint_kind(request, kind)
    assume(manifest != json.loads((original / ckpt.MANIFEST).read_text()))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / original.name
        shutil.copytree(original, folder)
        (folder / ckpt.MANIFEST).write_text(json.dumps(manifest))
        with pytest.raises(ckpt.CheckpointError):
            read(folder)


def test_a_selfplay_checkpoint_holds_no_pickle(selfplay_checkpoint):
    from pokerzoo.training.selfplay import checkpoint as sp_ckpt

    found = sp_ckpt.read(selfplay_checkpoint)
    assert found.step >= 32 and all(a.dtype != object for a in found.arrays.values())
    with np.load(selfplay_checkpoint / "arrays.npz", allow_pickle=False) as data:
        assert {"env/state.hands", "buffer/open", "collector/acted"} <= set(data.files)
