"""Three-card high card observation vector (float32, every entry in [0, 1]); seats relative to the observer.

| offset | size | meaning                                                  |
|--------|------|----------------------------------------------------------|
| 0      | 52   | own cards, one-hot by card id ``suit * 13 + rank``       |
| 52     | N    | seat r (relative, r = 0 is the observer) has played      |
| 52+N   | N    | seat r has folded                                        |
| 52+2N  | 1    | pot / the largest pot (3 chips per player)               |
"""

from __future__ import annotations

import numpy as np


def size(n: int) -> int:
    return 52 + 2 * n + 1


def encode(view) -> np.ndarray:
    n, me = view.num_players, view.player
    obs = np.zeros(size(n), dtype=np.float32)
    obs[list(view.hand)] = 1.0
    for seat, d in enumerate(view.decisions):
        r = (seat - me) % n
        if d == 1:
            obs[52 + r] = 1.0
        elif d == 0:
            obs[52 + n + r] = 1.0
    obs[52 + 2 * n] = view.pot / (3 * n)
    return obs
