"""Raspisnoy poker as a batched kernel: ``RaspisnoyPokerGame``'s rules over arrays, one game per row.

Every option of the scalar game: both decks, every schedule (``classic``,
``single``, explicit lists of normal, no-trump, dark, gold, misère and
forehead deals, whole or one entry drawn with ``single_deal``), the joker
declarations on lead and on follow, the obligation switches
(``must_follow_suit``, ``must_trump``, ``joker_lead_demands_highest``), both
ways of fixing the trump when the whole deck is dealt, ``dark_multiplier``, 2
to 10 players. The draws are the scalar game's, in its order: the first
dealer (``Chance.integer(n)``), the drawn entry of a single-deal schedule
(``Chance.integer(len(list))``), one ``Chance.shuffle`` of the deck per deal
and, when the whole deck is dealt with the trump shown, the
place the shown card goes back to (``Chance.integer(len(deck))``). The
observation is ``encoding.encode``'s vector (its offsets are read from the
encoding's schema, not written here), the mask the scalar ``legal_action_list``;
``tests/envs/raspisnoy_poker/test_batched.py`` checks both, the rewards and
the generator step by step against the scalar game with the differential kit.

Cards are held by their observation slot (``encoding.SLOT``: naturals keep
their id ``suit * 13 + rank``, the red joker is 52, the black one 53), so a
hand, the cards played and the cards still out are int64 bit masks over the
54 slots, and writing one into the observation walks its set bits. The
shuffle itself runs on the deck's card ids (a ``ScriptedChance`` names ids).

State per row: the episode (first dealer, the ``single`` entry, deal index,
running totals), the deal (cards, kind, dealer, trump suit and the slot of
the card that fixed it, whether the whole deck is dealt), the bidding and the
play (phase, player to act, leader, bids, tricks taken, hands, the current
trick as (slot, declaration, suit) per play in seat order from the leader, a
forehead joker waiting for its declaration, the cards of the finished
tricks, known voids) and a scratch deck for the shuffle. The ceilings of the
``joker_lead_demands_highest`` variant are not kept: they are in the scalar
view for search agents, not in the observation.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba
import numpy as np

from pokerzoo.envs.batched import chance as chance_lib
from pokerzoo.envs.batched.bits import highest_bit, lowest_bit
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.core import CHUNK, RUNNING, START, TERMINATED, GameKernel
from pokerzoo.envs.engine.cards import DECKS
from pokerzoo.envs.engine.tricks import HIGH, LOW, NATURAL
from pokerzoo.envs.raspisnoy_poker import actions, encoding, schedule
from pokerzoo.envs.raspisnoy_poker.game import RaspisnoyPokerGame, draws_single_deal

# Deal kinds, by their index in ``schedule.KINDS`` (the observation's one-hot order).
NORMAL, NO_TRUMP, DARK, GOLD, MISERE, FOREHEAD = (
    schedule.KINDS.index(k)
    for k in (schedule.NORMAL, schedule.NO_TRUMP, schedule.DARK, schedule.GOLD, schedule.MISERE, schedule.FOREHEAD)
)
# Phases, in the observation's order (bid, play, declare).
BID, PLAY, DECLARE = 0, 1, 2

SLOTS = encoding.CARD_SLOTS  # 54: 52 naturals, then the red and the black joker
RED_SLOT, BLACK_SLOT = 52, 53
JOKER_BITS = (1 << RED_SLOT) | (1 << BLACK_SLOT)
NATURAL_BITS = (1 << 52) - 1
SUIT_BITS = 0x1FFF  # the 13 ranks of suit 0; suit s is ``SUIT_BITS << 13 * s``
TRICK_STRIDE = encoding.TRICK_SLOT  # a seat's block of the current trick: its card, then declared high, low
JOKER_BASE, DECLS, FOREHEAD_ACTION, BID_BASE = (
    actions.JOKER_BASE,
    actions.DECLS_PER_JOKER,
    actions.FOREHEAD,
    actions.BID_BASE,
)
HIGH_PLAIN, LOW_PLAIN = actions.HIGH_PLAIN, actions.LOW_PLAIN
# ``engine.tricks.strength``'s tiers
TIER, LED_TIER, TRUMP_TIER, TOP_TIER = 32, 1, 2, 3


class RaspisnoyState(NamedTuple):
    first_dealer: np.ndarray  # int64[N]
    entry: np.ndarray  # int64[N]: the schedule entry of deal 0 (the drawn one for ``single``, else 0)
    deal_index: np.ndarray  # int64[N]
    cards: np.ndarray  # int64[N]: cards per player this deal
    kind: np.ndarray  # int64[N]: index in schedule.KINDS
    dealer: np.ndarray  # int64[N]
    whole: np.ndarray  # int64[N]: 1 if every card is dealt
    trump: np.ndarray  # int64[N]: suit 0..3, or -1
    trump_card: np.ndarray  # int64[N]: slot of the card that fixed the trump, or -1
    phase: np.ndarray  # int64[N]: BID, PLAY or DECLARE
    to_act: np.ndarray  # int64[N]
    leader: np.ndarray  # int64[N]: who led (or leads) the current trick
    trick_len: np.ndarray  # int64[N]
    done: np.ndarray  # int64[N]: tricks finished this deal
    pending: np.ndarray  # int64[N]: forehead joker (slot) waiting for its declaration, or -1
    played: np.ndarray  # int64[N]: slots of the cards of the finished tricks of this deal
    hands: np.ndarray  # int64[N, P]: slot bit masks
    bids: np.ndarray  # int64[N, P]: -1 = not bid
    tricks: np.ndarray  # int64[N, P]: taken this deal
    voids: np.ndarray  # int64[N, P]: bit s = known to hold no card of suit s
    scores: np.ndarray  # float64[N, P]: running totals
    trick_card: np.ndarray  # int64[N, P]: the current trick's slots, k-th play by seat leader + k
    trick_decl: np.ndarray  # int64[N, P]: NATURAL, HIGH or LOW
    trick_suit: np.ndarray  # int64[N, P]: the suit the play counts in (tricks.Play.suit)
    deck: np.ndarray  # int64[N, D]: the shuffled deck (card ids) of the current deal


_PER_SEAT = frozenset({"hands", "bids", "tricks", "voids", "scores", "trick_card", "trick_decl", "trick_suit"})


class RaspisnoyParams(NamedTuple):
    n: int  # players
    deck_size: int
    deck: np.ndarray  # int64[D]: the deck's card ids in their order before shuffling
    slot: np.ndarray  # int64[69]: card id -> slot
    deck_slots: int  # bit mask of the deck's slots
    deck_naturals: int  # the same, naturals only
    max_cards: int
    scale: float  # 1 / max_cards, as the encoder computes it
    sched_cards: np.ndarray  # int64[K]: the schedule (the classic one for ``single``)
    sched_kind: np.ndarray  # int64[K]
    single: bool  # draw one entry of the schedule per episode
    num_deals: int  # deals per episode (1 for ``single``)
    shown: bool  # whole_deck_trump == "shown"
    must_follow_suit: bool
    must_trump: bool
    demands_highest: bool  # joker_lead_demands_highest
    dark_multiplier: float
    # observation offsets, from encoding.schema (``o_`` + the pieces' names)
    o_hand: int
    o_played: int
    o_trick: int
    o_led: int
    o_trump: int
    o_trump_card: int
    o_visible: int
    o_bids: int
    o_has_bid: int
    o_tricks: int
    o_voids: int
    o_totals: int
    o_kind: int
    o_cards: int
    o_whole: int
    o_hidden: int
    o_phase: int
    o_dealer: int
    o_leader: int
    o_progress: int
    o_remaining: int


def observation_offsets(n: int) -> dict[str, int]:
    """The encoder's offsets for ``n`` players (``encoding.schema``), as ``RaspisnoyParams`` fields: ``o_hand``..."""
    return {f"o_{name}": at for name, at in encoding.schema(n).offsets.items()}


# ---------------------------------------------------------------- tricks (``engine.tricks`` over slots)
@kernel
def strength(slot, decl, suit, led, trump):
    """``tricks.strength`` of a play: its slot, declaration and the suit it counts in."""
    if slot >= RED_SLOT:
        red = slot == RED_SLOT
        if decl == HIGH:
            return TOP_TIER * TIER + (2 if red else 1)
        s = suit
        rank = 2 if red else 1
    else:
        s = slot // 13
        rank = slot % 13 + 3
    if s == trump and trump >= 0:
        return TRUMP_TIER * TIER + rank
    if s == led:
        return LED_TIER * TIER + rank
    return rank


@kernel(inline=True)
def trick_best(state, i, trump):
    """(index of the winning play, its strength) of row i's current trick; (0, -1) when it is empty."""
    led = state.trick_suit[i, 0]
    best, best_k = -1, 0
    for k in range(state.trick_len[i]):
        s = strength(state.trick_card[i, k], state.trick_decl[i, k], state.trick_suit[i, k], led, trump)
        if s > best:
            best, best_k = s, k
    return best_k, best


@kernel
def decode_joker(action):
    """(slot, declaration, declared suit or -1) of a joker action (``actions.decode_joker``)."""
    j = (action - JOKER_BASE) // DECLS
    k = (action - JOKER_BASE) % DECLS
    slot = RED_SLOT + j
    if k == HIGH_PLAIN:
        return slot, HIGH, -1
    if k == LOW_PLAIN:
        return slot, LOW, -1
    if k <= 4:
        return slot, HIGH, k - 1
    return slot, LOW, k - 5


@kernel
def play_suit(slot, decl, declared, trick_len, led, trump):
    """The suit a play counts in (``tricks.make_play``)."""
    if slot < RED_SLOT:
        return slot // 13
    if trick_len > 0:
        return led
    if decl == HIGH and trump >= 0:
        return trump
    return declared


@kernel(inline=True)
def own_hand_hidden(state, i):
    """Dark deals hide one's own cards while bidding, forehead deals throughout."""
    kind = state.kind[i]
    return kind == FOREHEAD or (kind == DARK and state.phase[i] == BID)


# ---------------------------------------------------------------- dealing
@kernel(inline=True)
def _start_deal(state, params, chance, i):
    n = params.n
    e = state.entry[i] + state.deal_index[i]
    cards = params.sched_cards[e]
    kind = params.sched_kind[e]
    state.cards[i] = cards
    state.kind[i] = kind
    dealer = (state.first_dealer[i] + state.deal_index[i]) % n
    state.dealer[i] = dealer
    deck = state.deck[i]
    size = params.deck_size
    chance_lib.shuffle(chance, i, params.deck, size, deck)
    whole = cards * n == size
    trump_card = -1
    if kind != NO_TRUMP:
        if not whole:
            trump_card = deck[n * cards]
        elif params.shown:
            # Shown from the top, then put back at a random place among the other size - 1 cards.
            trump_card = deck[0]
            at = chance_lib.integer(chance, i, size)
            for k in range(at):
                deck[k] = deck[k + 1]
            deck[at] = trump_card
        else:
            trump_card = deck[dealer * cards + cards - 1]  # the dealer's last card, face up
    for s in range(n):
        h = 0
        for k in range(s * cards, (s + 1) * cards):
            h |= 1 << params.slot[deck[k]]
        state.hands[i, s] = h
        state.bids[i, s] = -1
        state.tricks[i, s] = 0
        state.voids[i, s] = 0
    state.whole[i] = whole
    state.trump[i] = trump_card // 13 if 0 <= trump_card < 65 else -1
    state.trump_card[i] = params.slot[trump_card] if trump_card >= 0 else -1
    state.trick_len[i] = 0
    state.done[i] = 0
    state.pending[i] = -1
    state.played[i] = 0
    leader = (dealer + 1) % n
    state.leader[i] = leader
    state.to_act[i] = leader
    state.phase[i] = PLAY if kind in (GOLD, MISERE) else BID


@kernel(inline=True)
def start(state, params, chance, i):
    state.first_dealer[i] = chance_lib.integer(chance, i, params.n)
    if params.single:
        state.entry[i] = chance_lib.integer(chance, i, params.sched_cards.shape[0])
    else:
        state.entry[i] = 0
    state.deal_index[i] = 0
    for s in range(params.n):
        state.scores[i, s] = 0.0
    _start_deal(state, params, chance, i)


# ---------------------------------------------------------------- scoring
@kernel
def deal_points(kind, bid, tricks, dark_multiplier):
    """``scoring.deal_points``, as a float."""
    if kind == GOLD:
        return float(10 * tricks)
    if kind == MISERE:
        return float(-10 * tricks)
    if kind == FOREHEAD:
        if bid == 1:
            return 50.0 if tricks == 1 else -50.0
        return 5.0 if tricks == 0 else 1.0
    if tricks == bid:
        points = 10 * tricks if bid > 0 else 5
    elif tricks > bid:
        points = tricks
    else:
        points = -10 * (bid - tricks)
    if kind == DARK:
        return points * dark_multiplier
    return float(points)


@kernel(inline=True)
def _end_deal(state, params, chance, i, rewards):
    kind = state.kind[i]
    for s in range(params.n):
        points = deal_points(kind, state.bids[i, s], state.tricks[i, s], params.dark_multiplier)
        rewards[s] += points
        state.scores[i, s] += points
    state.deal_index[i] += 1
    if state.deal_index[i] == params.num_deals:
        return TERMINATED
    _start_deal(state, params, chance, i)
    return RUNNING


# ---------------------------------------------------------------- play
@kernel(inline=True)
def _put(state, params, chance, i, seat, slot, decl, declared, rewards):
    """``RaspisnoyPokerGame._put``: the play into the trick, what it shows, the trick's end."""
    n = params.n
    k = state.trick_len[i]
    trump = state.trump[i]
    led = state.trick_suit[i, 0]
    suit = play_suit(slot, decl, declared, k, led, trump)
    if k > 0 and slot < RED_SLOT and params.must_follow_suit and suit != led:
        voids = 1 << led
        if params.must_trump and trump >= 0 and suit != trump:
            voids |= 1 << trump
        state.voids[i, seat] |= voids
    state.trick_card[i, k] = slot
    state.trick_decl[i, k] = decl
    state.trick_suit[i, k] = suit
    k += 1
    state.trick_len[i] = k
    if k < n:
        state.to_act[i] = (seat + 1) % n
        return RUNNING
    best_k, _ = trick_best(state, i, trump)
    w = (state.leader[i] + best_k) % n
    state.tricks[i, w] += 1
    played = state.played[i]
    for t in range(n):
        played |= 1 << state.trick_card[i, t]
    state.played[i] = played
    state.trick_len[i] = 0
    state.leader[i] = w
    state.to_act[i] = w
    state.done[i] += 1
    if state.done[i] == state.cards[i]:
        return _end_deal(state, params, chance, i, rewards)
    return RUNNING


@kernel(inline=True)
def apply(state, params, chance, i, action, rewards):
    p = state.to_act[i]
    phase = state.phase[i]
    if phase == BID:
        state.bids[i, p] = action - BID_BASE
        if p == state.dealer[i]:
            state.phase[i] = PLAY
            state.to_act[i] = state.leader[i]
        else:
            state.to_act[i] = (p + 1) % params.n
        return RUNNING
    if phase == DECLARE:
        slot, decl, suit = decode_joker(action)
        state.pending[i] = -1
        state.phase[i] = PLAY
        return _put(state, params, chance, i, p, slot, decl, suit, rewards)
    hand = state.hands[i, p]
    if action == FOREHEAD_ACTION:
        slot = highest_bit(hand)  # the one (unseen) card: ``hand.pop()``
        state.hands[i, p] = hand & ~(1 << slot)
        if slot >= RED_SLOT:
            state.pending[i] = slot
            state.phase[i] = DECLARE
            return RUNNING
        return _put(state, params, chance, i, p, slot, NATURAL, -1, rewards)
    if action < JOKER_BASE:
        state.hands[i, p] = hand & ~(1 << action)
        return _put(state, params, chance, i, p, action, NATURAL, -1, rewards)
    slot, decl, suit = decode_joker(action)
    state.hands[i, p] = hand & ~(1 << slot)
    return _put(state, params, chance, i, p, slot, decl, suit, rewards)


# ---------------------------------------------------------------- observation and mask
@kernel
def _ones(obs, base, bits):
    while bits:
        obs[base + lowest_bit(bits)] = 1.0
        bits &= bits - 1


@kernel
def joker_declares(k, leading, trump):
    """Whether a joker may be played with declaration ``k`` (its action ``base + k``): ``tricks.joker_declarations``."""
    if not leading:
        return k in (HIGH_PLAIN, LOW_PLAIN)
    if 5 <= k <= 8:
        return True  # low in a suit
    if trump >= 0:
        return k == HIGH_PLAIN  # the highest trump
    return 1 <= k <= 4  # high in a suit


@kernel(inline=True)
def legal_cards(state, params, i, hand):
    """The slots of ``hand`` the player to act may put into row i's trick (``tricks.legal_cards``)."""
    if state.trick_len[i] == 0:
        return hand
    led = state.trick_suit[i, 0]
    follow = hand & (SUIT_BITS << (13 * led))
    if follow:
        if not params.must_follow_suit:
            return hand
        if params.demands_highest and state.trick_decl[i, 0] == HIGH:
            follow = 1 << highest_bit(follow)
        return follow | (hand & JOKER_BITS)
    trump = state.trump[i]
    if params.must_trump and trump >= 0:
        trumps = hand & (SUIT_BITS << (13 * trump))
        if trumps:
            return trumps | (hand & JOKER_BITS)
    return hand


@kernel(inline=True)
def playable(state, params, i):
    """In the play and declare phases (not forehead play), the slots the player to act may play now."""
    if state.phase[i] == DECLARE:
        return 1 << state.pending[i]
    return legal_cards(state, params, i, state.hands[i, state.to_act[i]])


@kernel(inline=True)
def forbidden_bid(state, params, i):
    """The bid the player to act may not make (the dealer's that makes the bids add up), or -1."""
    dealer = state.dealer[i]
    if state.to_act[i] != dealer:
        return -1
    cards = state.cards[i]
    rest = cards
    for s in range(params.n):
        if s != dealer:
            rest -= state.bids[i, s]
    return rest if 0 <= rest <= cards else -1


@kernel(inline=True)
def legal_mask(state, params, i, mask):
    """``RaspisnoyPokerGame.legal_action_list`` of row i into ``mask`` (cleared by the caller)."""
    if state.phase[i] == BID:
        forbidden = forbidden_bid(state, params, i)
        for b in range(state.cards[i] + 1):
            if b != forbidden:
                mask[BID_BASE + b] = True
        return
    if state.phase[i] == PLAY and state.kind[i] == FOREHEAD:
        mask[FOREHEAD_ACTION] = True
        return
    legal = playable(state, params, i)
    naturals = legal & NATURAL_BITS
    while naturals:
        mask[lowest_bit(naturals)] = True
        naturals &= naturals - 1
    leading = state.trick_len[i] == 0
    trump = state.trump[i]
    for slot in range(RED_SLOT, BLACK_SLOT + 1):
        if (legal >> slot) & 1:
            base = JOKER_BASE + DECLS * (slot - RED_SLOT)
            for k in range(DECLS):
                if joker_declares(k, leading, trump):
                    mask[base + k] = True


@kernel(inline=True)
def observe(state, params, i, obs, mask):
    """``encoding.encode`` of the player to act's view into ``obs``, the legal actions into ``mask``; the player."""
    obs[:] = 0.0
    mask[:] = False
    n = params.n
    me = state.to_act[i]
    kind = state.kind[i]
    phase = state.phase[i]
    hidden = own_hand_hidden(state, i)
    if not hidden:
        _ones(obs, params.o_hand, state.hands[i, me])
    _ones(obs, params.o_played, state.played[i])
    leader = state.leader[i]
    trick_len = state.trick_len[i]
    for k in range(trick_len):
        base = params.o_trick + TRICK_STRIDE * ((leader + k - me) % n)
        obs[base + state.trick_card[i, k]] = 1.0
        decl = state.trick_decl[i, k]
        if decl == HIGH:
            obs[base + SLOTS] = 1.0
        elif decl == LOW:
            obs[base + SLOTS + 1] = 1.0
    if state.pending[i] >= 0:
        obs[params.o_trick + state.pending[i]] = 1.0  # the revealed joker of the player to act (relative seat 0)
    obs[params.o_led + (state.trick_suit[i, 0] if trick_len > 0 else 4)] = 1.0
    trump = state.trump[i]
    obs[params.o_trump + (trump if trump >= 0 else 4)] = 1.0
    if state.trump_card[i] >= 0:
        obs[params.o_trump_card + state.trump_card[i]] = 1.0
    scale = params.scale
    for seat in range(n):
        r = (seat - me) % n
        if kind == FOREHEAD and seat != me:
            _ones(obs, params.o_visible + SLOTS * r, state.hands[i, seat])
        b = state.bids[i, seat]
        if b >= 0:
            obs[params.o_has_bid + r] = 1.0
            obs[params.o_bids + r] = b * scale
        v = state.voids[i, seat]
        for s in range(4):
            if (v >> s) & 1:
                obs[params.o_voids + 4 * r + s] = 1.0
        obs[params.o_tricks + r] = state.tricks[i, seat] * scale
        obs[params.o_totals + r] = state.scores[i, seat] / 100.0
    obs[params.o_kind + kind] = 1.0
    if state.whole[i]:
        obs[params.o_whole] = 1.0
    if hidden:
        obs[params.o_hidden] = 1.0
    obs[params.o_phase + phase] = 1.0
    obs[params.o_dealer + (state.dealer[i] - me) % n] = 1.0
    obs[params.o_leader + (leader - me) % n] = 1.0
    obs[params.o_cards] = state.cards[i] * scale
    obs[params.o_progress] = state.deal_index[i] / params.num_deals
    obs[params.o_remaining] = (state.cards[i] - state.done[i]) * scale
    legal_mask(state, params, i, mask)
    return me


# ---------------------------------------------------------------- the row loop (the same in every game)
@kernel(inline=True)
def _row(state, params, chance, i, action, out):
    rewards = out.rewards[i]
    rewards[:] = 0.0
    out.status[i] = RUNNING
    if action == START:
        start(state, params, chance, i)
    else:
        status = apply(state, params, chance, i, action, rewards)
        out.status[i] = status
        if status != RUNNING:
            chance_lib.end_game(chance, i)
            start(state, params, chance, i)
    out.player[i] = observe(state, params, i, out.obs[i], out.mask[i])


@kernel
def run_rows(state, params, chance, rows, actions, out):
    for k in range(rows.shape[0]):
        _row(state, params, chance, rows[k], actions[k], out)


@kernel(parallel=True)
def run_rows_parallel(state, params, chance, rows, actions, out):
    for c in numba.prange((rows.shape[0] + CHUNK - 1) // CHUNK):
        lo = c * CHUNK
        hi = min(rows.shape[0], lo + CHUNK)
        run_rows(state, params, chance, rows[lo:hi], actions[lo:hi], out)


# ---------------------------------------------------------------- the kernel class
class RaspisnoyKernel(GameKernel):
    game_class = RaspisnoyPokerGame
    run_rows = staticmethod(run_rows)
    run_rows_parallel = staticmethod(run_rows_parallel)

    def make_params(self, config: dict[str, Any]) -> RaspisnoyParams:
        n, deck_name = int(config["num_players"]), config["deck"]
        deck = np.array(DECKS[deck_name].cards, dtype=np.int64)
        slot = encoding.SLOT.astype(np.int64)
        size = len(deck)
        top = schedule.max_cards(size, n)
        value = config["schedule"]
        entries = schedule.classic(n, size, config["start_cards"]) if isinstance(value, str) else value
        single = draws_single_deal(config)
        return RaspisnoyParams(
            n=n,
            deck_size=size,
            deck=deck,
            slot=slot,
            deck_slots=sum(1 << int(slot[c]) for c in deck),
            deck_naturals=sum(1 << int(slot[c]) for c in deck if c < 52),
            max_cards=top,
            scale=1.0 / top,
            sched_cards=np.array([c for c, _ in entries], dtype=np.int64),
            sched_kind=np.array([schedule.KINDS.index(k) for _, k in entries], dtype=np.int64),
            single=single,
            num_deals=1 if single else len(entries),
            shown=config["whole_deck_trump"] == "shown",
            must_follow_suit=bool(config["must_follow_suit"]),
            must_trump=bool(config["must_trump"]),
            demands_highest=bool(config["joker_lead_demands_highest"]),
            dark_multiplier=float(config["dark_multiplier"]),
            **observation_offsets(n),
        )

    def new_state(self, n: int) -> RaspisnoyState:
        p, d = self.params.n, self.params.deck_size
        arrays = {}
        for name in RaspisnoyState._fields:
            shape = (n, d) if name == "deck" else (n, p) if name in _PER_SEAT else (n,)
            arrays[name] = np.zeros(shape, dtype=np.float64 if name == "scores" else np.int64)
        return RaspisnoyState(**arrays)


Kernel = RaspisnoyKernel
