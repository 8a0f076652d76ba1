"""The score sheet of one round (RULES.md §1): the prediction line plus the doubt chips.

Kept as pure functions of predictions, tricks and doubts so that every line of
the table is tested on its own and the game, the docs and the agents'
expectations use one definition.
"""

from __future__ import annotations

from collections.abc import Sequence

NO_DOUBT = -2  # chip not placed yet
PASSED = -1  # chip kept back (only with doubt_pass)


def prediction_line(prediction: int, tricks: int, total_tricks: int) -> int:
    """Points of one player's prediction ``p`` with ``t`` tricks out of the round's ``T``.

    p > 0: t > p -> +p; t = p -> +2p; t < p -> -(p - t).
    p = 0: t = 0 -> +T (every trick of the round); t > 0 -> -t.
    """
    p, t = prediction, tricks
    if p == 0:
        return total_tricks if t == 0 else -t
    if t > p:
        return p
    if t == p:
        return 2 * p
    return -(p - t)


def doubt_result(target_prediction: int, target_tricks: int) -> int:
    """+1 to the doubter when the doubted player missed the prediction exactly, -1 otherwise."""
    return 1 if target_tricks != target_prediction else -1


def round_scores(
    predictions: Sequence[int], tricks: Sequence[int], doubts: Sequence[int]
) -> tuple[list[int], list[int]]:
    """(prediction line, doubt points) per seat; ``doubts[s]`` is the seat s doubted, or PASSED / NO_DOUBT."""
    total = sum(tricks)
    lines = [prediction_line(p, t, total) for p, t in zip(predictions, tricks)]
    doubt_points = [
        doubt_result(predictions[target], tricks[target]) if target >= 0 else 0 for target in doubts
    ]
    return lines, doubt_points
