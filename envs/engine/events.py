"""Typed events: the facts about a game that code outside the rules reads, as frozen dataclasses.

A game's ``events`` list narrates everything that happened (for logs, hand
histories, replays and rendering); most entries are the game's own JSON-ready
dicts. The ones that evaluation and training read are typed here, so that they
are read by attribute, checked by isinstance and documented in one place,
rather than found by string keys that differ from game to game:

* ``UnitEnd``: one scored unit (a hand, a round, a deal) is over; evaluation
  counts them for per-unit means and reads the bids and tricks of games with
  bidding from them.

Every event is also a read-only mapping of its JSON form (``{"type": ..., ...}``),
the form hand histories store, so narrations and renderers read typed and
plain events alike, and an event compares equal to its JSON dict.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any


class Event(Mapping):
    """Base of the typed events; a subclass defines ``to_json``."""

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    @property
    def type(self) -> str:
        return self.to_json()["type"]

    def __getitem__(self, key: str) -> Any:
        return self.to_json()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_json())

    def __len__(self) -> int:
        return len(self.to_json())


@dataclass(frozen=True, eq=False)
class UnitEnd(Event):
    """A scored unit ended. ``kind`` is the game's name for it in histories (``"showdown"``,
    ``"deal_scored"``, ...), ``details`` the game's account of it (JSON-ready). In games with bids,
    ``bids`` and ``tricks`` hold one entry per seat (a bid is None where a seat did not bid, as in
    Raspisnoy's gold and misère deals); elsewhere they are None."""

    kind: str
    details: Mapping[str, Any]
    bids: tuple[int | None, ...] | None = None
    tricks: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, **self.details}

    def bid_results(self) -> list[tuple[int, int, int]]:
        """(seat, bid, tricks) for every seat that bid in this unit."""
        if self.bids is None or self.tricks is None:
            return []
        return [(s, int(b), int(t)) for s, (b, t) in enumerate(zip(self.bids, self.tricks)) if b is not None]
