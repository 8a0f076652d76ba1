"""The multi-player test game's kernel against its scalar rules (the adapters' tests rely on it)."""

import pytest
from batched_toy_game import ToyGame, ToyKernel

from pokerzoo.envs.batched.testing import differential_play
from pokerzoo.envs.engine.cards import ScriptedChance
from pokerzoo.envs.testing import check_random_play


@pytest.mark.parametrize("config", [{}, {"num_players": 2, "turns": 1}, {"num_players": 4, "turns": 3}])
def test_toy_kernel_plays_the_scalar_game(config):
    check_random_play(ToyGame, [config], range(20))
    report = differential_play(ToyKernel, config, seeds=range(40), steps=50)
    assert report.games > 0


def test_toy_kernel_takes_a_stacked_deal_with_a_scripted_dealer():
    chances = [ScriptedChance(shuffles=[["As", "2c", "Td"]], integers=[2]), None]
    report = differential_play(ToyKernel, {}, seeds=[1, 2], steps=12, chances=chances, actions=[[2, 1, 0], []])
    assert report.games >= 2
