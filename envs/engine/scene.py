"""Scenes: a game's table at one moment, as one viewpoint may see it, in plain JSON for the browser.

Every game draws its table through the same small vocabulary, so that one
JavaScript renderer (``pokerzoo/evaluation/web/scene.js``) draws all five
games, in the hand-history viewer and in ``pokerzoo serve`` alike. A game's
``scene(viewer)`` builds it (``envs/<game>/scene.py``): ``viewer`` is a seat,
and then the scene is made from that seat's ``view`` and the public facts
only (showdowns, the discard pile, the score sheet), or None for the
explicit all-cards viewpoint of a replay. A seat's scene never holds a card
that seat cannot see: the tests re-deal the hidden cards (``determinize``)
and require the same scene.

A scene::

    {"title": str, "status": str, "viewer": seat or None,
     "seats": [{"seat": 0, "marks": ["dealer", "to act", "you"], "out": "folded" | "",
                "facts": [["score", "2"], ...], "rows": [row, ...]}, ...],
     "center": [row, ...],            # board, pile, trick, dealer's hand ...
     "facts": [["Stock", "23 cards"], ...],
     "tables": [{"title": str, "head": [str, ...], "rows": [[str, ...], ...]}],
     "last": {"title": str, "rows": [row, ...]} or None}   # the latest showdown / scoring

A row is ``{"label": str, "cards": [card, ...], "note": str}``; a card is
``{"c": "As", "r": "A", "s": "s"}`` face up (``s`` a suit letter of its deck:
``shdc``, or Mexican poker's ``mlbtq``), ``{"c": "RJ", "j": "red"}`` for a
joker, or ``{"down": 1}`` face down; optional keys: ``corners`` ([board
size, hand size], Mexican poker), ``wild`` (plays as any card), ``print``
(what is printed on a stand-in joker, the 34-card deck's 6h / 6s), ``tag``
(a caption: who played it, its declaration), ``hi`` (highlighted: the card
just drawn, the winning play).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pokerzoo.envs.engine.cards import (
    BLACK_JOKER,
    BLACK_JOKER_2,
    DECKS,
    JOKER_NAMES,
    RANK_CHARS,
    format_card,
    parse_cards,
)

FACE_DOWN: dict[str, int] = {"down": 1}
_BLACK_JOKERS = (BLACK_JOKER, BLACK_JOKER_2)


def card(
    c: int,
    deck: str = "52",
    *,
    wild: bool = False,
    tag: str = "",
    hi: bool = False,
    corners: Sequence[int] | None = None,
) -> dict[str, Any]:
    """The face-up card ``c`` of deck ``deck`` as the renderer draws it."""
    spec = DECKS[deck]
    if c in JOKER_NAMES:
        out: dict[str, Any] = {"c": JOKER_NAMES[c], "j": "black" if c in _BLACK_JOKERS else "red"}
        if c in spec.joker_stand_ins:
            out["print"] = spec.joker_stand_ins[c]
    else:
        out = {"c": format_card(c, spec.suit_chars), "r": RANK_CHARS[c % 13], "s": spec.suit_chars[c // 13]}
    if wild:
        out["wild"] = 1
    if tag:
        out["tag"] = tag
    if hi:
        out["hi"] = 1
    if corners is not None:
        out["corners"] = [int(x) for x in corners]
    return out


def cards(
    ids: Iterable[int], deck: str = "52", *, wild: Callable[[int], bool] | None = None, **kw: Any
) -> list[dict[str, Any]]:
    """Face-up cards; ``wild(card)`` marks the ones that play wild."""
    return [card(c, deck, wild=bool(wild and wild(c)), **kw) for c in ids]


def named(text: str, deck: str = "52", **kw: Any) -> list[dict[str, Any]]:
    """Face-up cards from their text (``"As Kd RJ"``), as events and outcomes store them."""
    return cards(parse_cards(text, DECKS[deck].suit_chars), deck, **kw)


def down(n: int, tag: str = "") -> list[dict[str, Any]]:
    """``n`` face-down cards (how many is public, which is not)."""
    return [{"down": 1, "tag": tag} if tag else dict(FACE_DOWN) for _ in range(n)]


def row(label: str, card_list: Sequence[dict] = (), note: str = "") -> dict[str, Any]:
    return {"label": label, "cards": list(card_list), "note": note}


def seat(
    number: int, facts: Sequence[tuple[str, Any]], rows: Sequence[dict], marks: Sequence[str] = (), out: str = ""
) -> dict[str, Any]:
    return {
        "seat": number,
        "marks": list(marks),
        "out": out,
        "facts": [[k, str(v)] for k, v in facts],
        "rows": list(rows),
    }


def marks(number: int, *, viewer: int | None, to_act: int | None, dealer: int | None = None) -> list[str]:
    """The usual seat marks: dealer (or token), to act, you."""
    out = []
    if dealer is not None and number == dealer:
        out.append("dealer")
    if to_act is not None and number == to_act:
        out.append("to act")
    if viewer is not None and number == viewer:
        out.append("you")
    return out


def scene(
    title: str,
    status: str,
    viewer: int | None,
    seats: Sequence[dict],
    center: Sequence[dict] = (),
    facts: Sequence[tuple[str, Any]] = (),
    tables: Sequence[dict] = (),
    last: dict | None = None,
) -> dict[str, Any]:
    return {
        "title": title,
        "status": status,
        "viewer": viewer,
        "seats": list(seats),
        "center": list(center),
        "facts": [[k, str(v)] for k, v in facts],
        "tables": list(tables),
        "last": last,
    }


def to_act_status(phase: str, current_player: int | None, over: bool) -> str:
    if over or current_player is None:
        return "game over"
    return f"P{current_player} to act ({phase})"


def face_names(node: Any) -> list[str]:
    """Every face-up card name in a scene (or any part of one): what the leak tests and the browser tests read."""
    found: list[str] = []
    if isinstance(node, dict):
        if "c" in node and isinstance(node["c"], str) and ("r" in node or "j" in node):
            found.append(node["c"])
        for value in node.values():
            found.extend(face_names(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(face_names(value))
    return found
