"""The ``mexican`` rank system: exact-size combinations over five suits (RULES.md §1)."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.envs.engine.cards import MEXICAN_SUIT_CHARS, parse_cards
from pokerzoo.envs.engine.hands import evaluate, evaluate_batch, get_system
from pokerzoo.envs.engine.hands.exact import (
    CATEGORIES,
    ENUMERATION_COUNTS,
    ILLEGAL,
    ILLEGAL_COUNTS,
    SIZES,
    MexicanSystem,
    category_size,
    classify,
)

SYSTEM = get_system("mexican")


def ev(text: str):
    return evaluate(text, system="mexican")


def key(text: str) -> int:
    return SYSTEM.key(parse_cards(text, MEXICAN_SUIT_CHARS))


def test_system_identity():
    assert isinstance(SYSTEM, MexicanSystem)
    assert SYSTEM.name == "mexican"
    assert SYSTEM.suit_chars == MEXICAN_SUIT_CHARS
    assert SYSTEM.categories == CATEGORIES
    assert CATEGORIES[0] == "high_card" and CATEGORIES[-1] == "royal_flush"
    with pytest.raises(ValueError, match="no options"):
        get_system("mexican", wild_rank=3)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Aq", "high_card"),
        ("7m 7q", "pair"),
        ("7m 7q 2b 2t", "two_pair"),
        ("7m 7q 7b", "three_of_a_kind"),
        ("9m Tl Jb Qt Kq", "straight"),
        ("Am 2l 3b 4t 5q", "straight"),
        ("2b 7b 9b Jb Kb", "flush"),
        ("7m 7q 7b 2t 2q", "full_house"),
        ("7m 7q 7b 7t", "four_of_a_kind"),
        ("5t 6t 7t 8t 9t", "straight_flush"),
        ("Aq 2q 3q 4q 5q", "straight_flush"),
        ("7m 7l 7b 7t 7q", "five_of_a_kind"),
        ("Tq Jq Qq Kq Aq", "royal_flush"),
    ],
)
def test_every_category_with_its_exact_size(text, category):
    value = ev(text)
    assert value.category == category
    assert len(text.split()) == category_size(category) == SIZES[CATEGORIES.index(category)]


def test_category_order_high_to_low_as_in_rules():
    # RULES.md: royal > five of a kind > straight flush > four > full house > flush > straight
    # > three > two pair > pair > high card.
    ladder = [
        "2m",
        "2m 2l",
        "3m 3l 2b 2t",
        "2m 2l 2b",
        "Am 2l 3b 4t 5q",
        "2b 3b 4b 5b 7b",
        "2m 2l 2b 3t 3q",
        "2m 2l 2b 2t",
        "Am 2m 3m 4m 5m",
        "2m 2l 2b 2t 2q",
        "Tb Jb Qb Kb Ab",
    ]
    keys = [key(t) for t in ladder]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    # The weakest of each category beats the strongest of the one below.
    assert key("2m 2l 2b 2t 2q") > key("9q Tq Jq Qq Kq")  # five of a kind over the best straight flush
    assert key("Tb Jb Qb Kb Ab") > key("Am Al Ab At Aq")  # royal over the best five of a kind
    assert key("2m 2l 2b 2t") > key("Am Al Ab Kt Kq")  # four of a kind over the best full house
    assert key("2m 2l") > key("Aq")
    assert key("2m 2l 2b") > key("Am Al Kb Kt")  # three of a kind over two pair (as the rules order them)


def test_royal_flushes_tie_across_suits_and_suits_never_break_ties():
    assert key("Tm Jm Qm Km Am") == key("Tq Jq Qq Kq Aq")
    assert key("9m 9l") == key("9b 9q")
    assert key("Km") == key("Kq")


def test_wheel_is_the_lowest_straight_and_straights_do_not_wrap():
    wheel = key("Am 2l 3b 4t 5q")
    assert wheel < key("2m 3l 4b 5t 6q") < key("Tm Jl Qb Kt Aq")
    assert key("Aq 2q 3q 4q 5q") < key("2q 3q 4q 5q 6q")  # the steel wheel is the lowest straight flush
    for text in ("Qm Kl Ab 2t 3q", "Km Al 2b 3t 4q", "Jm Ql Kb At 2q"):
        with pytest.raises(ValueError, match="no exact combination"):
            key(text)


def test_ties_inside_categories_compare_books_then_ranks():
    assert key("Km Kl Kb 2t 2q") > key("Qm Ql Qb At Aq")  # full house: the three first
    assert key("Km Kl Kb 3t 3q") > key("Km Kl Kb 2t 2q")  # ... then the pair
    assert key("Am Al 2b 2t") > key("Km Kl Qb Qt")  # two pair: the higher pair first
    assert key("Am Al 3b 3t") > key("Am Al 2b 2t")
    assert key("Ab Qb 9b 7b 2b") > key("Ab Jb Tb 9b 7b")  # flush: ranks high to low
    assert key("Ab Qb 9b 7b 3b") > key("Ab Qb 9b 7b 2b")
    assert key("8m 8l 8b 8t 8q") > key("7m 7l 7b 7t 7q")


@pytest.mark.parametrize(
    "text",
    [
        "7m 7l 9b",  # a pair plus a stray card
        "7m 9b",
        "7m 7l 7b 9t",  # three plus a kicker
        "7m 7l 2b 2t 9q",  # two pair plus a kicker
        "7m 7l 7b 7t 9q",  # four plus a kicker
        "2m 3l 4b 5t 7q",  # no straight, no flush
        "7m 7l 7b 2t 3q",  # three plus two strays
        "2m 2l 3b 3t 4q 4m",  # six cards
    ],
)
def test_sets_that_are_no_exact_combination_raise(text):
    cards = parse_cards(text, MEXICAN_SUIT_CHARS)
    with pytest.raises(ValueError, match=r"no exact combination|1 to 5 cards"):
        SYSTEM.key(cards)
    assert classify(cards) == ILLEGAL
    assert not SYSTEM.is_legal(cards)


def test_bad_input_is_rejected_with_a_reason():
    with pytest.raises(ValueError, match="empty"):
        SYSTEM.key([])
    with pytest.raises(ValueError, match="duplicate"):
        SYSTEM.key([5, 5])
    with pytest.raises(ValueError, match=r"ids 0\.\.64"):
        SYSTEM.key([65])  # a joker id
    with pytest.raises(ValueError, match=r"ids 0\.\.64"):
        SYSTEM.key([-1])
    with pytest.raises(ValueError, match=r"ids 0\.\.64"):
        SYSTEM.key(["7m"])  # type: ignore[list-item]


def _all_sets(k: int) -> np.ndarray:
    """Every k-subset of the 65 cards as rows, built in numpy (C(65, 5) = 8,259,888 rows)."""
    combos = np.arange(65, dtype=np.int8)[:, None]
    for _ in range(k - 1):
        last = combos[:, -1].astype(np.int64)
        counts = 64 - last
        rep = np.repeat(combos, counts, axis=0)
        starts = np.repeat(last + 1, counts)
        offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        combos = np.column_stack([rep, (starts + offsets).astype(np.int8)])
    return combos


def test_enumeration_counts_of_every_category():
    """Every 1..5-card set of the deck, classified in bulk, matches the documented closed forms."""
    found = dict.fromkeys(CATEGORIES, 0)
    for k in range(1, 6):
        sets = _all_sets(k)
        assert len(sets) == comb(65, k)
        assert np.all(sets[:, 1:] > sets[:, :-1])  # strictly increasing rows: distinct sets
        keys = SYSTEM.keys_batch(sets)
        assert int((keys == ILLEGAL).sum()) == ILLEGAL_COUNTS[k], k
        legal = keys[keys != ILLEGAL]
        for index, count in enumerate(np.bincount(legal >> 28, minlength=len(CATEGORIES))):
            if count:
                assert SIZES[index] == k, (CATEGORIES[index], k)
            found[CATEGORIES[index]] += int(count)
    assert found == ENUMERATION_COUNTS
    # The closed forms behind the table.
    assert ENUMERATION_COUNTS["two_pair"] == comb(13, 2) * comb(5, 2) ** 2
    assert ENUMERATION_COUNTS["full_house"] == 13 * 12 * comb(5, 3) * comb(5, 2)
    assert ENUMERATION_COUNTS["straight"] == 10 * 5**5 - 50
    assert ENUMERATION_COUNTS["flush"] == 5 * comb(13, 5) - 50
    assert ENUMERATION_COUNTS["straight_flush"] + ENUMERATION_COUNTS["royal_flush"] == 10 * 5
    total = sum(ENUMERATION_COUNTS.values()) + sum(ILLEGAL_COUNTS.values())
    assert total == sum(comb(65, k) for k in range(1, 6))


def test_docs_print_the_same_enumeration_table():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "games" / "mexican_poker.md").read_text()
    for category, count in ENUMERATION_COUNTS.items():
        assert f"| {category.replace('_', ' ')} | {SIZES[CATEGORIES.index(category)]} | {count:,} |" in doc


card_sets = st.integers(1, 5).flatmap(
    lambda k: st.lists(st.integers(0, 64), min_size=k, max_size=k, unique=True)
)


@settings(max_examples=300, deadline=None)
@given(cards=card_sets)
def test_batch_scalar_and_evaluate_agree(cards):
    k = classify(cards)
    assert evaluate_batch(np.array([cards]), system="mexican")[0] == k
    assert classify(list(reversed(cards))) == k
    if k == ILLEGAL:
        with pytest.raises(ValueError):
            SYSTEM.key(cards)
    else:
        value = SYSTEM.evaluate(cards)
        assert value.key == k and len(cards) == category_size(value.category)


def _legal_fives_of_four_suits() -> list[tuple[int, ...]]:
    """Every straight, flush and full house (straight and royal flushes included) on the first four suits."""
    out: set[tuple[int, ...]] = set()
    windows = [tuple(range(top - 4, top + 1)) for top in range(4, 13)] + [(12, 0, 1, 2, 3)]
    for window in windows:
        for suits in itertools.product(range(4), repeat=5):
            out.add(tuple(sorted(s * 13 + r for s, r in zip(suits, window))))
    for suit in range(4):
        for ranks in itertools.combinations(range(13), 5):
            out.add(tuple(suit * 13 + r for r in ranks))
    for three, two in itertools.permutations(range(13), 2):
        for s3 in itertools.combinations(range(4), 3):
            for s2 in itertools.combinations(range(4), 2):
                out.add(tuple(sorted([s * 13 + three for s in s3] + [s * 13 + two for s in s2])))
    return sorted(out)


legal_five_of_four_suits = st.sampled_from(_legal_fives_of_four_suits())


@settings(max_examples=150, deadline=None)
@given(a=legal_five_of_four_suits, b=legal_five_of_four_suits)
def test_five_card_order_agrees_with_standard_poker_on_four_suits(a, b):
    """On four suits the five-card categories are poker's own hands, so both systems order them alike."""
    std = get_system("standard")
    mex = np.sign(SYSTEM.key(a) - SYSTEM.key(b))
    assert mex == np.sign(std.key(a) - std.key(b))


def test_batch_rejects_bad_input():
    with pytest.raises(ValueError, match="1 to 5"):
        SYSTEM.keys_batch(np.zeros((2, 6), dtype=int))
    with pytest.raises(ValueError, match="duplicate"):
        SYSTEM.keys_batch(np.array([[3, 3]]))
    with pytest.raises(ValueError, match=r"ids 0\.\.64"):
        SYSTEM.keys_batch(np.array([[70]]))
