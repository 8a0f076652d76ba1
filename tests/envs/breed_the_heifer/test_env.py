"""Breed the Heifer through the shared invariant kit, chip conservation, the AEC env and its observation."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.envs import make
from pokerzoo.envs.breed_the_heifer import encoding
from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame, HeiferView
from pokerzoo.envs.engine.betting import BET, CALL, CHECK
from pokerzoo.envs.engine.cards import ScriptedChance, format_card, parse_cards
from pokerzoo.envs.testing import (
    play_random,
)


def _chip_check(game: BreedTheHeiferGame, step: int) -> None:
    b = game.betting
    assert sum(b.stacks) + b.pot == game.chip_total, f"chips not conserved at step {step} (seed {game.seed})"
    assert min(b.stacks) >= 0


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    n=st.integers(2, 7),
    wild_pairs=st.sampled_from(("same_player", "any_player")),
    short=st.booleans(),
    double_ace_flush=st.booleans(),
)
def test_chips_are_conserved_in_every_random_game(seed, n, wild_pairs, short, double_ace_flush):
    rng = np.random.default_rng(seed)
    stacks = [int(s) for s in rng.integers(1, 25, size=n)] if short else 100
    game = BreedTheHeiferGame(
        seed=seed,
        num_players=n,
        wild_pairs=wild_pairs,
        stacks=stacks,
        num_hands=5 if short else 1,
        double_ace_flush=double_ace_flush,
    )
    total = play_random(game, rng, on_step=_chip_check)
    assert total.sum() == 0 and np.array_equal(total, game.total_rewards)
    assert sum(game.stacks) == game.chip_total
    for settle in (e for e in game.events if e["type"] == "settle"):
        assert sum(p["net"] for p in settle["players"]) == 0
        assert sum(p["amount"] for p in settle["pots"]) == sum(p["won"] for p in settle["players"])


def test_fast_view_equals_the_dataclass_view():
    g = BreedTheHeiferGame(seed=2, num_players=4)
    for p in range(4):
        v = g.view(p)
        assert type(v) is HeiferView and HeiferView(**vars(v)) == v
        assert {f.name for f in dataclasses.fields(HeiferView)} == set(vars(v))


def test_observation_layout():
    # Dealer 2 of 3, so p0 is dealt first: p0 2c 3d / 7s, p1 4c 5d / Kd, p2 6c 8d / 9s.
    stock = parse_cards("2c 4c 6c 3d 5d 8d 7s Kd 9s")
    g = BreedTheHeiferGame(chance=ScriptedChance(shuffles=[stock], integers=[2]), num_players=3)
    schema = encoding.schema(3)
    assert g.observation_schema is schema and g.observation_size == schema.size == 52 + 156 + 20 + 24 + 16
    assert (schema.offsets["wild"], schema.offsets["stacks"], schema.offsets["pot"]) == (208, 228, 252)
    obs = g.observe(1)
    assert obs.dtype == np.float32 and obs.shape == (schema.size,) and obs.min() >= 0 and obs.max() <= 1

    def v(name):
        return schema.view(obs, name)

    own_down = parse_cards("4c 5d")
    assert set(np.flatnonzero(v("down"))) == set(own_down)
    # Up cards relative to the observer (p1): k=0 p1's Kd, k=1 p2's 9s, k=2 p0's 7s.
    for k, card in enumerate(parse_cards("Kd 9s 7s")):
        assert np.flatnonzero(v("up")[k]).tolist() == [card]
    assert not v("wild").any() and not v("pending").any()  # nothing wild, no pair pending
    assert v("street")[0] == 1 and v("street")[1:].sum() == 0 and v("over")[0] == 0
    assert v("stacks")[0] == pytest.approx(99 / 300)  # own stack / chips at the table
    assert v("committed")[0] == pytest.approx(1 / 300)  # own ante
    assert v("button")[1] == 1  # the dealer (seat 2) sits one seat after p1
    assert v("opener")[2] == 1 and v("to_act")[2] == 1  # p0 opens and acts: two seats after p1
    assert v("pot")[0] == pytest.approx(3 / 300) and v("category")[0] == 1  # pot; p1's K-5-4 is high card
    assert v("still_in")[0] == 1
    g.apply(BET)
    obs = g.observe(1)
    assert v("bets")[2] == pytest.approx(2 / 16)  # p0's bet / (4 bets of the largest size, 4)
    assert v("to_call")[0] == pytest.approx(2 / 16) and v("bets_made")[0] == pytest.approx(1 / 4)
    assert v("to_act")[0] == 1  # p1 to act


def test_observation_shows_the_wild_and_pending_pair():
    # p0's 7s 7h pair is pending after p0's 4th-street card; p1's Jc breeds jacks.
    stock = parse_cards("2c 4c 6c 3d 5d 8d 7s Kd 9s 7h Jc Qh")
    g = BreedTheHeiferGame(chance=ScriptedChance(shuffles=[stock], integers=[2]), num_players=3)
    schema = encoding.schema(3)
    while g.street < 4:
        g.apply(CHECK if g.legal_mask()[CHECK] else CALL)
    obs = g.observe(2)
    assert np.flatnonzero(schema.view(obs, "wild")).tolist() == [9] and schema.view(obs, "pending")[0] == 0  # J
    assert schema.view(obs, "street")[1] == 1


def test_env_render_and_outcome_in_infos():
    env = make("breed_the_heifer_v0", num_players=3, render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    agent = env.agent_selection
    me = int(agent.split("_")[1])
    assert "3rd street" in text and f"-> P{me}" in text and "##" in text
    assert "legal: check, bet to 2" in text
    while env.agents:
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        env.step(CALL if mask[CALL] else CHECK)
    out = info["outcome"]
    assert out["showdown"] and len(out["players"]) == 3 and sum(p["net"] for p in out["players"]) == 0


def test_render_hides_other_players_down_cards():
    g = BreedTheHeiferGame(seed=9, num_players=4)
    text = g.render(viewer=2)
    for p in (0, 1, 3):
        assert all(format_card(card) not in text for card in g.down[p])
        assert all(format_card(card) in text for card in g.up[p])
    assert all(format_card(card) in text for card in g.down[2])
