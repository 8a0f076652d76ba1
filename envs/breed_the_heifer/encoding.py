"""Breed the Heifer observation vector (float32, every entry in [0, 1]).

Seats are listed relative to the observer: relative seat k is absolute seat
``(player + k) % n``, so k = 0 is always the observer and a policy sees the
table from its own chair whatever seat it was given. With ``n`` players:

| index                | meaning                                                            |
|----------------------|--------------------------------------------------------------------|
| 0–51                 | own down cards (one-hot by card id)                                |
| 52 + 52k + c         | card c is face up in front of relative seat k (k = 0..n-1)         |
| W = 52 + 52n, +0–12  | the wild rank, one-hot 2..A (all zero: nothing wild)               |
| W + 13               | a pair is pending (the next up card's rank becomes wild)           |
| W + 14 … W + 18      | street one-hot: 3rd, 4th, 5th, 6th, 7th                            |
| W + 19               | the episode is over                                                |
| S = W + 20, + k      | stack of relative seat k / chips at the table                      |
| S + n + k            | seat k's bet this round / (max bets × largest bet size)            |
| S + 2n + k           | seat k's chips put in this hand / chips at the table               |
| S + 3n + k           | seat k is out of the hand (folded or not dealt in)                 |
| S + 4n + k           | seat k is all in                                                   |
| S + 5n + k           | seat k has the dealer button                                       |
| S + 6n + k           | seat k is named first to act this street                           |
| S + 7n + k           | seat k is to act now                                               |
| T = S + 8n, +0       | pot / chips at the table                                           |
| T + 1                | to call / (max bets × largest bet size)                            |
| T + 2                | this street's bet is the big bet                                   |
| T + 3                | bets and raises made this round / max bets                         |
| T + 4                | hands already played / hands in the episode                        |
| T + 5 … T + 14       | category of the observer's best hand so far with the current wild  |
|                      | (high card … five of a kind, one-hot; all zero when not dealt in)  |
| T + 15               | players still in the hand / n                                      |

Size: 52 + 52n + 20 + 8n + 16 (n = 5: 388). Card ids are ``suit * 13 + rank``
with suits s, h, d, c and ranks 2..A.
"""

from __future__ import annotations

import numpy as np

from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS

NUM_CATEGORIES = 10


class Layout:
    """Offsets of the observation blocks for ``n`` seats, and caches of the parts that change per street.

    Cards change once per street while chips change at every action, so the
    up-card one-hots (per absolute seat, shared by all observers) and each
    observer's own-card indices are rebuilt only when the view holds new card
    tuples (the game shares them between views until the next card is
    dealt). Identical tuples have identical contents, so a cache hit never
    changes a result; the caches hold the tuples, so their ids stay unique.
    That also makes one layout safe to share between all games with ``n``
    seats (``layout_for``), which saves building it for every episode.
    """

    def __init__(self, n: int):
        self.n = n
        self.up = 52
        self.wild = 52 + 52 * n
        self.pending = self.wild + 13
        self.street = self.wild + 14
        self.over = self.wild + 19
        self.seats = self.wild + 20
        self.table = self.seats + 8 * n
        self.size = self.table + 16
        self.relative = [np.array([(me + k) % n for k in range(n)], dtype=np.intp) for me in range(n)]
        # (stacks + bets + committed) of absolute seats -> the same rows in relative seat order
        self.chip_order = [np.concatenate([rel + row * n for row in range(3)]) for rel in self.relative]
        self._up_source: tuple | None = None
        self._up_onehot = np.zeros((n, 52), dtype=np.float32)
        self._own: dict[int, tuple] = {}
        self._scale: dict[tuple[float, float], np.ndarray] = {}

    def up_onehot(self, up: tuple) -> np.ndarray:
        """(n, 52) one-hot of every absolute seat's up cards."""
        if up is not self._up_source:
            onehot = np.zeros((self.n, 52), dtype=np.float32)
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
        idx = list(view.down)
        if view.wild_rank >= 0:
            idx.append(self.wild + view.wild_rank)
        if view.pair_pending:
            idx.append(self.pending)
        cards = view.down + view.up[me]
        if cards:
            idx.append(self.table + 5 + (ranker.key(cards, view.wild_rank) >> TIEBREAK_BITS))
        self._own[me] = (view.down, view.up, view.wild_rank, view.pair_pending, ranker, idx)
        return idx

    def chip_scale(self, total: float, bet_scale: float) -> np.ndarray:
        """Factors for the (stacks, bets, committed) rows, one per entry."""
        scale = self._scale.get((total, bet_scale))
        if scale is None:
            scale = np.repeat(np.array([1.0 / total, 1.0 / bet_scale, 1.0 / total], dtype=np.float32), self.n)
            self._scale[(total, bet_scale)] = scale
        return scale


_LAYOUTS: dict[int, Layout] = {}


def layout_for(n: int) -> Layout:
    """The layout for ``n`` seats, shared by every game of that size (its caches are keyed by identity)."""
    layout = _LAYOUTS.get(n)
    if layout is None:
        layout = _LAYOUTS[n] = Layout(n)
    return layout


def encode(view, layout: Layout, ranker, small_bet: int, big_bet: int) -> np.ndarray:
    n = layout.n
    me = view.player
    obs = np.zeros(layout.size, dtype=np.float32)
    layout.up_onehot(view.up).take(layout.relative[me], axis=0, out=obs[52 : layout.wild].reshape(n, 52))
    s = layout.seats
    over = view.phase == "over"
    idx = [*layout.own_indices(view, ranker), layout.over if over else layout.street + view.street - 3]
    folded, stacks = view.folded, view.stacks
    for k in range(n):
        p = (me + k) % n
        if folded[p]:
            idx.append(s + 3 * n + k)
        elif stacks[p] == 0:
            idx.append(s + 4 * n + k)
    idx.append(s + 5 * n + (view.dealer - me) % n)
    if view.opener >= 0:
        idx.append(s + 6 * n + (view.opener - me) % n)
    if view.current_player is not None:
        idx.append(s + 7 * n + (view.current_player - me) % n)
    t = layout.table
    if view.street >= 5 and not over:
        idx.append(t + 2)
    obs[idx] = 1.0
    total = float(view.chip_total)
    bet_scale = float(view.max_bets * max(small_bet, big_bet))
    chips = np.array(stacks + view.bets + view.committed, dtype=np.float32)
    np.multiply(chips[layout.chip_order[me]], layout.chip_scale(total, bet_scale), out=obs[s : s + 3 * n])
    obs[t] = view.pot / total
    obs[t + 1] = view.to_call / bet_scale
    obs[t + 3] = view.complete_bets / view.max_bets
    obs[t + 4] = view.hand_number / view.num_hands
    obs[t + 15] = (n - sum(folded)) / n
    return obs
