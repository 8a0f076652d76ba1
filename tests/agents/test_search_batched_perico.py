"""``pimc_batched`` in Perico: PIMC with its playouts in the batched engine (``agents/search_batched.py``).

With the scalar sampler and paired rollouts the batched heuristic draws what
one scalar heuristic deciding every seat of a world draws (its row seeds, the
port's one generator per row), and each row reshuffles from its world's own
chance as the scalar clones do, so it must compute the scalar ``pimc``'s
values and make its choices exactly, seeded alike: the scalar search is the
brute force it is checked against (in both variants, stocks running out
included). With the fast sampler its values agree with the scalar search's
within their sampling error.
"""

from __future__ import annotations

import numpy as np
import pytest

from pokerzoo.agents.perico import PericoBatchedPimcAgent, turn_candidates
from pokerzoo.agents.registry import make_agent
from pokerzoo.envs.perico.game import PericoGame

GAME = "perico"
ROLLOUT = "heuristic(turn_samples=4, discard_samples=2, knock_samples=20)"
# the scalar search the exact test checks against rolls out with the heuristic's Python rule (the reference; by
# default the scalar heuristic decides in the same compiled port the batched search uses)
PYTHON_ROLLOUT = "heuristic(turn_samples=4, discard_samples=2, knock_samples=20, compiled=false)"


def decision_states(config: dict, count: int, seed: int = 0, every: int = 3) -> list[PericoGame]:
    """Decisions with a choice, reached by the heuristic playing every seat (one in ``every``)."""
    agent = make_agent(GAME, ROLLOUT, seed=seed)
    states, game_seed, seen = [], seed, 0
    while len(states) < count:
        g = PericoGame(seed=game_seed, **config)
        game_seed += 1
        while not g.is_over and len(states) < count:
            mask = g.legal_mask()
            if np.count_nonzero(mask) > 1:
                seen += 1
                if seen % every == 0:
                    states.append(g.clone())
            g.apply(agent.act(g.view(g.current_player), mask, g))
    return states


@pytest.mark.parametrize(
    "config",
    [{"num_players": 4}, {"num_players": 3, "six_card": True, "max_turns_per_round": 12}, {"num_players": 6}],
    ids=str,
)
def test_with_the_scalar_sampler_it_is_the_scalar_pimc_exactly(config):
    states = decision_states(config, 9)
    scalar = make_agent(GAME, f"pimc(budget=24, rollout={PYTHON_ROLLOUT})", seed=3)
    batched = make_agent(GAME, f"pimc_batched(budget=24, rollout={ROLLOUT}, sampler=scalar)", seed=3)
    for g in states:
        view, mask = g.view(g.current_player), g.legal_mask()
        assert batched.act(view, mask, g) == scalar.act(view, mask, g)
        # the same values and worlds; the notes differ by the rollout spec they name (compiled=false)
        assert without_note(batched.decision_details()) == without_note(scalar.decision_details())
        assert batched.last_worlds == scalar.last_worlds


def without_note(details: dict) -> dict:
    return {k: v for k, v in details.items() if k != "note"}


def test_the_exact_states_include_every_phase_and_empty_stocks():
    """The rollouts from the states above run through reshuffles (6 players: a 23-card stock) and every phase."""
    states = decision_states({"num_players": 6}, 9)
    assert {g.phase for g in states} >= {"turn", "discard", "knock"}
    scalar = make_agent(GAME, f"pimc(budget=24, rollout={ROLLOUT})", seed=3)
    reshuffles = 0
    for g in states:
        world = g.determinize(g.current_player, np.random.default_rng(0))
        unit = world.unit_index
        world.apply(int(np.flatnonzero(world.legal_mask())[-1]))
        scalar.rollout.play_out(world, unit)
        reshuffles += sum(e.get("type") == "reshuffle" for e in world.events)
    assert reshuffles > 0


def test_the_spec_defaults():
    agent = make_agent(GAME, "pimc_batched")
    assert isinstance(agent, PericoBatchedPimcAgent)
    assert (agent.rollout.name, agent.sampler, agent.paired_rollouts) == ("heuristic", "fast", True)


def test_it_searches_the_heuristics_moves_on_a_turn():
    g = next(s for s in decision_states({"num_players": 4}, 12) if s.phase == "turn")
    agent = make_agent(GAME, "pimc_batched(budget=64)", seed=0)
    agent.act(g.view(g.current_player), g.legal_mask(), g)
    assert agent.decision_details()["actions"] == turn_candidates(g.hands[g.current_player], g.hand_size)


def test_reproducible_from_its_seed():
    states = decision_states({"num_players": 4}, 5, seed=1)
    for paired in ("true", "false"):
        spec = f"pimc_batched(budget=60, paired_rollouts={paired})"
        a, b = make_agent(GAME, spec, seed=9), make_agent(GAME, spec, seed=9)
        for g in states:
            view, mask = g.view(g.current_player), g.legal_mask()
            assert a.act(view, mask, g) == b.act(view, mask, g)
            assert a.decision_details() == b.decision_details()


def test_the_fast_sampler_agrees_with_the_scalar_search_within_sampling_error():
    """Mean returns of every candidate (0 or 1 a world), fast batched vs scalar pimc: within 5 standard errors."""
    states = decision_states({"num_players": 4}, 2, seed=4)
    scalar = make_agent(GAME, f"pimc(budget=240, rollout={ROLLOUT})", seed=1)
    fast = make_agent(GAME, f"pimc_batched(budget=240, rollout={ROLLOUT})", seed=2)
    for g in states:
        me = g.current_player
        candidates = fast.candidates(g.view(me), np.flatnonzero(g.legal_mask()).tolist(), g)
        worlds = max(4, 240 // len(candidates))
        a = scalar.values(g, me, candidates, 240) / worlds
        b = fast.values(g, me, candidates, 240) / worlds
        assert np.all(np.abs(a - b) < 5 * np.sqrt(2 * 0.25 / worlds)), (a, b)


def test_plays_whole_games_as_a_player_and_in_composites():
    for spec in ("pimc_batched(budget=16)", "pimc_batched(budget=16)+heuristic", "heuristic+pimc_batched(budget=16)"):
        agents = [make_agent(GAME, spec, seed=0), make_agent(GAME, "heuristic", seed=1)]
        g = PericoGame(seed=5, num_players=2, target_score=2)
        while not g.is_over:
            p = g.current_player
            g.apply(agents[p].act(g.view(p), g.legal_mask(), g))
        assert sum(g.scores) >= 2


def test_bad_rollouts_are_named_at_the_first_decision():
    g = decision_states({"num_players": 2}, 1)[0]
    agent = make_agent(GAME, "pimc_batched(rollout=pimc)")
    with pytest.raises(ValueError, match="rollout 'pimc' has no batched port in perico; ported agents: heuristic"):
        agent.act(g.view(g.current_player), g.legal_mask(), g)


def test_phases_searches_only_those_and_the_rollout_agent_decides_the_others():
    states = decision_states({"num_players": 4}, 18, seed=2)
    agent = make_agent(GAME, f"pimc_batched(budget=32, phases=discard, rollout={ROLLOUT})", seed=1)
    twin = make_agent(GAME, f"pimc_batched(budget=32, phases=discard, rollout={ROLLOUT})", seed=1).rollout
    assert {g.phase for g in states} == {"knock", "turn", "discard"}
    for g in states:
        view, mask = g.view(g.current_player), g.legal_mask()
        action = agent.act(view, mask, g)
        if g.phase == "discard":
            assert agent.decision_details()["actions"] == np.flatnonzero(mask).tolist()
        else:
            assert agent.decision_details() is None
            assert action == twin.act(view, mask, g)  # the rollout heuristic's own decision, its draws alike


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pimc_batched(phases=turns)", "phases='turns': no phase 'turns'; phases: knock/turn/discard"),
        ("pimc_batched(phases=3)", "phases=3: expected phase names separated by '/'"),
    ],
)
def test_bad_phases_are_named(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(GAME, spec)
