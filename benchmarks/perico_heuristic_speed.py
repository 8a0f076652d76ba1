"""Perico heuristic speed: the scalar agent's decisions in Python and compiled, and the searches that roll out with it.

``PericoHeuristicAgent`` decides by default in the batched engine's compiled
port (``agents.batched.perico.ViewHeuristic``), draw for draw and decision for
decision its Python rule, which ``heuristic(compiled=false)`` still runs. This
times both on the same states (mid-game views of 4-player Perico collected
from heuristic play mixed with random moves), for the full heuristic and for
``SEARCH_ROLLOUT`` (the cheaper one every ``pimc`` and ``ismcts`` rollout
runs), then ``pimc`` and ``ismcts`` with their defaults, their rollout agent
compiled and in Python, on the first states (the same searches: the same
draws, so the same decisions, which the run checks).

    python benchmarks/perico_heuristic_speed.py [--seconds 2] [--search-states 8]

Figures are per process and only comparable within one run (machines are
noisy); CPU time of the process is shown beside wall time. Results go to
``runs/bench/perico-heuristic-<time>/results.json``; the path is printed at the end.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import datetime
from pathlib import Path

import numpy as np
from tqdm import tqdm

from pokerzoo.agents.perico import SEARCH_ROLLOUT, PericoHeuristicAgent
from pokerzoo.agents.registry import make_agent, parse_call
from pokerzoo.envs.perico.game import PericoGame


def collect_states(count: int, seed: int = 0) -> list[PericoGame]:
    """``count`` mid-game positions of 4-player Perico (clones), every phase among them."""
    states: list[PericoGame] = []
    moves = np.random.default_rng(seed)
    agent = PericoHeuristicAgent(seed=seed)
    g = 0
    while len(states) < count:
        game = PericoGame(seed=seed + g)
        g += 1
        while not game.is_over and len(states) < count:
            states.append(game.clone())
            mask = game.legal_mask()
            action = agent.act(game.view(game.current_player), mask)
            game.apply(action if moves.random() < 0.7 else int(moves.choice(np.flatnonzero(mask))))
    return states


def decisions_per_second(agent, states: list[PericoGame], seconds: float) -> tuple[float, float, list[int]]:
    """(decisions per wall second, per CPU second, the first pass's actions) of ``agent`` cycling over ``states``."""
    actions: list[int] = []
    done, wall, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        for game in states:
            action = agent.act(game.view(game.current_player), game.legal_mask(), game)
            if done < len(states):
                actions.append(action)
            done += 1
        if time.perf_counter() - wall >= seconds:
            break
    return done / (time.perf_counter() - wall), done / (time.process_time() - cpu), actions


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per heuristic row (each pass over the states)")
    ap.add_argument("--states", type=int, default=400, help="states the heuristic rows cycle over")
    ap.add_argument("--search-states", type=int, default=8, help="states each search row decides once")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)

    states = collect_states(args.states)
    _, rollout_args = parse_call(SEARCH_ROLLOUT)
    heuristic_rows = [("heuristic", {}), (SEARCH_ROLLOUT, rollout_args)]
    rollout_python = SEARCH_ROLLOUT[:-1] + ", compiled=false)"
    search_rows = [
        (f"{name}, rollout {how}", f"{name}(rollout={spec})" if how == "Python" else name)
        for name in ("pimc", "ismcts")
        for how, spec in (("compiled", SEARCH_ROLLOUT), ("Python", rollout_python))
    ]
    rows = []
    with tqdm(total=2 * len(heuristic_rows) + len(search_rows), desc="perico heuristic speed", unit="row") as bar:
        for label, kwargs in heuristic_rows:
            first = None
            for compiled in (False, True):
                agent = PericoHeuristicAgent(seed=1, compiled=compiled, **kwargs)
                agent.act(states[0].view(states[0].current_player), states[0].legal_mask())  # compile, load
                agent.seed(1)
                wall, cpu, actions = decisions_per_second(agent, states, args.seconds)
                first = actions if first is None else first
                rows.append({"agent": label, "compiled": compiled, "decisions_per_s": wall, "per_cpu_s": cpu,
                             "same_decisions": actions == first})  # fmt: skip
                bar.update()
        first = {}
        for label, spec in search_rows:
            agent = make_agent("perico_v0", spec, seed=1)
            wall, cpu, actions = decisions_per_second(agent, states[: args.search_states], 0.0)
            name = label.split(",")[0]
            first.setdefault(name, actions)
            rows.append({"agent": label, "decisions_per_s": wall, "per_cpu_s": cpu,
                         "same_decisions": actions == first[name]})  # fmt: skip
            bar.update()

    print(f"{'agent':<64} {'decisions/s':>12} {'per CPU s':>10}  same decisions")
    for r in rows:
        label = r["agent"] + ("" if "compiled" not in r else ", compiled" if r["compiled"] else ", Python")
        print(f"{label:<64} {r['decisions_per_s']:>12,.1f} {r['per_cpu_s']:>10,.1f}  {r['same_decisions']}")
    out = Path(args.out or f"runs/bench/perico-heuristic-{datetime.now():%Y%m%d-%H%M%S}")
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps({"args": vars(args), "rows": rows}, indent=2) + "\n")
    print(f"results: {out / 'results.json'}")


if __name__ == "__main__":
    main()
