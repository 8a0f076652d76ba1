"""The standard evaluator: exact category counts, hand-written orderings, per-call = batch, references."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.envs.engine.cards import parse_cards
from pokerzoo.envs.engine.hands import evaluate, evaluate_batch, get_system, standard
from pokerzoo.envs.engine.hands.value import HandValue


def all_five_card_hands() -> np.ndarray:
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), 5)), dtype=np.int8)
    return flat.reshape(-1, 5)


def test_exact_category_counts_over_all_five_card_hands():
    keys = evaluate_batch(all_five_card_hands())
    counts = dict(zip(standard.CATEGORIES, np.bincount(keys >> 28, minlength=10).tolist()))
    assert counts == {
        "royal_flush": 4,
        "straight_flush": 36,
        "four_of_a_kind": 624,
        "full_house": 3_744,
        "flush": 5_108,
        "straight": 10_200,
        "three_of_a_kind": 54_912,
        "two_pair": 123_552,
        "pair": 1_098_240,
        "high_card": 1_302_540,
    }
    assert len(np.unique(keys)) == 7_462  # the classic number of distinct five-card hand values


@pytest.mark.parametrize(
    "better, worse",
    [
        ("Ah Kc Jd 3s 2h", "As Kd Tc 9h 8s"),  # Ace-King: the third card decides
        ("5h 5c 4d 3s 2h", "4h 4c Ad Ks Qh"),  # pair rank before kickers
        ("5h 5c Qd 3s 2h", "5s 5d Jc Th 9s"),  # same pair: kickers
        ("Ah Ac 2d 2s 3h", "Kh Kc Qd Qs Ah"),  # two pair: top pair first
        ("Ah Kh Qh Jh Th", "Ks Qs Js Ts 9s"),  # royal over king-high straight flush
        ("6h 5c 4d 3s 2h", "5h 4c 3d 2s Ah"),  # the wheel is the lowest straight
        ("3h 3c 3d 2s 2h", "2h 2c 2d As Ah"),  # full house: the trips decide
        ("2h 3h 4h 5h 7h", "Ac Kd Qh Js Tc"),  # any flush beats any straight
        ("Ah Kd Qc Js Tc", "Kh Qd Jc Ts 9c"),
    ],
)
def test_hand_written_orderings(better, worse):
    assert evaluate(better) > evaluate(worse)


def test_no_wrap_around_straight_and_suit_ties():
    assert evaluate("Qh Kc Ad 2s 3h").category == "high_card"
    assert evaluate("Ah Kh Qh Jh Th") == evaluate("As Ks Qs Js Ts")
    assert evaluate("As Ks Qs Js Ts").category == "royal_flush"
    assert evaluate("5h 4h 3h 2h Ah").category == "straight_flush"


def test_best_five_of_seven_and_six():
    assert evaluate("Ah Ad 7c 7h 5s 5d 2c").category == "two_pair"
    assert evaluate("Ah Ad 7c 7h 5s 5d 2c") == evaluate("Ah Ad 7c 7h 5s")
    assert evaluate("2h 3h 4h 5h 9h 6c 7d").category == "flush"
    assert evaluate("2h 3h 4h 5h 9h 6h").category == "straight_flush"
    assert evaluate("Kh Kd Kc 2s 2d 2c 9h").category == "full_house"


def test_caribbean_ace_king_category():
    assert evaluate("Ah Kd 4c 3s 2h", system="caribbean").category == "ace_king"
    assert evaluate("Ah Qd Jc 9s 8h", system="caribbean").category == "high_card"
    assert evaluate("Ah Kd 4c 3s 2h", system="caribbean").key == evaluate("Ah Kd 4c 3s 2h").key


def test_values_compare_only_within_a_system():
    v = evaluate("Ah Kd 4c 3s 2h")
    assert isinstance(v, HandValue) and str(v) == "high card"
    with pytest.raises(TypeError):
        _ = v < evaluate("Ah Kd 4c 3s 2h", system="caribbean")


@pytest.mark.parametrize(
    "cards, message",
    [("As Ks", "5 to 7 cards"), ("As Ks Qs Js RJ", "ids 0..51"), ("As As Ks Qs Js Ts", "duplicate")],
)
def test_bad_hands_raise_clear_errors(cards, message):
    with pytest.raises(ValueError, match=message):
        evaluate(cards)


def test_unknown_system_is_named():
    with pytest.raises(ValueError, match="unknown rank system 'nope'"):
        evaluate("As Ks Qs Js Ts", system="nope")
    with pytest.raises(ValueError, match="rank system 'heifer'"):
        evaluate("As Ks Qs Js Ts", system="heifer", wild=3)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_batch_rank_keys_have_unique_sums(size):
    rk = standard.RANK_KEYS[size]
    sums = [int(np.dot(c, rk)) for c in standard.rank_multisets(size)]
    assert len(sums) == len(set(sums))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([5, 6, 7]))
def test_per_call_equals_batch(seed, size):
    rng = np.random.default_rng(seed)
    hands = np.argsort(rng.random((200, 52)), axis=1)[:, :size]
    batch = evaluate_batch(hands)
    assert batch.tolist() == [standard.key_of(h) for h in hands.tolist()]
    assert batch.tolist() == [evaluate(h).key for h in hands.tolist()]


def _same_order(ours: np.ndarray, reference_higher_is_better: np.ndarray) -> bool:
    """Two scorings order a set of hands identically, ties included (dense ranks equal)."""
    a = np.unique(ours, return_inverse=True)[1]
    b = np.unique(reference_higher_is_better, return_inverse=True)[1]
    return bool(np.array_equal(a, b))


def _phevaluator_scores(hands: np.ndarray) -> np.ndarray:
    from phevaluator import evaluate_cards

    ph_id = np.array([(c % 13) * 4 + "cdhs".index("shdc"[c // 13]) for c in range(52)])
    return -np.array([evaluate_cards(*row) for row in ph_id[hands].tolist()])  # phevaluator: lower is better


@pytest.mark.parametrize("size", [5, 6, 7])
def test_agrees_with_phevaluator_on_random_hands(size):
    hands = np.argsort(np.random.default_rng(size).random((20_000, 52)), axis=1)[:, :size]
    assert _same_order(evaluate_batch(hands), _phevaluator_scores(hands))


def test_agrees_with_treys_on_random_hands():
    from treys import Card, Evaluator

    ev = Evaluator()
    hands = np.argsort(np.random.default_rng(9).random((3_000, 52)), axis=1)[:, :7]
    texts = [[Card.new(f"{'23456789TJQKA'[c % 13]}{'shdc'[c // 13]}") for c in row] for row in hands.tolist()]
    reference = -np.array([ev.evaluate(t, []) for t in texts])
    assert _same_order(evaluate_batch(hands), reference)


@pytest.mark.slow
@pytest.mark.parametrize("size", [5, 7])
def test_agrees_with_phevaluator_on_a_million_hands(size):
    hands = np.argsort(np.random.default_rng(100 + size).random((1_000_000, 52)), axis=1)[:, :size]
    assert _same_order(evaluate_batch(hands), _phevaluator_scores(hands))
    sample = hands[:50_000].tolist()
    assert [standard.key_of(h) for h in sample] == evaluate_batch(hands[:50_000]).tolist()


def test_standard_system_is_shared():
    assert get_system("standard") is get_system("standard")
    assert parse_cards("As")[0] == 12
