"""The privileged critic (``critic.privileged``): its features, its config, and the trainer with it.

* the features' layout, by hand on a three-seat table, and in Breed the
  Heifer against the scalar game's own cards, folds and keys (games made by
  random play, loaded into batched rows);
* the config names what is wrong (a game without features, warm-up without
  the critic, the other engine);
* a tiny run: the warm-up leaves the actor exactly as it was and fits the
  critics; checkpoints hold the critic, a resumed run ends with the same
  weights, and a checkpoint without the critic is refused by name.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from safetensors.torch import load_file

from pokerzoo.envs import batched
from pokerzoo.envs.batched import privileged
from pokerzoo.envs.batched.testing import mid_game_states
from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame
from pokerzoo.envs.breed_the_heifer.kernel_state import load_games
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS
from pokerzoo.envs.engine.options import ConfigError
from pokerzoo.training import checkpoint as ckpt
from pokerzoo.training.config import load_config
from pokerzoo.training.engines import make_trainer, resume_trainer
from pokerzoo.training.selfplay import checkpoint as sp_ckpt
from pokerzoo.training.selfplay.loop import COLLECT, SelfPlay
from pokerzoo.training.selfplay.sparse import SparseRows

sys.path.insert(0, str(Path(__file__).parent))
from test_selfplay_trainer import assert_same_params, csv_rows, killed_copy, tiny  # (the trainer tests' tiny run)

PRIVILEGED = {"critic__privileged": True, "critic__net_arch": [32], "critic__warmup_updates": 3}


def test_features_by_hand_on_a_three_seat_table():
    # one row; seat 1 decides; seat 2 (its left) is in and ahead, seat 0 has folded
    cards = np.array([[[0, 1, 2], [10, 11, 12], [20, 21, 22]]])
    hidden = np.array([[[True, False, True], [True, True, True], [False, True, False]]])
    live = np.array([[False, True, True]])
    keys = np.array([[9, 5, 7]])
    got = privileged.opponent_features(cards, hidden, live, keys, np.array([0]), np.array([1]), num_players=3)
    assert got.shape == (1, privileged.features_size(3)) == (1, 2 * 55)
    seat2, seat0 = got[0, :55], got[0, 55:]
    assert seat2[:3].tolist() == [1, 1, 0]  # in, ahead, not tied
    assert np.flatnonzero(seat2[3:]).tolist() == [21]  # its only hidden card
    assert not seat0.any()  # folded: nothing about it
    tied = privileged.opponent_features(cards, hidden, np.ones((1, 3), bool), np.array([[5, 5, 1]]),
                                        np.array([0]), np.array([1]), num_players=3)  # fmt: skip
    assert tied[0, :3].tolist() == [1, 0, 0] and tied[0, 55:58].tolist() == [1, 0, 1]  # seat 2 behind, seat 0 tied
    assert np.flatnonzero(tied[0, 58:]).tolist() == [0, 2]


def _heifer_expected(game: BreedTheHeiferGame, seat: int) -> np.ndarray:
    """The features from the scalar game: its down cards, folds and keys with the current wild."""
    n = game.num_players
    size = privileged.block_size(10)
    out = np.zeros((n - 1, size), dtype=np.float32)
    wild = game.tracker.wild

    def key(p):
        return game.ranker.key(game.down[p] + game.up[p], wild)

    for j in range(1, n):
        q = (seat + j) % n
        if game.betting.folded[q]:
            continue
        out[j - 1, 0] = 1
        out[j - 1, 1] = key(q) > key(seat)
        out[j - 1, 2] = key(q) == key(seat)
        out[j - 1, 3 + (key(q) >> TIEBREAK_BITS)] = 1  # the key's category field
        for card in game.down[q]:
            out[j - 1, 13 + card] = 1
    return out.reshape(-1)


def test_heifer_features_are_the_scalar_games_hidden_cards_and_standings():
    games = mid_game_states(BreedTheHeiferGame, {}, 120, seed=3, max_depth=40)
    env = batched.make("breed_the_heifer", len(games))
    load_games(env, np.arange(len(games)), games)
    seats = np.array([g.betting.to_act for g in games])
    np.testing.assert_array_equal(env.current_player, seats)
    got = env.privileged(env.all_rows, seats)
    assert got.shape == (len(games), env.privileged_size)
    for i, game in enumerate(games):
        np.testing.assert_array_equal(got[i], _heifer_expected(game, int(seats[i])), err_msg=f"game {i}")
    assert {int(g.street) for g in games} >= {3, 4, 5, 6, 7}, "the games reach every street"
    assert any(g.betting.folded.count(True) for g in games), "some seats have folded"
    assert len({float(v) for v in got[:, 1::privileged.block_size(10)].ravel()}) == 2, "some seats lead, some trail"


def test_a_game_without_features_says_so():
    env = batched.make("mexican_poker", 2)
    assert env.privileged_size == 0
    with pytest.raises(ValueError, match="mexican_poker gives no privileged features"):
        env.privileged(np.arange(2), np.zeros(2, dtype=np.int64))


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"game": "mexican_poker_v0", "options": {}, "critic__privileged": True, "eval__baselines": ["random"]},
         r"mexican_poker_v0's batched kernel gives no privileged features \(games that do: .*breed_the_heifer"),
        ({"critic__warmup_updates": 4}, "warmup_updates=4 fits a new privileged critic.*set critic.privileged: true"),
        ({"critic__net_arch": []}, "non-empty list of ints"),
    ],
)  # fmt: skip
def test_bad_critic_configs_are_named(changes, message):
    with pytest.raises(ConfigError, match=message):
        load_config(tiny(**changes))


def test_the_critic_is_a_key_of_the_batched_engine():
    with pytest.raises(ConfigError, match="critic is a key of engine batched; this config trains with engine aec"):
        load_config({"game": "high_card_v0", "engine": "aec", "critic": {"privileged": True}})


def test_warmup_moves_the_critics_and_leaves_the_actor_exactly_as_it_was():
    loop = SelfPlay(load_config(tiny(**PRIVILEGED)))
    loop.start()
    actor = [*loop.model.mlp_extractor.policy_net.parameters(), *loop.model.action_net.parameters()]
    before = [p.detach().clone() for p in actor]
    critic = [p.detach().clone() for p in loop.critic.parameters()]
    own = [p.detach().clone() for p in loop.model.value_net.parameters()]
    for _ in range(3):
        figures = loop.iterate()
        assert figures["train/actor_frozen"] == 1.0 and figures["train/approx_kl"] == 0.0
    for a, b in zip(actor, before, strict=True):
        torch.testing.assert_close(a, b, rtol=0, atol=0)
    assert any(not torch.equal(a, b) for a, b in zip(loop.critic.parameters(), critic, strict=True))
    assert any(not torch.equal(a, b) for a, b in zip(loop.model.value_net.parameters(), own, strict=True))
    figures = loop.iterate()
    assert figures["train/actor_frozen"] == 0.0
    assert any(not torch.equal(a, b) for a, b in zip(actor, before, strict=True))
    assert np.isfinite(figures["train/own_value_loss"]) and np.isfinite(figures["train/value_loss"])


def test_the_buffers_values_are_the_privileged_critics_from_the_features_it_kept():
    loop = SelfPlay(load_config(tiny(**PRIVILEGED)))
    loop.start()
    loop.collector.collect(5, loop.generator(COLLECT, 0))
    size = loop.buffer.size
    with torch.no_grad():
        seen = torch.from_numpy(loop.buffer.obs[:size])
        values = loop.critic(seen, torch.from_numpy(loop.buffer.privileged[:size])).numpy()
        own = loop.model(seen)[1].numpy()
    assert size > 0 and loop.buffer.privileged[:size].any(axis=1).mean() > 0.5  # (all others may have folded)
    np.testing.assert_allclose(loop.buffer.value[:size], values, rtol=1e-5, atol=1e-6)
    assert not np.allclose(loop.buffer.value[:size], own)
    with pytest.raises(TypeError, match="both inputs dense or both as SparseRows"):
        loop.critic(SparseRows.from_rows(loop.buffer.obs, np.arange(size)), torch.from_numpy(loop.buffer.privileged))


@pytest.fixture(scope="module")
def privileged_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("privileged") / "run"
    make_trainer(load_config(tiny(**PRIVILEGED)), run, progress=False).train()
    return run


def test_checkpoints_keep_the_critic_and_a_resumed_run_ends_the_same(privileged_run, tmp_path):
    run = privileged_run
    middle = ckpt.candidates(run)[2]
    found = sp_ckpt.read(middle)
    assert found.critic is not None and "buffer/privileged" in found.arrays
    assert found.critic.keys() == load_file(str(middle / sp_ckpt.CRITIC)).keys()
    copy = killed_copy(run, middle, tmp_path / "copy")
    resume_trainer(copy, progress=False).train()
    assert_same_params(run / "final" / "policy.json", copy / "final" / "policy.json")
    assert csv_rows(copy / "progress.csv") == csv_rows(run / "progress.csv")
    ends = [load_file(str(f / sp_ckpt.CRITIC)) for f in (ckpt.candidates(run)[0], ckpt.candidates(copy)[0])]
    for name in ends[0]:
        torch.testing.assert_close(ends[0][name], ends[1][name], rtol=0, atol=0)


def test_a_checkpoint_without_the_critic_is_refused_by_name(privileged_run, tmp_path):
    plain = tmp_path / "plain"
    cfg = load_config(tiny(total_timesteps=700))
    make_trainer(cfg, plain, progress=False).train()
    shutil.rmtree(plain / "final")
    # the plain run's checkpoint under a config that wants the critic
    (plain / "config.yaml").write_text((privileged_run / "config.yaml").read_text().replace("total_timesteps: 3000",
                                       "total_timesteps: 2000"))  # fmt: skip
    trainer = resume_trainer(plain, progress=False)
    with pytest.raises(ckpt.CheckpointError, match="has no privileged critic; this run's config says"):
        trainer.train()
