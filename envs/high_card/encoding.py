"""Three-card high card observation vector (float32, every entry in [0, 1]); seats relative to the observer.

The layout is ``schema(num_players)``: one ``Piece`` per block, with its
meaning (and bounds, [0, 1] unless a piece says otherwise). The env's help
page renders its table from it, offsets written in ``N = num_players``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from pokerzoo.envs.engine.schema import Piece, Schema


@lru_cache(maxsize=8)
def schema(n: int) -> Schema:
    return Schema(
        [
            Piece("hand", 52, "own cards, one-hot by card id"),
            Piece("played", n, "seat r (relative, r = 0 is the observer) has played"),
            Piece("folded", n, "seat r has folded"),
            Piece("pot", 1, "pot / the largest pot (3 chips per player)"),
        ]
    )


def encode(view) -> np.ndarray:
    n, me = view.num_players, view.player
    layout = schema(n)
    o = layout.offsets
    obs = np.zeros(layout.size, dtype=np.float32)
    obs[[o["hand"] + c for c in view.hand]] = 1.0
    for seat, d in enumerate(view.decisions):
        r = (seat - me) % n
        if d == 1:
            obs[o["played"] + r] = 1.0
        elif d == 0:
            obs[o["folded"] + r] = 1.0
    obs[o["pot"]] = view.pot / (3 * n)
    return obs
