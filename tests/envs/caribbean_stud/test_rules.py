"""Caribbean stud rules (RULES.md §5) with stacked decks: every payout row, both pushes, boxes, antes."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerzoo.agents.caribbean_stud import rules_of_thumb_batch
from pokerzoo.envs.caribbean_stud import simulate
from pokerzoo.envs.caribbean_stud.game import FIRST_ANTE_ACTION, FOLD, RAISE, CaribbeanStudGame
from pokerzoo.envs.engine.cards import ScriptedChance, parse_cards
from pokerzoo.envs.engine.game import IllegalActionError

AK_DEALER = "Ad Kc 6d 4c 2d"  # the dealer qualifies with Ace-King (up card 2d)


def play(boxes: list[str], dealer: str, decisions: list[int], antes: list[int] | None = None, **options):
    top = " ".join(boxes) + " " + dealer
    game = CaribbeanStudGame(chance=ScriptedChance(shuffles=[top]), boxes=len(boxes), **options)
    for ante in antes or []:
        game.apply(FIRST_ANTE_ACTION + game.ante_choices.index(ante))
    for d in decisions:
        game.apply(d)
    return game


@pytest.mark.parametrize(
    "box, pays",
    [
        ("As Ks Qs Js Ts", 100),  # royal flush
        ("9h 8h 7h 6h 5h", 50),  # straight flush
        ("7c 7d 7h 7s 3c", 20),  # four of a kind
        ("8c 8d 8h 3s 3c", 7),  # full house
        ("Kh 9h 8h 5h 3h", 5),  # flush
        ("9c 8d 7h 6s 5c", 4),  # straight
        ("Qc Qd Qh 5s 3c", 3),  # three of a kind
        ("Jc Jd 5h 5s 3c", 2),  # two pair
        ("Tc Td 8h 6s 3c", 1),  # pair
        ("Ac Kd Qh 5s 3c", 1),  # Ace-King (beats the dealer's A-K-6)
    ],
)
def test_raise_pays_by_the_table_when_the_box_beats_a_qualified_dealer(box, pays):
    game = play([box], AK_DEALER, [RAISE])
    assert game.total_rewards[0] == 1 + 2 * pays
    outcome = game.info(0)["outcome"]
    assert outcome["dealer"]["qualified"] and outcome["boxes"][0]["result"] == "win"


def test_exact_tie_with_a_qualified_dealer_is_a_push():
    game = play(["Ah Kd 6c 4s 2c"], AK_DEALER, [RAISE])
    assert game.total_rewards[0] == 0
    assert game.info(0)["outcome"]["boxes"][0]["result"] == "push"


def test_dealer_without_ace_king_pays_the_ante_and_returns_the_raise():
    game = play(["9c 8d 5h 4s 2c"], "Qd Jc 7h 4c 3d", [RAISE])
    assert game.total_rewards[0] == 1
    outcome = game.info(0)["outcome"]
    assert not outcome["dealer"]["qualified"] and outcome["boxes"][0]["result"] == "no_qualify"


def test_losing_box_loses_ante_and_raise_and_a_fold_loses_the_ante():
    assert play(["Ac Qd Jh 5s 3c"], AK_DEALER, [RAISE]).total_rewards[0] == -3
    assert play(["As Ks Qs Js Ts"], AK_DEALER, [FOLD]).total_rewards[0] == -1


def test_ace_king_four_three_two_is_the_lowest_qualifier():
    assert play(["Qs Jd 9h 6s 5c"], "Ah Kc 4h 3c 2d", [RAISE]).info(0)["outcome"]["dealer"]["qualified"]
    assert not play(["Qs Jd 9h 6s 5c"], "Ah Qc 4h 3c 2d", [RAISE]).info(0)["outcome"]["dealer"]["qualified"]


def test_boxes_are_decided_in_order_and_seen_only_from_their_turn():
    boxes = ["Ac Ah 7h 4s 2c", "Kh Kd 8h 5s 3c", "9c 8d 6h 5d 3h"]
    game = CaribbeanStudGame(chance=ScriptedChance(shuffles=[" ".join(boxes) + " " + AK_DEALER]), boxes=3)
    v = game.view(0)
    assert v.box == 0 and v.box_cards[0] == tuple(parse_cards(boxes[0])) and v.box_cards[1:] == ((), ())
    assert v.dealer_up == parse_cards("2d")[0]
    game.apply(RAISE)
    v = game.view(0)
    assert (
        v.box == 1
        and v.box_cards[0]
        and v.box_cards[1] == tuple(parse_cards(boxes[1]))
        and v.box_cards[2] == ()
    )
    game.apply(FOLD)
    game.apply(RAISE)
    # box 1: pair of aces beats A-K: +3; box 2 folded: -1; box 3: 9-high loses to A-K: -3
    assert game.is_over and game.total_rewards[0] == 3 - 1 - 3
    assert [b["result"] for b in game.info(0)["outcome"]["boxes"]] == ["win", "fold", "lose"]


def test_ante_choices_are_made_per_box_before_the_deal():
    boxes = ["Ac Ah 7h 4s 2c", "9c 8d 6h 5s 3h"]
    game = CaribbeanStudGame(
        chance=ScriptedChance(shuffles=[" ".join(boxes) + " " + AK_DEALER]), boxes=2, ante_choices=[5, 1, 2]
    )
    assert game.ante_choices == (1, 2, 5) and game.phase == "ante" and game.num_actions == 5
    v = game.view(0)
    assert v.box_cards == ((), ()) and v.dealer_up == -1
    assert game.legal_actions() == [2, 3, 4]
    with pytest.raises(IllegalActionError, match="legal now"):
        game.apply(RAISE)
    game.apply(FIRST_ANTE_ACTION + 2)  # box 1: ante 5
    game.apply(FIRST_ANTE_ACTION + 0)  # box 2: ante 1
    assert game.phase == "decide" and game.view(0).antes == (5, 1)
    game.apply(RAISE)
    game.apply(RAISE)
    assert game.total_rewards[0] == 5 * 3 - 1 * 3  # pair wins ante+raise at 1:1, 9-high loses 3 units


def test_single_ante_value_asks_no_ante_decision():
    game = CaribbeanStudGame(seed=1, ante_choices=3)
    assert game.phase == "decide" and game.num_actions == 2 and game.view(0).antes == (3,)


def test_several_hands_per_episode_reshuffle_and_accumulate():
    game = CaribbeanStudGame(seed=3, num_hands=4)
    for _ in range(4):
        assert not game.is_over
        game.apply(FOLD)
    assert game.is_over and game.total_rewards[0] == -4
    assert [e["hand"] for e in game.events if e["type"] == "showdown"] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "options, message",
    [
        ({"boxes": 4}, "boxes=4 is out of range"),
        ({"ante_choices": [1, 1]}, "distinct"),
        ({"ante_choices": [0]}, "positive"),
        ({"num_hands": 0}, "num_hands=0"),
        ({"box": 1}, "unknown option box"),
    ],
)
def test_bad_options_name_the_problem(options, message):
    with pytest.raises(ValueError, match=message):
        CaribbeanStudGame(seed=0, **options)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_vectorised_path_settles_exactly_like_the_env(seed):
    decks = simulate.deal_batch(np.random.default_rng(seed), 20)
    nets, raised = simulate.play_batch(decks, rules_of_thumb_batch)
    for deck, net, r in zip(decks.tolist(), nets.tolist(), raised.tolist()):
        game = CaribbeanStudGame(chance=ScriptedChance(shuffles=[deck]))
        game.apply(RAISE if r else FOLD)
        assert game.total_rewards[0] == net
