"""Scripted Mexican poker agents: the heuristic's three rules, legality, and that it beats random."""

from __future__ import annotations

import numpy as np
import pytest

from pokerzoo.agents.base import CompositeAgent, RandomAgent
from pokerzoo.agents.mexican_poker import AGENTS, MexicanHeuristicAgent, play_out, strongest_first
from pokerzoo.agents.registry import agent_names, make_agent
from pokerzoo.envs.engine.cards import MEXICAN_SUIT_CHARS, ScriptedChance, parse_cards
from pokerzoo.envs.engine.hands.exact import CATEGORIES, classify
from pokerzoo.envs.mexican_poker import MexicanPokerGame
from pokerzoo.envs.mexican_poker.actions import DOUBT_BASE, PASS, is_combo, split


def cards(text: str) -> list[int]:
    return parse_cards(text, MEXICAN_SUIT_CHARS)


def stacked(board: str, hands: list[str], token: int = 0, **options) -> MexicanPokerGame:
    from pokerzoo.envs.mexican_poker import corners

    top = cards(board) + [c for h in hands for c in cards(h)]
    pair = corners.PAIRS[corners.rank_plus_suit()[top[0]]]
    assert pair == (len(board.split()), len(hands[0].split())), f"{board.split()[0]} carries {pair}"
    chance = ScriptedChance(shuffles=[top], integers=[token], suit_chars=MEXICAN_SUIT_CHARS)
    return MexicanPokerGame(num_players=len(hands), chance=chance, **options)


def to_play(game: MexicanPokerGame, predictions: list[int]) -> None:
    while game.phase == "predict":
        game.apply(predictions[game.current_player])
    while game.phase == "doubt":
        game.apply(DOUBT_BASE + 1)


def lay(game: MexicanPokerGame, own: str, board: str = "") -> None:
    from pokerzoo.envs.mexican_poker.actions import combo_action

    hand = game.hands[game.current_player]
    game.apply(combo_action([hand.index(c) for c in cards(own)], [game.board.index(c) for c in cards(board)]))


def heuristic_play(game: MexicanPokerGame) -> tuple[list[int], list[int], str]:
    """(own cards, board cards, category) the heuristic lays now."""
    seat = game.current_player
    action = MexicanHeuristicAgent(seed=0).act(game.view(seat), game.legal_mask())
    assert is_combo(action)
    hs, bs = split(action)
    own = [game.hands[seat][i] for i in hs]
    shared = [game.board[j] for j in bs]
    return own, shared, CATEGORIES[classify(own + shared) >> 28]


# ---------------------------------------------------------------- registry
def test_registry_and_composites():
    assert set(AGENTS) == {"heuristic"}
    assert agent_names("mexican_poker") == ["random", "heuristic", "pimc", "ismcts"]
    assert isinstance(make_agent("mexican_poker", "random", seed=1), RandomAgent)
    composite = make_agent("mexican_poker_v0", "heuristic+random", seed=1)
    assert isinstance(composite, CompositeAgent)
    assert composite.bidding_phases == {"predict", "doubt"}
    assert isinstance(composite.bidder, MexicanHeuristicAgent) and isinstance(composite.player, RandomAgent)
    with pytest.raises(ValueError, match="samples"):
        MexicanHeuristicAgent(samples=0)


# ---------------------------------------------------------------- the play-out model
def test_play_out_follows_the_trick_rules():
    assert play_out([[5, 1], [5]], leader=0) == [2, 0]  # tie to the earlier play; then seat 0 alone
    assert play_out([[5, 1], [5]], leader=1) == [1, 1]  # seat 1 first wins, drops out, seat 0 alone
    # seat 0 wins and is out: seat 1 leads; seat 2 wins and is out too; seat 1 alone takes the last
    assert play_out([[9], [1, 1, 1], [2, 2]], leader=0) == [1, 1, 1]
    assert play_out([[9], [1, 1, 1], [2, 2, 2]], leader=0) == [1, 0, 2]
    assert play_out([[], []], leader=0) == [0, 0]


def test_strongest_first_splits_greedily():
    keys = strongest_first(cards("9l Qb Qt"), tuple(cards("Qq Qm Ql 2b 3b")))
    assert [CATEGORIES[k >> 28] for k in keys] == ["five_of_a_kind", "high_card"]
    keys = strongest_first(cards("7l 2l 3l"), tuple(cards("6m 7m 8m 9m Tm")))
    assert [CATEGORIES[k >> 28] for k in keys] == ["straight", "high_card", "high_card"]
    assert keys[1] > keys[2]  # 3 before 2


# ---------------------------------------------------------------- play rule
BOARD = "6m 7m 8m 9m Tm"


def test_short_and_following_wins_with_the_cheapest_winning_combination():
    game = stacked(BOARD, ["7l 2l 3l", "8l 8b Ab"])
    to_play(game, [0, 1])
    lay(game, "7l", "7m")  # a pair of sevens to beat
    own, shared, category = heuristic_play(game)
    # straights and three eights also win, but a pair of eights with one own card is cheapest
    assert category == "pair" and len(own) == 1 and classify(own + shared) >> 28 == 1
    assert {c % 13 for c in own + shared} == {6}


def test_short_and_leading_lays_the_strongest_combination():
    game = stacked(BOARD, ["8l 8b Ab", "2b 3b 4b"])
    to_play(game, [2, 0])
    own, _, category = heuristic_play(game)
    assert category == "straight" and len(own) == 1  # 6-T straight beats three eights


def test_short_with_nothing_that_wins_sheds_the_lowest_card():
    game = stacked(BOARD, ["Ql Qb Qt", "2b 3b Ab"])
    to_play(game, [0, 1])
    lay(game, "Ql Qb Qt")
    own, shared, _ = heuristic_play(game)
    assert own == cards("2b") and not shared


def test_enough_and_following_sheds_the_highest_single_that_still_loses():
    game = stacked(BOARD, ["7l 2l 3l", "2b 5q Ab", "Kt Kq 4t"])
    to_play(game, [0, 0, 0])
    lay(game, "7l")  # seat 0 leads a single seven
    own, shared, _ = heuristic_play(game)
    assert own == cards("5q") and not shared  # 2b and 5q lose to the seven; the ace would win


def test_enough_and_leading_sheds_the_lowest_single():
    game = stacked(BOARD, ["2b 5q Ab", "7l 2l 3l"])
    to_play(game, [0, 0])
    own, shared, _ = heuristic_play(game)
    assert own == cards("2b") and not shared


def test_enough_with_more_cards_than_anyone_sheds_a_losing_combination_of_several_cards():
    game = stacked(BOARD, ["7l 7b 3l", "2b 2t Kb"])
    to_play(game, [0, 0])
    lay(game, "7l 7b")  # seat 0 now holds one card, the heuristic three
    own, _, category = heuristic_play(game)
    assert sorted(own) == sorted(cards("2b 2t")) and category == "pair"


# ---------------------------------------------------------------- predictions and doubts
def test_predictions_are_in_range_and_reproducible():
    game = MexicanPokerGame(seed=8, num_players=5)
    view = game.view(game.current_player)
    a = [MexicanHeuristicAgent(seed=3).predict(view) for _ in range(2)]
    assert a[0] == a[1] and 0 <= a[0] <= 6


def test_a_monster_hand_predicts_tricks():
    strong = stacked("Ab Am Al 5m 9l", ["At Aq Kt", "2b 3t 4q"], token=0)  # five aces for seat 0
    assert MexicanHeuristicAgent(seed=0).predict(strong.view(0)) >= 1


def test_prediction_maximises_the_mean_score_over_the_sampled_play_outs():
    from pokerzoo.envs.mexican_poker.scoring import prediction_line

    for seed in range(4):
        game = MexicanPokerGame(seed=seed, num_players=3 + seed)
        view = game.view(game.current_player)
        sims = MexicanHeuristicAgent(seed=seed).simulate(view)
        mine, totals = sims[:, view.player], sims.sum(axis=1)
        means = [np.mean([prediction_line(p, t, tt) for t, tt in zip(mine, totals)]) for p in range(7)]
        assert MexicanHeuristicAgent(seed=seed).predict(view) == int(np.argmax(means))
        assert sims.shape == (16, view.num_players) and (sims.sum(axis=1) <= view.hand_size).all()


def test_doubt_goes_on_the_opponent_most_likely_to_miss():
    game = stacked(BOARD, ["2l 3l 4l", "2b 3b 4b", "2t 3t 4t"], token=0)
    for p in (1, 1, 6):  # seat 2 predicts 6 tricks with three cards: a sure miss
        game.apply(p)
    agent = MexicanHeuristicAgent(seed=0)
    chances = agent.miss_chances(game.view(0))
    assert chances[2] == 1.0
    assert agent.act(game.view(0), game.legal_mask()) == DOUBT_BASE + 2  # two seats clockwise


def test_doubt_pass_when_nobody_is_likely_to_miss():
    class Fixed(MexicanHeuristicAgent):
        def __init__(self, chances):
            super().__init__(seed=0)
            self.fixed = chances

        def miss_chances(self, view):
            return self.fixed

    game = stacked(BOARD, ["2l 3l 4l", "2b 3b 4b", "2t 3t 4t"], token=0, doubt_pass=True)
    for p in (1, 1, 1):
        game.apply(p)
    view, mask = game.view(0), game.legal_mask()
    assert Fixed({1: 0.3, 2: 0.5}).doubt(view, mask) == PASS
    assert Fixed({1: 0.3, 2: 0.7}).doubt(view, mask) == DOUBT_BASE + 2
    assert Fixed({1: 0.7, 2: 0.7}).doubt(view, mask) == DOUBT_BASE + 1  # tie: the nearer seat
    strict = stacked(BOARD, ["2l 3l 4l", "2b 3b 4b", "2t 3t 4t"], token=0)
    for p in (1, 1, 1):
        strict.apply(p)
    assert Fixed({1: 0.3, 2: 0.5}).doubt(strict.view(0), strict.legal_mask()) == DOUBT_BASE + 2  # must place


# ---------------------------------------------------------------- whole games
@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (4, {"doubt_pass": True}), (7, {"doubt_chips": False})]
)
def test_heuristic_only_plays_legal_actions(players, options):
    game = MexicanPokerGame(seed=players, num_players=players, rounds=3, **options)
    agents = [MexicanHeuristicAgent(seed=s, samples=4) for s in range(players)]
    while not game.is_over:
        p = game.current_player
        action = agents[p].act(game.view(p), game.legal_mask(), game)
        assert game.legal_mask()[action]
        game.apply(action)


def test_heuristic_beats_random():
    """A fixed match (2 heuristic + 2 random seats, rotating): the heuristic scores more per round."""
    points = {"heuristic": [], "random": []}
    exact = {"heuristic": 0, "random": 0}
    for g in range(4):
        game = MexicanPokerGame(seed=g, num_players=4, rounds=10)
        kinds = ["heuristic", "random"] * 2 if g % 2 == 0 else ["random", "heuristic"] * 2
        agents = [make_agent("mexican_poker", k, seed=10 * g + i) for i, k in enumerate(kinds)]
        while not game.is_over:
            p = game.current_player
            game.apply(agents[p].act(game.view(p), game.legal_mask(), game))
        for event in (e for e in game.events if e["type"] == "score"):
            for s, k in enumerate(kinds):
                points[k].append(event["points"][s])
                exact[k] += event["predictions"][s] == event["tricks"][s]
    assert np.mean(points["heuristic"]) > np.mean(points["random"]) + 1.0
    assert exact["heuristic"] > exact["random"]
