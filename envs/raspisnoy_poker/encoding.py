"""Raspisnoy poker observation vector: float32, seats relative to the observer.

Card slots (54): natural card id ``suit * 13 + rank`` (s, h, d, c; 2..A) → slot id;
red joker → 52, black joker → 53 (in the 34-card deck: the 6♥ and 6♠).
Seat blocks are indexed by relative seat ``r = (seat − me) mod N``: r = 0 is
the observer, r = 1 the next player clockwise. ``N = num_players``.

| offset (N players)     | size  | meaning                                                        |
|------------------------|-------|----------------------------------------------------------------|
| 0                      | 54    | own hand (all zero while hidden: dark bidding, forehead)       |
| 54                     | 54    | cards played in the finished tricks of this deal               |
| 108                    | 56·N  | current trick, per relative seat: card played (54) + declared  |
|                        |       | high (1) + declared low (1); a forehead joker waiting for its  |
|                        |       | declaration shows here without a declaration flag               |
| 108+56N                | 5     | led suit of the current trick: s, h, d, c, none                |
| 113+56N                | 5     | trump suit: s, h, d, c, none                                   |
| 118+56N                | 54    | the card shown to fix the trump (whole deck: it went back in)  |
| 172+56N                | 54·N  | cards of the others seen on their foreheads, per relative seat |
| 172+110N               | N     | bids / max_cards (0 when not bid)                              |
| 172+111N               | N     | 1 if that seat has bid                                         |
| 172+112N               | N     | tricks taken this deal / max_cards                             |
| 172+113N               | 4·N   | known voids: seat r holds no card of suit s (index 4r + s)     |
| 172+117N               | N     | score sheet totals / 100                                       |
| 172+118N               | 6     | deal kind: normal, no_trump, dark, gold, misere, forehead      |
| 178+118N               | 1     | cards per player this deal / max_cards                         |
| 179+118N               | 1     | 1 if the whole deck is dealt                                   |
| 180+118N               | 1     | 1 if the own hand is hidden from the observer                  |
| 181+118N               | 3     | phase: bid, play, declare (all zero once the game is over)     |
| 184+118N               | N     | dealer, one-hot by relative seat                               |
| 184+119N               | N     | leader of the current trick, one-hot by relative seat          |
| 184+120N               | 1     | deals finished / deals in the episode                          |
| 185+120N               | 1     | tricks still to play this deal / max_cards                     |

Size: ``186 + 120·N`` (666 for 4 players, 1386 for 10). Totals are not
bounded, so the observation space's bounds are ±inf. Ceilings from the
``joker_lead_demands_highest`` variant are in the view, not in this vector.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from pokerzoo.envs.engine.tricks import HIGH, LOW
from pokerzoo.envs.raspisnoy_poker.schedule import KINDS

CARD_SLOTS = 54
SLOT = np.array([c if c < 52 else (52 + c - 65 if c in (65, 66) else -1) for c in range(69)], dtype=np.int64)
_SLOT = SLOT.tolist()
_KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
_PHASE_INDEX = {"bid": 0, "play": 1, "declare": 2}


def size(n: int) -> int:
    return 186 + 120 * n


@lru_cache(maxsize=16)
def layout(n: int) -> dict[str, int]:
    o = {"hand": 0, "played": 54, "trick": 108}
    o["led"] = 108 + 56 * n
    o["trump"] = o["led"] + 5
    o["trump_card"] = o["trump"] + 5
    o["visible"] = o["trump_card"] + 54
    o["bids"] = o["visible"] + 54 * n
    o["has_bid"] = o["bids"] + n
    o["tricks"] = o["has_bid"] + n
    o["voids"] = o["tricks"] + n
    o["totals"] = o["voids"] + 4 * n
    o["kind"] = o["totals"] + n
    o["cards"] = o["kind"] + 6
    o["whole"] = o["cards"] + 1
    o["hidden"] = o["whole"] + 1
    o["phase"] = o["hidden"] + 1
    o["dealer"] = o["phase"] + 3
    o["leader"] = o["dealer"] + n
    o["progress"] = o["leader"] + n
    o["remaining"] = o["progress"] + 1
    o["size"] = o["remaining"] + 1
    assert o["size"] == size(n)
    return o


def encode(view) -> np.ndarray:
    n = view.num_players
    me = view.player
    o = layout(n)
    obs = np.zeros(o["size"], dtype=np.float32)
    ones = [_SLOT[c] for c in view.hand]
    played = o["played"]
    for t in view.done_tricks:
        ones += [played + _SLOT[p.card] for p in t]
    trick = o["trick"]
    for p in view.trick:
        base = trick + 56 * ((p.seat - me) % n)
        ones.append(base + _SLOT[p.card])
        if p.decl == HIGH:
            ones.append(base + 54)
        elif p.decl == LOW:
            ones.append(base + 55)
    if view.pending_joker >= 0 and view.current_player is not None:
        ones.append(trick + 56 * ((view.current_player - me) % n) + _SLOT[view.pending_joker])
    ones.append(o["led"] + (view.trick[0].suit if view.trick else 4))
    ones.append(o["trump"] + (view.trump if view.trump >= 0 else 4))
    if view.trump_card >= 0:
        ones.append(o["trump_card"] + _SLOT[view.trump_card])
    visible = o["visible"]
    for seat, cards in enumerate(view.visible):
        if cards:
            base = visible + 54 * ((seat - me) % n)
            ones += [base + _SLOT[c] for c in cards]
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
