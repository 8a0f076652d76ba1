"""Six-card Perico's ranking (``perico6``): fifteen categories over exactly six cards, jokers wild.

All six cards count, so a hand is one of a fixed set of shapes rather than
"the best five of six": books (6, 5+1, 4+2, 3+3, 4+1+1, 3+2+1, 2+2+2,
3+1+1+1, 2+2+1+1, 2+1+1+1+1, six singles) or six cards making a straight
and/or a flush. RULES.md §2 orders them

    royal flush (9-T-J-Q-K-A suited) > six of a kind > straight flush >
    five of a kind > new house (4+2) > crazy house (3+3) > four of a kind >
    flush > straight > old house (3+2+1) > three pair > three of a kind >
    two pair > one pair > high card.

Jokers stand for any card. Within a category the hand with fewer jokers
wins; then book hands compare by their books (larger book first, equal books
high to low) and then their natural kickers high to low, straights by their
top card (A-2-3-4-5-6 lowest, 9-T-J-Q-K-A highest, no wrap), flushes and high
cards by their natural cards high to low with jokers below every natural.
``jokers_in_five_of_a_kind=False`` forbids jokers in five and six of a kind.

Why a closed-form solver and a memo: a key depends only on the natural ranks
(as a multiset), the joker count and whether all naturals share a suit, so
each such class is solved once (category by category, from the top) and
cached; a call is then a few table lookups. The tests compare the solver with
brute force over every joker substitution.
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerzoo.envs.engine.cards import NUM_CARD_IDS, RANK_OF, SUIT_OF
from pokerzoo.envs.engine.hands.systems import RankSystem
from pokerzoo.envs.engine.hands.value import pack

HAND_SIZE = 6
ACE = 12
LOW = -1  # a joker counted as a kicker or flush card: below every natural

CATEGORIES = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "three_pair",
    "old_house",
    "straight",
    "flush",
    "four_of_a_kind",
    "crazy_house",
    "new_house",
    "five_of_a_kind",
    "straight_flush",
    "six_of_a_kind",
    "royal_flush",
)
CATEGORY_INDEX = {name: i for i, name in enumerate(CATEGORIES)}

# Book categories: (sizes of the books, largest first; number of single cards).
BOOK_SHAPES: dict[str, tuple[tuple[int, ...], int]] = {
    "six_of_a_kind": ((6,), 0),
    "five_of_a_kind": ((5,), 1),
    "new_house": ((4, 2), 0),
    "crazy_house": ((3, 3), 0),
    "four_of_a_kind": ((4,), 2),
    "old_house": ((3, 2), 1),
    "three_pair": ((2, 2, 2), 0),
    "three_of_a_kind": ((3,), 3),
    "two_pair": ((2, 2), 2),
    "pair": ((2,), 4),
    "high_card": ((), 6),
}


def straight_windows() -> list[tuple[int, frozenset[int]]]:
    """(top rank, ranks) of every six-card straight, highest first; the ace-low one tops at the six."""
    windows = [(top, frozenset(range(top - 5, top + 1))) for top in range(ACE, 4, -1)]
    windows.append((4, frozenset({ACE, 0, 1, 2, 3, 4})))
    return windows


WINDOWS = straight_windows()


def _best_books(
    counts: Sequence[int], jokers: int, sizes: tuple[int, ...], singles: int, wild_big_books: bool
) -> list[int] | None:
    """Best tie-break for a book shape, or None when the cards cannot form it.

    Book ranks are chosen largest book first, equal books in descending rank;
    every natural must fit a book of its rank or be a single (singles have
    distinct ranks); jokers fill the books, leftover jokers are low singles.
    """
    best: list[int] | None = None

    def rec(i: int, chosen: list[int], need: int) -> None:
        nonlocal best
        if need > jokers:
            return
        if i == len(sizes):
            rest = [r for r in range(ACE, -1, -1) if counts[r] and r not in chosen]
            if any(counts[r] > 1 for r in rest) or len(rest) > singles:
                return
            tiebreak = [*chosen, *rest, *([LOW] * (jokers - need))]
            if best is None or tiebreak > best:
                best = tiebreak
            return
        size = sizes[i]
        top = chosen[-1] - 1 if i and sizes[i - 1] == size else ACE
        for r in range(top, -1, -1):
            if r in chosen or counts[r] > size:
                continue
            missing = size - counts[r]
            if missing and size >= 5 and not wild_big_books:
                continue
            rec(i + 1, [*chosen, r], need + missing)

    rec(0, [], 0)
    return best


def _straight_top(ranks: list[int]) -> int:
    """Top of the highest six-card straight the distinct natural ranks fit in (jokers fill), or -1."""
    present = set(ranks)
    for top, window in WINDOWS:
        if present <= window:
            return top
    return -1


def solve(
    counts: Sequence[int], jokers: int, suited: bool, wild_big_books: bool = True
) -> tuple[int, list[int]]:
    """(category index, tie-break ranks) of a six-card class: natural rank counts, jokers, one suit or not."""
    naturals = [r for r in range(ACE, -1, -1) for _ in range(counts[r])]
    distinct = all(c <= 1 for c in counts)
    top = _straight_top(naturals) if distinct else -1
    # From the top category down; the first that fits is the hand.
    if suited and top == ACE:
        return CATEGORY_INDEX["royal_flush"], []
    for name in ("six_of_a_kind",):
        tb = _best_books(counts, jokers, *BOOK_SHAPES[name], wild_big_books)
        if tb is not None:
            return CATEGORY_INDEX[name], tb
    if suited and top >= 0:
        return CATEGORY_INDEX["straight_flush"], [top]
    for name in ("five_of_a_kind", "new_house", "crazy_house", "four_of_a_kind"):
        tb = _best_books(counts, jokers, *BOOK_SHAPES[name], wild_big_books)
        if tb is not None:
            return CATEGORY_INDEX[name], tb
    if suited:
        return CATEGORY_INDEX["flush"], [*naturals, *([LOW] * jokers)]
    if top >= 0:
        return CATEGORY_INDEX["straight"], [top]
    for name in ("old_house", "three_pair", "three_of_a_kind", "two_pair", "pair", "high_card"):
        tb = _best_books(counts, jokers, *BOOK_SHAPES[name], wild_big_books)
        if tb is not None:
            return CATEGORY_INDEX[name], tb
    raise AssertionError(f"no six-card category fits counts {list(counts)} with {jokers} jokers")


# A hand's class in one int: each card's code holds a base-5 rank digit (bits 16 and up),
# a 3-bit joker counter (bits 12-14) or a 3-bit counter for its suit (bits 0-11); the sum
# of a hand's codes is its rank multiset, joker count and suit counts at once.
# pokerzoo.envs.perico.ranking memoises the five-card system with the same codes.
SUIT_BITS = 12
RANK_SHIFT = 16
_JOKER_CODE = 1 << SUIT_BITS
CARD_CODE: list[int | None] = [None] * NUM_CARD_IDS
for _c in range(52):
    CARD_CODE[_c] = (5 ** int(RANK_OF[_c]) << RANK_SHIFT) | (1 << 3 * int(SUIT_OF[_c]))
for _c in range(65, NUM_CARD_IDS):
    CARD_CODE[_c] = _JOKER_CODE


def hand_code(cards: Sequence[int], size: int, system: str) -> int:
    """Sum of the card codes of exactly ``size`` distinct Perico cards (naturals 0..51, jokers 65..68)."""
    if len(cards) != size:
        raise ValueError(f"{system} ranking evaluates exactly {size} cards, got {len(cards)}")
    code = CARD_CODE
    try:
        s = sum(code[c] for c in cards)  # type: ignore[misc]
    except (TypeError, IndexError):
        raise ValueError(
            f"{system} ranking takes cards of the 52-card deck and jokers (ids 65..68), got {list(cards)}"
        ) from None
    if len(set(cards)) != size:
        raise ValueError(f"{system}: duplicate card in {list(cards)}")
    return s


# Largest suit count in a 12-bit field of four suit counters.
_MOST_OF_A_SUIT = [max((f >> 3 * s) & 7 for s in range(4)) for f in range(1 << SUIT_BITS)]


def class_of(code: int, size: int) -> tuple[int, int, bool]:
    """(memo key, joker count, all naturals in one suit) of a summed hand code."""
    jokers = (code >> SUIT_BITS) & 7
    naturals = size - jokers
    one_suit = naturals == 0 or _MOST_OF_A_SUIT[code & 0xFFF] == naturals
    return (code >> RANK_SHIFT) << 4 | jokers << 1 | one_suit, jokers, one_suit


def counts_of(code: int) -> list[int]:
    """The 13 natural rank counts of a summed hand code."""
    rank_code = code >> RANK_SHIFT
    counts = []
    for _ in range(13):
        rank_code, d = divmod(rank_code, 5)
        counts.append(d)
    return counts


class PericoSixSystem(RankSystem):
    """Six-card Perico: exactly six cards, the fifteen categories of RULES.md §2, jokers wild."""

    name = "perico6"
    categories = CATEGORIES
    hand_size = HAND_SIZE

    def __init__(self, jokers_in_five_of_a_kind: bool = True):
        self.jokers_in_five_of_a_kind = bool(jokers_in_five_of_a_kind)
        self._memo: dict[int, int] = {}

    def class_key(self, counts: Sequence[int], jokers: int, one_suit: bool) -> int:
        """Key of every hand with these natural rank counts, joker count and suitedness."""
        cat, tiebreak = solve(counts, jokers, one_suit, self.jokers_in_five_of_a_kind)
        return pack(cat, [7 - jokers, *(r + 1 for r in tiebreak)])

    def key(self, cards: Sequence[int]) -> int:
        code = hand_code(cards, HAND_SIZE, self.name)
        memo_key, jokers, one_suit = class_of(code, HAND_SIZE)
        key = self._memo.get(memo_key)
        if key is None:
            key = self._memo[memo_key] = self.class_key(counts_of(code), jokers, one_suit)
        return key


def make_system(jokers_in_five_of_a_kind: bool = True) -> PericoSixSystem:
    return PericoSixSystem(jokers_in_five_of_a_kind=jokers_in_five_of_a_kind)
