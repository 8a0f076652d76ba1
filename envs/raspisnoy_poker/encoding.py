"""Raspisnoy poker observation vector: float32, seats relative to the observer.

The layout is ``schema(num_players)`` below, one ``Piece`` per block with its
meaning and bounds; the docs' table (the env's help page,
``docs/games/raspisnoy_poker.md``) is rendered from it, with offsets written
in ``N = num_players``. Card slots (54): natural card id ``suit * 13 + rank``
(s, h, d, c; 2..A) → slot id; red joker → 52, black joker → 53 (in the
34-card deck: the 6♥ and 6♠). Seat blocks are indexed by relative seat
``r = (seat − me) mod N``: r = 0 is the observer, r = 1 the next player
clockwise.

A forehead joker waiting for its declaration shows in the current trick
without a declaration flag. Score totals are not bounded (their entries'
bounds are ±inf); every other entry lies in [0, 1]. Ceilings from the ``joker_lead_demands_highest``
variant are in the view, not in this vector.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from pokerzoo.envs.engine.schema import Piece, Schema
from pokerzoo.envs.engine.tricks import HIGH, LOW
from pokerzoo.envs.raspisnoy_poker.schedule import KINDS

CARD_SLOTS = 54
SLOT = np.array([c if c < 52 else (52 + c - 65 if c in (65, 66) else -1) for c in range(69)], dtype=np.int64)
_SLOT = SLOT.tolist()
_KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
_PHASE_INDEX = {"bid": 0, "play": 1, "declare": 2}


TRICK_SLOT = CARD_SLOTS + 2  # a card of the current trick, then its declaration: high, low


@lru_cache(maxsize=16)
def schema(n: int) -> Schema:
    """The layout for ``n`` players (``186 + 120·n`` entries: 666 for 4 players, 1386 for 10)."""
    return Schema(
        [
            Piece("hand", CARD_SLOTS, "own hand (all zero while hidden: dark bidding, forehead)"),
            Piece("played", CARD_SLOTS, "cards played in the finished tricks of this deal"),
            Piece(
                "trick",
                (n, TRICK_SLOT),
                "current trick per relative seat: card played (54), declared high, declared low",
            ),
            Piece("led", 5, "led suit of the current trick: s, h, d, c, none"),
            Piece("trump", 5, "trump suit: s, h, d, c, none"),
            Piece("trump_card", CARD_SLOTS, "the card shown to fix the trump (whole deck: it went back in)"),
            Piece("visible", (n, CARD_SLOTS), "forehead deals: the others' cards seen, per relative seat"),
            Piece("bids", n, "bids / max_cards (0 when not bid)"),
            Piece("has_bid", n, "that seat has bid"),
            Piece("tricks", n, "tricks taken this deal / max_cards"),
            Piece("voids", (n, 4), "known voids: seat r holds no card of suit s (from play)"),
            Piece("totals", n, "score sheet totals / 100", low=-np.inf, high=np.inf),
            Piece("kind", len(KINDS), "deal kind: " + ", ".join(KINDS)),
            Piece("cards", 1, "cards per player this deal / max_cards"),
            Piece("whole", 1, "the whole deck is dealt"),
            Piece("hidden", 1, "the own hand is hidden from the observer"),
            Piece("phase", len(_PHASE_INDEX), "phase: " + ", ".join(_PHASE_INDEX) + " (all zero once over)"),
            Piece("dealer", n, "dealer, one-hot by relative seat"),
            Piece("leader", n, "leader of the current trick, one-hot by relative seat"),
            Piece("progress", 1, "deals finished / deals in the episode"),
            Piece("remaining", 1, "tricks still to play this deal / max_cards"),
        ]
    )


@lru_cache(maxsize=16)
def _tables(n: int) -> tuple:
    """For ``n`` players: the size, the offsets, and the entry each card id sets in the card blocks
    (hand, played, the current trick and the forehead cards per relative seat), computed once."""
    layout = schema(n)
    o = layout.offsets

    def entries(start: int) -> list[int]:
        return [start + s for s in _SLOT]

    trick = [o["trick"] + TRICK_SLOT * r for r in range(n)]
    visible = [entries(o["visible"] + CARD_SLOTS * r) for r in range(n)]
    return layout.size, o, entries(o["hand"]), entries(o["played"]), [entries(t) for t in trick], trick, visible


def encode(view) -> np.ndarray:
    n = view.num_players
    me = view.player
    size, o, hand, played, trick_cards, trick, visible = _tables(n)
    obs = np.zeros(size, dtype=np.float32)
    ones = [hand[c] for c in view.hand]
    for t in view.done_tricks:
        ones += [played[p.card] for p in t]
    for p in view.trick:
        r = (p.seat - me) % n
        ones.append(trick_cards[r][p.card])
        if p.decl == HIGH:
            ones.append(trick[r] + CARD_SLOTS)
        elif p.decl == LOW:
            ones.append(trick[r] + CARD_SLOTS + 1)
    if view.pending_joker >= 0 and view.current_player is not None:
        ones.append(trick_cards[(view.current_player - me) % n][view.pending_joker])
    ones.append(o["led"] + (view.trick[0].suit if view.trick else 4))
    ones.append(o["trump"] + (view.trump if view.trump >= 0 else 4))
    if view.trump_card >= 0:
        ones.append(o["trump_card"] + _SLOT[view.trump_card])
    for seat, cards in enumerate(view.visible):
        if cards:
            seen = visible[(seat - me) % n]
            ones += [seen[c] for c in cards]
    has_bid, voids = o["has_bid"], o["voids"]
    for seat in range(n):
        r = (seat - me) % n
        if view.bids[seat] >= 0:
            ones.append(has_bid + r)
        v = view.voids[seat]
        if v:
            ones += [voids + 4 * r + s for s in range(4) if (v >> s) & 1]
    ones.append(o["kind"] + _KIND_INDEX[view.kind])
    if view.whole_deck:
        ones.append(o["whole"])
    if view.hand_hidden:
        ones.append(o["hidden"])
    phase = _PHASE_INDEX.get(view.phase)
    if phase is not None:
        ones.append(o["phase"] + phase)
    ones.append(o["dealer"] + (view.dealer - me) % n)
    ones.append(o["leader"] + (view.leader - me) % n)
    obs[ones] = 1.0
    scale = 1.0 / view.max_cards
    rel = [(seat + me) % n for seat in range(n)]  # relative index r -> seat
    obs[o["bids"] : o["bids"] + n] = [max(view.bids[s], 0) * scale for s in rel]
    obs[o["tricks"] : o["tricks"] + n] = [view.tricks[s] * scale for s in rel]
    obs[o["totals"] : o["totals"] + n] = [view.scores[s] / 100.0 for s in rel]
    obs[o["cards"]] = view.cards * scale
    obs[o["progress"]] = len(view.sheet) / view.num_deals
    obs[o["remaining"]] = (view.cards - len(view.done_tricks)) * scale
    return obs
