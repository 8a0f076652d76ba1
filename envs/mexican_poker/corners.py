"""The corner numbers of the 65-card deck: board size B and hand size H printed on every card.

The published game prints two numbers on each card with B + H = 8, using the
pairs (1,7) (2,6) (3,5) (4,4) (5,3). Which card carries which pair is not in
the seed, so RULES.md §1 resolves it: each pair is on 13 cards, and by default
the card of suit index s and rank index r (2 -> 0 ... A -> 12) carries pair
number (r + s) mod 5. The option ``corner_table`` replaces that table.
"""

from __future__ import annotations

from collections.abc import Sequence

PAIRS: tuple[tuple[int, int], ...] = ((1, 7), (2, 6), (3, 5), (4, 4), (5, 3))  # (board size B, hand size H)
DEFAULT = "rank_plus_suit"
NUM_CARDS = 65


def rank_plus_suit() -> tuple[int, ...]:
    """The default table: pair number (rank + suit) mod 5, indexed by card id (suit * 13 + rank)."""
    return tuple((card % 13 + card // 13) % 5 for card in range(NUM_CARDS))


def resolve(value: str | Sequence) -> tuple[int, ...]:
    """A ``corner_table`` option value as 65 pair numbers (0..4) indexed by card id.

    Accepted: ``"rank_plus_suit"`` (the default table); a string of 65 digits
    0..4; or a sequence of 65 entries, each a pair number 0..4 or a pair
    ``(B, H)`` from PAIRS. Entries are by card id, suit * 13 + rank, suits in the
    order m l b t q (Mariachi, Luchadores, Bandidos, Toreadores, Conquistadores).
    """
    if isinstance(value, str):
        if value == DEFAULT:
            return rank_plus_suit()
        text = value.strip()
        if len(text) != NUM_CARDS or any(ch not in "01234" for ch in text):
            raise ValueError(
                f"expected {DEFAULT!r}, a string of 65 digits 0..4, or a sequence of 65 pair numbers "
                "0..4 / (B, H) pairs, indexed by card id"
            )
        return tuple(int(ch) for ch in text)
    if isinstance(value, Sequence) and len(value) == NUM_CARDS:
        out = []
        for card, entry in enumerate(value):
            if isinstance(entry, int) and not isinstance(entry, bool) and 0 <= entry < len(PAIRS):
                out.append(entry)
            elif isinstance(entry, Sequence) and tuple(entry) in PAIRS:
                out.append(PAIRS.index(tuple(entry)))
            else:
                raise ValueError(
                    f"entry {card} is {entry!r}; each entry is a pair number 0..4 or one of the pairs "
                    f"{', '.join(str(p) for p in PAIRS)} (board size, hand size)"
                )
        return tuple(out)
    raise ValueError(
        f"expected {DEFAULT!r}, a string of 65 digits 0..4, or a sequence of 65 pair numbers "
        "0..4 / (B, H) pairs, indexed by card id"
    )
