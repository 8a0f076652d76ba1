"""Averaging checkpoints: the written policy's tensors are the inputs' mean, it plays, its provenance lists the
inputs, and policies that are not one network (or a bad output) are refused by name with nothing written."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from pokerzoo.agents.policy_file import read_policy
from pokerzoo.cli.main import main
from pokerzoo.training.policy_average import average_policies
from pokerzoo.training.policy_export import save_policy
from pokerzoo.training.selfplay.network import ActorCritic

THREE = {"game": "high_card_v0", "options": {"num_players": 3}, "observation_size": 59, "num_actions": 2}


def checkpoint(path, seed, *, hidden=(4,), document=THREE):
    torch.manual_seed(seed)
    net = ActorCritic(59, 2, list(hidden), "relu")
    with torch.no_grad():  # biases start at zero: move every tensor, so that no two checkpoints share one
        for parameter in net.parameters():
            parameter.add_(torch.randn_like(parameter))
    return save_policy(net, path, {**document, "provenance": {"timesteps": seed}})


@pytest.fixture
def three(tmp_path):
    return [checkpoint(tmp_path / f"c{i}" / "policy.json", i) for i in (1, 2, 3)]


def test_the_mean_of_the_weights_as_one_policy_that_plays(three, tmp_path):
    out = average_policies(three, tmp_path / "mean" / "policy.json")
    inputs = [read_policy(p) for p in three]
    mean = read_policy(out)
    assert set(mean.tensors) == set(inputs[0].tensors)
    for name, tensor in mean.tensors.items():
        np.testing.assert_allclose(tensor, np.mean([f.tensors[name] for f in inputs], axis=0), rtol=1e-6, atol=1e-7)
        assert not np.allclose(tensor, inputs[0].tensors[name])  # the inputs differ, so the mean is none of them
    averaged = mean.document["provenance"]["averaged"]
    assert [a["sha256"] for a in averaged] == [f.document["weights"]["sha256"] for f in inputs]
    assert [a["timesteps"] for a in averaged] == [1, 2, 3]
    assert mean.document["provenance"]["timesteps"] == 3  # the latest input's: the experience behind the mean
    assert {k: mean.document[k] for k in THREE} == THREE
    report = tmp_path / "eval"
    assert main(["evaluate", "high_card", "--config", "num_players=3", "--agents", f"policy:{out}", "threshold",
                 "random", "--games", "6", "--workers", "1", "--out", str(report), "--no-progress"]) == 0  # fmt: skip
    assert f"policy:{out}" in {a["agent"] for a in json.loads((report / "report.json").read_text())["agents"]}


def test_the_cli_writes_it_and_refuses_to_overwrite(three, tmp_path, capsys):
    out = tmp_path / "m.json"
    assert main(["policy", "average", *map(str, three), "--out", str(out), "--weights", "float16"]) == 0
    assert f"policy:{out}" in capsys.readouterr().out
    assert read_policy(out).document["weights"]["dtype"] == "float16"
    before = out.read_bytes()
    assert main(["policy", "average", *map(str, three[:2]), "--out", str(out)]) == 2
    assert "exists" in capsys.readouterr().err and out.read_bytes() == before
    assert main(["policy", "average", *map(str, three[:2]), "--out", str(out), "--force"]) == 0
    assert out.read_bytes() != before


def test_policies_that_are_not_one_network_are_refused_by_name(three, tmp_path):
    out = tmp_path / "m.json"
    wider = checkpoint(tmp_path / "w" / "policy.json", 4, hidden=(6,))
    with pytest.raises(ValueError, match=r"/w/policy.json: tensor '[\w.]+' is \(.*6.*\), not \(.*4.*\) as in"):
        average_policies([three[0], wider], out)
    four = checkpoint(tmp_path / "f" / "policy.json", 5, document={**THREE, "options": {"num_players": 4}})
    with pytest.raises(ValueError, match=r"its 'options' is \{'num_players': 4\}, not \{'num_players': 3\}"):
        average_policies([three[0], four], out)
    with pytest.raises(ValueError, match="at least two policies, got 1"):
        average_policies(three[:1], out)
    with pytest.raises(ValueError, match="named twice"):
        average_policies([three[0], three[0]], out)
    with pytest.raises(ValueError, match="is one of the policies averaged"):
        average_policies(three, three[1])
    assert not out.exists() and not out.with_suffix(".safetensors").exists()
    assert json.loads(three[1].read_text())["provenance"] == {"timesteps": 2}  # the input untouched


def test_a_weighted_mean_interpolates_and_bad_coefficients_are_refused(three, tmp_path, capsys):
    inputs = [read_policy(p) for p in three[:2]]
    out = tmp_path / "mix.json"
    assert main(["policy", "average", *map(str, three[:2]), "--coefficients", "0.75", "0.25", "--out", str(out)]) == 0
    assert "weighted 0.75, 0.25" in capsys.readouterr().out
    mix = read_policy(out)
    for name, tensor in mix.tensors.items():
        want = 0.75 * inputs[0].tensors[name] + 0.25 * inputs[1].tensors[name]
        np.testing.assert_allclose(tensor, want, rtol=1e-6, atol=1e-7)
    assert [a["coefficient"] for a in mix.document["provenance"]["averaged"]] == [0.75, 0.25]
    uniform = read_policy(average_policies(three, tmp_path / "u.json"))
    assert [a["coefficient"] for a in uniform.document["provenance"]["averaged"]] == pytest.approx([1 / 3] * 3)
    bad = tmp_path / "bad.json"
    for coefficients, message in (
        ([0.5], "1 given for 2 policies"),
        ([1.5, -0.5], r"each must be in \[0, 1\]"),
        ([0.5, 0.4], "they sum to 0.9, not 1"),
        ([float("nan"), 1.0], "each must be in"),
    ):
        with pytest.raises(ValueError, match=message):
            average_policies(three[:2], bad, coefficients=coefficients)
    assert not bad.exists()



def test_options_left_at_their_defaults_are_the_same_options(three, tmp_path):
    """A newer document lists only the options it sets where an older one lists every option (high card's
    default is three players): the two are one network's options."""
    bare = checkpoint(tmp_path / "s" / "policy.json", 7, document={**THREE, "options": {}})
    out = average_policies([three[0], bare], tmp_path / "m.json")
    assert read_policy(out).document["options"] == {"num_players": 3}
