"""The SB3 VecEnv and gymnasium VectorEnv adapters: conventions, seeding, masks, MaskablePPO, policy opponents."""

import numpy as np
import pytest
import torch
from batched_toy_game import ToyKernel
from gymnasium.vector import AutoresetMode
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecEnv, VecMonitor, VecNormalize

from pokerzoo.envs import caribbean_stud_v0
from pokerzoo.envs.batched.core import BatchedEnv
from pokerzoo.envs.batched.opponents import PolicyOpponent, RandomOpponent
from pokerzoo.envs.batched.sb3 import BatchedVecEnv
from pokerzoo.envs.batched.vector import BatchedVectorEnv


def play(venv: VecEnv, steps: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    log = []
    for _ in range(steps):
        masks = get_action_masks(venv)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = venv.step(actions)
        log.append((obs, rewards, dones, infos))
    return log


def test_vec_env_follows_sb3_conventions():
    venv = BatchedVecEnv(BatchedEnv(ToyKernel, 6, num_players=4, turns=3), seed=1)
    assert isinstance(venv, VecEnv) and venv.num_envs == 6
    assert is_masking_supported(venv) and venv.has_attr("action_masks")
    venv.seed(40)
    obs = venv.reset()
    assert obs.shape == (6, 58) and obs.dtype == np.float32 and venv.observation_space.contains(obs[0])
    masks = get_action_masks(venv)
    assert masks.shape == (6, 3) and masks.dtype == np.bool_ and np.array_equal(masks, venv.action_masks())
    finished = 0
    for obs, rewards, dones, infos in play(venv, 30):
        assert obs.shape == (6, 58) and rewards.dtype == np.float32 and dones.dtype == np.bool_
        assert all(venv.observation_space.contains(o) for o in obs)
        assert len(infos) == 6
        for done, info in zip(dones, infos):
            if done:
                finished += 1
                assert set(info) == {"episode", "terminal_observation", "TimeLimit.truncated"}
                assert info["terminal_observation"].shape == (58,) and not info["TimeLimit.truncated"]
            else:
                assert info == {}
    assert finished > 0
    assert venv.get_attr("seat", [0, 2]) == [int(s) for s in venv.seats.seat[[0, 2]]]
    assert venv.env_is_wrapped(VecMonitor) == [False] * 6
    with pytest.raises(AttributeError, match="action_masks"):
        venv.env_method("render")


def test_seeded_resets_replay_and_sb3_wrappers_work_on_top():
    def run():
        venv = BatchedVecEnv("caribbean_stud", 4, boxes=2, ante_choices=[1, 2])
        venv.seed(9)
        first = venv.reset()
        return first, play(venv, 12)

    (a0, a), (b0, b) = run(), run()
    assert np.array_equal(a0, b0)
    assert all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) for x, y in zip(a, b))
    wrapped = VecNormalize(VecMonitor(BatchedVecEnv("caribbean_stud", 4)), norm_reward=True)
    wrapped.seed(0)
    wrapped.reset()
    for obs, rewards, dones, _ in play(wrapped, 5):
        assert obs.shape == (4, 179) and rewards.shape == (4,) and dones.all()


def test_caribbean_rows_are_the_scalar_games_of_their_seeds():
    venv = BatchedVecEnv("caribbean_stud", 3)
    venv.seed(21)
    obs = venv.reset()
    _, rewards, dones, _ = venv.step(np.ones(3, dtype=np.int64))
    assert dones.all()
    for i in range(3):
        scalar = caribbean_stud_v0.raw_env()
        scalar.reset(seed=21 + i)
        assert np.array_equal(obs[i], scalar.observe("player_0")["observation"])
        scalar.step(1)
        assert rewards[i] == scalar.rewards["player_0"]


def test_a_tiny_maskable_ppo_run_completes():
    venv = BatchedVecEnv("caribbean_stud", 64, seed=0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=256, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=64 * 16 * 2)
    assert model.num_timesteps == 64 * 16 * 2
    assert len(model.ep_info_buffer) > 0


def test_policy_opponents_play_the_networks_choice_on_all_rows():
    env = BatchedEnv(ToyKernel, 32, num_players=3)
    env.reset(seed=3)
    rows = np.arange(32)
    # a torch module: logits favour action 2 (double), which is often illegal, then 1
    net = torch.nn.Linear(58, 3)
    with torch.no_grad():
        net.weight.zero_()
        net.bias.copy_(torch.tensor([0.0, 1.0, 2.0]))
    acts = PolicyOpponent(net).act(env, rows)
    assert np.array_equal(acts, np.where(env.mask[:, 2], 2, 1))
    # a plain numpy function, sampled: only legal actions, all of them over many rows
    sampled = PolicyOpponent(lambda obs: np.zeros((len(obs), 3)), deterministic=False, seed=0)
    many = np.concatenate([sampled.act(env, rows) for _ in range(20)])
    assert env.mask[np.tile(rows, 20), many].all() and set(many.tolist()) == {0, 1, 2}
    # an SB3 model: the same as its own masked prediction
    venv = BatchedVecEnv(BatchedEnv(ToyKernel, 8, num_players=3), seed=0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=8, batch_size=64, seed=0, device="cpu")
    snapshot = PolicyOpponent.snapshot(model)
    expected, _ = model.predict(env.obs, action_masks=env.mask, deterministic=True)
    assert np.array_equal(snapshot.act(env, rows), expected)
    random_acts = RandomOpponent(seed=1).act(env, rows)
    assert env.mask[rows, random_acts].all()
    with pytest.raises(TypeError, match="policy opponent"):
        PolicyOpponent(42)


def test_a_snapshot_opponent_in_the_vec_env_and_a_learner_against_it():
    learner = BatchedVecEnv(BatchedEnv(ToyKernel, 16, num_players=3, turns=4), seed=0)
    model = MaskablePPO("MlpPolicy", learner, n_steps=8, batch_size=64, n_epochs=1, seed=0, device="cpu")
    venv = BatchedVecEnv(BatchedEnv(ToyKernel, 16, num_players=3, turns=4), opponents=PolicyOpponent.snapshot(model))
    model.set_env(venv)
    model.learn(total_timesteps=16 * 8 * 2)
    assert model.num_timesteps == 16 * 8 * 2


def test_gymnasium_vector_env():
    env = BatchedVectorEnv("caribbean_stud", 5, boxes=2, num_hands=2)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, infos = env.reset(seed=4)
    assert env.observation_space.contains(obs) and infos["action_mask"].shape == (5, 2)
    again, _ = BatchedVectorEnv("caribbean_stud", 5, boxes=2, num_hands=2).reset(seed=4)
    assert np.array_equal(obs, again)
    ended = 0
    for _ in range(8):
        obs, rewards, terminated, truncated, infos = env.step(np.ones(5, dtype=np.int64))
        assert env.observation_space.contains(obs) and rewards.shape == (5,) and not truncated.any()
        assert np.array_equal(infos["action_mask"], env.action_masks())
        if terminated.any():
            ended += int(terminated.sum())
            assert np.array_equal(infos["_episode"], terminated) and np.array_equal(infos["_final_obs"], terminated)
            assert (infos["episode"]["l"][terminated] == 4).all()  # two boxes x two hands
    assert ended == 10
