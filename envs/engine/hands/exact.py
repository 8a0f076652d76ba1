"""The ``mexican`` rank system: exact-size poker combinations over the five-suit 65-card deck.

Mexican poker (RULES.md §1) does not ask for the best five of a hand: a
player lays down one combination and every card of it must belong to the
shape, nothing extra. So this system does not *search* a hand, it
*classifies* a card set: a set of 1..5 distinct cards is exactly one category
or it is no legal play at all (a pair plus a stray card, three unrelated
cards, six cards).

Categories, weakest to strongest, with their exact sizes::

    high_card 1 < pair 2 < two_pair 4 < three_of_a_kind 3 < straight 5 < flush 5
    < full_house 5 < four_of_a_kind 4 < straight_flush 5 < five_of_a_kind 5 < royal_flush 5

Five suits make five of a kind possible (one card of a rank in every suit);
it ranks between the straight flush and the royal flush. A set that fits
several shapes takes the highest (a straight flush is also a flush and a
straight). A-2-3-4-5 (the wheel) is the lowest straight; straights never wrap.
Ties inside a category compare as in poker: books first, then ranks high to
low, straights by their top card; suits never break ties (the game breaks
them by play order).

Illegal sets: ``key`` raises ``ValueError`` saying why (the game's masks never
offer such a set, so reaching it is a caller's bug, not a weak hand);
``classify`` is the non-raising fast path returning ``ILLEGAL`` (-1) and
``keys_batch`` returns ``ILLEGAL`` in the rows of illegal sets so that whole
deck enumerations can be counted in numpy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pokerzoo.envs.engine.cards import MEXICAN_SUIT_CHARS, format_cards
from pokerzoo.envs.engine.hands.standard import WITH_FIVE_OF_A_KIND_AND_ROYAL
from pokerzoo.envs.engine.hands.systems import RankSystem
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS, pack

CATEGORIES = WITH_FIVE_OF_A_KIND_AND_ROYAL
(
    HIGH_CARD,
    PAIR,
    TWO_PAIR,
    TRIPS,
    STRAIGHT,
    FLUSH,
    FULL_HOUSE,
    QUADS,
    STRAIGHT_FLUSH,
    FIVE_OF_A_KIND,
    ROYAL_FLUSH,
) = range(len(CATEGORIES))
# Exact number of cards in each category, by category index.
SIZES = (1, 2, 4, 3, 5, 5, 5, 4, 5, 5, 5)
ILLEGAL = -1
NUM_CARDS = 65  # ids 0..64: suit * 13 + rank over five suits
ACE = 12
WHEEL = (12, 3, 2, 1, 0)

# How many card sets of the 65-card deck fall in each category (and how many
# sets of each size are no combination at all). Closed forms, 13 ranks x 5 suits:
# pair 13*C(5,2); trips 13*C(5,3); quads 13*C(5,4); five of a kind 13;
# two pair C(13,2)*C(5,2)^2; full house 13*12*C(5,3)*C(5,2); straight 10 windows * 5^5
# minus the 50 straight flushes; straight flush 9 windows * 5 suits (royal apart);
# flush 5*C(13,5) minus the 50 straight flushes. tests/engine/test_hands_exact.py
# recounts them by enumerating every set with keys_batch.
ENUMERATION_COUNTS = {
    "high_card": 65,
    "pair": 130,
    "two_pair": 7_800,
    "three_of_a_kind": 130,
    "straight": 31_200,
    "flush": 6_385,
    "full_house": 15_600,
    "four_of_a_kind": 65,
    "straight_flush": 45,
    "five_of_a_kind": 13,
    "royal_flush": 5,
}
ILLEGAL_COUNTS = {1: 0, 2: 1_950, 3: 43_550, 4: 669_175, 5: 8_206_640}


def classify(cards: Sequence[int]) -> int:
    """Key of a set of distinct valid card ids, or ``ILLEGAL`` when it is no exact combination.

    The hot path: no validation of ids or duplicates (``key`` does that).
    """
    n = len(cards)
    if n == 1:
        return pack(HIGH_CARD, (cards[0] % 13 + 1,))
    rs = sorted((c % 13 for c in cards), reverse=True)
    if n == 2:
        return pack(PAIR, (rs[0] + 1,)) if rs[0] == rs[1] else ILLEGAL
    if n == 3:
        return pack(TRIPS, (rs[0] + 1,)) if rs[0] == rs[2] else ILLEGAL
    if n == 4:
        if rs[0] == rs[3]:
            return pack(QUADS, (rs[0] + 1,))
        if rs[0] == rs[1] and rs[2] == rs[3]:
            return pack(TWO_PAIR, (rs[0] + 1, rs[2] + 1))
        return ILLEGAL
    if n != 5:
        return ILLEGAL
    a, b, c, d, e = rs
    if a == e:
        return pack(FIVE_OF_A_KIND, (a + 1,))
    if a == c and d == e:
        return pack(FULL_HOUSE, (a + 1, d + 1))
    if a == b and c == e:
        return pack(FULL_HOUSE, (c + 1, a + 1))
    distinct = a > b > c > d > e
    if not distinct:
        return ILLEGAL
    s = cards[0] // 13
    flush = cards[1] // 13 == s and cards[2] // 13 == s and cards[3] // 13 == s and cards[4] // 13 == s
    if a - e == 4:
        top = a
    elif (a, b, c, d, e) == WHEEL:
        top = 3
    else:
        top = -1
    if flush:
        if top == ACE:
            return pack(ROYAL_FLUSH, (ACE + 1,))
        if top >= 0:
            return pack(STRAIGHT_FLUSH, (top + 1,))
        return pack(FLUSH, (a + 1, b + 1, c + 1, d + 1, e + 1))
    if top >= 0:
        return pack(STRAIGHT, (top + 1,))
    return ILLEGAL


def _why_illegal(cards: Sequence[int]) -> str:
    n = len(cards)
    text = format_cards(cards, MEXICAN_SUIT_CHARS)
    if n == 0:
        return "mexican: an empty set is no combination; a play has 1 to 5 cards"
    if n > 5:
        return f"mexican: {text} has {n} cards; a combination has 1 to 5 cards"
    shapes = {
        2: "a pair",
        3: "three of a kind",
        4: "four of a kind or two pair",
        5: "five of a kind, a full house, a straight, a flush or a straight flush",
    }
    return (
        f"mexican: {text} is no exact combination; {n} cards must make {shapes[n]} "
        "with every card in the shape (no kickers)"
    )


class MexicanSystem(RankSystem):
    """Exact-size combinations over five suits; ``key`` raises ValueError on a set that is no combination."""

    name = "mexican"
    categories = CATEGORIES
    suit_chars = MEXICAN_SUIT_CHARS

    def key(self, cards: Sequence[int]) -> int:
        cards = list(cards)
        for c in cards:
            if isinstance(c, bool) or not isinstance(c, int | np.integer) or not 0 <= c < NUM_CARDS:
                raise ValueError(f"mexican ranking takes card ids 0..64 of the five-suit deck, got {c!r}")
        if len(set(cards)) != len(cards):
            raise ValueError(f"mexican: duplicate card in {format_cards(cards, MEXICAN_SUIT_CHARS)}")
        key = classify([int(c) for c in cards]) if 1 <= len(cards) <= 5 else ILLEGAL
        if key == ILLEGAL:
            raise ValueError(_why_illegal(cards))
        return key

    def is_legal(self, cards: Sequence[int]) -> bool:
        """True when the distinct valid ids ``cards`` form exactly one combination."""
        return 1 <= len(cards) <= 5 and classify(cards) != ILLEGAL

    def keys_batch(self, cards: np.ndarray) -> np.ndarray:
        """Keys of an (N, k) array of sets, ``ILLEGAL`` (-1) where a row is no combination (k in 1..5)."""
        cards = np.asarray(cards)
        if cards.ndim != 2:
            raise ValueError(f"batch evaluation takes an (N, k) array of card ids, got shape {cards.shape}")
        n, k = cards.shape
        if not 1 <= k <= 5:
            raise ValueError(f"mexican combinations have 1 to 5 cards, got rows of {k}")
        if n and (cards.min() < 0 or cards.max() >= NUM_CARDS):
            raise ValueError("mexican ranking takes card ids 0..64 of the five-suit deck")
        ids = np.sort(cards.astype(np.int16), axis=1)
        if k > 1 and np.any(ids[:, 1:] == ids[:, :-1]):
            raise ValueError("mexican: a row of the batch holds a duplicate card")
        return _batch_keys(ids)


def _pack_cols(category: int, *ranks: np.ndarray) -> np.ndarray:
    """Vectorised ``pack``: ranks are 0-based columns, stored +1 like the scalar path."""
    key = np.zeros(len(ranks[0]) if ranks else 0, dtype=np.int64)
    for r in ranks:
        key = (key << 4) | (r.astype(np.int64) + 1)
    key <<= 4 * (7 - len(ranks))
    return key | (category << TIEBREAK_BITS)


def _batch_keys(ids: np.ndarray) -> np.ndarray:
    n, k = ids.shape
    out = np.full(n, ILLEGAL, dtype=np.int64)
    ranks = np.sort((ids % 13).astype(np.int8), axis=1)
    col = [ranks[:, k - 1 - i] for i in range(k)]  # high to low
    if k == 1:
        return _pack_cols(HIGH_CARD, col[0])
    if k == 2:
        m = col[0] == col[1]
        out[m] = _pack_cols(PAIR, col[0][m])
        return out
    if k == 3:
        m = col[0] == col[2]
        out[m] = _pack_cols(TRIPS, col[0][m])
        return out
    if k == 4:
        quads = col[0] == col[3]
        two = (col[0] == col[1]) & (col[2] == col[3]) & ~quads
        out[quads] = _pack_cols(QUADS, col[0][quads])
        out[two] = _pack_cols(TWO_PAIR, col[0][two], col[2][two])
        return out
    a, b, c, d, e = col
    five = a == e
    fh_hi = (a == c) & (d == e) & ~five
    fh_lo = (a == b) & (c == e) & ~five
    distinct = (a > b) & (b > c) & (c > d) & (d > e)
    # ids are sorted, so a row is one suit exactly when its first and last cards share the suit
    flush = distinct & (ids[:, 0] // 13 == ids[:, 4] // 13)
    run = distinct & (a - e == 4)
    wheel = distinct & (a == 12) & (b == 3)
    straight = run | wheel
    royal = flush & run & (a == ACE)
    sflush = flush & straight & ~royal
    plain_flush = flush & ~straight
    plain_straight = straight & ~flush
    top = np.where(wheel, 3, a)
    out[five] = _pack_cols(FIVE_OF_A_KIND, a[five])
    out[fh_hi] = _pack_cols(FULL_HOUSE, a[fh_hi], d[fh_hi])
    out[fh_lo] = _pack_cols(FULL_HOUSE, c[fh_lo], a[fh_lo])
    out[royal] = pack(ROYAL_FLUSH, (ACE + 1,))
    out[sflush] = _pack_cols(STRAIGHT_FLUSH, top[sflush])
    m = plain_flush
    out[m] = _pack_cols(FLUSH, a[m], b[m], c[m], d[m], e[m])
    out[plain_straight] = _pack_cols(STRAIGHT, top[plain_straight])
    return out


def category_size(category: str) -> int:
    """Exact card count of a category (``"pair"`` -> 2)."""
    return SIZES[CATEGORIES.index(category)]


def make_system(**options) -> MexicanSystem:
    """Factory used by ``get_system("mexican")``; the system has no options."""
    if options:
        raise ValueError(f"the mexican rank system takes no options, got {', '.join(options)}")
    return MexicanSystem()
