"""What one Mexican poker player may know: the ``View`` that agents and the encoder read.

Seats are absolute (0..n-1) here; the observation vector re-orders them
relative to the viewer. Other players' predictions stay -1 until every
prediction is made (the chips lie face down), and other hands appear only as
card counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerzoo.envs.engine.game import View

Play = tuple[int, tuple[int, ...], tuple[int, ...], int]  # (seat, hand cards, board cards, key)


@dataclass(frozen=True)
class MexicanView(View):
    round: int  # 0-based round of the game
    rounds: int
    token: int  # seat holding the first-player token (revealed the card, predicts, doubts and leads first)
    revealed: int  # the card whose corners set the board and hand sizes (also on the board)
    board_size: int  # B
    hand_size: int  # H
    hand: tuple[int, ...]  # own cards, sorted by rank then suit: hand slot order
    board: tuple[int, ...]  # board cards, sorted: board slot order
    hand_counts: tuple[int, ...]  # cards left per seat
    predicted: tuple[bool, ...]  # who has placed a prediction chip (public: chips lie face down)
    predictions: tuple[int, ...]  # per seat; -1 while not visible to this player
    doubts: tuple[int, ...]  # per seat: doubted seat, -1 passed, -2 not placed
    tricks: tuple[int, ...]  # tricks taken this round, per seat
    scores: tuple[int, ...]  # game totals of the rounds already scored, per seat
    leader: int  # seat that led the current trick; -1 outside the play phase
    trick: tuple[Play, ...]  # the current trick in play order
    winning: int  # seat whose play leads the current trick; -1 before the first play
    played: tuple[int, ...]  # hand cards of the completed tricks of this round, sorted
    tricks_played: int  # completed tricks this round
    doubt_chips: bool
    doubt_pass: bool

    @property
    def prediction(self) -> int:
        """This player's own prediction (-1 before it is made)."""
        return self.predictions[self.player]


def make_view(**fields) -> MexicanView:
    """A ``MexicanView`` built without the frozen dataclass ``__init__``.

    The generated ``__init__`` of a frozen dataclass sets each of the 27 fields
    through ``object.__setattr__``, which is half the cost of a view; the env
    builds one per step. The result is the same frozen, comparable object
    (tests check it equals ``dataclasses.replace(view)``); callers must pass
    every field.
    """
    view = object.__new__(MexicanView)
    view.__dict__.update(fields)
    return view
