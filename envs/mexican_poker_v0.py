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

Observation: ``{"observation": float32[1124] in [-1, 1], "action_mask": int8[1568]}``;
own hand, board, cards of completed tricks, the current trick (who played which
cards, their category, who is winning), the cards in every hand and board slot,
prediction chips placed and predictions once revealed, doubts, tricks,
hand sizes and scores per seat (seats relative to the viewer), token holder,
leader, player to act, phase, board size, round. Index table:
``pokerzoo.envs.mexican_poker.encoding``.

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
