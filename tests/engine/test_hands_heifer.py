"""The ``heifer`` rank system (systems.HeiferSystem over the wild solver) against RULES.md §3 and brute force.

Brute force here means: every way of giving each wild card a rank (and, for
flushes, the suit of the other cards), every choice of five of the cards,
and a plain five-card classifier that knows nothing about wilds. The solver
must find exactly the best of those, tie-break ranks included.
"""

import itertools
from collections import Counter
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.envs.engine.cards import RANK_CHARS, parse_cards
from pokerzoo.envs.engine.hands import evaluate, get_system
from pokerzoo.envs.engine.hands.systems import HeiferSystem
from pokerzoo.envs.engine.hands.value import pack

CAT = {name: i for i, name in enumerate(HeiferSystem.categories)}
ACE = 12


def heifer(cards: str, wild: str | None = None, **options):
    return evaluate(cards, "heifer", wild_rank=None if wild is None else RANK_CHARS.index(wild), **options)


# ---------------------------------------------------------------- brute force


def _straight_top(ranks: tuple[int, ...]) -> int:
    if len(set(ranks)) != 5:
        return -1
    d = sorted(ranks, reverse=True)
    if d[0] - d[4] == 4:
        return d[0]
    return 3 if d == [ACE, 3, 2, 1, 0] else -1


@cache
def _ranks_key(ranks: tuple[int, ...], suited: bool, double_ace_flush: bool) -> int:
    """Best reading of 1..5 cards with these ranks (all of one suit when ``suited``)."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [c for _, c in groups]
    books = [r for r, _ in groups]
    desc = sorted(ranks, reverse=True)
    distinct = len(counts) == len(ranks)
    readings = []
    if len(ranks) == 5:
        top = _straight_top(ranks)
        if shape == [5]:
            readings.append(("five_of_a_kind", books))
        if suited and top >= 0:
            readings.append(("straight_flush", [top]))
        if suited and (distinct or double_ace_flush):
            readings.append(("flush", desc))
        if top >= 0:
            readings.append(("straight", [top]))
    if shape[0] == 4:
        readings.append(("four_of_a_kind", books))
    if shape[:2] == [3, 2]:
        readings.append(("full_house", books))
    elif shape[0] == 3:
        readings.append(("three_of_a_kind", books))
    if shape[:2] == [2, 2]:
        readings.append(("two_pair", books))
    elif shape[0] == 2:
        readings.append(("pair", books))
    if distinct:
        readings.append(("high_card", desc))
    return max(pack(CAT[c], [r + 1 for r in tb]) for c, tb in readings)


def brute_key(cards: list[int], wild_rank: int | None, double_ace_flush: bool = False) -> int:
    size = min(5, len(cards))
    best = -1
    for five in itertools.combinations(cards, size):
        naturals = [c for c in five if c % 13 != wild_rank]
        wilds = size - len(naturals)
        one_suit = size == 5 and len({c // 13 for c in naturals}) <= 1
        for wild_ranks in itertools.combinations_with_replacement(range(13), wilds):
            ranks = tuple(sorted([c % 13 for c in naturals] + list(wild_ranks)))
            # Wilds may take any suit: the same as the naturals' (a flush) or another.
            if not (one_suit and wilds == 0):
                best = max(best, _ranks_key(ranks, False, double_ace_flush))
            if one_suit:
                best = max(best, _ranks_key(ranks, True, double_ace_flush))
    return best


@st.composite
def heifer_hands(draw, min_size=1, max_size=7):
    """Hands of distinct cards, often holding several wilds and often mostly one suit."""
    n = draw(st.integers(min_size, max_size))
    wild = draw(st.one_of(st.none(), st.integers(0, 12)))
    k = 0 if wild is None else draw(st.integers(0, min(4, n)))
    wilds = [] if wild is None else draw(st.permutations([s * 13 + wild for s in range(4)]))[:k]
    others = [c for c in range(52) if c % 13 != wild]
    if draw(st.booleans()):
        suit = draw(st.integers(0, 3))
        others = [c for c in others if c // 13 == suit] + [c for c in others if c // 13 != suit][:3]
    rest = draw(st.lists(st.sampled_from(others), min_size=n - k, max_size=n - k, unique=True))
    return wilds + rest, wild


@settings(max_examples=300, deadline=None)
@given(hand=heifer_hands(), double_ace_flush=st.booleans())
def test_solver_matches_brute_force(hand, double_ace_flush):
    cards, wild = hand
    system = get_system("heifer", wild_rank=wild, double_ace_flush=double_ace_flush)
    assert system.key(cards) == brute_key(cards, wild, double_ace_flush)


@settings(max_examples=150, deadline=None)
@given(hand=heifer_hands(min_size=1, max_size=4))
def test_partial_hands_of_up_cards_match_brute_force(hand):
    cards, wild = hand
    key = get_system("heifer", wild_rank=wild).key(cards)
    assert key == brute_key(cards, wild)
    assert HeiferSystem.categories[key >> 28] in (
        "high_card",
        "pair",
        "two_pair",
        "three_of_a_kind",
        "four_of_a_kind",
    )


@settings(max_examples=200, deadline=None)
@given(cards=st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True))
def test_without_wilds_keys_equal_the_standard_ranking(cards):
    """No wild rank: the standard evaluator's keys, its royal flush read as the top straight flush."""
    std = evaluate(cards)
    key = get_system("heifer").key(cards)
    if std.category == "royal_flush":
        assert key == pack(CAT["straight_flush"], [ACE + 1])
    else:
        assert key == std.key


# ---------------------------------------------------------------- RULES.md §3 by hand


def test_category_order_five_of_a_kind_on_top():
    order = [
        heifer("Ah Kd 9c 7s 2h"),
        heifer("Ah Ad 9c 7s 2h"),
        heifer("Ah Ad 9c 9s 2h"),
        heifer("Ah Ad Ac 9s 2h"),
        heifer("9h Td Jc Qs Kh"),
        heifer("Ah Th 8h 4h 2h"),
        heifer("Ah Ad Ac 9s 9h"),
        heifer("Ah Ad Ac As 9h"),
        heifer("As Ks Qs Js Ts"),
        heifer("Ah Ad Ac As 7h", wild="7"),
    ]
    assert [v.category for v in order] == list(HeiferSystem.categories)
    assert order == sorted(order)


def test_a_wild_makes_five_of_a_kind_which_beats_a_royal_flush():
    five = heifer("7s Ah Ad Ac As", wild="7")
    assert five.category == "five_of_a_kind"
    assert five > heifer("As Ks Qs Js Ts", wild="7")
    assert heifer("Ks Kd Kc Kh 7d", wild="7") > heifer("7s 7h Ad Ac 2s", wild="7")  # five kings > four aces
    assert heifer("7s 7h Kd Kc Ks", wild="7").category == "five_of_a_kind"


def test_every_card_of_the_wild_rank_is_wild_up_or_down():
    # Four wilds and three naturals: five nines (a wild joins the highest book it can reach).
    v = heifer("7s 7h 7d 7c 2d 3h 9s", wild="7")
    assert v.category == "five_of_a_kind" and v.key == pack(CAT["five_of_a_kind"], [8])


def test_a_wild_in_a_flush_takes_a_missing_rank_unless_double_ace_flush():
    plain = heifer("As Ks 9s 5s 7h", wild="7")
    assert plain.category == "flush" and plain.key == pack(CAT["flush"], [13, 12, 11, 8, 4])  # A K Q 9 5
    double = heifer("As Ks 9s 5s 7h", wild="7", double_ace_flush=True)
    assert double.category == "flush" and double.key == pack(CAT["flush"], [13, 13, 12, 8, 4])  # A A K 9 5
    assert double.key > plain.key


def test_wild_straights_and_straight_flushes_never_wrap():
    assert heifer("9c Tc Jd 7h Kd", wild="7").key == pack(CAT["straight"], [12])  # 9..K
    assert heifer("Ah 2c 3d 4s 7h", wild="7").key == pack(CAT["straight"], [4])  # wheel, five high
    assert heifer("Qh Kd Ac 2s 3c").category == "high_card"
    assert heifer("Qh Kd Ac 2s 7c", wild="7").category == "pair"  # no Q-K-A-2-x straight
    assert heifer("5d 6d 8d 9d 7s", wild="7").key == pack(CAT["straight_flush"], [8])  # 5..9 of diamonds


def test_two_wilds_read_as_the_best_book_and_kickers():
    v = heifer("7s 7h Kd Kc 2d", wild="7")
    assert v.key == pack(CAT["four_of_a_kind"], [12, 1])  # four kings, deuce kicker
    assert heifer("7s 7h Kd Qc Jd Th 2c", wild="7").key == pack(CAT["straight"], [13])  # ace-high straight


def test_partial_hands_rank_books_and_kickers_only():
    assert heifer("Kd 7s", wild="7").key == pack(CAT["pair"], [12])  # pair of kings with a wild
    assert heifer("Kd 7s", wild="7") > heifer("Qs Qh", wild="7")
    assert heifer("7s", wild="7").key == pack(CAT["high_card"], [13])  # a lone wild shows as an ace
    assert heifer("7s 7h", wild="7").key == pack(CAT["pair"], [13])
    assert heifer("Kd Kc 7h 2s", wild="7").key == pack(CAT["three_of_a_kind"], [12, 1])
    assert heifer("9s Ts Js Qs").category == "high_card"  # no straights or flushes on four cards
    assert heifer("Ah Kd") > heifer("Ac Qd") and heifer("Ah Kd") == heifer("Ac Kh")


def test_bad_hands_are_rejected():
    system = get_system("heifer", wild_rank=5)
    with pytest.raises(ValueError, match="1 to 7"):
        system.key(parse_cards("As Ks Qs Js Ts 9s 8s 7s"))
    with pytest.raises(ValueError, match="duplicate"):
        system.key(parse_cards("As As"))
    with pytest.raises(ValueError, match="natural cards"):
        system.key(parse_cards("As RJ"))
    with pytest.raises(ValueError, match="wild_rank"):
        get_system("heifer", wild_rank=13)
