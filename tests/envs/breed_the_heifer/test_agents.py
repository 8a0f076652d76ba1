"""Breed the Heifer scripted agents: registry, legality, the equity estimate and the betting thresholds."""

import itertools

import numpy as np
import pytest

from pokerzoo.agents import breed_the_heifer as agents
from pokerzoo.agents.breed_the_heifer import CallingStationAgent, EquityAgent, estimate_equity
from pokerzoo.agents.registry import agent_names, make_agent
from pokerzoo.envs.breed_the_heifer.game import BreedTheHeiferGame
from pokerzoo.envs.breed_the_heifer.ranking import ranker
from pokerzoo.envs.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from pokerzoo.envs.engine.cards import ScriptedChance, parse_cards


def play(game: BreedTheHeiferGame, seats) -> np.ndarray:
    while not game.is_over:
        p = game.current_player
        mask = game.legal_mask()
        action = seats[p].act(game.view(p), mask, game)
        assert mask[action], f"{seats[p]} chose an illegal action"
        game.apply(action)
    return game.total_rewards


def test_registry_offers_random_calling_station_and_equity():
    assert agent_names("breed_the_heifer") == ["random", "calling_station", "equity", "pimc", "ismcts", "pimc_batched"]
    composite = make_agent("breed_the_heifer", "equity+calling_station", seed=1)
    # Every decision is a betting decision, so the composite's bidder plays them all.
    g = BreedTheHeiferGame(seed=0, num_players=3)
    assert {"bet"} == g.BIDDING_PHASES and g.phase == "bet"
    assert composite.act(g.view(g.current_player), g.legal_mask(), g) in (CHECK, BET)


def test_calling_station_never_folds_or_bets():
    seats = [CallingStationAgent(seed=i) for i in range(4)]
    for seed in range(5):
        g = BreedTheHeiferGame(seed=seed, num_players=4)
        play(g, seats)
        actions = {e["action"] for e in g.events if e["type"] == "action"}
        assert actions == {"check"}
        assert g.last_outcome["showdown"]


def test_equity_is_legal_and_reproducible():
    def run(seed):
        seats = [EquityAgent(seed=seed, simulations=40), make_agent("breed_the_heifer", "random", seed=3)]
        seats += [CallingStationAgent(), EquityAgent(seed=seed + 1, simulations=40)]
        g = BreedTheHeiferGame(seed=7, num_players=4, stacks=[30, 8, 20, 12], num_hands=3)
        return play(g, seats).tolist(), g.history

    assert run(1) == run(1)


COMPILED_OPTIONS = [
    {},
    {"num_players": 2},
    {"num_players": 3, "wild_pairs": "any_player", "double_ace_flush": True},
    {"num_players": 7, "wild_pairs": "any_player"},
    {"num_players": 6, "stacks": [4, 9, 15, 2, 30, 12], "num_hands": 4, "ante": 2, "small_bet": 1},
]


@pytest.mark.parametrize("options", COMPILED_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_the_compiled_estimate_is_the_python_one_draw_for_draw(options):
    """``EquityAgent`` runs the compiled ``ViewEquity`` by default: on every view of random games (every street,
    folded and not-dealt-in seats, several hands) it returns the Python estimate bit for bit and leaves the
    generator exactly where the Python function leaves it."""
    from pokerzoo.agents.batched.breed_the_heifer import ViewEquity

    checked = set()
    for seed in range(12):
        g = BreedTheHeiferGame(seed=seed, **options)
        moves = np.random.default_rng(seed)
        while not g.is_over:
            view = g.view(g.current_player)
            python, compiled = (np.random.default_rng([seed, len(g.history)]) for _ in range(2))
            for simulations in (1, 13):
                expected = estimate_equity(view, python, simulations)
                assert ViewEquity.for_view(view).estimate(view, compiled, simulations) == expected, (options, seed)
                assert compiled.bit_generator.state == python.bit_generator.state
            checked.add(view.street)
            legal = np.flatnonzero(g.legal_mask())
            staying = legal[legal != FOLD] if moves.random() < 0.9 else legal  # most games reach 7th street
            g.apply(int(moves.choice(staying)))
    assert checked == {3, 4, 5, 6, 7}, checked


def test_the_compiled_agent_plays_the_python_agents_games():
    def run(compiled: bool):
        seats = [EquityAgent(seed=seat, simulations=30, compiled=compiled) for seat in range(4)]
        g = BreedTheHeiferGame(seed=11, num_players=4, stacks=[30, 8, 20, 12], num_hands=4)
        return play(g, seats).tolist(), g.history, [a.last_equity for a in seats]

    assert run(True) == run(False)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [({"simulations": 0}, "simulations=0"), ({"simulations": 2.5}, "simulations=2.5"),
     ({"compiled": 2}, "compiled=2")],
)  # fmt: skip
def test_equity_agent_refuses_bad_arguments(kwargs, words):
    with pytest.raises(ValueError, match=words):
        EquityAgent(**kwargs)
    with pytest.raises(ValueError, match=words):
        make_agent("breed_the_heifer", "equity(" + ",".join(f"{k}={v}" for k, v in kwargs.items()) + ")")


def _exact_seventh_street_equity(view) -> float:
    me = view.player
    opp = 1 - me
    known = set(view.down) | set(view.up[0]) | set(view.up[1])
    unseen = [c for c in range(52) if c not in known]
    rank = ranker(view.double_ace_flush).key
    mine = rank(list(view.down) + list(view.up[me]), view.wild_rank)
    total = 0.0
    count = 0
    for down in itertools.combinations(unseen, 3):
        theirs = rank(list(down) + list(view.up[opp]), view.wild_rank)
        total += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        count += 1
    return total / count


def _to_street(game: BreedTheHeiferGame, street: int) -> None:
    while game.street < street:
        game.apply(CHECK if game.legal_mask()[CHECK] else CALL)


def test_equity_on_seventh_street_matches_exact_enumeration():
    # p0 pairs 9s on 4th street and p1's Kd breeds kings; p0 holds one king down.
    g = BreedTheHeiferGame(
        chance=ScriptedChance(
            shuffles=[parse_cards("Kh 2c 7d 3c 9s 4d 9h Kd 5s 8h Js Qh 6c Tc")], integers=[1]
        ),
        num_players=2,
    )
    _to_street(g, 7)
    view = g.view(0)
    assert view.wild_rank == 11 and len(view.down) == 3
    exact = _exact_seventh_street_equity(view)
    estimate = estimate_equity(view, np.random.default_rng(0), 3000)
    assert abs(estimate - exact) < 4 * np.sqrt(exact * (1 - exact) / 3000) + 1e-9


def test_equity_simulates_the_wild_rule_like_the_game():
    """Against an independent estimate: determinized worlds of the real game, played out passively."""
    # p1 pairs his 4d with the last card of 4th street: a pair is pending,
    # so the first card of 5th street breeds the wild.
    g = BreedTheHeiferGame(
        chance=ScriptedChance(shuffles=[parse_cards("Kh 2c 7d 3c 9s 4d 5c 4h")], integers=[1], seed=4),
        num_players=2,
    )
    _to_street(g, 4)
    view = g.view(1)
    assert view.pair_pending and view.wild_rank == -1
    rng = np.random.default_rng(5)
    shares = []
    for _ in range(700):
        world = g.determinize(1, rng)
        _to_street(world, 8)  # everybody checks to the showdown
        winners = world.last_outcome["pots"][0]["winners"]
        shares.append(1.0 / len(winners) if 1 in winners else 0.0)
    played = float(np.mean(shares))
    estimate = estimate_equity(view, np.random.default_rng(6), 3000)
    sigma = np.sqrt(0.25 / 700 + 0.25 / 3000)
    assert abs(estimate - played) < 4 * sigma


@pytest.mark.parametrize(
    ("equity", "facing", "expected"),
    [
        (0.90, False, BET),
        (0.55, False, CHECK),  # below 1.2 / 2
        (0.80, True, RAISE),  # above 1.5 / 2
        (0.40, True, CALL),  # below the raise threshold, above the pot odds
        (0.05, True, FOLD),  # below the pot odds
    ],
)
def test_equity_thresholds(monkeypatch, equity, facing, expected):
    monkeypatch.setattr(agents, "estimate_equity", lambda view, rng, sims: equity)
    g = BreedTheHeiferGame(chance=ScriptedChance(integers=[1], seed=2), num_players=2)
    if facing:
        g.apply(BET)  # p0 bets 2: p1 must call 2 into a pot of 4 (pot odds 2 / 6)
    p = g.current_player
    assert EquityAgent(seed=0, compiled=False).act(g.view(p), g.legal_mask(), g) == expected


def test_equity_beats_the_calling_station_and_random_heads_up():
    for opponent in ("calling_station", "random"):
        total = 0.0
        for deal in range(40):
            for seat in (0, 1):
                seats = [None, None]
                seats[seat] = EquityAgent(seed=deal, simulations=60)
                seats[1 - seat] = make_agent("breed_the_heifer", opponent, seed=deal)
                g = BreedTheHeiferGame(seed=deal, num_players=2)
                total += play(g, seats)[seat]
        assert total > 0, f"equity lost {total} chips to {opponent} over 80 hands"
