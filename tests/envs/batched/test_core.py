"""The batched env's contract, on Caribbean stud: entry point, seeds, auto-reset, rows, bad input."""

import numpy as np
import pytest

from pokerzoo.envs import ENV_NAMES, batched, caribbean_stud_v0
from pokerzoo.envs.batched.testing import random_legal
from pokerzoo.envs.engine.game import IllegalActionError
from pokerzoo.envs.engine.options import ConfigError


def scalar_game_log(seed: int, actions: list[int], **options) -> tuple[list, list]:
    """Observations and rewards of the scalar env's games after reset(seed), playing ``actions``."""
    env = caribbean_stud_v0.raw_env(**options)
    env.reset(seed=seed)
    observations, rewards = [], []
    for a in actions:
        observations.append(env.observe("player_0")["observation"].copy())
        env.step(a)
        rewards.append(env.rewards["player_0"])
        if env.game.is_over:
            env.reset()
    return observations, rewards


def test_entry_point_shapes_and_names():
    env = batched.make("caribbean_stud_v0", num_envs=5, boxes=2)
    same = batched.make("caribbean_stud", num_envs=5, boxes=2)
    obs, mask, info = env.reset(seed=[3, 1, 4, 1, 5])
    assert obs.shape == (5, 179) and obs.dtype == np.float32
    assert mask.shape == (5, 2) and mask.dtype == np.bool_
    assert info["current_player"].tolist() == [0] * 5
    obs2, _, _ = same.reset(seed=[3, 1, 4, 1, 5])
    assert np.array_equal(obs, obs2)
    obs, mask, rewards, done, info = env.step(np.ones(5, dtype=np.int64))
    assert rewards.shape == (5, 1) and rewards.dtype == np.float64 and done.dtype == np.bool_
    assert info["truncated"].shape == (5,)
    assert (env.num_players, env.num_actions, env.observation_size) == (1, 2, 179)


def test_options_are_validated_by_the_game_with_the_same_errors():
    for options, message in [({"boxes": 4}, "boxes=4 is out of range"), ({"box": 1}, "unknown option box")]:
        with pytest.raises(ConfigError, match=message):
            batched.make("caribbean_stud", 2, **options)
    with pytest.raises(ValueError, match="num_envs"):
        batched.make("caribbean_stud", 0)
    for game in [g for g in ENV_NAMES if g not in batched.BATCHED_GAMES][:1]:  # while a game has no kernel
        with pytest.raises(ValueError, match="no batched engine yet"):
            batched.make(game, 2)
    with pytest.raises(ValueError, match="unknown game"):
        batched.make("chess", 2)


def test_int_seed_gives_row_i_seed_plus_i_and_games_continue_the_rows_generator():
    n, steps = 4, 9
    env = batched.make("caribbean_stud", n, num_hands=2)
    obs, mask, _ = env.reset(seed=70)
    rng = np.random.default_rng(0)
    seen = [[] for _ in range(n)]
    chosen = []
    for _ in range(steps):
        for i in range(n):
            seen[i].append(obs[i].copy())
        actions = random_legal(rng, mask)
        chosen.append(actions)
        obs, mask, rewards, _, _ = env.step(actions)
        for i in range(n):
            seen[i].append(rewards[i, 0])
    for i in range(n):
        observations, rewards = scalar_game_log(70 + i, [int(a[i]) for a in chosen], num_hands=2)
        assert all(np.array_equal(a, b) for a, b in zip(observations, seen[i][0::2]))
        assert rewards == seen[i][1::2]
    assert env.games.tolist() == [4] * n  # two decisions per game: four games and a half played per row


def test_reset_without_seed_continues_and_the_first_one_is_unpredictable():
    a, b = batched.make("caribbean_stud", 8), batched.make("caribbean_stud", 8)
    assert not np.array_equal(a.reset()[0], b.reset()[0])
    env = batched.make("caribbean_stud", 2)
    first, _, _ = env.reset(seed=[5, 6])
    second, _, _ = env.reset()
    scalar = caribbean_stud_v0.raw_env()
    scalar.reset(seed=6)
    scalar.reset()
    assert np.array_equal(second[1], scalar.observe("player_0")["observation"])
    assert not np.array_equal(first, second)


def test_illegal_actions_name_the_row_and_the_legal_ones_and_change_nothing():
    env = batched.make("caribbean_stud", 3, ante_choices=[1, 5])
    obs, mask, _ = env.reset(seed=0)
    state_before = [a.copy() for a in env.state]
    words_before = env.chance.words.copy()
    message = r"row 1: illegal action 1 \(raise\).*legal now: 2:ante 1, 3:ante 5"
    with pytest.raises(IllegalActionError, match=message) as err:
        env.step(np.array([2, 1, 3]))
    assert err.value.row == 1 and err.value.legal == ["2:ante 1", "3:ante 5"]
    with pytest.raises(IllegalActionError, match="row 2: illegal action 7"):
        env.step(np.array([2, 2, 7]))
    for bad, message in [
        (np.array([2, 2]), r"shape \(3,\)"),
        (np.array([2.0, 2.0, 2.0]), "integers"),
        ([[2, 2, 2]], "shape"),
    ]:
        with pytest.raises(ValueError, match=message):
            env.step(bad)
    with pytest.raises(ValueError, match="more than once"):
        env.step(np.array([2, 2]), rows=np.array([1, 1]))
    with pytest.raises(ValueError, match=r"row 3 is not in 0\.\.2"):
        env.step(np.array([2]), rows=[3])
    assert all(np.array_equal(a, b) for a, b in zip(state_before, env.state))
    assert np.array_equal(words_before, env.chance.words) and np.array_equal(obs, env.obs)
    assert np.array_equal(mask, env.mask)


def test_stepping_some_rows_leaves_the_others_as_they_were():
    env = batched.make("caribbean_stud", 4, boxes=2)
    whole = batched.make("caribbean_stud", 4, boxes=2)
    obs, _, _ = env.reset(seed=10)
    whole.reset(seed=10)
    obs2, _, rewards, done, _ = env.step(np.array([1, 0]), rows=np.array([3, 1]))
    assert np.array_equal(obs2[[0, 2]], obs[[0, 2]]) and not np.array_equal(obs2[3], obs[3])
    assert (rewards[[0, 2]] == 0).all() and not done[[0, 2]].any()
    # the same as stepping every row with these actions where stepped, and the others later
    env.step(np.array([1, 1]), rows=np.array([True, False, True, False]))
    whole.step(np.array([1, 0, 1, 1]))
    assert np.array_equal(env.obs, whole.obs) and np.array_equal(env.state.hand, whole.state.hand)


def test_copies_by_default_and_own_buffers_with_copy_false():
    env = batched.make("caribbean_stud", 2)
    obs, mask, _ = env.reset(seed=1)
    env.step(np.array([1, 1]))
    assert not np.shares_memory(obs, env.obs)
    fast = batched.make("caribbean_stud", 2, copy=False)
    obs, mask, _ = fast.reset(seed=1)
    assert np.shares_memory(obs, fast.obs) and np.shares_memory(mask, fast.mask)


def test_step_before_reset_and_bad_seeds():
    env = batched.make("caribbean_stud", 2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.array([1, 1]))
    with pytest.raises(ValueError, match="one per row"):
        env.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="row 1"):
        env.reset(seed=[1, -2])
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"deck": 1})
