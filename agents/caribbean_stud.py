"""Caribbean stud strategies: three published rules of play and the exact-EV optimal player.

Every strategy is written once as a vectorised ``raise_batch(box_cards, dealer_up)``
so the same decision code drives the agent in the env (one row) and the
house-edge measurement (millions of rows); ``exact_ev`` instead enumerates
every dealer hand consistent with what it has seen, per decision.

Ante decisions (only with several ``ante_choices``): every scripted strategy
bets the smallest ante, since each loses money per ante on average.
"""

from __future__ import annotations

import itertools
from typing import ClassVar

import numpy as np

from pokerzoo.agents.base import Agent
from pokerzoo.envs.caribbean_stud.game import FIRST_ANTE_ACTION, FOLD, RAISE, CaribbeanView
from pokerzoo.envs.caribbean_stud.payouts import QUALIFY_KEY, settle
from pokerzoo.envs.engine.cards import RANK_OF
from pokerzoo.envs.engine.hands import standard
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS, pack

ACE, KING, QUEEN, JACK = 12, 11, 10, 9
PAIR_KEY = pack(standard.PAIR)


def _keys(box_cards: np.ndarray) -> np.ndarray:
    return standard.keys_batch(box_cards)


def _is_ace_king_high(keys: np.ndarray, ranks_desc: np.ndarray) -> np.ndarray:
    return (
        ((keys >> TIEBREAK_BITS) == standard.HIGH_CARD)
        & (ranks_desc[:, 0] == ACE)
        & (ranks_desc[:, 1] == KING)
    )


def always_raise_batch(box_cards: np.ndarray, dealer_up: np.ndarray) -> np.ndarray:
    return np.ones(len(box_cards), dtype=bool)


def raise_pair_plus_batch(box_cards: np.ndarray, dealer_up: np.ndarray) -> np.ndarray:
    return _keys(box_cards) >= PAIR_KEY


def rules_of_thumb_batch(box_cards: np.ndarray, dealer_up: np.ndarray) -> np.ndarray:
    """The published three rules of thumb (RULES.md §5).

    Raise any pair or better; fold below Ace-King; with Ace-King high raise if
    (a) the dealer's card is 2..Q and matches one of yours, or (b) the dealer's
    card is A or K and you hold a Q or J, or (c) the dealer's rank is not in
    your hand, you hold a Q, and the dealer's card is lower than your
    fourth-highest card.
    """
    box_cards = np.asarray(box_cards)
    keys = _keys(box_cards)
    ranks = np.sort(RANK_OF[box_cards], axis=1)[:, ::-1]
    up = RANK_OF[np.asarray(dealer_up)][:, None]
    matches = (ranks == up).any(axis=1)
    has_q = (ranks == QUEEN).any(axis=1)
    has_j = (ranks == JACK).any(axis=1)
    up = up[:, 0]
    rule_a = (up <= QUEEN) & matches
    rule_b = (up >= KING) & (has_q | has_j)
    rule_c = ~matches & has_q & (up < ranks[:, 3])
    return (keys >= PAIR_KEY) | (_is_ace_king_high(keys, ranks) & (rule_a | rule_b | rule_c))


class CaribbeanAgent(Agent):
    """Plays a box by a vectorised rule; bets the smallest ante."""

    def raise_box(self, view: CaribbeanView) -> bool:
        raise NotImplementedError

    def act(self, view: CaribbeanView, mask: np.ndarray, game=None) -> int:
        if view.phase == "ante":
            return FIRST_ANTE_ACTION  # the smallest ante (choices are sorted)
        return RAISE if self.raise_box(view) else FOLD


class RuleAgent(CaribbeanAgent):
    rule = staticmethod(always_raise_batch)

    def raise_box(self, view: CaribbeanView) -> bool:
        box = np.array([view.box_cards[view.box]])
        return bool(self.rule(box, np.array([view.dealer_up]))[0])


class AlwaysRaise(RuleAgent):
    name = "always_raise"
    rule = staticmethod(always_raise_batch)


class RaisePairPlus(RuleAgent):
    name = "raise_pair_plus"
    rule = staticmethod(raise_pair_plus_batch)


class RulesOfThumb(RuleAgent):
    name = "rules_of_thumb"
    rule = staticmethod(rules_of_thumb_batch)


class DealerHands:
    """Every dealer hand holding a given up card, sorted by strength, with its hidden cards as a bitmask.

    Built once per up card (249,900 hands), this turns an exact-EV decision into
    a mask test (which hands avoid the cards already seen) and a few binary
    searches, instead of evaluating 163,185 hands each time.
    """

    _cache: ClassVar[dict[int, tuple[np.ndarray, np.ndarray]]] = {}

    @classmethod
    def for_up_card(cls, up: int) -> tuple[np.ndarray, np.ndarray]:
        if up not in cls._cache:
            others = np.array([c for c in range(52) if c != up], dtype=np.int8)
            hidden = others[np.array(list(itertools.combinations(range(51), 4)), dtype=np.int16)]
            hands = np.concatenate([hidden, np.full((len(hidden), 1), up, dtype=np.int8)], axis=1)
            keys = standard.keys_batch(hands)
            masks = np.bitwise_or.reduce(np.left_shift(np.uint64(1), hidden.astype(np.uint64)), axis=1)
            order = np.argsort(keys, kind="stable")
            cls._cache[up] = (keys[order], masks[order])
        return cls._cache[up]


def single_box_view(box: list[int], dealer_up: int) -> CaribbeanView:
    """The view of a one-box, ante-1 hand at its decision: what an agent sees in the env, built from the cards
    alone (the policy-gap benchmark and the exact-EV fine-tune score hands without playing them)."""
    return CaribbeanView(
        player=0, num_players=1, phase="decide", current_player=0, hand_number=0, num_hands=1, boxes=1,
        box=0, ante_choices=(1,), antes=(1,), decisions=(-1,), box_cards=(tuple(box),), dealer_up=dealer_up,
    )  # fmt: skip


def raise_ev(box: list[int], dealer_up: int, seen: list[int] = (), ante: int = 1) -> tuple[float, float]:
    """(EV of raising, EV of folding) for one box, averaged over every consistent dealer hand.

    The dealer's four hidden cards are any four of the cards not seen (the box,
    the dealer's up card and earlier boxes): 163,185 hands for one box. Hands
    are grouped by how they settle against this box (dealer not qualified,
    box better, tie, dealer better) and each group is settled by ``settle``.
    """
    keys, masks = DealerHands.for_up_card(dealer_up)
    excluded = np.uint64(sum(1 << c for c in {*box, *seen}))
    valid = np.cumsum((masks & excluded) == 0)
    total = int(valid[-1])

    def count_below(key: int) -> int:
        i = int(np.searchsorted(keys, key, side="left"))
        return int(valid[i - 1]) if i else 0

    box_key = standard.key_of(box)
    not_qualified = count_below(QUALIFY_KEY)
    below_box = count_below(box_key)
    up_to_box = count_below(box_key + 1)
    groups = {  # representative dealer key -> number of consistent dealer hands settling like it
        QUALIFY_KEY - 1: not_qualified,
        box_key: max(up_to_box - max(below_box, not_qualified), 0),  # qualified exact ties
        max(box_key + 1, QUALIFY_KEY): total - max(up_to_box, not_qualified),  # qualified, dealer better
    }
    if box_key > QUALIFY_KEY:
        groups[QUALIFY_KEY] = below_box - not_qualified  # qualified, box better
    rep = np.array(list(groups), dtype=np.int64)
    net, _ = settle(box_key, rep, True, ante)
    ev = float(np.dot(net, np.array(list(groups.values()), dtype=np.float64))) / total
    return ev, float(-ante)


class ExactEV(CaribbeanAgent):
    """Raises exactly when the enumerated expected value of raising beats folding's −ante."""

    name = "exact_ev"

    def raise_box(self, view: CaribbeanView) -> bool:
        seen = [c for b, cards in enumerate(view.box_cards) if b != view.box for c in cards]
        ante = view.antes[view.box] or 1
        ev_raise, ev_fold = raise_ev(list(view.box_cards[view.box]), view.dealer_up, seen, ante)
        return ev_raise > ev_fold


STRATEGY_BATCH = {
    "always_raise": always_raise_batch,
    "raise_pair_plus": raise_pair_plus_batch,
    "rules_of_thumb": rules_of_thumb_batch,
}

AGENTS = {
    "always_raise": AlwaysRaise,
    "raise_pair_plus": RaisePairPlus,
    "rules_of_thumb": RulesOfThumb,
    "exact_ev": ExactEV,
}
