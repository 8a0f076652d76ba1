"""Points of one deal (RULES.md §4, scoring), the same code for the env, agents and tests."""

from __future__ import annotations

from pokerzoo.envs.raspisnoy_poker.schedule import DARK, FOREHEAD, GOLD, MISERE


def normal_points(bid: int, tricks: int) -> int:
    """Normal and no-trump deals: exact 10 per trick (exact 0: 5), over 1 per trick, under −10 per missing."""
    if tricks == bid:
        return 10 * tricks if bid > 0 else 5
    if tricks > bid:
        return tricks
    return -10 * (bid - tricks)


def forehead_points(bid: int, tricks: int) -> int:
    return {(1, 1): 50, (0, 0): 5, (0, 1): 1, (1, 0): -50}[(bid, tricks)]


def deal_points(kind: str, bid: int, tricks: int, dark_multiplier: float = 2) -> float:
    """Score of one player for one deal; ``bid`` is ignored in gold and misère deals."""
    if kind == GOLD:
        return 10 * tricks
    if kind == MISERE:
        return -10 * tricks
    if kind == FOREHEAD:
        return forehead_points(bid, tricks)
    points = normal_points(bid, tricks)
    return points * dark_multiplier if kind == DARK else points
