"""Perico observation vector (float32, every entry in [0, 1]); one layout for both variants.

The layout is ``SCHEMA`` below, one ``Piece`` per block with its meaning; the
docs' table (the env's help page, ``docs/games/perico.md``) is rendered from
it. Card blocks are one-hot over 56 card slots: natural card id
``suit * 13 + rank`` (0..51, suits s h d c, ranks 2..A) and the jokers RJ, BJ,
RJ2, BJ2 at 52..55. Seats are relative to the observer: seat block 0 is the
observer, 1 the next player clockwise, and so on; blocks of seats beyond
``num_players`` are zero.

Category order, weakest first (index 0 = high card): five-card high card,
pair, two pair, three of a kind, straight, flush, full house, four of a kind,
straight flush, five of a kind, royal flush (0–10); six-card high card, pair,
two pair, three of a kind, three pair, old house, straight, flush, four of a
kind, crazy house, new house, five of a kind, straight flush, six of a kind,
royal flush (0–14).
"""

from __future__ import annotations

from array import array

import numpy as np

from pokerzoo.envs.engine.cards import NUM_CARD_IDS, RANK_OF, SUIT_OF
from pokerzoo.envs.engine.schema import Piece, Schema

CARD_SLOTS = 56
MAX_SEATS = 6
MAX_HAND_SLOTS = 7
SLOT_WIDTH = 18  # rank 2..A (13), joker (1), suit s h d c (4)
NUM_CATEGORIES = 15  # six-card has 15, five-card uses the first 11
PHASES = ("knock", "turn", "discard")
SEAT_PARTS = (
    "seated",
    "has taken a draw turn this round",
    "draw turns this round / 10 (capped at 1)",
    "cards exchanged this round / 30 (capped at 1)",
    "cards exchanged on its latest turn / H",
    "score / target",
    "is the dealer",
    "is to act",
)
SEAT_WIDTH = len(SEAT_PARTS)

SCHEMA = Schema(
    [
        Piece("hand", CARD_SLOTS, "own hand (the drawn card excluded)"),
        Piece("drawn", CARD_SLOTS, "the card just drawn, during the observer's discard decision"),
        Piece("pile_top", CARD_SLOTS, "top card of the discard pile"),
        Piece("pile", CARD_SLOTS, "every card in the discard pile (face up, so public)"),
        Piece(
            "slots",
            (MAX_HAND_SLOTS, SLOT_WIDTH),
            "hand slot i (slot H = the drawn card): rank 2..A or joker (14), suit s h d c (4)",
        ),
        Piece("stock", 1, "stock size / deck size"),
        Piece("pile_size", 1, "discard pile size / deck size"),
        Piece("seats", (MAX_SEATS, SEAT_WIDTH), "relative seat k (entries below)", parts=SEAT_PARTS),
        Piece("phase", len(PHASES), "phase: " + ", ".join(PHASES)),
        Piece("turns", 1, "draw turns taken this round / `max_turns_per_round` (capped at 1)"),
        Piece("rounds", 1, "round number / `max_rounds` (capped at 1)"),
        Piece("category", NUM_CATEGORIES, "category of the own hand, one-hot by index in the variant's order"),
        Piece("jokers", 1, "jokers in the own hand / 4"),
        Piece("six_card", 1, "six-card variant"),
        Piece("players", 1, "number of players / 6"),
    ]
)

# The offsets as plain ints, read once: the encoder runs at every step.
_O = SCHEMA.offsets
HAND, DRAWN, PILE_TOP, PILE = _O["hand"], _O["drawn"], _O["pile_top"], _O["pile"]
SLOTS = _O["slots"]
STOCK, PILE_SIZE = _O["stock"], _O["pile_size"]
SEATS = _O["seats"]
PHASE = _O["phase"]
TURNS, ROUNDS = _O["turns"], _O["rounds"]
CATEGORY = _O["category"]
JOKERS, SIX_CARD, PLAYERS = _O["jokers"], _O["six_card"], _O["players"]
_PHASE_INDEX = {p: PHASE + i for i, p in enumerate(PHASES)}

# Card id -> card slot (naturals keep their id, jokers 65..68 -> 52..55).
CARD_INDEX = [c if c < 52 else 52 + c - 65 if c >= 65 else -1 for c in range(NUM_CARD_IDS)]
_HAND_HOT = [HAND + i for i in CARD_INDEX]
_DRAWN_HOT = [DRAWN + i for i in CARD_INDEX]
_TOP_HOT = [PILE_TOP + i for i in CARD_INDEX]
_PILE_HOT = [PILE + i for i in CARD_INDEX]


def _slot_hot(slot: int, card: int) -> tuple[int, ...]:
    """Entries set for ``card`` in hand slot ``slot``: its rank (or joker) and its suit."""
    base = SLOTS + SLOT_WIDTH * slot
    if card >= 65:
        return (base + 13,)
    if card >= 52:
        return ()
    return (base + int(RANK_OF[card]), base + 14 + int(SUIT_OF[card]))


_SLOT_HOT = [[_slot_hot(i, c) for c in range(NUM_CARD_IDS)] for i in range(MAX_HAND_SLOTS)]


_ZEROS = bytes(4 * SCHEMA.size)


def encode(view) -> np.ndarray:
    """The observation of one view.

    This runs every step, so it fills a Python float array item by item and
    wraps it without copying: cheaper than numpy scatters from index lists.
    """
    obs = array("f", _ZEROS)
    hand, pile, h = view.hand, view.pile, view.hand_size
    jokers = 0
    for i, c in enumerate(hand):
        obs[_HAND_HOT[c]] = 1.0
        for j in _SLOT_HOT[i][c]:
            obs[j] = 1.0
        jokers += c >= 65
    c = view.drawn
    if c >= 0:
        obs[_DRAWN_HOT[c]] = 1.0
        for j in _SLOT_HOT[h][c]:
            obs[j] = 1.0
    if pile:
        obs[_TOP_HOT[pile[-1]]] = 1.0
        for c in pile:
            obs[_PILE_HOT[c]] = 1.0
    phase = _PHASE_INDEX.get(view.phase)
    if phase is not None:
        obs[phase] = 1.0
    obs[CATEGORY + view.hand_category] = 1.0
    deck_size = 54.0 if view.deck == "54" else 56.0
    obs[STOCK] = view.stock_size / deck_size
    obs[PILE_SIZE] = len(pile) / deck_size
    obs[TURNS] = min(view.turns / view.max_turns, 1.0)
    obs[ROUNDS] = min(view.round_number / view.max_rounds, 1.0)
    obs[JOKERS] = jokers / 4.0
    obs[SIX_CARD] = view.six_card
    n, me = view.num_players, view.player
    obs[PLAYERS] = n / MAX_SEATS
    draw_turns, exchanged, last, scores = view.draw_turns, view.exchanged, view.last_exchange, view.scores
    target, dealer, current = view.target, view.dealer, view.current_player
    base = SEATS
    for rel in range(n):
        seat = me + rel
        if seat >= n:
            seat -= n
        turns = draw_turns[seat]
        obs[base] = 1.0
        if turns:
            obs[base + 1] = 1.0
            obs[base + 2] = turns / 10.0 if turns < 10 else 1.0
            x = exchanged[seat]
            obs[base + 3] = x / 30.0 if x < 30 else 1.0
            obs[base + 4] = last[seat] / h
        if scores[seat]:
            obs[base + 5] = scores[seat] / target if scores[seat] < target else 1.0
        if seat == dealer:
            obs[base + 6] = 1.0
        if seat == current:
            obs[base + 7] = 1.0
        base += SEAT_WIDTH
    return np.frombuffer(obs, dtype=np.float32)
