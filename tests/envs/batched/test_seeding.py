"""``seeding``: many ``default_rng(key)`` generators made in one compiled call, word for word numpy's own."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.envs.batched import rng, seeding

# ints where numpy's word split changes: 0 (one word 0), 32-bit edges, 64-bit edges, 128-bit seeds (prefix only)
EDGES = [2**32 - 1, 2**32, 2**63, 2**64 - 1]
ELEMENT = st.one_of(st.integers(0, 40), st.sampled_from(EDGES), st.integers(0, 2**64 - 1))
PREFIX = st.one_of(st.none(), ELEMENT, st.integers(0, 2**128 - 1))


def numpy_words(key: list[int]) -> np.ndarray:
    return rng.words_from_state(np.random.default_rng(key[0] if len(key) == 1 else key).bit_generator.state)


@settings(max_examples=300, deadline=None)
@given(prefix=PREFIX, keys=st.lists(st.lists(ELEMENT, min_size=1, max_size=5), min_size=1, max_size=4), data=st.data())
def test_the_words_are_numpys_for_every_key(prefix, keys, data):
    width = len(keys[0])
    keys = [(k + [0] * width)[:width] for k in keys]  # one width per call
    words = seeding.words_of_keys(np.array(keys, dtype=np.uint64), prefix=prefix)
    for k, key in enumerate(keys):
        full = key if prefix is None else [prefix, *key]
        np.testing.assert_array_equal(words[k], numpy_words(full), err_msg=f"key {full}")


def test_row_seat_words_are_the_heuristics_generators():
    seed = int(np.random.SeedSequence(7).entropy)  # 128 bits, as a fresh-entropy seed is
    words = seeding.row_seat_words(seed, 9, 7)
    assert words.shape == (63, rng.WORDS)
    for r in range(9):
        for s in range(7):
            np.testing.assert_array_equal(words[r * 7 + s], numpy_words([seed, r, s]))
    first = rng.generator_from_words(words[5 * 7 + 3]).integers(1000, size=20)
    np.testing.assert_array_equal(first, np.random.default_rng([seed, 5, 3]).integers(1000, size=20))


@pytest.mark.parametrize(
    ("keys", "prefix", "error", "says"),
    [
        (np.array([[-1]]), None, ValueError, "ints >= 0"),
        (np.array([[0.5]]), None, TypeError, "ints, got dtype float64"),
        (np.zeros((2, 0), dtype=np.int64), None, ValueError, "L >= 1"),
        (np.array([[1]]), -3, ValueError, "seed -3"),
    ],
)
def test_bad_keys_are_named(keys, prefix, error, says):
    with pytest.raises(error, match=says):
        seeding.words_of_keys(keys, prefix=prefix)
