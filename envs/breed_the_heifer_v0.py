"""Breed the Heifer — ``breed_the_heifer_v0``

Seven-card stud for 2–7 players whose wild rank is bred by pairs of up cards,
with fixed-limit betting, all-ins and side pots (RULES.md §3; rules
document with every resolution: ``docs/games/breed_the_heifer.md``).

Each hand: everyone antes; 3rd street deals two down cards and one up card,
4th–6th street one up card each, 7th street one down card, with a betting
round after each; the best five of seven wins. When an up card repeats the
rank of an earlier up card of the same player (``wild_pairs="any_player"``:
of anyone), the next up card dealt makes its rank wild in every hand (all
four cards, up or down); a later pair clears it and breeds a new one; a pair
on the very last up card leaves nothing wild. Five of a kind tops straight flush.

Arguments (``breed_the_heifer_v0.env(**options)``):

| option             | default       | allowed                     | meaning                               |
|--------------------|---------------|-----------------------------|---------------------------------------|
| `num_players`      | 5             | 2..7                        | seats                                 |
| `wild_pairs`       | "same_player" | "same_player", "any_player" | which up-card pairs breed a wild      |
| `double_ace_flush` | False         | bool                        | a wild in a flush may be a second ace |
| `ante`             | 1             | 0..10⁶                      | chips each player antes               |
| `small_bet`        | 2             | 1..10⁶                      | bet size on 3rd and 4th street        |
| `big_bet`          | 4             | 1..10⁶                      | bet size on 5th to 7th street         |
| `max_raises`       | 3             | 0..100                      | raises after the bet, per round       |
| `stacks`           | 100           | int ≥ 1, or one per seat    | starting chips                        |
| `num_hands`        | 1             | 1..10000                    | hands per episode, stacks carried     |
| `render_mode`      | None          | "ansi", "human"             | text of the table                     |

Actions (``Discrete(5)``, masked):

| action | meaning                                                                                 |
|--------|-----------------------------------------------------------------------------------------|
| 0      | fold (offered only when there is something to call)                                     |
| 1      | check                                                                                   |
| 2      | call (all in for less when the stack is short)                                          |
| 3      | bet one bet of the street (or complete an all-in bet that was short of one)             |
| 4      | raise one bet (up to ``max_raises`` raises; all in for less when the stack is short)    |

Observation: ``{"observation": float32[52 + 52n + 20 + 8n + 16], "action_mask": int8[5]}``
(n = ``num_players``; 388 for five players), every entry in [0, 1]: own down
cards, every seat's up cards (seats relative to the observer), the wild rank
and pending pair, street, stacks, bets this round, chips put in this hand,
folded / all-in / button / first-to-act / to-act flags, pot, amount to call,
bet size, raises made, hand progress, the category of the observer's best
hand so far, players still in. The index table is in
``pokerzoo.envs.breed_the_heifer.encoding``.

Rewards: at the end of each hand, every player's net chips for that hand
(chips won minus chips put in); they sum to zero. Infos: after a hand,
``infos[agent]["outcome"]`` holds the pots (amount, eligible seats, winners),
every player's shown cards and category (showdown only), chips won, net and
the stacks.

Agents (``pokerzoo.agents.breed_the_heifer``): ``random``, ``calling_station``
(never folds, never bets), ``equity`` (Monte Carlo win chance against pot odds).

Version history: v0 — first release.
"""

from pokerzoo.envs.aec import make_env_fn, make_raw_env
from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame

Game = BreedTheHeiferGame
raw_env = make_raw_env(BreedTheHeiferGame, "breed_the_heifer_v0", __doc__)
env = make_env_fn(raw_env)
