"""What a seat cannot see, as features for a critic that may: the other seats' hidden cards and who leads now.

An asymmetric actor-critic (``critic.privileged`` in a batched training
config) gives the critic, and only the critic, information the acting seat
does not have. The actor, which is what a policy file ships and what plays,
still sees the seat's observation alone; the critic's extra input only makes
its value estimates, and so the advantages PPO follows, less noisy: in a
poker hand most of the spread of the outcome is the other seats' cards, which
the seat's own observation cannot predict.

The features of seat s in row i are one block per other seat, in seating
order after s (the seat on s's left first), each::

    [still in, ahead of s now, tied with s now, its current hand category (one-hot, optional),
     its hidden cards (one-hot over the 52 cards)]

"Ahead" and "tied" compare the two seats' current hand keys (the game's own
showdown order, so they say who would win if the hand ended now). A seat out
of the hand has a block of zeros. The layout is the same for every game that
has cards and keys; a game's kernel says which of its cards are hidden
(``GameKernel.privileged``).
"""

from __future__ import annotations

import numpy as np

DECK = 52
HEAD = ("in", "ahead", "tied")


def block_size(categories: int = 0) -> int:
    """Entries per other seat."""
    return len(HEAD) + categories + DECK


def features_size(num_players: int, categories: int = 0) -> int:
    return (num_players - 1) * block_size(categories)


def opponent_features(
    cards: np.ndarray,
    hidden: np.ndarray,
    live: np.ndarray,
    keys: np.ndarray,
    rows: np.ndarray,
    seats: np.ndarray,
    *,
    num_players: int,
    categories: np.ndarray | None = None,
    num_categories: int = 0,
) -> np.ndarray:
    """float32 ``[k, features_size(num_players, num_categories)]`` for seat ``seats[j]`` of row ``rows[j]``.

    ``cards``: int ``[N, >=P, C]`` card ids (0..51) by position; ``hidden``:
    bool ``[N, >=P, C]``, the positions dealt face down (only those are
    written); ``live``: bool ``[N, >=P]``, the seats still in the hand;
    ``keys``: int ``[N, >=P]``, the current hand keys (higher wins);
    ``categories``: int ``[N, >=P]`` in 0..num_categories-1 (or None).
    """
    rows = np.asarray(rows, dtype=np.int64)
    seats = np.asarray(seats, dtype=np.int64)
    k, p = rows.shape[0], num_players
    size = block_size(num_categories)
    out = np.zeros((k, p - 1, size), dtype=np.float32)
    if k == 0 or p < 2:
        return out.reshape(k, -1)
    others = (seats[:, None] + np.arange(1, p)[None, :]) % p  # [k, p-1]: seating order after the seat
    r = rows[:, None]
    still_in = live[r, others].astype(bool)
    theirs = keys[r, others]
    mine = keys[rows, seats][:, None]
    out[:, :, 0] = still_in
    out[:, :, 1] = still_in & (theirs > mine)
    out[:, :, 2] = still_in & (theirs == mine)
    if num_categories:
        i, j = np.nonzero(still_in)
        out[i, j, len(HEAD) + categories[rows[i], others[i, j]]] = 1.0
    shown = hidden[r, others] & still_in[:, :, None]  # [k, p-1, C]
    i, j, c = np.nonzero(shown)
    out[i, j, len(HEAD) + num_categories + cards[rows[i], others[i, j], c].astype(np.int64)] = 1.0
    return out.reshape(k, -1)
