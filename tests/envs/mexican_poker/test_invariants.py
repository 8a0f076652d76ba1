"""Random play of Mexican poker through the shared invariant kit, for every player count and option."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.envs.mexican_poker import MexicanPokerGame
from pokerzoo.envs.testing import (
    check_hidden_information,
    play_random,
)

VARIANTS = [
    {},
    {"doubt_chips": False},
    {"doubt_pass": True},
    {"reward": "win"},
    {"corner_table": "0" * 65},  # every deal (1, 7): the largest hands
    {"corner_table": "4" * 65},  # every deal (5, 3): the largest board
]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 7), variant=st.sampled_from(VARIANTS))
def test_random_play_property(seed, players, variant):
    game = MexicanPokerGame(seed=seed, num_players=players, rounds=3, **variant)
    total = play_random(game, np.random.default_rng(seed))
    assert game.is_over
    assert list(total) == list(game.total_rewards)
    if variant.get("reward", "score") == "score":
        assert list(total) == game.scores  # every point is paid as reward when its round is scored
    else:
        assert abs(total.sum()) < 1e-9  # win/loss is zero-sum
    # Every round is played out and scored once; its tricks column counts exactly the tricks played.
    # Every trick takes at least one card from each player still holding cards, so a round has at
    # most as many tricks as the deal's hand size.
    rounds, tricks_this_round, hand_size = 0, 0, None
    for event in game.events:
        if event["type"] == "deal":
            assert tricks_this_round == 0
            hand_size = event["hand_size"]
        elif event["type"] == "trick":
            tricks_this_round += 1
            assert event["number"] == tricks_this_round
            assert 0 <= event["winner"] < players
        elif event["type"] == "score":
            assert sum(event["tricks"]) == tricks_this_round
            assert hand_size is not None, "a round was scored before any deal"
            assert tricks_this_round >= 1, "a round was scored without a trick"
            assert tricks_this_round <= hand_size, f"{tricks_this_round} tricks from hands of {hand_size} cards"
            rounds, tricks_this_round = rounds + 1, 0
    assert rounds == 3 and tricks_this_round == 0


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 7))
def test_hidden_information(seed, players):
    moved = check_hidden_information(
        MexicanPokerGame, {"num_players": players, "rounds": 2}, seed, samples=1, every=2
    )
    assert moved > 0


def test_determinize_redraws_face_down_predictions():
    """While chips lie face down, a sampled world must not keep the real values (nor their history)."""
    game = MexicanPokerGame(seed=4, num_players=4)
    token = game.token
    game.apply(6)  # the token holder's secret prediction
    viewer = (token + 1) % 4
    rng = np.random.default_rng(0)
    worlds = [game.determinize(viewer, rng) for _ in range(30)]
    values = {w.predictions[token] for w in worlds}
    assert len(values) > 1
    assert all(w.history[-1] == w.predictions[token] for w in worlds)
    assert all(w.view(viewer) == game.view(viewer) for w in worlds)
    own = game.determinize(token, rng)
    assert own.predictions[token] == 6  # the player's own chip is known to it
