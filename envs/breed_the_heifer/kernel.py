"""Breed the Heifer as a batched kernel: ``BreedTheHeiferGame``'s rules over arrays, one game per row.

Every option of the scalar game: 2-7 players, ``wild_pairs`` (same player or
any player), ``double_ace_flush``, the ante, the small and big bets,
``max_raises``, one stack for all or one per seat, several hands per episode
(stacks carried, the button moving to the next seat with chips, busted seats
sitting out, the episode ending when one seat holds every chip),
``action_counts`` (the observation's last piece: each seat's checks, calls and
bets or raises this hand, counted in every row, written only when on). The flow is
``game.py``'s (``_start``, ``_new_hand``, ``_proceed``, ``_deal_street``,
``_open_round``, ``_settle``), the chips are ``engine.betting.LimitBetting``'s
(fixed-limit rounds, incomplete all-in bets, side pots, odd chips clockwise
from the dealer's left), the wild rank is ``wilds.WildTracker``'s, the hand
keys are the ``heifer`` system's (``kernel_hands.heifer_key``), and the draws
are the scalar game's: ``Chance.integer(num_players)`` for the first dealer,
then one ``Chance.shuffle`` of the 52 cards per hand.
``tests/envs/breed_the_heifer/test_batched.py`` checks all of it step by step
against the scalar game with the differential kit.

One limit: the batched engine's games start without rewards, and a first hand
in which fewer than two seats keep chips behind their ante has no decision
(the scalar env settles it while it resets, and a one-hand episode has no
decision at all), so ``make_params`` refuses those options (``ConfigError``).

State per row (P = num_players): the chips of ``LimitBetting`` (stacks, bets,
put in this hand, folded, who still has to act and who may still raise, the
bet size, the highest bet, the bets made), the cards of each seat in dealing
order (down, down, up, up, up, up, down: a card's position says whether it is
face up), each seat's best key with the current wild (kept up to date at
every deal, so the observation's category and the showdown read it), the
wild tracker's bit masks, the shuffled stock and each seat's action counts.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba
import numpy as np

from pokerzoo.envs.batched import chance as chance_lib
from pokerzoo.envs.batched import privileged as privileged_lib
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.core import CHUNK, RUNNING, START, TERMINATED, GameKernel
from pokerzoo.envs.breed_the_heifer import encoding
from pokerzoo.envs.breed_the_heifer.encoding import ROUNDS
from pokerzoo.envs.breed_the_heifer.game import FIRST_STREET, LAST_STREET, BreedTheHeiferGame
from pokerzoo.envs.breed_the_heifer.kernel_hands import heifer_key, straight_table
from pokerzoo.envs.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from pokerzoo.envs.engine.cards import DECKS
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS
from pokerzoo.envs.engine.options import ConfigError

MAX_CARDS = 7
FIRST_UP, LAST_UP = 2, 5  # positions of the up cards in a seat's dealing order (3rd street's up card to 6th's)
SIXTH_STREET = 6


class HeiferState(NamedTuple):
    hand: np.ndarray  # int64[N]: hands of the episode already played
    dealer: np.ndarray  # int64[N]
    street: np.ndarray  # int64[N]: 3..7
    opener: np.ndarray  # int64[N]: the seat the rules name first this street (-1 before the first round)
    sixth: np.ndarray  # int64[N]: 6th street's opener (7th street starts from it)
    to_act: np.ndarray  # int64[N]: -1 when no betting round waits
    live: np.ndarray  # int64[N]: seats not folded
    bet_size: np.ndarray  # int64[N]
    current_bet: np.ndarray  # int64[N]: the highest round total
    complete: np.ndarray  # int64[N]: the bet and raises of this round that count towards the cap
    stacks: np.ndarray  # int64[N, P]: chips behind
    start_stacks: np.ndarray  # int64[N, P]: stacks when the hand began
    committed: np.ndarray  # int64[N, P]: put in this hand
    bets: np.ndarray  # int64[N, P]: put in this round
    folded: np.ndarray  # uint8[N, P]: out of the hand (folded or not dealt in)
    needs: np.ndarray  # uint8[N, P]: still has to act this round
    can_raise: np.ndarray  # uint8[N, P]: may still bet or raise this round
    cards: np.ndarray  # int8[N, P, 7]: in dealing order
    ncards: np.ndarray  # int64[N, P]
    key: np.ndarray  # int64[N, P]: best key of the seat's cards with the current wild (seats still in)
    player_ranks: np.ndarray  # int64[N, P]: ranks each seat has shown face up (bit masks)
    table_ranks: np.ndarray  # int64[N]: ranks anyone has shown face up
    wild: np.ndarray  # int64[N]: 0..12, -1 when nothing is wild
    pending: np.ndarray  # uint8[N]: a pair is pending
    stock: np.ndarray  # int8[N, 52]: the shuffled deck of the hand
    next_card: np.ndarray  # int64[N]
    acts: np.ndarray  # int64[N, P, 3]: checks, calls, bets and raises of each seat this hand


class HeiferParams(NamedTuple):
    n: int
    any_player: bool
    double_ace_flush: bool
    ante: int
    small_bet: int
    big_bet: int
    max_bets: int
    num_hands: int
    stacks: np.ndarray  # int64[P]: the starting stacks
    chip_total: float
    bet_scale: float  # max_bets x the larger bet: the scale of bets and the amount to call
    total_scale32: np.float32  # 1 / chip_total as the encoder's float32 factor
    bet_scale32: np.float32  # 1 / bet_scale likewise
    deck: np.ndarray  # int64[52]: the deck in its order before shuffling
    straight_top: np.ndarray  # int64[5, 8192]: ``ranking.STRAIGHT_TOP``
    # ``encoding.schema(n).offsets``, one field per piece (kernels take no nested tuples)
    o_down: int
    o_up: int
    o_wild: int
    o_pending: int
    o_street: int
    o_over: int
    o_stacks: int
    o_bets: int
    o_committed: int
    o_out: int
    o_all_in: int
    o_button: int
    o_opener: int
    o_to_act: int
    o_pot: int
    o_to_call: int
    o_big_bet: int
    o_bets_made: int
    o_progress: int
    o_category: int
    o_still_in: int
    o_actions: int  # -1 when the option ``action_counts`` is off (the schema has no ``actions`` piece)


# ---------------------------------------------------------------- cards and the wild rank
@kernel(inline=True)
def _see(state, params, i, p, card):
    """``WildTracker.see``: one up card of seat p."""
    rank = card % 13
    bit = np.int64(1) << rank
    if state.pending[i]:
        state.wild[i] = rank
        state.pending[i] = 0
    earlier = state.table_ranks[i] if params.any_player else state.player_ranks[i, p]
    if earlier & bit:
        state.wild[i] = -1
        state.pending[i] = 1
    state.player_ranks[i, p] |= bit
    state.table_ranks[i] |= bit


@kernel(inline=True)
def _deal(state, params, i, p, up):
    card = state.stock[i, state.next_card[i]]
    state.next_card[i] += 1
    state.cards[i, p, state.ncards[i, p]] = card
    state.ncards[i, p] += 1
    if up:
        _see(state, params, i, p, np.int64(card))


@kernel(inline=True)
def _update_keys(state, params, i):
    """Every seat still in: the best key of its cards with the current wild."""
    for p in range(params.n):
        if not state.folded[i, p]:
            state.key[i, p] = heifer_key(
                params.straight_top, state.cards[i, p], state.ncards[i, p], state.wild[i], params.double_ace_flush
            )


@kernel(inline=True)
def _best_showing(state, params, i):
    """``best_showing``: the seat still in with the best up cards; ties go to the nearest the dealer's left."""
    n = params.n
    best, best_key = -1, np.int64(-1)
    for k in range(1, n + 1):
        p = (state.dealer[i] + k) % n
        if state.folded[i, p]:
            continue
        up = min(state.ncards[i, p], LAST_UP + 1) - FIRST_UP
        key = heifer_key(
            params.straight_top, state.cards[i, p, FIRST_UP:], up, state.wild[i], params.double_ace_flush
        )
        if key > best_key:
            best, best_key = p, key
    return best


# ---------------------------------------------------------------- betting (engine.betting.LimitBetting)
@kernel(inline=True)
def _can_act(state, i, p):
    return not state.folded[i, p] and state.stacks[i, p] > 0


@kernel(inline=True)
def _next_needing(state, params, i, start, first_step):
    n = params.n
    for step in range(first_step, n):
        q = (start + step) % n
        if state.needs[i, q] and not state.folded[i, q] and state.stacks[i, q] > 0:
            return q
    return -1


@kernel(inline=True)
def _start_round(state, params, i, bet_size, first):
    able = 0
    for p in range(params.n):
        state.bets[i, p] = 0
        state.can_raise[i, p] = 1
        able += _can_act(state, i, p)
    state.bet_size[i] = bet_size
    state.current_bet[i] = 0
    state.complete[i] = 0
    if able < 2 or state.live[i] < 2:
        state.to_act[i] = -1
        return
    for p in range(params.n):
        state.needs[i, p] = _can_act(state, i, p)
    state.to_act[i] = _next_needing(state, params, i, first, 0)


@kernel(inline=True)
def _put(state, i, p, amount):
    state.stacks[i, p] -= amount
    state.committed[i, p] += amount
    state.bets[i, p] += amount


@kernel(inline=True)
def _act(state, params, i, action):
    """``LimitBetting.act`` for the seat to act (the action is legal: the env has checked the mask)."""
    p = state.to_act[i]
    if action == FOLD:
        state.folded[i, p] = 1
        state.live[i] -= 1
    elif action == CHECK:
        state.acts[i, p, 0] += 1
    elif action == CALL:
        state.acts[i, p, 1] += 1
        _put(state, i, p, min(state.current_bet[i] - state.bets[i, p], state.stacks[i, p]))
    elif action in (BET, RAISE):
        state.acts[i, p, 2] += 1
        target = (state.complete[i] + 1) * state.bet_size[i]
        _put(state, i, p, min(target - state.bets[i, p], state.stacks[i, p]))
        complete = state.bets[i, p] == target
        raised = state.bets[i, p] > state.current_bet[i]
        state.current_bet[i] = max(state.current_bet[i], state.bets[i, p])
        if complete:
            state.complete[i] += 1
        for q in range(params.n):
            if q == p or not _can_act(state, i, q):
                continue
            if complete:
                state.needs[i, q] = 1
                state.can_raise[i, q] = 1
            elif raised and state.bets[i, q] < state.current_bet[i]:
                state.needs[i, q] = 1
    state.needs[i, p] = 0
    state.can_raise[i, p] = 0
    if state.live[i] < 2:
        state.to_act[i] = -1
    else:
        state.to_act[i] = _next_needing(state, params, i, p, 1)


@kernel(inline=True)
def legal(state, params, i, mask):
    """``LimitBetting.legal`` for the seat to act, into ``mask`` (zeroed by the caller)."""
    p = state.to_act[i]
    owe = state.current_bet[i] - state.bets[i, p]
    if owe > 0:
        mask[FOLD] = True
        mask[CALL] = True
    else:
        mask[CHECK] = True
    if state.stacks[i, p] > owe and state.can_raise[i, p]:
        others = False
        for q in range(params.n):
            if q != p and not state.folded[i, q] and state.stacks[i, q] > 0:
                others = True
                break
        if others:
            if state.complete[i] == 0:
                mask[BET] = True
            elif state.complete[i] < params.max_bets:
                mask[RAISE] = True


# ---------------------------------------------------------------- the flow of a hand
@kernel(inline=True)
def _open_round(state, params, i):
    n = params.n
    street = state.street[i]
    if street == FIRST_STREET:
        state.opener[i] = (state.dealer[i] + 1) % n
    elif street < LAST_STREET:
        state.opener[i] = _best_showing(state, params, i)
        if street == SIXTH_STREET:
            state.sixth[i] = state.opener[i]
    else:
        for k in range(n):
            q = (state.sixth[i] + k) % n
            if not state.folded[i, q]:
                state.opener[i] = q
                break
    bet_size = params.small_bet if street <= 4 else params.big_bet
    _start_round(state, params, i, bet_size, state.opener[i])


@kernel
def _new_hand(state, params, chance, i):
    """``_new_hand``: antes, the shuffle, 3rd street's cards and its betting round (once a hand: not inlined)."""
    n = params.n
    live = 0
    for p in range(n):
        out = state.stacks[i, p] == 0
        state.folded[i, p] = out
        live += not out
        state.start_stacks[i, p] = state.stacks[i, p]
        state.committed[i, p] = 0
        state.bets[i, p] = 0
        state.needs[i, p] = 0
        state.can_raise[i, p] = 1
        state.ncards[i, p] = 0
        state.player_ranks[i, p] = 0
        state.acts[i, p, :] = 0
    state.live[i] = live
    state.bet_size[i] = 0
    state.current_bet[i] = 0
    state.complete[i] = 0
    state.to_act[i] = -1
    chance_lib.shuffle(chance, i, params.deck, 52, state.stock[i])
    state.next_card[i] = 0
    state.table_ranks[i] = 0
    state.wild[i] = -1
    state.pending[i] = 0
    state.street[i] = FIRST_STREET
    state.opener[i] = -1
    state.sixth[i] = -1
    for p in range(n):
        if not state.folded[i, p]:
            paid = min(params.ante, state.stacks[i, p])
            state.stacks[i, p] -= paid
            state.committed[i, p] += paid
    dealer = state.dealer[i]
    for round_ in range(3):  # two rounds of down cards, then one of up cards, clockwise from the dealer's left
        for k in range(1, n + 1):
            p = (dealer + k) % n
            if not state.folded[i, p]:
                _deal(state, params, i, p, round_ == 2)
    _update_keys(state, params, i)
    _open_round(state, params, i)


@kernel
def _next_street(state, params, i):
    """The next street's cards (``_deal_street``) and its betting round (once a street: not inlined)."""
    n = params.n
    state.street[i] += 1
    street = state.street[i]
    for k in range(1, n + 1):
        p = (state.dealer[i] + k) % n
        if not state.folded[i, p]:
            _deal(state, params, i, p, street < LAST_STREET)
    if street == SIXTH_STREET:
        state.pending[i] = 0  # ``no_more_up_cards``: a pair pending after the last up card lapses
    _update_keys(state, params, i)
    _open_round(state, params, i)


@kernel
def _award(state, params, i, amount, eligible, first_seat):
    """``betting.award`` of one pot: to the eligible seats (a bit mask) with the best key, odd chips clockwise."""
    n = params.n
    count = 0
    best = np.int64(-1)
    for p in range(n):
        if (eligible >> p) & 1:
            count += 1
            if state.key[i, p] > best:
                best = state.key[i, p]
    winners = eligible
    if count > 1:
        winners = 0
        count = 0
        for p in range(n):
            if (eligible >> p) & 1 and state.key[i, p] == best:
                winners |= 1 << p
                count += 1
    share = amount // count
    odd = amount - share * count
    given = 0
    for k in range(n):
        p = (first_seat + k) % n
        if (winners >> p) & 1:
            state.stacks[i, p] += share + (1 if given < odd else 0)
            given += 1


@kernel
def _settle(state, params, chance, i, rewards):
    """``_settle``: pay the pots (``betting.side_pots``), give each seat its net; True when the episode is over.

    Without a showdown one seat is left in and every pot is its own, so the
    keys are read only when they matter (``state.key`` of the seats still in).
    """
    n = params.n
    first_seat = (state.dealer[i] + 1) % n
    top = np.int64(-1)
    for p in range(n):
        if not state.folded[i, p] and state.committed[i, p] > top:
            top = state.committed[i, p]
    leftover = 0
    for p in range(n):
        leftover += max(0, state.committed[i, p] - top)
    prev = np.int64(0)
    while True:  # one level per distinct total of the seats still in, lowest first
        level = np.int64(-1)
        for p in range(n):
            c = state.committed[i, p]
            if not state.folded[i, p] and c > prev and (level < 0 or c < level):
                level = c
        if level < 0:
            break
        amount = np.int64(0)
        eligible = 0
        for p in range(n):
            c = state.committed[i, p]
            amount += min(c, level) - min(c, prev)
            if not state.folded[i, p] and c >= level:
                eligible |= 1 << p
        if level == top:
            amount += leftover
            leftover = 0
        _award(state, params, i, amount, eligible, first_seat)
        prev = level
    if leftover:  # every seat still in put in nothing: the folded seats' chips form the only pot
        eligible = 0
        for p in range(n):
            if not state.folded[i, p]:
                eligible |= 1 << p
        _award(state, params, i, leftover, eligible, first_seat)
    with_chips = 0
    for p in range(n):
        state.committed[i, p] = 0
        state.bets[i, p] = 0
        net = state.stacks[i, p] - state.start_stacks[i, p]
        if net:
            rewards[p] += net
        with_chips += state.stacks[i, p] > 0
    state.hand[i] += 1
    if state.hand[i] >= params.num_hands or with_chips < 2:
        return True
    for k in range(1, n + 1):
        q = (state.dealer[i] + k) % n
        if state.stacks[i, q] > 0:
            state.dealer[i] = q
            break
    _new_hand(state, params, chance, i)
    return False


@kernel(inline=True)
def _proceed(state, params, chance, i, rewards):
    """``_proceed``: deal and settle until a seat must act (RUNNING) or the episode is over (TERMINATED)."""
    while state.to_act[i] < 0:
        if state.live[i] == 1 or state.street[i] == LAST_STREET:
            if _settle(state, params, chance, i, rewards):
                return TERMINATED
        else:
            _next_street(state, params, i)
    return RUNNING


@kernel(inline=True)
def start(state, params, chance, i):
    state.hand[i] = 0
    for p in range(params.n):
        state.stacks[i, p] = params.stacks[p]
    state.dealer[i] = chance_lib.integer(chance, i, params.n)
    _new_hand(state, params, chance, i)  # the options guarantee a decision in the first hand (module doc)


@kernel(inline=True)
def apply(state, params, chance, i, action, rewards):
    _act(state, params, i, action)
    return _proceed(state, params, chance, i, rewards)


@kernel(inline=True)
def observe(state, params, i, obs, mask):
    """``encoding.encode`` of the acting seat's view into ``obs``, its legal actions into ``mask``; returns the seat."""
    obs[:] = 0.0
    mask[:] = False
    n = params.n
    me = state.to_act[i]
    legal(state, params, i, mask)
    for k in range(n):
        p = (me + k) % n
        base = params.o_up + 52 * k
        for j in range(FIRST_UP, min(state.ncards[i, p], LAST_UP + 1)):
            obs[base + state.cards[i, p, j]] = 1.0
        if state.folded[i, p]:
            obs[params.o_out + k] = 1.0
        elif state.stacks[i, p] == 0:
            obs[params.o_all_in + k] = 1.0
        obs[params.o_stacks + k] = np.float32(state.stacks[i, p]) * params.total_scale32
        obs[params.o_bets + k] = np.float32(state.bets[i, p]) * params.bet_scale32
        obs[params.o_committed + k] = np.float32(state.committed[i, p]) * params.total_scale32
    mine = state.ncards[i, me]
    for j in range(mine):
        if j < FIRST_UP or j > LAST_UP:
            obs[params.o_down + state.cards[i, me, j]] = 1.0
    if state.wild[i] >= 0:
        obs[params.o_wild + state.wild[i]] = 1.0
    if state.pending[i]:
        obs[params.o_pending] = 1.0
    if mine:
        obs[params.o_category + (state.key[i, me] >> TIEBREAK_BITS)] = 1.0
    street = state.street[i]
    obs[params.o_street + street - FIRST_STREET] = 1.0
    obs[params.o_button + (state.dealer[i] - me) % n] = 1.0
    if state.opener[i] >= 0:
        obs[params.o_opener + (state.opener[i] - me) % n] = 1.0
    obs[params.o_to_act] = 1.0  # relative seat 0: the observer is the seat to act
    if street >= 5:
        obs[params.o_big_bet] = 1.0
    pot = 0
    for p in range(n):
        pot += state.committed[i, p]
    obs[params.o_pot] = pot / params.chip_total
    obs[params.o_to_call] = (state.current_bet[i] - state.bets[i, me]) / params.bet_scale
    obs[params.o_bets_made] = state.complete[i] / params.max_bets
    obs[params.o_progress] = state.hand[i] / params.num_hands
    obs[params.o_still_in] = state.live[i] / n
    if params.o_actions >= 0:  # ``encoding.action_fraction``: the same float64 quotient, capped at 1
        scale = ROUNDS * params.max_bets
        for k in range(n):
            p = (me + k) % n
            for c in range(3):
                obs[params.o_actions + 3 * k + c] = min(state.acts[i, p, c], scale) / scale
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
def check_batchable(config: dict[str, Any]) -> None:
    """ConfigError for the options whose first hand has no decision (see the module docstring)."""
    n = config["num_players"]
    stacks = config["stacks"] if isinstance(config["stacks"], tuple) else (config["stacks"],) * n
    if sum(s > config["ante"] for s in stacks) < 2:
        raise ConfigError(
            f"batched breed_the_heifer: option ante={config['ante']} leaves fewer than two seats with chips "
            f"behind it (stacks={config['stacks']}), so the first hand has no decision and its chips move "
            "while the game starts; batched games start without rewards, so these options play only on the "
            "scalar env (pokerzoo.envs.make)"
        )


HIDDEN_POSITIONS = np.array([True, True, False, False, False, False, True])  # down, down, up x4, down
CATEGORIES = 10  # high card .. five of a kind (``kernel_hands``)


class HeiferKernel(GameKernel):
    game_class = BreedTheHeiferGame
    run_rows = staticmethod(run_rows)
    run_rows_parallel = staticmethod(run_rows_parallel)

    @property
    def privileged_size(self) -> int:
        return privileged_lib.features_size(self.params.n, CATEGORIES)

    def privileged(self, state: HeiferState, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """The other seats' down cards dealt so far, their current hand categories, who leads with the current
        wild (``envs/batched/privileged.py``)."""
        dealt = np.arange(MAX_CARDS)[None, None, :] < state.ncards[:, :, None]
        return privileged_lib.opponent_features(
            state.cards, dealt & HIDDEN_POSITIONS, state.folded == 0, state.key, rows, seats,
            num_players=self.params.n, categories=state.key >> TIEBREAK_BITS, num_categories=CATEGORIES,
        )  # fmt: skip

    def make_params(self, config: dict[str, Any]) -> HeiferParams:
        check_batchable(config)
        n = config["num_players"]
        stacks = config["stacks"] if isinstance(config["stacks"], tuple) else (config["stacks"],) * n
        max_bets = 1 + config["max_raises"]
        chip_total = float(sum(stacks))
        bet_scale = float(max_bets * max(config["small_bet"], config["big_bet"]))
        offsets = encoding.schema(n, config["action_counts"]).offsets
        return HeiferParams(
            n=n,
            any_player=config["wild_pairs"] == "any_player",
            double_ace_flush=bool(config["double_ace_flush"]),
            ante=int(config["ante"]),
            small_bet=int(config["small_bet"]),
            big_bet=int(config["big_bet"]),
            max_bets=max_bets,
            num_hands=int(config["num_hands"]),
            stacks=np.array(stacks, dtype=np.int64),
            chip_total=chip_total,
            bet_scale=bet_scale,
            total_scale32=np.float32(1.0 / chip_total),
            bet_scale32=np.float32(1.0 / bet_scale),
            deck=np.array(DECKS["52"].cards, dtype=np.int64),
            straight_top=straight_table(),
            **{f"o_{name}": int(offset) for name, offset in offsets.items()},
            **({} if "actions" in offsets else {"o_actions": -1}),
        )

    def new_state(self, n: int) -> HeiferState:
        p = self.params.n
        return HeiferState(
            hand=np.zeros(n, dtype=np.int64),
            dealer=np.zeros(n, dtype=np.int64),
            street=np.full(n, FIRST_STREET, dtype=np.int64),
            opener=np.full(n, -1, dtype=np.int64),
            sixth=np.full(n, -1, dtype=np.int64),
            to_act=np.full(n, -1, dtype=np.int64),
            live=np.zeros(n, dtype=np.int64),
            bet_size=np.zeros(n, dtype=np.int64),
            current_bet=np.zeros(n, dtype=np.int64),
            complete=np.zeros(n, dtype=np.int64),
            stacks=np.zeros((n, p), dtype=np.int64),
            start_stacks=np.zeros((n, p), dtype=np.int64),
            committed=np.zeros((n, p), dtype=np.int64),
            bets=np.zeros((n, p), dtype=np.int64),
            folded=np.zeros((n, p), dtype=np.uint8),
            needs=np.zeros((n, p), dtype=np.uint8),
            can_raise=np.zeros((n, p), dtype=np.uint8),
            cards=np.zeros((n, p, MAX_CARDS), dtype=np.int8),
            ncards=np.zeros((n, p), dtype=np.int64),
            key=np.zeros((n, p), dtype=np.int64),
            player_ranks=np.zeros((n, p), dtype=np.int64),
            table_ranks=np.zeros(n, dtype=np.int64),
            wild=np.full(n, -1, dtype=np.int64),
            pending=np.zeros(n, dtype=np.uint8),
            stock=np.zeros((n, 52), dtype=np.int8),
            next_card=np.zeros(n, dtype=np.int64),
            acts=np.zeros((n, p, 3), dtype=np.int64),
        )


Kernel = HeiferKernel
