"""Raspisnoy poker — ``raspisnoy_poker_v0``

"Painted poker": an Oh-Hell family trick-taking game with bids, two jokers,
special deals and a score sheet, for 2–10 players (RULES.md §4; rules
document with every resolution: ``docs/games/raspisnoy_poker.md``).

Each deal every player gets the same number of cards, bids how many tricks
they will take (the dealer, bidding last, may not make the bids add up to
the number of tricks), then the tricks are played: follow suit, else trump,
jokers at any time with a declaration. Exact bids score 10 per trick.

Arguments (``raspisnoy_poker_v0.env(**options)``):

| option                       | default     | allowed                       |
|------------------------------|-------------|-------------------------------|
| `num_players`                | 4           | 2..10                         |
| `deck`                       | `"54"`      | `"54"`, `"34"` (3–4 players)  |
| `schedule`                   | `"classic"` | `"classic"`, `"single"`, list |
| `single_deal`                | False       | bool                          |
| `start_cards`                | 3           | 1..⌊deck/players⌋             |
| `must_follow_suit`           | True        | bool                          |
| `must_trump`                 | True        | bool                          |
| `joker_lead_demands_highest` | False       | bool                          |
| `whole_deck_trump`           | `"shown"`   | `"shown"`, `"dealer_last"`    |
| `dark_multiplier`            | 2           | 1..100 (int or float)         |
| `render_mode`                | None        | `"ansi"`, `"human"`           |

* `deck`: 52 cards + red and black joker; or 34 = 7..A with 6♥ / 6♠ as the red / black joker.
* `schedule`: `classic` is the whole game (normal deals from `start_cards` up to ⌊deck/players⌋,
  each card count dealt once by every player, then a circle each of no-trump, dark, gold and
  misère with as many cards as possible, then a circle of one-card forehead deals); `single`
  is one deal drawn uniformly from the classic list (for training); or a list of
  `(cards, kind)` with kind `normal`, `no_trump`, `dark`, `gold`, `misere`, `forehead`
  (a bare int is a normal deal). `single_deal=True` draws one entry of the list per episode,
  uniformly, so an entry listed twice comes up twice as often (training on chosen deal kinds).
* `must_follow_suit` / `must_trump`: holding the led suit you must play it; void in it, you
  must trump if you can. `joker_lead_demands_highest`: after a high joker lead, followers
  play their highest card of the led suit. `dark_multiplier`: dark deals score normal × this.
* `whole_deck_trump`: when every card is dealt there is no card to turn; `shown`: a card is
  shown from the shuffled deck and shuffled back (RULES.md); `dealer_last`: the dealer's last
  card is turned face up and stays in the dealer's hand.

Actions: ``Discrete(73 + ⌊deck/players⌋ + 1)`` (87 for 4 players with 54 cards):

| action        | meaning                                                                          |
|---------------|----------------------------------------------------------------------------------|
| 0–51          | play the natural card with id ``suit*13 + rank`` (suits s, h, d, c; ranks 2..A) |
| 52 + 10j + k  | play joker j (0 red, 1 black) declared as k:                                     |
|               | k=0 high (trump lead: highest trump; follow: wins the trick)                     |
|               | k=1..4 high in s/h/d/c (lead without trump); k=5..8 low in s/h/d/c (lead)        |
|               | k=9 low (follow: below every card of the led suit)                               |
| 72            | forehead deals: play the card on your forehead (then declare it if a joker)     |
| 73 + b        | bid b tricks                                                                     |

The mask (``observation["action_mask"]``) allows exactly the legal actions:
during bidding the bids 0..cards minus the dealer's forbidden bid; in play
the cards the obligations allow and every declaration of a held joker that
fits the moment (lead or follow, trump or no trump).

Observation: ``{"observation": float32[186 + 120N], "action_mask": int8[num_actions]}``
(N = ``num_players``; 666 for 4 players). Seat blocks are by relative seat (r = 0 the
observer, r = 1 the next player clockwise); card slots are the natural id
``suit * 13 + rank``, red joker 52, black joker 53. Score totals are unbounded
(their ``Box`` bounds are ±inf), every other entry lies in [0, 1]. The layout is the
game's ``observation_schema`` (``pokerzoo.envs.raspisnoy_poker.encoding.schema(N)``:
offsets, named slices, bounds):

<!-- observation table: generated from the schema by `python -m pokerzoo.envs.observation_docs --write` -->
| offset | size | meaning |
|---|---|---|
| 0 | 54 | own hand (all zero while hidden: dark bidding, forehead) |
| 54 | 54 | cards played in the finished tricks of this deal |
| 108 | N×56 | current trick per relative seat: card played (54), declared high, declared low |
| 108+56N | 5 | led suit of the current trick: s, h, d, c, none |
| 113+56N | 5 | trump suit: s, h, d, c, none |
| 118+56N | 54 | the card shown to fix the trump (whole deck: it went back in) |
| 172+56N | N×54 | forehead deals: the others' cards seen, per relative seat |
| 172+110N | N | bids / max_cards (0 when not bid) |
| 172+111N | N | that seat has bid |
| 172+112N | N | tricks taken this deal / max_cards |
| 172+113N | N×4 | known voids: seat r holds no card of suit s (from play) |
| 172+117N | N | score sheet totals / 100 (unbounded) |
| 172+118N | 6 | deal kind: normal, no_trump, dark, gold, misere, forehead |
| 178+118N | 1 | cards per player this deal / max_cards |
| 179+118N | 1 | the whole deck is dealt |
| 180+118N | 1 | the own hand is hidden from the observer |
| 181+118N | 3 | phase: bid, play, declare (all zero once over) |
| 184+118N | N | dealer, one-hot by relative seat |
| 184+119N | N | leader of the current trick, one-hot by relative seat |
| 184+120N | 1 | deals finished / deals in the episode |
| 185+120N | 1 | tricks still to play this deal / max_cards |

Size: 186+120N.
<!-- end of the generated observation table -->

``env.unwrapped.view(agent)`` returns the full ``RaspisnoyView`` (including
the score sheet, row by row).

Rewards: at the end of every deal, each player's points for it (normal and
no-trump: exact bid b>0 10·b, exact 0 5, over 1 per trick, under −10 per
missing trick; dark: the same × ``dark_multiplier``; gold +10 per trick;
misère −10 per trick; forehead 50 / 5 / 1 / −50). The episode ends after
the last deal of the schedule; the sum of rewards is the final score.

Infos: after a deal, ``infos[agent]["deal"]`` holds its cards, kind, dealer,
bids (None in gold and misère), tricks, points and the running totals.

Version history: v0 — first release.
"""

from pokerzoo.envs.aec import make_env_fn, make_raw_env
from pokerzoo.envs.raspisnoy_poker.game import RaspisnoyPokerGame

Game = RaspisnoyPokerGame
raw_env = make_raw_env(RaspisnoyPokerGame, "raspisnoy_poker_v0", __doc__)
env = make_env_fn(raw_env)
