"""Perico and Six-card Perico — ``perico_v0``

Draw-and-discard poker with jokers and knocking, 2–6 players (six-card
2–5), played in rounds until one player reaches the target score
(RULES.md §2; rules document: ``docs/games/perico.md``). Each round every
player is dealt 5 cards (six-card: 6); in turn, clockwise from the dealer's
left, a player draws a card and discards one, or exchanges 1..all cards, or
— once everyone has taken a draw turn this round — knocks to compare hands.
A royal flush ends the round at once. The best hand scores a point and deals
next; a tie scores nothing and the round is replayed by the same dealer.

Arguments (``perico_v0.env(**options)``):

| option                     | default  | allowed              | meaning                                     |
|----------------------------|----------|----------------------|---------------------------------------------|
| `num_players`              | 4        | 2..6 (six-card 2..5) | seats                                       |
| `six_card`                 | False    | bool                 | six-card hands, 15 categories, 4 jokers     |
| `deck`                     | None     | None, "54", "56"     | None: 52+2 jokers (six-card: 52+4 jokers)   |
| `target_score`             | None     | None or 1..1000      | points that win; None: 5 (six-card 6)       |
| `jokers_in_five_of_a_kind` | True     | bool                 | False: no jokers in five (or six) of a kind |
| `reward`                   | "points" | "points", "win"      | see Rewards                                 |
| `max_rounds`               | 200      | 1..100000            | safety cap: leaders then win (truncation)   |
| `max_turns_per_round`      | 100      | 1..100000            | draw turns, then the round ends as knocked  |
| `render_mode`              | None     | "ansi", "human"      | text table from the acting seat's view      |

Actions (``Discrete(40)``, six-card ``Discrete(73)``; H = hand size; the hand
is kept sorted by rank 2..A, then suit s h d c, jokers last, and slot i is
the i-th card of it):

| action          | phase   | meaning                                                           |
|-----------------|---------|-------------------------------------------------------------------|
| 0               | knock   | knock: the round ends and the hands are compared                  |
| 1               | knock   | play on                                                           |
| 2               | turn    | draw the top stock card, then discard one (phase discard)         |
| 3 .. 3+H        | discard | discard slot 0..H-1, or slot H = the card just drawn              |
| 4+H .. 2+H+2^H  | turn    | exchange: discard the slots in bit mask m = action − (3+H), draw as many |

Exchanged cards go on the pile in slot order, the last one on top.

The knock phase exists only once every player has taken a draw turn this
round; before that a turn starts in the turn phase and knocking is masked.
``BIDDING_PHASES = {"knock"}``: a composite agent ``a+b`` knocks like ``a``
and draws like ``b``.

Observation: ``{"observation": float32[423] in [0, 1], "action_mask": int8[num_actions]}``,
one layout for both variants. Card blocks are one-hot over 56 card slots (natural id
``suit * 13 + rank``, 0..51; RJ, BJ, RJ2, BJ2 at 52..55); seats are relative to the
observer (block 0 = the observer, 1 = the next player clockwise, ...), blocks beyond
``num_players`` stay zero; the category order of each variant is listed in
``pokerzoo.envs.perico.encoding``. The layout is the game's ``observation_schema``
(``pokerzoo.envs.perico.encoding.SCHEMA``: offsets, named slices, bounds):

<!-- observation table: generated from the schema by `python -m pokerzoo.envs.observation_docs --write` -->
| index | size | meaning |
|---|---|---|
| 0–55 | 56 | own hand (the drawn card excluded) |
| 56–111 | 56 | the card just drawn, during the observer's discard decision |
| 112–167 | 56 | top card of the discard pile |
| 168–223 | 56 | every card in the discard pile (face up, so public) |
| 224–349 | 7×18 | hand slot i (slot H = the drawn card): rank 2..A or joker (14), suit s h d c (4) |
| 350 | 1 | stock size / deck size |
| 351 | 1 | discard pile size / deck size |
| 352–399 | 6×8 | relative seat k (entries below) |
| 400–402 | 3 | phase: knock, turn, discard |
| 403 | 1 | draw turns taken this round / `max_turns_per_round` (capped at 1) |
| 404 | 1 | round number / `max_rounds` (capped at 1) |
| 405–419 | 15 | category of the own hand, one-hot by index in the variant's order |
| 420 | 1 | jokers in the own hand / 4 |
| 421 | 1 | six-card variant |
| 422 | 1 | number of players / 6 |

Entries of each `seats` block: 0 seated; 1 has taken a draw turn this round; 2 draw turns this round
/ 10 (capped at 1); 3 cards exchanged this round / 30 (capped at 1); 4 cards exchanged on its latest
turn / H; 5 score / target; 6 is the dealer; 7 is to act.

Size: 423.
<!-- end of the generated observation table -->

Rewards: ``reward="points"``: +1 to a round's winner when the point is
scored (ties score nothing). ``reward="win"``: only at the end, the winner
+1 and every other player −1/(n−1); at the ``max_rounds`` cap tied leaders
split what the others pay.

Infos: every agent's ``infos`` holds ``round``, ``scores``, ``dealer``, the
last round's outcome (``last_round``: reason — knock, turn_cap, royal_dealt,
royal_drawn —, winner or tied seats, the hands shown and their categories)
and, at the end, ``winners``.

Version history: v0 — first release.
"""

from pokerzoo.envs.aec import make_env_fn, make_raw_env
from pokerzoo.envs.perico.game import PericoGame

Game = PericoGame
raw_env = make_raw_env(PericoGame, "perico_v0", __doc__)
env = make_env_fn(raw_env)
