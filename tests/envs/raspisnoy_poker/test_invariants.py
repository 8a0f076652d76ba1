"""The shared invariant kit on Raspisnoy poker: 2, 3, 4, 6 and 10 players, both decks, every schedule kind.

Default run: thousands of random single-deal games (the training schedule) plus
whole classic games for every table, and the hidden-information, determinism,
clone and illegal-action checks. ``-m slow`` adds 5,000 games per table and
more classic games.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.envs.raspisnoy_poker import schedule
from pokerzoo.envs.raspisnoy_poker.game import RaspisnoyPokerGame as Game
from pokerzoo.envs.testing import (
    check_determinism,
    check_hidden_information,
    check_random_play,
)

TABLES = [(2, "54"), (3, "54"), (3, "34"), (4, "54"), (4, "34"), (6, "54"), (10, "54")]
IDS = [f"{n}p-{deck}" for n, deck in TABLES]
# Every special kind, the whole deck (2 players: 27 cards each) and a joker-heavy short deal.
SPECIALS = [(1, "forehead"), (3, "dark"), (4, "gold"), (2, "misere"), (5, "no_trump"), (6, "normal")]


@pytest.mark.parametrize(("n", "deck"), TABLES, ids=IDS)
def test_random_single_deals(n, deck):
    decisions = check_random_play(Game, [{"num_players": n, "deck": deck, "schedule": "single"}], range(500))
    assert decisions > 500 * n


@pytest.mark.parametrize(("n", "deck"), TABLES, ids=IDS)
def test_random_classic_games(n, deck):
    check_random_play(Game, [{"num_players": n, "deck": deck}], range(2))


@pytest.mark.parametrize(
    "options",
    [
        {"must_follow_suit": False},
        {"must_trump": False},
        {"joker_lead_demands_highest": True},
        {"dark_multiplier": 5},
        {"schedule": [(27, "normal"), (27, "dark"), (1, "forehead")], "num_players": 2},
        {"schedule": [(18, "normal"), (18, "no_trump")], "num_players": 3, "whole_deck_trump": "dealer_last"},
    ],
    ids=["free-suit", "free-trump", "demands-highest", "dark-x5", "whole-deck", "dealer-last"],
)
def test_random_play_with_options(options):
    check_random_play(Game, [{"schedule": "single", **options}], range(150))


@pytest.mark.parametrize(("n", "deck"), TABLES, ids=IDS)
def test_hidden_information(n, deck):
    entries = [(c, k) for c, k in SPECIALS if c * n <= (54 if deck == "54" else 34)]
    config = {"num_players": n, "deck": deck, "schedule": entries}
    assert check_hidden_information(Game, config, seed=n, samples=1, every=3) > 0


def test_hidden_information_with_the_dealers_last_card_shown():
    config = {"num_players": 2, "schedule": [(27, "normal"), (27, "dark")], "whole_deck_trump": "dealer_last"}
    for seed in range(2):
        check_hidden_information(Game, config, seed=seed, samples=1, every=2)


def test_hidden_information_with_variant_ceilings():
    config = {"num_players": 4, "schedule": [(13, "normal")], "joker_lead_demands_highest": True}
    for seed in range(3):
        check_hidden_information(Game, config, seed=seed, samples=2, every=2)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.sampled_from([2, 3, 4, 6, 10]))
def test_property_random_single_deals(seed, n):
    check_random_play(Game, [{"num_players": n, "schedule": "single"}], [seed])
    check_determinism(Game, {"num_players": n, "schedule": "single"}, seed)


@pytest.mark.slow
@pytest.mark.parametrize(("n", "deck"), TABLES, ids=IDS)
def test_many_random_games(n, deck):
    check_random_play(Game, [{"num_players": n, "deck": deck, "schedule": "single"}], range(1000, 6000))
    check_random_play(Game, [{"num_players": n, "deck": deck}], range(100, 120))
    # With two players and the whole deck dealt nothing is hidden (each hand is the complement of the
    # other), so determinize rightly moves nothing and the kit's "something moved" check cannot apply.
    size = 54 if deck == "54" else 34
    entries = [e for e in schedule.classic(n, size, 3) if e[0] * n < size or n > 2]
    for seed in range(20):
        config = {"num_players": n, "deck": deck, "schedule": [entries[(seed * 7) % len(entries)]]}
        check_hidden_information(Game, config, seed, every=1)
