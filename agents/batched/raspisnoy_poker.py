"""The Raspisnoy poker heuristic (``agents.raspisnoy_poker``: ``heuristic_bid``, ``heuristic_play``) as a batched
opponent: one compiled decision per row over the batched env's state arrays.

``HeuristicOpponent().act(env, rows)`` returns, for each row, exactly the
action ``HeuristicAgent().act(view, mask)`` chooses on the same state
(``tests/agents/test_batched_raspisnoy.py`` checks it decision by decision
against the scalar agent, over states from random and heuristic play). The
rules of the port are those of the scalar module's docstring; the port keeps
its arithmetic (the same float additions in the same order, Python's
round-half-to-even, the same tie-breaks: ``min``/``max`` keep the first of
equal keys in ascending action order), so no decision can differ by a
rounding. The heuristic draws no random numbers, so ``seed`` changes nothing.

It reads only what the acting seat may know: its own hand when not hidden,
the finished and current tricks, the bids and tricks taken, the card that
fixed the trump (when it did not go back into the deck) and, in forehead
deals, the others' cards. Its legal actions come from the state through the
kernel's own legality functions (``playable``, ``forbidden_bid``: the env's
mask is written by the same ones), which is much cheaper than scanning the
87 entries of the mask.
"""

from __future__ import annotations

import numba
import numpy as np

from pokerzoo.agents.raspisnoy_poker import FOREHEAD_THRESHOLD, LOW_CARD_SHARE
from pokerzoo.envs.batched.bits import lowest_bit, popcount
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.core import CHUNK, PARALLEL_MIN_ROWS, BatchedEnv
from pokerzoo.envs.engine.tricks import HIGH, LOW
from pokerzoo.envs.raspisnoy_poker.kernel import (
    BID,
    BID_BASE,
    BLACK_SLOT,
    DECLS,
    FOREHEAD,
    FOREHEAD_ACTION,
    GOLD,
    JOKER_BASE,
    MISERE,
    NATURAL_BITS,
    PLAY,
    RED_SLOT,
    SUIT_BITS,
    RaspisnoyKernel,
    decode_joker,
    forbidden_bid,
    joker_declares,
    own_hand_hidden,
    play_suit,
    playable,
    strength,
    trick_best,
)

MAX_PLAYS = 52 + 2 * DECLS  # room for any set of legal card and joker actions


# ---------------------------------------------------------------- what the seat knows
@kernel
def _ranks(cards, suit):
    """The 13-bit rank mask of ``suit`` in a slot mask."""
    return (cards >> (13 * suit)) & SUIT_BITS


@kernel(inline=True)
def _own_hand(state, i, seat):
    """The seat's hand as its view shows it (nothing while hidden)."""
    return 0 if own_hand_hidden(state, i) else state.hands[i, seat]


@kernel(inline=True)
def _cards_out(state, params, i, hand):
    """``_Seen.out``: the deck's natural slots not in ``hand``, the tricks, or the trump card left out of the deal."""
    gone = hand | state.played[i]
    for k in range(state.trick_len[i]):
        gone |= 1 << state.trick_card[i, k]
    if state.trump_card[i] >= 0 and not state.whole[i]:
        gone |= 1 << state.trump_card[i]
    return params.deck_naturals & ~gone


@kernel
def _higher_out(out, slot):
    return popcount(_ranks(out, slot // 13) >> (slot % 13 + 1))


# ---------------------------------------------------------------- bidding
@kernel
def count_winners(hand, trump):
    """``count_winners``: the additions in the scalar order (jokers, then suits 0..3, ranks high to low)."""
    est = 0.0
    if (hand >> RED_SLOT) & 1:
        est += 0.95
    if (hand >> BLACK_SLOT) & 1:
        est += 0.85
    trumps = popcount(_ranks(hand, trump)) if trump >= 0 else 0
    for s in range(4):
        ranks = _ranks(hand, s)
        length = popcount(ranks)
        if length == 0:
            continue
        if s == trump:
            for r in range(12, -1, -1):
                if (ranks >> r) & 1:
                    if r == 12:
                        est += 1.0
                    elif r == 11:
                        est += 0.9 if length >= 2 else 0.6
                    elif r == 10:
                        est += 0.8 if length >= 3 else 0.3
                    elif r == 9 and length >= 4:
                        est += 0.6
            est += 0.6 * max(0, length - 4)
            continue
        ace = (ranks >> 12) & 1
        king = (ranks >> 11) & 1
        if ace:
            est += 0.85 if length <= 3 else 0.6
        if king and length >= 2:
            est += 0.7 if ace else 0.5
        if trump < 0 and length >= 5 and (ace or king):
            est += 0.4 * (length - 4)
    if trumps >= 3:
        short = 0
        for s in range(4):
            if s != trump and popcount(_ranks(hand, s)) <= 1:
                short += 1
        est += 0.4 * short
    return est


@kernel
def _forehead_play(seat, me, slot, bids, first_suit, trump):
    """(declaration, suit) ``forehead_win_probability`` gives a card of a seat still to play."""
    if slot >= RED_SLOT:
        decl = HIGH if seat == me or bids[seat] != 0 else LOW
        suit = first_suit if first_suit >= 0 else (trump if trump >= 0 else 0)
        return decl, suit
    return 0, slot // 13


@kernel(inline=True)
def forehead_win_probability(state, params, i):
    """``forehead_win_probability``: over the cards the seat cannot see, the share with which it takes the trick."""
    n, me = params.n, state.to_act[i]
    trump = state.trump[i]
    known = 0
    for seat in range(n):
        if seat != me:
            known |= state.hands[i, seat]
    trick_len = state.trick_len[i]
    for k in range(trick_len):
        known |= 1 << state.trick_card[i, k]
    if state.pending[i] >= 0:
        known |= 1 << state.pending[i]
    if state.trump_card[i] >= 0 and not state.whole[i]:
        known |= 1 << state.trump_card[i]
    candidates = params.deck_slots & ~known
    total = popcount(candidates)
    if total == 0:
        return 0.0
    leader = state.leader[i]
    bids = state.bids[i]
    # The trick so far: its led suit and its best play.
    led = state.trick_suit[i, 0] if trick_len > 0 else -1
    best_k, best = trick_best(state, i, trump)
    best_seat = (leader + best_k) % n
    wins = 0
    while candidates:
        mine = lowest_bit(candidates)
        candidates &= candidates - 1
        first, top, top_seat = led, best, best_seat
        for k in range(trick_len, n):
            seat = (leader + k) % n
            slot = mine if seat == me else lowest_bit(state.hands[i, seat])
            decl, suit = _forehead_play(seat, me, slot, bids, first, trump)
            if first < 0:
                first = suit
            s = strength(slot, decl, suit, first, trump)
            if s > top:
                top, top_seat = s, seat
        if top_seat == me:
            wins += 1
    return wins / total


@kernel
def _py_round(x):
    """Python's ``round(x)`` for ``x >= 0``: to the nearest int, halves to the even one."""
    f = np.floor(x)
    d = x - f  # exact for x >= 0
    r = np.int64(f)
    if d > 0.5 or (d == 0.5 and r % 2 == 1):
        r += 1
    return r


@kernel
def nearest_bid(estimate, cards, forbidden):
    """``nearest_bid``: the legal bid (0..cards but ``forbidden``) minimising (|b - round(e)|, |b - e|, b)."""
    target = _py_round(estimate)
    best, best_k1, best_k2 = -1, 0, 0.0
    for b in range(cards + 1):
        if b == forbidden:
            continue
        k1 = abs(b - target)
        k2 = abs(b - estimate)
        if best < 0 or k1 < best_k1 or (k1 == best_k1 and k2 < best_k2):
            best, best_k1, best_k2 = b, k1, k2
    return BID_BASE + best


@kernel(inline=True)
def heuristic_bid(state, params, i, low_card_share):
    kind = state.kind[i]
    cards = state.cards[i]
    if kind == FOREHEAD:
        estimate = 1.0 if forehead_win_probability(state, params, i) > FOREHEAD_THRESHOLD else 0.0
    elif own_hand_hidden(state, i):
        estimate = float(np.int64(cards / params.n + 0.25))
    else:
        x = count_winners(state.hands[i, state.to_act[i]], state.trump[i]) + low_card_share * cards / params.n
        estimate = float(cards) if cards < x else x
    return nearest_bid(estimate, cards, forbidden_bid(state, params, i))


# ---------------------------------------------------------------- play
@kernel
def _decode(action, trick_len, led, trump):
    """(slot, declaration, suit) of a card action, as ``_decode`` builds its ``Play``."""
    if action < JOKER_BASE:
        return action, 0, action // 13
    slot, decl, declared = decode_joker(action)
    return slot, decl, play_suit(slot, decl, declared, trick_len, led, trump)


@kernel(inline=True)
def legal_plays(state, params, i, plays):
    """The legal card and joker actions of the player to act, ascending, into ``plays``; their count.

    The order of the legal list the scalar heuristic walks (its ties go to the
    first); the same legality as the env's mask (``kernel.playable``, ``kernel.joker_declares``).
    """
    bits = playable(state, params, i)
    count = 0
    naturals = bits & NATURAL_BITS
    while naturals:
        plays[count] = lowest_bit(naturals)
        count += 1
        naturals &= naturals - 1
    leading = state.trick_len[i] == 0
    trump = state.trump[i]
    for slot in range(RED_SLOT, BLACK_SLOT + 1):
        if (bits >> slot) & 1:
            base = JOKER_BASE + DECLS * (slot - RED_SLOT)
            for k in range(DECLS):
                if joker_declares(k, leading, trump):
                    plays[count] = base + k
                    count += 1
    return count


@kernel(inline=True)
def wants_tricks(state, i):
    kind = state.kind[i]
    if kind == GOLD:
        return True
    if kind == MISERE:
        return False
    p = state.to_act[i]
    return state.tricks[i, p] != state.bids[i, p]


@kernel(inline=True)
def _lead(state, params, i, plays, count, want):
    """``_lead``: the card (or joker declaration) to lead with, among ``plays[:count]``."""
    trump = state.trump[i]
    hand = _own_hand(state, i, state.to_act[i])
    out = _cards_out(state, params, i, hand)
    if want:
        boss, boss_key = -1, -1
        high, high_key = -1, 0
        side, side_key = -1, 0
        off_trump = NATURAL_BITS if trump < 0 else NATURAL_BITS & ~(SUIT_BITS << (13 * trump))
        any_side = (playable(state, params, i) & off_trump) != 0
        for j in range(count):
            a = plays[j]
            slot, decl, suit = _decode(a, 0, -1, trump)
            if slot < RED_SLOT:
                if _higher_out(out, slot) == 0:
                    key = (suit == trump) * 16 + slot % 13
                    if key > boss_key:
                        boss, boss_key = a, key
                if suit != trump or not any_side:
                    key = -popcount(_ranks(hand, suit)) * 16 + slot % 13
                    if side < 0 or key < side_key:
                        side, side_key = a, key
            elif decl == HIGH:
                if trump < 0:
                    key = popcount(_ranks(hand, suit)) * 2 + (slot == RED_SLOT)
                    if high < 0 or key > high_key:
                        high, high_key = a, key
                elif high < 0 or slot < high_key:
                    high, high_key = a, slot
        if boss >= 0:
            return boss
        if high >= 0:
            return high
        if side >= 0:
            return side
        return plays[0]
    shed, shed_key = -1, -1
    low, low_key = -1, -1
    for j in range(count):
        a = plays[j]
        slot, decl, suit = _decode(a, 0, -1, trump)
        if slot < RED_SLOT:
            key = (suit != trump) * 1000 + _higher_out(out, slot) * 16 + (15 - slot % 13)
            if key > shed_key:
                shed, shed_key = a, key
        elif decl == LOW:
            key = popcount(_ranks(out, suit)) * 2 + (slot == BLACK_SLOT)
            if key > low_key:
                low, low_key = a, key
    if shed >= 0:
        return shed
    if low >= 0:
        return low
    return plays[0]


@kernel
def _discard_cost(slot, suit, trump):
    if slot >= RED_SLOT:
        return 2 * 16
    return (suit == trump) * 16 + slot % 13


@kernel(inline=True)
def heuristic_play(state, params, i, plays):
    """``heuristic_play``: take tricks while short of (or over) the bid, shed them once it is made."""
    if state.phase[i] == PLAY and state.kind[i] == FOREHEAD:
        return FOREHEAD_ACTION  # the only legal action
    count = legal_plays(state, params, i, plays)
    if count == 1:
        return plays[0]
    want = wants_tricks(state, i)
    trick_len = state.trick_len[i]
    if trick_len == 0:
        return _lead(state, params, i, plays, count, want)
    trump = state.trump[i]
    led = state.trick_suit[i, 0]
    _, best = trick_best(state, i, trump)
    last = trick_len == params.n - 1
    # One pass over the legal plays: the candidates of every rule below, the first of equal keys kept.
    cheap_loss, cheap_loss_key = -1, 0  # losing, least discard cost
    last_win, last_win_key = -1, 0  # winning, (is joker, strength) least
    nat_win, any_trump_win = False, False
    strongest_nat_win, strongest_key = -1, -1  # winning natural, strength greatest
    weakest_nat_win, weakest_key = -1, 0  # winning natural, strength least
    strongest_win, strongest_win_key = -1, -1  # any winning play, strength greatest
    weakest_win, weakest_win_key = -1, 0
    joker_win, joker_win_slot = -1, 0  # winning high joker, red first
    shed_nat, shed_key = -1, -1  # losing natural, (strength, rank) greatest
    low_loss = -1  # first losing low joker
    first_loss = -1
    for j in range(count):
        a = plays[j]
        slot, decl, suit = _decode(a, trick_len, led, trump)
        s = strength(slot, decl, suit, led, trump)
        natural = slot < RED_SLOT
        if s > best:
            key = (not natural) * 1000 + s
            if last_win < 0 or key < last_win_key:
                last_win, last_win_key = a, key
            if s > strongest_win_key:
                strongest_win, strongest_win_key = a, s
            if weakest_win < 0 or s < weakest_win_key:
                weakest_win, weakest_win_key = a, s
            if natural:
                nat_win = True
                any_trump_win |= suit == trump
                if s > strongest_key:
                    strongest_nat_win, strongest_key = a, s
                if weakest_nat_win < 0 or s < weakest_key:
                    weakest_nat_win, weakest_key = a, s
            elif decl == HIGH and (joker_win < 0 or slot < joker_win_slot):
                joker_win, joker_win_slot = a, slot
        else:
            if first_loss < 0:
                first_loss = a
            key = _discard_cost(slot, suit, trump)
            if cheap_loss < 0 or key < cheap_loss_key:
                cheap_loss, cheap_loss_key = a, key
            if natural:
                key = s * 16 + slot % 13
                if key > shed_key:
                    shed_nat, shed_key = a, key
            elif decl == LOW and low_loss < 0:
                low_loss = a
    if want:
        if last_win < 0:
            return cheap_loss
        if last:
            return last_win
        if nat_win and (trump < 0 or any_trump_win):
            out = _cards_out(state, params, i, _own_hand(state, i, state.to_act[i]))
            safe, safe_key = -1, 0
            for j in range(count):
                a = plays[j]
                if a >= JOKER_BASE or (trump >= 0 and a // 13 != trump) or _higher_out(out, a) != 0:
                    continue
                s = strength(a, 0, a // 13, led, trump)
                if s > best and (safe < 0 or s < safe_key):
                    safe, safe_key = a, s
            if safe >= 0:
                return safe
        if joker_win >= 0:
            return joker_win
        return strongest_nat_win
    if first_loss >= 0:
        if shed_nat >= 0:
            return shed_nat
        if low_loss >= 0:
            return low_loss
        return first_loss
    if nat_win:
        return strongest_nat_win if last else weakest_nat_win
    return strongest_win if last else weakest_win


@kernel(inline=True)
def decide(state, params, i, plays, low_card_share):
    """``HeuristicAgent.act`` for the player to act in row i (``plays``: scratch room for its legal plays)."""
    if state.phase[i] == BID:
        return heuristic_bid(state, params, i, low_card_share)
    return heuristic_play(state, params, i, plays)


@kernel
def decide_rows(state, params, rows, plays, low_card_share, out):
    for k in range(rows.shape[0]):
        out[k] = decide(state, params, rows[k], plays[k], low_card_share)


@kernel(parallel=True)
def decide_rows_parallel(state, params, rows, plays, low_card_share, out):
    for c in numba.prange((rows.shape[0] + CHUNK - 1) // CHUNK):  # as the env's parallel loop: chunks of rows
        lo = c * CHUNK
        hi = min(rows.shape[0], lo + CHUNK)
        decide_rows(state, params, rows[lo:hi], plays[lo:hi], low_card_share, out[lo:hi])


class HeuristicOpponent:
    """``HeuristicAgent`` for every row at once: ``act(env, rows)`` on a batched Raspisnoy env.

    ``low_card_share`` is the scalar agent's parameter of the same name. The
    rows are decided on all of numba's threads when the env runs in parallel
    (and, as the env's steps, at least ``PARALLEL_MIN_ROWS`` rows are asked for).
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None, low_card_share: float = LOW_CARD_SHARE):
        self.low_card_share = float(low_card_share)
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        """Nothing to reseed: the heuristic draws no random numbers (as the scalar agent)."""

    def act(self, env: BatchedEnv, rows: np.ndarray) -> np.ndarray:
        if not isinstance(env.kernel, RaspisnoyKernel):
            raise TypeError(f"HeuristicOpponent plays Raspisnoy poker; this env plays {env.name}")
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        out = np.empty(rows.shape[0], dtype=np.int64)
        plays = np.empty((rows.shape[0], MAX_PLAYS), dtype=np.int64)
        loop = decide_rows_parallel if env.parallel and rows.shape[0] >= PARALLEL_MIN_ROWS else decide_rows
        loop(env.state, env.kernel.params, rows, plays, self.low_card_share, out)
        return out


# the ports this module lists for ``pokerzoo.agents.batched.batched_agents``
AGENTS = (HeuristicOpponent,)
