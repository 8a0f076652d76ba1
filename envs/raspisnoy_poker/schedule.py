"""Deal kinds and the order of deals (option ``schedule``).

``classic`` (RULES.md §4): normal deals from ``start_cards`` upwards, each card
count dealt once by every player in turn, one more card after each full
circle, up to ⌊deck / players⌋; then one full circle of each special deal with
that many cards, in the order no-trump, dark, gold, misère; then one circle of
forehead deals (one card each). ``single``: one deal per episode, an entry of
the classic schedule drawn uniformly (for training). An explicit list of
``(cards, kind)`` entries (or bare ints for normal deals) is validated here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

NORMAL, NO_TRUMP, DARK, GOLD, MISERE, FOREHEAD = "normal", "no_trump", "dark", "gold", "misere", "forehead"
KINDS = (NORMAL, NO_TRUMP, DARK, GOLD, MISERE, FOREHEAD)
SPECIAL_ORDER = (NO_TRUMP, DARK, GOLD, MISERE)
NO_BIDDING = frozenset({GOLD, MISERE})
# The letters of the paper score sheet (seed): Б, Т, З, М, Л; normal deals show the card count.
SHEET_LETTERS = {NORMAL: "", NO_TRUMP: "Б", DARK: "Т", GOLD: "З", MISERE: "М", FOREHEAD: "Л"}
_ALIASES = {
    "no-trump": NO_TRUMP,
    "notrump": NO_TRUMP,
    "nt": NO_TRUMP,
    "misère": MISERE,
    "mizer": MISERE,
}

Entry = tuple[int, str]


def kind_name(text: str) -> str:
    k = text.strip().lower()
    k = _ALIASES.get(k, k)
    if k not in KINDS:
        raise ValueError(f"unknown deal kind {text!r}; kinds: {', '.join(KINDS)}")
    return k


def parse_schedule(value: Any) -> str | tuple[Entry, ...]:
    """Option converter: ``"classic"``, ``"single"`` or a list of ``(cards, kind)`` / ``cards`` entries."""
    if isinstance(value, str):
        if value in ("classic", "single"):
            return value
        raise ValueError("expected 'classic', 'single' or a list of (cards, kind) entries")
    if not isinstance(value, Sequence) or not value:
        raise ValueError("expected 'classic', 'single' or a non-empty list of (cards, kind) entries")
    entries = []
    for i, item in enumerate(value):
        if isinstance(item, int) and not isinstance(item, bool):
            cards, kind = item, NORMAL
        elif isinstance(item, Sequence) and not isinstance(item, str) and len(item) == 2:
            cards, kind = item
            if not isinstance(kind, str):
                raise ValueError(f"entry {i} {item!r}: the kind must be a string, one of {', '.join(KINDS)}")
            kind = kind_name(kind)
        else:
            raise ValueError(f"entry {i} {item!r}: expected (cards, kind) or an int")
        if isinstance(cards, bool) or not isinstance(cards, int) or cards < 1:
            raise ValueError(f"entry {i} {item!r}: cards must be a positive int")
        if kind == FOREHEAD and cards != 1:
            raise ValueError(f"entry {i} {item!r}: forehead deals have exactly 1 card each")
        entries.append((cards, kind))
    return tuple(entries)


def max_cards(deck_size: int, num_players: int) -> int:
    return deck_size // num_players


def classic(num_players: int, deck_size: int, start_cards: int) -> tuple[Entry, ...]:
    top = max_cards(deck_size, num_players)
    if start_cards > top:
        raise ValueError(
            f"start_cards={start_cards} is more than the {top} cards each of {num_players} players "
            f"can get from a {deck_size}-card deck"
        )
    entries: list[Entry] = []
    for cards in range(start_cards, top + 1):
        entries += [(cards, NORMAL)] * num_players
    for kind in SPECIAL_ORDER:
        entries += [(top, kind)] * num_players
    entries += [(1, FOREHEAD)] * num_players
    return tuple(entries)


def check_entries(entries: Sequence[Entry], num_players: int, deck_size: int) -> None:
    top = max_cards(deck_size, num_players)
    for i, (cards, _) in enumerate(entries):
        if cards > top:
            raise ValueError(
                f"option schedule: entry {i} deals {cards} cards each, but {num_players} players "
                f"get at most {top} from a {deck_size}-card deck"
            )
