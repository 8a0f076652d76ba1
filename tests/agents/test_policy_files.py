"""Policy files hold no code: shipped policies keep their logits bit for bit, conversion needs --trust,
and a broken, mixed-up or tampered file is refused with PolicyFileError."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from pokerzoo.agents.policy import PolicyAgent, load_policy_net, shipped_policies
from pokerzoo.agents.policy_file import PolicyFileError, read_policy
from pokerzoo.agents.registry import make_agent
from pokerzoo.envs import canonical

# Every shipped policy is now one of the batched trainer's (issue 20), which writes the policy format itself; the
# first releases were SB3 zips converted with `pokerzoo policy convert --trust` (tested below on a fresh zip).
SHIPPED = ["caribbean_stud", "mexican_poker", "perico", "breed_the_heifer", "raspisnoy_poker"]


@pytest.mark.parametrize("game", SHIPPED)
def test_shipped_policy_documents_carry_their_provenance(game):
    doc = read_policy(shipped_policies(game)["ppo"]).document
    prov = doc["provenance"]
    assert canonical(prov["config"]["game"]) == doc["game"] == canonical(game)
    assert prov["training_commands"] and prov["evaluation"]
    # trained on the batched engine: its run's throughput, and the fresh-deal evaluations with their commands
    assert prov["throughput"]["engine"] == "batched" and prov["throughput"]["timesteps"] > 0
    commands = [r["command"] for e in prov["further_evaluations"] for r in e["rows"]]
    assert all(c.startswith(("pokerzoo evaluate ", "pokerzoo pool ")) for c in commands)
    for pooled in (c for c in commands if c.startswith("pokerzoo pool ")):  # its pieces' commands are there too
        pieces = pooled.split()[2 : pooled.split().index("--out")]
        made = [c for c in commands if c.startswith("pokerzoo evaluate ")]
        assert all(any(c.endswith(f"--out {d}") for c in made) for d in pieces), pooled
    assert doc["architecture"]["critic"], "the critic travels too (fine-tuning with init_from)"


def test_the_package_ships_no_pickles():
    root = Path(__file__).resolve().parents[2] / "agents" / "policies"
    assert not [p for p in root.rglob("*") if p.suffix in (".zip", ".pkl", ".pt", ".pth")]


@pytest.fixture(scope="module")
def sb3_zip(tmp_path_factory):
    """A small MaskablePPO model saved as Stable-Baselines3 saves it (weights perturbed off their init)."""
    import torch
    from sb3_contrib import MaskablePPO

    from pokerzoo.training.single_seat import SingleSeatEnv

    model = MaskablePPO(
        "MlpPolicy",
        SingleSeatEnv("perico", {"num_players": 3}),
        n_steps=8,
        batch_size=8,
        seed=5,
        device="cpu",
        policy_kwargs={"net_arch": [48, 24], "activation_fn": torch.nn.ReLU},
    )
    with torch.no_grad():
        for p in model.policy.parameters():
            p.add_(torch.randn_like(p) * 0.3)
    model.pokerzoo = {"game": "perico_v0", "config": {"num_players": 3}, "timesteps": 0}
    path = tmp_path_factory.mktemp("sb3") / "model.zip"
    model.save(str(path))
    return path, model


def test_conversion_keeps_the_old_numpy_actors_logits_bit_for_bit(sb3_zip, tmp_path):
    from pokerzoo.agents.policy import PolicyNet
    from pokerzoo.training.policy_export import convert_sb3_zip, numpy_actor

    path, model = sb3_zip
    out = convert_sb3_zip(path, tmp_path / "mine.json", trust=True)
    old, new = PolicyNet(numpy_actor(model.policy), {}), load_policy_net(out)
    rng = np.random.default_rng(0)
    obs = np.concatenate([rng.random((1500, new.observation_size), dtype=np.float32),
                          rng.integers(0, 2, (500, new.observation_size)).astype(np.float32)])  # fmt: skip
    for o in obs:
        assert np.array_equal(old.logits(o), new.logits(o))
    assert np.array_equal(old.logits(obs), new.logits(obs))
    doc = read_policy(out).document
    assert doc["game"] == "perico_v0" and doc["options"] == {"num_players": 3}
    assert [x["activation"] for x in doc["architecture"]["actor"]] == ["relu", "relu", "identity"]
    agent = PolicyAgent(out, env_name="perico")
    assert agent.meta["provenance"]["converted_from"]["file"] == "model.zip"


def test_conversion_needs_trust_and_the_cli_says_what_trusting_means(sb3_zip, tmp_path, capsys):
    from pokerzoo.cli.main import main
    from pokerzoo.training.policy_export import convert_sb3_zip

    path, _ = sb3_zip
    with pytest.raises(PolicyFileError, match="without --trust"):
        convert_sb3_zip(path, tmp_path / "x.json", trust=False)
    assert main(["policy", "convert", str(path), "--out", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert "without --trust" in err and "runs whatever code it carries" in err and "Traceback" not in err
    assert not (tmp_path / "x.json").exists()
    out = tmp_path / "y.json"
    assert main(["policy", "convert", "--trust", str(path), "--out", str(out), "--weights", "float16"]) == 0
    assert read_policy(out).document["weights"]["dtype"] == "float16"
    assert main(["policy", "convert", "--trust", str(path), "--out", str(out)]) == 2  # no silent overwrite
    assert "exists" in capsys.readouterr().err
    assert main(["policy", "show", str(out)]) == 0
    assert "actor: 423 -> 48 -> 24 -> 40" in capsys.readouterr().out.replace("423", "423")  # perico, 3 players


def test_an_sb3_zip_is_refused_as_a_policy_with_the_way_out(sb3_zip):
    path, _ = sb3_zip
    for spec in (f"policy:{path}", f"policy:{path.parent}"):
        with pytest.raises(PolicyFileError, match="convert --trust"):
            make_agent("perico", spec)


@pytest.fixture
def policy_copy(tmp_path) -> Path:
    src = shipped_policies("caribbean_stud")["ppo"]
    shutil.copy(src, tmp_path / "p.json")
    shutil.copy(src.with_suffix(".safetensors"), tmp_path / "ppo.safetensors")
    return tmp_path / "p.json"


def _edit(path: Path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda d: d.update(format="pokerzoo.policy/9"), "not a pokerzoo policy document"),
        (lambda d: d.update(game="chess"), "unknown game"),
        (lambda d: d.update(observation_size=180), r"do not take 180 inputs"),
        (lambda d: d.update(num_actions=3), "ends with 2 outputs, expected 3"),
        (lambda d: d["architecture"]["actor"][0].update(activation="exec"), "activation"),
        (lambda d: d["architecture"]["actor"][0].update(weight="nope"), "names tensor 'nope'"),
        (lambda d: d["weights"].update(file="../ppo.safetensors"), "beside the document"),
        (lambda d: d["weights"].update(sha256="0" * 64), "does not belong to"),
        (lambda d: d["weights"].update(dtype="float16"), "the document says float16"),
        (lambda d: d.update(options={"boxes": 9}), "boxes"),
    ],
)
def test_a_broken_or_tampered_policy_is_refused_naming_the_problem(policy_copy, change, match):
    from pokerzoo.envs.engine.options import ConfigError

    _edit(policy_copy, change)
    with pytest.raises((PolicyFileError, ConfigError), match=match):
        PolicyAgent(policy_copy, env_name="caribbean_stud")


def test_the_writer_refuses_to_leave_a_file_the_reader_would_refuse(policy_copy):
    from safetensors.numpy import load

    from pokerzoo.agents.policy_file import write_policy

    tensors = load(policy_copy.with_name("ppo.safetensors").read_bytes())
    bad = {k: v.copy() for k, v in tensors.items()}
    next(iter(bad.values())).flat[0] = np.inf
    doc = json.loads(policy_copy.read_text())
    with pytest.raises(PolicyFileError, match="NaN or infinite"):
        write_policy(policy_copy.with_name("inf.json"), doc, bad)
    assert not list(policy_copy.parent.glob("inf.*"))


def test_a_policy_in_a_game_of_other_sizes_names_the_shipped_policies_and_their_options():
    """The five-card Perico policy at a six-card table: the sizes, and which shipped policy plays what."""
    from pokerzoo.envs.perico.game import PericoGame
    from pokerzoo.evaluation.tournament import play_game

    agent = make_agent("perico", "ppo", seed=0)
    game = PericoGame(seed=0, six_card=True)
    others = [make_agent("perico", "random", seed=s) for s in range(1, game.num_players)]
    with pytest.raises(ValueError) as err:
        play_game(game, [agent, *others])
    message = str(err.value)
    assert "has 40 actions, the game's mask 73 (different game options?)" in message
    assert "the policies shipped for perico_v0, with their options: ppo ({})" in message
    for name, path in shipped_policies("perico").items():
        assert f"{name} ({dict(read_policy(path).document.get('options') or {})})" in message


def test_a_rewritten_document_keeps_its_weights_file_and_a_wrong_one_changes_nothing(tmp_path):
    """Provenance added after shipping rewrites the document only: the weights file's bytes stay."""
    from pokerzoo.agents.policy_file import rewrite_document  # Deferred: only this test rewrites a document

    for name in ("ppo.json", "ppo.safetensors"):
        shutil.copy(shipped_policies("caribbean_stud")["ppo"].with_name(name), tmp_path / name)
    path, weights = tmp_path / "ppo.json", (tmp_path / "ppo.safetensors").read_bytes()
    document = read_policy(path).document
    rewrite_document(path, {**document, "provenance": {**document["provenance"], "note": "added later"}})
    assert read_policy(path).document["provenance"]["note"] == "added later"
    assert (tmp_path / "ppo.safetensors").read_bytes() == weights
    before = path.read_bytes()
    wrong_hash = {**document, "weights": {**document["weights"], "sha256": "0" * 64}}
    wrong_size = {**document, "observation_size": document["observation_size"] + 1}
    for bad, message in ((wrong_hash, "does not belong to"), (wrong_size, "")):
        with pytest.raises(PolicyFileError, match=message):
            rewrite_document(path, bad)
        assert path.read_bytes() == before and not list(tmp_path.glob("*.tmp*"))


def test_the_same_weights_make_the_same_file(tmp_path):
    """Safetensors writes its header's metadata in an order that changes from call to call; the policy writer
    puts it in one order, so the same weights always get the same bytes and SHA-256, and still load."""
    from pokerzoo.agents.policy_file import write_policy  # Deferred: only these tests write policies

    source = read_policy(shipped_policies("caribbean_stud")["ppo"])
    document = {k: v for k, v in source.document.items() if k != "weights"}
    files = {write_policy(tmp_path / f"p{i}" / "ppo.json", document, source.tensors).with_suffix(".safetensors")
             .read_bytes() for i in range(12)}  # fmt: skip
    assert len(files) == 1
    written = read_policy(tmp_path / "p0" / "ppo.json")
    assert all(np.array_equal(written.tensors[k], v.astype(np.float32)) for k, v in source.tensors.items())
