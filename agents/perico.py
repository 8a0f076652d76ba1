"""Perico scripted agents: ``heuristic`` (``random`` comes from the registry).

The heuristic measures a hand by its *strength*: the fraction of random hands
of the same variant and deck it beats (ties half), read from a sorted table
of 40,000 sampled hand keys. Against k opponents holding random hands, the
chance of winning the showdown is about strength^k, so every decision below
maximises the expected strength^k (k = players − 1).

* Turn (draw or exchange): from the hand it builds candidate *keep sets* —
  the books (pairs and better) with the jokers, the longest flush draw, the
  best straight and straight-flush draws, the one or two highest cards, the
  jokers alone — and values each by Monte Carlo: the kept cards plus
  replacements drawn at random from the cards it cannot see (deck − own hand
  − discard pile). "Keep everything" is valued as drawing one card and
  discarding the worst of the six. If the best set keeps all but at most one
  card it draws (seeing the card before discarding is never worse than
  exchanging one blind), otherwise it exchanges the rest.
* Discard (after a draw): throws the card whose removal leaves the hand with
  the best value, a hand's value being the larger of its own strength^k and
  its best candidate's Monte Carlo value (what another turn could make of it).
* Knock: deals the unseen cards at random to the other players
  (``knock_samples`` times) and knocks when its hand beats all of them in at
  least ``knock_threshold`` of the deals (default 0.7; ties count as losses,
  since a tied round scores nothing).

All randomness comes from the agent's own generator, so a seeded agent is
reproducible. It reads only its ``PericoView``. By default the decision runs
compiled (``agents.batched.perico.ViewHeuristic``), making the Python rule's
draws and decision; ``compiled=False`` runs it in Python (the reference).

``pimc`` is the generic PIMC (``pokerzoo.agents.search``) searching, on a
turn, only the moves the heuristic considers: drawing, and exchanging the
cards outside each of its candidate keep sets (a handful instead of the 32
legal draws and exchanges); discards and knocks search every legal action.
``ismcts`` is the generic one. Both roll out with ``SEARCH_ROLLOUT``, a cheaper
heuristic (fewer Monte Carlo samples per decision: rollouts decide thousands
of times per search decision).

``pimc_batched`` is the same PIMC over the same candidates with its playouts in
the batched engine (``agents/search_batched.py``; worlds loaded into kernel
rows by ``envs/perico/kernel_state.py``): the full heuristic's compiled port
rolls out, and a decision affords some hundreds of worlds per candidate, which
a round won or lost (a 0/1 return) needs. ``heuristic+pimc_batched`` (the
heuristic knocks, the search draws and discards) is the one that beats the
heuristic (``docs/games/perico.md``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pokerzoo.agents import search
from pokerzoo.agents.base import Agent
from pokerzoo.agents.search_batched import BatchedPimcAgent
from pokerzoo.envs.engine.cards import DECKS
from pokerzoo.envs.perico import actions
from pokerzoo.envs.perico.actions import CONTINUE, DISCARD0, DRAW, KNOCK
from pokerzoo.envs.perico.game import PericoView
from pokerzoo.envs.perico.ranking import HandRanker, ranker_for, sort_hand

STRENGTH_SAMPLES = 40_000
ACE = 12

_TABLES: dict[tuple, np.ndarray] = {}


def strength_table(six_card: bool, deck: str, jokers_in_five_of_a_kind: bool = True) -> np.ndarray:
    """Sorted keys of random hands of one variant and deck (fixed seed: the same table every time)."""
    k = (bool(six_card), deck, bool(jokers_in_five_of_a_kind))
    table = _TABLES.get(k)
    if table is None:
        ranker = ranker_for(six_card, jokers_in_five_of_a_kind)
        cards = np.array(DECKS[deck].cards)
        h = ranker.hand_size
        rng = np.random.default_rng(20_050_101)
        hands = cards[np.argsort(rng.random((STRENGTH_SAMPLES, len(cards))), axis=1)[:, :h]]
        table = _TABLES[k] = np.sort(np.array([ranker.key(row) for row in hands.tolist()], dtype=np.int64))
    return table


class PericoHeuristicAgent(Agent):
    """Builds on the best partial hand, draws to improve it, knocks on a simulated winning chance.

    ``compiled`` (default true): the decision runs in the batched engine's
    compiled port (``agents.batched.perico.ViewHeuristic``), draw for draw and
    decision for decision the Python rule below, which ``compiled=False`` runs
    instead (the reference the tests compare with). Searches roll out with
    this agent, so it sets their speed.
    """

    name = "heuristic"

    def __init__(
        self,
        seed: int | None = None,
        knock_threshold: float = 0.7,
        knock_samples: int = 200,
        turn_samples: int = 24,
        discard_samples: int = 8,
        compiled: bool = True,
    ):
        super().__init__(seed)
        if not 0.0 <= knock_threshold <= 1.0:
            raise ValueError(f"knock_threshold must be in 0..1, got {knock_threshold}")
        for name, value in (
            ("knock_samples", knock_samples),
            ("turn_samples", turn_samples),
            ("discard_samples", discard_samples),
        ):
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
                raise ValueError(f"{name} must be an int >= 1, got {value!r}")
        if not isinstance(compiled, bool):
            raise ValueError(f"argument compiled={compiled!r}: expected true or false")
        self.knock_threshold = knock_threshold
        self.knock_samples = int(knock_samples)
        self.turn_samples = int(turn_samples)
        self.discard_samples = int(discard_samples)
        self.compiled = compiled

    # ------------------------------------------------------------------ decisions
    def act(self, view: PericoView, mask: np.ndarray, game=None) -> int:
        if self.compiled:
            # Deferred: the compiled module imports this one (the agent's rule and tables), and loads its kernels.
            from pokerzoo.agents.batched.perico import ViewHeuristic

            return ViewHeuristic.for_view(view).act(self, view)
        ctx = _Context(view, self.rng)
        if view.phase == "knock":
            return KNOCK if self.win_chance(view, ctx) >= self.knock_threshold else CONTINUE
        if view.phase == "discard":
            return DISCARD0 + self.choose_discard(view, ctx)
        keep = self.choose_keep(view, ctx)
        h = view.hand_size
        if len(keep) >= h - 1:
            return DRAW
        return actions.exchange_action(h, [i for i in range(h) if i not in keep])

    def win_chance(self, view: PericoView, ctx: _Context) -> float:
        """Share of random deals of the unseen cards to the others in which this hand wins outright."""
        h, others = view.hand_size, view.num_players - 1
        mine = ctx.ranker.key(view.hand)
        samples = self.knock_samples
        deals = ctx.sample(samples, others * h)
        key = ctx.ranker.key
        wins = 0
        for row in deals:
            if all(mine > key(row[j * h : (j + 1) * h]) for j in range(others)):
                wins += 1
        return wins / samples

    def choose_keep(self, view: PericoView, ctx: _Context) -> tuple[int, ...]:
        hand = list(view.hand)
        best, best_value = tuple(range(len(hand))), -1.0
        for keep in candidate_keeps(hand, view.hand_size):
            if len(keep) == len(hand):
                value = ctx.draw_one_value(hand, self.turn_samples)
            else:
                value = ctx.keep_value(hand, keep, self.turn_samples)
            if value > best_value + 1e-12:
                best, best_value = keep, value
        return best

    def choose_discard(self, view: PericoView, ctx: _Context) -> int:
        cards = [*view.hand, view.drawn]
        best, best_value = len(cards) - 1, -1.0
        for i in range(len(cards)):
            rest = sort_hand(cards[:i] + cards[i + 1 :])
            value = ctx.strength_power(ctx.ranker.key(rest))
            for keep in candidate_keeps(rest, view.hand_size):
                if len(keep) < len(rest):
                    value = max(value, ctx.keep_value(rest, keep, self.discard_samples))
            if value > best_value + 1e-12:
                best, best_value = i, value
        return best


class _Context:
    """What one decision needs: the ranker, the strength table, the unseen cards, the exponent k."""

    def __init__(self, view: PericoView, rng: np.random.Generator):
        self.rng = rng
        self.ranker: HandRanker = ranker_for(view.six_card, view.jokers_in_five_of_a_kind)
        self.table = strength_table(view.six_card, view.deck, view.jokers_in_five_of_a_kind)
        known = {*view.hand, *view.pile}
        if view.drawn >= 0:
            known.add(view.drawn)
        self.unseen = np.array([c for c in DECKS[view.deck].cards if c not in known], dtype=np.int64)
        self.power = max(1, view.num_players - 1)

    def sample(self, rows: int, size: int) -> list[list[int]]:
        """``rows`` independent draws of ``size`` distinct unseen cards."""
        order = np.argsort(self.rng.random((rows, len(self.unseen))), axis=1)[:, :size]
        return self.unseen[order].tolist()

    def strength_power(self, key: int) -> float:
        t = self.table
        s = (np.searchsorted(t, key, "left") + np.searchsorted(t, key, "right")) / (2 * len(t))
        return float(s) ** self.power

    def mean_strength_power(self, keys: list[int]) -> float:
        t = self.table
        k = np.array(keys, dtype=np.int64)
        s = (np.searchsorted(t, k, "left") + np.searchsorted(t, k, "right")) / (2 * len(t))
        return float(np.mean(s**self.power))

    def keep_value(self, hand: Sequence[int], keep: tuple[int, ...], samples: int) -> float:
        kept = [hand[i] for i in keep]
        draws = self.sample(samples, len(hand) - len(kept))
        key = self.ranker.key
        return self.mean_strength_power([key(kept + row) for row in draws])

    def draw_one_value(self, hand: Sequence[int], samples: int) -> float:
        """Draw one card, then discard the card that leaves the strongest hand."""
        key = self.ranker.key
        best = []
        for (card,) in self.sample(samples, 1):
            cards = [*hand, card]
            keys = np.array([key(cards[:i] + cards[i + 1 :]) for i in range(len(cards))], dtype=np.int64)
            best.append(int(keys.max()))
        return self.mean_strength_power(best)


def candidate_keeps(hand: Sequence[int], hand_size: int) -> list[tuple[int, ...]]:
    """Slot sets worth keeping: books, flush, straight and straight-flush draws, high cards, all."""
    jokers = [i for i, c in enumerate(hand) if c >= 65]
    naturals = [(i, c % 13, c // 13) for i, c in enumerate(hand) if c < 65]
    counts: dict[int, list[int]] = {}
    for i, r, _ in naturals:
        counts.setdefault(r, []).append(i)
    out: set[tuple[int, ...]] = {tuple(range(len(hand))), tuple(jokers)}
    books = [i for idx in counts.values() if len(idx) >= 2 for i in idx]
    if books:
        out.add(tuple(sorted(books + jokers)))
        # the best single book alone (e.g. trips without the pair of a full house draw)
        top = max((len(idx), r) for r, idx in counts.items())
        out.add(tuple(sorted(counts[top[1]] + jokers)))
    by_suit: dict[int, list[int]] = {}
    for i, _, s in naturals:
        by_suit.setdefault(s, []).append(i)
    if by_suit:
        s_best = max(by_suit, key=lambda s: (len(by_suit[s]), max(hand[i] % 13 for i in by_suit[s])))
        if len(by_suit[s_best]) >= 2:
            out.add(tuple(sorted(by_suit[s_best] + jokers)))
    for window in _windows(hand_size):
        straight = _one_per_rank([(i, r) for i, r, _ in naturals if r in window])
        if len(straight) >= 2:
            out.add(tuple(sorted(straight + jokers)))
        for idx in by_suit.values():
            suited = [i for i in idx if hand[i] % 13 in window]
            if len(suited) >= 2:
                out.add(tuple(sorted(suited + jokers)))
    ranked = sorted(naturals, key=lambda t: -t[1])
    if ranked:
        out.add(tuple(sorted([ranked[0][0], *jokers])))
        second = next((t for t in ranked[1:] if t[1] != ranked[0][1]), None)
        if second is not None:
            out.add(tuple(sorted([ranked[0][0], second[0], *jokers])))
    return sorted(out, key=lambda k: (-len(k), k))


def _one_per_rank(cards: list[tuple[int, int]]) -> list[int]:
    seen: dict[int, int] = {}
    for i, r in cards:
        seen.setdefault(r, i)
    return list(seen.values())


_WINDOW_CACHE: dict[int, list[frozenset[int]]] = {}


def _windows(hand_size: int) -> list[frozenset[int]]:
    """Rank sets of every straight of ``hand_size`` cards (ace low and high, no wrap)."""
    w = _WINDOW_CACHE.get(hand_size)
    if w is None:
        w = [frozenset(range(top - hand_size + 1, top + 1)) for top in range(hand_size - 1, ACE + 1)]
        w.append(frozenset({ACE, *range(hand_size - 1)}))
        _WINDOW_CACHE[hand_size] = w
    return w


def turn_candidates(hand: Sequence[int], hand_size: int) -> list[int]:
    """The draw and the exchanges that throw the cards outside one of the heuristic's keep sets."""
    moves = {DRAW}
    for keep in candidate_keeps(hand, hand_size):
        if len(keep) < hand_size - 1:
            moves.add(actions.exchange_action(hand_size, [i for i in range(hand_size) if i not in keep]))
    return sorted(moves)


class HeuristicCandidates:
    """A PIMC's candidates on a turn: the heuristic's moves (``turn_candidates``); elsewhere every legal one."""

    def candidates(self, view: PericoView, legal: list[int], game=None) -> list[int]:
        if view.phase == "turn":
            return turn_candidates(view.hand, view.hand_size)
        return legal


class PericoPimcAgent(HeuristicCandidates, search.PimcAgent):
    """Generic PIMC over the heuristic's candidate moves on a turn (module docstring)."""

    name = "pimc"


class PericoBatchedPimcAgent(HeuristicCandidates, BatchedPimcAgent):
    """``pimc_batched`` (``agents/search_batched.py``) over the same candidates as ``pimc`` (module docstring)."""

    name = "pimc_batched"
    WORLD_CHANCE = True  # an empty stock is refilled by shuffling the pile, in the middle of a round
    PHASES = ("knock", "turn", "discard")


SEARCH_ROLLOUT = "heuristic(turn_samples=4, discard_samples=2, knock_samples=20)"
SEARCH_DEFAULTS = {
    "pimc": {"rollout": SEARCH_ROLLOUT, "budget": 64, "paired_rollouts": True},
    "ismcts": {"rollout": SEARCH_ROLLOUT},
    # the same PIMC with its playouts in the batched engine (``agents/search_batched.py``): the full heuristic
    # rolls out (its compiled port) and many more worlds
    "pimc_batched": {"rollout": "heuristic", "budget": 2048, "paired_rollouts": True},
}
SEARCH_CLASSES = {"pimc": PericoPimcAgent, "pimc_batched": PericoBatchedPimcAgent}
AGENTS = {"heuristic": PericoHeuristicAgent}
