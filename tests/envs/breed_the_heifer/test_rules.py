"""RULES.md §3 scenario by scenario, each on a stacked deck.

The decks are stacked by ``heifer_helpers.deal`` (cards in dealing order,
each seat's seven written in street order); ``passive`` checks and calls.
"""

import numpy as np
import pytest
from heifer_helpers import deal, passive

from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame
from pokerzoo.envs.breed_the_heifer.wilds import NO_WILD, WildTracker
from pokerzoo.envs.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from pokerzoo.envs.engine.cards import RANK_CHARS, ScriptedChance, parse_card
from pokerzoo.envs.engine.options import ConfigError


def rank(ch: str) -> int:
    return RANK_CHARS.index(ch)


def names(game: BreedTheHeiferGame) -> set[str]:
    return {a.split(":")[1].split()[0] for a in game.legal_action_names()}


def wild_events(game: BreedTheHeiferGame) -> list[tuple]:
    return [
        (e.get("player"), e.get("card"), e["event"], e["wild"]) for e in game.events if e["type"] == "wild"
    ]


# ---------------------------------------------------------------- wild cards


def test_same_player_pair_makes_the_next_up_card_wild():
    g = deal(3, 2, {0: "2c 3d 7s 7h", 1: "4c 5d Kd Jc", 2: "6c 8d 9s Qh"})
    passive(g, until_street=4)
    v = g.view(0)
    assert v.wild_rank == rank("J") and not v.pair_pending
    assert wild_events(g) == [(0, "7h", "pair", None), (1, "Jc", "wild", "J")]


def test_any_player_pair_counts_only_with_the_option():
    hands = {0: "2c 3d 7s 7d", 1: "4c 5d 7h Ac", 2: "6c 8d Jc Qh"}
    same = deal(3, 2, hands)
    assert same.view(0).wild_rank == NO_WILD and not same.view(0).pair_pending
    anyp = deal(3, 2, hands, wild_pairs="any_player")
    # p1's 7h repeats p0's 7s: p2's Jc (the next up card) breeds jacks, still on 3rd street.
    assert anyp.view(0).wild_rank == rank("J")
    passive(anyp, until_street=4)
    # A third seven counts too: p0's 7d clears the jacks and p1's Ac breeds aces.
    assert anyp.view(2).wild_rank == rank("A")
    assert [e[2] for e in wild_events(anyp)] == ["pair", "wild", "pair", "wild"]
    passive(same, until_street=4)
    assert same.view(0).wild_rank == rank("A")  # same_player: p0's own 7s 7d pair


def test_a_later_pair_replaces_the_wild_and_a_pair_on_the_last_up_card_leaves_none():
    g = deal(
        3,
        2,
        {
            0: "2c 3d 7s 7h 2d 4h 9c",
            1: "4c 5d Kd Jc Kc 8c Tc",
            2: "6c 8d 9s Qh 5s Qs Ad",
        },
    )
    passive(g, until_street=4)
    assert g.view(0).wild_rank == rank("J")
    passive(g, until_street=5)
    # p1's Kc pairs his Kd: jacks stop being wild, p2's 5s breeds fives.
    assert g.view(0).wild_rank == rank("5") and not g.view(0).pair_pending
    passive(g, until_street=6)
    # p2's Qs, the very last up card, pairs his Qh: fives are cleared and nothing follows.
    v = g.view(1)
    assert v.wild_rank == NO_WILD and not v.pair_pending
    assert wild_events(g)[-2:] == [(2, "Qs", "pair", None), (None, None, "pair_lapses", None)]
    passive(g)
    assert g.last_outcome["wild"] is None


def test_the_defining_card_can_itself_make_a_new_pair():
    g = deal(3, 2, {0: "2c 3d 7s 7h", 1: "4c 5d Kd Kc", 2: "6c 8d 9s Qh"})
    passive(g, until_street=4)
    # p0's 7h pairs; p1's Kc would breed kings but pairs his Kd at once; p2's Qh breeds queens.
    assert wild_events(g) == [(0, "7h", "pair", None), (1, "Kc", "wild+pair", None), (2, "Qh", "wild", "Q")]
    assert g.view(0).wild_rank == rank("Q")


def test_wild_cards_dealt_face_down_count_at_showdown():
    # p0's Kc Kd pair breeds queens with p1's Qh; p0 holds Qd down and gets Qs as the 7th card.
    g = deal(
        2,
        1,
        {
            0: "Qd As Kc Kd 2h 9c Qs",
            1: "Jc Jd 5s Qh 6h 8s Ts",
        },
    )
    passive(g)
    out = g.last_outcome
    assert out["wild"] == "Q" and out["showdown"]
    assert out["players"][0]["category"] == "four_of_a_kind"  # K K + two wild queens, one up and one down
    assert out["players"][1]["category"] == "three_of_a_kind"  # J J + the wild Qh
    assert out["players"][0]["net"] == 1 and out["players"][1]["net"] == -1


def test_tracker_rebuilt_from_up_cards_matches_the_dealt_one():
    t = WildTracker(2)
    for p, card in [(0, "7s"), (1, "Kd"), (0, "7h"), (1, "2c")]:
        t.see(p, parse_card(card))
    rebuilt = WildTracker.from_up_cards(
        [tuple(parse_card(c) for c in ("7s", "7h")), tuple(parse_card(c) for c in ("Kd", "2c"))],
        t.wild,
        t.pending,
        any_player=False,
    )
    assert (rebuilt.wild, rebuilt.pending, rebuilt.player_ranks, rebuilt.table_ranks) == (
        t.wild,
        t.pending,
        t.player_ranks,
        t.table_ranks,
    )
    assert t.wild == rank("2")
    copy = t.copy()
    assert copy.see(1, parse_card("2d")) == "pair" and t.wild == rank("2")  # the copy is independent


# ---------------------------------------------------------------- betting order


def test_third_street_starts_left_of_the_dealer_and_fourth_with_the_best_up_cards_with_wilds():
    # p0 shows Qs Qh (a natural pair, which breeds a wild); p1's 5d makes fives wild,
    # so p1's Kc 5d is a pair of kings and beats the queens.
    g = deal(3, 2, {0: "2c 3d Qs Qh", 1: "4c 6d Kc 5d", 2: "6c 8d Ac Jd"})
    assert g.current_player == 0 and g.view(0).opener == 0
    passive(g, until_street=4)
    assert g.view(1).wild_rank == rank("5")
    assert g.current_player == 1 and g.view(2).opener == 1


def test_ties_in_the_up_cards_go_to_the_player_nearest_the_dealers_left_and_7th_street_follows_6th():
    hands = {
        1: "5c 7c 3c 2d 4h 6s",
        2: "8h Kd Ah 9c Td Jd",
        0: "Ks 2s As 9d Tc Jh",
    }
    g = deal(3, 0, hands)
    assert g.current_player == 1  # 3rd street: the dealer's left
    for street in (4, 5, 6):
        passive(g, until_street=street)
        assert g.current_player == 2, (
            f"street {street}: p2 and p0 show the same, p2 sits nearer the dealer's left"
        )
    # 6th street: p2 checks, p0 bets, p1 calls, p2 folds; 7th street starts with the next player in after p2.
    g.apply(CHECK)
    g.apply(BET)
    g.apply(CALL)
    g.apply(FOLD)
    assert g.street == 7 and g.current_player == 0 and g.view(0).opener == 0


def test_seventh_street_starts_with_the_sixth_street_opener_who_stayed():
    g = deal(3, 0, {1: "5c 7c 3c 2d 4h 6s", 2: "8h Kd Ah 9c Td Jd", 0: "Ks 2s As 9d Tc Jh"})
    passive(g, until_street=7)
    assert g.current_player == 2


# ---------------------------------------------------------------- fixed limit


def test_raise_cap_and_bet_sizes_by_street():
    g = BreedTheHeiferGame(chance=ScriptedChance(integers=[2], seed=5), num_players=3)
    assert g.current_player == 0 and names(g) == {"check", "bet"}
    g.apply(BET)
    g.apply(RAISE)
    g.apply(RAISE)
    g.apply(RAISE)  # bet + three raises: 2, 4, 6, 8
    assert g.view(0).bets == (8, 4, 6) and g.view(1).to_call == 4
    assert names(g) == {"fold", "call"}
    assert g.action_name(CALL) == "call 4"
    g.apply(CALL)
    g.apply(CALL)
    assert g.street == 4 and g.view(0).bet_size == 2 and g.view(0).pot == 3 + 24
    passive(g, until_street=5)
    assert g.view(0).bet_size == 4
    p = g.current_player
    g.apply(BET)
    assert g.view(0).bets[p] == 4


def test_max_raises_option():
    g = BreedTheHeiferGame(chance=ScriptedChance(integers=[2], seed=5), num_players=3, max_raises=1)
    g.apply(BET)
    g.apply(RAISE)
    assert names(g) == {"fold", "call"}


def test_all_in_with_two_side_pots_and_a_split():
    # p0 (3 chips) holds a flush, p2 and p3 the same ace-high straight, p1 (7 chips) nothing.
    g = deal(
        4,
        3,
        {
            0: "2h 6h 8h 9h 4h Ks 3d",
            1: "2d 3h 5c 6d 8c Jc 9s",
            2: "As Kd Qc Jh Th 4s 2c",
            3: "Ah Kc Qd Js Tc 5h 3c",
        },
        stacks=[3, 7, 50, 50],
    )
    g.apply(BET)  # p0 all in with a full bet of 2
    g.apply(RAISE)  # p1 to 4
    g.apply(CALL)
    g.apply(CALL)
    assert g.street == 4 and g.view(0).stacks == (0, 2, 45, 45)
    assert g.current_player == 2  # p2's Q-J ties p3's and sits nearer the dealer's left
    g.apply(CHECK)
    g.apply(CHECK)
    assert g.current_player == 1
    g.apply(BET)  # p1 all in: 2 more
    g.apply(CALL)
    g.apply(CALL)
    assert g.street == 5
    g.apply(BET)  # p2 bets 4 on 5th street; only p3 can answer
    g.apply(CALL)
    passive(g)
    out = g.last_outcome
    assert [(p["amount"], p["eligible"], p["winners"]) for p in out["pots"]] == [
        (12, [0, 1, 2, 3], [0]),
        (12, [1, 2, 3], [2, 3]),
        (8, [2, 3], [2, 3]),
    ]
    assert [p["category"] for p in out["players"]] == ["flush", "high_card", "straight", "straight"]
    assert [p["net"] for p in out["players"]] == [9, -7, -1, -1]
    assert g.total_rewards.tolist() == [9, -7, -1, -1] and out["stacks"] == [12, 0, 49, 49]


@pytest.mark.parametrize(("dealer", "nets"), [(0, [-1, 1, 0]), (1, [-1, 0, 1])])
def test_odd_chip_goes_to_the_winner_nearest_the_dealers_left(dealer, nets):
    g = deal(
        3,
        dealer,
        {
            1: "As Kd Qc Jh Th 4s 2c",
            2: "Ah Kc Qd Js Tc 5h 3c",
            0: "2d 3h 5c 6d 8c Jc 9s",
        },
    )
    passive(g)
    out = g.last_outcome
    assert out["pots"] == [{"amount": 3, "eligible": [0, 1, 2], "winners": [1, 2]}]
    assert [p["net"] for p in out["players"]] == nets


def test_folds_down_to_one_player_end_the_hand_at_once():
    g = deal(3, 2, {0: "2c 3d 7s", 1: "4c 5d Kd", 2: "6c 8d 9s"})
    g.apply(BET)
    g.apply(FOLD)
    g.apply(FOLD)
    assert g.is_over and g.current_player is None and g.phase == "over"
    assert g.total_rewards.tolist() == [2, -1, -1]
    assert not g.last_outcome["showdown"] and g.last_outcome["players"][0]["cards"] is None
    assert len(g.zones()["stock"]) == 52 - 9  # no more cards were dealt


# ---------------------------------------------------------------- episodes and options


def test_several_hands_move_the_button_carry_stacks_and_sit_out_the_broke():
    g = BreedTheHeiferGame(seed=11, num_players=4, stacks=[2, 30, 30, 30], num_hands=6)
    rng = np.random.default_rng(0)
    while not g.is_over:
        mask = g.legal_mask()
        g.apply(int(rng.choice(np.flatnonzero(mask))))
    hands = [e for e in g.events if e["type"] == "hand"]
    settles = [e for e in g.events if e["type"] == "settle"]
    assert len(hands) == len(settles) >= 2
    for before, after, settle in zip(hands, hands[1:], settles):
        assert after["stacks"] == settle["stacks"]  # carried over
        with_chips = [p for p in range(4) if settle["stacks"][p] > 0]
        expected = next(q for q in ((before["dealer"] + k) % 4 for k in range(1, 5)) if q in with_chips)
        assert after["dealer"] == expected
    for settle in settles:
        assert sum(p["net"] for p in settle["players"]) == 0
    assert g.total_rewards.sum() == 0 and sum(settles[-1]["stacks"]) == 92


def test_a_player_without_chips_is_not_dealt_in():
    g = BreedTheHeiferGame(seed=3, num_players=3, stacks=[1, 40, 40], num_hands=3)
    rng = np.random.default_rng(1)
    sat_out = 0
    while not g.is_over:
        if g.stacks[0] == 0 and g.view(1).hand_number > 0:
            assert g.zones()["p0_down"] == [] and g.zones()["p0_up"] == []
            assert not g.view(1).in_hand[0] and g.view(1).folded[0]
            sat_out += 1
        g.apply(int(rng.choice(np.flatnonzero(g.legal_mask()))))
    assert sat_out, "the seed must bust player 0 in the first hand for this test to say anything"


def test_an_episode_ends_early_when_one_player_has_every_chip():
    g = BreedTheHeiferGame(seed=1, num_players=2, stacks=1, num_hands=50)
    assert g.is_over  # both all in from the ante: hands are dealt out until one is broke
    assert sorted(g.stacks) == [0, 2] and g.total_rewards.sum() == 0
    assert sum(e["type"] == "hand" for e in g.events) < 50


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"num_players": 8}, "num_players"),
        ({"wild_pairs": "anyone"}, "wild_pairs"),
        ({"stacks": [10, 10]}, "stacks"),
        ({"stacks": 0}, "stacks"),
        ({"stacks": [10, 0, 5, 5, 5]}, "stacks"),
        ({"max_raises": -1}, "max_raises"),
        ({"double_ace_flush": 1}, "double_ace_flush"),
        ({"bet": 3}, "unknown option"),
    ],
)
def test_bad_options_name_the_option(options, message):
    with pytest.raises(ConfigError, match=message):
        BreedTheHeiferGame(seed=0, **options)


def test_illegal_action_names_the_legal_ones():
    g = BreedTheHeiferGame(chance=ScriptedChance(integers=[2]), num_players=3)
    with pytest.raises(ValueError, match=r"legal now: 1:check, 3:bet to 2"):
        g.apply(FOLD)
