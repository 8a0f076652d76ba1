"""``init_from`` a policy whose observation the run's extends (an option that appends pieces), in both trainers.

* the run starts as exactly the source policy: the layers that read the
  observation get zero columns for the new entries (the other tensors as
  they were), so its logits on the longer observation are the source's on
  the shorter one, on Breed the Heifer states made by random play with
  ``action_counts`` on;
* a residual policy (a prior) likewise: the zero columns go between the
  observation and the one-hot of its prior's action;
* a policy without a prior starts a run with one: the prior's one-hot is
  read at zero weights, so the run's logits are the policy's, lifted by the
  prior's weight at the prior's action (none at weight 0);
* the MaskablePPO trainer (``engine: aec``) starts from it the same way,
  and refuses a residual policy (one that plays on top of a prior, which
  that trainer has not), naming the prior (``init_policy_weights``: the
  rule all trainers share);
* a policy whose observation the run's does not begin with (the longer one
  into the shorter run) is refused, naming both sizes, before any weight
  is copied;
* a run whose hidden layers are wider (``ppo.net_arch``) starts as exactly
  the narrower policy too, with its observation extended at the same time,
  in both trainers: the file's units in the leading block, reading nothing
  new, and the new units read by zero weights; after a few updates those
  weights have moved, so the new units are learning;
* a narrower run, or a resume from a checkpoint (``may_widen`` off), is
  refused, naming the tensor and both shapes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from pokerzoo.agents.policy import load_policy_net
from pokerzoo.agents.policy_file import read_policy
from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame
from pokerzoo.training.config import load_config
from pokerzoo.training.engines import make_trainer
from pokerzoo.training.policy_export import load_policy_weights, policy_document, save_policy
from pokerzoo.training.selfplay.loop import SelfPlay

sys.path.insert(0, str(Path(__file__).parent))
from test_selfplay_trainer import tiny  # (the trainer tests' tiny run)
from test_train import tiny as tiny_aec  # (the MaskablePPO trainer's)

HEIFER = {"game": "breed_the_heifer_v0", "eval__baselines": ["random"], "league__scripted": ["random"],
          "league__snapshot_every": 0, "ppo__net_arch": [16, 8]}  # fmt: skip
COUNTS = {"action_counts": True}


def _policy(tmp: Path, options: dict, **changes) -> Path:
    """A new (randomly initialised) Breed the Heifer policy trained with ``options``, as a policy file."""
    cfg = load_config(tiny(**HEIFER, options=options, eval__options=options, **changes))
    return save_policy(SelfPlay(cfg).model, tmp / "source", policy_document(cfg, 0))


def _observations(options: dict, count: int = 40) -> np.ndarray:
    """Observations of the seat to act in games of random play, ``count`` of them."""
    rng, rows = np.random.default_rng(7), []
    while len(rows) < count:
        game = BreedTheHeiferGame(seed=int(rng.integers(1 << 30)), **options)
        while not game.is_over and len(rows) < count:
            rows.append(game.observe(game.current_player))
            game.apply(int(rng.choice(game.legal_actions())))
    return np.stack(rows).astype(np.float32)


def test_a_run_with_action_counts_starts_as_the_policy_trained_without(tmp_path):
    source = _policy(tmp_path, {})
    cfg = tiny(**HEIFER, options=COUNTS, eval__options=COUNTS, total_timesteps=300, checkpoint_every=0, eval__every=0,
               ppo__learning_rate=0.0, init_from=str(source))  # fmt: skip
    run = tmp_path / "run"
    make_trainer(load_config(cfg), run, progress=False).train()
    before, after = read_policy(source).tensors, read_policy(run / "final" / "policy.json").tensors
    extra = (
        read_policy(run / "final" / "policy.json").document["observation_size"]
        - before["mlp_extractor.policy_net.0.weight"].shape[1]
    )
    assert extra == 15  # three counts for each of five seats
    for name, weights in before.items():
        if name in ("mlp_extractor.policy_net.0.weight", "mlp_extractor.value_net.0.weight"):
            np.testing.assert_array_equal(after[name][:, : weights.shape[1]], weights)
            np.testing.assert_array_equal(after[name][:, weights.shape[1] :], 0.0)
        else:
            np.testing.assert_array_equal(after[name], weights, err_msg=name)
    wide, narrow = load_policy_net(run / "final" / "policy.json"), load_policy_net(source)
    obs = _observations(COUNTS)
    assert np.any(obs[:, -extra:] > 0)  # the counts are there to be ignored
    np.testing.assert_allclose(wide.logits(obs), narrow.logits(obs[:, :-extra]), rtol=1e-6, atol=1e-6)


def test_a_residual_policy_gets_the_new_columns_before_its_priors_one_hot(tmp_path):
    station = {"prior__agent": "calling_station", "prior__weight": 2.5}
    source = _policy(tmp_path, {}, **station)
    cfg = tiny(**HEIFER, **station, options=COUNTS, eval__options=COUNTS, total_timesteps=300, checkpoint_every=0,
               eval__every=0, ppo__learning_rate=0.0, init_from=str(source))  # fmt: skip
    make_trainer(load_config(cfg), tmp_path / "run", progress=False).train()
    wide, narrow = load_policy_net(tmp_path / "run" / "final" / "policy.json"), load_policy_net(source)
    obs, prior = _observations(COUNTS), np.arange(40) % 5
    assert wide.observation_size == narrow.observation_size + 15
    np.testing.assert_allclose(wide.logits(obs, prior), narrow.logits(obs[:, :-15], prior), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("weight", [0.0, 2.5])
def test_a_policy_without_a_prior_starts_a_run_with_one_reading_it_at_zero_weights(tmp_path, weight):
    source = _policy(tmp_path, {})
    station = {"prior__agent": "calling_station", "prior__weight": weight}
    cfg = tiny(**HEIFER, **station, options=COUNTS, eval__options=COUNTS, total_timesteps=300, checkpoint_every=0,
               eval__every=0, ppo__learning_rate=0.0, init_from=str(source))  # fmt: skip
    make_trainer(load_config(cfg), tmp_path / "run", progress=False).train()
    run = tmp_path / "run" / "final" / "policy.json"
    before, after = read_policy(source).tensors, read_policy(run).tensors
    for name in ("mlp_extractor.policy_net.0.weight", "mlp_extractor.value_net.0.weight"):
        inputs = before[name].shape[1]
        np.testing.assert_array_equal(after[name][:, :inputs], before[name])
        np.testing.assert_array_equal(after[name][:, inputs:], 0.0)  # 15 counts, then the prior's 5 actions
        assert after[name].shape[1] == inputs + 15 + 5
    residual, plain = load_policy_net(run), load_policy_net(source)
    obs, prior = _observations(COUNTS), np.arange(40) % 5
    assert residual.prior["weight"] == weight
    lifted = plain.logits(obs[:, :-15]) + weight * np.eye(5, dtype=np.float32)[prior]
    np.testing.assert_allclose(residual.logits(obs, prior), lifted, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("net_arch", [[16, 8], [32, 12]], ids=["same widths", "wider"])
def test_the_maskableppo_trainer_starts_from_it_the_same_way(tmp_path, net_arch):
    source = _policy(tmp_path, {})
    cfg = tiny_aec("breed_the_heifer_v0", options=COUNTS, eval__options=COUNTS, total_timesteps=64,
                   checkpoint_every=0, eval__every=0, ppo__learning_rate=0.0, ppo__net_arch=net_arch,
                   init_from=str(source))  # fmt: skip
    make_trainer(load_config(cfg), tmp_path / "run", progress=False).train()
    wide, narrow = load_policy_net(tmp_path / "run" / "final" / "policy.json"), load_policy_net(source)
    obs = _observations(COUNTS)
    np.testing.assert_allclose(wide.logits(obs), narrow.logits(obs[:, :-15]), rtol=1e-6, atol=1e-6)


def test_the_maskableppo_trainer_refuses_a_residual_policy_naming_its_prior(tmp_path):
    source = _policy(tmp_path, {}, prior__agent="calling_station", prior__weight=2.5)
    cfg = tiny_aec("breed_the_heifer_v0", total_timesteps=64, checkpoint_every=0, eval__every=0,
                   ppo__net_arch=[16, 8], init_from=str(source))  # fmt: skip
    with pytest.raises(ValueError, match=r"its policy plays on top of .*calling_station.*this run on top of no prior"):
        make_trainer(load_config(cfg), tmp_path / "run", progress=False).train()


def test_a_policy_of_a_longer_observation_is_refused(tmp_path):
    source = _policy(tmp_path, COUNTS)
    cfg = tiny(**HEIFER, options={}, total_timesteps=300, checkpoint_every=0, eval__every=0, init_from=str(source))
    with pytest.raises(ValueError, match=r"init_from .*: its policy takes 403 observation entries .* has 388"):
        make_trainer(load_config(cfg), tmp_path / "run", progress=False).train()


WIDE = {"ppo__net_arch": [32, 12]}  # HEIFER's [16, 8], wider in both layers


def test_a_wider_run_starts_as_the_narrower_policy_and_its_new_units_learn(tmp_path):
    source = _policy(tmp_path, {})
    still = tiny(**{**HEIFER, **WIDE}, options=COUNTS, eval__options=COUNTS, total_timesteps=300, checkpoint_every=0,
                 eval__every=0, ppo__learning_rate=0.0, init_from=str(source))  # fmt: skip
    make_trainer(load_config(still), tmp_path / "still", progress=False).train()
    wide, narrow = load_policy_net(tmp_path / "still" / "final" / "policy.json"), load_policy_net(source)
    obs = _observations(COUNTS)
    np.testing.assert_allclose(wide.logits(obs), narrow.logits(obs[:, :-15]), rtol=1e-6, atol=1e-6)
    before, after = read_policy(source).tensors, read_policy(tmp_path / "still" / "final" / "policy.json").tensors
    assert after["mlp_extractor.policy_net.2.weight"].shape == (12, 32)
    np.testing.assert_array_equal(after["mlp_extractor.policy_net.2.weight"][:8, :16],
                                  before["mlp_extractor.policy_net.2.weight"])  # fmt: skip
    np.testing.assert_array_equal(after["mlp_extractor.policy_net.2.weight"][:8, 16:], 0.0)
    assert np.all(np.abs(after["mlp_extractor.policy_net.2.weight"][8:]).sum(axis=1) > 0)  # new units read all
    np.testing.assert_array_equal(after["action_net.weight"][:, 8:], 0.0)

    moving = {**still, "ppo": {**still["ppo"], "learning_rate": 0.001}}
    make_trainer(load_config(moving), tmp_path / "moving", progress=False).train()
    learnt = read_policy(tmp_path / "moving" / "final" / "policy.json").tensors
    assert np.abs(learnt["action_net.weight"][:, 8:]).max() > 0  # the new units are read now


def test_a_narrower_run_is_refused_naming_the_tensor(tmp_path):
    source = _policy(tmp_path, {})
    cfg = tiny(**{**HEIFER, "ppo__net_arch": [16, 4]}, options={}, eval__options={}, total_timesteps=300,
               checkpoint_every=0, eval__every=0, init_from=str(source))  # fmt: skip
    refused = r"does not match ppo.net_arch.*: tensor [\w.]+ is \([\d, ]+\), this network's \([\d, ]+\); a run "
    with pytest.raises(ValueError, match=refused + r"takes the file's layers at their widths or wider \(init_from\)"):
        make_trainer(load_config(cfg), tmp_path / "run", progress=False).train()


def test_loading_without_may_widen_takes_only_the_same_widths(tmp_path):
    source = _policy(tmp_path, {})
    wider = SelfPlay(load_config(tiny(**{**HEIFER, **WIDE}, options={}, eval__options={}))).model
    with pytest.raises(ValueError, match=r"tensor [\w.]+ is \([\d, ]+\), this network's \([\d, ]+\); "
                       r"a run takes the file's layers at their widths$"):  # fmt: skip
        load_policy_weights(wider, source, "checkpoint policy")
