"""The batched PCG64 against numpy itself: permutations, bounded integers, their interleavings, the state."""

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.envs.batched import rng

# Sizes where numpy changes path: nothing drawn (0, 1), 32-bit Lemire, its 2**32 edge, 64-bit Lemire.
BOUNDS = st.one_of(
    st.integers(1, 70),
    st.sampled_from([2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**33 + 7, 2**62 + 3, 2**63 - 1]),
    st.integers(1, 2**63 - 1),
)
OPS = st.lists(
    st.one_of(st.tuples(st.just("permutation"), st.integers(0, 120)), st.tuples(st.just("integers"), BOUNDS)),
    min_size=1,
    max_size=40,
)


def batched_row(seeds):
    return np.stack([rng.words_from_seed(s) for s in seeds])


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), ops=OPS, row=st.integers(0, 2))
def test_every_draw_and_the_final_state_match_numpy(seed, ops, row):
    seeds = [(seed + k + 1) % 2**64 for k in range(3)]
    seeds[row] = seed  # row ``row`` of three independent generators
    words, i = batched_row(seeds), row
    reference = np.random.default_rng(seed)
    out = np.empty(128, dtype=np.int64)
    for op, n in ops:
        if op == "permutation":
            rng.permutation(words, i, out, n)
            assert out[:n].tolist() == reference.permutation(n).tolist()
        else:
            assert rng.integers(words, i, n) == reference.integers(n)
    assert rng.state_from_words(words[i]) == reference.bit_generator.state


def test_rows_are_independent_generators():
    words = batched_row([5, 6, 7])
    refs = [np.random.default_rng(s) for s in (5, 6, 7)]
    out = np.empty(52, dtype=np.int64)
    for k in range(30):
        i = k % 3 if k % 4 else 2 - k % 3
        rng.permutation(words, i, out, 52)
        assert out.tolist() == refs[i].permutation(52).tolist()
        assert rng.integers(words, i, 7) == refs[i].integers(7)


def test_many_seeds_of_a_deck_shuffle_and_small_integers():
    out = np.empty(54, dtype=np.int64)
    for seed in range(2000):
        words = batched_row([seed])
        ref = np.random.default_rng(seed)
        assert rng.integers(words, 0, 4) == ref.integers(4)
        rng.permutation(words, 0, out, 54)
        assert np.array_equal(out, ref.permutation(54))
        assert rng.integers(words, 0, 55) == ref.integers(55)
        assert rng.state_from_words(words[0]) == ref.bit_generator.state


def test_shuffle_in_place_is_indexing_by_the_permutation():
    cards = np.arange(100, 152, dtype=np.int64)
    words = batched_row([3])
    rng.shuffle_in_place(words, 0, cards, 52)
    assert cards.tolist() == (np.arange(100, 152)[np.random.default_rng(3).permutation(52)]).tolist()


def test_state_round_trip_and_a_generator_continues_from_words():
    g = np.random.default_rng(11)
    g.integers(10)  # leaves a buffered 32-bit half
    words = rng.words_from_state(g.bit_generator.state)
    assert words[rng.HAS_UINT32] == 1
    assert rng.state_from_words(words) == g.bit_generator.state
    assert rng.generator_from_words(words).integers(10**6) == g.integers(10**6)
    with pytest.raises(ValueError, match="PCG64"):
        rng.words_from_state(np.random.Generator(np.random.MT19937(0)).bit_generator.state)


def test_the_128_bit_product():
    for a, b in [(2**64 - 1, 2**64 - 1), (2**63 + 5, 3), (123456789123, 987654321987), (0, 2**64 - 1)]:
        hi, lo = rng.mul_64x64_128(np.uint64(a), np.uint64(b))
        assert (int(hi) << 64) | int(lo) == a * b


def test_uniform_legal_actions_draw_every_legal_action_and_only_those():
    mask = np.zeros((4000, 6), dtype=bool)
    mask[:, [1, 3, 4]] = True
    mask[::2, 3] = False
    mask[8] = False
    words = batched_row([1])
    out = np.empty(4000, dtype=np.int64)
    rng.uniform_legal_actions(words, mask, out)
    assert out[8] == -1
    rows = np.delete(np.arange(4000), 8)
    assert mask[rows, out[rows]].all()
    assert set(out[1::2].tolist()) == {1, 3, 4} and set(out[::2].tolist()) == {-1, 1, 4}
    # the draws are integers(count) from the one generator, row after row
    ref = np.random.default_rng(1)
    for r in range(20):
        legal = np.flatnonzero(mask[r])
        if legal.size:
            assert out[r] == legal[ref.integers(legal.size)]


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), sizes=st.lists(st.integers(0, 70), min_size=1, max_size=12))
def test_random_bits_are_numpys_doubles_and_leave_its_state(seed, sizes):
    words = batched_row([seed + 1, seed])
    reference = np.random.default_rng(seed)
    out = np.zeros(80, dtype=np.uint64)
    for n in sizes:
        rng.random_bits53(words, 1, out, n)
        assert (out[:n].astype(np.float64) * 2.0**-53).tolist() == reference.random(n).tolist()
        assert rng.state_from_words(words[1]) == reference.bit_generator.state
        reference.integers(7)  # an odd 32-bit draw in between: the buffered half is left alone
        rng.integers(words, 1, 7)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), k=st.one_of(st.integers(0, 300), st.integers(0, 2**40)), odd=st.booleans())
def test_skipping_draws_leaves_the_state_drawing_them_leaves(seed, k, odd):
    words = batched_row([seed])
    reference = np.random.default_rng(seed)
    if odd:  # a buffered 32-bit half survives the skip, as it survives random()
        reference.integers(5)
        rng.integers(words, 0, 5)
    rng.skip_uint64(words, 0, k)
    if k <= 300:
        reference.random(k)
    else:
        state = reference.bit_generator.state
        reference.bit_generator.advance(k)  # PCG64.advance clears the buffered half: put it back
        state["state"] = reference.bit_generator.state["state"]
        reference.bit_generator.state = state
    assert rng.state_from_words(words[0]) == reference.bit_generator.state
    assert rng.integers(words, 0, 1000) == reference.integers(1000)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    calls=st.lists(st.tuples(st.one_of(st.integers(1, 70), st.integers(1, 2**32 - 1)), st.integers(0, 9)), max_size=8),
)
def test_integers_of_a_loaded_generator_are_numpys(seed, calls):
    words = batched_row([seed])
    reference = np.random.default_rng(seed)
    out = np.zeros(9, dtype=np.int64)
    for n, count in calls:
        rng.integers_from_loaded(words, 0, n, count, out)
        assert out[:count].tolist() == [int(reference.integers(n)) for _ in range(count)]
    assert rng.state_from_words(words[0]) == reference.bit_generator.state


@numba.njit
def _partial_shuffle_of_row(words, i, cards, count, lo, hi):
    rng.store(words, i, rng.partial_shuffle(rng.load(words, i), cards, count, lo, hi))


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), count=st.integers(1, 65), data=st.data())
def test_a_partial_shuffle_swaps_as_numpys_integers_draw(seed, count, data):
    lo = data.draw(st.integers(0, count))
    hi = data.draw(st.integers(lo, count))
    words = batched_row([seed])
    cards = np.arange(count, dtype=np.int8)[::-1].copy()
    expected, reference = cards.copy(), np.random.default_rng(seed)
    for a in range(lo, hi):
        b = a + int(reference.integers(count - a))
        expected[[a, b]] = expected[[b, a]]
    _partial_shuffle_of_row(words, 0, cards, count, lo, hi)
    assert cards.tolist() == expected.tolist()
    assert rng.state_from_words(words[0]) == reference.bit_generator.state
