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
| `action_counts`    | False         | bool                        | also each seat's checks, calls, bets  |
| `render_mode`      | None          | "ansi", "human"             | text of the table                     |

Actions (``Discrete(5)``, masked):

| action | meaning                                                                                 |
|--------|-----------------------------------------------------------------------------------------|
| 0      | fold (offered only when there is something to call)                                     |
| 1      | check                                                                                   |
| 2      | call (all in for less when the stack is short)                                          |
| 3      | bet one bet of the street (or complete an all-in bet that was short of one)             |
| 4      | raise one bet (up to ``max_raises`` raises; all in for less when the stack is short)    |

Observation: ``{"observation": float32[88 + 60N], "action_mask": int8[5]}``
(N = ``num_players``; 388 for five players), every entry in [0, 1]. Seats are
relative to the observer (k = 0 the observer, k = 1 the next seat clockwise, ...);
cards are one-hot by id ``suit * 13 + rank``. The layout is the game's
``observation_schema`` (``pokerzoo.envs.breed_the_heifer.encoding.schema(N)``:
offsets, named slices, bounds):

<!-- observation table: generated from the schema by `python -m pokerzoo.envs.observation_docs --write` -->
| offset | size | meaning |
|---|---|---|
| 0 | 52 | own down cards (one-hot by card id) |
| 52 | N×52 | cards face up in front of relative seat k |
| 52+52N | 13 | the wild rank, one-hot 2..A (all zero: nothing wild) |
| 65+52N | 1 | a pair is pending (the next up card's rank becomes wild) |
| 66+52N | 5 | street one-hot: 3rd, 4th, 5th, 6th, 7th |
| 71+52N | 1 | the episode is over |
| 72+52N | N | stack of relative seat k / chips at the table |
| 72+53N | N | seat k's bet this round / (max bets × largest bet size) |
| 72+54N | N | seat k's chips put in this hand / chips at the table |
| 72+55N | N | seat k is out of the hand (folded or not dealt in) |
| 72+56N | N | seat k is all in |
| 72+57N | N | seat k has the dealer button |
| 72+58N | N | seat k is named first to act this street |
| 72+59N | N | seat k is to act now |
| 72+60N | 1 | pot / chips at the table |
| 73+60N | 1 | to call / (max bets × largest bet size) |
| 74+60N | 1 | this street's bet is the big bet |
| 75+60N | 1 | bets and raises made this round / max bets |
| 76+60N | 1 | hands already played / hands in the episode |
| 77+60N | 10 | category of the own best hand so far, current wild (high card … five of a kind) |
| 87+60N | 1 | players still in the hand / N |

Size: 88+60N.
<!-- end of the generated observation table -->

With ``action_counts=True`` the piece ``actions`` (N×3) follows at 88+60N: the
times relative seat k checked, called, and bet or raised this hand / (5 × max
bets), at most 1; the rest of the vector is unchanged (rules page, "Action counts").

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
