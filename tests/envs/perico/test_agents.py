"""The Perico heuristic agent: legal, reproducible, sensible decisions, and better than random."""

import re

import numpy as np
import pytest

from pokerzoo.agents.base import CompositeAgent, RandomAgent
from pokerzoo.agents.perico import PericoHeuristicAgent, candidate_keeps, strength_table
from pokerzoo.agents.registry import agent_names, make_agent
from pokerzoo.envs.engine.cards import ScriptedChance, format_cards, parse_cards
from pokerzoo.envs.perico import actions
from pokerzoo.envs.perico.actions import CONTINUE, DISCARD0, DRAW, KNOCK
from pokerzoo.envs.perico.game import PericoGame


def stacked(hands, dealer=0, turned="Td", stock="", **options):
    n = len(hands)
    order = []
    for i in range(n):
        order += parse_cards(hands[(dealer + 1 + i) % n])
    order += parse_cards(f"{turned} {stock}")
    return PericoGame(chance=ScriptedChance(shuffles=[order], integers=[dealer]), num_players=n, **options)


def play(game, agents):
    while not game.is_over:
        p = game.current_player
        action = agents[p].act(game.view(p), game.legal_mask(), game)
        assert game.legal_mask()[action], (game.phase, action)
        game.apply(action)
    return game


def test_registry_builds_the_heuristic_and_composites():
    assert agent_names("perico") == ["random", "heuristic", "pimc", "ismcts", "pimc_batched"]
    assert isinstance(make_agent("perico", "heuristic", seed=1), PericoHeuristicAgent)
    composite = make_agent("perico_v0", "heuristic+random", seed=1)
    assert isinstance(composite, CompositeAgent) and composite.bidding_phases == {"knock"}


@pytest.mark.parametrize("config", [{"num_players": 3}, {"num_players": 2, "six_card": True}])
def test_heuristic_plays_legal_reproducible_games(config):
    runs = []
    for _ in range(2):
        agents = [PericoHeuristicAgent(seed=s) for s in range(config["num_players"])]
        runs.append(play(PericoGame(seed=5, target_score=2, **config), agents).history)
    assert runs[0] == runs[1]


@pytest.mark.parametrize("compiled", [True, False])
def test_keeps_a_pair_and_exchanges_the_rest(compiled):
    game = stacked(["Ac Ad 7h 4s 2c", "Kc Qd 9h 6s 3c"], dealer=1)
    action = PericoHeuristicAgent(seed=0, compiled=compiled).act(game.view(0), game.legal_mask())
    thrown = [game.hands[0][s] for s in actions.exchange_slots(5, action)]
    assert format_cards(sorted(thrown)) == format_cards(sorted(parse_cards("7h 4s 2c")))


@pytest.mark.parametrize("compiled", [True, False])
def test_draws_one_to_a_made_hand_and_discards_the_worst_card(compiled):
    game = stacked(["7c 7d 7h 7s 2c", "Kc Qd 9h 6s 3c"], dealer=1, stock="5d")
    agent = PericoHeuristicAgent(seed=0, compiled=compiled)
    assert agent.act(game.view(0), game.legal_mask()) == DRAW
    game.apply(DRAW)
    action = agent.act(game.view(0), game.legal_mask())
    assert action - DISCARD0 in (0, 5)  # the deuce or the drawn five, never a seven
    assert DISCARD0 <= action <= DISCARD0 + 5


@pytest.mark.parametrize("compiled", [True, False])
def test_knocks_with_a_strong_hand_and_plays_on_with_a_weak_one(compiled):
    strong = stacked(["Ac Ad Ah As Kc", "2d 4h 6s 8c Jd"], dealer=1, stock="3c 3d")
    weak = stacked(["2d 4h 6s 8c Jd", "Ac Ad Ah As Kc"], dealer=1, stock="3c 3d")
    for game in (strong, weak):
        for _ in range(2):  # each seat draws and throws the card drawn
            game.apply(DRAW)
            game.apply(DISCARD0 + 5)
        assert game.phase == "knock" and game.current_player == 0
    agent = PericoHeuristicAgent(seed=0, compiled=compiled)
    assert agent.act(strong.view(0), strong.legal_mask()) == KNOCK
    assert agent.act(weak.view(0), weak.legal_mask()) == CONTINUE


def test_candidate_keep_sets_include_books_draws_and_everything():
    hand = parse_cards("2s 5s 6s 7s RJ")
    keeps = candidate_keeps(hand, 5)
    assert (0, 1, 2, 3, 4) in keeps and (4,) in keeps
    assert (1, 2, 3, 4) in keeps  # the straight-flush draw 5-6-7 with the joker
    assert candidate_keeps(parse_cards("Ac Ad 7h 7s 2c"), 5)[1] == (0, 1, 2, 3)  # both pairs


def test_strength_table_is_sorted_and_deterministic():
    a = strength_table(False, "54")
    assert np.all(np.diff(a) >= 0) and len(a) == 40_000
    assert a is strength_table(False, "54")


def test_heuristic_beats_random_heads_up():
    wins = 0
    games = 24
    for s in range(games):
        seat = s % 2
        agents = [RandomAgent(seed=s), RandomAgent(seed=s)]
        agents[seat] = PericoHeuristicAgent(seed=s)
        game = play(PericoGame(seed=100 + s, num_players=2, target_score=3), agents)
        wins += seat in game.winners
    assert wins >= 18, wins


@pytest.mark.parametrize(
    "config, params",
    [
        ({}, {}),
        ({"num_players": 2}, {"knock_threshold": 0.5}),
        ({"num_players": 6, "deck": "56"}, {}),
        ({"num_players": 3, "jokers_in_five_of_a_kind": False}, {}),
        ({"six_card": True, "num_players": 3}, {}),
        ({"six_card": True, "num_players": 2, "deck": "54"}, {"knock_samples": 7}),
        ({}, {"turn_samples": 4, "discard_samples": 2, "knock_samples": 20}),  # the searches' rollout agent
    ],
)
def test_compiled_heuristic_makes_the_python_rules_decisions_and_draws(config, params):
    """The default (compiled) agent and ``compiled=False`` (the Python rule), seeded alike, on the same views:
    the same action and the same generator state after every decision, over games that mix in random moves."""
    compared = set()
    for g in range(3):
        game = PericoGame(seed=g, **config)
        compiled = PericoHeuristicAgent(seed=g, **params)
        python = PericoHeuristicAgent(seed=g, compiled=False, **params)
        moves = np.random.default_rng(g)
        for _ in range(150):
            if game.is_over:
                break
            view, mask = game.view(game.current_player), game.legal_mask()
            action = compiled.act(view, mask)
            assert action == python.act(view, mask), (g, view.phase, view.hand, view.drawn)
            assert compiled.rng.bit_generator.state == python.rng.bit_generator.state
            assert mask[action]
            compared.add(view.phase)
            game.apply(action if moves.random() < 0.7 else int(moves.choice(np.flatnonzero(mask))))
    assert compared == {"knock", "turn", "discard"}


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"compiled": "yes"}, "compiled='yes': expected true or false"),
        ({"turn_samples": 0}, "turn_samples must be an int >= 1, got 0"),
        ({"knock_samples": 2.5}, "knock_samples must be an int >= 1, got 2.5"),
        ({"discard_samples": True}, "discard_samples must be an int >= 1, got True"),
    ],
)
def test_heuristic_refuses_bad_arguments_by_name(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        PericoHeuristicAgent(seed=0, **kwargs)
