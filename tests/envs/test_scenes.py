"""Scenes (what the browser draws) of every game: JSON, complete in the all-cards viewpoint, and leak-free per seat.

A seat's scene must not change when the cards it cannot see are re-dealt
(``determinize``, as the views' own hidden-information test does): then no
hidden card, and nothing derived from one, reaches the browser. The
all-cards scene shows every card held by a seat face up.
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from pokerzoo.envs import game_class
from pokerzoo.envs.engine import scene as sc
from pokerzoo.envs.engine.cards import DECKS, format_card
from pokerzoo.envs.testing import play_random

CONFIGS = {
    "caribbean_stud_v0": [{}, {"boxes": 3, "ante_choices": [1, 2], "num_hands": 2}],
    "mexican_poker_v0": [{"num_players": 3, "rounds": 2}, {"num_players": 4, "rounds": 1, "doubt_pass": True}],
    "perico_v0": [{"num_players": 3, "target_score": 1}, {"six_card": True, "num_players": 2, "target_score": 1}],
    "breed_the_heifer_v0": [{"num_players": 3}, {"num_players": 4, "wild_pairs": "any_player", "num_hands": 2}],
    "raspisnoy_poker_v0": [
        {"num_players": 3, "schedule": [[2, "normal"], [2, "dark"], [1, "forehead"], [2, "gold"], [2, "misere"]]},
        {
            "num_players": 4,
            "deck": "34",
            "schedule": [[8, "no_trump"], [8, "normal"]],
            "whole_deck_trump": "dealer_last",
        },
    ],
}
CONFIGS["high_card_v0"] = [{"num_players": 4}]  # the example game of docs/adding_a_game.md
CASES = [(name, i) for name, configs in CONFIGS.items() for i in range(len(configs))]

# Where each game keeps the cards its seats hold (the all-cards scene must show them face up).
HELD = {
    "caribbean_stud_v0": lambda g, p: [c for cards in g.box_cards for c in cards] if g.dealer else [],
    "mexican_poker_v0": lambda g, p: list(g.hands[p]),
    "perico_v0": lambda g, p: list(g.hands[p]) + ([g.drawn] if g.drawn >= 0 and g.current_player == p else []),
    "breed_the_heifer_v0": lambda g, p: list(g.down[p]) + list(g.up[p]),
    "raspisnoy_poker_v0": lambda g, p: list(g.hands[p]),
    "high_card_v0": lambda g, p: list(g.hands[p]),
}


def _card_names(game, ids) -> list[str]:
    chars = DECKS[game.deck_name].suit_chars
    return [format_card(c, chars) for c in ids]


def _check_scenes(g, step: int, rng: np.random.Generator, counts: Counter) -> None:
    name = g.NAME + "_v0"
    where = f"{name} seed {g.seed} step {step}"
    for p in range(g.num_players):
        mine = g.scene(p)
        assert json.loads(json.dumps(mine)) == mine, "a scene must be plain JSON"
        world = g.determinize(p, rng)
        counts["moved"] += world.zones() != g.zones()
        assert world.scene(p) == mine, f"{where}: seat {p}'s scene depends on hidden cards"
        assert mine["viewer"] == p and len(mine["seats"]) == g.num_players
    every = g.scene(None)
    assert every["viewer"] is None
    for p, seat in enumerate(every["seats"]):
        shown = [c for row in seat["rows"] for c in row["cards"]]
        assert not any(c.get("down") for c in shown), f"{where}: the all-cards scene hides a card of P{p}"
        if name != "caribbean_stud_v0":
            assert Counter(sc.face_names(seat)) == Counter(_card_names(g, HELD[name](g, p))), where
    if name == "caribbean_stud_v0":
        assert Counter(sc.face_names(every["seats"])) == Counter(_card_names(g, HELD[name](g, 0))), where
    counts["checked"] += 1


@pytest.mark.parametrize(("name", "index"), CASES, ids=[f"{n}-{i}" for n, i in CASES])
def test_seat_scenes_hold_no_hidden_card_and_all_cards_shows_every_hand(name, index):
    counts: Counter = Counter()
    for seed in range(4):
        game = game_class(name)(seed=seed, **CONFIGS[name][index])
        rng = np.random.default_rng(seed + 99)
        play_random(
            game,
            np.random.default_rng(seed),
            check=False,
            on_step=lambda g, step, rng=rng: _check_scenes(g, step, rng, counts),
        )
        final = [game.scene(p) for p in range(game.num_players)]
        assert all(s["status"].startswith("game over") for s in final)
    assert counts["checked"] >= 4 and counts["moved"], "determinize never moved a card: the check proved nothing"


def test_scene_cards_carry_suits_corners_jokers_and_wilds():
    assert sc.card(12) == {"c": "As", "r": "A", "s": "s"}
    assert sc.card(65, "54") == {"c": "RJ", "j": "red"}
    assert sc.card(66, "34") == {"c": "BJ", "j": "black", "print": "6s"}  # the six of spades plays the black joker
    assert sc.card(64, "65", corners=(5, 3)) == {"c": "Aq", "r": "A", "s": "q", "corners": [5, 3]}
    assert sc.card(0, wild=True, tag="P1", hi=True) == {"c": "2s", "r": "2", "s": "s", "wild": 1, "tag": "P1", "hi": 1}
    assert sc.face_names({"a": [sc.card(12), *sc.down(2)], "b": {"c": "not a card"}}) == ["As"]


def test_mexican_scenes_show_corner_numbers_and_keep_predictions_secret():
    game = game_class("mexican_poker_v0")(seed=4, num_players=3, rounds=1)
    actor = game.current_player  # the token holder predicts first
    game.apply(2)  # a prediction of 2, face down for the others
    other = (actor + 1) % 3
    facts = {s["seat"]: dict(s["facts"]) for s in game.scene(other)["seats"]}
    assert facts[actor]["prediction"] == "chip down"
    assert dict(game.scene(actor)["seats"][actor]["facts"])["prediction"] == "2"
    board = game.scene(other)["center"][1]["cards"]
    assert board and all(len(c["corners"]) == 2 and sum(c["corners"]) == 8 for c in board)


def test_perico_jokers_and_heifer_wild_rank_are_marked_wild():
    perico = game_class("perico_v0")(seed=0)
    jokers = [c for row in perico.scene(None)["seats"] for r in row["rows"] for c in r["cards"] if "j" in c]
    rng = np.random.default_rng(1)
    while not jokers and not perico.is_over:
        perico.apply(int(rng.choice(perico.legal_actions())))
        jokers = [c for row in perico.scene(None)["seats"] for r in row["rows"] for c in r["cards"] if "j" in c]
    assert jokers and all(c.get("wild") for c in jokers)
    for seed in range(40):
        heifer = game_class("breed_the_heifer_v0")(seed=seed)
        play_random(heifer, np.random.default_rng(seed), check=False)
        o = heifer.last_outcome
        if o["wild"]:
            break
    else:
        pytest.fail("no Heifer hand bred a wild rank in 40 seeds")
    shown = [c for r in heifer.scene(None)["seats"] for row in r["rows"] for c in row["cards"]]
    assert any(c.get("wild") for c in shown)
    assert all(bool(c.get("wild")) == (c["r"] == o["wild"]) for c in shown)
