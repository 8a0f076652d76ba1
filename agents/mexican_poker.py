"""Scripted Mexican poker agents: ``heuristic`` (``random`` comes from the registry).

The heuristic makes its three kinds of decision with three separate rules,
each a public method so that reports and composites can mix them
(``heuristic+random`` predicts and doubts like the heuristic, plays at random):

``predict(view)``
    Sample ``samples`` deals of the unseen cards to the opponents and play
    each out with the *strongest-first* model: every player splits its hand
    greedily into its strongest combinations (with the shared board) and
    plays them strongest first; the round's trick rules (order from the
    leader, earlier play wins ties, players without cards drop out, the lone
    last player wins the rest) give everybody's trick count. The prediction
    is the p in 0..6 with the highest mean prediction-line score over the
    samples (so a hand that usually takes no trick predicts 0 for the +T bonus).

``doubt(view, mask)``
    With the predictions revealed, the same sampled play-outs estimate for
    every opponent the chance of missing the prediction exactly; the chip goes
    on the opponent most likely to miss (the nearer seat clockwise on a tie).
    Where passing is allowed, it passes when no opponent misses with
    probability above 1/2 (a doubt then loses on average).

``play(view, mask)``
    Aims at the own prediction. While short of it: as the first to play,
    lay the strongest combination; later in the trick, the cheapest
    combination that beats the current best (fewest own cards, then the
    lowest), or the lowest single card when nothing beats it. Once it has
    enough tricks: shed single cards that lose — the highest single that
    still loses to the current best (dangerous high cards leave while they are
    safe), or the lowest single when it leads or nothing loses. When it holds
    more cards than every opponent it sheds the losing combination that uses
    the most own cards (the highest of those) instead, so as not to be left
    the lone last player, who must take every remaining trick.
"""

from __future__ import annotations

import numpy as np

from pokerzoo.agents.base import Agent, random_legal
from pokerzoo.envs.engine.game import Game
from pokerzoo.envs.mexican_poker.actions import (
    COMBO_ACTION,
    DOUBT_BASE,
    MAX_PREDICTION,
    PASS,
)
from pokerzoo.envs.mexican_poker.combos import legal_plays
from pokerzoo.envs.mexican_poker.scoring import prediction_line
from pokerzoo.envs.mexican_poker.view import MexicanView

DECK = tuple(range(65))


def _hand_cards(bits: int) -> int:
    """Number of hand slots (bits 0..6) in a slot bitmask."""
    return (bits & 0x7F).bit_count()


def strongest_first(hand: list[int], board: tuple[int, ...]) -> list[int]:
    """Keys of the greedy split of ``hand``: the strongest combination first, fewest own cards on ties."""
    hand = list(hand)
    keys = []
    while hand:
        key, bits = max(legal_plays(hand, board), key=lambda kb: (kb[0], -_hand_cards(kb[1])))
        keys.append(key)
        hand = [c for i, c in enumerate(hand) if not bits >> i & 1]
    return keys


def play_out(plans: list[list[int]], leader: int) -> list[int]:
    """Tricks per seat when every seat plays its ``plans`` keys in order (RULES.md §1 trick rules)."""
    n = len(plans)
    pos = [0] * n
    tricks = [0] * n
    while True:
        order = [s for s in ((leader + i) % n for i in range(n)) if pos[s] < len(plans[s])]
        if not order:
            return tricks
        best_seat, best_key = -1, -1
        for s in order:
            key = plans[s][pos[s]]
            pos[s] += 1
            if key > best_key:
                best_seat, best_key = s, key
        tricks[best_seat] += 1
        leader = next(
            (t for t in ((best_seat + i) % n for i in range(n)) if pos[t] < len(plans[t])), best_seat
        )


class MexicanHeuristicAgent(Agent):
    """Predicts from sampled strongest-first play-outs, doubts the likeliest miss, plays to its prediction."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, samples: int = 16):
        super().__init__(seed)
        if samples < 1:
            raise ValueError(f"samples must be at least 1, got {samples}")
        self.samples = samples

    # ------------------------------------------------------------------ dispatch
    def act(self, view: MexicanView, mask: np.ndarray, game: Game | None = None) -> int:
        if view.phase == "predict":
            action = self.predict(view)
        elif view.phase == "doubt":
            action = self.doubt(view, mask)
        else:
            action = self.play(view, mask)
        if not mask[action]:  # defensive: never hand the env an illegal action
            return random_legal(self.rng, mask)
        return action

    # ------------------------------------------------------------------ sampling
    def simulate(self, view: MexicanView) -> np.ndarray:
        """(samples, n) tricks per seat in play-outs of sampled deals (from the round start)."""
        n, me = view.num_players, view.player
        board = view.board
        known = set(view.hand) | set(board)
        unseen = np.array([c for c in DECK if c not in known])
        h = view.hand_size
        my_plan = strongest_first(list(view.hand), board)
        out = np.zeros((self.samples, n), dtype=np.int64)
        for k in range(self.samples):
            deal = self.rng.permutation(unseen)
            plans, at = [], 0
            for s in range(n):
                if s == me:
                    plans.append(my_plan)
                else:
                    plans.append(strongest_first(deal[at : at + h].tolist(), board))
                    at += h
            out[k] = play_out(plans, view.token)
        return out

    # ------------------------------------------------------------------ decisions
    def predict(self, view: MexicanView) -> int:
        """The prediction 0..6 with the best mean prediction-line score over sampled play-outs."""
        sims = self.simulate(view)
        mine, totals = sims[:, view.player], sims.sum(axis=1)
        best_p, best_score = 0, -np.inf
        for p in range(MAX_PREDICTION + 1):
            score = np.mean([prediction_line(p, int(t), int(tt)) for t, tt in zip(mine, totals)])
            if score > best_score + 1e-9:
                best_p, best_score = p, score
        return best_p

    def miss_chances(self, view: MexicanView) -> dict[int, float]:
        """Estimated chance that each opponent misses its revealed prediction exactly."""
        sims = self.simulate(view)
        return {
            s: float(np.mean(sims[:, s] != view.predictions[s]))
            for s in range(view.num_players)
            if s != view.player
        }

    def doubt(self, view: MexicanView, mask: np.ndarray) -> int:
        """Doubt the opponent likeliest to miss; pass (where allowed) if nobody misses more often than not."""
        chances = self.miss_chances(view)
        n, me = view.num_players, view.player
        target = max(chances, key=lambda s: (chances[s], -((s - me) % n)))
        if mask[PASS] and chances[target] <= 0.5:
            return PASS
        return DOUBT_BASE + (target - me) % n

    def play(self, view: MexicanView, mask: np.ndarray) -> int:
        """A combination aimed at the prediction: win cheaply while short, shed losers once it has enough."""
        plays = legal_plays(view.hand, view.board)
        singles = [kb for kb in plays if kb[1] < 0x80 and _hand_cards(kb[1]) == 1]  # one own card, no board
        best_key = max((key for _, _, _, key in view.trick), default=-1)
        me = view.player
        if view.tricks[me] < view.prediction:
            if best_key < 0:  # first to play: lay the strongest combination
                _, bits = max(plays, key=lambda kb: (kb[0], -_hand_cards(kb[1])))
            else:
                winners = [kb for kb in plays if kb[0] > best_key]
                if winners:
                    _, bits = min(winners, key=lambda kb: (_hand_cards(kb[1]), kb[0]))
                else:
                    _, bits = min(singles, key=_key)
            return int(COMBO_ACTION[bits])
        losing = [kb for kb in plays if kb[0] <= best_key]  # equal keys lose: the earlier play wins ties
        others = max(c for s, c in enumerate(view.hand_counts) if s != me)
        if losing and len(view.hand) > others:
            _, bits = max(losing, key=lambda kb: (_hand_cards(kb[1]), kb[0]))
        else:
            losing_singles = [kb for kb in singles if kb[0] <= best_key]
            if losing_singles:
                _, bits = max(losing_singles, key=_key)
            else:
                _, bits = min(singles, key=_key)
        return int(COMBO_ACTION[bits])


def _key(kb: tuple[int, int]) -> int:
    return kb[0]


# The search agents (``pokerzoo.agents.search``) roll out with the heuristic; ``heuristic+pimc``
# (the heuristic's predictions and doubts, PIMC's play) is the documented strongest agent.
SEARCH_DEFAULTS = {
    "pimc": {"rollout": "heuristic", "budget": 64},
    "ismcts": {"rollout": "heuristic", "iterations": 200},
}
AGENTS = {"heuristic": MexicanHeuristicAgent}
