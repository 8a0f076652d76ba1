"""Three-card high card — ``high_card_v0`` (the example game of ``docs/adding_a_game.md``)

Each player antes 1 and gets three cards; in seat order each folds or plays
(2 more chips); the best of the played hands (ranks high to low, suits
ignored) takes the pot, ties split it; nobody playing returns the antes.

Arguments (``high_card_v0.env(**options)``):

| option        | default | allowed |
|---------------|---------|---------|
| `num_players` | 3       | 2..6    |

Actions: ``Discrete(2)``: 0 fold, 1 play (both always legal on your turn).

Observation: ``{"observation": float32[53 + 2N], "action_mask": int8[2]}``, every
entry in [0, 1]; its layout is the game's ``observation_schema``
(``pokerzoo.envs.high_card.encoding.schema(N)``):

<!-- observation table: generated from the schema by `python -m pokerzoo.envs.observation_docs --write` -->
| offset | size | meaning |
|---|---|---|
| 0 | 52 | own cards, one-hot by card id |
| 52 | N | seat r (relative, r = 0 is the observer) has played |
| 52+N | N | seat r has folded |
| 52+2N | 1 | pot / the largest pot (3 chips per player) |

Size: 53+2N.
<!-- end of the generated observation table -->

Rewards: at the showdown, each player's net chips (won minus paid).

Version history: v0 — first release.
"""

from pokerzoo.envs.aec import make_env_fn, make_raw_env
from pokerzoo.envs.high_card.game import HighCardGame

Game = HighCardGame
raw_env = make_raw_env(HighCardGame, "high_card_v0", __doc__)
env = make_env_fn(raw_env)
