"""Perico's two rank systems (RULES.md §2): ``perico`` (five cards) and ``perico6`` (six cards).

Every category is written out by hand, natural and with jokers; the joker
tie-break is checked in both directions; ``jokers_in_five_of_a_kind`` both
ways. Hypothesis then compares both systems with a brute force that tries
every substitution of the jokers by a card and ranks the resulting concrete
hand straight from the rules text (fewer jokers first; books by size then
rank; natural kickers; straights by the top card; flushes and high cards by
natural cards with jokers below every natural).
"""

import itertools
from collections import Counter
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.envs.engine.cards import JOKERS, parse_cards
from pokerzoo.envs.engine.hands import evaluate, get_system
from pokerzoo.envs.engine.hands.value import pack
from pokerzoo.envs.perico.enumeration import category_counts
from pokerzoo.envs.perico.ranking import has_royal, ranker_for

ACE = 12
LOW = -1


def ev5(cards: str, **options):
    return evaluate(cards, system="perico", **options)


def ev6(cards: str, **options):
    return evaluate(cards, system="perico6", **options)


# ------------------------------------------------------------------ five cards, by hand
FIVE_CARD_CASES = [
    ("As Ks Qs Js Ts", "royal_flush"),
    ("As Ks RJ Js Ts", "royal_flush"),
    ("RJ Ks BJ Js Ts", "royal_flush"),
    ("7c 7d 7h 7s RJ", "five_of_a_kind"),
    ("7c 7d 7h RJ BJ", "five_of_a_kind"),
    ("9h 8h 7h 6h 5h", "straight_flush"),
    ("9h 8h RJ 6h 5h", "straight_flush"),
    ("5d 4d 3d 2d Ad", "straight_flush"),  # ace low
    ("RJ 4d 3d 2d Ad", "straight_flush"),
    ("7c 7d 7h 7s 3c", "four_of_a_kind"),
    ("7c 7d RJ 7s 3c", "four_of_a_kind"),
    ("7c RJ BJ 7s 3c", "four_of_a_kind"),
    ("8c 8d 8h 3s 3c", "full_house"),
    ("8c 8d RJ 3s 3c", "full_house"),
    ("Kh 9h 8h 5h 3h", "flush"),
    ("Kh 9h RJ 5h 3h", "flush"),
    ("9c 8d 7h 6s 5c", "straight"),
    ("Ah 2c 3d 4s 5h", "straight"),  # ace low
    ("Tc Jd Qh Ks Ac", "straight"),  # ace high
    ("9c 8d RJ 6s 5c", "straight"),
    ("9c BJ RJ 6s 5c", "straight"),
    ("Qc Qd Qh 5s 3c", "three_of_a_kind"),
    ("Qc Qd RJ 5s 3c", "three_of_a_kind"),
    ("Jc Jd 5h 5s 3c", "two_pair"),
    ("Tc Td 8h 6s 3c", "pair"),
    ("Tc RJ 8h 6s 3c", "pair"),
    ("Ac Kd Qh 5s 3c", "high_card"),
    ("Qc Kd Ah 2s 3c", "high_card"),  # no wrap-around straight
    ("Kc Ad 2h 3s 4c", "high_card"),  # the ace is never in the middle
]


@pytest.mark.parametrize("cards, category", FIVE_CARD_CASES)
def test_every_five_card_category(cards, category):
    assert ev5(cards).category == category


def test_five_card_order_is_the_rules_order():
    assert get_system("perico").categories[::-1] == (
        "royal_flush",
        "five_of_a_kind",
        "straight_flush",
        "four_of_a_kind",
        "full_house",
        "flush",
        "straight",
        "three_of_a_kind",
        "two_pair",
        "pair",
        "high_card",
    )
    order = get_system("perico").categories
    values = [ev5(c) for c, _ in FIVE_CARD_CASES]
    # a stronger category always has a larger key, whatever the jokers
    for a, b in itertools.combinations(values, 2):
        if order.index(a.category) != order.index(b.category):
            assert (a < b) == (order.index(a.category) < order.index(b.category)), (a, b)
    # royal flush beats five of a kind; five of a kind beats a straight flush
    assert ev5("As Ks Qs Js Ts") > ev5("Ac Ad Ah As RJ") > ev5("9h 8h 7h 6h 5h")


def test_jokers_choose_the_best_category_and_ranks():
    assert ev5("RJ 2c 3d 4s 5h").key == pack(4, [6, 4 + 1])  # a straight to the six, not the wheel
    assert ev5("RJ BJ 7c 7d 2s").key == pack(7, [5, 5 + 1, 0 + 1])  # sevens four times, deuce kicker
    assert ev5("RJ 4d 3d 2d Ad").key == pack(8, [6, 3 + 1])  # wheel straight flush (5 high)
    assert ev5("8c 8d RJ 3s 3c").key == pack(6, [6, 6 + 1, 1 + 1])  # eights full of threes


def test_straights_rank_by_top_card_ace_low_lowest():
    wheel, six_high, broadway = ev5("Ah 2c 3d 4s 5h"), ev5("2c 3d 4s 5h 6c"), ev5("Tc Jd Qh Ks Ac")
    assert wheel < six_high < broadway


# ------------------------------------------------------------------ the joker tie-break
def test_fewer_jokers_wins_within_a_category():
    # three aces with a joker lose to three natural deuces
    assert ev5("Ah Ad RJ 9s 4c") < ev5("2c 2d 2h 5s 7c")
    # a joker royal loses to a natural royal
    assert ev5("As Ks Qs Js RJ") < ev5("Ah Kh Qh Jh Th")
    # one joker beats two
    assert ev5("Ah Ad RJ BJ 4c") < ev5("2c 2d 2h 2s RJ")
    # a straight to the ace with a joker loses to a natural wheel
    assert ev5("Tc Jd Qh RJ Ac") < ev5("Ah 2c 3d 4s 5h")


def test_jokers_do_not_matter_across_categories_nor_between_equal_counts():
    # a higher category wins whatever its jokers
    assert ev5("RJ 2c 2d 5s 7h") > ev5("Ac Ad Kc Ks Qh")
    assert ev5("RJ BJ 2c 5s 7h") > ev5("Ac Ad Kc Ks Qh")
    # same category, same joker count: the ranks decide, in both directions
    assert ev5("Ah Ad RJ 9s 4c") > ev5("Kc Kd RJ 9d 5c")
    assert ev5("Ah Ad RJ 9s 4c") < ev5("Ac As RJ 9d 5c")  # kicker 5 beats 4


def test_jokers_count_below_every_natural_in_flushes_and_kickers():
    # the joker is not an ace in a flush: K-high with a joker beats Q-high with a joker
    assert ev5("As Ks 7s 4s RJ") > ev5("Ah Qh Jh 9h BJ")
    assert ev5("As 9s 7s 4s RJ") < ev5("Ah 9h 7h 5h BJ")
    # without five of a kind, AAAA+joker keeps the joker as a low kicker
    quads = ev5("As Ah Ad Ac RJ", jokers_in_five_of_a_kind=False)
    assert quads.category == "four_of_a_kind" and quads.key == pack(7, [6, ACE + 1, 0])


def test_jokers_in_five_of_a_kind_option():
    assert ev5("7c 7d 7h 7s RJ").category == "five_of_a_kind"
    assert ev5("7c 7d 7h 7s RJ", jokers_in_five_of_a_kind=False).category == "four_of_a_kind"
    assert ev5("7c 7d 7h RJ BJ", jokers_in_five_of_a_kind=False).category == "four_of_a_kind"
    # other categories are unchanged by the option
    assert ev5("As Ks RJ Js Ts", jokers_in_five_of_a_kind=False).category == "royal_flush"
    assert ev5("8c 8d RJ 3s 3c", jokers_in_five_of_a_kind=False).category == "full_house"


# ------------------------------------------------------------------ six cards, by hand
SIX_CARD_CASES = [
    ("9s Ts Js Qs Ks As", "royal_flush"),
    ("9s Ts RJ Qs BJ As", "royal_flush"),
    ("RJ BJ RJ2 BJ2 As Ts", "royal_flush"),
    ("7c 7d 7h 7s RJ BJ", "six_of_a_kind"),
    ("7c 7d RJ BJ RJ2 BJ2", "six_of_a_kind"),
    ("8h 7h 6h 5h 4h 3h", "straight_flush"),
    ("Ah 2h 3h 4h 5h 6h", "straight_flush"),  # ace low
    ("8h 7h RJ 5h 4h 3h", "straight_flush"),
    ("7c 7d 7h 7s RJ 2c", "five_of_a_kind"),
    ("7c 7d 7h RJ BJ 2c", "five_of_a_kind"),
    ("7c 7d 7h 7s 2c 2d", "new_house"),
    ("7c 7d 7h RJ 2c 2d", "new_house"),
    ("7c 7d 7h 2s 2c 2d", "crazy_house"),
    ("7c 7d 7h 2s 2c RJ", "new_house"),  # a joker never makes a crazy house: 4+2 is higher
    ("7c 7d 7h 7s 2c 3d", "four_of_a_kind"),
    ("7c 7d 7h RJ 2c 3d", "four_of_a_kind"),
    ("Kd Td 8d 6d 4d 2d", "flush"),
    ("Kd Td RJ 6d 4d 2d", "flush"),
    ("2c 3d 4h 5s 6c 7d", "straight"),
    ("Ac 2d 3h 4s 5c 6d", "straight"),  # ace low
    ("9c Td Jh Qs Kc Ad", "straight"),  # ace high
    ("9c Td RJ Qs Kc Ad", "straight"),
    ("7c 7d 7h 2s 2c 3d", "old_house"),
    ("7c 7d RJ 2s 2c 3d", "old_house"),
    ("7c 7d 2h 2s 3c 3d", "three_pair"),
    ("7c 7d 7h 2s 4c 3d", "three_of_a_kind"),
    ("7c RJ 9h 2s 4c 3d", "pair"),
    ("7c 7d 2h 2s 4c 3d", "two_pair"),
    ("7c 7d 9h 2s 4c 3d", "pair"),
    ("Ac Kd 9h 2s 4c 3d", "high_card"),
    ("Kc Ad 2h 3s 4c 5d", "high_card"),  # no wrap-around
    ("2c 3d 4h 5s 6c 8d", "high_card"),  # five in a row is not a six-card straight
]


@pytest.mark.parametrize("cards, category", SIX_CARD_CASES)
def test_every_six_card_category(cards, category):
    assert ev6(cards).category == category


def test_six_card_order_is_the_rules_order():
    assert get_system("perico6").categories[::-1] == (
        "royal_flush",
        "six_of_a_kind",
        "straight_flush",
        "five_of_a_kind",
        "new_house",
        "crazy_house",
        "four_of_a_kind",
        "flush",
        "straight",
        "old_house",
        "three_pair",
        "three_of_a_kind",
        "two_pair",
        "pair",
        "high_card",
    )
    order = get_system("perico6").categories
    values = [ev6(c) for c, _ in SIX_CARD_CASES]
    for a, b in itertools.combinations(values, 2):
        if order.index(a.category) != order.index(b.category):
            assert (a < b) == (order.index(a.category) < order.index(b.category)), (a, b)


def test_six_card_straights_and_tie_breaks():
    assert ev6("Ac 2d 3h 4s 5c 6d") < ev6("2c 3d 4h 5s 6c 7d") < ev6("9c Td Jh Qs Kc Ad")
    # books: larger book first, then the smaller, then natural kickers
    assert ev6("2c 2d 2h 2s Ac Ad") < ev6("3c 3d 3h 3s 2c 2d")  # new houses by the four
    assert ev6("Kc Kd Kh 2s 2c 2d") < ev6("Ac Ad Ah 2s 2c 2d")  # crazy houses by the higher three
    assert ev6("Ac Ad Ah 2s 2c 2d") < ev6("Ac Ad Ah 3s 3c 3d")  # then the lower three
    assert ev6("7c 7d 7h 2s 2c 3d") < ev6("7c 7d 7h 2s 2c 4d")  # old house: kicker
    assert ev6("Ac Ad 2h 2s 3c 3d") > ev6("Kc Kd Qh Qs Jc Jd")  # three pair by the top pair
    assert ev6("Ac Kd 9h 2s 4c 3d") > ev6("Ac Kd 8h 7s 6c 4d")  # high card by natural cards
    # jokers: the book they fill takes the best rank, kickers stay natural
    assert ev6("7c RJ 9h 2s 4c 3d").key == pack(1, [6, 7 + 1, 5 + 1, 2 + 1, 1 + 1, 0 + 1])


def test_six_card_joker_tie_break_both_ways():
    assert ev6("Ac Ad Ah RJ 2c 3d") < ev6("2c 2d 2h 2s 4c 3d")  # four of a kind: the natural one wins
    assert ev6("9s Ts RJ Qs Ks As") < ev6("9h Th Jh Qh Kh Ah")  # royal flushes
    assert ev6("RJ 2c 2d 5s 7h 9c").category == "three_of_a_kind"
    assert ev6("RJ 2c 2d 5s 7h 9c") > ev6("Ac Ad Kc Ks Qh Jd")  # a higher category wins despite its joker
    assert ev6("Ks 9s 7s 4s 3s RJ") > ev6("Qh Jh 9h 7h 5h BJ")  # flushes: the joker is low, K beats Q
    assert ev6("Ks 9s 7s 4s RJ BJ") < ev6("2h 3h 5h 7h 9h Jh")  # two jokers lose to none


def test_six_card_jokers_in_five_of_a_kind_option():
    assert ev6("7c 7d 7h 7s RJ 2c").category == "five_of_a_kind"
    # 7777 + a pair of deuces made with the joker
    assert ev6("7c 7d 7h 7s RJ 2c", jokers_in_five_of_a_kind=False).category == "new_house"
    assert ev6("7c 7d 7h 7s RJ BJ").category == "six_of_a_kind"
    # the jokers pair as aces
    assert ev6("7c 7d 7h 7s RJ BJ", jokers_in_five_of_a_kind=False).key == pack(10, [5, 5 + 1, ACE + 1])
    assert ev6("7c 7d RJ BJ RJ2 BJ2", jokers_in_five_of_a_kind=False).category == "new_house"
    queen_high = pack(12, [3, 10 + 1])
    assert ev6("7c 8c RJ BJ RJ2 BJ2", jokers_in_five_of_a_kind=False).key == queen_high


def test_bad_hands_are_rejected_with_a_clear_error():
    with pytest.raises(ValueError, match="exactly 6 cards, got 5"):
        ev6("As Ks Qs Js Ts")
    with pytest.raises(ValueError, match="duplicate card"):
        ev6("As As Qs Js Ts 9s")
    with pytest.raises(ValueError, match="exactly 5 cards, got 6"):
        ev5("As Ks Qs Js Ts 9s")


# ------------------------------------------------------------------ brute force over joker substitutions
CATS5 = get_system("perico").categories
CATS6 = get_system("perico6").categories


def _top(ranks: list[int], size: int) -> int:
    """Top rank of a concrete straight of ``size`` distinct ranks, or -1 (ace low tops at size-1)."""
    rs = set(ranks)
    if len(rs) != size:
        return -1
    if max(rs) - min(rs) == size - 1:
        return max(rs)
    if ACE in rs and rs - {ACE} == set(range(size - 1)):
        return size - 2
    return -1


def concrete_key(cards: list[tuple[int, int, bool]], six: bool, wild_big_books: bool) -> int | None:
    """Key of a concrete hand (rank, suit, was-a-joker) read from the rules text; None if not allowed."""
    size = 6 if six else 5
    jokers = sum(j for _, _, j in cards)
    ranks = [r for r, _, _ in cards]
    counts = Counter(ranks)
    for r, c in counts.items():
        if c >= 5 and not wild_big_books and any(j for rr, _, j in cards if rr == r):
            return None  # the literal reading: no joker in five (or six) of a kind
    flush = len({s for _, s, _ in cards}) == 1
    top = _top(ranks, size)
    books = sorted(((c, r) for r, c in counts.items() if c >= 2), reverse=True)
    shape = tuple(c for c, _ in books)
    singles_natural = sorted((r for r, s, j in cards if counts[r] == 1 and not j), reverse=True)
    singles = singles_natural + [LOW] * sum(1 for r, s, j in cards if counts[r] == 1 and j)
    naturals_low = sorted((r for r, _, j in cards if not j), reverse=True) + [LOW] * jokers
    book_tb = [r for _, r in books] + singles
    cats = CATS6 if six else CATS5
    if six:
        if flush and top == ACE:
            cat, tb = "royal_flush", []
        elif shape == (6,):
            cat, tb = "six_of_a_kind", book_tb
        elif flush and top >= 0:
            cat, tb = "straight_flush", [top]
        else:
            by_shape = {
                (5,): "five_of_a_kind",
                (4, 2): "new_house",
                (3, 3): "crazy_house",
                (4,): "four_of_a_kind",
            }
            low_shapes = {
                (3, 2): "old_house",
                (2, 2, 2): "three_pair",
                (3,): "three_of_a_kind",
                (2, 2): "two_pair",
                (2,): "pair",
                (): "high_card",
            }
            if shape in by_shape:
                cat, tb = by_shape[shape], book_tb
            elif flush:
                cat, tb = "flush", naturals_low
            elif top >= 0:
                cat, tb = "straight", [top]
            else:
                cat, tb = low_shapes[shape], (naturals_low if shape == () else book_tb)
    else:
        if flush and top == ACE:
            cat, tb = "royal_flush", [ACE]
        elif shape == (5,):
            cat, tb = "five_of_a_kind", book_tb
        elif flush and top >= 0:
            cat, tb = "straight_flush", [top]
        elif shape == (4,):
            cat, tb = "four_of_a_kind", book_tb
        elif shape == (3, 2):
            cat, tb = "full_house", book_tb
        elif flush:
            cat, tb = "flush", naturals_low
        elif top >= 0:
            cat, tb = "straight", [top]
        else:
            names = {(3,): "three_of_a_kind", (2, 2): "two_pair", (2,): "pair", (): "high_card"}
            cat, tb = names[shape], (naturals_low if shape == () else book_tb)
    return pack(cats.index(cat), [7 - jokers, *(r + 1 for r in tb)])


def brute_force_key(hand: list[int], six: bool, wild_big_books: bool = True) -> int:
    naturals = [(c % 13, c // 13, False) for c in hand if c < 65]
    j = len(hand) - len(naturals)
    suits = sorted({s for _, s, _ in naturals})
    if j >= 3:  # other suits are interchangeable: one unused suit stands for all of them
        spare = [s for s in range(4) if s not in suits][:1]
        suits = suits + spare
    else:
        suits = [0, 1, 2, 3]
    choices = [(r, s, True) for r in range(13) for s in suits]
    best = None
    for subs in itertools.combinations_with_replacement(choices, j):
        k = concrete_key(naturals + list(subs), six, wild_big_books)
        if k is not None and (best is None or k > best):
            best = k
    assert best is not None
    return best


def _hand_strategy(size: int, max_jokers: int):
    """A hand of ``size`` cards with 0..max_jokers jokers (jokers over-represented)."""

    @st.composite
    def hands(draw):
        j = draw(st.integers(0, max_jokers))
        naturals = draw(st.lists(st.integers(0, 51), min_size=size - j, max_size=size - j, unique=True))
        return naturals + list(JOKERS[:j])

    return hands()


@settings(max_examples=150, deadline=None)
@given(hand=_hand_strategy(5, 2), wild=st.booleans())
def test_five_card_system_matches_brute_force(hand, wild):
    system = get_system("perico", jokers_in_five_of_a_kind=wild)
    assert system.key(hand) == brute_force_key(hand, six=False, wild_big_books=wild)


@settings(max_examples=150, deadline=None)
@given(hand=_hand_strategy(6, 2), wild=st.booleans())
def test_six_card_system_matches_brute_force(hand, wild):
    system = get_system("perico6", jokers_in_five_of_a_kind=wild)
    assert system.key(hand) == brute_force_key(hand, six=True, wild_big_books=wild)


@settings(max_examples=5, deadline=None)
@given(hand=_hand_strategy(6, 3).filter(lambda h: sum(c >= 65 for c in h) == 3), wild=st.booleans())
def test_six_card_system_with_three_jokers_matches_brute_force(hand, wild):
    system = get_system("perico6", jokers_in_five_of_a_kind=wild)
    assert system.key(hand) == brute_force_key(hand, six=True, wild_big_books=wild)


@settings(max_examples=5, deadline=None)
@given(hand=_hand_strategy(5, 4).filter(lambda h: sum(c >= 65 for c in h) >= 3), wild=st.booleans())
def test_five_card_system_with_four_jokers_deck_matches_brute_force(hand, wild):
    system = get_system("perico", jokers_in_five_of_a_kind=wild)
    assert system.key(hand) == brute_force_key(hand, six=False, wild_big_books=wild)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(hand=_hand_strategy(6, 4), wild=st.booleans())
def test_six_card_system_matches_brute_force_many(hand, wild):
    system = get_system("perico6", jokers_in_five_of_a_kind=wild)
    assert system.key(hand) == brute_force_key(hand, six=True, wild_big_books=wild)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(hand=_hand_strategy(5, 4), wild=st.booleans())
def test_five_card_system_matches_brute_force_many(hand, wild):
    system = get_system("perico", jokers_in_five_of_a_kind=wild)
    assert system.key(hand) == brute_force_key(hand, six=False, wild_big_books=wild)


def test_brute_force_is_not_vacuous():
    # the reference must itself tell jokers apart and rank ace-low straights as the rules say
    assert brute_force_key(parse_cards("As Ah RJ 9s 4c"), six=False) < brute_force_key(
        parse_cards("2c 2d 2h 5s 7c"), six=False
    )
    assert brute_force_key(parse_cards("Ac 2d 3h 4s 5c 6d"), six=True) < brute_force_key(
        parse_cards("2c 3d 4h 5s 6c 7d"), six=True
    )
    banned = brute_force_key(parse_cards("7c 7d 7h 7s RJ 2c"), six=True, wild_big_books=False)
    assert banned >> 28 == CATS6.index("new_house")


# ------------------------------------------------------------ the game's memoised ranker and royal check
@settings(max_examples=200, deadline=None)
@given(hand=_hand_strategy(5, 4), six=st.just(False))
def test_memoised_ranker_equals_the_system_five(hand, six):
    assert ranker_for(False).key(hand) == get_system("perico").key(hand)


@settings(max_examples=200, deadline=None)
@given(hand=_hand_strategy(6, 4))
def test_memoised_ranker_and_royal_check_equal_the_system_six(hand):
    key = get_system("perico6").key(hand)
    assert ranker_for(True).key(hand) == key
    assert has_royal(hand, 6) == (get_system("perico6").category_of(key) == "royal_flush")


@settings(max_examples=200, deadline=None)
@given(hand=_hand_strategy(6, 2))
def test_royal_check_on_six_cards_of_the_five_card_game(hand):
    # while a five-card player holds six cards (drawn, not yet discarded), any five may make the royal
    any_royal = any(
        get_system("perico").category_of(get_system("perico").key(list(five))) == "royal_flush"
        for five in itertools.combinations(hand, 5)
    )
    assert has_royal(hand, 5) == any_royal


# ------------------------------------------------------------ category counts (docs/games/perico.md)
STANDARD_FIVE = {
    "royal_flush": 4,
    "straight_flush": 36,
    "four_of_a_kind": 624,
    "full_house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three_of_a_kind": 54912,
    "two_pair": 123552,
    "pair": 1098240,
    "high_card": 1302540,
    "five_of_a_kind": 0,
}


def test_counts_without_jokers_are_the_standard_table():
    assert category_counts(5, 0) == {c: STANDARD_FIVE[c] for c in CATS5}


@pytest.mark.parametrize("size, jokers", [(5, 2), (5, 4), (6, 2), (6, 4)])
def test_counts_cover_every_hand_once(size, jokers):
    counts = category_counts(size, jokers)
    assert sum(counts.values()) == comb(52 + jokers, size)
    assert all(v > 0 for v in counts.values())


def test_six_card_counts_without_jokers_by_hand():
    counts = category_counts(6, 0)
    assert counts["straight"] == 9 * (4**6 - 4)  # nine rank windows, not all one suit
    assert counts["flush"] == 4 * (comb(13, 6) - 9)
    assert counts["straight_flush"] == 4 * 8 and counts["royal_flush"] == 4
    assert counts["new_house"] == 13 * 12 * 6 and counts["crazy_house"] == comb(13, 2) * 16
    assert counts["four_of_a_kind"] == 13 * comb(12, 2) * 16


def test_counts_agree_with_sampled_frequencies():
    """A cross-check of the class weights: 60,000 random six-card hands of the 56-card deck."""
    counts = category_counts(6, 4)
    total = comb(56, 6)
    deck = np.array([*range(52), *JOKERS])
    rng = np.random.default_rng(7)
    hands = deck[np.argsort(rng.random((60_000, 56)), axis=1)[:, :6]].tolist()
    ranker = ranker_for(True)
    seen = Counter(ranker.category(ranker.key(h)) for h in hands)
    for cat, n in counts.items():
        p = n / total
        sd = np.sqrt(p * (1 - p) / 60_000)
        assert abs(seen[cat] / 60_000 - p) < 5 * sd + 1e-9, cat


@pytest.mark.slow
def test_five_card_counts_equal_full_enumeration_of_the_54_card_deck():
    ranker = ranker_for(False)
    deck = [*range(52), *JOKERS[:2]]
    seen = Counter(ranker.key(h) >> 28 for h in itertools.combinations(deck, 5))
    counts = category_counts(5, 2)
    assert {CATS5[k]: v for k, v in seen.items()} == {c: v for c, v in counts.items() if v}
