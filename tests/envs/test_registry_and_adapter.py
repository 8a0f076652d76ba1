"""The env registry and the generic AEC adapter, on whichever games are installed."""

import importlib

import numpy as np
import pytest

from pokerzoo.envs import ENV_NAMES, env_module, game_class, make
from pokerzoo.envs.aec import PokerzooAECEnv


def available():
    names = []
    for name in ENV_NAMES:
        try:
            importlib.import_module(f"pokerzoo.envs.{name}")
        except ModuleNotFoundError:
            continue
        names.append(name)
    return names


def test_every_registered_game_is_installed():
    assert available() == list(ENV_NAMES)


def test_unknown_game_is_named():
    with pytest.raises(ValueError, match="unknown game 'poker'; available: caribbean_stud_v0"):
        make("poker")


@pytest.mark.parametrize("name", available())
def test_every_env_module_follows_the_conventions(name):
    module = env_module(name)
    assert module.__doc__ and "Version history" in module.__doc__
    assert issubclass(module.raw_env, PokerzooAECEnv)
    assert module.raw_env.metadata["name"] == name
    assert game_class(name) is module.raw_env.game_class
    assert game_class(name.removesuffix("_v0")) is module.raw_env.game_class
    env = module.env()
    env.reset(seed=0)
    agent = env.agent_selection
    obs = env.observe(agent)
    space = env.observation_space(agent)
    assert space["observation"].shape == obs["observation"].shape and obs["observation"].dtype == np.float32
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].any()
    assert env.unwrapped.view(agent).player == env.unwrapped.agent_index[agent]


@pytest.mark.parametrize("name", available())
def test_same_seed_same_first_observations_across_resets(name):
    a, b = make(name), make(name)
    a.reset(seed=123)
    b.reset(seed=123)
    for _ in range(3):
        agent = a.agent_selection
        assert agent == b.agent_selection
        np.testing.assert_array_equal(a.observe(agent)["observation"], b.observe(agent)["observation"])
        a.reset()
        b.reset()


@pytest.mark.parametrize("name", available())
def test_human_render_prints_the_ansi_text(name, capsys):
    env = make(name, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    printed = capsys.readouterr().out
    ansi = make(name, render_mode="ansi")
    ansi.reset(seed=0)
    assert printed.strip() == ansi.render().strip() and printed.strip()
