"""The comparable result of evaluating a hand, and the key layout every rank system shares.

A hand's strength is one Python int: the category index in the high bits and
tie-break ranks below it, one nibble each. Integers compare in a single
operation, fit numpy arrays for batch work, and keep sorting and equality
(ties) exact, which is what showdowns and equity simulations need.
"""

from __future__ import annotations

from functools import total_ordering

TIEBREAK_BITS = 28  # up to seven nibbles of tie-break below the category


def pack(category: int, ranks: tuple[int, ...] | list[int] = ()) -> int:
    """Category index plus tie-break nibbles (each 0..15, most significant first)."""
    key = 0
    for r in ranks:
        key = (key << 4) | r
    key <<= 4 * (7 - len(ranks))
    return (category << TIEBREAK_BITS) | key


def category_index(key: int) -> int:
    return key >> TIEBREAK_BITS


@total_ordering
class HandValue:
    """A hand's strength under one rank system; ``<``/``==`` compare strength only.

    A slotted class rather than a dataclass: showdowns create many of these and
    a frozen dataclass's ``__init__`` costs several times more.
    """

    __slots__ = ("category", "key", "system")

    def __init__(self, key: int, category: str, system: str):
        self.key = key
        self.category = category
        self.system = system

    def _other_key(self, other: object) -> int:
        if not isinstance(other, HandValue):
            return NotImplemented  # type: ignore[return-value]
        if other.system != self.system:
            raise TypeError(f"cannot compare a {self.system!r} hand with a {other.system!r} hand")
        return other.key

    def __eq__(self, other: object) -> bool:
        k = self._other_key(other)
        return k if k is NotImplemented else self.key == k

    def __lt__(self, other: HandValue) -> bool:
        k = self._other_key(other)
        return k if k is NotImplemented else self.key < k

    def __hash__(self) -> int:
        return hash((self.system, self.key))

    def __repr__(self) -> str:
        return f"HandValue(key={self.key:#x}, category={self.category!r}, system={self.system!r})"

    def __str__(self) -> str:
        return self.category.replace("_", " ")
