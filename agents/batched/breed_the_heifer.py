"""Breed the Heifer's ``equity`` agent (``agents.breed_the_heifer.EquityAgent``) as a batched opponent, and its
``calling_station`` (``CallingStationOpponent``: a rule on the legal mask alone, so plain numpy).

``EquityOpponent(seed=s).act(env, rows)`` decides the waiting bet of every row
of a batched Breed the Heifer env at once, its Monte Carlo run in the kernel
over the env's state arrays. Row r decides with its own generator,
``np.random.default_rng(s + r)`` (or the r-th of a list of seeds). Two
samplers, chosen by ``sampler``:

* ``"scalar"`` (default): the scalar agent draw for draw, exactly as
  ``EquityAgent(seed=s + r)`` deciding every decision of row r in turn
  would, so the two make the same decision with the same equity estimate
  (``last_equity``) at every step (``tests/agents/test_batched_heifer.py``
  checks it decision by decision). See "What keeps it the same" below.
* ``"fast"``: the same simulations in distribution, with much less work per
  simulation (``estimate_equity_fast``): each deals only the cards it needs,
  a partial Fisher–Yates shuffle of the unseen cards with exactly uniform
  bounded integers (Lemire's method on 16-bit quarters of the row
  generator's 64-bit draws), the opponents' hidden cards only as each
  opponent is scored (once one beats the agent the rest do not matter);
  hands are scored by category first (``kernel_hands.category_of_words``)
  and by full key only against an equal category. The estimate is a mean of
  ``simulations`` independent uniform deals scored by the same keys, added
  in the same order, so it has the scalar agent's distribution and so has
  every decision; the test compares the decision frequencies of the two
  samplers on many states. The loop also stops as soon as the decision is
  settled: when no threshold lies between the equity if every simulation
  left were lost and if every one were won (with a margin far above the
  rounding), every completion of the run makes the same decision, which is
  ``decide`` on the final sum as the full run would compute it. From
  ``MIN_SIMULATIONS`` on it also stops once every threshold lies more than
  ``stop_z`` (default ``STOP_Z``, 3) predictive standard deviations from the
  sum the run is heading for (``_confidently_settled``): on the same random
  stream that changes about 0.2% of the full run's decisions (at most 0.5%,
  tested), where two independent runs of 200 simulations disagree on 5-11% of
  the same states, and it takes a third fewer simulations; ``stop_z=0``
  keeps the certain stop alone. The decision is ``decide`` on
  ``last_equity``, the mean of the simulations run (``last_simulations``:
  how many; 0 and NaN where the equity decides nothing, such as a check
  with no bet allowed). About 3.5x the scalar sampler's decisions per CPU
  second on the benchmark's states.

What keeps the scalar sampler the same:

* the draws: ``estimate_equity`` takes ``rng.permuted(np.tile(unseen,
  (simulations, 1)), axis=1)``, which is one ``Generator.shuffle`` of the
  ascending unseen cards per simulation, in order; the kernel makes those
  shuffles with the row's generator (``rng.shuffle_in_place``) and deals from
  each in the scalar order: the opponents' down cards seat by seat, then the
  cards still to come street by street in dealing order;
* the wild rank of each simulation runs through the same tracker steps as
  ``WildTracker.see``, and hands are scored by the compiled heifer evaluator,
  which is the scalar ranker key for key;
* the arithmetic: the pot share ``1 / ties`` added in the scalar order, the
  mean, the thresholds ``bet_factor / k``, ``raise_factor / k`` and the pot
  odds ``call / (pot + call)`` in float64, as Python computes them.

Like the scalar agent it reads only what its seat may know: its own cards,
every up card, the chips, the wild rank and the pending pair.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numba
import numpy as np

from pokerzoo.agents.batched.search import PimcOpponent
from pokerzoo.agents.breed_the_heifer import SEARCH_DEFAULTS, EquityAgent
from pokerzoo.envs.batched import rng, seeding
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.core import CHUNK, PARALLEL_MIN_ROWS, BatchedEnv
from pokerzoo.envs.batched.opponents import RandomOpponent
from pokerzoo.envs.breed_the_heifer.game import LAST_STREET, BreedTheHeiferGame
from pokerzoo.envs.breed_the_heifer.kernel import FIRST_UP, LAST_UP, MAX_CARDS, HeiferKernel, legal
from pokerzoo.envs.breed_the_heifer.kernel_hands import (
    SUIT_SHIFT,
    add_cards,
    category_of_words,
    heifer_key,
    key_in_category,
    key_of_words,
)
from pokerzoo.envs.breed_the_heifer.wilds import WildTracker
from pokerzoo.envs.engine.betting import BET, CALL, CHECK, FOLD, NUM_ACTIONS, RAISE
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS

_DEFAULTS = EquityAgent()  # the scalar agent's default parameters, read from one instance
SIMULATIONS = _DEFAULTS.simulations
BET_FACTOR = _DEFAULTS.bet_factor
RAISE_FACTOR = _DEFAULTS.raise_factor
SAMPLERS = ("scalar", "fast")
# The fast sampler's early stop compares the running sum of pot shares with each threshold times the number of
# simulations; this margin covers the rounding of that product, of the sum (within 1e-11 of the exact sum of a few
# hundred shares <= 1) and of the final division, so it stops only once the decision is settled.
SUM_ROUNDING = 1e-6
# The fast sampler's statistical stop (``_confidently_settled``): the default number of predictive standard
# deviations between the sum a run is heading for and every threshold, and the simulations it needs before it
# trusts the estimate of the spread (``tests/agents/test_batched_heifer.py`` measures the decisions it changes).
STOP_Z = 3.0
MIN_SIMULATIONS = 40
POT_SHARE = np.array([0.0] + [1.0 / k for k in range(1, 8)])  # 1 / ties, the very floats the scalar agent adds
SUIT_COLUMN = np.int64(sum(1 << (SUIT_SHIFT * s) for s in range(4)))  # rank 0 of every suit in a suits word
# each card's contribution to a hand's words (``kernel_hands.card_words``), and its rank
CARD_COUNTS = np.array([1 << (3 * (c % 13)) for c in range(52)], dtype=np.int64)
CARD_SUITS = np.array([1 << (SUIT_SHIFT * (c // 13) + c % 13) for c in range(52)], dtype=np.int64)
CARD_RANK = np.array([c % 13 for c in range(52)], dtype=np.int64)
_M16 = np.uint64(0xFFFF)
_U16 = np.uint64(16)


class Scratch:
    """Per decided row: room for the unseen cards, one simulation's shuffle, the simulated hands, the plan of the
    deal (which seat and hand slot each card of the shuffle goes to, and whether it is an up card) and the
    words of the cards each seat holds before the deal (``kernel_hands``). The fast sampler uses ``unseen``,
    ``ranks``, ``sizes`` (the live seats in dealing order) and ``known`` (their words and card counts)."""

    def __init__(self, rows: int, players: int):
        self.unseen = np.empty((rows, 52), dtype=np.int8)
        self.deck = np.empty((rows, 52), dtype=np.int8)
        self.hands = np.empty((rows, players, MAX_CARDS), dtype=np.int8)
        self.sizes = np.empty((rows, players), dtype=np.int64)
        self.ranks = np.empty((rows, players), dtype=np.int64)
        self.plan = np.empty((rows, 3, 52), dtype=np.int8)
        self.known = np.empty((rows, 4, players), dtype=np.int64)
        self.mask = np.empty((rows, NUM_ACTIONS), dtype=np.bool_)

    def arrays(self) -> tuple:
        return self.unseen, self.deck, self.hands, self.sizes, self.ranks, self.plan, self.known, self.mask


@kernel(inline=True)
def _plan_deal(state, params, i, me, hands, sizes, plan, known):
    """The known cards into ``hands`` (``known[3]``: how many), and the plan of a simulation's deal; returns
    how many cards it deals.

    The scalar order: each opponent's missing down cards, seat by seat, then
    the cards still to come, street by street in dealing order. ``plan[0]``:
    the seat of each card, ``plan[1]``: its slot in the seat's hand,
    ``plan[2]``: 1 for an up card (the wild tracker sees it).
    """
    n = params.n
    down_count = 3 if state.ncards[i, me] == MAX_CARDS else 2
    need = 0
    for p in range(n):
        if state.folded[i, p]:
            continue
        size = 0
        for j in range(state.ncards[i, p]):
            if p == me or FIRST_UP <= j <= LAST_UP:
                hands[p, size] = state.cards[i, p, j]
                size += 1
        known[3, p] = size
        if p != me:
            for _ in range(down_count):
                plan[0, need], plan[1, need], plan[2, need] = p, size, 0
                size += 1
                need += 1
        sizes[p] = size
    for s in range(state.street[i] + 1, LAST_STREET + 1):
        for k in range(1, n + 1):
            p = (state.dealer[i] + k) % n
            if state.folded[i, p]:
                continue
            plan[0, need], plan[1, need], plan[2, need] = p, sizes[p], s != LAST_STREET
            sizes[p] += 1
            need += 1
    return need


@kernel(inline=True)
def _simulated_key(params, hands, sizes, known, p, wild, fixed_wild):
    """The key of seat p's simulated hand; with a fixed wild rank, from the known cards' words plus the dealt ones."""
    if not fixed_wild:
        return heifer_key(params.straight_top, hands[p], sizes[p], wild, params.double_ace_flush)
    held = known[3, p]
    counts, suits, w = add_cards(hands[p, held:], sizes[p] - held, wild, known[0, p], known[1, p], known[2, p])
    return key_of_words(params.straight_top, counts, suits, w, sizes[p], params.double_ace_flush)


@kernel(inline=True)
def _unseen_cards(state, params, i, me, unseen):
    """The cards seat ``me`` of row i cannot see (not its own, not an up card), ascending, into ``unseen``;
    returns how many."""
    seen = np.int64(0)
    for p in range(params.n):
        for j in range(FIRST_UP, min(state.ncards[i, p], LAST_UP + 1)):
            seen |= np.int64(1) << state.cards[i, p, j]
    for j in range(state.ncards[i, me]):
        seen |= np.int64(1) << state.cards[i, me, j]
    count = 0
    for c in range(52):
        if not (seen >> c) & 1:
            unseen[count] = c
            count += 1
    return count


@kernel(inline=True)
def estimate_equity(state, params, words, g, i, unseen, deck, hands, sizes, ranks, plan, known, simulations):
    """``estimate_equity`` for the seat to act in row i, drawing from generator ``words[g]``."""
    n = params.n
    me = state.to_act[i]
    if state.live[i] == 1:
        return 1.0
    count = _unseen_cards(state, params, i, me, unseen)
    need = _plan_deal(state, params, i, me, hands, sizes, plan, known)
    fixed_wild = state.street[i] >= LAST_STREET - 1  # no up card to come: the wild rank stays the view's
    my_key = np.int64(-1)
    if fixed_wild:
        for p in range(n):
            if not state.folded[i, p]:
                known[0, p], known[1, p], known[2, p] = add_cards(
                    hands[p], known[3, p], state.wild[i], np.int64(0), np.int64(0), 0
                )
        if known[3, me] == sizes[me]:  # nothing comes to this seat (7th street): one key for every simulation
            my_key = _simulated_key(params, hands, sizes, known, me, state.wild[i], True)
    won = 0.0
    for _ in range(simulations):
        for k in range(count):
            deck[k] = unseen[k]
        rng.shuffle_in_place(words, g, deck, count)
        wild = state.wild[i]
        pending = state.pending[i]
        table = state.table_ranks[i]
        if not fixed_wild:
            for p in range(n):
                ranks[p] = state.player_ranks[i, p]
        for t in range(need):
            p = plan[0, t]
            card = deck[t]
            hands[p, plan[1, t]] = card
            if plan[2, t]:  # ``WildTracker.see`` on a simulated up card
                rank = np.int64(card) % 13
                bit = np.int64(1) << rank
                if pending:
                    wild = rank
                    pending = 0
                earlier = table if params.any_player else ranks[p]
                if earlier & bit:
                    wild = -1
                    pending = 1
                ranks[p] |= bit
                table |= bit
        best = my_key if my_key >= 0 else _simulated_key(params, hands, sizes, known, me, wild, fixed_wild)
        ties = 1
        beaten = False
        for p in range(n):
            if p == me or state.folded[i, p]:
                continue
            key = _simulated_key(params, hands, sizes, known, p, wild, fixed_wild)
            if key > best:
                beaten = True
                break
            ties += key == best
        if not beaten:
            won += 1.0 / ties
    return won / simulations


@kernel
def equity_of_rows(state, params, words, rows, unseen, deck, hands, sizes, ranks, plan, known, simulations, eq):
    """The scalar sampler's equity (``eq[k]``) of the seat to act in each of ``rows``, drawing from ``words[k]``:
    no decision, so the rows need no betting state. ``ViewEquity`` runs it on one view loaded into a row."""
    for k in range(rows.shape[0]):
        i = rows[k]
        eq[k] = estimate_equity(
            state, params, words, k, i, unseen[k], deck[k], hands[k], sizes[k], ranks[k], plan[k], known[k],
            simulations,
        )  # fmt: skip


class ViewEquity:
    """``agents.breed_the_heifer.estimate_equity`` of a view, compiled: the same draws, the same estimate.

    The scalar agent's simulations spend most of a Breed the Heifer search's
    time (``ismcts`` rolls out with ``equity(simulations=20)`` in every seat),
    and in Python each costs some 25 us. This writes what the view shows into
    row 0 of a one-row kernel state (the viewer's cards in dealing order, every
    seat's up cards, who folded, the dealer, the street, the wild rank, the
    pending pair and the ranks each seat has shown), runs the kernel's
    ``estimate_equity`` on the viewer's generator (read from and written back
    to the ``numpy`` generator, so the stream goes on exactly as after the
    Python function) and returns its estimate. The kernel reads nothing the
    view does not hold (``_plan_deal``, ``_unseen_cards``). One instance per
    table shape (``for_view``); not thread-safe (each agent is used by one
    thread).
    """

    def __init__(self, num_players: int, any_player: bool, double_ace_flush: bool):
        config = BreedTheHeiferGame.OPTIONS.validate(
            {"num_players": num_players, "wild_pairs": "any_player" if any_player else "same_player",
             "double_ace_flush": double_ace_flush}
        )  # fmt: skip
        kernel_ = HeiferKernel(config)
        self.params = kernel_.params
        self.state = kernel_.new_state(1)
        self.scratch = Scratch(1, num_players).arrays()[:7]
        self.rows = np.zeros(1, dtype=np.int64)
        self.words = np.zeros((1, rng.WORDS), dtype=np.uint64)
        self.eq = np.zeros(1, dtype=np.float64)

    @staticmethod
    def for_view(view) -> ViewEquity:
        return _view_equity(view.num_players, view.wild_pairs == "any_player", bool(view.double_ace_flush))

    def load(self, view) -> None:
        """Row 0 becomes what ``view`` shows (the other seats' down cards stay 0: the kernel never reads them)."""
        s = self.state
        me = view.player
        s.to_act[0] = me
        s.live[0] = sum(not f for f in view.folded)
        s.street[0] = view.street
        s.dealer[0] = view.dealer
        tracker = WildTracker.from_up_cards(view.up, view.wild_rank, view.pair_pending, view.wild_pairs == "any_player")
        s.wild[0] = tracker.wild
        s.pending[0] = tracker.pending
        s.player_ranks[0] = tracker.player_ranks
        s.table_ranks[0] = tracker.table_ranks
        for p, up in enumerate(view.up):
            s.folded[0, p] = view.folded[p]
            s.cards[0, p, FIRST_UP : FIRST_UP + len(up)] = up
            s.ncards[0, p] = FIRST_UP + len(up)
        down = view.down
        s.cards[0, me, : min(2, len(down))] = down[:2]
        if len(down) > 2:
            s.cards[0, me, FIRST_UP + len(view.up[me]) :][: len(down) - 2] = down[2:]
        s.ncards[0, me] = len(down) + len(view.up[me])

    def estimate(self, view, generator: np.random.Generator, simulations: int) -> float:
        self.load(view)
        bit_generator = generator.bit_generator
        self.words[0] = rng.words_from_state(bit_generator.state)
        equity_of_rows(self.state, self.params, self.words, self.rows, *self.scratch, simulations, self.eq)
        bit_generator.state = rng.state_from_words(self.words[0])
        return float(self.eq[0])


@functools.cache
def _view_equity(num_players: int, any_player: bool, double_ace_flush: bool) -> ViewEquity:
    """One ``ViewEquity`` per table shape, made on first use."""
    return ViewEquity(num_players, any_player, double_ace_flush)


# ---------------------------------------------------------------- the fast sampler
@kernel(inline=True)
def _add_card(counts, suits, card):
    """The words (``kernel_hands``) of a hand with one more natural card (two loads instead of the arithmetic:
    about an eighth of a simulation's time on the development machine)."""
    return counts + CARD_COUNTS[card], suits | CARD_SUITS[card]


@kernel(inline=True)
def _without_wild(counts, suits, wild):
    """Words of a hand counted as naturals -> its words and wild count with rank ``wild`` wild (-1: none): the
    cards of that rank leave both words, as ``add_cards`` would have left them out."""
    w = np.int64(0)
    if wild >= 0:
        w = (counts >> (3 * wild)) & 7
        counts &= ~(np.int64(7) << (3 * wild))
        suits &= ~(SUIT_COLUMN << wild)
    return counts, suits, w


@kernel(inline=True)
def _draw_swap(words, g, cards, count, t, x):
    """One step of a partial Fisher–Yates shuffle of ``cards[:count]``: swap position t with ``t + j``, j uniform
    below ``n = count - t``, from the fresh 16-bit uniform ``x``.

    Lemire's multiply-and-reject (``Generator.integers``' method, on 16-bit
    words): j is ``x * n >> 16``; a low half below ``2**16 mod n`` (which
    needs ``low < n``: fewer than one draw in a thousand) is rejected and
    redrawn from fresh bits, so every j is equally likely.
    """
    n = np.uint64(count - t)
    m = x * n
    if (m & _M16) < n:
        threshold = (_M16 - n + np.uint64(1)) % n
        while (m & _M16) < threshold:
            m = (rng.next_uint64(words, g) & _M16) * n
    j = t + np.int64(m >> _U16)
    card = cards[j]
    cards[j] = cards[t]
    cards[t] = card


@kernel(inline=True)
def sample_cards(words, g, cards, count, lo, hi):
    """Positions ``lo .. hi - 1`` of a partial Fisher–Yates shuffle of ``cards[:count]``, four positions from each
    64-bit draw of generator ``words[g]`` (its 16-bit quarters, lowest first).

    Whatever order the cards are in, each step puts a uniformly chosen card
    of the rest at its position, so positions ``0 .. hi - 1`` drawn anew are a
    uniformly random ordered sample without replacement, independent of
    earlier samples: a simulation needs no fresh copy of the unseen cards.
    """
    t = lo
    while t < hi:
        v = rng.next_uint64(words, g)
        for c in range(min(4, hi - t)):
            _draw_swap(words, g, cards, count, t + c, (v >> np.uint64(16 * c)) & _M16)
        t += 4


@kernel(inline=True)
def thresholds(state, params, i, mask, bet_factor, raise_factor):
    """The equities at which ``decide``'s choice for row i changes (NaN: none): the bet or raise threshold, and
    the pot odds where folding is legal; both NaN when the choice does not depend on the equity."""
    me = state.to_act[i]
    k = state.live[i]
    aggressive = mask[BET] or mask[RAISE]
    a = np.nan
    c = np.nan
    if mask[CHECK]:
        if aggressive:
            a = bet_factor / k
    else:
        if aggressive:
            a = raise_factor / k
        if mask[FOLD]:
            call = min(state.current_bet[i] - state.bets[i, me], state.stacks[i, me])
            pot = 0
            for p in range(params.n):
                pot += state.committed[i, p]
            c = call / (pot + call)
    return a, c


@kernel(inline=True)
def estimate_equity_fast(state, params, words, g, i, unseen, seats, known, ranks, simulations, theta_a, theta_c,
                         stop_z):  # fmt: skip
    """The fast sampler's equity for the seat to act in row i: (the sum of the pot shares won, the simulations
    run); the decision is ``decide`` on ``won / t``, the mean of the simulations run (module docstring).

    The simulations are the scalar agent's in distribution; what differs is
    the work. The cards of each simulation are dealt in an order of its own
    (any fixed assignment of a uniform ordered sample's positions to the
    cards dealt is a uniform deal): first the up cards still to come, street
    by street in dealing order (the wild tracker reads them in that order),
    and the agent's 7th-street card, then each opponent's hidden cards, drawn
    only when that opponent is scored: once an opponent beats the agent the
    simulation is lost whatever the others hold, so the rest are not dealt.
    Hands are words of their cards counted as naturals (the known cards'
    words made once per decision), the simulation's wild rank taken out when
    scoring; an opponent whose category (``category_of_words``) differs from
    the agent's wins or loses by it, and only equal categories compare full
    keys (``key_in_category``: the scalar ranker's keys, built for the category
    alone, which skips the tests of the categories above it). After each simulation,
    with ``low`` the sum of pot shares if every simulation left loses and
    ``high`` if every one wins (each widened by ``SUM_ROUNDING``), the loop
    stops once no threshold times ``simulations`` lies in ``(low, high]``:
    every completion then makes the same decision. With ``stop_z > 0`` it
    also stops from ``MIN_SIMULATIONS`` on once ``_confidently_settled``.
    """
    n = params.n
    me = state.to_act[i]
    street = state.street[i]
    count = _unseen_cards(state, params, i, me, unseen)
    # the live seats in dealing order, with the words and number of the cards the agent sees of each
    live = 0
    mine = 0
    for k in range(1, n + 1):
        p = (state.dealer[i] + k) % n
        if state.folded[i, p]:
            continue
        counts = np.int64(0)
        suits = np.int64(0)
        size = 0
        for j in range(state.ncards[i, p]):
            if p == me or FIRST_UP <= j <= LAST_UP:
                counts, suits = _add_card(counts, suits, state.cards[i, p, j])
                size += 1
        if p == me:
            mine = live
        seats[live] = p
        known[0, live] = counts
        known[1, live] = suits
        known[2, live] = size
        live += 1
    ups = max(0, LAST_STREET - 1 - street)  # up streets to come
    last = 1 if street < LAST_STREET else 0  # 7th street's down card to come
    hidden = (3 if state.ncards[i, me] == MAX_CARDS else 2) + last  # an opponent's cards nobody sees
    shared = ups * live + last  # the up cards to come, then the agent's 7th-street card
    my_size = known[2, mine] + ups + last
    their_size = known[2, (mine + 1) % live] + ups + hidden
    my_key = np.int64(-1)
    my_category = np.int64(-1)
    if ups == 0 and last == 0:  # 7th street: the agent's hand and the wild rank are known
        counts, suits, w = _without_wild(known[0, mine], known[1, mine], state.wild[i])
        my_key = key_of_words(params.straight_top, counts, suits, w, my_size, params.double_ace_flush)
        my_category = my_key >> TIEBREAK_BITS
    sum_a = theta_a * simulations  # the thresholds on the sum of the pot shares
    sum_c = theta_c * simulations
    won = 0.0
    t = 0
    while t < simulations:
        t += 1
        sample_cards(words, g, unseen, count, 0, shared)
        wild = state.wild[i]
        if ups:  # ``WildTracker.see`` on the simulated up cards
            pending = state.pending[i]
            table = state.table_ranks[i]
            for q in range(live):
                ranks[q] = state.player_ranks[i, seats[q]]
            q = 0
            for k in range(ups * live):
                rank = CARD_RANK[unseen[k]]
                bit = np.int64(1) << rank
                paired = ((table if params.any_player else ranks[q]) & bit) != 0
                # the pending pair makes this rank wild, a new pair clears it and is pending: selects, not branches
                # (pairs are common enough that branches would often be mispredicted)
                wild = -1 if paired else (rank if pending else wild)
                pending = paired
                ranks[q] |= bit
                table |= bit
                q += 1
                if q == live:
                    q = 0
        best = my_key
        category = my_category
        my_counts, my_suits, my_w = np.int64(0), np.int64(0), np.int64(0)
        if category < 0:
            my_counts, my_suits = known[0, mine], known[1, mine]
            for s in range(ups):
                my_counts, my_suits = _add_card(my_counts, my_suits, unseen[s * live + mine])
            if last:
                my_counts, my_suits = _add_card(my_counts, my_suits, unseen[ups * live])
            my_counts, my_suits, my_w = _without_wild(my_counts, my_suits, wild)
            category = category_of_words(params.straight_top, my_counts, my_suits, my_w, my_size)
        ties = 1
        beaten = False
        lo = shared
        for q in range(live):
            if q == mine:
                continue
            sample_cards(words, g, unseen, count, lo, lo + hidden)
            counts, suits = known[0, q], known[1, q]
            for s in range(ups):
                counts, suits = _add_card(counts, suits, unseen[s * live + q])
            for k in range(lo, lo + hidden):
                counts, suits = _add_card(counts, suits, unseen[k])
            lo += hidden
            counts, suits, w = _without_wild(counts, suits, wild)
            theirs = category_of_words(params.straight_top, counts, suits, w, their_size)
            if theirs < category:
                continue
            if theirs > category:
                beaten = True
                break
            if best < 0:
                best = key_in_category(
                    params.straight_top, my_counts, my_suits, my_w, my_size, params.double_ace_flush, category
                )
            key = key_in_category(params.straight_top, counts, suits, w, their_size, params.double_ace_flush, category)
            if key > best:
                beaten = True
                break
            ties += key == best
        if not beaten:
            won += POT_SHARE[ties]
        low = won - SUM_ROUNDING  # the least and the most the final sum can be
        high = won + (simulations - t) + SUM_ROUNDING
        if not (low < sum_a <= high) and not (low < sum_c <= high):  # NaN thresholds compare False
            break
        if stop_z > 0.0 and t >= MIN_SIMULATIONS and t < simulations and _confidently_settled(
            won, t, simulations, sum_a, sum_c, stop_z
        ):
            break
    return won, t


@kernel(inline=True)
def _confidently_settled(won, t, simulations, sum_a, sum_c, stop_z):
    """Whether every threshold on the final sum lies more than ``stop_z`` predictive standard deviations from
    the sum the run is heading for (``won * simulations / t``).

    The final sum is ``won`` plus the ``r = simulations - t`` shares still to
    come; with the equity p estimated from the t run, its predictive variance
    is ``r * v + r**2 * v / t`` (the remaining draws' own spread plus the
    error of the estimate), v bounded by the variance of a 0/1 share with mean
    ``(won + 1) / (t + 2)`` (a share in [0, 1] with that mean varies no more;
    the +1/+2 keeps a run of losses or wins from claiming no spread at all).
    Compared squared: no square root per simulation."""
    r = simulations - t
    m = (won + 1.0) / (t + 2.0)
    bound = stop_z * stop_z * m * (1.0 - m) * (r + r * r / t)
    heading = won * simulations / t
    far_a = np.isnan(sum_a) or (sum_a - heading) ** 2 > bound
    far_c = np.isnan(sum_c) or (sum_c - heading) ** 2 > bound
    return far_a and far_c


@kernel(inline=True)
def decide(state, params, i, equity, mask, bet_factor, raise_factor):
    """``EquityAgent.act``'s thresholds for the seat to act in row i (``mask``: its legal actions)."""
    me = state.to_act[i]
    k = state.live[i]
    aggressive = BET if mask[BET] else RAISE if mask[RAISE] else -1
    if mask[CHECK]:
        if aggressive >= 0 and equity >= bet_factor / k:
            return aggressive
        return CHECK
    if aggressive >= 0 and equity >= raise_factor / k:
        return aggressive
    call = min(state.current_bet[i] - state.bets[i, me], state.stacks[i, me])
    pot = 0
    for p in range(params.n):
        pot += state.committed[i, p]
    if equity >= call / (pot + call):
        return CALL
    return FOLD if mask[FOLD] else CALL


@kernel
def decide_rows(state, params, words, rows, unseen, deck, hands, sizes, ranks, plan, known, masks, fast, simulations,
                stop_z, factors, out, eq, runs):  # fmt: skip
    """The decision (``out``), the equity estimate (``eq``) and the simulations run (``runs``) of the seat to act in
    each of ``rows``; ``fast``: with the fast sampler."""
    for k in range(rows.shape[0]):
        i = rows[k]
        mask = masks[k]
        mask[:] = False
        legal(state, params, i, mask)
        if not fast:
            equity = estimate_equity(
                state, params, words, i, i, unseen[k], deck[k], hands[k], sizes[k], ranks[k], plan[k], known[k],
                simulations,
            )  # fmt: skip
            out[k] = decide(state, params, i, equity, mask, factors[0], factors[1])
            eq[k] = equity
            runs[k] = 0 if state.live[i] == 1 else simulations
            continue
        theta_a, theta_c = thresholds(state, params, i, mask, factors[0], factors[1])
        if state.live[i] == 1 or (np.isnan(theta_a) and np.isnan(theta_c)):  # the equity decides nothing
            equity = 1.0 if state.live[i] == 1 else np.nan
            out[k] = decide(state, params, i, 0.0 if np.isnan(equity) else equity, mask, factors[0], factors[1])
            eq[k] = equity
            runs[k] = 0
            continue
        won, t = estimate_equity_fast(
            state, params, words, i, i, unseen[k], sizes[k], known[k], ranks[k], simulations, theta_a, theta_c, stop_z
        )
        # a run stopped on a settled decision decides as the mean it ran (the full run's decision, or, stopped by
        # the statistical test, the one it was heading for)
        out[k] = decide(state, params, i, won / t, mask, factors[0], factors[1])
        eq[k] = won / t
        runs[k] = t


@kernel(parallel=True)
def decide_rows_parallel(state, params, words, rows, unseen, deck, hands, sizes, ranks, plan, known, masks, fast,
                         simulations, stop_z, factors, out, eq, runs):  # fmt: skip
    for c in numba.prange((rows.shape[0] + CHUNK - 1) // CHUNK):  # as the env's parallel loop: chunks of rows
        lo = c * CHUNK
        hi = min(rows.shape[0], lo + CHUNK)
        decide_rows(
            state, params, words, rows[lo:hi], unseen[lo:hi], deck[lo:hi], hands[lo:hi], sizes[lo:hi],
            ranks[lo:hi], plan[lo:hi], known[lo:hi], masks[lo:hi], fast, simulations, stop_z, factors, out[lo:hi],
            eq[lo:hi], runs[lo:hi],
        )  # fmt: skip


class EquityOpponent:
    """``EquityAgent`` for every row at once: ``act(env, rows)`` on a batched Breed the Heifer env.

    ``simulations``, ``bet_factor`` and ``raise_factor`` are the scalar agent's
    parameters; ``sampler``: ``"scalar"`` (the scalar agent's draws) or
    ``"fast"`` (the same decision distribution, faster; module docstring),
    whose statistical stop ``stop_z`` sets (0: only the certain stop).
    ``seed``: an int s gives row r the generator of
    ``EquityAgent(seed=s + r)``, a sequence one seed per row, None fresh
    unpredictable ones. After ``act``, ``last_equity[k]`` is the estimate
    behind the decision of ``rows[k]`` and ``last_simulations[k]`` the
    simulations it took (the fast sampler stops once the decision is
    settled, or statistically settled). The rows are decided on all of
    numba's threads when the env runs in parallel (and at least
    ``PARALLEL_MIN_ROWS`` rows are asked for), as the env steps them.
    """

    name = "equity"
    # what ``pokerzoo bench batched`` measures: both samplers, the fast one without and with its statistical stop
    # (the first variant's decisions are checked against the twins)
    benchmark_variants = ({"sampler": "scalar"}, {"sampler": "fast", "stop_z": 0}, {"sampler": "fast"})

    def __init__(
        self,
        seed: int | Sequence[int] | None = None,
        simulations: int = SIMULATIONS,
        bet_factor: float = BET_FACTOR,
        raise_factor: float = RAISE_FACTOR,
        sampler: str = "scalar",
        stop_z: float = STOP_Z,
    ):
        if isinstance(simulations, bool) or not isinstance(simulations, int | np.integer) or simulations < 1:
            raise ValueError(f"simulations must be an int >= 1, got {simulations!r}")
        if sampler not in SAMPLERS:
            raise ValueError(f"sampler={sampler!r}: expected one of {', '.join(SAMPLERS)}")
        number = isinstance(stop_z, int | float | np.integer | np.floating) and not isinstance(stop_z, bool)
        if not number or not 0 <= stop_z <= 1e6:
            raise ValueError(f"stop_z must be a number in 0..1e6 (0: the certain stop alone), got {stop_z!r}")
        self.sampler = sampler
        self.stop_z = float(stop_z)
        self.simulations = int(simulations)
        self.factors = np.array([bet_factor, raise_factor], dtype=np.float64)
        self.last_equity = np.empty(0)
        self.last_simulations = np.empty(0, dtype=np.int64)
        self.seed(seed)

    def seed(self, seed: int | Sequence[int] | None) -> None:
        """Row r's generator becomes ``np.random.default_rng(seed + r)`` (see the class docstring)."""
        if seed is not None and not isinstance(seed, int | np.integer | Sequence):
            raise TypeError(f"seed: an int, a sequence of ints (one per row) or None, got {type(seed).__name__}")
        self._seed = seed
        self._words = np.zeros((0, rng.WORDS), dtype=np.uint64)

    def _row_seed(self, row: int) -> int | None:
        if self._seed is None:
            return None
        if isinstance(self._seed, Sequence):
            if row >= len(self._seed):
                raise ValueError(f"seed: {len(self._seed)} seeds given, but row {row} is asked for")
            return int(self._seed[row])
        return int(self._seed) + row

    def _generators(self, num_envs: int) -> np.ndarray:
        """The rows' generators, made on first use (an env with more rows than before gets the new ones).

        Seeds in ``[0, 2**64)`` are seeded all at once by ``seeding.words_of_keys`` (``default_rng(k)`` is
        ``default_rng([k])``): the self-play league reseeds its members at every rollout, and 4,096 rows seeded
        one by one took about a twentieth of a Heifer training iteration."""
        have = self._words.shape[0]
        if have < num_envs:
            seeds = [self._row_seed(r) for r in range(have, num_envs)]
            if None not in seeds and min(seeds) >= 0 and max(seeds) <= seeding.MAX_KEY:
                new = seeding.words_of_keys(np.array(seeds, dtype=np.uint64))
            else:  # fresh entropy, or seeds numpy takes beyond one 64-bit key (it refuses negative ones itself)
                new = np.array([rng.words_from_seed(s) for s in seeds], dtype=np.uint64).reshape(-1, rng.WORDS)
            self._words = np.concatenate([self._words, new])
        return self._words

    def act(self, env: BatchedEnv, rows: np.ndarray) -> np.ndarray:
        if not isinstance(env.kernel, HeiferKernel):
            raise TypeError(f"EquityOpponent plays Breed the Heifer; this env plays {env.name}")
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        words = self._generators(env.num_envs)
        out = np.empty(rows.shape[0], dtype=np.int64)
        self.last_equity = np.empty(rows.shape[0], dtype=np.float64)
        scratch = Scratch(rows.shape[0], env.num_players).arrays()
        loop = decide_rows_parallel if env.parallel and rows.shape[0] >= PARALLEL_MIN_ROWS else decide_rows
        self.last_simulations = np.empty(rows.shape[0], dtype=np.int64)
        loop(env.state, env.kernel.params, words, rows, *scratch, self.sampler == "fast", self.simulations,
             self.stop_z, self.factors, out, self.last_equity, self.last_simulations)  # fmt: skip
        return out


class CallingStationOpponent:
    """``CallingStationAgent`` for every row at once: check where it can, else call.

    A league member for training at the round-robin's tables, where the calling
    station is one of the agents a policy meets (it loses chips to value bets and
    never to bluffs). Betting always offers a check or a call
    (``engine.betting``), so the scalar agent's random fallback never decides;
    it is kept, drawn by a ``RandomOpponent``, for a row where neither is legal.
    """

    name = "calling_station"

    def __init__(self, seed: int | None = None):
        self._fallback = RandomOpponent(seed)

    def seed(self, seed: int | None) -> None:
        self._fallback.seed(seed)

    def act(self, env: BatchedEnv, rows: np.ndarray) -> np.ndarray:
        if not isinstance(env.kernel, HeiferKernel):
            raise TypeError(f"CallingStationOpponent plays Breed the Heifer; this env plays {env.name}")
        rows = np.asarray(rows, dtype=np.int64)
        mask = env.mask[rows]
        out = np.where(mask[:, CHECK], CHECK, CALL).astype(np.int64)
        neither = ~(mask[:, CHECK] | mask[:, CALL])
        if neither.any():
            out[neither] = self._fallback.act(env, rows[neither])
        return out


class HeiferPimcOpponent(PimcOpponent):
    """The scalar ``pimc`` of Breed the Heifer (its ``SEARCH_DEFAULTS``: 90 playouts a decision, the cheaper
    equity bettor rolling out, paired) for every row at once (``agents/batched/search.py``)."""

    DEFAULTS = SEARCH_DEFAULTS["pimc"]
    # the scalar pimc's decisions first (checked against it), then the default fast playouts
    benchmark_variants = ({"sampler": "scalar"}, {})


# the ports this module lists for ``pokerzoo.agents.batched.batched_agents``
AGENTS = (EquityOpponent, CallingStationOpponent, HeiferPimcOpponent)
