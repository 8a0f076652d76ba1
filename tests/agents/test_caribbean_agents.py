"""Caribbean stud strategies: the rules of thumb case by case, and exact EV against a brute-force count."""

import itertools

import numpy as np
import pytest

from pokerzoo.agents.caribbean_stud import ExactEV, RulesOfThumb, raise_ev, rules_of_thumb_batch
from pokerzoo.agents.registry import make_agent
from pokerzoo.envs.caribbean_stud.game import FIRST_ANTE_ACTION, FOLD, RAISE, CaribbeanStudGame
from pokerzoo.envs.caribbean_stud.payouts import settle
from pokerzoo.envs.engine.cards import DECKS, ScriptedChance, parse_cards
from pokerzoo.envs.engine.hands import standard


def decide(box: str, up: str) -> bool:
    return bool(rules_of_thumb_batch(np.array([parse_cards(box)]), np.array(parse_cards(up)))[0])


@pytest.mark.parametrize(
    "box, up, raises",
    [
        ("2c 2d 7h 9s Jc", "Ah", True),  # any pair
        ("Qc Jd 9h 7s 5c", "2h", False),  # below Ace-King
        ("Ac Kd 8h 6s 3c", "8d", True),  # (a) dealer 2..Q matching one of ours
        ("Ac Kd 8h 6s 3c", "9d", False),  # no rule applies
        ("Ac Kd Jh 6s 3c", "Ad", True),  # (b) dealer A with our J
        ("Ac Kd Qh 6s 3c", "Kh", True),  # (b) dealer K with our Q
        ("Ac Kd Th 6s 3c", "Kh", False),  # dealer K, no Q or J
        ("Ac Kd Qh 8s 3c", "7d", True),  # (c) unmatched, our Q, dealer below our 4th card (8)
        ("Ac Kd Qh 6s 3c", "7d", False),  # (c) fails: 7 is not below our 4th card (6)
        ("Ac Kd Jh 8s 3c", "7d", False),  # (c) needs a queen
    ],
)
def test_rules_of_thumb_cases(box, up, raises):
    assert decide(box, up) is raises


def test_exact_ev_matches_a_brute_force_enumeration():
    box, up = parse_cards("Ac Kd 8h 6s 3c"), parse_cards("9d")[0]
    pool = [c for c in DECKS["52"].cards if c not in set(box) | {up}]
    box_key = standard.key5(*box)
    total, count = 0, 0
    for hidden in itertools.combinations(pool, 4):
        net, _ = settle(box_key, standard.key5(*hidden, up), True, 1)
        total += int(net)
        count += 1
    assert count == 163_185
    ev_raise, ev_fold = raise_ev(box, up)
    assert ev_raise == pytest.approx(total / count, abs=1e-12) and ev_fold == -1


def test_exact_ev_decisions():
    agent = ExactEV()  # its speed is measured in benchmarks/, never in a timed test
    game = CaribbeanStudGame(chance=ScriptedChance(shuffles=["Ac Ad 7h 4s 2c  Qd Jc 7d 4c 9h"]))
    assert agent.act(game.view(0), game.legal_mask()) == RAISE  # a pair of aces
    game = CaribbeanStudGame(chance=ScriptedChance(shuffles=["Qc Jd 9h 7s 5c  Ad Kc 7d 4c 2h"]))
    assert agent.act(game.view(0), game.legal_mask()) == FOLD


def test_exact_ev_uses_the_cards_of_earlier_boxes():
    # Box 1 holds three kings; deciding box 2, those kings cannot be in the dealer's hand.
    top = "Kc Kh Ks 2s 3c  Ac Kd Qh 6s 3d  Qd Jc 7d 4c 9s"
    game = CaribbeanStudGame(chance=ScriptedChance(shuffles=[top]), boxes=2)
    game.apply(RAISE)
    view = game.view(0)
    seen = list(view.box_cards[0])
    with_seen = raise_ev(list(view.box_cards[1]), view.dealer_up, seen)
    without = raise_ev(list(view.box_cards[1]), view.dealer_up)
    assert with_seen != without


def test_scripted_agents_bet_the_smallest_ante_and_are_registered():
    game = CaribbeanStudGame(seed=0, ante_choices=[2, 1, 5])
    assert RulesOfThumb().act(game.view(0), game.legal_mask()) == FIRST_ANTE_ACTION
    for name in ("always_raise", "raise_pair_plus", "rules_of_thumb", "exact_ev", "random"):
        agent = make_agent("caribbean_stud", name, seed=1)
        assert agent.act(game.view(0), game.legal_mask(), game) in game.legal_actions()


def _ev_by_evaluating_every_dealer_hand(box, up, seen=()):
    known = set(box) | {up} | set(seen)
    pool = np.array([c for c in DECKS["52"].cards if c not in known], dtype=np.int8)
    hidden = pool[np.array(list(itertools.combinations(range(len(pool)), 4)))]
    dealer = np.concatenate([hidden, np.full((len(hidden), 1), up, dtype=np.int8)], axis=1)
    net, _ = settle(standard.key_of(box), standard.keys_batch(dealer), True, 1)
    return float(net.mean())


@pytest.mark.parametrize("seed", range(4))
def test_grouped_exact_ev_equals_evaluating_every_dealer_hand(seed):
    rng = np.random.default_rng(seed)
    deck = rng.permutation(52).tolist()
    box, up, seen = deck[:5], deck[5], deck[6 : 6 + 5 * (seed % 3)]
    assert raise_ev(box, up, seen)[0] == pytest.approx(
        _ev_by_evaluating_every_dealer_hand(box, up, seen), abs=1e-12
    )
