"""The generic search agents (``pokerzoo.agents.search``): correctness, budgets, seeds, specs, hidden cards.

Strength is measured in the docs with ``pokerzoo evaluate`` (duplicate deals),
not here; these tests check that the searches do what they say.
"""

from __future__ import annotations

import numpy as np
import pytest

from pokerzoo.agents import search
from pokerzoo.agents.base import Agent, CompositeAgent, RandomAgent
from pokerzoo.agents.raspisnoy_poker import HeuristicAgent
from pokerzoo.agents.registry import make_agent
from pokerzoo.agents.search import IsmctsAgent, PimcAgent
from pokerzoo.envs import game_class
from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame
from pokerzoo.envs.caribbean_stud.game import RAISE, CaribbeanStudGame
from pokerzoo.envs.engine.betting import BET, CALL, CHECK
from pokerzoo.envs.engine.betting import FOLD as BET_FOLD
from pokerzoo.envs.engine.cards import ScriptedChance
from pokerzoo.envs.raspisnoy_poker.game import RaspisnoyPokerGame

# Small tables, so that a test plays whole games in a second or two.
SMALL = {
    "mexican_poker_v0": {"num_players": 3, "rounds": 1},
    "perico_v0": {"num_players": 3, "target_score": 1},
    "breed_the_heifer_v0": {"num_players": 3},
    "raspisnoy_poker_v0": {"num_players": 3, "schedule": [[4, "normal"]]},
    "caribbean_stud_v0": {"boxes": 2},
}
CHEAP = {
    "pimc": "pimc(budget=8, min_samples=2, rollout=random)",
    "ismcts": "ismcts(iterations=16, rollout=random)",
    "ismcts_multi": "ismcts(iterations=16, rollout=random, observer=multi)",
}


def _mid_game(name: str, seed: int, steps: int) -> object:
    """A game of ``name`` after up to ``steps`` random moves, at a decision with a real choice (never over)."""
    g = game_class(name)(seed=seed, **SMALL[name])
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        before = g.clone()
        g.apply(int(rng.choice(np.flatnonzero(g.legal_mask()))))
        while not g.is_over and np.count_nonzero(g.legal_mask()) < 2:
            g.apply(int(np.flatnonzero(g.legal_mask())[0]))
        if g.is_over:
            return before
    return g


# ----------------------------------------------------------------------------- obviously right actions
def test_search_raises_quads_in_caribbean_stud():
    for spec in ("pimc(budget=40, rollout=random)", "ismcts(iterations=60, rollout=random)"):
        g = CaribbeanStudGame(chance=ScriptedChance(shuffles=["Ac Ad Ah As Kd"]))
        agent = make_agent("caribbean_stud", spec, seed=0)
        assert agent.act(g.view(0), g.legal_mask(), g) == RAISE


def _heifer_nuts_facing_a_bet() -> BreedTheHeiferGame:
    """Heads-up, seat 0 holds a royal flush on 7th street and faces seat 1's bet."""
    mine = ["As", "Ks", "Qs", "Js", "Ts", "2d", "3c"]  # down, down, up (3rd), up, up, up, down (7th); no up pair
    theirs = ["4h", "5h", "7c", "8d", "9h", "Jc", "6c"]
    stock = [c for pair in zip(theirs, mine) for c in pair]  # dealt from the dealer's left: seat 1, then 0
    g = BreedTheHeiferGame(chance=ScriptedChance(shuffles=[stock], integers=[0]), num_players=2)
    while not (g.street == 7 and g.current_player == 0 and g.view(0).to_call > 0):
        mask = g.legal_mask()
        if g.current_player == 1 and g.street == 7 and mask[BET]:
            g.apply(BET)
        else:
            g.apply(CHECK if mask[CHECK] else CALL)
    return g


@pytest.mark.parametrize("spec", ["pimc(budget=24)", "ismcts(iterations=48)", "ismcts(iterations=48, observer=multi)"])
def test_search_does_not_fold_the_nuts(spec):
    g = _heifer_nuts_facing_a_bet()
    agent = make_agent("breed_the_heifer", spec, seed=1)
    assert agent.act(g.view(0), g.legal_mask(), g) != BET_FOLD


# ----------------------------------------------------------------------------- budgets and seeds
def test_pimc_spreads_its_budget_over_the_candidates():
    g = _mid_game("raspisnoy_poker_v0", 3, 2)
    agent = PimcAgent(seed=0, budget=30, min_samples=2, rollout=RandomAgent())
    legal = np.flatnonzero(g.legal_mask()).tolist()
    agent.act(g.view(g.current_player), g.legal_mask(), g)
    assert agent.last_worlds == max(2, 30 // len(legal))


def test_ismcts_runs_exactly_its_iterations_and_bid_iterations():
    g = RaspisnoyPokerGame(seed=2, num_players=3, schedule=[[4, "normal"]])
    assert g.phase == "bid"
    agent = IsmctsAgent(seed=0, iterations=40, bid_iterations=9, rollout=RandomAgent())
    agent.act(g.view(g.current_player), g.legal_mask(), g)
    assert agent.last_iterations == 9
    while g.phase == "bid":
        g.apply(int(np.flatnonzero(g.legal_mask())[0]))
    agent.act(g.view(g.current_player), g.legal_mask(), g)
    assert agent.last_iterations == 40


def test_paired_rollouts_give_equal_candidates_equal_values():
    g = _mid_game("raspisnoy_poker_v0", 2, 4)
    p = g.current_player
    action = int(np.flatnonzero(g.legal_mask())[0])
    paired = PimcAgent(seed=0, budget=40, min_samples=20, rollout=RandomAgent(), paired_rollouts=True)
    totals = paired.values(g, p, [action, action], 40)
    assert totals[0] == totals[1]
    unpaired = PimcAgent(seed=0, budget=40, min_samples=20, rollout=RandomAgent())
    totals = unpaired.values(g, p, [action, action], 40)
    assert totals[0] != totals[1]  # the random rollouts differ between the two copies


class _Clock:
    """A fake ``time.perf_counter`` that advances one second per reading."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_time_budgets_stop_at_the_deadline(monkeypatch):
    g = _mid_game("mexican_poker_v0", 1, 3)
    monkeypatch.setattr(search.time, "perf_counter", _Clock())
    ismcts = IsmctsAgent(seed=0, seconds=5, rollout=RandomAgent())
    ismcts.act(g.view(g.current_player), g.legal_mask(), g)
    assert ismcts.last_iterations == 5  # the deadline is read once, then once per iteration
    pimc = PimcAgent(seed=0, seconds=5, min_samples=2, rollout=RandomAgent())
    pimc.act(g.view(g.current_player), g.legal_mask(), g)
    assert pimc.last_worlds == 6  # the clock is first read after min_samples worlds: 2, 3, ..., 6
    capped = IsmctsAgent(seed=0, seconds=1000, iterations=3, rollout=RandomAgent())
    capped.act(g.view(g.current_player), g.legal_mask(), g)
    assert capped.last_iterations == 3


@pytest.mark.parametrize("name", sorted(SMALL))
@pytest.mark.parametrize("kind", sorted(CHEAP))
def test_a_seeded_search_is_reproducible(name, kind):
    g = _mid_game(name, 5, 4)
    view, mask = g.view(g.current_player), g.legal_mask()
    first = make_agent(name, CHEAP[kind], seed=7)
    again = make_agent(name, CHEAP[kind], seed=123)
    again.seed(7)
    assert first.act(view, mask, g) == again.act(view, mask, g)
    if isinstance(first, IsmctsAgent):
        r1, r2 = (a.search(g, view.player, 16) for a in (first, again))
        assert {k: c.visits for k, c in r1.children.items()} == {k: c.visits for k, c in r2.children.items()}


# ----------------------------------------------------------------------------- hidden cards
@pytest.mark.parametrize("name", sorted(SMALL))
@pytest.mark.parametrize("kind", sorted(CHEAP))
def test_decisions_do_not_depend_on_hidden_cards(name, kind):
    """Two games with the same view for the player but other hidden cards: the same decision, seed for seed."""
    compared = 0
    for seed in range(3):
        g = _mid_game(name, seed, 2 + 3 * seed)
        if g.is_over:
            continue
        p = g.current_player
        other = g.determinize(p, np.random.default_rng(99))
        assert other.view(p) == g.view(p)
        compared += other.zones() != g.zones()
        agent = make_agent(name, CHEAP[kind])
        decisions = []
        for game in (g, other):
            agent.seed(seed)
            decisions.append(agent.act(game.view(p), game.legal_mask(), game))
        assert decisions[0] == decisions[1]
    assert compared, "no pair of games differed in their hidden cards"


def test_search_reads_the_game_only_through_determinize(monkeypatch):
    g = _mid_game("raspisnoy_poker_v0", 4, 3)
    calls = []
    real = RaspisnoyPokerGame.determinize

    def spy(self, player, rng):
        calls.append(player)
        return real(self, player, rng)

    monkeypatch.setattr(RaspisnoyPokerGame, "determinize", spy)
    p = g.current_player
    for spec in CHEAP.values():
        calls.clear()
        make_agent("raspisnoy_poker", spec, seed=0).act(g.view(p), g.legal_mask(), g)
        assert calls and set(calls) == {p}


# ----------------------------------------------------------------------------- rollouts and horizons
@pytest.mark.parametrize("name", sorted(SMALL))
def test_rollouts_stop_at_the_declared_horizon(name):
    g = game_class(name)(seed=3, **{**SMALL[name], **({"rounds": 2} if name == "mexican_poker_v0" else {})})
    world = g.determinize(g.current_player, np.random.default_rng(0))
    unit = world.unit_index if world.search_horizon() == "unit" else None
    RandomAgent(seed=1).play_out(world, unit)
    assert world.is_over or world.unit_index != unit


def test_raspisnoy_fast_play_out_plays_the_heuristic_moves():
    for seed in range(5):
        g = RaspisnoyPokerGame(seed=seed, num_players=4, schedule=[[5, "normal"], [3, "dark"], [1, "forehead"]])
        world = g.determinize(0, np.random.default_rng(seed))
        fast, slow = world.clone(), world.clone()
        HeuristicAgent().play_out(fast, None)
        Agent.play_out(HeuristicAgent(), slow, None)
        assert fast.history == slow.history and fast.is_over


def test_a_learned_policy_rolls_out():
    agent = make_agent("raspisnoy_poker", "pimc(budget=4, min_samples=1, rollout=ppo)", seed=0)
    assert agent.rollout.name == "ppo"
    g = RaspisnoyPokerGame(seed=6, num_players=4, schedule="single")  # the table the policy was trained at
    world = g.determinize(g.current_player, np.random.default_rng(0))
    agent.rollout.play_out(world, world.unit_index)
    assert world.deal_index == 1 and world.is_over
    assert g.legal_mask()[agent.act(g.view(g.current_player), g.legal_mask(), g)]


# ----------------------------------------------------------------------------- specs
def test_specs_build_search_agents_as_bidders_and_players():
    a = make_agent("mexican_poker", "heuristic+ismcts(iterations=200)", seed=1)
    assert isinstance(a, CompositeAgent) and isinstance(a.player, IsmctsAgent) and a.player.iterations == 200
    assert a.name == "heuristic+ismcts(iterations=200)"
    b = make_agent("perico", "pimc(budget=16, rollout=heuristic(knock_samples=20))+heuristic")
    assert isinstance(b.bidder, PimcAgent) and b.bidder.budget == 16 and b.bidder.rollout.knock_samples == 20
    c = make_agent("breed_the_heifer", "ismcts(iterations=20, observer=multi, c=1.5, horizon=episode)")
    assert (c.observer, c.c, c.horizon) == ("multi", 1.5, "episode")
    d = make_agent("raspisnoy_poker", "pimc(bid_budget=7)")
    assert d.bid_budget == 7 and d.budget == 128  # Raspisnoy's pimc keeps its own defaults


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pimc(budget=0)", r"budget=0 is out of range; expected an int in 1\.\.10000000"),
        ("ismcts(iterations=-3)", r"iterations=-3 is out of range"),
        ("ismcts(iterations=2.5)", r"iterations=2\.5 is out of range; expected an int"),
        ("ismcts(c=-1)", r"c=-1 is out of range; expected a number in 0\.\.100"),
        ("ismcts(observer=both)", r"observer='both': expected one of single, multi"),
        ("pimc(horizon=forever)", r"horizon='forever': expected one of unit, episode"),
        ("pimc(seconds=0)", r"seconds=0 is out of range"),
        ("pimc(depth=3)", r"pimc has no argument 'depth'; its arguments: budget, bid_budget"),
        ("pimc(rollout=wizard)", r"argument rollout: unknown agent 'wizard'"),
        ("ismcts(iterations=10", r"unbalanced parentheses"),
        ("ismcts(10)", r"arguments are key=value"),
        ("pimc(paired_rollouts=3)", r"paired_rollouts=3: expected true or false"),
    ],
)
def test_bad_spec_arguments_name_the_argument_and_range(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent("perico", spec)


def test_search_without_a_game_acts_like_its_rollout_agent():
    g = _mid_game("perico_v0", 2, 3)
    view, mask = g.view(g.current_player), g.legal_mask()
    agent = make_agent("perico", "pimc(budget=4)", seed=3)
    rollout = make_agent("perico", "heuristic", seed=0)
    agent.rollout.seed(11)
    rollout.seed(11)
    assert agent.act(view, mask, None) == rollout.act(view, mask, None)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_search_agents_play_whole_games_in_composites(name):
    from pokerzoo.evaluation.tournament import play_game

    cls = game_class(name)
    seats = [
        make_agent(name, "random+" + CHEAP["ismcts"], seed=1),
        make_agent(name, CHEAP["pimc"] + "+random", seed=2),
        make_agent(name, CHEAP["ismcts_multi"], seed=3),
    ]
    g = cls(seed=8, **SMALL[name])
    tally = play_game(g, [seats[i % len(seats)] for i in range(g.num_players)])
    assert g.is_over and tally["steps"] > 0


@pytest.mark.parametrize("kind", sorted(CHEAP))
def test_search_agents_report_their_values(kind):
    g = _mid_game("mexican_poker_v0", 3, 6)
    agent = make_agent("mexican_poker", CHEAP[kind], seed=0)
    action = agent.act(g.view(g.current_player), g.legal_mask(), g)
    said = agent.decision_details()
    assert said["kind"] == "values" and set(said["actions"]) <= set(g.legal_actions())
    assert action in said["actions"] and len(said["values"]) == len(said["actions"])
    if kind == "pimc":  # PIMC plays its best-valued move (ISMCTS its most visited)
        assert action == said["actions"][int(np.argmax(said["values"]))]
    forced = _mid_game("raspisnoy_poker_v0", 0, 0)
    while np.count_nonzero(forced.legal_mask()) > 1:
        forced.apply(int(np.flatnonzero(forced.legal_mask())[0]))
    assert not forced.is_over
    agent = make_agent("raspisnoy_poker", CHEAP[kind], seed=0)
    agent.act(forced.view(forced.current_player), forced.legal_mask(), forced)
    assert agent.decision_details() is None  # a forced move computed nothing
