"""Search agents for every game: determinised Monte Carlo (``pimc``) and information-set MCTS (``ismcts``).

Both are written against the ``Game`` protocol alone (``determinize``,
``clone``, ``legal_mask``, ``apply``, ``total_rewards``, ``current_player``,
``is_over``, and the two declared facts ``unit_index`` / ``search_horizon``),
so a new game gets search for free. They never read the live game's hidden
state: every world they look at comes from ``game.determinize(player, rng)``,
which re-deals what the player cannot see and keeps what it knows (its view,
and whatever public play revealed about where the hidden cards can be).

**Return.** A search maximises the searching player's rewards from the
decision to its *horizon*: with ``game.search_horizon() == "unit"`` the end of
the deal, round or hand under way (``game.unit_index`` changes), for games
that reward each unit as it ends; with ``"episode"`` the end of the game. The
``horizon`` argument overrides the game's choice.

**Rollouts** play every seat of a sampled world to the horizon with one
agent: ``random``, the game's ``heuristic`` (or another scripted agent), or
any registry spec (a composite, a shipped learned policy such as ``ppo``).
Each seat acts on its own view of the sampled world, so opponents in a
rollout know only what they would know. Agents may provide a fast
``play_out`` (Raspisnoy's heuristic does); the result is the same as acting
seat by seat.

**PIMC** (``PimcAgent``): for each of several sampled worlds, every candidate
action (by default every legal action) is applied to a clone of the world
and played out; the action with the best mean return wins. All candidates
see the same worlds (common random numbers), so their difference is measured
with less noise. ``budget`` is the number of playouts per decision, spread
over the candidates (``max(min_samples, budget // candidates)`` worlds).

**ISMCTS** (``IsmctsAgent``): Cowling, Powley and Whitehouse's information-set
MCTS (2012). Every iteration samples one world, descends a tree whose nodes
are information sets, choosing by UCT among the moves available in that
world (each child counts how often it was available, the subset-armed
bandit), adds one node, plays out and backs the return up, every node
scoring the return of the player who chose its move. Returns are normalised
by the range seen so far, so the exploration constant ``c`` does not depend
on the game's point scale. The most visited root move is played.

* ``observer="single"`` (SO-ISMCTS): one tree, seen from the searching
  player. Its own moves are edges by action; another player's move is an
  edge by what the searcher sees of it (``game.public_action_name``), so a
  secret prediction is one edge and a card is the same edge in every world
  (moves that look the same are merged, the "partially observable moves"
  variant).
* ``observer="multi"`` (MO-ISMCTS): one tree per player, descended together;
  each player's moves are chosen in its own tree, whose edges are its own
  moves by name and the others' by what it sees of them. Opponents then
  decide on what they could know rather than on the searcher's statistics:
  for games where players hold private information that matters to their
  choices.

**Budgets**: ``budget`` / ``iterations`` count playouts; ``seconds`` bounds the
time of a decision instead (a time budget is not reproducible: how much gets
done depends on the machine). **Reproducibility**: all randomness comes from
the agent's generator and its rollout agent's, both derived from the seed
(``seed()`` reseeds them, as the evaluation harness does before every game).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

import numpy as np

from pokerzoo.agents.base import Agent, RandomAgent, details
from pokerzoo.envs.engine.game import Game, View

HORIZONS = ("unit", "episode")
OBSERVERS = ("single", "multi")
MAX_BUDGET = 10_000_000


def check_int(name: str, value, low: int, high: int = MAX_BUDGET) -> int:
    """``value`` as an int in ``low..high``; a ValueError naming argument ``name`` and the range otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or not low <= value <= high:
        raise ValueError(f"argument {name}={value!r} is out of range; expected an int in {low}..{high}")
    return int(value)


def _check_seconds(value) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 3600:
        raise ValueError(f"argument seconds={value!r} is out of range; expected a number in (0, 3600] or None")
    return float(value)


class SearchAgent(Agent):
    """What both searches share: the rollout agent, the horizon, the time budget, seeding."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        rollout: Agent | None = None,
        seconds: float | None = None,
        horizon: str | None = None,
    ):
        if rollout is None:
            rollout = RandomAgent()
        if not isinstance(rollout, Agent):
            raise ValueError(
                f"argument rollout={rollout!r}: expected an Agent; agent specs such as 'heuristic' "
                "are resolved by the registry (make_agent(game, 'pimc(rollout=heuristic)'))"
            )
        if horizon is not None and horizon not in HORIZONS:
            raise ValueError(f"argument horizon={horizon!r}: expected one of {', '.join(HORIZONS)} or None")
        self.rollout = rollout
        self.seconds = _check_seconds(seconds)
        self.horizon = horizon
        self._details: dict | None = None
        super().__init__(seed)
        self.seed(seed)

    def decision_details(self) -> dict | None:
        """The latest search's value of each move it compared (None when the latest move was not searched)."""
        return self._details

    def seed(self, seed: int | None) -> None:
        """Reseed the search's generator and, from the same seed, its rollout agent's."""
        mine, theirs = np.random.SeedSequence(seed).spawn(2)
        self.rng = np.random.default_rng(mine)
        self.rollout.seed(int(theirs.generate_state(1, np.uint64)[0] >> 1))

    def stop_unit(self, game: Game) -> int | None:
        """The unit whose end stops rollouts, or None to play to the end of the game."""
        horizon = self.horizon or game.search_horizon()
        return game.unit_index if horizon == "unit" else None

    def deadline(self) -> float | None:
        return None if self.seconds is None else time.perf_counter() + self.seconds

    def without_game(self, view: View, mask: np.ndarray) -> int:
        """No game to sample worlds from (``act`` called with ``game=None``): act like the rollout agent."""
        return int(self.rollout.act(view, mask, None))


class PimcAgent(SearchAgent):
    """Perfect-information Monte Carlo over the legal actions (module docstring).

    ``budget``: playouts per decision (``bid_budget`` for decisions in the
    game's bidding phases, default ``budget``); each candidate gets
    ``max(min_samples, budget // candidates)`` sampled worlds. With ``seconds``
    the search samples worlds until the time is up (at least ``min_samples``),
    and ``budget``, when also given, still caps it. ``paired_rollouts``: reseed
    the rollout agent alike for every candidate of a world, so that a rollout
    agent that draws random numbers (Monte Carlo heuristics) adds no noise of
    its own to the comparison (costs a reseed per playout).
    """

    name = "pimc"
    DEFAULT_BUDGET = 128

    def __init__(
        self,
        seed: int | None = None,
        budget: int | None = None,
        bid_budget: int | None = None,
        min_samples: int = 4,
        seconds: float | None = None,
        rollout: Agent | None = None,
        horizon: str | None = None,
        paired_rollouts: bool = False,
    ):
        if not isinstance(paired_rollouts, bool):
            raise ValueError(f"argument paired_rollouts={paired_rollouts!r}: expected true or false")
        self.paired_rollouts = paired_rollouts
        if budget is None and seconds is None:
            budget = self.DEFAULT_BUDGET
        self.budget = None if budget is None else check_int("budget", budget, 1)
        self.bid_budget = None if bid_budget is None else check_int("bid_budget", bid_budget, 1)
        self.min_samples = check_int("min_samples", min_samples, 1, 100_000)
        super().__init__(seed, rollout=rollout, seconds=seconds, horizon=horizon)

    def candidates(self, view: View, legal: list[int], game: Game) -> list[int]:
        """The actions searched; subclasses drop equivalent or hopeless ones (Raspisnoy does)."""
        return legal

    def act(self, view: View, mask: np.ndarray, game: Game | None = None) -> int:
        self._details = None
        legal = np.flatnonzero(mask).tolist()
        if len(legal) == 1:
            return legal[0]
        if game is None:
            return self.without_game(view, mask)
        candidates = self.candidates(view, legal, game)
        if len(candidates) <= 1:
            return candidates[0] if candidates else legal[0]
        budget = self.budget
        if self.bid_budget is not None and view.phase in game.BIDDING_PHASES:
            budget = self.bid_budget
        totals = self.values(game, view.player, candidates, budget)
        self._details = details(
            "values",
            candidates,
            (totals / self.last_worlds).tolist(),
            f"mean return to the end of the {self.horizon or game.search_horizon()} over {self.last_worlds} "
            f"sampled worlds, {self.rollout.name} playing out",
        )
        return candidates[int(np.argmax(totals))]

    def values(self, game: Game, me: int, candidates: Sequence[int], budget: int | None) -> np.ndarray:
        """Total return of each candidate over the sampled worlds (the same worlds for all)."""
        worlds = None if budget is None else max(self.min_samples, budget // len(candidates))
        deadline = self.deadline()
        unit = self.stop_unit(game)
        rollout = self.rollout
        totals = np.zeros(len(candidates))
        done = 0
        while True:
            world = game.determinize(me, self.rng)
            world.silence()
            base = world.total_rewards[me]
            paired = int(self.rng.integers(2**63 - 1)) if self.paired_rollouts else None
            for i, action in enumerate(candidates):
                w = world.clone()
                w.apply(action)
                if paired is not None:
                    rollout.seed(paired)
                rollout.play_out(w, unit)
                totals[i] += w.total_rewards[me] - base
            done += 1
            if worlds is not None and done >= worlds:
                break
            if deadline is not None and done >= self.min_samples and time.perf_counter() >= deadline:
                break
        self.last_worlds = done
        return totals


class _Node:
    """One information set reached by one move: its statistics for the player who made that move."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


class IsmctsAgent(SearchAgent):
    """Information-set MCTS with UCT, one determinisation per iteration (module docstring).

    ``iterations``: playouts per decision (``bid_iterations`` in the bidding
    phases, default ``iterations``); ``seconds`` bounds the time instead (and
    ``iterations``, when also given, still caps it). ``c``: UCT exploration, in
    units of the range of returns seen. ``observer``: ``"single"`` or ``"multi"``.
    """

    name = "ismcts"
    DEFAULT_ITERATIONS = 500

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        bid_iterations: int | None = None,
        seconds: float | None = None,
        c: float = 0.7,
        observer: str = "single",
        rollout: Agent | None = None,
        horizon: str | None = None,
    ):
        if iterations is None and seconds is None:
            iterations = self.DEFAULT_ITERATIONS
        self.iterations = None if iterations is None else check_int("iterations", iterations, 1)
        self.bid_iterations = (
            None if bid_iterations is None else check_int("bid_iterations", bid_iterations, 1)
        )
        if isinstance(c, bool) or not isinstance(c, int | float) or not 0 <= c <= 100:
            raise ValueError(f"argument c={c!r} is out of range; expected a number in 0..100")
        if observer not in OBSERVERS:
            raise ValueError(f"argument observer={observer!r}: expected one of {', '.join(OBSERVERS)}")
        self.c = float(c)
        self.observer = observer
        super().__init__(seed, rollout=rollout, seconds=seconds, horizon=horizon)

    def act(self, view: View, mask: np.ndarray, game: Game | None = None) -> int:
        self._details = None
        legal = np.flatnonzero(mask).tolist()
        if len(legal) == 1:
            return legal[0]
        if game is None:
            return self.without_game(view, mask)
        iterations = self.iterations
        if self.bid_iterations is not None and view.phase in game.BIDDING_PHASES:
            iterations = self.bid_iterations
        root = self.search(game, view.player, iterations)
        visited = [a for a in legal if a in root.children and root.children[a].visits]
        if not visited:
            return legal[0]
        means = {a: root.children[a].total / root.children[a].visits for a in visited}
        best = max(visited, key=lambda a: (root.children[a].visits, means[a]))
        self._details = details(
            "values",
            visited,
            [means[a] for a in visited],
            f"mean return of each move over its visits in {self.last_iterations} iterations "
            "(the most visited is played)",
        )
        return int(best)

    def search(self, game: Game, me: int, iterations: int | None) -> _Node:
        """Run the iterations; returns the searching player's root (its children are its moves)."""
        n = game.num_players
        multi = self.observer == "multi"
        roots = [_Node() for _ in range(n if multi else 1)]
        unit = self.stop_unit(game)
        deadline = self.deadline()
        self._low, self._high = math.inf, -math.inf
        done = 0
        while True:
            world = game.determinize(me, self.rng)
            world.silence()
            if multi:
                self._iterate_multi(world, me, roots, unit)
            else:
                self._iterate_single(world, me, roots[0], unit)
            done += 1
            if iterations is not None and done >= iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        return roots[me] if multi else roots[0]

    # ------------------------------------------------------------------ one iteration
    def _select(self, node: _Node, keys: list, legal: list[int]) -> tuple[object, int, bool]:
        """The edge to follow among the moves available here, one action of it, and whether it is new."""
        classes: dict = {}
        for key, action in zip(keys, legal):
            classes.setdefault(key, []).append(action)
        children = node.children
        untried = []
        for key in classes:
            child = children.get(key)
            if child is None:
                untried.append(key)
            else:
                child.avail += 1
        rng = self.rng
        if untried:
            key = untried[int(rng.integers(len(untried)))] if len(untried) > 1 else untried[0]
            children[key] = _Node()
            new = len(classes) > 1
        else:
            scale = self.c * (self._high - self._low if self._high > self._low else 1.0)
            best, key = -math.inf, None
            for k in classes:
                child = children[k]
                score = child.total / child.visits + scale * math.sqrt(math.log(child.avail) / child.visits)
                if score > best:
                    best, key = score, k
            new = False
        actions = classes[key]
        action = actions[0] if len(actions) == 1 else actions[int(rng.integers(len(actions)))]
        return key, action, new

    def _live(self, world: Game, unit: int | None) -> bool:
        return not world.is_over and (unit is None or world.unit_index == unit)

    def _iterate_single(self, world: Game, me: int, root: _Node, unit: int | None) -> None:
        base = world.total_rewards
        path: list[tuple[_Node, int]] = []
        node = root
        while self._live(world, unit):
            actor = world.current_player
            legal = world.legal_actions()
            keys = legal if actor == me else [world.public_action_name(a, me) for a in legal]
            key, action, new = self._select(node, keys, legal)
            node = node.children[key]
            path.append((node, actor))
            world.apply(action)
            if new:
                break
        self._finish(world, unit, base, path)

    def _iterate_multi(self, world: Game, me: int, roots: list[_Node], unit: int | None) -> None:
        base = world.total_rewards
        n = world.num_players
        nodes = list(roots)
        path: list[tuple[_Node, int]] = []
        while self._live(world, unit):
            actor = world.current_player
            legal = world.legal_actions()
            keys = legal if actor == me else [world.action_name(a) for a in legal]
            key, action, new = self._select(nodes[actor], keys, legal)
            for q in range(n):
                if q == actor:
                    child = nodes[q].children[key]
                else:
                    seen = world.public_action_name(action, q)
                    child = nodes[q].children.get(seen)
                    if child is None:
                        child = nodes[q].children[seen] = _Node()
                nodes[q] = child
                path.append((child, actor))
            world.apply(action)
            if new:
                break
        self._finish(world, unit, base, path)

    def _finish(self, world: Game, unit: int | None, base: np.ndarray, path: list[tuple[_Node, int]]) -> None:
        if self._live(world, unit):
            self.rollout.play_out(world, unit)
        returns = (world.total_rewards - base).tolist()
        low, high = min(returns), max(returns)
        if low < self._low:
            self._low = low
        if high > self._high:
            self._high = high
        for node, actor in path:
            node.visits += 1
            node.total += returns[actor]


__all__ = ["IsmctsAgent", "PimcAgent", "SearchAgent"]
