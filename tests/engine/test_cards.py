from collections import Counter

import numpy as np
import pytest

from pokerzoo.envs.engine.cards import (
    BLACK_JOKER,
    DECKS,
    RED_JOKER,
    Chance,
    ScriptedChance,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)


def test_deck_sizes_and_distinct_ids():
    sizes = {"52": 52, "54": 54, "34": 34, "56": 56, "65": 65}
    for name, size in sizes.items():
        deck = DECKS[name]
        assert len(deck) == size
        assert len(set(deck.cards)) == size


def test_34_card_deck_is_seven_to_ace_plus_two_jokers():
    deck = DECKS["34"]
    ranks = Counter(format_card(c)[0] for c in deck.cards if c < 65)
    assert set(ranks) == set("789TJQKA") and all(n == 4 for n in ranks.values())
    assert RED_JOKER in deck.cards and BLACK_JOKER in deck.cards
    assert deck.joker_stand_ins == {RED_JOKER: "6h", BLACK_JOKER: "6s"}


def test_five_suit_deck_uses_its_own_letters():
    deck = DECKS["65"]
    assert deck.format(64) == "Aq"  # ace of Conquistadores
    assert deck.parse("2m") == 0
    assert {deck.format(c)[1] for c in deck.cards} == set("mlbtq")


@pytest.mark.parametrize("text", ["As", "Th", "2c", "9d", "RJ", "BJ", "RJ2", "BJ2"])
def test_parse_format_round_trip(text):
    assert format_card(parse_card(text)) == text


def test_parse_accepts_ten_and_lists_and_ids():
    assert parse_card("10h") == parse_card("Th")
    assert parse_cards("As Kd, RJ") == [parse_card("As"), parse_card("Kd"), RED_JOKER]
    assert parse_cards([12, "Kd", np.int64(3)]) == [12, parse_card("Kd"), 3]
    assert format_cards(parse_cards("As Kd")) == "As Kd"


@pytest.mark.parametrize("bad", ["Xs", "Az", "A", "Asd", ""])
def test_parse_rejects_bad_text_with_a_clear_message(bad):
    with pytest.raises(ValueError, match="cannot read card"):
        parse_card(bad)


@pytest.mark.parametrize("bad", [-1, 69, 1.5, True])
def test_parse_cards_rejects_bad_ids(bad):
    with pytest.raises(ValueError):
        parse_cards([bad])


def test_card_not_in_deck():
    with pytest.raises(ValueError, match="not in the 34 deck"):
        DECKS["34"].parse("2c")


def test_chance_is_a_seeded_permutation():
    deck = DECKS["52"].cards
    a = Chance(np.random.default_rng(5)).shuffle(deck)
    b = Chance(np.random.default_rng(5)).shuffle(deck)
    assert a == b and sorted(a) == sorted(deck) and a != list(deck)


def test_scripted_chance_puts_cards_on_top_then_falls_back():
    chance = ScriptedChance(shuffles=[["As", "Kd"]], integers=[3], seed=1)
    first = chance.shuffle(DECKS["52"].cards)
    assert first[:2] == parse_cards("As Kd") and sorted(first) == sorted(DECKS["52"].cards)
    assert chance.integer(5) == 3
    second = chance.shuffle(DECKS["52"].cards)  # script used up: seeded random order
    assert sorted(second) == sorted(DECKS["52"].cards)
    assert 0 <= chance.integer(5) < 5


def test_scripted_chance_rejects_cards_not_being_shuffled():
    chance = ScriptedChance(shuffles=[["2c"]])
    with pytest.raises(ValueError, match="not among"):
        chance.shuffle(DECKS["34"].cards)
    with pytest.raises(ValueError, match="outside"):
        ScriptedChance(integers=[7]).integer(3)


@pytest.mark.parametrize("scripted", [False, True])
def test_chance_copy_draws_the_same_future_independently(scripted):
    deck = list(range(52))
    if scripted:
        chance = ScriptedChance(shuffles=[["As"], ["Kd"]], integers=[2, 1], seed=4)
    else:
        chance = Chance(np.random.default_rng(4))
    chance.shuffle(deck)  # the copy is taken mid-stream
    twin = chance.copy()
    first = [chance.shuffle(deck), chance.integer(5), chance.shuffle(deck), chance.integer(5)]
    assert [twin.shuffle(deck), twin.integer(5), twin.shuffle(deck), twin.integer(5)] == first
    assert type(twin) is type(chance)
