"""The Caribbean stud exact-EV fine-tune (``pokerzoo.training.exact_ev``): targets, loss, a tiny run and its files."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from pokerzoo.agents.caribbean_stud import ExactEV, raise_ev, single_box_view
from pokerzoo.agents.policy import PolicyAgent
from pokerzoo.agents.policy_file import read_policy
from pokerzoo.envs.caribbean_stud import simulate
from pokerzoo.envs.caribbean_stud.game import FOLD, RAISE
from pokerzoo.training import exact_ev
from pokerzoo.training.shipping import write_policies_readme

SHIPPED = "agents/policies/caribbean_stud/ppo.json"


@pytest.fixture(scope="module")
def targets():
    return exact_ev.exact_targets(600, seed=3, progress=False)


def test_targets_are_exact_evs_decisions(targets):
    """Every label is exact_ev's decision; the gap is |EV(raise) + 1| where enumerated (Ace-King high) and NaN
    elsewhere; the observations are the env's encoding of the same hands."""
    box_cards, dealer = simulate.split(simulate.deal_batch(np.random.default_rng(3), 600))
    agent = ExactEV(seed=0)
    for i in range(600):
        view = single_box_view(box_cards[i, 0].tolist(), int(dealer[i, 4]))
        assert targets["label"][i] == (RAISE if agent.raise_box(view) else FOLD)
        if targets["enumerated"][i]:
            ev = raise_ev(box_cards[i, 0].tolist(), int(dealer[i, 4]))[0]
            assert targets["gap"][i] == pytest.approx(abs(ev + 1.0))
        else:
            assert np.isnan(targets["gap"][i])
    assert 10 < targets["enumerated"].sum() < 100  # about 7% of hands are Ace-King high
    assert targets["obs"].shape == (600, 179) and targets["obs"].any(axis=1).all()


def test_ev_loss_counts_the_gap_of_every_worse_decision(targets):
    """A net that always folds loses, per hand, the gap of every enumerated hand exact_ev raises."""

    class AlwaysFold(torch.nn.Module):
        def forward(self, obs):
            return torch.tensor([[1.0, 0.0]]).repeat(obs.shape[0], 1)

    row = exact_ev.ev_loss(AlwaysFold(), targets)
    raised = targets["enumerated"] & (targets["label"] == RAISE)
    assert row["ev_loss_per_ante"] == pytest.approx(targets["gap"][raised].sum() / 600)
    assert row["disagreements"] == raised.sum()
    assert row["off_rule"] == ((targets["label"] == RAISE) & ~targets["enumerated"]).sum()


def test_actor_module_is_the_policy_files_actor():
    policy = read_policy(SHIPPED)
    net = exact_ev.actor_module(policy)
    obs = np.random.default_rng(0).random((5, 179), dtype=np.float32)
    agent = PolicyAgent(SHIPPED)
    with torch.no_grad():
        got = net(torch.from_numpy(obs)).numpy()
    np.testing.assert_allclose(got, agent._net.logits(obs), rtol=1e-5, atol=1e-5)


def test_a_tiny_run_writes_a_loadable_policy_with_only_its_actor_changed(tmp_path, capsys):
    out = tmp_path / "run"
    argv = ["--init", SHIPPED, "--hands", "600", "--held-out", "400", "--epochs", "2", "--lr", "1e-3",
            "--seed", "3", "--out", str(out), "--no-progress"]  # fmt: skip
    assert exact_ev.main(argv) == 0
    assert f"run folder: {out}" in capsys.readouterr().out
    report = json.loads((out / "report.json").read_text())
    assert [r["epoch"] for r in report["fine_tune"]["held_out_ev_loss"]] == [0, 1, 2]
    assert (out / "epochs.csv").read_text().count("\n") == 4
    parent, tuned = read_policy(SHIPPED), read_policy(out / "final" / "policy.json")
    actor = {name for layer in parent.actor for name in (layer.weight, layer.bias)}
    for name, tensor in parent.tensors.items():
        same = np.array_equal(tensor, tuned.tensors[name])
        assert same != (name in actor), name  # the critic untouched, every actor tensor moved
    provenance = tuned.document["provenance"]
    assert provenance["fine_tune"]["hands"] == 600 and provenance["timesteps"] == parent.document["provenance"][
        "timesteps"
    ]
    assert provenance["training_commands"][-1].startswith("python -m pokerzoo.training.exact_ev --init")
    agent = PolicyAgent(out / "final" / "policy.json", env_name="caribbean_stud_v0")
    assert agent.act(_view(), np.array([True, True])) in (FOLD, RAISE)


def _view():
    return single_box_view([12, 11, 5, 3, 20], 30)


def test_bad_arguments_are_refused_with_the_option_named(capsys):
    refused = [
        (["--init", SHIPPED, "--hands", "0"], "--hands must be >= 1"),
        (["--init", SHIPPED, "--lr", "nan"], "--lr must be > 0"),
        (["--init", "agents/policies/perico/ppo.json"], "a one-hand caribbean_stud_v0 policy"),
    ]
    for argv, words in refused:
        with pytest.raises(SystemExit) as exc:
            exact_ev.main(argv)
        assert exc.value.code == 2 and words in capsys.readouterr().err


def test_the_policies_readme_names_the_fine_tune(tmp_path):
    tune = {"hands": 600, "enumerated": 40, "epochs": 2, "wall_seconds": 60.0, "held_out": 400,
            "held_out_ev_loss": [{"ev_loss_per_ante": 0.0002}, {"ev_loss_per_ante": 0.0001}],
            "command": "python -m pokerzoo.training.exact_ev --init X"}  # fmt: skip
    parent = read_policy(SHIPPED)
    doc = dict(parent.document)
    row = {"agent": "ppo", "hands": 1000, "seed": 5, "ev_loss_per_ante": 6e-6, "ci95": 2e-6, "disagreements": 3}
    loss = {"rows": [row], "commands": ["python benchmarks/caribbean_policy_gap.py --agents ppo"]}
    doc["provenance"] = {**doc["provenance"], "fine_tune": tune, "exact_ev_loss": loss}
    (tmp_path / "ppo.json").write_text(json.dumps(doc))
    write_policies_readme(tmp_path)
    text = (tmp_path / "README.md").read_text()
    assert "actor fine-tuned on the exact values of both decisions of 600 hands" in text
    assert "from 0.0200 to 0.0100 points per 100 antes" in text
    assert "| `ppo` | 1,000 (5) | 0.0006 | ±0.0002 | 3 |" in text
