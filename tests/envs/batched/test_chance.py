"""Per-row chance: plain and scripted shuffles and integers against Chance / ScriptedChance, and the hand-back."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.envs.batched import chance as chance_lib
from pokerzoo.envs.batched import rng
from pokerzoo.envs.engine.cards import DECKS, Chance, ScriptedChance

DECK = np.array(DECKS["54"].cards, dtype=np.int64)


def shuffled(chance, row, cards):
    out = np.empty(len(cards), dtype=np.int64)
    chance_lib.shuffle(chance, row, np.asarray(cards, dtype=np.int64), len(cards), out)
    return out.tolist()


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    tops=st.lists(st.lists(st.sampled_from(DECK.tolist()), unique=True, max_size=12), max_size=3),
    ints=st.lists(st.integers(0, 3), max_size=3),
)
def test_a_row_draws_exactly_what_a_scripted_chance_draws(seed, tops, ints):
    scalar = ScriptedChance(shuffles=tops, integers=ints, seed=seed)
    chance = chance_lib.new_chance(3)
    chance_lib.seed_rows(chance, [0, 1, 2], [7, 8, 9])
    chance = chance_lib.inject(chance, 1, scalar.copy())
    for _ in range(len(tops) + 1):
        assert shuffled(chance, 1, DECK) == scalar.shuffle(DECK.tolist())
        for _ in range(len(ints) // 2 + 1):
            assert chance_lib.integer(chance, 1, 4) == scalar.integer(4)
    assert chance_lib.integer(chance, 1, 10**12) == scalar.integer(10**12)
    assert rng.state_from_words(chance.words[1]) == scalar.rng.bit_generator.state
    # the other rows were not touched, and the row's own generator waits parked
    assert rng.state_from_words(chance.words[0]) == np.random.default_rng(7).bit_generator.state
    assert chance_lib.row_state(chance, 1) == np.random.default_rng(8).bit_generator.state


def test_end_game_hands_the_row_back_to_its_own_generator():
    chance = chance_lib.new_chance(2)
    chance_lib.seed_rows(chance, [0, 1], [1, 2])
    own = np.random.default_rng(2)
    assert shuffled(chance, 1, DECK) == Chance(own).shuffle(DECK.tolist())  # a first game on the own generator
    chance = chance_lib.inject(chance, 1, ScriptedChance(shuffles=[["As", "Kd"]], seed=5))
    assert shuffled(chance, 1, DECK)[:2] == [12, 37]
    chance_lib.end_game(chance, 1)
    assert not chance.injected[1]
    assert shuffled(chance, 1, DECK) == Chance(own).shuffle(DECK.tolist())  # continues where it was


def test_plain_chance_injection_and_scripts_that_grow_the_arrays():
    chance = chance_lib.new_chance(1)
    g = np.random.default_rng(44)
    g.permutation(10)
    chance = chance_lib.inject(chance, 0, Chance(g))
    twin = np.random.default_rng(44)
    twin.permutation(10)
    assert shuffled(chance, 0, DECK) == Chance(twin).shuffle(DECK.tolist())
    long_script = ScriptedChance(shuffles=[DECK[:30].tolist(), DECK[5:40].tolist()], integers=[1, 2, 3, 0])
    chance = chance_lib.inject(chance, 0, long_script.copy())
    assert chance.top.shape[1] >= 65 and chance.ints.shape[1] >= 4
    assert shuffled(chance, 0, DECK) == long_script.shuffle(DECK.tolist())
    assert shuffled(chance, 0, DECK) == long_script.shuffle(DECK.tolist())
    assert [chance_lib.integer(chance, 0, 5) for _ in range(5)] == [long_script.integer(5) for _ in range(5)]


def test_one_chance_injected_into_several_rows_at_once():
    """``inject(chance, rows, source)``: every listed row draws what its own copy of ``source`` draws, a row already
    on an injected chance keeps its own generator parked (not the injected one), the other rows are untouched."""
    chance = chance_lib.new_chance(4)
    chance_lib.seed_rows(chance, [0, 1, 2, 3], [10, 11, 12, 13])
    chance = chance_lib.inject(chance, 2, Chance(np.random.default_rng(99)))  # row 2 already injected
    script = ScriptedChance(shuffles=[["As", "Kd"]], integers=[3], seed=5)
    chance = chance_lib.inject(chance, np.array([1, 2, 3]), script.copy())
    for row in (1, 2, 3):
        twin = script.copy()
        assert shuffled(chance, row, DECK) == twin.shuffle(DECK.tolist())
        assert chance_lib.integer(chance, row, 4) == twin.integer(4)
        assert shuffled(chance, row, DECK) == twin.shuffle(DECK.tolist())
        assert chance_lib.row_state(chance, row) == np.random.default_rng(10 + row).bit_generator.state
    assert not chance.injected[0]
    assert rng.state_from_words(chance.words[0]) == np.random.default_rng(10).bit_generator.state


def test_scripted_mistakes_raise():
    chance = chance_lib.inject(chance_lib.new_chance(1), 0, ScriptedChance(shuffles=[["As"]]))
    with pytest.raises(ValueError, match="not among the cards"):
        shuffled(chance, 0, DECK[13:])  # no spades in these cards
    chance = chance_lib.inject(chance_lib.new_chance(1), 0, ScriptedChance(integers=[9]))
    with pytest.raises(ValueError, match="outside"):
        chance_lib.integer(chance, 0, 4)
    with pytest.raises(TypeError, match="Chance"):
        chance_lib.inject(chance, 0, np.random.default_rng(0))
