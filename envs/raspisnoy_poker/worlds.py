"""Re-deal hidden cards consistently with what is publicly known (for ``determinize``).

Play reveals voids (a player who did not follow suit holds none of it) and,
under ``joker_lead_demands_highest``, ceilings (after a high joker lead the
follower's card was their highest of the suit). A re-deal must respect them,
or search agents would sample impossible worlds. The sampler is a random
greedy fill, most constrained seat first, with an exact bipartite matching as
the fallback, so it always succeeds (the real deal is one solution).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Constraint = tuple[int, tuple[int, ...]] | None  # (void bits, highest rank per suit), None: anything


def allowed(card: int, constraint: Constraint) -> bool:
    if constraint is None or card >= 65:
        return True
    voids, ceilings = constraint
    s = card // 13
    return not (voids >> s) & 1 and card % 13 <= ceilings[s]


def redeal(zones: Sequence[list[int]], constraints: Sequence[Constraint], rng: np.random.Generator) -> None:
    """Shuffle the cards of ``zones`` among them in place, keeping each zone's size and constraint."""
    # Sorted, so the sample depends only on which cards are hidden and on rng, never on where they lie.
    pool = sorted(c for z in zones for c in z)
    if len(pool) < 2:
        return
    order = [pool[i] for i in rng.permutation(len(pool))]
    if all(c is None for c in constraints) or all(
        allowed(card, k) for card in pool for k in constraints if k is not None
    ):
        start = 0
        for z in zones:
            z[:] = order[start : start + len(z)]
            start += len(z)
        return
    for _ in range(4):
        filled = _greedy(order, zones, constraints)
        if filled is not None:
            break
        order = [pool[i] for i in rng.permutation(len(pool))]
    else:
        filled = _matching(order, zones, constraints, rng)
    for z, cards in zip(zones, filled):
        z[:] = cards


def _greedy(order: list[int], zones: Sequence[list[int]], constraints: Sequence[Constraint]) -> list | None:
    def tightness(i: int) -> float:
        k = constraints[i]
        if k is None:
            return float("inf")
        return sum(allowed(c, k) for c in order) - len(zones[i])

    remaining = list(order)
    filled: list[list[int] | None] = [None] * len(zones)
    for i in sorted(range(len(zones)), key=tightness):
        need = len(zones[i])
        take = [c for c in remaining if allowed(c, constraints[i])][:need]
        if len(take) < need:
            return None
        taken = set(take)
        remaining = [c for c in remaining if c not in taken]
        filled[i] = take
    return filled


def _matching(
    order: list[int], zones: Sequence[list[int]], constraints: Sequence[Constraint], rng: np.random.Generator
) -> list[list[int]]:
    """Kuhn's augmenting paths: every card gets a slot (a perfect matching exists: the real deal)."""
    slots = [i for i, z in enumerate(zones) for _ in z]
    slot_order = rng.permutation(len(slots)).tolist()
    owner: list[int | None] = [None] * len(slots)  # slot -> index into order

    def place(ci: int, seen: set[int]) -> bool:
        for si in slot_order:
            if si in seen or not allowed(order[ci], constraints[slots[si]]):
                continue
            seen.add(si)
            if owner[si] is None or place(owner[si], seen):
                owner[si] = ci
                return True
        return False

    for ci in range(len(order)):
        if not place(ci, set()):
            raise RuntimeError("no consistent re-deal exists; the known voids contradict the cards")
    filled: list[list[int]] = [[] for _ in zones]
    for si, ci in enumerate(owner):
        filled[slots[si]].append(order[ci])
    return filled
