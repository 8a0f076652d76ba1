"""Batched three-card high card (the example game's kernel) against the scalar game, with the differential kit."""

import pytest

from pokerzoo.envs.batched.core import PARALLEL_MIN_ROWS
from pokerzoo.envs.batched.testing import differential_play
from pokerzoo.envs.engine.cards import ScriptedChance
from pokerzoo.envs.high_card.game import FOLD, PLAY
from pokerzoo.envs.high_card.kernel import HighCardKernel


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_random_play_matches_the_scalar_game(players):
    report = differential_play("high_card", {"num_players": players}, seeds=range(64), steps=60)
    assert report.steps == 64 * 60 and report.games >= 64 * 60 // players - 64


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_play_matches_the_scalar_game_100k_steps(players):
    report = differential_play("high_card", {"num_players": players}, seeds=range(1000, 1256), steps=400,
                               action_seed=1)  # fmt: skip
    assert report.steps >= 100_000


def test_the_parallel_loop_plays_the_same_games():
    report = differential_play(HighCardKernel, {"num_players": 5}, seeds=range(PARALLEL_MIN_ROWS + 9), steps=12,
                               parallel=True)  # fmt: skip
    assert report.games > 0


# the stacked decks of tests/test_example_game.py: best played hand, split pot, nobody playing, unopposed
STACKED = [
    (3, "Ah 2c 3d Kh Qc Jd As 2d 4c", [PLAY, FOLD, PLAY]),
    (2, "Ah Kc 3d As Kd 3c", [PLAY, PLAY]),
    (2, "Ah Kc 3d 2s 4d 5c", [FOLD, FOLD]),
    (3, "2h 3c 4d 5s 6d 7c 8h 9c Td", [FOLD, PLAY, FOLD]),
]


@pytest.mark.parametrize(("players", "deck", "actions"), STACKED)
def test_the_rule_tests_stacked_decks_play_alike(players, deck, actions):
    report = differential_play("high_card", {"num_players": players}, seeds=[7], steps=len(actions) + players,
                               chances=[ScriptedChance(shuffles=[deck])], actions=[actions])  # fmt: skip
    assert report.games >= 1
