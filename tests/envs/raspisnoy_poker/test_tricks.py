"""The shared trick engine (pokerzoo.envs.engine.tricks): obligations, jokers, winners, inference."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.envs.engine.cards import BLACK_JOKER, RED_JOKER, parse_card, parse_cards
from pokerzoo.envs.engine.tricks import (
    HIGH,
    LOW,
    NATURAL,
    Play,
    TrickRules,
    best_strength,
    infer,
    joker_declarations,
    legal_cards,
    make_play,
    winner,
)

S, H, D, C = range(4)
RULES = TrickRules()


def trick(*items, trump=-1) -> list[Play]:
    """Build a trick from ("As",) natural plays and ("RJ", HIGH/LOW[, suit]) joker plays, seats 0, 1, 2..."""
    out: list[Play] = []
    for seat, item in enumerate(items):
        if isinstance(item, str):
            out.append(make_play(seat, parse_card(item), out))
        else:
            card, decl, *suit = item
            out.append(make_play(seat, parse_card(card), out, decl, suit[0] if suit else -1, trump))
    return out


def hand(text: str) -> list[int]:
    return sorted(parse_cards(text))


# --------------------------------------------------------------------------- natural cards
def test_highest_of_led_suit_wins_without_trump():
    assert winner(trick("9h", "Kh", "As", "Th"), trump=-1) == 1


def test_highest_trump_wins():
    assert winner(trick("Ah", "2d", "Kh", "5d", trump=D), trump=D) == 3


def test_off_suit_cards_never_win():
    assert winner(trick("2h", "As", "Ac"), trump=-1) == 0


# --------------------------------------------------------------------------- joker leads
def test_joker_lead_high_in_trump_deal_is_highest_trump():
    t = trick(("RJ", HIGH), "Ad", "Ah", trump=D)
    assert t[0].suit == D  # the led suit is trump
    assert winner(t, trump=D) == 0


def test_joker_lead_high_without_trump_is_highest_of_declared_suit():
    t = trick(("BJ", HIGH, C), "Ac", "Ah", trump=-1)
    assert t[0].suit == C
    assert winner(t, trump=-1) == 0


def test_joker_lead_low_is_lowest_of_declared_suit():
    t = trick(("RJ", LOW, H), "2h", "As", trump=-1)
    assert t[0].suit == H
    assert winner(t, trump=-1) == 1  # any heart beats it


def test_joker_lead_low_wins_when_nobody_follows_and_nobody_trumps():
    assert winner(trick(("RJ", LOW, H), "As", "Ac", trump=D), trump=D) == 0


def test_joker_lead_low_is_beaten_by_a_trump():
    assert winner(trick(("RJ", LOW, H), "As", "2d", trump=D), trump=D) == 2


def test_joker_lead_low_in_trump_suit_is_lowest_trump():
    t = trick(("BJ", LOW, D), "2d", "As", trump=D)
    assert t[0].suit == D
    assert winner(t, trump=D) == 1


def test_high_trump_lead_declares_no_other_suit():
    with pytest.raises(ValueError, match="highest trump"):
        make_play(0, RED_JOKER, [], HIGH, H, trump=D)
    with pytest.raises(ValueError, match="declare a suit"):
        make_play(0, RED_JOKER, [], LOW, -1, trump=D)
    with pytest.raises(ValueError, match="high or low"):
        make_play(0, RED_JOKER, [], NATURAL, H, trump=D)
    with pytest.raises(ValueError, match="no declaration"):
        make_play(0, parse_card("As"), [], HIGH, -1)


# --------------------------------------------------------------------------- joker follows
def test_joker_follow_high_wins_the_trick_over_trumps():
    t = trick("Kh", "Ad", ("BJ", HIGH), "Ah", trump=D)
    assert t[2].suit == H  # a following joker counts in the led suit
    assert winner(t, trump=D) == 2


def test_joker_follow_high_without_trump_wins():
    assert winner(trick("Kh", ("RJ", HIGH), "Ah"), trump=-1) == 1


def test_joker_follow_low_is_below_every_card_of_the_led_suit():
    t = trick("2h", ("RJ", LOW), "As", trump=-1)
    assert winner(t, trump=-1) == 0
    assert best_strength(t, -1) == best_strength(t[:1], -1)


# --------------------------------------------------------------------------- two jokers
def test_two_high_jokers_red_beats_black_whichever_comes_first():
    assert winner(trick(("BJ", HIGH), ("RJ", HIGH), "Ad", trump=D), trump=D) == 1
    assert winner(trick(("RJ", HIGH), ("BJ", HIGH), "Ad", trump=D), trump=D) == 0
    assert winner(trick("2c", ("BJ", HIGH), ("RJ", HIGH)), trump=-1) == 2


def test_two_low_jokers_red_beats_black():
    assert winner(trick(("BJ", LOW, H), ("RJ", LOW), "As"), trump=-1) == 1
    assert winner(trick(("RJ", LOW, H), ("BJ", LOW), "As"), trump=-1) == 0


def test_high_joker_beats_low_joker():
    assert winner(trick(("RJ", LOW, S), ("BJ", HIGH), "2c"), trump=-1) == 1


# --------------------------------------------------------------------------- obligations
def test_must_follow_suit_jokers_always_allowed():
    t = trick("9h")
    assert legal_cards(hand("2h Kh As RJ"), t, D, RULES) == [*hand("2h Kh"), RED_JOKER]


def test_void_must_trump():
    assert legal_cards(hand("2s 3d 4d BJ"), trick("9h"), D, RULES) == [*hand("3d 4d"), BLACK_JOKER]


def test_void_without_trump_plays_anything():
    assert legal_cards(hand("2s 3c"), trick("9h"), D, RULES) == hand("2s 3c")
    assert legal_cards(hand("2s 3d"), trick("9h"), -1, RULES) == hand("2s 3d")


def test_obligations_switch_off():
    free_suit = TrickRules(must_follow_suit=False)
    assert legal_cards(hand("2h 3d 4s"), trick("9h"), D, free_suit) == hand("2h 3d 4s")
    free_trump = TrickRules(must_trump=False)
    assert legal_cards(hand("3d 4s"), trick("9h"), D, free_trump) == hand("3d 4s")


def test_high_trump_joker_lead_obliges_any_trump_not_the_highest():
    t = trick(("RJ", HIGH), trump=D)
    assert legal_cards(hand("2d Kd As"), t, D, RULES) == hand("2d Kd")


def test_joker_lead_demands_highest_variant():
    rules = TrickRules(joker_lead_demands_highest=True)
    t = trick(("RJ", HIGH), trump=D)
    assert legal_cards(hand("2d Kd As BJ"), t, D, rules) == [parse_card("Kd"), BLACK_JOKER]
    low = trick(("RJ", LOW, D), trump=D)  # only a high lead demands the highest
    assert legal_cards(hand("2d Kd"), low, D, rules) == hand("2d Kd")


def test_lead_is_free():
    assert legal_cards(hand("2h RJ"), [], D, RULES) == hand("2h RJ")


def test_declarations_offered():
    assert joker_declarations(True, D) == [(HIGH, D), (LOW, 0), (LOW, 1), (LOW, 2), (LOW, 3)]
    assert joker_declarations(True, -1) == [(HIGH, s) for s in range(4)] + [(LOW, s) for s in range(4)]
    assert joker_declarations(False, D) == [(HIGH, -1), (LOW, -1)]


# --------------------------------------------------------------------------- inference
def test_inference_void_and_no_trump():
    t = trick("9h", trump=D)
    assert infer(make_play(1, parse_card("2s"), t), t, D, RULES).voids == (1 << H) | (1 << D)
    assert infer(make_play(1, parse_card("2d"), t), t, D, RULES).voids == 1 << H
    assert infer(make_play(1, BLACK_JOKER, t, LOW), t, D, RULES).voids == 0  # jokers are always playable
    assert infer(make_play(1, parse_card("2s"), t), t, D, TrickRules(must_follow_suit=False)).voids == 0


def test_inference_ceiling_in_variant():
    rules = TrickRules(joker_lead_demands_highest=True)
    t = trick(("RJ", HIGH), trump=D)
    known = infer(make_play(1, parse_card("9d"), t), t, D, rules)
    assert (known.ceiling_suit, known.ceiling_rank) == (D, parse_card("9d") % 13)


def _reference_winner(t: list[Play], trump: int) -> int:
    """RULES.md §4 written out directly: high jokers (red first), then trumps, then the led suit."""
    led = t[0].suit

    def key(p: Play) -> tuple:
        if p.card >= 65 and p.decl == HIGH:
            return (3, p.card == RED_JOKER)
        suit = p.suit if p.card >= 65 else p.card // 13
        rank = (-1 if p.card == RED_JOKER else -2) if p.card >= 65 else p.card % 13
        return (2 if suit == trump else 1 if suit == led else 0, rank)

    return max(range(len(t)), key=lambda i: key(t[i]))


@settings(max_examples=150, deadline=None)
@given(
    st.permutations([*list(range(52)), RED_JOKER, BLACK_JOKER]),
    st.integers(-1, 3),
    st.integers(2, 10),
    st.data(),
)
def test_winner_matches_the_rules_for_random_legal_tricks(cards, trump, n, data):
    """Random legal tricks (random cards, declarations, seats): the winner is the rules' winner."""
    hands = [sorted(cards[i * 5 : i * 5 + 5]) for i in range(n)]
    t: list[Play] = []
    for seat, h in enumerate(hands):
        legal = legal_cards(h, t, trump, RULES)
        assert legal, "a player always has a legal card"
        card = data.draw(st.sampled_from(legal))
        decl, suit = (
            (NATURAL, -1) if card < 65 else data.draw(st.sampled_from(joker_declarations(not t, trump)))
        )
        t.append(make_play(seat, card, t, decl, suit, trump))
    assert winner(t, trump) == _reference_winner(t, trump)


def test_play_labels():
    assert Play(0, RED_JOKER, HIGH, D).label() == "RJ(high d)"
    assert Play(1, BLACK_JOKER, LOW, -1).label() == "BJ(low)"
    assert make_play(2, parse_card("Th"), []).label() == "Th"
