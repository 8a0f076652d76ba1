"""Decisions/s of the batched Mexican heuristic against the scalar one, on the same states.

    .venv/bin/python benchmarks/mexican_batched_heuristic.py [--rows 2048] [--steps 60] [--players 4]
        [--samples 16] [--scalar-rows 64] [--clock cpu|wall] [--out DIR]

The states are heuristic self-play from the same seeds: the batched
``HeuristicOpponent.act`` decides all rows at every step (serial, and on all
of numba's threads), and scalar ``MexicanHeuristicAgent``s (one per row and
seat, on the batched opponent's generators) decide the first ``--scalar-rows``
rows' states in scalar envs replaying the recorded actions (views built
outside the timing); they must choose the same action everywhere. The scalar
heuristic plays out ``samples`` deals in Python per prediction and doubt, so
it runs on fewer rows; both figures are per decision over the same mix of
phases (predictions, doubts, plays). Only the decisions are timed, each side
on its own. ``--clock cpu`` (default) counts this process's CPU time, steadier
on a shared machine; the parallel figure always counts wall time. The speed
of the batched env itself is ``benchmarks/batched_speed.py --games
mexican_poker_v0``. The table goes to the terminal and, as Markdown and JSON,
to the run folder printed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numba
import numpy as np
from tqdm import tqdm

from pokerzoo.agents.batched.mexican_poker import HeuristicOpponent, row_generator
from pokerzoo.agents.mexican_poker import MexicanHeuristicAgent
from pokerzoo.cli.benchmarks import CLOCKS, markdown_table
from pokerzoo.envs import batched, mexican_poker_v0

SEED = 0


def heuristic_rates(config: dict, rows: int, steps: int, samples: int, scalar_rows: int, clock: str) -> dict:
    """Decisions/s of the scalar and the batched heuristic deciding the same states of heuristic self-play."""
    spent = {}
    recorded = np.empty((steps, rows), dtype=np.int64)
    for name, parallel in (("serial", False), ("parallel", True)):
        now = CLOCKS["wall" if parallel else clock]
        opponent = HeuristicOpponent(seed=SEED, samples=samples)
        env = batched.make("mexican_poker", rows, parallel=parallel, copy=False, **config)
        env.reset(seed=0)
        opponent.generators(rows)  # made once, outside the timing
        spent[name] = 0.0
        for t in range(steps):
            start = now()
            actions = opponent.act(env, env.all_rows)
            spent[name] += now() - start
            if parallel and not np.array_equal(actions, recorded[t]):
                raise AssertionError(f"step {t}: the parallel batched heuristic decided differently")
            recorded[t] = actions
            env.step(actions)
    now = CLOCKS[clock]
    spent["scalar"] = 0.0
    for i in range(scalar_rows):
        scalar = mexican_poker_v0.raw_env(**config)
        scalar.reset(seed=i)
        agents = []
        for seat in range(scalar.game.num_players):
            agents.append(MexicanHeuristicAgent(samples=samples))
            agents[-1].rng = row_generator(SEED, i, seat)
        for t in range(steps):
            game = scalar.game
            player = game.current_player
            view, mask = game.view(player), game.legal_mask()
            start = now()
            action = agents[player].act(view, mask)
            spent["scalar"] += now() - start
            if action != recorded[t, i]:
                raise AssertionError(f"row {i}, step {t}: scalar heuristic {action}, batched {recorded[t, i]}")
            scalar.step(action)
            if scalar.game.is_over:
                scalar.reset()
    return {
        "scalar": scalar_rows * steps / spent["scalar"],
        "serial": rows * steps / spent["serial"],
        "parallel": rows * steps / spent["parallel"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2048, help="rows of the batched env")
    parser.add_argument("--steps", type=int, default=60, help="steps of heuristic self-play")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--samples", type=int, default=16, help="play-outs per prediction and doubt")
    parser.add_argument("--scalar-rows", type=int, default=64, help="rows the scalar heuristic replays")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument(
        "--out", type=Path, default=None, help="run folder (default runs/bench/mexican_heuristic_<time>)"
    )
    args = parser.parse_args()
    config = {"num_players": args.players}
    threads = numba.get_num_threads()
    with tqdm(total=1, desc="batched and scalar heuristic, same states", unit="run") as bar:
        scalar_rows = min(args.scalar_rows, args.rows)
        rates = heuristic_rates(config, args.rows, args.steps, args.samples, scalar_rows, args.clock)
        bar.update()
    batched_name = f"HeuristicOpponent.act (batched), N={args.rows}"
    scalar_name = f"MexicanHeuristicAgent.act (scalar), {scalar_rows} rows"
    rows = [
        {"agent": scalar_name, "threads": 1, "decisions/s": rates["scalar"]},
        {"agent": batched_name, "threads": 1, "decisions/s": rates["serial"]},
        {"agent": batched_name, "threads": threads, "decisions/s": rates["parallel"]},
    ]
    for r in rows:
        r["vs scalar"] = f"{r['decisions/s'] / rates['scalar']:.1f}x"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    header = (
        f"mexican_poker num_players={args.players}, samples={args.samples}: the same {args.rows} x {args.steps} "
        f"states of heuristic self-play; Python {platform.python_version()}, numba {numba.__version__}, "
        f"{os.cpu_count()} cores ({threads} numba threads), load {load:.1f}; one-thread figures per {args.clock} "
        "second, the parallel one per wall second"
    )
    text = header + "\n\n" + markdown_table(rows)
    print("\n" + text)
    out = args.out or Path("runs") / "bench" / f"mexican_heuristic_{time.strftime('%Y%m%d_%H%M%S')}"
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.md").write_text(text + "\n")
    (out / "results.json").write_text(json.dumps({"header": header, "rows": rows}, indent=2))
    print(f"\nresults in {out}")


if __name__ == "__main__":
    main()
