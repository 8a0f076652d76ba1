"""Breed the Heifer observation vector (float32, every entry in [0, 1]).

The layout is ``schema(num_players)`` below, one ``Piece`` per block with its
meaning; the docs' table (the env's help page, ``docs/games/breed_the_heifer.md``)
is rendered from it, with offsets written in ``N = num_players``. Seats are
listed relative to the observer: relative seat k is absolute seat
``(player + k) % N``, so k = 0 is always the observer and a policy sees the
table from its own chair whatever seat it was given. Card ids are
``suit * 13 + rank`` with suits s, h, d, c and ranks 2..A. Chips are scaled
by the chips at the table; bets and the amount to call by the most a round
can cost (max bets × the larger bet size).

With the option ``action_counts`` one more piece comes last, ``actions``:
how many times each seat checked, called, and bet or raised this hand, so a
policy can tell a calling station (never bets) from a maniac or a value
bettor. Being last, it leaves every other offset where it was: the vector
with the option is the vector without it followed by ``3N`` entries.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS
from pokerzoo.envs.engine.schema import Piece, Schema

CARDS = 52
NUM_CATEGORIES = 10
STREETS = ("3rd", "4th", "5th", "6th", "7th")
ROUNDS = len(STREETS)  # betting rounds a hand can have: the counts' scale is ROUNDS × max bets
ACTION_PARTS = ("checks", "calls", "bets and raises")


def schema(n: int, action_counts: bool = False) -> Schema:
    """The layout for ``n`` seats: ``52 + 52n + 20 + 8n + 16`` entries (388 for five), then with
    ``action_counts`` the ``3n`` counts of the ``actions`` piece (403 for five).

    One ``Schema`` per layout however it is asked for (``schema(5)`` is ``schema(5, False)``)."""
    return _schema(int(n), bool(action_counts))


@lru_cache(maxsize=32)
def _schema(n: int, action_counts: bool) -> Schema:
    actions = [
        Piece(
            "actions",
            (n, 3),
            "times relative seat k checked, called, and bet or raised this hand / (5 × max bets), at most 1",
            parts=ACTION_PARTS,
        )
    ]
    return Schema(
        [
            Piece("down", CARDS, "own down cards (one-hot by card id)"),
            Piece("up", (n, CARDS), "cards face up in front of relative seat k"),
            Piece("wild", 13, "the wild rank, one-hot 2..A (all zero: nothing wild)"),
            Piece("pending", 1, "a pair is pending (the next up card's rank becomes wild)"),
            Piece("street", len(STREETS), "street one-hot: " + ", ".join(STREETS)),
            Piece("over", 1, "the episode is over"),
            # stacks, bets and committed stay together in this order: the encoder writes them as one block.
            Piece("stacks", n, "stack of relative seat k / chips at the table"),
            Piece("bets", n, "seat k's bet this round / (max bets × largest bet size)"),
            Piece("committed", n, "seat k's chips put in this hand / chips at the table"),
            Piece("out", n, "seat k is out of the hand (folded or not dealt in)"),
            Piece("all_in", n, "seat k is all in"),
            Piece("button", n, "seat k has the dealer button"),
            Piece("opener", n, "seat k is named first to act this street"),
            Piece("to_act", n, "seat k is to act now"),
            Piece("pot", 1, "pot / chips at the table"),
            Piece("to_call", 1, "to call / (max bets × largest bet size)"),
            Piece("big_bet", 1, "this street's bet is the big bet"),
            Piece("bets_made", 1, "bets and raises made this round / max bets"),
            Piece("progress", 1, "hands already played / hands in the episode"),
            Piece(
                "category",
                NUM_CATEGORIES,
                "category of the own best hand so far, current wild (high card … five of a kind)",
            ),
            Piece("still_in", 1, "players still in the hand / N"),
            # last, so that the observation without it is a prefix of the observation with it
            *(actions if action_counts else []),
        ]
    )


_STEP_PIECES = ("street", "over", "out", "all_in", "button", "opener", "to_act")
_STEP_PIECES += ("big_bet", "pot", "to_call", "bets_made", "progress", "still_in")


class Encoder:
    """The offsets of ``schema(n)`` as ints, and caches of the parts that change per street.

    Cards change once per street while chips change at every action, so the
    up-card one-hots (per absolute seat, shared by all observers) and each
    observer's own-card indices are rebuilt only when the view holds new card
    tuples (the game shares them between views until the next card is
    dealt). Identical tuples have identical contents, so a cache hit never
    changes a result; the caches hold the tuples, so their ids stay unique.
    That also makes one encoder safe to share between all games with ``n``
    seats (``encoder_for``), which saves building it for every episode.
    """

    def __init__(self, n: int, action_counts: bool = False):
        self.n = n
        self.schema = schema(n, action_counts)
        o = self.schema.offsets
        self.actions = o.get("actions", -1)  # -1: the option is off
        self.size = self.schema.size
        self.down, self.wild, self.pending, self.category = o["down"], o["wild"], o["pending"], o["category"]
        if (o["bets"], o["committed"]) != (o["stacks"] + n, o["stacks"] + 2 * n):
            raise ValueError("Breed the Heifer schema: stacks, bets and committed must be adjacent, in that order")
        # What ``encode`` reads at every step, as one tuple it unpacks into locals (cheaper than attributes):
        # n, size, the up-card and the chip blocks (start, end), then the offsets of _STEP_PIECES.
        blocks = (o["up"], o["up"] + n * CARDS, o["stacks"], o["stacks"] + 3 * n)
        self.hot = (n, self.size, *blocks, *(o[name] for name in _STEP_PIECES))
        self.seat_order = [[(me + k) % n for k in range(n)] for me in range(n)]  # relative k -> absolute seat
        self.relative = [np.array(order, dtype=np.intp) for order in self.seat_order]
        # (stacks + bets + committed) of absolute seats -> the same rows in relative seat order
        self.chip_order = [np.concatenate([rel + row * n for row in range(3)]) for rel in self.relative]
        self._up_source: tuple | None = None
        self._up_onehot = np.zeros((n, CARDS), dtype=np.float32)
        self._own: dict[int, tuple] = {}
        self._scale: dict[tuple[float, float], np.ndarray] = {}

    def up_onehot(self, up: tuple) -> np.ndarray:
        """(n, 52) one-hot of every absolute seat's up cards."""
        if up is not self._up_source:
            onehot = np.zeros((self.n, CARDS), dtype=np.float32)
            for p, cards in enumerate(up):
                onehot[p, list(cards)] = 1.0
            self._up_source, self._up_onehot = up, onehot
        return self._up_onehot

    def own_indices(self, view, ranker) -> list[int]:
        """Indices of the observer's down cards, the wild rank, the pending pair and the hand category."""
        me = view.player
        hit = self._own.get(me)
        if (
            hit is not None
            and hit[0] is view.down
            and hit[1] is view.up
            and hit[2] == view.wild_rank
            and hit[3] == view.pair_pending
            and hit[4] is ranker
        ):
            return hit[5]
        idx = [self.down + c for c in view.down]
        if view.wild_rank >= 0:
            idx.append(self.wild + view.wild_rank)
        if view.pair_pending:
            idx.append(self.pending)
        cards = view.down + view.up[me]
        if cards:
            idx.append(self.category + (ranker.key(cards, view.wild_rank) >> TIEBREAK_BITS))
        self._own[me] = (view.down, view.up, view.wild_rank, view.pair_pending, ranker, idx)
        return idx

    def chip_scale(self, total: float, bet_scale: float) -> np.ndarray:
        """Factors for the (stacks, bets, committed) rows, one per entry."""
        scale = self._scale.get((total, bet_scale))
        if scale is None:
            scale = np.repeat(np.array([1.0 / total, 1.0 / bet_scale, 1.0 / total], dtype=np.float32), self.n)
            self._scale[(total, bet_scale)] = scale
        return scale


_ENCODERS: dict[tuple[int, bool], Encoder] = {}


def encoder_for(n: int, action_counts: bool = False) -> Encoder:
    """The encoder for ``n`` seats (with or without the action counts), shared by every game of that layout
    (its caches are keyed by identity)."""
    key = (n, bool(action_counts))
    encoder = _ENCODERS.get(key)
    if encoder is None:
        encoder = _ENCODERS[key] = Encoder(*key)
    return encoder


def action_fraction(count, max_bets: int):
    """A count of the ``actions`` piece as its entry: over ``ROUNDS × max_bets``, capped at 1.

    A seat makes at most one check and ``max_bets`` bets or raises in a round, but short all-in bets
    that do not count towards the cap can make it call more often than that, so the cap keeps the
    entry in [0, 1]. The batched kernel computes the same float64 quotient (then float32)."""
    scale = ROUNDS * max_bets
    return min(count, scale) / scale


def encode(view, e: Encoder, ranker, small_bet: int, big_bet: int) -> np.ndarray:
    (n, size, up, up_end, chips, chips_end, street, over_at, out, all_in, button, opener, to_act,
     big, pot, to_call, bets_made, progress, still_in) = e.hot
    me = view.player
    obs = np.zeros(size, dtype=np.float32)
    e.up_onehot(view.up).take(e.relative[me], axis=0, out=obs[up:up_end].reshape(n, CARDS))
    over = view.phase == "over"
    idx = [*e.own_indices(view, ranker), over_at if over else street + view.street - 3]
    folded, stacks = view.folded, view.stacks
    for k, p in enumerate(e.seat_order[me]):
        if folded[p]:
            idx.append(out + k)
        elif stacks[p] == 0:
            idx.append(all_in + k)
    idx.append(button + (view.dealer - me) % n)
    if view.opener >= 0:
        idx.append(opener + (view.opener - me) % n)
    if view.current_player is not None:
        idx.append(to_act + (view.current_player - me) % n)
    if view.street >= 5 and not over:
        idx.append(big)
    obs[idx] = 1.0
    total = float(view.chip_total)
    bet_scale = float(view.max_bets * max(small_bet, big_bet))
    values = np.array(stacks + view.bets + view.committed, dtype=np.float32)
    np.multiply(values[e.chip_order[me]], e.chip_scale(total, bet_scale), out=obs[chips:chips_end])
    obs[pot] = view.pot / total
    obs[to_call] = view.to_call / bet_scale
    obs[bets_made] = view.complete_bets / view.max_bets
    obs[progress] = view.hand_number / view.num_hands
    obs[still_in] = (n - sum(folded)) / n
    if e.actions >= 0:
        counts = view.actions
        obs[e.actions : e.actions + 3 * n] = [
            action_fraction(c, view.max_bets) for p in e.seat_order[me] for c in counts[p]
        ]
    return obs
