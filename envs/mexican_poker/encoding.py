"""Mexican poker observation vector (float32; scores in [-1, 1], everything else in [0, 1]).

The layout is ``SCHEMA`` below: one ``Piece`` per block, with its meaning
and bounds; the docs' table (the env's help page, ``docs/games/mexican_poker.md``)
is rendered from it. Seats are relative to the viewer: "seat k" is the player
k seats clockwise (seat 0 is the viewer); there are always 7 seat blocks,
those beyond ``num_players`` stay zero. Cards are one-hot by id
``suit * 13 + rank`` (suits m l b t q, ranks 2..A).

A round scores at most 13 points in absolute value (12 for an exact
prediction of 6 plus a doubt), hence the score scale.
"""

from __future__ import annotations

import numpy as np

from pokerzoo.envs.engine.hands.exact import CATEGORIES
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS
from pokerzoo.envs.engine.schema import Piece, Schema
from pokerzoo.envs.mexican_poker.actions import BOARD_SLOTS, HAND_SLOTS, NUM_PREDICTIONS
from pokerzoo.envs.mexican_poker.view import MexicanView

SEATS = 7
CARDS = 65
NCAT = len(CATEGORIES)
SLOT = 18  # a hand or board slot: rank one-hot (13), then suit one-hot (5)
PHASES = ("predict", "doubt", "play", "over")
MAX_ROUND_POINTS = 13

SCHEMA = Schema(
    [
        Piece("hand", CARDS, "own hand (one-hot by card id)"),
        Piece("board", CARDS, "board"),
        Piece("played", CARDS, "hand cards of the completed tricks of this round"),
        Piece("trick_cards", (SEATS, CARDS), "current trick: the cards (hand and board) seat k played"),
        Piece("trick_category", (SEATS, NCAT), "current trick: category of seat k's play (high card … royal flush)"),
        Piece("trick_winning", SEATS, "current trick: seat k's play is winning so far"),
        Piece("hand_slots", (HAND_SLOTS, SLOT), "hand slot i: rank one-hot (13) then suit one-hot (5); empty slot 0"),
        Piece("board_slots", (BOARD_SLOTS, SLOT), "board slot j: rank one-hot (13) then suit one-hot (5)"),
        Piece("predicted", SEATS, "seat k has placed a prediction chip"),
        Piece(
            "predictions",
            (SEATS, NUM_PREDICTIONS),
            "seat k's prediction 0..6, one-hot (own always; others once revealed)",
        ),
        Piece("doubts", (SEATS, SEATS), "seat k's doubt chip is on seat j (block k, entry j)"),
        Piece("passed", SEATS, "seat k kept its doubt chip (passed)"),
        Piece("tricks", SEATS, "tricks taken this round by seat k / 7"),
        Piece("hand_counts", SEATS, "cards left in seat k's hand / 7"),
        Piece("scores", SEATS, f"game score of seat k / ({MAX_ROUND_POINTS} × rounds)", low=-1.0),
        Piece("token", SEATS, "seat k holds the first-player token"),
        Piece("leader", SEATS, "seat k led the current trick"),
        Piece("to_act", SEATS, "seat k is to act"),
        Piece("present", SEATS, "seat k is at the table (k < num_players)"),
        Piece("phase", len(PHASES), "phase: " + ", ".join(PHASES)),
        Piece("board_size", 5, "board size B = 1..5, one-hot (hand size is 8 − B)"),
        Piece("round", 1, "round / rounds (rounds already finished)"),
        Piece("tricks_played", 1, "completed tricks this round / 7"),
        Piece("doubt_chips", 1, "doubt chips are played (option `doubt_chips`)"),
        Piece("doubt_pass", 1, "passing a doubt is allowed (option `doubt_pass`)"),
    ]
)

# The offsets as plain ints, read once: the encoder runs at every step.
_SIZE = SCHEMA.size  # 1124
_O = SCHEMA.offsets
_PHASE_INDEX = {p: _O["phase"] + i for i, p in enumerate(PHASES)}


# _REL[n][me][seat]: seat relative to the viewer.
_REL = {n: [[(s - me) % n for s in range(n)] for me in range(n)] for n in range(2, SEATS + 1)}
_O_HAND, _O_BOARD, _O_PLAYED = _O["hand"], _O["board"], _O["played"]
_O_TCARDS, _O_TCAT, _O_TWIN = _O["trick_cards"], _O["trick_category"], _O["trick_winning"]
_O_PRED, _O_PREDICTED, _O_DOUBT, _O_PASSED = _O["predictions"], _O["predicted"], _O["doubts"], _O["passed"]
_O_TRICKS, _O_COUNTS, _O_SCORES, _O_PRESENT = _O["tricks"], _O["hand_counts"], _O["scores"], _O["present"]
_O_TOKEN, _O_LEADER, _O_TO_ACT, _O_BSIZE = _O["token"], _O["leader"], _O["to_act"], _O["board_size"]
_O_ROUND, _O_TPLAYED = _O["round"], _O["tricks_played"]
# Hand slot i holds the i-th card of the hand (the hand is sorted), board slot j the j-th board card, so
# _HAND_SLOT[i][c] / _BOARD_SLOT[j][c] are all the entries card c sets there: its one-hot in the hand (board)
# block, then the rank and the suit of the slot.
_HAND_SLOT = [
    [
        (_O_HAND + c, _O["hand_slots"] + SLOT * i + c % 13, _O["hand_slots"] + SLOT * i + 13 + c // 13)
        for c in range(CARDS)
    ]
    for i in range(HAND_SLOTS)
]
_BOARD_SLOT = [
    [
        (_O_BOARD + c, _O["board_slots"] + SLOT * j + c % 13, _O["board_slots"] + SLOT * j + 13 + c // 13)
        for c in range(CARDS)
    ]
    for j in range(BOARD_SLOTS)
]
_SEVENTHS = [i / 7.0 for i in range(8)]
_PRESENT = {n: list(range(_O_PRESENT, _O_PRESENT + n)) for n in range(2, SEATS + 1)}
_FLAGS = {
    (chips, passing): ([_O["doubt_chips"]] if chips else []) + ([_O["doubt_pass"]] if passing else [])
    for chips in (False, True)
    for passing in (False, True)
}


def encode(view: MexicanView) -> np.ndarray:
    obs = np.zeros(_SIZE, dtype=np.float32)
    n = view.num_players
    rel = _REL[n][view.player]
    ones = [_O_PLAYED + c for c in view.played]
    for slot, c in zip(_HAND_SLOT, view.hand):  # at most 7 hand and 5 board cards: B + H = 8, B >= 1
        ones += slot[c]
    for slot, c in zip(_BOARD_SLOT, view.board):
        ones += slot[c]
    for seat, hand_cards, board_cards, key in view.trick:
        k = rel[seat]
        base = _O_TCARDS + CARDS * k
        ones += [base + c for c in hand_cards]
        ones += [base + c for c in board_cards]
        ones.append(_O_TCAT + NCAT * k + (key >> TIEBREAK_BITS))
    if view.winning >= 0:
        ones.append(_O_TWIN + rel[view.winning])
    ones += [_O_PREDICTED + rel[s] for s, done in enumerate(view.predicted) if done]
    ones += [_O_PRED + NUM_PREDICTIONS * rel[s] + p for s, p in enumerate(view.predictions) if p >= 0]
    if view.phase != "predict":
        for seat, d in enumerate(view.doubts):
            if d >= 0:
                ones.append(_O_DOUBT + SEATS * rel[seat] + rel[d])
            elif d == -1:
                ones.append(_O_PASSED + rel[seat])
    ones += _PRESENT[n]
    ones.append(_O_TOKEN + rel[view.token])
    if view.leader >= 0:
        ones.append(_O_LEADER + rel[view.leader])
    if view.current_player is not None:
        ones.append(_O_TO_ACT + rel[view.current_player])
    ones.append(_PHASE_INDEX[view.phase])
    ones.append(_O_BSIZE + view.board_size - 1)
    ones += _FLAGS[view.doubt_chips, view.doubt_pass]
    obs[ones] = 1.0

    # Per-seat numbers, rotated so that block entry k is the seat k places clockwise of the viewer.
    me = view.player
    counts, tricks, scores = view.hand_counts, view.tricks, view.scores
    obs[_O_COUNTS : _O_COUNTS + n] = [_SEVENTHS[c] for c in counts[me:] + counts[:me]]
    obs[_O_TRICKS : _O_TRICKS + n] = [_SEVENTHS[t] for t in tricks[me:] + tricks[:me]]
    scale = 1.0 / (MAX_ROUND_POINTS * view.rounds)
    obs[_O_SCORES : _O_SCORES + n] = [x * scale for x in scores[me:] + scores[:me]]
    obs[_O_ROUND] = view.round / view.rounds
    obs[_O_TPLAYED] = view.tricks_played / 7.0
    return obs
