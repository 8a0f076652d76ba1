"""Exact category counts of Perico hands (5 and 6 cards, 54- and 56-card decks) for docs/games/perico.md.

    python benchmarks/perico_counts.py              # counts by hand class (seconds)
    python benchmarks/perico_counts.py --verify     # also enumerate every hand one by one (minutes)

The counts come from ``pokerzoo.envs.perico.enumeration.category_counts``: one
representative hand per class (natural rank multiset, joker count, all
naturals of one suit or not) ranked by the public rank system, weighted by the
number of hands in the class. ``--verify`` recounts by ranking all
C(54,5) + C(56,5) + C(54,6) + C(56,6) hands one at a time.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import Counter
from math import comb

from pokerzoo.envs.engine.cards import JOKERS
from pokerzoo.envs.engine.hands import get_system
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS
from pokerzoo.envs.perico.enumeration import category_counts
from pokerzoo.envs.perico.ranking import ranker_for

TABLES = [(5, 2), (5, 4), (6, 2), (6, 4)]


def enumerate_all(hand_size: int, jokers: int, wild: bool) -> dict[str, int]:
    ranker = ranker_for(hand_size == 6, wild)
    key = ranker.key
    deck = [*range(52), *JOKERS[:jokers]]
    seen = Counter(key(h) >> TIEBREAK_BITS for h in itertools.combinations(deck, hand_size))
    return {ranker.categories[i]: n for i, n in seen.items()}


def markdown(hand_size: int, wild_options: tuple[bool, ...]) -> str:
    system = get_system("perico6" if hand_size == 6 else "perico")
    cols = [(j, w) for j in (2, 4) for w in wild_options]
    counts = {(j, w): category_counts(hand_size, j, w) for j, w in cols}
    head = ["category"] + [
        f"52+{j} jokers" + ("" if w else ", no jokers in 5/6 of a kind") for j, w in cols
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for cat in system.categories[::-1]:
        row = [cat.replace("_", " ")] + [f"{counts[c][cat]:,}" for c in cols]
        lines.append("| " + " | ".join(row) + " |")
    lines.append("| total | " + " | ".join(f"{comb(52 + j, hand_size):,}" for j, _ in cols) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verify", action="store_true", help="also rank every hand one by one and compare")
    parser.add_argument(
        "--literal", action="store_true", help="add columns for jokers_in_five_of_a_kind=False"
    )
    args = parser.parse_args()
    wild_options = (True, False) if args.literal else (True,)
    for size in (5, 6):
        print(f"\n{size}-card hands\n")
        print(markdown(size, wild_options))
    if args.verify:
        for size, jokers in TABLES:
            start = time.perf_counter()
            full = enumerate_all(size, jokers, True)
            by_class = {c: n for c, n in category_counts(size, jokers).items() if n}
            status = "equal" if full == by_class else f"DIFFERENT: {full} vs {by_class}"
            print(
                f"full enumeration of C({52 + jokers},{size}) = {comb(52 + jokers, size):,} hands: "
                f"{status} ({time.perf_counter() - start:.0f} s)"
            )


if __name__ == "__main__":
    main()
