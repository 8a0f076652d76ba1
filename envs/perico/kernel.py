"""Perico and Six-card Perico as a batched kernel: ``PericoGame``'s rules over arrays, one game per row.

Every option of the scalar game: both variants (``six_card``) with every
player count, both decks, ``jokers_in_five_of_a_kind``, target scores,
``max_rounds`` and ``max_turns_per_round`` (both safety caps) and both reward
modes. The flow, the draws, the showdowns, the rewards and the observation
are the scalar game's (``game.py``); ``tests/envs/perico/test_batched.py``
checks them step by step against it with the differential kit.

The draws, in the scalar game's order: the first dealer
(``chance.integer(num_players)``) when a game starts; one shuffle of the whole
deck per deal; a shuffle of the stock each time a joker is turned up (the
joker goes back on top of the stock, which is shuffled, before the next card
is turned); and a shuffle of the discard pile but its top card whenever a
draw finds the stock empty. Cards lie as the scalar lists do: ``stock[i,
:stock_n]`` bottom to top (the top is drawn), ``pile[i, :pile_n]`` bottom to
top, hands sorted (rank, then suit, jokers last), so slot numbers are the
scalar game's.

A round can end in the middle of an action (a knock, the turn cap, a royal
flush drawn or dealt) and the next one is dealt at once; a royal flush dealt
in the first round scores before the game's first decision, which the
batched engine reports in ``start_rewards`` (see ``pokerzoo.envs.batched.core``),
and a game decided before its first decision (target 1 or ``max_rounds=1``
and a royal dealt) is followed at once by the row's next game.

Hands are ranked by the compiled class lookup of ``batched_hands`` (keys
equal to the scalar ranker's), once per hand change, as the scalar game keeps
``hand_keys``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba
import numpy as np

from pokerzoo.envs.batched import chance as chance_lib
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.core import CHUNK, RUNNING, START, TERMINATED, TRUNCATED, GameKernel
from pokerzoo.envs.engine.cards import DECKS
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS
from pokerzoo.envs.perico import actions, encoding
from pokerzoo.envs.perico.actions import CONTINUE, DISCARD0, DRAW, KNOCK
from pokerzoo.envs.perico.batched_hands import (
    FIRST_JOKER,
    has_royal,
    insert_sorted,
    perico_tables,
    sorted_key,
)
from pokerzoo.envs.perico.game import FIVE_CARD_MAX_PLAYERS, PericoGame

KNOCK_PHASE, TURN_PHASE, DISCARD_PHASE = 0, 1, 2  # ``state.phase``; the observation's one-hot comes from params
PHASE_NAMES = ("knock", "turn", "discard")  # by ``state.phase`` value
MAX_PLAYERS = FIVE_CARD_MAX_PLAYERS
MAX_HAND = 6
MAX_DECK = 56


class PericoState(NamedTuple):
    phase: np.ndarray  # int8[N]: KNOCK_PHASE, TURN_PHASE or DISCARD_PHASE
    player: np.ndarray  # int64[N]: the seat to act
    dealer: np.ndarray  # int64[N]
    round: np.ndarray  # int64[N]: 1-based round number (replayed rounds included)
    turns: np.ndarray  # int64[N]: draw turns taken this round by all seats
    drawn: np.ndarray  # int64[N]: the card drawn by the player to act (discard phase), else -1
    scores: np.ndarray  # int64[N, 6]
    draw_turns: np.ndarray  # int64[N, 6]: per seat, draw turns this round
    exchanged: np.ndarray  # int64[N, 6]: per seat, cards exchanged this round
    last_exchange: np.ndarray  # int64[N, 6]: per seat, cards exchanged on its latest turn
    hands: np.ndarray  # int8[N, 6, 7]: sorted hands (slot H: scratch for the drawn card's royal check)
    keys: np.ndarray  # int64[N, 6]: the rank key of each hand
    stock: np.ndarray  # int8[N, 56]: bottom to top
    stock_n: np.ndarray  # int64[N]
    pile: np.ndarray  # int8[N, 56]: bottom to top
    pile_n: np.ndarray  # int64[N]
    scratch: np.ndarray  # int8[N, 56]: a shuffle's output
    held: np.ndarray  # int8[N, 8]: an exchange's kept and drawn cards


class PericoParams(NamedTuple):
    num_players: int
    hand_size: int
    deck: np.ndarray  # int8[D]: the deck in its order before shuffling
    deck_size: int
    deck_size_f: float  # the encoder's divisor for the stock and pile sizes
    target: int
    max_rounds: int
    max_turns: int
    win_reward: bool  # reward="win" (else "points")
    six_card: float  # the observation's entry
    exchange0: int  # action of exchange mask 1
    num_actions: int
    # the observation: offsets from ``encoding.SCHEMA`` and the shapes of its blocks
    card_slot: np.ndarray  # int64[69]: card id -> card slot (``encoding.CARD_INDEX``)
    phase_obs: np.ndarray  # int64[3]: entry of each ``state.phase`` value in the phase one-hot
    max_seats: int
    slot_width: int
    seat_width: int
    o_hand: int
    o_drawn: int
    o_pile_top: int
    o_pile: int
    o_slots: int
    o_stock: int
    o_pile_size: int
    o_seats: int
    o_turns: int
    o_rounds: int
    o_category: int
    o_jokers: int
    o_six_card: int
    o_players: int
    # the evaluator's tables (``batched_hands.PericoTables``' fields)
    sort_key: np.ndarray
    card_rank: np.ndarray
    card_suit: np.ndarray
    binom: np.ndarray
    class_offset: np.ndarray
    class_keys: np.ndarray
    card_code: np.ndarray
    low_index: np.ndarray
    high_index: np.ndarray
    most_of_a_suit: np.ndarray


# ---------------------------------------------------------------- cards
@kernel(inline=True)
def _draw(state, params, chance, i):
    """``PericoGame._draw``: the top stock card; an empty stock is first refilled from the pile but its top."""
    sn = state.stock_n[i]
    if sn == 0:
        pn = state.pile_n[i] - 1
        top = state.pile[i, pn]
        chance_lib.shuffle(chance, i, state.pile[i], pn, state.scratch[i])
        for j in range(pn):
            state.stock[i, j] = state.scratch[i, pn - 1 - j]
        sn = pn
        state.pile[i, 0] = top
        state.pile_n[i] = 1
    sn -= 1
    state.stock_n[i] = sn
    return state.stock[i, sn]


@kernel(inline=True)
def _to_pile(state, i, card):
    state.pile[i, state.pile_n[i]] = card
    state.pile_n[i] += 1


# ---------------------------------------------------------------- rounds
@kernel
def _deal(state, params, chance, i):
    """``PericoGame._deal``: the shuffle, the hands from the dealer's left, the stock, the turned card."""
    n, h, d = params.num_players, params.hand_size, params.deck_size
    state.round[i] += 1
    order = state.scratch[i]
    chance_lib.shuffle(chance, i, params.deck, d, order)
    dealer = state.dealer[i]
    for k in range(n):
        seat = (dealer + 1 + k) % n
        hand = state.hands[i, seat]
        for m in range(h):
            insert_sorted(params, hand, m, order[k * h + m])
        state.keys[i, seat] = sorted_key(params, hand, h)
    stock = state.stock[i]
    sn = d - n * h
    for j in range(sn):
        stock[j] = order[d - 1 - j]
    state.drawn[i] = -1
    sn -= 1
    card = stock[sn]
    while card >= FIRST_JOKER:
        # a joker turned up goes back on the stock, which is shuffled, and another card is turned
        stock[sn] = card
        sn += 1
        chance_lib.shuffle(chance, i, stock, sn, order)
        for j in range(sn):
            stock[j] = order[sn - 1 - j]
        sn -= 1
        card = stock[sn]
    state.stock_n[i] = sn
    state.pile[i, 0] = card
    state.pile_n[i] = 1
    state.turns[i] = 0
    for p in range(MAX_PLAYERS):
        state.draw_turns[i, p] = 0
        state.exchanged[i, p] = 0
        state.last_exchange[i, p] = 0
    state.player[i] = (dealer + 1) % n
    state.phase[i] = TURN_PHASE


@kernel
def _end_game(state, params, i, winners, count, rewards):
    """``PericoGame._end_game`` for the seats in bit set ``winners`` (``count`` of them): the win rewards."""
    if not params.win_reward:
        return
    n = params.num_players
    losers = n - count
    for p in range(n):
        if (winners >> p) & 1:
            rewards[p] += losers / ((n - 1) * count)
        else:
            rewards[p] += -1.0 / (n - 1)


@kernel
def _close_round(state, params, i, winner, rewards):
    """``PericoGame._close_round``: score the round (``winner`` -1: a tie); the game's status after it."""
    if winner >= 0:
        state.scores[i, winner] += 1
        state.dealer[i] = winner  # the winner deals next; after a tie the same dealer deals
        if not params.win_reward:
            rewards[winner] += 1.0
        if state.scores[i, winner] >= params.target:
            _end_game(state, params, i, 1 << winner, 1, rewards)
            return TERMINATED
    if state.round[i] >= params.max_rounds:
        top = 0
        for p in range(params.num_players):
            top = max(top, state.scores[i, p])
        winners = 0
        count = 0
        for p in range(params.num_players):
            if state.scores[i, p] == top:
                winners |= 1 << p
                count += 1
        _end_game(state, params, i, winners, count, rewards)
        return TRUNCATED
    return RUNNING


@kernel
def _showdown(state, params, i, seats, rewards):
    """``PericoGame._compare`` among the seats of bit set ``seats``: a single best hand wins the round."""
    best = -1
    winner = -1
    for p in range(params.num_players):
        if (seats >> p) & 1:
            k = state.keys[i, p]
            if k > best:
                best = k
                winner = p
            elif k == best:
                winner = -1
    return _close_round(state, params, i, winner, rewards)


@kernel
def _next_round(state, params, chance, i, rewards):
    """``PericoGame._next_round``: deal until a round needs a decision (royal flushes dealt end rounds)."""
    h = params.hand_size
    while True:
        _deal(state, params, chance, i)
        holders = 0
        for p in range(params.num_players):
            if has_royal(state.hands[i, p], h, h):
                holders |= 1 << p
        if holders == 0:
            return RUNNING
        status = _showdown(state, params, i, holders, rewards)
        if status != RUNNING:
            return status


@kernel
def _round_over(state, params, chance, i, winner, seats, rewards):
    """A round ends during an action: ``winner`` scores (a royal drawn), or the seats of ``seats`` compare
    hands (a knock, the turn cap); then the next round is dealt unless the game is over."""
    if winner >= 0:
        status = _close_round(state, params, i, winner, rewards)
    else:
        status = _showdown(state, params, i, seats, rewards)
    if status == RUNNING:
        status = _next_round(state, params, chance, i, rewards)
    return status


@kernel(inline=True)
def _end_turn(state, params, chance, i, exchanged, rewards):
    """``PericoGame._end_turn``: count the draw turn; the turn cap ends the round as if knocked."""
    n = params.num_players
    p = state.player[i]
    state.draw_turns[i, p] += 1
    state.exchanged[i, p] += exchanged
    state.last_exchange[i, p] = exchanged
    state.turns[i] += 1
    if state.turns[i] >= params.max_turns:
        return _round_over(state, params, chance, i, -1, (1 << n) - 1, rewards)
    state.player[i] = (p + 1) % n
    everyone = True
    for q in range(n):
        if state.draw_turns[i, q] == 0:
            everyone = False
    state.phase[i] = KNOCK_PHASE if everyone else TURN_PHASE
    return RUNNING


# ---------------------------------------------------------------- the kernel contract
@kernel(inline=True)
def start(state, params, chance, i, start_rewards):
    """``PericoGame._start`` (the first dealer, then ``_next_round``); a game decided before its first
    decision is followed by the row's next one, as the scalar env's user would reset."""
    while True:
        for p in range(MAX_PLAYERS):
            state.scores[i, p] = 0
        state.round[i] = 0
        state.dealer[i] = chance_lib.integer(chance, i, params.num_players)
        if _next_round(state, params, chance, i, start_rewards) == RUNNING:
            return
        chance_lib.end_game(chance, i)
        start_rewards[:] = 0.0


@kernel(inline=True)
def apply(state, params, chance, i, action, rewards):
    """``PericoGame._apply``; returns the row's status."""
    p = state.player[i]
    h = params.hand_size
    phase = state.phase[i]
    if phase == KNOCK_PHASE:
        if action == KNOCK:
            return _round_over(state, params, chance, i, -1, (1 << params.num_players) - 1, rewards)
        state.phase[i] = TURN_PHASE
        return RUNNING
    hand = state.hands[i, p]
    if phase == DISCARD_PHASE:
        slot = action - DISCARD0
        drawn = state.drawn[i]
        if slot == h:
            card = drawn
        else:
            card = hand[slot]
            for k in range(slot, h - 1):
                hand[k] = hand[k + 1]
            insert_sorted(params, hand, h - 1, drawn)
            state.keys[i, p] = sorted_key(params, hand, h)
        state.drawn[i] = -1
        _to_pile(state, i, card)
        return _end_turn(state, params, chance, i, 1, rewards)
    if action == DRAW:
        card = _draw(state, params, chance, i)
        state.drawn[i] = card
        hand[h] = card
        if has_royal(hand, h + 1, h):
            return _round_over(state, params, chance, i, p, 0, rewards)
        state.phase[i] = DISCARD_PHASE
        return RUNNING
    # exchange: the slots of the mask go to the pile in slot order, then as many cards are drawn
    slots = action - params.exchange0 + 1
    held = state.held[i]
    kept = 0
    count = 0
    for s in range(h):
        if (slots >> s) & 1:
            _to_pile(state, i, hand[s])
            count += 1
        else:
            held[kept] = hand[s]
            kept += 1
    for _ in range(count):
        held[kept] = _draw(state, params, chance, i)
        kept += 1
    for m in range(h):
        insert_sorted(params, hand, m, held[m])
    state.keys[i, p] = sorted_key(params, hand, h)
    if has_royal(hand, h, h):
        return _round_over(state, params, chance, i, p, 0, rewards)
    return _end_turn(state, params, chance, i, count, rewards)


@kernel(inline=True)
def observe(state, params, i, obs, mask):
    """``encoding.encode`` of the acting player's view into ``obs``, its legal actions into ``mask``."""
    obs[:] = 0.0
    mask[:] = False
    n, h = params.num_players, params.hand_size
    p = state.player[i]
    phase = state.phase[i]
    if phase == KNOCK_PHASE:
        mask[KNOCK] = True
        mask[CONTINUE] = True
    elif phase == TURN_PHASE:
        mask[DRAW] = True
        for a in range(params.exchange0, params.num_actions):
            mask[a] = True
    else:
        for a in range(DISCARD0, DISCARD0 + h + 1):
            mask[a] = True
    hand = state.hands[i, p]
    jokers = 0
    for k in range(h):
        c = hand[k]
        obs[params.o_hand + params.card_slot[c]] = 1.0
        base = params.o_slots + params.slot_width * k
        if c >= FIRST_JOKER:
            obs[base + 13] = 1.0
            jokers += 1
        else:
            obs[base + params.card_rank[c]] = 1.0
            obs[base + 14 + params.card_suit[c]] = 1.0
    if phase == DISCARD_PHASE:
        c = state.drawn[i]
        obs[params.o_drawn + params.card_slot[c]] = 1.0
        base = params.o_slots + params.slot_width * h
        if c >= FIRST_JOKER:
            obs[base + 13] = 1.0
        else:
            obs[base + params.card_rank[c]] = 1.0
            obs[base + 14 + params.card_suit[c]] = 1.0
    pn = state.pile_n[i]
    if pn > 0:
        obs[params.o_pile_top + params.card_slot[state.pile[i, pn - 1]]] = 1.0
        for k in range(pn):
            obs[params.o_pile + params.card_slot[state.pile[i, k]]] = 1.0
    obs[params.phase_obs[phase]] = 1.0
    obs[params.o_category + (state.keys[i, p] >> TIEBREAK_BITS)] = 1.0
    obs[params.o_stock] = state.stock_n[i] / params.deck_size_f
    obs[params.o_pile_size] = pn / params.deck_size_f
    obs[params.o_turns] = min(state.turns[i] / params.max_turns, 1.0)
    obs[params.o_rounds] = min(state.round[i] / params.max_rounds, 1.0)
    obs[params.o_jokers] = jokers / 4.0
    obs[params.o_six_card] = params.six_card
    obs[params.o_players] = n / params.max_seats
    dealer = state.dealer[i]
    base = params.o_seats
    for rel in range(n):
        seat = p + rel
        if seat >= n:
            seat -= n
        turns = state.draw_turns[i, seat]
        obs[base] = 1.0
        if turns:
            obs[base + 1] = 1.0
            obs[base + 2] = turns / 10.0 if turns < 10 else 1.0
            x = state.exchanged[i, seat]
            obs[base + 3] = x / 30.0 if x < 30 else 1.0
            obs[base + 4] = state.last_exchange[i, seat] / h
        score = state.scores[i, seat]
        if score:
            obs[base + 5] = score / params.target if score < params.target else 1.0
        if seat == dealer:
            obs[base + 6] = 1.0
        if rel == 0:
            obs[base + 7] = 1.0  # the observer is the player to act
        base += params.seat_width
    return p


# ---------------------------------------------------------------- the row loop (a start that can score)
@kernel(inline=True)
def _row(state, params, chance, i, action, out):
    rewards = out.rewards[i]
    rewards[:] = 0.0
    start_rewards = out.start_rewards[i]
    start_rewards[:] = 0.0
    out.status[i] = RUNNING
    if action == START:
        start(state, params, chance, i, start_rewards)
    else:
        status = apply(state, params, chance, i, action, rewards)
        out.status[i] = status
        if status != RUNNING:
            chance_lib.end_game(chance, i)
            start(state, params, chance, i, start_rewards)
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
class PericoKernel(GameKernel):
    game_class = PericoGame
    run_rows = staticmethod(run_rows)
    run_rows_parallel = staticmethod(run_rows_parallel)

    def make_params(self, config: dict[str, Any]) -> PericoParams:
        game = PericoGame.from_config(config, seed=0)  # the scalar game derives the variant's constants
        h = game.hand_size
        deck = np.array(DECKS[game.deck_name].cards, dtype=np.int8)
        schema = encoding.SCHEMA
        pieces = {piece.name: piece for piece in schema.pieces}
        offsets = {f"o_{name}": int(at) for name, at in schema.offsets.items()}
        return PericoParams(
            num_players=game.num_players,
            hand_size=h,
            deck=deck,
            deck_size=len(deck),
            deck_size_f=float(len(deck)),
            target=game.target,
            max_rounds=game.max_rounds,
            max_turns=game.max_turns,
            win_reward=game.reward_mode == "win",
            six_card=float(game.six_card),
            exchange0=actions.exchange0(h),
            num_actions=game.num_actions,
            card_slot=np.array(encoding.CARD_INDEX, dtype=np.int64),
            phase_obs=np.array([offsets["o_phase"] + encoding.PHASES.index(p) for p in PHASE_NAMES], dtype=np.int64),
            max_seats=pieces["seats"].dims[0],
            slot_width=pieces["slots"].dims[-1],
            seat_width=pieces["seats"].dims[-1],
            **{k: v for k, v in offsets.items() if k != "o_phase"},
            **perico_tables(game.six_card, game.jokers_in_five_of_a_kind)._asdict(),
        )

    def new_state(self, n: int) -> PericoState:
        return PericoState(
            phase=np.zeros(n, dtype=np.int8),
            player=np.zeros(n, dtype=np.int64),
            dealer=np.zeros(n, dtype=np.int64),
            round=np.zeros(n, dtype=np.int64),
            turns=np.zeros(n, dtype=np.int64),
            drawn=np.full(n, -1, dtype=np.int64),
            scores=np.zeros((n, MAX_PLAYERS), dtype=np.int64),
            draw_turns=np.zeros((n, MAX_PLAYERS), dtype=np.int64),
            exchanged=np.zeros((n, MAX_PLAYERS), dtype=np.int64),
            last_exchange=np.zeros((n, MAX_PLAYERS), dtype=np.int64),
            hands=np.zeros((n, MAX_PLAYERS, MAX_HAND + 1), dtype=np.int8),
            keys=np.zeros((n, MAX_PLAYERS), dtype=np.int64),
            stock=np.zeros((n, MAX_DECK), dtype=np.int8),
            stock_n=np.zeros(n, dtype=np.int64),
            pile=np.zeros((n, MAX_DECK), dtype=np.int8),
            pile_n=np.zeros(n, dtype=np.int64),
            scratch=np.zeros((n, MAX_DECK), dtype=np.int8),
            held=np.zeros((n, MAX_HAND + 2), dtype=np.int8),
        )


Kernel = PericoKernel
