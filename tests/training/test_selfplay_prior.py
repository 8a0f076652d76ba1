"""A residual policy over a scripted agent (``prior``): the file, its players, its config and its training.

* the numpy actor reads the observation and the prior's one-hot, and lifts
  the prior's action by the weight (by hand against the layers);
* a new network plays exactly its prior, in every player of the file: the
  scalar ``PolicyAgent`` (asking the scalar agent) and the batched
  ``FrozenPolicy`` (asking its batched port), on Breed the Heifer states
  made by random play, with the calling station as the prior;
* the file names a broken prior, and a first layer that does not take the
  one-hot; the config names a prior the game lacks, and ``init_from`` a
  policy with another prior;
* training keeps the prior's actions in the buffer and resumes exactly.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from pokerzoo.agents.breed_the_heifer import CallingStationAgent
from pokerzoo.agents.policy import PolicyAgent, load_policy_net, shipped_policies
from pokerzoo.agents.policy_file import ACTIVATIONS, PolicyFileError, read_policy
from pokerzoo.cli.main import main
from pokerzoo.envs import batched
from pokerzoo.envs.batched.testing import mid_game_states
from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame
from pokerzoo.envs.breed_the_heifer.kernel_state import load_games
from pokerzoo.envs.engine.betting import CALL, CHECK
from pokerzoo.envs.engine.options import ConfigError
from pokerzoo.training import checkpoint as ckpt
from pokerzoo.training.config import load_config
from pokerzoo.training.engines import make_trainer, resume_trainer
from pokerzoo.training.policy_export import policy_document, save_policy
from pokerzoo.training.selfplay import checkpoint as sp_ckpt
from pokerzoo.training.selfplay.league import policy_opponent
from pokerzoo.training.selfplay.loop import COLLECT, SelfPlay

sys.path.insert(0, str(Path(__file__).parent))
from test_selfplay_trainer import assert_same_params, csv_rows, killed_copy, tiny  # (the trainer tests' tiny run)

HEIFER = {"game": "breed_the_heifer_v0", "options": {}, "eval__baselines": ["random"], "league__scripted": ["random"],
          "league__snapshot_every": 0}  # fmt: skip
STATION = {"prior__agent": "calling_station", "prior__weight": 2.5}


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Path:
    """A new residual policy over the calling station, as a policy file."""
    cfg = load_config(tiny(**HEIFER, **STATION))
    loop = SelfPlay(cfg)
    return save_policy(loop.model, tmp_path_factory.mktemp("prior") / "fresh", policy_document(cfg, 0))


def test_the_file_keeps_the_prior_and_its_first_layer_takes_the_one_hot(fresh):
    doc = read_policy(fresh).document
    assert doc["prior"] == {"agent": "calling_station", "batched": "calling_station", "weight": 2.5}
    net = load_policy_net(fresh)
    assert net.observation_size == doc["observation_size"] == 388
    assert net.layers[0][0].shape[0] == 388 + doc["num_actions"]


def test_policy_show_says_what_the_policy_plays_on_top_of(fresh, capsys):
    assert main(["policy", "show", str(fresh)]) == 0
    out = capsys.readouterr().out
    assert "plays on top of 'calling_station' ('calling_station' in batch), its action's logit +2.5" in out
    assert "actor: 388 + 5 -> 16 -> 5" in out


def test_the_actor_reads_the_one_hot_and_lifts_the_priors_action(fresh):
    net = load_policy_net(fresh)
    rng = np.random.default_rng(0)
    obs = rng.random((5, net.observation_size)).astype(np.float32)
    prior = np.array([0, 1, 2, 1, 3])
    x = np.concatenate([obs, np.eye(net.num_actions, dtype=np.float32)[prior]], axis=1)
    for w, b, act in net.layers:
        x = ACTIVATIONS[act](x @ w + b)
    expected = x + 2.5 * np.eye(net.num_actions, dtype=np.float32)[prior]
    np.testing.assert_allclose(net.logits(obs, prior), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.logits(obs[1], 1), expected[1], rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="plays on top of the agent 'calling_station': pass its actions"):
        net.logits(obs)


def test_a_new_residual_policy_plays_its_prior_in_every_player(fresh):
    games = mid_game_states(BreedTheHeiferGame, {}, 200, seed=4, max_depth=40)
    scalar = PolicyAgent(fresh, env_name="breed_the_heifer_v0", seed=1)
    station = CallingStationAgent(seed=1)
    env = batched.make("breed_the_heifer", len(games))
    load_games(env, np.arange(len(games)), games)
    frozen = policy_opponent("breed_the_heifer", {}, fresh, deterministic=True)
    frozen.seed(3)
    played = frozen.act(env, env.all_rows)
    for i, game in enumerate(games):
        view, mask = game.view(game.current_player), game.legal_mask()
        want = station.act(view, mask, game)
        assert scalar.act(view, mask, game) == want, f"game {i}"
        assert played[i] == want, f"game {i}"
    assert {CHECK, CALL} <= set(played.tolist())


def _rewrite(fresh: Path, tmp_path: Path, replace: bool = False, **changes) -> Path:
    """A copy of the fresh policy with its document changed, or replaced by ``changes`` (the weights file beside
    it, unchanged)."""
    doc = changes if replace else {**json.loads(fresh.read_text()), **changes}
    out = tmp_path / "changed.json"
    out.write_text(json.dumps(doc))
    (tmp_path / doc["weights"]["file"]).write_bytes((fresh.parent / doc["weights"]["file"]).read_bytes())
    return out


@pytest.mark.parametrize(
    "prior",
    [
        {"agent": "calling_station", "weight": 1.0},
        {"agent": "calling_station", "batched": "calling_station", "weight": -1},
        {"agent": "", "batched": "calling_station", "weight": 1.0},
        {"agent": "calling_station", "batched": "calling_station", "weight": True},
        "calling_station",
    ],
)
def test_a_broken_prior_is_named(fresh, tmp_path, prior):
    with pytest.raises(PolicyFileError, match=r"prior must be \{agent: AGENT SPEC, batched: BATCHED AGENT SPEC"):
        read_policy(_rewrite(fresh, tmp_path, prior=prior))


def test_a_first_layer_without_the_one_hot_is_refused(fresh, tmp_path):
    doc = json.loads(fresh.read_text())
    doc.pop("prior")
    with pytest.raises(PolicyFileError, match=r"architecture.actor\[0\]: weight .* do not take 388 inputs"):
        read_policy(_rewrite(fresh, tmp_path, **doc, replace=True))


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"prior__batched": "calling_station"}, r"prior: batched='calling_station' without an agent"),
        ({"prior__agent": "nobody"}, r"prior: agent 'nobody'"),
        ({"prior__agent": "equity", "prior__batched": "equity(samples=2)"}, r"prior: batched 'equity\(samples=2\)'"),
        ({"prior__agent": "calling_station", "prior__weight": 101}, r"weight=101"),
    ],
)  # fmt: skip
def test_bad_prior_configs_are_named(changes, message):
    with pytest.raises(ConfigError, match=message):
        load_config(tiny(**HEIFER, **changes))


def test_the_prior_is_a_key_of_the_batched_engine():
    with pytest.raises(ConfigError, match="prior is a key of engine batched; this config trains with engine aec"):
        load_config({"game": "high_card_v0", "engine": "aec", "prior": {"agent": "random"}})


def test_init_from_a_policy_with_another_prior_is_refused(fresh, tmp_path):
    equity = {"prior__agent": "equity", "prior__batched": "equity(sampler=fast)"}
    cfg = load_config(tiny(**HEIFER, **equity, init_from=str(fresh)))
    with pytest.raises(ValueError, match=r"its policy plays on top of .*calling_station.*this run on top of .*equity"):
        make_trainer(cfg, tmp_path / "run", progress=False).train()


def test_the_buffer_keeps_the_priors_action_at_every_learner_decision():
    loop = SelfPlay(load_config(tiny(**HEIFER, **STATION)))
    loop.start()
    loop.collector.collect(6, loop.generator(COLLECT, 0))
    size = loop.buffer.size
    mask, prior = loop.buffer.mask[:size], loop.buffer.prior[:size]
    assert size > 100
    np.testing.assert_array_equal(prior, np.where(mask[:, CHECK], CHECK, CALL))
    # a new network plays its prior most of the time (it samples: weight 2.5 against logits near zero)
    assert np.mean(loop.buffer.action[:size] == prior) > 0.7


def test_a_run_with_a_prior_resumes_exactly(tmp_path):
    run = tmp_path / "run"
    make_trainer(load_config(tiny(**HEIFER, **STATION, total_timesteps=1800, eval__every=0)), run,
                 progress=False).train()  # fmt: skip
    middle = ckpt.candidates(run)[1]
    assert "buffer/prior" in sp_ckpt.read(middle).arrays
    copy = killed_copy(run, middle, tmp_path / "copy")
    resume_trainer(copy, progress=False).train()
    assert_same_params(run / "final" / "policy.json", copy / "final" / "policy.json")
    assert csv_rows(copy / "progress.csv") == csv_rows(run / "progress.csv")
    assert read_policy(copy / "final" / "policy.json").document["prior"]["agent"] == "calling_station"


def test_a_prior_that_leads_back_to_its_policy_is_refused_by_name(fresh, tmp_path):
    me = f"policy:{tmp_path / 'changed.json'}"
    looped = _rewrite(fresh, tmp_path, prior={"agent": me, "batched": me, "weight": 1.0})
    with pytest.raises(PolicyFileError, match=r"its prior leads back to itself \(.*changed.json -> .*changed.json\)"):
        PolicyAgent(looped, env_name="breed_the_heifer_v0")
    with pytest.raises(PolicyFileError, match="its prior leads back to itself"):
        policy_opponent("breed_the_heifer", {}, looped, deterministic=True)


def test_a_prior_may_be_another_policy(fresh, tmp_path):
    on_shipped = _rewrite(fresh, tmp_path, prior={"agent": "ppo", "batched": "ppo", "weight": 2.5})
    games = mid_game_states(BreedTheHeiferGame, {}, 40, seed=5, max_depth=40)
    residual = PolicyAgent(on_shipped, env_name="breed_the_heifer_v0")
    shipped = PolicyAgent(shipped_policies("breed_the_heifer_v0")["ppo"], env_name="breed_the_heifer_v0")
    for game in games:  # a new network over the shipped policy plays it
        view, mask = game.view(game.current_player), game.legal_mask()
        assert residual.act(view, mask, game) == shipped.act(view, mask, game)


def test_the_shipped_six_card_perico_policy_is_a_residual_over_the_heuristic_and_its_readme_says_so(tmp_path):
    """``ppo_six_card`` keeps its prior, plays the six-card game only, and the folder's README names the prior."""
    # Deferred: the shipping module is only needed here.
    from pokerzoo.training.shipping import write_policies_readme

    path = shipped_policies("perico")["ppo_six_card"]
    document = read_policy(path).document
    assert document["options"] == {"six_card": True} and document["num_actions"] == 73
    assert document["prior"] == {"agent": "heuristic", "batched": "heuristic(sampler=fast)", "weight": 3.0}
    for suffix in (".json", ".safetensors"):
        (tmp_path / f"ppo_six_card{suffix}").write_bytes(path.with_suffix(suffix).read_bytes())
    write_policies_readme(tmp_path)
    readme = (tmp_path / "README.md").read_text()
    assert "from scratch, a residual policy over `heuristic`, which it asks first at every decision" in readme
