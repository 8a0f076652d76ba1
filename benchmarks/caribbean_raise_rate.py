"""exact_ev's raise rate over every one-box deal, computed exactly (not sampled).

    .venv/bin/python benchmarks/caribbean_raise_rate.py        # about 10 minutes on one core

Only Ace-King-high hands need an enumeration: exact_ev raises every pair or
better and folds everything below Ace-King (checked on 100,000 random deals
by caribbean_house_edge.py, and by hand in the tests). The 167,280
Ace-King-high hands times 47 dealer up cards fall into 353,420 classes under
relabelling of the suits; each class's decision is computed once by the same
``raise_ev`` the agent uses and weighted by the class size.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
from tqdm import tqdm

from pokerzoo.agents.caribbean_stud import PAIR_KEY, raise_ev
from pokerzoo.envs.caribbean_stud.payouts import SYSTEM
from pokerzoo.envs.engine.hands import standard

ALL_HANDS = 2_598_960


def suit_class(hand: list[int], up: int) -> tuple:
    """The (box, up card) pair up to a relabelling of the suits: the sorted per-suit descriptions."""
    per_suit = [[] for _ in range(4)]
    for c in hand:
        per_suit[c // 13].append(c % 13)
    return tuple(sorted((tuple(sorted(per_suit[s])), up % 13 if up // 13 == s else -1) for s in range(4)))


def main() -> None:
    hands = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), 5)), dtype=np.int8)
    hands = hands.reshape(-1, 5)
    keys = standard.keys_batch(hands)
    ace_king = hands[(keys >= SYSTEM.ACE_KING_MIN) & (keys < PAIR_KEY)].tolist()
    classes: Counter = Counter()
    example: dict[tuple, tuple[list[int], int]] = {}
    for hand in tqdm(ace_king, desc="classes", unit="hand"):
        held = set(hand)
        for up in range(52):
            if up not in held:
                k = suit_class(hand, up)
                classes[k] += 1
                example.setdefault(k, (hand, up))
    raised = 0
    for k, n in tqdm(classes.items(), desc="exact EV per class", unit="class"):
        ev_raise, ev_fold = raise_ev(*example[k])
        raised += n * (ev_raise > ev_fold)
    pairs_or_better = int((keys >= PAIR_KEY).sum())
    rate = (pairs_or_better * 47 + raised) / (ALL_HANDS * 47)
    print(f"Ace-King-high hands: {len(ace_king):,}; (hand, up card) pairs: {sum(classes.values()):,}; "
          f"suit classes: {len(classes):,}")
    print(f"exact_ev raises {raised / sum(classes.values()):.6%} of Ace-King-high deals")
    print(f"exact_ev raise rate over all one-box deals: {rate:.6%} (published optimal: 52.2255%)")


if __name__ == "__main__":
    main()
