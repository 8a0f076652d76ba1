"""The anchor (``anchor.agent``, ``anchor.coef``): a pull of the actor toward a batched agent's actions.

* the buffer keeps, for every learner decision, the action the anchor agent
  takes there (Breed the Heifer's calling station: check, else call);
* with a weight the actor moves toward those actions (its agreement with the
  anchor rises from where it starts to nearly all decisions), and without
  an anchor the PPO update is the plain one (no anchor figures);
* the config names what is wrong (a weight without an agent, an agent
  without a weight, an agent the game lacks, the other engine);
* a run with an anchor resumes exactly (its actions are in the checkpoint's
  open decisions), and a checkpoint without them is refused by name.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from pokerzoo.envs.engine.betting import CALL, CHECK
from pokerzoo.envs.engine.options import ConfigError
from pokerzoo.training import checkpoint as ckpt
from pokerzoo.training.config import load_config
from pokerzoo.training.engines import make_trainer, resume_trainer
from pokerzoo.training.selfplay import checkpoint as sp_ckpt
from pokerzoo.training.selfplay.buffer import DecisionBuffer
from pokerzoo.training.selfplay.loop import COLLECT, SelfPlay

sys.path.insert(0, str(Path(__file__).parent))
from test_selfplay_trainer import assert_same_params, csv_rows, killed_copy, tiny  # (the trainer tests' tiny run)

HEIFER = {"game": "breed_the_heifer_v0", "options": {}, "eval__baselines": ["random"], "league__scripted": ["random"]}
STATION = {"anchor__agent": "calling_station", "anchor__coef": 3.0}


def test_the_buffer_keeps_the_anchors_action_at_every_learner_decision():
    loop = SelfPlay(load_config(tiny(**HEIFER, **STATION)))
    loop.start()
    loop.collector.collect(6, loop.generator(COLLECT, 0))
    size = loop.buffer.size
    mask, anchor = loop.buffer.mask[:size], loop.buffer.anchor[:size]
    assert size > 100
    np.testing.assert_array_equal(anchor, np.where(mask[:, CHECK], CHECK, CALL))
    assert mask[np.arange(size), anchor].all()
    assert {CHECK, CALL} <= set(anchor.tolist()), "both rules decide somewhere"


def test_the_anchor_pulls_the_actor_to_its_actions():
    # two warm-up updates (privileged critic) leave the actor as it starts: their agreement is the new network's
    warmup = {"critic__privileged": True, "critic__net_arch": [16], "critic__warmup_updates": 2}
    cfg = load_config(tiny(**HEIFER, **STATION, **warmup, ppo__learning_rate=3e-3, ppo__ent_coef=0.0,
                           ppo__n_steps=12, league__self_play=1.0))  # fmt: skip
    loop = SelfPlay(cfg)
    loop.start()
    figures = [loop.iterate() for _ in range(8)]
    agreement = [f["train/anchor_agreement"] for f in figures]
    assert agreement[0] < 0.7 and agreement[1] < 0.7, agreement
    assert agreement[-1] > 0.95, agreement
    assert figures[-1]["train/anchor_loss"] < 0.5 * figures[0]["train/anchor_loss"]


def test_without_an_anchor_the_update_has_no_anchor_figures():
    loop = SelfPlay(load_config(tiny(**HEIFER)))
    loop.start()
    figures = loop.iterate()
    assert loop.buffer.anchor is None and not any(k.startswith("train/anchor") for k in figures)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"anchor__coef": 0.5}, r"anchor: coef=0.5 without an agent; name anchor.agent"),
        ({"anchor__agent": "calling_station"}, r"agent 'calling_station' with coef 0 pulls nothing"),
        ({"anchor__agent": "calling_station", "anchor__coef": {"start": 0.0, "end": 0.0}}, "pulls nothing"),
        ({"anchor__agent": "equity(sampler=fast)", "anchor__coef": -1}, r"anchor.*coef.*>= 0"),
        ({"anchor__agent": "heuristic", "anchor__coef": 1.0},
         r"anchor: agent 'heuristic': 'heuristic' is not a batched agent of breed_the_heifer_v0.*equity"),
        ({"anchor__agent": "equity(samples=3)", "anchor__coef": 1.0}, r"anchor: agent 'equity\(samples=3\)'"),
        ({"anchor__pull": 1.0}, r"anchor.*pull"),
    ],
)  # fmt: skip
def test_bad_anchor_configs_are_named(changes, message):
    with pytest.raises(ConfigError, match=message):
        load_config(tiny(**HEIFER, **changes))


def test_the_anchor_is_a_key_of_the_batched_engine():
    with pytest.raises(ConfigError, match="anchor is a key of engine batched; this config trains with engine aec"):
        load_config({"game": "high_card_v0", "engine": "aec", "anchor": {"agent": "random", "coef": 1.0}})


@pytest.fixture(scope="module")
def anchored_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("anchor") / "run"
    make_trainer(load_config(tiny(anchor__agent="random", anchor__coef=0.5)), run, progress=False).train()
    return run


def test_a_run_with_an_anchor_resumes_exactly(anchored_run, tmp_path):
    run = anchored_run
    middle = ckpt.candidates(run)[2]
    assert "buffer/anchor" in sp_ckpt.read(middle).arrays
    copy = killed_copy(run, middle, tmp_path / "copy")
    resume_trainer(copy, progress=False).train()
    assert_same_params(run / "final" / "policy.json", copy / "final" / "policy.json")
    rows = csv_rows(copy / "progress.csv")
    assert rows == csv_rows(run / "progress.csv")
    assert all(r["train/anchor_loss"] for r in rows if r.get("train/n_updates"))


def test_open_decisions_without_the_anchors_actions_are_refused_by_name():
    plain = DecisionBuffer(2, 3, 4, 3, 8)
    anchored = DecisionBuffer(2, 3, 4, 3, 8, anchor=True)
    with pytest.raises(ValueError, match=r"keep no anchor actions; this run has an anchor \(anchor.agent\)"):
        anchored.load_state_dict(plain.state_dict())
    with pytest.raises(ValueError, match="keep anchor actions; this run has no anchor"):
        plain.load_state_dict(anchored.state_dict())
