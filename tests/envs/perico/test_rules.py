"""Perico rules (RULES.md §2), one stacked-deck scenario per rule.

``stacked`` deals known hands: the first lot picks the dealer, the deck is
dealt in blocks of H cards from the dealer's left, then the turned card, then
the stock from its top.
"""

import numpy as np
import pytest

from pokerzoo.envs.engine.cards import DECKS, ScriptedChance, format_cards, parse_cards
from pokerzoo.envs.engine.game import IllegalActionError
from pokerzoo.envs.engine.options import ConfigError
from pokerzoo.envs.perico import actions
from pokerzoo.envs.perico.actions import CONTINUE, DISCARD0, DRAW, KNOCK
from pokerzoo.envs.perico.game import PericoGame

FILLER = ["2c 3d 4h 6s 8c", "2d 3h 4s 6c 8d", "2h 3s 4c 6d 8h", "2s 3c 4d 6h 8s", "5c 5d 7h 9s Jc"]


def stacked(hands, dealer=0, turned="Td", stock="", shuffles=(), **options):
    """A game whose first deal gives ``hands[seat]`` to each seat, turns ``turned``, then ``stock`` on top."""
    n = len(hands)
    order = []
    for i in range(n):
        order += parse_cards(hands[(dealer + 1 + i) % n])
    order += parse_cards(turned) + parse_cards(stock)
    chance = ScriptedChance(shuffles=[order, *shuffles], integers=[dealer])
    return PericoGame(chance=chance, num_players=n, **options)


def exchange(game, *cards):
    """The exchange action throwing these cards (by name) from the current player's hand."""
    hand = game.hands[game.current_player]
    return actions.exchange_action(game.hand_size, [hand.index(c) for c in parse_cards(" ".join(cards))])


def discard(game, card):
    hand = game.hands[game.current_player]
    c = parse_cards(card)[0]
    return DISCARD0 + (game.hand_size if c == game.drawn else hand.index(c))


def draw_turn(game, throw=None):
    """Kind 1: draw, then discard ``throw`` (default: the drawn card)."""
    game.apply(DRAW)
    game.apply(discard(game, throw) if throw else DISCARD0 + game.hand_size)


def knock_window(game):
    """Let every seat take a draw turn (discarding the card drawn), up to the first knock decision."""
    while game.phase != "knock":
        draw_turn(game)


# ------------------------------------------------------------------ deal
def test_deal_from_the_dealers_left_turns_a_card_and_the_left_player_starts():
    game = stacked(FILLER[:4], dealer=2, turned="Td", stock="Kc")
    assert game.dealer == 2 and game.current_player == 3 and game.phase == "turn"
    assert format_cards(game.hands[3]) == "2s 3c 4d 6h 8s"
    assert game.pile == parse_cards("Td") and len(game.stock) == 54 - 20 - 1
    assert game.stock[-1] == parse_cards("Kc")[0]
    view = game.view(3)
    assert view.pile_top == parse_cards("Td")[0] and view.stock_size == 33 and view.drawn == -1
    assert game.events[0] == {"type": "first_dealer", "dealer": 2}


def test_first_dealer_is_drawn_by_lot_from_the_seed():
    dealers = {PericoGame(seed=s, num_players=5).dealer for s in range(40)}
    assert dealers == set(range(5))
    assert PericoGame(seed=9).dealer == PericoGame(seed=9).dealer


def test_a_turned_joker_is_shuffled_back_and_another_card_turned():
    game = stacked(FILLER[:2], turned="RJ", stock="5h", shuffles=[["9c"]])
    assert game.pile == parse_cards("9c")
    assert parse_cards("RJ")[0] in game.stock and len(game.stock) == 54 - 10 - 1
    assert game.events[-1]["jokers_returned"] == 1 and game.events[-1]["turned"] == parse_cards("9c")[0]


def test_hands_are_sorted_and_slots_follow_the_sort():
    game = stacked(["RJ Ah 2c Kd 2s", *FILLER[1:3]])
    assert format_cards(game.hands[0]) == "2s 2c Kd Ah RJ"  # rank, then suit s h d c, jokers last


# ------------------------------------------------------------------ the three kinds of turn
def test_draw_then_discard_are_two_decisions_of_the_same_player():
    game = stacked(FILLER[:3], stock="Kc 9h")
    p = game.current_player
    mask = game.legal_mask()
    assert mask[DRAW] and not mask[KNOCK] and not mask[CONTINUE] and not mask[DISCARD0]
    game.apply(DRAW)
    assert game.current_player == p and game.phase == "discard"
    assert game.view(p).drawn == parse_cards("Kc")[0] and game.view((p + 1) % 3).drawn == -1
    assert np.flatnonzero(game.legal_mask()).tolist() == list(range(DISCARD0, DISCARD0 + 6))
    game.apply(discard(game, "2d"))  # keep the king
    assert format_cards(game.hands[p]) == "3h 4s 6c 8d Kc"
    assert game.pile[-1] == parse_cards("2d")[0] and game.current_player == (p + 1) % 3
    assert game.draw_turns[p] == 1 and game.exchanged[p] == 1 and game.last_exchange[p] == 1


def test_the_drawn_card_itself_may_be_discarded():
    game = stacked(FILLER[:3], stock="Kc")
    hand = list(game.hands[1])
    game.apply(DRAW)
    game.apply(DISCARD0 + 5)
    assert game.hands[1] == hand and game.pile[-1] == parse_cards("Kc")[0]


def test_exchange_discards_in_hand_order_then_draws_as_many():
    game = stacked(FILLER[:3], turned="Td", stock="Kc Qc Jc")
    game.apply(exchange(game, "8d", "3h", "6c"))
    assert game.pile == parse_cards("Td 3h 6c 8d")  # slot order; the last one on top
    assert format_cards(game.hands[1]) == "2d 4s Jc Qc Kc"
    assert game.exchanged[1] == 3 and game.last_exchange[1] == 3 and game.current_player == 2
    assert game.events[-1]["type"] == "exchange"


def test_exchange_of_the_whole_hand_is_allowed():
    game = stacked(FILLER[:2], stock="Kc Qc Jc 9c 7c")
    assert game.legal_mask()[actions.exchange_action(5, [0, 1, 2, 3, 4])]
    game.apply(exchange(game, *format_cards(game.hands[1]).split()))
    assert format_cards(game.hands[1]) == "7c 9c Jc Qc Kc" and len(game.pile) == 6


def test_knock_is_masked_until_every_player_has_taken_a_draw_turn():
    game = stacked(FILLER[:3])
    for _ in range(3):
        assert game.phase == "turn" and not game.legal_mask()[KNOCK] and not game.view(0).knock_allowed
        with pytest.raises(IllegalActionError, match="legal now: 2:draw"):
            game.apply(KNOCK)
        draw_turn(game)
    # every seat has drawn: the next player (the dealer's left again) may knock
    assert game.current_player == 1 and game.phase == "knock" and game.view(0).knock_allowed
    assert np.flatnonzero(game.legal_mask()).tolist() == [KNOCK, CONTINUE]
    game.apply(CONTINUE)
    assert game.phase == "turn" and game.current_player == 1


def test_knock_compares_hands_the_best_scores_a_point_and_deals_next():
    hands = ["Ac Ad 7h 7s 3c", "Kc Kd Kh 2s 5c", "Qc Jd 9h 6s 4c"]
    game = stacked(hands, dealer=0, stock="2c 2d 2h")
    knock_window(game)
    assert game.current_player == 1
    game.apply(KNOCK)
    assert game.scores == [0, 1, 0] and game.total_rewards.tolist() == [0, 1, 0]
    end = next(e for e in game.events if e["type"] == "round_end")
    assert end["reason"] == "knock" and end["winner"] == 1
    assert end["hands"][0] == {"seat": 0, "cards": "3c 7s 7h Ad Ac", "category": "two_pair"}
    assert game.dealer == 1 and game.round_number == 2 and game.current_player == 2  # the winner deals
    assert game.info(0)["last_round"]["winner"] == 1


def test_a_tie_for_best_scores_nothing_and_the_same_dealer_deals_again():
    hands = ["Ac Kd 9h 7s 3c", "Ah Ks 9d 7c 3d", "Qc Jd 8h 6s 4c"]  # two equal ace-king hands
    game = stacked(hands, dealer=2, stock="2c 2d 2h")
    knock_window(game)
    game.apply(KNOCK)
    end = next(e for e in game.events if e["type"] == "round_end")
    assert end["winner"] is None and end["tied"] == [0, 1]
    assert game.scores == [0, 0, 0] and not game.total_rewards.any()
    assert game.dealer == 2 and game.round_number == 2 and game.current_player == 0


def test_turn_cap_ends_the_round_as_if_knocked():
    hands = ["Ac Ad 7h 7s 3c", "Kc Kd Kh 2s 5c"]
    game = stacked(hands, dealer=1, stock="2c 2d 2h", max_turns_per_round=3)
    draw_turn(game)
    draw_turn(game)
    game.apply(CONTINUE)
    draw_turn(game)
    assert any(e["type"] == "turn_cap" for e in game.events)
    end = next(e for e in game.events if e["type"] == "round_end")
    assert end["reason"] == "turn_cap" and end["winner"] == 1 and game.scores == [0, 1]


# ------------------------------------------------------------------ royal flushes
def test_a_royal_flush_dealt_ends_the_round_at_once():
    game = stacked(["Ac Kd 9h 7s 3c", "Ts Js Qs Ks As", "2c 2d 3h 4s 5c"], dealer=0)
    end = next(e for e in game.events if e["type"] == "round_end")
    assert end["reason"] == "royal_dealt" and end["winner"] == 1 and game.scores == [0, 1, 0]
    assert not game.history and game.round_number == 2 and game.dealer == 1


def test_royal_flushes_dealt_to_several_players_are_compared():
    # a natural royal beats one made with a joker
    game = stacked(["Th Jh Qh Kh RJ", "Ts Js Qs Ks As", "2c 2d 3h 4s 5c"], dealer=0)
    end = next(e for e in game.events if e["type"] == "round_end")
    assert end["winner"] == 1 and [h["seat"] for h in end["hands"]] == [0, 1]
    # two natural royals tie: nobody scores and the round is dealt again by the same dealer
    game = stacked(["Th Jh Qh Kh Ah", "Ts Js Qs Ks As", "2c 2d 3h 4s 5c"], dealer=0)
    end = next(e for e in game.events if e["type"] == "round_end")
    assert end["winner"] is None and end["tied"] == [0, 1] and game.scores == [0, 0, 0] and game.dealer == 0


def test_a_royal_flush_drawn_ends_the_round_before_the_discard():
    game = stacked(["Ts Js Qs Ks 2c", *FILLER[1:3]], dealer=2, stock="As")
    assert game.current_player == 0
    game.apply(DRAW)
    end = next(e for e in game.events if e["type"] == "round_end")
    assert end["reason"] == "royal_drawn" and end["winner"] == 0 and game.scores == [1, 0, 0]
    # six cards held: no discard
    assert end["hands"] == [{"seat": 0, "cards": "2c Ts Js Qs Ks As", "category": "royal_flush"}]
    assert game.round_number == 2 and game.dealer == 0


def test_a_royal_flush_made_by_an_exchange_ends_the_round():
    game = stacked(["Ts Js 2d 3h 2c", *FILLER[3:5]], dealer=2, stock="Qs RJ As")
    game.apply(exchange(game, "2c", "2d", "3h"))
    end = next(e for e in game.events if e["type"] == "round_end")
    assert end["reason"] == "royal_drawn" and end["winner"] == 0


def test_six_card_royal_flush_drawn_while_holding_seven():
    hands = ["9h Th Jh Qh Kh 2c", "2d 3h 4s 6c 8d 9c", "2h 3s 4c 6d 8h 9d"]
    game = stacked(hands, dealer=2, stock="Ah", six_card=True)
    game.apply(DRAW)
    end = next(e for e in game.events if e["type"] == "round_end")
    assert end["reason"] == "royal_drawn" and end["winner"] == 0


# ------------------------------------------------------------------ the stock
def test_empty_stock_reshuffles_the_pile_but_its_top_also_in_the_middle_of_an_exchange():
    game = stacked(FILLER[:2], dealer=1, turned="Td", max_turns_per_round=100)
    # exchange whole hands until fewer than five cards remain in the stock
    while len(game.stock) >= 5:
        if game.phase == "knock":
            game.apply(CONTINUE)
        game.apply(actions.exchange_action(5, [0, 1, 2, 3, 4]))
    assert not any(e["type"] == "reshuffle" for e in game.events)
    if game.phase == "knock":
        game.apply(CONTINUE)
    left = len(game.stock)
    pile_before = len(game.pile)
    p = game.current_player
    game.apply(actions.exchange_action(5, [0, 1, 2, 3, 4]))
    event = next(e for e in game.events if e["type"] == "reshuffle")
    # the pile (with this turn's five discards) minus its top became the stock, then the rest was drawn
    assert event["cards"] == pile_before + 5 - 1
    assert len(game.pile) == 1 and len(game.stock) == event["cards"] - (5 - left)
    assert len(game.hands[p]) == 5


def test_empty_stock_reshuffle_on_a_single_draw():
    game = stacked(FILLER[:2], dealer=1)
    while game.stock:
        if game.phase == "knock":
            game.apply(CONTINUE)
        game.apply(DRAW if len(game.stock) < 5 else actions.exchange_action(5, [0, 1, 2, 3, 4]))
        if game.phase == "discard":
            game.apply(DISCARD0 + 5)
    if game.phase == "knock":
        game.apply(CONTINUE)
    top = game.pile[-1]
    size = len(game.pile)
    game.apply(DRAW)
    assert game.pile == [top] and len(game.stock) == size - 1 - 1 and game.drawn >= 0


# ------------------------------------------------------------------ scoring and the game
def test_target_score_ends_the_game():
    assert PericoGame(seed=0).target == 5 and PericoGame(seed=0, six_card=True).target == 6
    game = stacked(["Ac Ad 7h 7s 3c", "Kc Kd Kh 2s 5c"], dealer=0, target_score=1, reward="win")
    knock_window(game)
    game.apply(KNOCK)
    assert game.is_over and not game.is_truncated and game.winners == [1]  # trips beat two pair
    assert game.total_rewards.tolist() == [-1, 1] and game.current_player is None and game.phase == "over"
    assert game.info(0)["winners"] == [1] and not game.legal_mask().any()


def test_points_are_rewarded_when_scored_and_the_game_runs_to_the_target():
    game = stacked(["Ac Ad 7h 7s 3c", "Kc Kd Kh 2s 5c"], dealer=0, target_score=2)
    knock_window(game)
    game.apply(KNOCK)
    assert game.total_rewards.tolist() == [0, 1] and not game.is_over
    rng = np.random.default_rng(0)
    while not game.is_over:
        game.apply(int(rng.choice(np.flatnonzero(game.legal_mask()))))
    assert max(game.scores) == 2 and game.total_rewards.tolist() == game.scores


def test_win_reward_for_several_players():
    hands = ["Ac Ad 7h 7s 3c", "Kc Kd Kh 2s 5c", "Qc Jd 9h 6s 4c", "2c 3d 4h 6d 8c"]
    game = stacked(hands, dealer=3, target_score=1, reward="win")
    knock_window(game)
    game.apply(KNOCK)
    assert game.total_rewards.tolist() == pytest.approx([-1 / 3, 1, -1 / 3, -1 / 3])


def test_max_rounds_truncates_with_the_leaders_as_winners():
    game = stacked(["Ac Ad 7h 7s 3c", "Kc Kd Kh 2s 5c", "Qc Jd 9h 6s 4c"], max_rounds=1, reward="win")
    knock_window(game)
    game.apply(KNOCK)
    assert game.is_over and game.is_truncated and game.winners == [1]
    assert game.total_rewards.tolist() == pytest.approx([-0.5, 1, -0.5])
    tie = stacked(["Ac Kd 9h 7s 3c", "Ah Ks 9d 7c 3d"], max_rounds=1, reward="win")
    knock_window(tie)
    tie.apply(KNOCK)
    assert tie.is_truncated and tie.winners == [0, 1] and tie.total_rewards.tolist() == [0, 0]


def test_jokers_in_five_of_a_kind_reaches_the_showdown():
    hands = ["7c 7d 7h 7s RJ", "Ac Ad Ah As Kc"]
    for allowed, winner in ((True, 0), (False, 1)):
        game = stacked(hands, dealer=1, jokers_in_five_of_a_kind=allowed)
        knock_window(game)
        game.apply(KNOCK)
        assert next(e for e in game.events if e["type"] == "round_end")["winner"] == winner


def test_fewer_jokers_wins_at_the_showdown():
    hands = ["Ac Ad RJ 9s 4c", "2c 2d 2h 5s 7c"]  # trips of aces with a joker lose to natural deuces
    game = stacked(hands, dealer=1)
    knock_window(game)
    game.apply(KNOCK)
    assert next(e for e in game.events if e["type"] == "round_end")["winner"] == 1


# ------------------------------------------------------------------ six-card variant and options
def test_six_card_variant():
    game = PericoGame(seed=3, six_card=True, num_players=5)
    assert game.hand_size == 6 and game.deck_name == "56" and len(game.deck) == 56
    assert game.num_actions == 73 and all(len(h) == 6 for h in game.hands)
    assert PericoGame(seed=3).num_actions == 40 and len(PericoGame(seed=3).deck) == 54
    assert PericoGame(seed=3, deck="56").deck == DECKS["56"].cards


@pytest.mark.parametrize(
    "options, message",
    [
        ({"num_players": 7}, "num_players=7 is out of range; expected int in 2..6"),
        ({"six_card": True, "num_players": 6}, "six_card=True: Six-card Perico seats 2..5"),
        ({"target_score": 0}, "target_score=0"),
        ({"deck": "52"}, "deck='52' is not allowed"),
        ({"reward": "chips"}, "reward='chips' is not allowed"),
        ({"max_turns_per_round": 0}, "max_turns_per_round=0 is out of range"),
        ({"six_cards": True}, "unknown option six_cards"),
    ],
)
def test_bad_options_are_named(options, message):
    with pytest.raises(ConfigError, match=message):
        PericoGame(seed=0, **options)


def test_action_names():
    game = stacked(FILLER[:2], stock="Kc")
    assert game.action_name(DRAW) == "draw" and game.action_name(KNOCK) == "knock"
    assert game.action_name(exchange(game, "2d", "8d")) == "exchange slots 0,4 (2d 8d)"
    assert game.public_action_name(exchange(game, "2d", "8d"), (game.player + 1) % game.num_players) == (
        "exchange 2: 2d 8d"
    )
    game.apply(DRAW)
    assert game.action_name(DISCARD0 + 5) == "discard the drawn card Kc"
    assert game.action_name(DISCARD0) == "discard slot 0 (2d)"
    other = (game.player + 1) % game.num_players  # the table sees the card thrown, not the slot
    assert game.public_action_name(DISCARD0 + 5, other) == "discard Kc"
    assert game.public_action_name(DISCARD0, other) == "discard 2d"
    assert game.public_action_name(DISCARD0, game.player) == "discard slot 0 (2d)"
