"""Mexican poker ("Dead Man's Poker") — ``mexican_poker_v0``

2–7 players, 10 rounds, a 65-card deck in five suits (m l b t q = Mariachi,
Luchadores, Bandidos, Toreadores, Conquistadores; ranks 2..A). Each round the
token holder reveals a card whose corner numbers set the board size B and hand
size H (B + H = 8); everybody secretly predicts 0..6 tricks, puts a doubt chip
on an opponent's prediction, then plays tricks in which each player lays one
exact poker combination of own cards plus reusable board cards (RULES.md §1;
rules as implemented, with every resolution: ``docs/games/mexican_poker.md``).

Arguments (``mexican_poker_v0.env(**options)``):

| option         | default            | allowed               | meaning                                      |
|----------------|--------------------|-----------------------|----------------------------------------------|
| `num_players`  | 4                  | 2..7                  | seats                                        |
| `rounds`       | 10                 | 1..1000               | rounds per game; the token moves each round  |
| `corner_table` | `"rank_plus_suit"` | name / 65 digits / 65 entries | (B, H) pair of each card (below)     |
| `doubt_chips`  | True               | bool                  | play the doubt phase                         |
| `doubt_pass`   | False              | bool                  | allow keeping the chip (needs doubt_chips)   |
| `reward`       | `"score"`          | "score", "win"        | per-round points, or terminal win/loss       |
| `render_mode`  | None               | "ansi", "human"       | text: board, own hand, trick, score sheet    |

`corner_table`: the default gives the card of suit s and rank r (2 -> 0 ... A -> 12)
pair number (r + s) mod 5 of (1,7) (2,6) (3,5) (4,4) (5,3), so each pair is on 13
cards; otherwise a string of 65 digits 0..4 or 65 pair numbers / (B, H) pairs,
by card id (suit * 13 + rank).

Agents ``player_0 .. player_{n-1}``; turn order within each phase is
clockwise (increasing seat) from the token holder, and in tricks from the leader.

Actions (``Discrete(1568)``; full layout in ``pokerzoo.envs.mexican_poker.actions``):

| action    | phase   | meaning                                                                  |
|-----------|---------|--------------------------------------------------------------------------|
| 0–6       | predict | predict 0..6 tricks                                                      |
| 7         | doubt   | keep the doubt chip (legal only with ``doubt_pass=True``)                |
| 8–13      | doubt   | doubt the player 1..6 seats clockwise                                    |
| 14–1567   | play    | a combination: 1–5 of 12 slots with at least one hand slot (below)       |

Slots 0–6 are the own hand sorted by rank then suit, slots 7–11 the board
cards sorted the same way; the 1,554 slot sets come in
``itertools.combinations(range(12), k)`` order for k = 1..5.

The mask allows exactly the legal actions: in play, exactly the slot sets that
form an exact combination (``combos.legal_bits`` builds them by category).

Observation: ``{"observation": float32[1124], "action_mask": int8[1568]}``; scores lie
in [-1, 1], everything else in [0, 1] (the ``Box`` bounds are per entry). Seats are
relative to the viewer (seat k = k seats clockwise, seat 0 = the viewer), always
seven seat blocks; cards are one-hot by id ``suit * 13 + rank``. The layout is the
game's ``observation_schema`` (``pokerzoo.envs.mexican_poker.encoding.SCHEMA``:
offsets, named slices ``schema.view(obs, "hand")``, bounds):

<!-- observation table: generated from the schema by `python -m pokerzoo.envs.observation_docs --write` -->
| index | size | meaning |
|---|---|---|
| 0–64 | 65 | own hand (one-hot by card id) |
| 65–129 | 65 | board |
| 130–194 | 65 | hand cards of the completed tricks of this round |
| 195–649 | 7×65 | current trick: the cards (hand and board) seat k played |
| 650–726 | 7×11 | current trick: category of seat k's play (high card … royal flush) |
| 727–733 | 7 | current trick: seat k's play is winning so far |
| 734–859 | 7×18 | hand slot i: rank one-hot (13) then suit one-hot (5); empty slot 0 |
| 860–949 | 5×18 | board slot j: rank one-hot (13) then suit one-hot (5) |
| 950–956 | 7 | seat k has placed a prediction chip |
| 957–1005 | 7×7 | seat k's prediction 0..6, one-hot (own always; others once revealed) |
| 1006–1054 | 7×7 | seat k's doubt chip is on seat j (block k, entry j) |
| 1055–1061 | 7 | seat k kept its doubt chip (passed) |
| 1062–1068 | 7 | tricks taken this round by seat k / 7 |
| 1069–1075 | 7 | cards left in seat k's hand / 7 |
| 1076–1082 | 7 | game score of seat k / (13 × rounds) (in [−1, 1]) |
| 1083–1089 | 7 | seat k holds the first-player token |
| 1090–1096 | 7 | seat k led the current trick |
| 1097–1103 | 7 | seat k is to act |
| 1104–1110 | 7 | seat k is at the table (k < num_players) |
| 1111–1114 | 4 | phase: predict, doubt, play, over |
| 1115–1119 | 5 | board size B = 1..5, one-hot (hand size is 8 − B) |
| 1120 | 1 | round / rounds (rounds already finished) |
| 1121 | 1 | completed tricks this round / 7 |
| 1122 | 1 | doubt chips are played (option `doubt_chips`) |
| 1123 | 1 | passing a doubt is allowed (option `doubt_pass`) |

Size: 1124.
<!-- end of the generated observation table -->

Rewards: with ``reward="score"`` (default) each player receives the round's
points when the round is scored: the prediction line (prediction p, tricks t,
all tricks of the round T — p > 0: t > p → +p, t = p → +2p, t < p → −(p − t);
p = 0: t = 0 → +T, t > 0 → −t) plus the own doubt chip (+1 if the doubted player
missed exactly, −1 otherwise). With ``reward="win"`` only the end pays: winner
+1, others −1/(n−1); k tied leaders each get (n−k)/(k(n−1)) (zero-sum).

Infos: ``scores`` (game totals), ``last_round`` (predictions, tricks, doubts,
prediction and doubt points, totals of the last scored round) and at the end
``final_scores``, ``winners`` and ``draw``.

Version history: v0 — first release.
"""

from pokerzoo.envs.aec import make_env_fn, make_raw_env
from pokerzoo.envs.mexican_poker.game import MexicanPokerGame

Game = MexicanPokerGame
raw_env = make_raw_env(MexicanPokerGame, "mexican_poker_v0", __doc__)
env = make_env_fn(raw_env)
