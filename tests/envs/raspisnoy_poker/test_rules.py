"""Raspisnoy poker rules (RULES.md §4), one hand-written stacked-deck scenario per rule."""

from __future__ import annotations

import numpy as np
import pytest
from raspisnoy_helpers import act, bid, card, cards_of, joker, legal, new_game

from pokerzoo.envs.engine.cards import BLACK_JOKER, RED_JOKER, ScriptedChance
from pokerzoo.envs.engine.game import IllegalActionError
from pokerzoo.envs.engine.options import ConfigError
from pokerzoo.envs.raspisnoy_poker import actions as A
from pokerzoo.envs.raspisnoy_poker import schedule
from pokerzoo.envs.raspisnoy_poker.game import RaspisnoyPokerGame as Game
from pokerzoo.envs.raspisnoy_poker.scoring import deal_points

S, H, D, C = range(4)

# Three players, trump diamonds (7d turned), dealer 2: seat 0 bids first and leads.
THREE = ["RJ 2s 3c", "Ad 5h 9s", "Kd Qh 4c"]


# --------------------------------------------------------------------------- dealing and trump
def test_deal_blocks_turned_card_sets_trump():
    g = new_game(THREE, "7d", dealer=2)
    assert g.hands == [cards_of("RJ 2s 3c"), cards_of("Ad 5h 9s"), cards_of("Kd Qh 4c")]
    assert g.turned == [card("7d")] and g.trump == D and g.trump_card == card("7d")
    assert len(g.stock) == 54 - 9 - 1
    v = g.view(1)
    assert (v.trump, v.trump_card, v.whole_deck) == (D, card("7d"), False)


def test_turned_joker_means_no_trump():
    g = new_game(["2s 3s", "4s 5s"], "BJ", dealer=1)
    assert g.trump == -1 and g.trump_card == BLACK_JOKER and g.kind == "normal"
    act(g, "bid 0", "bid 0")
    # without trump a joker lead declares a suit for its high: actions "high s/h/d/c" and "low s/h/d/c"
    g2 = new_game(["RJ 3s", "4s 5s"], "BJ", dealer=1)
    act(g2, "bid 1", "bid 0")
    assert legal(g2) == sorted(
        [card("3s")] + [joker("RJ", "high", s) for s in "shdc"] + [joker("RJ", "low", s) for s in "shdc"]
    )


@pytest.mark.parametrize("n", [2, 3, 6, 9])
def test_whole_deck_trump_card_is_shown_then_returned_at_a_random_place(n):
    cards = 54 // n
    # The scripted shuffle puts Qh on top; it is shown, then put back at position 5 (the second integer).
    g = Game(
        chance=ScriptedChance(shuffles=[["Qh"]], integers=[0, 5]),
        num_players=n,
        schedule=[(cards, "normal")],
    )
    assert g.whole_deck and g.turned == [] and g.stock == []
    assert g.trump == H and g.trump_card == card("Qh")
    holder = 5 // cards
    assert card("Qh") in g.hands[holder]
    # Everyone knows the card and the trump, nobody else knows where it is.
    for p in range(n):
        v = g.view(p)
        assert v.trump_card == card("Qh") and v.whole_deck
        assert (card("Qh") in v.hand) == (p == holder)


def test_whole_deck_dealer_last_card_variant():
    seat0 = [f"{r}{x}" for x in "cd" for r in "23456789TJQKA"] + ["As"]
    seat1 = [f"{r}s" for r in "23456789TJQK"] + ["RJ", "BJ"] + [f"{r}h" for r in "23456789TJQA"] + ["Kh"]
    g = Game(
        chance=ScriptedChance(shuffles=[seat0 + seat1], integers=[1]),
        num_players=2,
        schedule=[(27, "normal")],
        whole_deck_trump="dealer_last",
    )
    # Seat 1 deals; its last card, Kh, is turned: hearts are trump and everybody knows who holds it.
    assert g.trump == H and g.trump_card == card("Kh") and card("Kh") in g.hands[1]
    assert g.view(0).trump_holder == 1 and g.view(1).trump_holder == 1
    assert "in the dealer's hand" in g.render(0)
    rng = np.random.default_rng(0)
    assert all(card("Kh") in g.determinize(0, rng).hands[1] for _ in range(20))
    act(g, "bid 0", "bid 0", "As", "2s", "2c", "Kh")  # void in clubs, seat 1 trumps with the turned card
    assert g.view(0).trump_holder == -1 and g.tricks == [1, 1]


def test_whole_deck_shown_joker_means_no_trump():
    g = Game(
        chance=ScriptedChance(shuffles=[["RJ"]], integers=[0, 0]), num_players=2, schedule=[(27, "dark")]
    )
    assert g.trump == -1 and g.trump_card == RED_JOKER and g.whole_deck


def test_no_trump_deal_turns_no_card():
    g = new_game(THREE, "7d", dealer=2, kind="no_trump")
    assert g.trump == -1 and g.trump_card == -1 and g.turned == []
    assert g.view(0).trump == -1


def test_dealer_rotates_clockwise_every_deal():
    g = Game(chance=ScriptedChance(integers=[2]), num_players=3, schedule=[1, 1, 1, 1])
    dealers = []
    while not g.is_over:
        if g.phase == "bid" and g.current_player == (g.dealer + 1) % 3:
            dealers.append(g.dealer)
        g.apply(g.legal_actions()[0])
    assert dealers == [2, 0, 1, 2]


# --------------------------------------------------------------------------- bidding
@pytest.mark.parametrize("n", [2, 3, 4, 5, 10])
def test_bidding_order_and_the_hook_for_every_dealer_position(n):
    for dealer in range(n):
        g = Game(chance=ScriptedChance(integers=[dealer]), num_players=n, schedule=[(3, "normal")])
        order = []
        for i in range(n - 1):
            order.append(g.current_player)
            assert legal(g) == [bid(b) for b in range(4)]  # non-dealers bid freely 0..3
            g.apply(bid(i % 2))
        assert order == [(dealer + 1 + i) % n for i in range(n - 1)]
        assert g.current_player == dealer  # the dealer bids last
        forbidden = 3 - sum(i % 2 for i in range(n - 1))
        expected = [bid(b) for b in range(4) if b != forbidden]
        assert legal(g) == expected, f"dealer {dealer}: the bid making the sum {3} must be masked"
        if 0 <= forbidden <= 3:
            with pytest.raises(IllegalActionError, match="legal now"):
                g.apply(bid(forbidden))
        g.apply(expected[0])
        assert g.phase == "play" and g.current_player == (dealer + 1) % n


def test_dealer_is_free_when_the_others_already_overbid():
    g = new_game(THREE, "7d", dealer=2)
    act(g, "bid 3", "bid 3")
    assert legal(g) == [bid(b) for b in range(4)]


@pytest.mark.parametrize("kind", ["gold", "misere"])
def test_gold_and_misere_have_no_bidding(kind):
    g = new_game(THREE, "7d", dealer=2, kind=kind)
    assert g.phase == "play" and g.current_player == 0
    assert legal(g) == sorted(
        [card("2s"), card("3c"), joker("RJ", "high")] + [joker("RJ", "low", s) for s in "shdc"]
    )
    assert all(a < A.BID_BASE for a in legal(g))


# --------------------------------------------------------------------------- play
def test_dealers_left_leads_then_the_trick_winner():
    g = new_game(THREE, "7d", dealer=2)
    act(g, "bid 1", "bid 1", "bid 0")
    assert g.current_player == 0
    act(g, "2s", "9s", "Kd")  # seat 2 is void in spades and must trump
    assert g.tricks == [0, 0, 1] and g.current_player == 2


def test_must_follow_suit_and_jokers_are_always_playable():
    g = new_game(["RJ 2s 3c", "Ad 5s 9s", "Kd Qh 4c"], "7d", dealer=2, kind="gold")
    act(g, "2s")
    assert legal(g) == cards_of("5s 9s")
    g2 = new_game(["2s 3c 4c", "5s 9s RJ", "Kd Qh 4d"], "7d", dealer=2, kind="gold")
    act(g2, "2s")
    assert legal(g2) == [*cards_of("5s 9s"), joker("RJ", "high"), joker("RJ", "low")]


def test_void_must_trump_else_anything():
    g = new_game(["2s 3c 4c", "5h 9d Th", "Kc Qh 4h"], "7d", dealer=2, kind="gold")
    act(g, "2s")
    assert legal(g) == [card("9d")]  # void in spades, holds a trump
    act(g, "9d")
    assert legal(g) == cards_of("Kc Qh 4h")  # void in spades and trumps: anything


def test_obligations_are_switchable():
    hands = ["2s 3c 4c", "5s 9d Th", "Kc Qh 4h"]
    g = new_game(hands, "7d", dealer=2, kind="gold", must_follow_suit=False)
    act(g, "2s")
    assert legal(g) == cards_of("5s 9d Th")
    g = new_game(["2s 3c 4c", "5h 9d Th", "Kc Qh 4h"], "7d", dealer=2, kind="gold", must_trump=False)
    act(g, "2s")
    assert legal(g) == cards_of("5h 9d Th")


def test_highest_trump_wins_else_highest_of_led_suit():
    g = new_game(["2s 3c 4c", "As 9d Th", "Ks Qh 4h"], "7d", dealer=2, kind="gold")
    act(g, "2s", "As", "Ks")
    assert g.tricks == [0, 1, 0]
    g = new_game(["2s 3c 4c", "5h 9d Th", "Ks Qh 4h"], "7d", dealer=2, kind="gold")
    act(g, "2s", "9d", "Ks")
    assert g.tricks == [0, 1, 0]


# --------------------------------------------------------------------------- jokers on lead
def _lead_game(kind="gold", **options):
    # seat 0 leads with RJ; seat 1 holds Ad 5h 9s; seat 2 holds Kd Qh 4c; trump diamonds
    return new_game(["RJ 2s 3c", "Ad 5h 9s", "Kd Qh 4c"], "7d", dealer=2, kind=kind, **options)


def test_joker_lead_offers_high_trump_and_low_in_each_suit():
    g = _lead_game()
    assert legal(g) == sorted(
        [card("2s"), card("3c"), joker("RJ", "high")] + [joker("RJ", "low", s) for s in "shdc"]
    )


def test_joker_lead_high_is_highest_trump_and_obliges_any_trump():
    g = _lead_game()
    act(g, joker("RJ", "high"))
    assert legal(g) == [card("Ad")]  # the led suit is trump
    act(g, "Ad")
    assert legal(g) == [card("Kd")]
    act(g, "Kd")
    assert g.tricks == [1, 0, 0]


def test_joker_lead_high_does_not_demand_the_highest_trump_by_default():
    g = new_game(["RJ 2s 3c", "Ad 5d 9s", "Kd Qh 4c"], "7d", dealer=2, kind="gold")
    act(g, joker("RJ", "high"))
    assert legal(g) == cards_of("Ad 5d")


def test_joker_lead_demands_highest_variant():
    g = new_game(
        ["RJ 2s 3c", "Ad 5d 9s", "Kd Qh 4c"], "7d", dealer=2, kind="gold", joker_lead_demands_highest=True
    )
    act(g, joker("RJ", "high"))
    assert legal(g) == [card("Ad")]
    g = new_game(
        ["RJ 2s 3c", "Ad 5d 9s", "Kd Qh 4c"], "7d", dealer=2, kind="gold", joker_lead_demands_highest=True
    )
    act(g, joker("RJ", "low", "d"))  # a low lead demands nothing special
    assert legal(g) == cards_of("Ad 5d")


@pytest.mark.parametrize(
    "suit, follow1, follow2, winner",
    [("h", "5h", "Qh", 2), ("s", "9s", "Kd", 2), ("c", "Ad", "4c", 1), ("d", "Ad", "Kd", 1)],
)
def test_joker_lead_low_in_each_suit(suit, follow1, follow2, winner):
    g = _lead_game()
    act(g, joker("RJ", "low", suit))
    assert g.trick[0].suit == "shdc".index(suit)
    act(g, follow1, follow2)
    assert g.tricks[winner] == 1


def test_joker_lead_low_wins_if_nobody_follows_or_trumps():
    g = new_game(["RJ 2s 3c", "5c 6c 9s", "4c 7c 8c"], "7d", dealer=2, kind="gold")
    act(g, joker("RJ", "low", "h"), "5c", "4c")
    assert g.tricks == [1, 0, 0]


def test_joker_lead_high_in_a_declared_suit_without_trump():
    g = new_game(["RJ 2s 3c", "Ac 5h 9s", "Kd Qh 4c"], None, dealer=2, kind="no_trump")
    act(g, "bid 1", "bid 1", "bid 0")
    assert legal(g) == sorted(
        cards_of("2s 3c") + [joker("RJ", "high", s) for s in "shdc"] + [joker("RJ", "low", s) for s in "shdc"]
    )
    act(g, joker("RJ", "high", "c"))
    assert legal(g) == [card("Ac")]
    act(g, "Ac", "4c")
    assert g.tricks == [1, 0, 0]


# --------------------------------------------------------------------------- jokers on follow
def test_joker_follow_high_wins_over_trumps():
    g = new_game(["Ah 2s 3c", "5h 9s BJ", "Kd Qc 4c"], "7d", dealer=2, kind="gold")
    act(g, "Ah")
    assert legal(g) == [card("5h"), joker("BJ", "high"), joker("BJ", "low")]
    act(g, joker("BJ", "high"), "Kd")
    assert g.tricks == [0, 1, 0]


def test_joker_follow_high_without_trump_wins():
    g = new_game(["Ah 2s 3c", "5h 9s RJ", "Kh Qc 4c"], None, dealer=2, kind="no_trump")
    act(g, "bid 1", "bid 1", "bid 0", "Ah", joker("RJ", "high"), "Kh")
    assert g.tricks == [0, 1, 0]


def test_joker_follow_low_is_below_every_card_of_the_led_suit():
    g = new_game(["2h 2s 3c", "5h 9s RJ", "Kc Qc 4c"], "7d", dealer=2, kind="gold")
    act(g, "2h", joker("RJ", "low"), "Kc")
    assert g.tricks == [1, 0, 0]


def test_joker_follow_low_with_the_led_suit_still_counts_in_it():
    g = new_game(["BJ 2s 3c", "5c 9s RJ", "Kc Qc 4c"], "7d", dealer=2, kind="gold")
    act(g, joker("BJ", "low", "h"), joker("RJ", "low"), "Kc")  # only low jokers in hearts: red beats black
    assert g.tricks == [0, 1, 0]


# --------------------------------------------------------------------------- two jokers in a trick
def test_two_high_jokers_red_beats_black():
    g = new_game(["BJ 2s 3c", "5h 9s RJ", "Kd Qc 4c"], "7d", dealer=2, kind="gold")
    act(g, joker("BJ", "high"), joker("RJ", "high"), "Kd")
    assert g.tricks == [0, 1, 0]
    g = new_game(["RJ 2s 3c", "5h 9s BJ", "Kd Qc 4c"], "7d", dealer=2, kind="gold")
    act(g, joker("RJ", "high"), joker("BJ", "high"), "Kd")
    assert g.tricks == [1, 0, 0]


def test_two_low_jokers_red_beats_black():
    g = new_game(["RJ 2s 3c", "5c 9s BJ", "Kc Qc 4c"], "7d", dealer=2, kind="gold")
    act(g, joker("RJ", "low", "h"), joker("BJ", "low"), "Kc")
    assert g.tricks == [1, 0, 0]


# --------------------------------------------------------------------------- dark deals
def test_dark_bids_before_seeing_cards():
    g = new_game(THREE, "7d", dealer=2, kind="dark")
    for p in range(3):
        v = g.view(p)
        assert v.hand == () and v.hand_hidden and v.hand_sizes == (3, 3, 3)
        assert not g.observe(p)[:54].any()
    act(g, "bid 1", "bid 1")
    assert g.view(0).hand == ()
    act(g, "bid 0")
    for p in range(3):
        assert g.view(p).hand == tuple(g.hands[p]) and not g.view(p).hand_hidden
        assert g.observe(p)[:54].sum() == 3


@pytest.mark.parametrize("multiplier", [2, 5, 1.5])
def test_dark_scores_times_the_multiplier(multiplier):
    g = new_game(THREE, "7d", dealer=2, kind="dark", dark_multiplier=multiplier)
    act(g, "bid 1", "bid 1", "bid 0", joker("RJ", "high"), "Ad", "Kd")  # seat 0 takes trick 1
    act(g, "2s", "9s", "Qh", "5h", "4c", "3c")  # seat 1 takes tricks 2 and 3
    assert g.tricks == [1, 2, 0]
    assert g.sheet[0].points == (10 * multiplier, 2 * multiplier, 5 * multiplier)
    assert list(g.total_rewards) == [10 * multiplier, 2 * multiplier, 5 * multiplier]


# --------------------------------------------------------------------------- forehead deals
def test_forehead_everyone_sees_all_cards_but_their_own():
    g = new_game(["As", "Kd", "2c", "RJ"], "5h", dealer=3, kind="forehead")
    for p in range(4):
        v = g.view(p)
        assert v.hand == () and v.hand_hidden
        assert v.visible[p] == ()
        assert all(v.visible[q] == tuple(g.hands[q]) for q in range(4) if q != p)
    assert legal(g) == [bid(0), bid(1)]


def test_forehead_play_is_blind_and_a_joker_is_declared_when_revealed():
    g = new_game(["As", "Kd", "2c", "RJ"], "5h", dealer=2, kind="forehead")  # seat 3 leads
    act(g, "bid 1", "bid 0", "bid 1")  # seats 3, 0, 1 bid
    assert g.current_player == 2 and legal(g) == [bid(0), bid(1)]  # the sum is already 2 > 1 trick
    act(g, "bid 1")
    assert legal(g) == [A.FOREHEAD]  # the same single action whatever the card
    act(g, A.FOREHEAD)
    assert g.phase == "declare" and g.current_player == 3 and g.pending == RED_JOKER
    assert legal(g) == sorted([joker("RJ", "high")] + [joker("RJ", "low", s) for s in "shdc"])
    act(g, joker("RJ", "high"))
    act(g, A.FOREHEAD, A.FOREHEAD, A.FOREHEAD)
    assert g.is_over and g.tricks == [0, 0, 0, 1]
    assert g.sheet[0].points == (5, -50, -50, 50)


def test_forehead_scoring_lines():
    # seat 0 leads As; bids: seat 0 bids 0 and takes the trick (1 point), seat 1 bids 1 and takes none (-50)
    g = new_game(["As", "Kd", "2c", "3c"], "5h", dealer=3, kind="forehead")
    act(g, "bid 0", "bid 1", "bid 0", "bid 1", A.FOREHEAD, A.FOREHEAD, A.FOREHEAD, A.FOREHEAD)
    assert g.sheet[0].points == (1, -50, 5, -50)
    g = new_game(["As", "Kd", "2c", "3c"], "5h", dealer=3, kind="forehead")
    act(g, "bid 1", "bid 1", "bid 0", "bid 0", A.FOREHEAD, A.FOREHEAD, A.FOREHEAD, A.FOREHEAD)
    assert g.sheet[0].points == (50, -50, 5, 5)


def test_forehead_joker_following_declares_low():
    g = new_game(["2s", "BJ", "3c", "4c"], "5h", dealer=3, kind="forehead")
    act(g, "bid 1", "bid 0", "bid 0", "bid 1", A.FOREHEAD, A.FOREHEAD)
    assert legal(g) == [joker("BJ", "high"), joker("BJ", "low")]
    act(g, joker("BJ", "low"), A.FOREHEAD, A.FOREHEAD)
    assert g.tricks == [1, 0, 0, 0]


# --------------------------------------------------------------------------- the 34-card deck
def test_34_card_deck_has_sevens_up_and_two_sixes_as_jokers():
    g = Game(seed=3, num_players=4, deck="34", schedule="classic")
    assert len(g.deck) == 34 and RED_JOKER in g.deck and BLACK_JOKER in g.deck
    assert all(c >= 65 or c % 13 >= 5 for c in g.deck)
    assert g.max_cards == 8 and g.num_actions == A.BID_BASE + 9
    assert g.schedule[:4] == ((3, "normal"),) * 4
    assert g.schedule[-8:] == ((8, "misere"),) * 4 + ((1, "forehead"),) * 4
    assert g.action_name(joker("RJ", "high")) == "play RJ[6h] high"
    assert g.action_name(joker("BJ", "low", "c")) == "play BJ[6s] low c"
    g3 = Game(seed=3, num_players=3, deck="34")
    assert g3.max_cards == 11


def test_34_card_deck_plays_a_stacked_deal():
    g = new_game(["RJ 7s 8c", "Ad Ts 9s", "Kd Qh Jc"], "Ac", dealer=2, deck="34")
    assert g.trump == C
    act(g, "bid 1", "bid 1", "bid 0", "7s", "9s", "Jc")  # seat 2: void in spades, trumps with Jc
    assert g.tricks == [0, 0, 1]
    with pytest.raises(ValueError, match="not among"):
        new_game(["2s 7s 8c", "Ad Ts 9s", "Kd Qh Jc"], "Ac", dealer=2, deck="34")


@pytest.mark.parametrize("n", [2, 5, 10])
def test_34_card_deck_is_for_three_or_four_players(n):
    with pytest.raises(ConfigError, match="deck='34'"):
        Game(seed=0, num_players=n, deck="34")


# --------------------------------------------------------------------------- scoring lines
@pytest.mark.parametrize(
    "kind, b, t, points",
    [
        ("normal", 3, 3, 30),  # made: 10 per trick
        ("normal", 0, 0, 5),  # made a zero bid
        ("normal", 3, 5, 5),  # over: 1 per trick
        ("normal", 0, 2, 2),  # over a zero bid
        ("normal", 3, 1, -20),  # under: -10 per missing trick
        ("no_trump", 2, 2, 20),
        ("no_trump", 2, 0, -20),
        ("dark", 2, 2, 40),  # normal x dark_multiplier (2)
        ("dark", 0, 0, 10),
        ("dark", 1, 3, 6),
        ("dark", 3, 1, -40),
        ("gold", -1, 4, 40),
        ("gold", -1, 0, 0),
        ("misere", -1, 3, -30),
        ("forehead", 1, 1, 50),
        ("forehead", 0, 0, 5),
        ("forehead", 0, 1, 1),
        ("forehead", 1, 0, -50),
    ],
)
def test_scoring_lines(kind, b, t, points):
    assert deal_points(kind, b, t) == points


def test_deal_rewards_and_score_sheet():
    g = new_game(THREE, "7d", dealer=2)
    act(g, "bid 1", "bid 2", "bid 1")
    act(g, joker("RJ", "high"), "Ad", "Kd", "2s", "9s", "Qh", "5h", "4c", "3c")
    assert g.tricks == [1, 2, 0]
    rewards = g.take_rewards()
    assert list(rewards) == [10, 20, -10]
    row = g.sheet[0]
    assert (row.cards, row.kind, row.dealer, row.bids, row.tricks) == (3, "normal", 2, (1, 2, 1), (1, 2, 0))
    assert g.scores == [10, 20, -10]
    event = next(e for e in g.events if e["type"] == "deal_scored")
    assert event["bids"] == [1, 2, 1] and event["points"] == [10, 20, -10]
    assert g.info(0)["deal"]["totals"] == [10, 20, -10]


@pytest.mark.parametrize("kind, sign", [("gold", 10), ("misere", -10)])
def test_gold_and_misere_score_per_trick(kind, sign):
    g = new_game(THREE, "7d", dealer=2, kind=kind)
    act(g, joker("RJ", "high"), "Ad", "Kd", "2s", "9s", "Qh", "5h", "4c", "3c")
    assert g.sheet[0].points == (1 * sign, 2 * sign, 0)
    assert g.sheet[0].bids == (-1, -1, -1)
    assert next(e for e in g.events if e["type"] == "deal_scored")["bids"] == [None, None, None]


def test_rewards_add_up_to_the_sheet_over_a_classic_game():
    g = Game(seed=11, num_players=3)
    rng = np.random.default_rng(0)
    total = np.zeros(3)
    while not g.is_over:
        g.apply(int(rng.choice(g.legal_actions())))
        total += g.take_rewards()
    assert len(g.sheet) == len(g.schedule)
    assert np.allclose(total, g.scores)
    assert np.allclose(total, [sum(r.points[p] for r in g.sheet) for p in range(3)])


# --------------------------------------------------------------------------- schedules and options
def test_classic_schedule():
    entries = schedule.classic(4, 54, 3)
    normal = [(c, "normal") for c in range(3, 14) for _ in range(4)]
    specials = [(13, k) for k in ("no_trump", "dark", "gold", "misere") for _ in range(4)]
    assert entries == tuple(normal + specials + [(1, "forehead")] * 4)
    assert schedule.classic(10, 54, 3)[:3] == ((3, "normal"),) * 3
    assert schedule.classic(10, 54, 3)[30] == (5, "no_trump")
    assert schedule.classic(3, 34, 3)[-4:] == ((11, "misere"),) + ((1, "forehead"),) * 3


def test_classic_game_plays_the_whole_schedule():
    g = Game(seed=5, num_players=4, start_cards=12)
    assert len(g.schedule) == 2 * 4 + 16 + 4
    rng = np.random.default_rng(1)
    kinds = []
    while not g.is_over:
        if not kinds or kinds[-1] != (g.deal_index, g.kind, g.cards):
            kinds.append((g.deal_index, g.kind, g.cards))
        g.apply(int(rng.choice(g.legal_actions())))
    assert [(c, k) for _, k, c in kinds] == list(g.schedule)


def test_single_schedule_draws_one_classic_entry():
    classic = schedule.classic(4, 54, 3)
    for index in (0, 45, len(classic) - 1):
        g = Game(chance=ScriptedChance(integers=[1, index]), num_players=4, schedule="single")
        assert g.schedule == (classic[index],) and g.dealer == 1
    seen = {Game(seed=s, num_players=4, schedule="single").schedule[0] for s in range(200)}
    assert {k for _, k in seen} == set(schedule.KINDS)


def test_single_deal_draws_one_entry_of_an_explicit_schedule():
    """``single_deal``: one listed entry per episode, uniformly by position, so a repeated entry weighs more."""
    listed = [(13, "gold"), (13, "gold"), (13, "gold"), (4, "normal")]
    for index, entry in enumerate(listed):
        g = Game(chance=ScriptedChance(integers=[2, index]), num_players=4, schedule=listed, single_deal=True)
        assert g.schedule == (entry,) and g.dealer == 2 and g.deal_index == 0
    drawn = [Game(seed=s, num_players=4, schedule=listed, single_deal=True).schedule for s in range(400)]
    gold = sum(d == ((13, "gold"),) for d in drawn)
    assert set(drawn) == {((13, "gold"),), ((4, "normal"),)} and 255 <= gold <= 345  # 3 in 4: 300 ± 4.5 sd
    rng = np.random.default_rng(0)
    g = Game(seed=7, num_players=4, schedule=listed, single_deal=True)
    while not g.is_over:
        g.apply(int(rng.choice(g.legal_actions())))
    assert len(g.sheet) == 1  # the episode ended after its one deal
    # without the option the same list is the whole game, in order
    assert Game(seed=0, num_players=4, schedule=listed).schedule == tuple(listed)
    assert Game(seed=0, num_players=4, schedule="classic", single_deal=True).schedule[0] in schedule.classic(4, 54, 3)


def test_explicit_schedule_is_validated():
    g = Game(seed=0, num_players=4, schedule=[5, (13, "dark"), [1, "forehead"], (2, "No-Trump")])
    assert g.schedule == ((5, "normal"), (13, "dark"), (1, "forehead"), (2, "no_trump"))
    with pytest.raises(ConfigError, match="at most 13"):
        Game(seed=0, num_players=4, schedule=[(14, "normal")])
    with pytest.raises(ConfigError, match="forehead deals have exactly 1 card"):
        Game(seed=0, num_players=4, schedule=[(2, "forehead")])
    with pytest.raises(ConfigError, match="unknown deal kind"):
        Game(seed=0, num_players=4, schedule=[(2, "blind")])
    with pytest.raises(ConfigError, match="option schedule"):
        Game(seed=0, num_players=4, schedule="everything")
    with pytest.raises(ConfigError, match="option schedule"):
        Game(seed=0, num_players=4, schedule=[])


def test_option_errors_name_the_option():
    with pytest.raises(ConfigError, match="num_players"):
        Game(seed=0, num_players=11)
    with pytest.raises(ConfigError, match="start_cards"):
        Game(seed=0, num_players=10, start_cards=6)
    with pytest.raises(ConfigError, match="deck='52': expected '54' or '34'"):
        Game(seed=0, deck="52")
    assert Game(seed=0, num_players=3, deck=34).deck_name == "34"  # YAML / command lines give ints
    with pytest.raises(ConfigError, match="dark_multiplier"):
        Game(seed=0, dark_multiplier=0)
    with pytest.raises(ConfigError, match="whole_deck_trump"):
        Game(seed=0, whole_deck_trump="last")
    with pytest.raises(ConfigError, match="must_trump"):
        Game(seed=0, must_trump="yes")
    with pytest.raises(ConfigError, match="unknown option"):
        Game(seed=0, trumps=False)


def test_action_space_depends_on_deck_and_players_only():
    assert Game(seed=0, num_players=4).num_actions == 87
    assert Game(seed=0, num_players=4, schedule="single").num_actions == 87
    assert Game(seed=0, num_players=2).num_actions == A.BID_BASE + 28
    assert Game(seed=0, num_players=10).num_actions == A.BID_BASE + 6


def test_illegal_actions_leave_the_state_unchanged():
    g = new_game(THREE, "7d", dealer=2)
    act(g, "bid 1", "bid 1", "bid 0")
    before = (g.view(0), list(g.hands[0]), len(g.history))
    for bad in (card("Ad"), A.FOREHEAD, bid(1), joker("BJ", "high"), 999):
        with pytest.raises(IllegalActionError):
            g.apply(bad)
    assert (g.view(0), list(g.hands[0]), len(g.history)) == before
