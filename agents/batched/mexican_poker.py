"""The Mexican poker heuristic (``agents.mexican_poker.MexicanHeuristicAgent``) as a batched opponent.

``HeuristicOpponent(seed, samples).act(env, rows)`` decides the waiting
decision of every row of a batched Mexican poker env in compiled code: its
predictions and doubts from ``samples`` sampled strongest-first play-outs,
its plays aimed at its prediction, rule for rule the scalar agent's (see that
module's docstring), over the env's state arrays, reading only what the
acting seat may know (its hand, the board, the revealed predictions, doubts,
tricks, hand counts and the current trick).

**The same decisions from the same random stream.** The scalar agent draws
one ``rng.permutation(unseen)`` per sample from its ``np.random.Generator``;
here row r's seat s has its own generator, ``np.random.default_rng([seed,
r, s])`` (the PCG64 of ``pokerzoo.envs.batched.rng``, draw for draw), so a
scalar ``MexicanHeuristicAgent`` per (row, seat) whose ``rng`` is that
generator makes exactly the decisions this opponent makes
(``tests/agents/test_batched_mexican.py`` checks every decision of
heuristic self-play and of mixed play against it). The generators run on
across the row's games, as one scalar agent per seat does in an env it keeps
playing; ``seed(s)`` restarts them all. ``seed=None`` draws fresh entropy.

**A fast sampler.** ``sampler="fast"`` deals each sample differently: only
the opponents' ``(n - 1) * h`` cards, the first positions of a partial
Fisher–Yates shuffle of the unseen cards (one ``integers`` draw a card,
the generator held in registers), where the scalar agent shuffles all of
them. A uniformly random ordered deal either way, so every play-out, every
Monte Carlo estimate and every prediction and doubt has the same
distribution; the test compares the decision distributions with the scalar
sampler's on many states. Plays draw nothing and are the same.

**Ties as the scalar agent breaks them.** The scalar agent chooses with
``max``/``min`` over ``combos.legal_plays``, a list built from a Python
``set`` of slot bitmasks, so among equal combinations (two single sevens of
different suits) it takes the first in that set's iteration order. That
order is CPython's (3.11+: open addressing with linear probes of 9, perturbed
probing, the table growing x4 when 3/5 full), which ``set_order`` replays
exactly on the same list of bitmasks in the same insertion order
(``batched_combos.legal_combos`` emits ``combos.legal_bits``'s order). The
tests compare it with ``list(set(...))`` itself, so a Python whose sets
iterate differently fails loudly rather than drifting.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from pokerzoo.agents.mexican_poker import MexicanHeuristicAgent
from pokerzoo.envs.batched import rng, seeding
from pokerzoo.envs.batched.compile import kernel
from pokerzoo.envs.batched.core import CHUNK, PARALLEL_MIN_ROWS, BatchedEnv
from pokerzoo.envs.engine.hands.exact import (
    ACE,
    FIVE_OF_A_KIND,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
)
from pokerzoo.envs.engine.hands.value import TIEBREAK_BITS
from pokerzoo.envs.mexican_poker.actions import DOUBT_BASE, MAX_PREDICTION, PASS
from pokerzoo.envs.mexican_poker.batched_combos import MAX_COMBOS, WINDOWS, WORK, legal_combos, pack1, pack2
from pokerzoo.envs.mexican_poker.kernel import DOUBT, PREDICT, SEATS, MexicanKernel, prediction_line

SAMPLERS = ("scalar", "fast")
SET_TABLE = 2048  # CPython's largest table for MAX_COMBOS keys (resized to > 4 x used when 3/5 full)
_SINGLE_LIMIT = 0x80  # slot bitmasks below this hold hand slots only
DEFAULT_SAMPLES = 16
WINDOW_BITS = np.array([sum(1 << int(r) for r in w) for w in WINDOWS], dtype=np.int64)
HIGHEST = np.array([max(0, m.bit_length() - 1) for m in range(1 << 13)], dtype=np.int64)  # top bit of a rank mask
WINDOW_TOP = np.array([3 if w[0] == ACE and w[1] == 3 else w[0] for w in WINDOWS], dtype=np.int64)


class Scratch(NamedTuple):
    """Working space per chunk of rows (rows of one chunk are decided one after another)."""

    work: np.ndarray  # int64[C, WORK]: the combination generator's
    combos: np.ndarray  # int64[C, MAX_COMBOS, 2]: its output
    order: np.ndarray  # int64[C, MAX_COMBOS]: indices into combos in the set's iteration order
    where: np.ndarray  # int64[C, 4096]: index into combos of each slot bitmask
    table: np.ndarray  # int64[C, 2, SET_TABLE]: the set's hash table (and the one it grows into)
    cur: np.ndarray  # int64[C, 7]: the hand being split into combinations
    hr: np.ndarray  # int64[C, 13]: its cards per rank
    hsm: np.ndarray  # int64[C, 5]: its 13-bit rank mask per suit
    br: np.ndarray  # int64[C, 13]: the board's cards per rank
    bsm: np.ndarray  # int64[C, 5]: the board's rank mask per suit
    hmask: np.ndarray  # int64[C, 6]: entry k: the ranks of which the hand holds k cards or more
    bmask: np.ndarray  # int64[C, 6]: the same for the board
    known: np.ndarray  # int8[C, 65]: cards the seat sees (own hand, board)
    unseen: np.ndarray  # int64[C, 65]
    deal: np.ndarray  # int64[C, 65]: one sampled deal of the unseen cards
    plans: np.ndarray  # int64[C, 7, 7]: keys of each seat's strongest-first split
    plan_n: np.ndarray  # int64[C, 7]
    pos: np.ndarray  # int64[C, 7]: play-out position in each plan
    tricks: np.ndarray  # int64[C, 7]: play-out tricks
    sims: np.ndarray  # int64[C, samples, 7]: tricks per sample and seat
    totals: np.ndarray  # int64[C, samples]: tricks of the round per sample


def new_scratch(chunks: int, samples: int) -> Scratch:
    def ints(*shape: int, dtype=np.int64) -> np.ndarray:
        return np.zeros((chunks, *shape), dtype=dtype)

    return Scratch(
        work=ints(WORK),
        combos=ints(MAX_COMBOS, 2),
        order=ints(MAX_COMBOS),
        where=ints(4096),
        table=ints(2, SET_TABLE),
        cur=ints(SEATS),
        hr=ints(13),
        hsm=ints(5),
        br=ints(13),
        bsm=ints(5),
        hmask=ints(6),
        bmask=ints(6),
        known=ints(65, dtype=np.int8),
        unseen=ints(65),
        deal=ints(65),
        plans=ints(SEATS, SEATS),
        plan_n=ints(SEATS),
        pos=ints(SEATS),
        tricks=ints(SEATS),
        sims=ints(samples, SEATS),
        totals=ints(samples),
    )


# ---------------------------------------------------------------- CPython's set order
@kernel
def _insert_clean(table, mask, x):
    """``set_insert_clean``: ``x`` into the first free slot of its probe sequence."""
    i = x & mask
    perturb = x
    while True:
        if table[i] == 0:
            table[i] = x
            return
        if i + 9 <= mask:
            for j in range(i + 1, i + 10):
                if table[j] == 0:
                    table[j] = x
                    return
        perturb >>= 5
        i = (i * 5 + 1 + perturb) & mask


@kernel
def set_order(combos, count, table, where, order):
    """``order[:m]``: indices into ``combos[:count]`` in the iteration order of ``set(combos[:count, 0])``.

    Replays CPython's ``set_add_entry`` (linear probes of 9, then perturbed
    probing; a key found is not added again) and ``set_table_resize`` (to the
    smallest power of two above 4 x used, once fill x 5 >= mask x 3, the old
    table re-inserted slot by slot) on the positive small ints (their own
    hashes); iteration runs over the final table's slots. Returns m, the
    number of distinct bitmasks.
    """
    cur = 0
    mask = 7
    for s in range(8):
        table[0, s] = 0
    fill = 0
    for k in range(count):
        x = combos[k, 0]
        where[x] = k
        i = x & mask
        perturb = x
        inserted = False
        while True:
            probes = 9 if i + 9 <= mask else 0
            found = False
            for j in range(i, i + probes + 1):
                e = table[cur, j]
                if e == 0:
                    table[cur, j] = x
                    inserted = True
                    break
                if e == x:
                    found = True
                    break
            if inserted or found:
                break
            perturb >>= 5
            i = (i * 5 + 1 + perturb) & mask
        if inserted:
            fill += 1
            if fill * 5 >= mask * 3:
                size = 8
                while size <= fill * 4:
                    size <<= 1
                nxt = 1 - cur
                for s in range(size):
                    table[nxt, s] = 0
                for s in range(mask + 1):
                    y = table[cur, s]
                    if y != 0:
                        _insert_clean(table[nxt], size - 1, y)
                cur = nxt
                mask = size - 1
    m = 0
    for s in range(mask + 1):
        y = table[cur, s]
        if y != 0:
            order[m] = where[y]
            m += 1
    return m


# ---------------------------------------------------------------- the strongest-first model
@kernel(inline=True)
def hand_cards(bits):
    """Number of hand slots (bits 0..6) in a slot bitmask (``_hand_cards``)."""
    x = bits & 0x7F
    x = x - ((x >> 1) & 0x55)
    x = (x & 0x33) + ((x >> 2) & 0x33)
    return (x + (x >> 4)) & 0x0F


# The fast path: the strongest combination straight from rank counts and suit masks. Ranks r, suits s;
# ``hr``/``br``: hand / board cards per rank; ``hsm``/``bsm``: 13-bit rank masks of the hand / board per suit.
@kernel(inline=True)
def popcount(mask):
    """Set bits of a mask below 2**16 (no multiply: a signed overflow would be undefined behaviour in LLVM)."""
    x = mask - ((mask >> 1) & 0x5555)
    x = (x & 0x3333) + ((x >> 2) & 0x3333)
    x = (x + (x >> 4)) & 0x0F0F
    return (x + (x >> 8)) & 0x1F


@kernel(inline=True)
def _choose(n, k):
    """C(n, k) for 0 <= n <= 5."""
    if k < 0 or k > n:
        return 0
    if k == 0 or k == n:
        return 1
    if k == 1 or k == n - 1:
        return n
    return 10 if n == 5 else 6  # C(5, 2) = C(5, 3), C(4, 2)


@kernel(inline=True)
def _kind_count(h, b, size):
    """(fewest hand cards, number of such sets) of ``size`` cards of one rank with h in hand, b on the board."""
    hc = max(1, size - b)
    return hc, _choose(h, hc) * _choose(b, size - hc)


@kernel(inline=True)
def _two_ranks(h1, b1, n1, h2, b2, n2):
    """Sets of n1 cards of one rank and n2 of another, at least one from the hand: (fewest hand cards, how many
    such sets, hand cards taken of the first rank (-1: all, 0: none), of the second)."""
    m1 = max(0, n1 - b1)
    m2 = max(0, n2 - b2)
    if m1 + m2 >= 1:
        count = _choose(h1, m1) * _choose(b1, n1 - m1) * _choose(h2, m2) * _choose(b2, n2 - m2)
        return m1 + m2, count, -1 if m1 > 0 else 0, -1 if m2 > 0 else 0
    first = h1 * _choose(b1, n1 - 1) * _choose(b2, n2)  # one hand card, of the first rank
    second = _choose(b1, n1) * h2 * _choose(b2, n2 - 1)
    return 1, first + second, -1 if first else 0, -1 if not first else 0


@kernel(inline=True)
def _top_ranks(mask, k):
    """The k highest set bits of a 13-bit mask."""
    out = 0
    for r in range(12, -1, -1):
        if k == 0:
            break
        if (mask >> r) & 1:
            out |= 1 << r
            k -= 1
    return out


@kernel(inline=True)
def _flush_key(ranks):
    a = b = c = d = e = -1
    for r in range(12, -1, -1):
        if (ranks >> r) & 1:
            if a < 0:
                a = r
            elif b < 0:
                b = r
            elif c < 0:
                c = r
            elif d < 0:
                d = r
            else:
                e = r
    return (np.int64(FLUSH) << np.int64(TIEBREAK_BITS)) | (
        ((a + 1) << 24) | ((b + 1) << 20) | ((c + 1) << 16) | ((d + 1) << 12) | ((e + 1) << 8)
    )


@kernel(inline=True)
def _straight_flush(hsm, bsm, suits, wbits):
    """Among ``suits``, those holding all of ``wbits`` with one own card: (fewest own cards: its suit, ties)."""
    best_hc = 99
    ties = 0
    suit = -1
    for s in range(5):
        if (suits >> s) & 1 and (hsm[s] | bsm[s]) & wbits == wbits and hsm[s] & wbits:
            hc = popcount(hsm[s] & wbits)
            if hc < best_hc:
                best_hc, ties, suit = hc, 1, s
            elif hc == best_hc:
                ties += 1
    return suit, ties > 1


@kernel(inline=True)
def fast_strongest(hr, hsm, br, bsm, hmask, bmask):
    """The strongest legal combination (highest key, then fewest own cards) without listing them all.

    Returns ``(key, tied, suit, ranks)``: ``tied`` when two different sets share that key and own-card count
    (the scalar agent then takes the first in its set's order: the caller falls back to ``_select``);
    otherwise the hand cards the set takes: those of rank in the 13-bit mask ``ranks`` (of suit ``suit``, or of
    any suit when ``suit`` is -1; a rank's hand cards are then all taken). Categories are tried strongest first,
    over masks of the ranks with at least k cards (``m1``..``m5``, from the hand's and the board's: ``hmask[k]``
    holds the ranks of which the hand has at least k cards, ``bmask[k]`` the board's) and with an own card (``hm``).
    """
    h1, h2, h3, h4, h5 = hmask[1], hmask[2], hmask[3], hmask[4], hmask[5]
    b1, b2, b3, b4, b5 = bmask[1], bmask[2], bmask[3], bmask[4], bmask[5]
    hm = h1
    m1 = h1 | b1
    m2 = h2 | b2 | (h1 & b1)
    m3 = h3 | b3 | (h2 & b1) | (h1 & b2)
    m4 = h4 | b4 | (h3 & b1) | (h2 & b2) | (h1 & b3)
    m5 = h5 | b5 | (h4 & b1) | (h3 & b2) | (h2 & b3) | (h1 & b4)
    flush_suits = 0  # suits with five cards or more, one of them own
    for s in range(5):
        if hsm[s] and popcount(hsm[s] | bsm[s]) >= 5:
            flush_suits |= 1 << s
    if flush_suits:
        suit, tied = _straight_flush(hsm, bsm, flush_suits, WINDOW_BITS[0])
        if suit >= 0:
            return pack1(ROYAL_FLUSH, ACE), tied, suit, WINDOW_BITS[0]
    if m5 & hm:
        r = HIGHEST[m5 & hm]
        return pack1(FIVE_OF_A_KIND, r), False, -1, np.int64(1) << r
    if flush_suits:
        for w in range(1, WINDOWS.shape[0]):
            suit, tied = _straight_flush(hsm, bsm, flush_suits, WINDOW_BITS[w])
            if suit >= 0:
                return pack1(STRAIGHT_FLUSH, WINDOW_TOP[w]), tied, suit, WINDOW_BITS[w]
    if m4 & hm:
        r = HIGHEST[m4 & hm]
        hc, count = _kind_count(hr[r], br[r], 4)
        return pack1(QUADS, r), count > 1, -1, np.int64(1) << r
    threes = m3
    while threes:
        t = HIGHEST[threes]
        threes &= ~(1 << t)
        pairs = m2 & ~(1 << t)
        if hr[t] == 0:
            pairs &= hm  # the own card must come with the pair
        if pairs:
            p = HIGHEST[pairs]
            hc, count, take_t, take_p = _two_ranks(hr[t], br[t], 3, hr[p], br[p], 2)
            ranks = (np.int64(1) << t if take_t else 0) | (np.int64(1) << p if take_p else 0)
            return pack2(FULL_HOUSE, t, p), count > 1, -1, ranks
    if flush_suits:
        best_key = np.int64(-1)
        best_hc = 99
        ties = 0
        suit = -1
        best_ranks = 0
        for s in range(5):
            if not (flush_suits >> s) & 1:
                continue
            cards = hsm[s] | bsm[s]
            ranks = _top_ranks(cards, 5)
            if ranks & hsm[s] == 0:  # the top four and the highest own card
                ranks = _top_ranks(cards, 4) | (1 << HIGHEST[hsm[s]])
            key = _flush_key(ranks)
            hc = popcount(ranks & hsm[s])
            if key > best_key or (key == best_key and hc < best_hc):
                best_key, best_hc, ties, suit, best_ranks = key, hc, 1, s, ranks
            elif key == best_key and hc == best_hc:
                ties += 1
        return best_key, ties > 1, suit, best_ranks
    if popcount(m1) >= 5:
        for w in range(WINDOWS.shape[0]):
            wbits = WINDOW_BITS[w]
            if m1 & wbits == wbits and hm & wbits:
                count, take = _straight_count(hr, br, w)
                return pack1(STRAIGHT, WINDOW_TOP[w]), count > 1, -1, take
    if m3 & hm:
        r = HIGHEST[m3 & hm]
        hc, count = _kind_count(hr[r], br[r], 3)
        return pack1(TRIPS, r), count > 1, -1, np.int64(1) << r
    highs = m2
    while highs:
        hi = HIGHEST[highs]
        highs &= ~(1 << hi)
        lows = m2 & ((1 << hi) - 1)
        if hr[hi] == 0:
            lows &= hm
        if lows:
            lo = HIGHEST[lows]
            hc, count, take_hi, take_lo = _two_ranks(hr[hi], br[hi], 2, hr[lo], br[lo], 2)
            ranks = (np.int64(1) << hi if take_hi else 0) | (np.int64(1) << lo if take_lo else 0)
            return pack2(TWO_PAIR, hi, lo), count > 1, -1, ranks
    if m2 & hm:
        r = HIGHEST[m2 & hm]
        hc, count = _kind_count(hr[r], br[r], 2)
        return pack1(PAIR, r), count > 1, -1, np.int64(1) << r
    r = HIGHEST[hm]
    return pack1(HIGH_CARD, r), hr[r] > 1, -1, np.int64(1) << r


@kernel(inline=True)
def _straight_count(hr, br, w):
    """Straights of window w with the fewest own cards: (how many, the ranks whose own cards they take)."""
    need = 0  # window ranks with no board card: the hand must give them
    count = 1
    take = 0
    for x in range(5):
        r = WINDOWS[w, x]
        if br[r] == 0:
            need += 1
            count *= hr[r]
            take |= np.int64(1) << r
        else:
            count *= br[r]
    if need:
        return count, take
    count = 0  # every rank on the board: one own card, of any window rank
    for x in range(5):
        r = WINDOWS[w, x]
        if hr[r]:
            ways = hr[r]
            for y in range(5):
                if y != x:
                    ways *= br[WINDOWS[w, y]]
            count += ways
            take = np.int64(1) << r
    return count, take


@kernel
def board_stats(sc, c, board, bn):
    """The board's cards per rank and rank masks per suit, for ``fast_strongest``."""
    for r in range(13):
        sc.br[c, r] = 0
    for s in range(5):
        sc.bsm[c, s] = 0
    for k in range(bn):
        sc.br[c, board[k] % 13] += 1
        sc.bsm[c, board[k] // 13] |= 1 << (board[k] % 13)
    _count_masks(board, 0, bn, sc.bmask[c])


@kernel(inline=True)
def _count_masks(cards, at, n, masks):
    """``masks[k]``: the ranks of which ``cards[at:at + n]`` hold at least k cards (k = 1..5)."""
    for k in range(6):
        masks[k] = 0
    for x in range(at, at + n):
        bit = 1 << (cards[x] % 13)
        k = 1
        while masks[k] & bit:
            k += 1
        masks[k] |= bit


@kernel
def strongest_first(sc, c, hand, hn, board, bn, plan):
    """``strongest_first(hand[:hn], board)``: the keys of the greedy split into ``plan``; returns their count.

    ``board_stats(sc, c, board, bn)`` must have run for this board. Callers pass a deal's part as a slice, not
    with an offset: a constant offset 0 would be typed as a literal and compile this function twice. Once the
    strongest is a lone high card, the rest of the split is the cards left, highest first, written out
    without searching again (most of a hand's split, and most of a sampled play-out's time before).
    """
    cur = sc.cur[c]
    hr = sc.hr[c]
    hsm = sc.hsm[c]
    for r in range(13):
        hr[r] = 0
    for s in range(5):
        hsm[s] = 0
    for k in range(hn):
        card = hand[k]
        cur[k] = card
        hr[card % 13] += 1
        hsm[card // 13] |= 1 << (card % 13)
    length = 0
    while hn > 0:
        _count_masks(cur, 0, hn, sc.hmask[c])
        key, tied, suit, ranks = fast_strongest(hr, hsm, sc.br[c], sc.bsm[c], sc.hmask[c], sc.bmask[c])
        kept = 0
        if not tied:
            for slot in range(hn):
                card = cur[slot]
                if (ranks >> (card % 13)) & 1 and (suit < 0 or card // 13 == suit):
                    hr[card % 13] -= 1
                    hsm[card // 13] &= ~(1 << (card % 13))
                else:
                    cur[kept] = card
                    kept += 1
        else:  # equal sets: the first of the scalar's set order
            count = legal_combos(cur, hn, board, bn, sc.work[c], sc.combos[c])
            k = _select(sc.combos[c], count, np.int64(STRONGEST), np.int64(-1), sc, c)
            key = sc.combos[c, k, 1]
            bits = sc.combos[c, k, 0]
            for slot in range(hn):
                card = cur[slot]
                if (bits >> slot) & 1:
                    hr[card % 13] -= 1
                    hsm[card // 13] &= ~(1 << (card % 13))
                else:
                    cur[kept] = card
                    kept += 1
        plan[length] = key
        length += 1
        hn = kept
        if key >> TIEBREAK_BITS == HIGH_CARD:
            # The best was a lone card: no own card pairs (with the hand or the board), no straight or flush has
            # one, and removing cards makes none, so the rest of the split is the cards left, highest first.
            for r in range(12, -1, -1):
                for _ in range(hr[r]):
                    plan[length] = pack1(HIGH_CARD, r)
                    length += 1
            return length
    return length


@kernel
def play_out(plans, plan_n, n, leader, pos, tricks):
    """``play_out``: tricks per seat when every seat plays its plan in order (the round's trick rules)."""
    for s in range(n):
        pos[s] = 0
        tricks[s] = 0
    while True:
        best_seat = -1
        best_key = -1
        for x in range(n):
            s = (leader + x) % n
            if pos[s] < plan_n[s]:
                key = plans[s, pos[s]]
                pos[s] += 1
                if key > best_key:
                    best_seat, best_key = s, key
        if best_seat < 0:
            return
        tricks[best_seat] += 1
        leader = best_seat
        for x in range(n):
            t = (best_seat + x) % n
            if pos[t] < plan_n[t]:
                leader = t
                break


@kernel
def simulate(state, params, i, me, words, g, samples, fast, sc, c):
    """``simulate``: ``sc.sims[c, :samples, :n]``, tricks per seat in play-outs of sampled deals.

    The scalar sampler deals each sample as ``rng.permutation(unseen)`` does
    (a whole shuffle of the unseen cards, numpy's draws); the fast one
    (``fast``) deals only the opponents' cards, positions ``0 .. (n - 1) * h - 1``
    of a partial Fisher–Yates shuffle (position x swapped with
    ``x + integers(u - x)``): the same distribution of deals, from
    ``(n - 1) * h`` draws instead of ``u - 1``.
    """
    n = params.num_players
    b = state.board_size[i]
    h = 8 - b
    board = state.board[i]
    known = sc.known[c]
    known[:] = 0
    for k in range(state.hand_n[i, me]):
        known[state.hands[i, me, k]] = 1
    for k in range(b):
        known[board[k]] = 1
    unseen = sc.unseen[c]
    u = 0
    for card in range(65):
        if not known[card]:
            unseen[u] = card
            u += 1
    board_stats(sc, c, board, b)
    plans = sc.plans[c]
    plan_n = sc.plan_n[c]
    plan_n[me] = strongest_first(sc, c, state.hands[i, me], state.hand_n[i, me], board, b, plans[me])
    deal = sc.deal[c]
    dealt = (n - 1) * h
    for x in range(u):
        deal[x] = unseen[x]
    for k in range(samples):
        if fast:
            rng.store(words, g, rng.partial_shuffle(rng.load(words, g), deal, u, 0, dealt))
        else:
            for x in range(u):
                deal[x] = unseen[x]
            rng.shuffle_in_place(words, g, deal, u)
        at = 0
        for s in range(n):
            if s != me:
                plan_n[s] = strongest_first(sc, c, deal[at : at + h], h, board, b, plans[s])
                at += h
        play_out(plans, plan_n, n, state.token[i], sc.pos[c], sc.tricks[c])
        for s in range(n):
            sc.sims[c, k, s] = sc.tricks[c, s]


# ---------------------------------------------------------------- decisions
@kernel
def predict(state, params, i, me, words, g, samples, fast, sc, c):
    """``predict``: the prediction 0..6 with the best mean prediction-line score over the play-outs."""
    simulate(state, params, i, me, words, g, samples, fast, sc, c)
    n = params.num_players
    totals = sc.totals[c]
    for k in range(samples):
        totals[k] = 0
        for s in range(n):
            totals[k] += sc.sims[c, k, s]
    best_p = 0
    best_score = -np.inf
    for p in range(MAX_PREDICTION + 1):
        points = 0
        for k in range(samples):
            points += prediction_line(p, sc.sims[c, k, me], totals[k])
        score = points / samples  # np.mean of the integer lines: their exact sum over the count
        if score > best_score + 1e-9:
            best_p, best_score = p, score
    return best_p


@kernel
def doubt(state, params, i, me, words, g, samples, fast, sc, c):
    """``doubt``: the opponent likeliest to miss (nearest clockwise on ties); pass, where allowed, below 1/2."""
    simulate(state, params, i, me, words, g, samples, fast, sc, c)
    n = params.num_players
    target = -1
    best_chance = 0.0
    best_rel = 0
    for s in range(n):
        if s == me:
            continue
        misses = 0
        for k in range(samples):
            misses += sc.sims[c, k, s] != state.predictions[i, s]
        chance = misses / samples
        rel = (s - me) % n
        if target < 0 or chance > best_chance or (chance == best_chance and rel < best_rel):
            target, best_chance, best_rel = s, chance, rel
    if params.doubt_pass and best_chance <= 0.5:
        return PASS
    return DOUBT_BASE + best_rel


# What ``play`` chooses among the legal combinations (the scalar's ``max``/``min`` calls), by mode. Callers pass
# modes as np.int64: a bare constant is typed as a literal, and each mode would compile its own copy of _select.
STRONGEST, CHEAPEST_WINNER, LOWEST_SINGLE, BIGGEST_LOSER, HIGHEST_LOSING_SINGLE = range(5)


@kernel(inline=True)
def _eligible(mode, bits, key, best_key):
    single = bits < _SINGLE_LIMIT and hand_cards(bits) == 1  # one own card, no board card
    if mode == CHEAPEST_WINNER:
        return key > best_key
    if mode == BIGGEST_LOSER:
        return key <= best_key  # equal keys lose: the earlier play wins ties
    if mode == LOWEST_SINGLE:
        return single
    if mode == HIGHEST_LOSING_SINGLE:
        return single and key <= best_key
    return True


@kernel(inline=True)
def _compare(mode, bits, key, other_bits, other_key):
    """1 if (bits, key) is strictly better than the other for ``mode``, 0 if equal, -1 if worse."""
    hc = hand_cards(bits)
    other_hc = hand_cards(other_bits)
    if mode == STRONGEST:  # max by (key, -hand cards)
        a, b, x, y = key, -hc, other_key, -other_hc
    elif mode == CHEAPEST_WINNER:  # min by (hand cards, key)
        a, b, x, y = -hc, -key, -other_hc, -other_key
    elif mode == BIGGEST_LOSER:  # max by (hand cards, key)
        a, b, x, y = hc, key, other_hc, other_key
    elif mode == LOWEST_SINGLE:  # min by key
        a, b, x, y = -key, 0, -other_key, 0
    else:  # HIGHEST_LOSING_SINGLE: max by key
        a, b, x, y = key, 0, other_key, 0
    if a != x:
        return 1 if a > x else -1
    if b != y:
        return 1 if b > y else -1
    return 0


@kernel
def _select(combos, count, mode, best_key, sc, c):
    """Index of the combination the scalar's ``max``/``min`` returns for ``mode`` (its first best in set order),
    or -1 when none is eligible. Scans in generation order; replays the set's order only on a real tie."""
    chosen = -1
    tied = False
    for k in range(count):
        if not _eligible(mode, combos[k, 0], combos[k, 1], best_key):
            continue
        if chosen < 0:
            chosen = k
            continue
        better = _compare(mode, combos[k, 0], combos[k, 1], combos[chosen, 0], combos[chosen, 1])
        if better > 0:
            chosen, tied = k, False
        elif better == 0 and combos[k, 0] != combos[chosen, 0]:
            tied = True
    if not tied:
        return chosen
    m = set_order(combos, count, sc.table[c], sc.where[c], sc.order[c])
    chosen = -1
    for t in range(m):
        k = sc.order[c, t]
        if _eligible(mode, combos[k, 0], combos[k, 1], best_key) and (
            chosen < 0 or _compare(mode, combos[k, 0], combos[k, 1], combos[chosen, 0], combos[chosen, 1]) > 0
        ):
            chosen = k
    return chosen


@kernel
def play(state, params, i, me, sc, c):
    """``play``: win cheaply while short of the prediction, shed losers once it has enough."""
    n = params.num_players
    combos = sc.combos[c]
    count = legal_combos(
        state.hands[i, me], state.hand_n[i, me], state.board[i], state.board_size[i], sc.work[c], combos
    )
    best_key = -1
    for t in range(state.trick_n[i]):
        best_key = max(best_key, state.trick_key[i, t])
    if state.tricks[i, me] < state.predictions[i, me]:
        if best_key < 0:  # first to play: the strongest combination
            chosen = _select(combos, count, np.int64(STRONGEST), best_key, sc, c)
        else:  # the cheapest winner, else the lowest single
            chosen = _select(combos, count, np.int64(CHEAPEST_WINNER), best_key, sc, c)
            if chosen < 0:
                chosen = _select(combos, count, np.int64(LOWEST_SINGLE), best_key, sc, c)
        return params.combo_action[combos[chosen, 0]]
    others = 0
    for s in range(n):
        if s != me:
            others = max(others, state.hand_n[i, s])
    chosen = -1
    if state.hand_n[i, me] > others:  # the losing combination using the most own cards, the highest
        chosen = _select(combos, count, np.int64(BIGGEST_LOSER), best_key, sc, c)
    if chosen < 0:  # the highest losing single, else the lowest single
        chosen = _select(combos, count, np.int64(HIGHEST_LOSING_SINGLE), best_key, sc, c)
        if chosen < 0:
            chosen = _select(combos, count, np.int64(LOWEST_SINGLE), best_key, sc, c)
    return params.combo_action[combos[chosen, 0]]


@kernel
def decide(state, params, i, words, samples, fast, sc, c):
    me = state.turn[i]
    g = i * SEATS + me  # the (row, seat) generator
    phase = state.phase[i]
    if phase == PREDICT:
        return predict(state, params, i, me, words, g, samples, fast, sc, c)
    if phase == DOUBT:
        return doubt(state, params, i, me, words, g, samples, fast, sc, c)
    return play(state, params, i, me, sc, c)


@kernel
def decide_rows(state, params, rows, words, samples, fast, sc, c, out):
    for k in range(rows.shape[0]):
        out[k] = decide(state, params, rows[k], words, samples, fast, sc, c)


@kernel(parallel=True)
def decide_rows_parallel(state, params, rows, words, samples, fast, sc, out):
    for chunk in numba.prange((rows.shape[0] + CHUNK - 1) // CHUNK):
        # prange's index is unsigned: as int64 the serial loop's compiled code is reused (as uint64 the
        # whole decision tree compiled a second time, 80 s of CPU)
        c = np.int64(chunk)
        lo = c * CHUNK
        hi = min(rows.shape[0], lo + CHUNK)
        decide_rows(state, params, rows[lo:hi], words, samples, fast, sc, c, out[lo:hi])


# ---------------------------------------------------------------- the opponent
def row_generator(seed: int, row: int, seat: int) -> np.random.Generator:
    """The generator the heuristic of ``seat`` in row ``row`` draws from (the scalar agent's ``rng``)."""
    return np.random.default_rng([seed, row, seat])


class HeuristicOpponent:
    """``MexicanHeuristicAgent`` for every row of a batched Mexican poker env at once (module docstring).

    ``samples``: play-outs per prediction and per doubt, as the scalar agent's
    parameter; ``sampler``: ``"scalar"`` (the scalar agent's draws) or
    ``"fast"`` (the same distribution of deals from fewer draws). The rows are
    decided on all of numba's threads when the env runs in parallel and at
    least ``PARALLEL_MIN_ROWS`` rows are asked for.
    """

    name = "heuristic"  # the scalar agent it ports, in the agents registry
    scalar_agent = MexicanHeuristicAgent
    # what ``pokerzoo bench batched`` measures: both samplers (the first one's decisions are checked against the twins)
    benchmark_variants = ({"sampler": "scalar"}, {"sampler": "fast"})

    def __init__(self, seed: int | None = None, samples: int = DEFAULT_SAMPLES, sampler: str = "scalar"):
        if isinstance(samples, bool) or not isinstance(samples, int | np.integer) or samples < 1:
            raise ValueError(f"samples must be an int >= 1, got {samples!r}")
        if sampler not in SAMPLERS:
            raise ValueError(f"sampler={sampler!r}: expected one of {', '.join(SAMPLERS)}")
        self.samples = int(samples)
        self.sampler = sampler
        self._scratch: dict[int, Scratch] = {}
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        """Every (row, seat) generator restarts from ``default_rng([seed, row, seat])`` (fresh entropy for None)."""
        if seed is None:
            seed = int(np.random.SeedSequence().entropy)
        if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
            raise ValueError(f"seed must be an int >= 0 or None, got {seed!r}")
        self._seed = int(seed)
        self._words: np.ndarray | None = None

    def scalar_twin(self, row: int, seat: int) -> MexicanHeuristicAgent:
        """The scalar agent deciding as this one does for ``seat`` in ``row`` (with the ``"scalar"`` sampler): the
        same ``samples`` and a generator in the state of that (row, seat)'s own before its first decision."""
        agent = MexicanHeuristicAgent(samples=self.samples)
        agent.rng = row_generator(self._seed, row, seat)
        return agent

    def generators(self, num_envs: int) -> np.ndarray:
        """The words of every (row, seat) generator, row-major (``row * 7 + seat``); made on first use."""
        if self._words is None or self._words.shape[0] != num_envs * SEATS:
            self._words = seeding.row_seat_words(self._seed, num_envs, SEATS)  # row_generator's, all at once
        return self._words

    def _scratch_for(self, chunks: int) -> Scratch:
        if chunks not in self._scratch:
            self._scratch[chunks] = new_scratch(chunks, self.samples)
        return self._scratch[chunks]

    def act(self, env: BatchedEnv, rows: np.ndarray) -> np.ndarray:
        if not isinstance(env.kernel, MexicanKernel):
            raise TypeError(f"HeuristicOpponent plays Mexican poker; this env plays {env.name}")
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        out = np.empty(rows.shape[0], dtype=np.int64)
        words = self.generators(env.num_envs)
        fast = self.sampler == "fast"
        if env.parallel and rows.shape[0] >= PARALLEL_MIN_ROWS:
            sc = self._scratch_for((rows.shape[0] + CHUNK - 1) // CHUNK)
            decide_rows_parallel(env.state, env.kernel.params, rows, words, self.samples, fast, sc, out)
        else:
            decide_rows(env.state, env.kernel.params, rows, words, self.samples, fast, self._scratch_for(1), 0, out)
        return out


# the ports this module lists for ``pokerzoo.agents.batched.batched_agents``
AGENTS = (HeuristicOpponent,)
