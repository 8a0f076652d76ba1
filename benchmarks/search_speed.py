"""Search speed per game: the clone + apply + rollout inner loop, ISMCTS iterations/s, decisions/s.

    .venv/bin/python benchmarks/search_speed.py [--seconds 5] [--games perico ...] [--clock cpu]

Four tables, every figure measured in this one run (machines are noisy: compare within a run):

1. ``clone`` and ``determinize`` per game in µs, next to ``copy.deepcopy`` (what every
   game's clone was before search needed it fast) on the same mid-game states;
2. PIMC playouts/s (determinise, clone, apply, roll out to the horizon) and ISMCTS
   iterations/s, with random rollouts and with the game's default rollout policy; for the
   games whose batched kernel loads a scalar game (``envs/batched/loading.py``), also the
   playouts/s of ``pimc_batched`` (1,024 playouts a decision, batched, default rollout only);
3. decisions/s of the search agents documented on the game pages, seated in seat 0
   against the game's best scripted baseline (every decision of the seat, and the
   searched ones: those with more than one candidate);
4. the reference: OpenSpiel's ``ISMCTSBot`` (Python over the C++ ``oh_hell``,
   random rollouts) next to pokerzoo's ISMCTS with random rollouts in Raspisnoy.

Rates count this process's CPU time by default (``--clock wall`` for wall time).
Results go to ``runs/bench/search-<time>/results.json``; the path is printed at the end.
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from datetime import datetime
from pathlib import Path

import numpy as np
from tqdm import tqdm

from pokerzoo.agents.base import CompositeAgent
from pokerzoo.agents.registry import make_agent
from pokerzoo.agents.search import IsmctsAgent, PimcAgent
from pokerzoo.envs import game_class
from pokerzoo.envs.batched.loading import LOADERS

# The table each game is measured at, its best scripted baseline and the search agents on its page.
GAMES = {
    "raspisnoy_poker_v0": {
        "config": {"num_players": 4, "schedule": "single"},
        "baseline": "heuristic",
        "agents": ["pimc", "ismcts(iterations=200)"],
    },
    "mexican_poker_v0": {
        "config": {"num_players": 4},
        "baseline": "heuristic",
        "agents": ["heuristic+pimc(budget=64)", "heuristic+ismcts(iterations=100)"],
    },
    "perico_v0": {
        "config": {"num_players": 4},
        "baseline": "heuristic",
        "agents": [
            "heuristic+pimc(rollout=ppo)", "heuristic+pimc", "heuristic+pimc_batched(budget=512)",
            "heuristic+pimc_batched(budget=2048)", "pimc_batched(budget=512)+heuristic",
        ],
    },
    "breed_the_heifer_v0": {
        "config": {"num_players": 2},
        "baseline": "equity",
        "agents": ["pimc", "pimc(budget=180)", "pimc_batched", "pimc_batched(budget=900)", "pimc_batched(budget=1800)"],
    },
}
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def decision_states(name: str, config: dict, baseline: str, count: int, seed: int = 0) -> list:
    """Games at decisions of seat 0 with a real choice, reached by the baseline playing every seat."""
    cls = game_class(name)
    agent = make_agent(name, baseline, seed=seed)
    states, game_seed = [], seed
    while len(states) < count:
        g = cls(seed=game_seed, **config)
        game_seed += 1
        while not g.is_over and len(states) < count:
            mask = g.legal_mask()
            if g.current_player == 0 and np.count_nonzero(mask) > 1 and len(g.history) % 3 == 0:
                states.append(g.clone())
            g.apply(agent.act(g.view(g.current_player), mask, g))
    return states


def _timed(fn, clock) -> float:
    start = clock()
    fn()
    return clock() - start


def copy_costs(states: list, clock, repeats: int = 20) -> dict[str, float]:
    """µs per clone, deepcopy and determinize on these states."""
    rng = np.random.default_rng(0)
    out = {}
    for label, fn in (
        ("clone", lambda g: g.clone()),
        ("deepcopy", copy.deepcopy),
        ("determinize", lambda g: g.determinize(g.current_player, rng)),
    ):

        def run(fn=fn):
            for _ in range(repeats):
                for g in states:
                    fn(g)

        out[label] = _timed(run, clock) / (repeats * len(states)) * 1e6
    return out


def playout_rates(name: str, states: list, rollout: str, seconds: float, clock) -> dict[str, float]:
    """PIMC playouts/s and ISMCTS iterations/s over the states with one rollout policy."""
    out = {}
    pimc = make_agent(name, f"pimc(budget=16, min_samples=1, rollout={rollout})", seed=0)
    ismcts = make_agent(name, f"ismcts(iterations=32, rollout={rollout})", seed=0)
    for label, agent in (("pimc playouts/s", pimc), ("ismcts iterations/s", ismcts)):
        done, spent, i = 0, 0.0, 0
        while spent < seconds:
            g = states[i % len(states)]
            i += 1
            view, mask = g.view(g.current_player), g.legal_mask()
            start = clock()
            if isinstance(agent, PimcAgent):
                candidates = agent.candidates(view, np.flatnonzero(mask).tolist(), g)
                agent.values(g, view.player, candidates, 16)
                done += agent.last_worlds * len(candidates)
            else:
                agent.search(g, view.player, 32)
                done += agent.last_iterations
            spent += clock() - start
        out[label] = done / spent
    if name in LOADERS and rollout != "random":  # the batched playouts need a batched port of the rollout agent
        out["pimc_batched playouts/s"] = batched_playout_rate(name, states, rollout, seconds, clock)
    return out


def batched_playout_rate(name: str, states: list, rollout: str, seconds: float, clock, budget: int = 1024) -> float:
    """Playouts/s of ``pimc_batched`` with ``budget`` playouts a decision (one batch of worlds x candidates)."""
    agent = make_agent(name, f"pimc_batched(budget={budget}, min_samples=1, rollout={rollout})", seed=0)
    first = states[0]
    agent.act(first.view(first.current_player), first.legal_mask(), first)  # loads (or compiles) the kernels
    done, spent, i = 0, 0.0, 0
    while spent < seconds:
        g = states[i % len(states)]
        i += 1
        view, mask = g.view(g.current_player), g.legal_mask()
        candidates = np.flatnonzero(mask).tolist()
        start = clock()
        agent.values(g, view.player, candidates, budget)
        spent += clock() - start
        done += agent.last_rows
    return done / spent


def decision_rates(name: str, config: dict, baseline: str, spec: str, seconds: float, clock) -> dict[str, float]:
    """decisions/s of ``spec`` in seat 0 against the baseline: all its decisions, and the searched ones.

    One decision is made before timing: a batched search loads (or compiles) its kernels at its first.
    """
    cls = game_class(name)
    agent = make_agent(name, spec, seed=0)
    other = make_agent(name, baseline, seed=1)
    warm = decision_states(name, config, baseline, 1, seed=10_000)[0]
    agent.act(warm.view(warm.current_player), warm.legal_mask(), warm)
    counts = {"all": [0, 0.0], "searched": [0, 0.0]}
    seed = 0
    while counts["all"][1] < seconds:
        g = cls(seed=seed, **config)
        seed += 1
        while not g.is_over and counts["all"][1] < seconds:
            p, mask = g.current_player, g.legal_mask()
            view = g.view(p)
            if p != 0:
                g.apply(other.act(view, mask, g))
                continue
            start = clock()
            action = agent.act(view, mask, g)
            spent = clock() - start
            searcher = agent
            if isinstance(agent, CompositeAgent):
                searcher = agent.bidder if view.phase in g.BIDDING_PHASES else agent.player
            searched = isinstance(searcher, PimcAgent | IsmctsAgent) and np.count_nonzero(mask) > 1
            for key in ("all", "searched") if searched else ("all",):
                counts[key][0] += 1
                counts[key][1] += spent
            g.apply(action)
    return {k: n / t if t else float("nan") for k, (n, t) in counts.items()}


def openspiel_reference(seconds: float, clock) -> float | None:
    """Iterations/s of OpenSpiel's ISMCTSBot on 4-player oh_hell with random rollouts (None if not installed)."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell(players=4)")
    rng = np.random.RandomState(0)
    done, spent = 0, 0.0
    while spent < seconds:
        state = game.new_initial_state()
        while not state.is_terminal() and spent < seconds:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
                continue
            if state.current_player() == 0 and len(state.legal_actions()) > 1:
                bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 32, random_state=rng)
                start = clock()
                bot.step(state)
                spent += clock() - start
                done += 32
            state.apply_action(int(rng.choice(state.legal_actions())))
    return done / spent


def _rate(value: float | None) -> str:
    return "" if value is None else f"{value:,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement (default 5)")
    parser.add_argument("--games", nargs="*", default=None, help="games to measure (default all four)")
    parser.add_argument("--states", type=int, default=40, help="decision states per game (default 40)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    parser.add_argument("--out", default=None, help="run folder (default runs/bench/search-TIME)")
    args = parser.parse_args()
    clock = CLOCKS[args.clock]
    names = [g if g.endswith("_v0") else f"{g}_v0" for g in (args.games or GAMES)]
    unknown = [n for n in names if n not in GAMES]
    if unknown:
        parser.error(f"unknown games {unknown}; measured games: {', '.join(GAMES)}")
    results: dict = {"clock": args.clock, "seconds": args.seconds, "games": {}}
    jobs = sum(3 + len(GAMES[n]["agents"]) for n in names) + 2
    with tqdm(total=jobs, desc="search speed") as bar:
        for name in names:
            facts = GAMES[name]
            states = decision_states(name, facts["config"], facts["baseline"], args.states)
            row = {"config": facts["config"], "copies_us": copy_costs(states, clock)}
            bar.update()
            default_rollout = make_agent(name, "pimc").rollout.name
            row["rollouts"] = {}
            for rollout in ("random", default_rollout):
                row["rollouts"][rollout] = playout_rates(name, states, rollout, args.seconds, clock)
                bar.update()
            row["decisions"] = {}
            for spec in facts["agents"]:
                row["decisions"][spec] = decision_rates(
                    name, facts["config"], facts["baseline"], spec, args.seconds, clock
                )
                bar.update()
            results["games"][name] = row
        if "raspisnoy_poker_v0" in names:
            results["reference"] = {
                "openspiel ISMCTSBot oh_hell(players=4), random rollouts": openspiel_reference(args.seconds, clock),
                "pokerzoo ismcts raspisnoy_poker (4 players, single), random rollouts": results["games"][
                    "raspisnoy_poker_v0"
                ]["rollouts"]["random"]["ismcts iterations/s"],
            }
        bar.update(2)
    print(f"\nper {args.clock} second, {args.seconds:g} s per measurement\n")
    print("| game | clone µs | deepcopy µs | determinize µs | rollout | PIMC playouts/s | ISMCTS iterations/s "
          "| batched PIMC playouts/s |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for name, row in results["games"].items():
        c = row["copies_us"]
        for i, (rollout, rates) in enumerate(row["rollouts"].items()):
            copies = f"{c['clone']:.1f} | {c['deepcopy']:.1f} | {c['determinize']:.1f}" if i == 0 else " | | "
            print(
                f"| {name if i == 0 else ''} | {copies} | {rollout} | {rates['pimc playouts/s']:,.0f} | "
                f"{rates['ismcts iterations/s']:,.0f} | {_rate(rates.get('pimc_batched playouts/s'))} |"
            )
    print("\n| game | agent (seat 0, baseline elsewhere) | decisions/s | searched decisions/s |")
    print("|---|---|---|---|")
    for name, row in results["games"].items():
        for spec, rates in row["decisions"].items():
            print(f"| {name} | `{spec}` | {rates['all']:,.1f} | {rates['searched']:,.1f} |")
    if "reference" in results:
        print("\n| reference | ISMCTS iterations/s |\n|---|---|")
        for label, rate in results["reference"].items():
            print(f"| {label} | {'not installed' if rate is None else f'{rate:,.0f}'} |")
    out = Path(args.out or f"runs/bench/search-{datetime.now():%Y%m%d-%H%M%S}")
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(results, indent=2))
    print(f"\nresults: {out / 'results.json'}")


if __name__ == "__main__":
    main()
