"""The game's memoised ranker gives the ``heifer`` rank system's keys, bit for bit."""

from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.envs.breed_the_heifer.ranking import STRAIGHT_TOP, HeiferRanker
from pokerzoo.envs.engine.hands import get_system


@st.composite
def hands(draw):
    n = draw(st.integers(1, 7))
    wild = draw(st.integers(-1, 12))
    if draw(st.booleans()):  # mostly one suit plus the wild rank: flushes and straight flushes
        suit = draw(st.integers(0, 3))
        pool = [c for c in range(52) if c // 13 == suit or c % 13 == wild]
    else:
        pool = list(range(52))
    cards = draw(st.lists(st.sampled_from(pool), min_size=min(n, len(pool)), max_size=n, unique=True))
    return cards, wild


@settings(max_examples=400, deadline=None)
@given(hand=hands(), double_ace_flush=st.booleans())
def test_ranker_equals_the_rank_system(hand, double_ace_flush):
    cards, wild = hand
    system = get_system("heifer", wild_rank=None if wild < 0 else wild, double_ace_flush=double_ace_flush)
    ranker = HeiferRanker(double_ace_flush)
    assert ranker.key(cards, wild) == system.key(cards)
    assert ranker.key(cards, wild) == system.key(cards)  # memo hit gives the same
    assert ranker.category(ranker.key(cards, wild)) == system.evaluate(cards).category


def test_straight_table_with_wilds():
    def bits(ranks):
        return sum(1 << r for r in ranks)

    assert STRAIGHT_TOP[0][bits([8, 9, 10, 11, 12])] == 12
    assert STRAIGHT_TOP[0][bits([12, 0, 1, 2, 3])] == 3  # the wheel tops at five
    assert STRAIGHT_TOP[1][bits([12, 0, 1, 2])] == 3
    assert STRAIGHT_TOP[1][bits([10, 11, 12, 0])] == -1  # Q-K-A-2 never wraps
    assert STRAIGHT_TOP[2][bits([8, 10, 12])] == 12
    assert STRAIGHT_TOP[4][bits([0])] == 4  # one deuce and four wilds: 2-3-4-5-6
    assert STRAIGHT_TOP[4][bits([])] == -1  # four wilds alone are no five-card straight
