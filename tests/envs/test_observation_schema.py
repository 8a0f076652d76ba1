"""Every game's observation schema against its encoder and env: sizes, shared schemas, bounds over random play."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from observation_digests import CONFIGS, config_key, observations

from pokerzoo.envs import GAMES, game_class, make

# The option sets of the observation digests, and the example game of docs/adding_a_game.md.
CASES = [(game, config) for game, configs in CONFIGS.items() for config in configs]
CASES += [("high_card", {}), ("high_card", {"num_players": 6})]


@pytest.mark.parametrize(("game", "config"), CASES, ids=[f"{g}-{config_key(c)}" for g, c in CASES])
def test_every_observation_of_random_play_lies_within_the_schema_bounds(game, config):
    schema = game_class(game)(seed=0, **config).observation_schema
    batch = np.stack([obs for _, _, obs in itertools.islice(observations(game, config), 2000)])
    assert batch.shape == (2000, schema.size)
    assert schema.out_of_bounds(batch) == [], f"{game} {config}: entries outside their bounds"


@pytest.mark.parametrize("name", GAMES)
def test_the_env_box_is_the_schema(name):
    env = make(name)
    env.reset(seed=0)
    schema = env.unwrapped.game.observation_schema
    box = env.observation_space(env.possible_agents[0])["observation"]
    assert box.shape == (schema.size,) == (env.unwrapped.game.observation_size,)
    np.testing.assert_array_equal(box.low, schema.low)
    np.testing.assert_array_equal(box.high, schema.high)
    obs = env.observe(env.agent_selection)["observation"]
    assert box.contains(obs)


@pytest.mark.parametrize("name", GAMES)
def test_games_of_one_config_share_one_schema(name):
    cls = game_class(name)
    assert cls(seed=1).observation_schema is cls(seed=2).observation_schema
    game = cls(seed=3)
    assert game.clone().observation_schema is game.observation_schema
