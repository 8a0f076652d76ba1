"""Caribbean stud — ``caribbean_stud_v0``

One agent (``player_0``) plays one to three boxes against the house dealer
(RULES.md §5; rules document: ``docs/games/caribbean_stud.md``).

Arguments (``caribbean_stud_v0.env(**options)``):

| option         | default | allowed          | meaning                                                      |
|----------------|---------|------------------|--------------------------------------------------------------|
| `boxes`        | 1       | 1..3             | boxes per hand, each with its own ante and decision          |
| `ante_choices` | `(1,)`  | distinct ints ≥1 | antes allowed per box; with several, each box's ante is picked first |
| `num_hands`    | 1       | 1..10^7          | hands per episode, the deck reshuffled every hand            |
| `render_mode`  | None    | "ansi", "human"  | text rendering                                               |

Actions (``Discrete(2)``, or ``Discrete(2 + len(ante_choices))`` with ante choices):

| action | meaning                                       |
|--------|-----------------------------------------------|
| 0      | fold the current box (lose its ante)          |
| 1      | raise the current box (bet twice the ante)    |
| 2 + i  | ante ``ante_choices[i]`` for the current box  |

Observation: ``{"observation": float32[179] in [0, 1], "action_mask": int8[num_actions]}``;
cards are one-hot by id ``suit * 13 + rank`` (suits s, h, d, c; ranks 2..A). The
layout is the game's ``observation_schema`` (``pokerzoo.envs.caribbean_stud.encoding.SCHEMA``:
offsets, named slices, bounds):

<!-- observation table: generated from the schema by `python -m pokerzoo.envs.observation_docs --write` -->
| index | size | meaning |
|---|---|---|
| 0–51 | 52 | the cards of the box being decided (one-hot by card id) |
| 52–103 | 52 | the dealer's face-up card |
| 104–155 | 52 | cards of the other boxes already seen (earlier boxes) |
| 156–158 | 3 | which box is being decided (box 1, 2, 3) |
| 159 | 1 | antes are being chosen (before the deal) |
| 160–162 | 3 | box 1..3 raised |
| 163–165 | 3 | box 1..3 folded |
| 166 | 1 | ante of the current box / largest allowed ante (0 if not set) |
| 167–177 | 11 | category of the current box's hand (Caribbean order, one-hot) |
| 178 | 1 | fraction of the episode's hands already played |

Size: 179.
<!-- end of the generated observation table -->

Rewards: at the end of each hand, the net chips won over all boxes, in ante
units (ante 1 = one unit): folded box −ante; raised box against a dealer
without Ace-King +ante; against a qualified dealer +ante + 2·ante·pay (pay
table: royal flush 100, straight flush 50, quads 20, full house 7, flush 5,
straight 4, trips 3, two pair 2, pair 1, Ace-King 1) when the box wins,
−3·ante when it loses, 0 on a tie.

Infos: after a hand, ``infos["player_0"]["outcome"]`` holds every box's cards,
category, ante, decision, result and net, and the dealer's hand, category and
whether it qualified.

Version history: v0 — first release.
"""

from pokerzoo.envs.aec import make_env_fn, make_raw_env
from pokerzoo.envs.caribbean_stud.game import CaribbeanStudGame

Game = CaribbeanStudGame
raw_env = make_raw_env(CaribbeanStudGame, "caribbean_stud_v0", __doc__)
env = make_env_fn(raw_env)
