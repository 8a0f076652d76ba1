"""Breed the Heifer scripted bettors: ``calling_station`` and ``equity`` (``random`` comes from the registry).

Every decision in this game is a betting decision (the one phase, "bet", is
the game's bidding phase), so these agents are whole strategies.

``equity`` estimates its chance to win by Monte Carlo from its own view only:
each simulation deals the cards it cannot see (the opponents' down cards and
every card still to come) from the unseen cards, runs the board-pair wild
rule over the simulated future up cards with the same ``WildTracker`` the
game uses, and scores the showdown with the game's ranker; a tie counts as
the agent's share of the pot. Opponents are assumed to hold random cards and
to stay to the end. Then, with ``k`` players still in (so a fair share is 1/k):

* nothing to call: bet (or raise) when equity >= ``bet_factor`` / k, else check;
* facing a bet: raise (or complete a short all-in bet) when equity >=
  ``raise_factor`` / k; else call when equity >= pot odds, i.e. the call
  divided by the pot after calling; else fold.

A bet is worth making when the agent's share of the chips it adds exceeds
the chips (equity > 1/k if everyone calls); the factors above 1 leave a
margin for the noise of the estimate and for opponents who only continue
with better hands.
"""

from __future__ import annotations

import numpy as np

from pokerzoo.agents.base import Agent, random_legal
from pokerzoo.agents.search_batched import BatchedPimcAgent
from pokerzoo.envs.breed_the_heifer.game import LAST_STREET, UP_STREETS, HeiferView
from pokerzoo.envs.breed_the_heifer.ranking import ranker
from pokerzoo.envs.breed_the_heifer.wilds import WildTracker
from pokerzoo.envs.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from pokerzoo.envs.engine.game import Game


class CallingStationAgent(Agent):
    """Never folds, never bets: checks when it can, calls otherwise."""

    name = "calling_station"

    def act(self, view: HeiferView, mask: np.ndarray, game: Game | None = None) -> int:
        if mask[CHECK]:
            return CHECK
        if mask[CALL]:
            return CALL
        return random_legal(self.rng, mask)


def estimate_equity(view: HeiferView, rng: np.random.Generator, simulations: int) -> float:
    """Monte Carlo share of the pot the viewer wins at showdown against random hands (see the module doc)."""
    me, n = view.player, view.num_players
    live = [p for p in range(n) if not view.folded[p]]
    if len(live) == 1:
        return 1.0
    order = [q for q in ((view.dealer + k) % n for k in range(1, n + 1)) if not view.folded[q]]
    opponents = [p for p in live if p != me]
    known = set(view.down)
    for cards in view.up:
        known.update(cards)
    unseen = np.array([c for c in range(52) if c not in known], dtype=np.int64)
    down_count = len(view.down)
    future = list(range(view.street + 1, LAST_STREET + 1))
    need = down_count * len(opponents) + len(future) * len(live)
    draws = rng.permuted(np.tile(unseen, (simulations, 1)), axis=1)[:, :need].tolist()
    rank = ranker(view.double_ace_flush).key
    base = {p: list(view.up[p]) for p in live}
    base[me] = list(view.down) + base[me]
    future_up = any(s in UP_STREETS for s in future)
    tracker = WildTracker.from_up_cards(
        view.up, view.wild_rank, view.pair_pending, view.wild_pairs == "any_player"
    )
    wild = view.wild_rank
    won = 0.0
    for row in draws:
        hands = {p: list(base[p]) for p in live}
        pos = 0
        for p in opponents:
            hands[p].extend(row[pos : pos + down_count])
            pos += down_count
        if future_up:
            t = tracker.copy()
            for street in future:
                for p in order:
                    card = row[pos]
                    pos += 1
                    hands[p].append(card)
                    if street != LAST_STREET:
                        t.see(p, card)
            wild = t.wild  # a pair pending after the last up card leaves nothing wild (wild was cleared)
        else:
            for _street in future:
                for p in order:
                    hands[p].append(row[pos])
                    pos += 1
        mine = rank(hands[me], wild)
        best, ties = mine, 1
        for p in opponents:
            k = rank(hands[p], wild)
            if k > best:
                break
            ties += k == best
        else:
            won += 1.0 / ties
    return won / simulations


class EquityAgent(Agent):
    """Bets, calls or folds by its Monte Carlo equity against pot odds (thresholds in the module doc).

    ``compiled`` (default true): the simulations run in the batched engine's
    compiled evaluator (``agents.batched.breed_the_heifer.ViewEquity``), draw
    for draw and estimate for estimate the Python ``estimate_equity``, which
    ``compiled=False`` runs instead (the reference the tests compare with).
    Searches roll out with this agent, so it sets their speed.
    """

    name = "equity"

    def __init__(
        self,
        seed: int | None = None,
        simulations: int = 200,
        bet_factor: float = 1.2,
        raise_factor: float = 1.5,
        compiled: bool = True,
    ):
        super().__init__(seed)
        if isinstance(simulations, bool) or not isinstance(simulations, int | np.integer) or simulations < 1:
            raise ValueError(f"argument simulations={simulations!r} is out of range; expected an int >= 1")
        if not isinstance(compiled, bool):
            raise ValueError(f"argument compiled={compiled!r}: expected true or false")
        self.simulations = int(simulations)
        self.bet_factor = bet_factor
        self.raise_factor = raise_factor
        self.compiled = compiled
        self.last_equity: float | None = None

    def estimate(self, view: HeiferView) -> float:
        """``estimate_equity(view, self.rng, self.simulations)``, compiled unless ``compiled=False``."""
        if not self.compiled:
            return estimate_equity(view, self.rng, self.simulations)
        # Deferred: the compiled module imports this one (the agent's defaults), and loads its kernels.
        from pokerzoo.agents.batched.breed_the_heifer import ViewEquity

        return ViewEquity.for_view(view).estimate(view, self.rng, self.simulations)

    def act(self, view: HeiferView, mask: np.ndarray, game: Game | None = None) -> int:
        equity = self.estimate(view)
        self.last_equity = equity
        k = sum(not f for f in view.folded)
        aggressive = BET if mask[BET] else RAISE if mask[RAISE] else None
        if mask[CHECK]:
            if aggressive is not None and equity >= self.bet_factor / k:
                return aggressive
            return CHECK
        if aggressive is not None and equity >= self.raise_factor / k:
            return aggressive
        call = min(view.to_call, view.stacks[view.player])
        if equity >= call / (view.pot + call):
            return CALL
        return FOLD if mask[FOLD] else CALL


# The search agents (``pokerzoo.agents.search``) roll out with a cheaper equity bettor: rollouts
# decide hundreds of times per search decision. Its Monte Carlo draws are paired across candidates.
SEARCH_ROLLOUT = "equity(simulations=20)"
SEARCH_DEFAULTS = {
    "pimc": {"rollout": SEARCH_ROLLOUT, "budget": 90, "paired_rollouts": True},
    "ismcts": {"rollout": SEARCH_ROLLOUT, "iterations": 100},
    # the same PIMC with its playouts in the batched engine (``agents/search_batched.py``): far more worlds
    "pimc_batched": {"rollout": SEARCH_ROLLOUT, "budget": 90, "paired_rollouts": True},
}
SEARCH_CLASSES = {"pimc_batched": BatchedPimcAgent}
AGENTS = {"calling_station": CallingStationAgent, "equity": EquityAgent}
