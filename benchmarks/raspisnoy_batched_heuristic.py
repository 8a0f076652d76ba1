"""Decisions/s of the batched Raspisnoy heuristic against the scalar one, on the same states.

    .venv/bin/python benchmarks/raspisnoy_batched_heuristic.py [--rows 2048] [--steps 60] [--players 4]
        [--schedule single] [--clock cpu|wall] [--out DIR]

The states are heuristic self-play from the same seeds (by default with the
``single`` schedule, so the rows hold every deal kind and size at once: with
``classic`` they would all be in the same deal): the batched
``HeuristicOpponent.act`` decides all rows at every step (serial, and on all
of numba's threads), and the scalar ``HeuristicAgent.act`` decides every
row's state in scalar envs replaying the recorded actions (its view built
outside the timing); it must choose the same action everywhere. Only the
decisions are timed, each side on its own (neither evicts the other's data
from the caches). ``--clock cpu`` (default) counts this process's CPU time,
steadier on a shared machine; the parallel figure always counts wall time.
The speed of the batched env itself (random play beside the AEC env and
OpenSpiel's oh_hell) is ``benchmarks/batched_speed.py --games raspisnoy_poker_v0``.
The table goes to the terminal and, as Markdown and JSON, to the run folder
printed at the end.
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

from pokerzoo.agents.batched.raspisnoy_poker import HeuristicOpponent
from pokerzoo.agents.raspisnoy_poker import HeuristicAgent
from pokerzoo.cli.benchmarks import CLOCKS, markdown_table
from pokerzoo.envs import batched, raspisnoy_poker_v0


def heuristic_rates(config: dict, rows: int, steps: int, clock: str) -> dict[str, float]:
    """Decisions/s of the scalar and the batched heuristic deciding the same states of heuristic self-play.

    A serial batched env plays ``steps`` steps of heuristic self-play in
    ``rows`` rows (only ``HeuristicOpponent.act`` timed), a parallel one
    replays them from the same seeds, then ``rows`` scalar envs replay the
    recorded actions, the scalar ``HeuristicAgent.act`` timed at every state
    (and required to choose the recorded action). Each side runs alone, so
    neither evicts the other's data from the caches.
    """
    agent, opponent = HeuristicAgent(), HeuristicOpponent()
    spent = {}
    recorded = np.empty((steps, rows), dtype=np.int64)
    for name, parallel in (("serial", False), ("parallel", True)):
        now = CLOCKS["wall" if parallel else clock]
        env = batched.make("raspisnoy_poker", rows, parallel=parallel, copy=False, **config)
        env.reset(seed=0)
        opponent.act(env, env.all_rows)  # the first call loads the decision kernel
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
    for i in range(rows):
        scalar = raspisnoy_poker_v0.raw_env(**config)
        scalar.reset(seed=i)
        for t in range(steps):
            game = scalar.game
            player = game.current_player
            view, mask = game.view(player), game.legal_mask()
            start = now()
            action = agent.act(view, mask)
            spent["scalar"] += now() - start
            if action != recorded[t, i]:
                raise AssertionError(f"row {i}, step {t}: scalar heuristic {action}, batched {recorded[t, i]}")
            scalar.step(action)
            if scalar.game.is_over:
                scalar.reset()
    return {k: rows * steps / v for k, v in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2048, help="rows of the batched env (and scalar envs)")
    parser.add_argument("--steps", type=int, default=60, help="steps of heuristic self-play")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--schedule", default="single", help="single, classic or a deal list")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument(
        "--out", type=Path, default=None, help="run folder (default runs/bench/raspisnoy_heuristic_<time>)"
    )
    args = parser.parse_args()
    config = {"num_players": args.players, "schedule": args.schedule}
    threads = numba.get_num_threads()
    with tqdm(total=1, desc="batched and scalar heuristic, same states", unit="run") as bar:
        rates = heuristic_rates(config, args.rows, args.steps, args.clock)
        bar.update()
    rows = [
        {"agent": "HeuristicAgent.act (scalar)", "threads": 1, "decisions/s": rates["scalar"]},
        {"agent": f"HeuristicOpponent.act (batched), N={args.rows}", "threads": 1, "decisions/s": rates["serial"]},
        {
            "agent": f"HeuristicOpponent.act (batched), N={args.rows}",
            "threads": threads,
            "decisions/s": rates["parallel"],
        },
    ]
    for r in rows:
        r["vs scalar"] = f"{r['decisions/s'] / rates['scalar']:.1f}x"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    header = (
        f"raspisnoy_poker num_players={args.players} schedule={args.schedule}: the same {args.rows} x {args.steps} "
        f"states of heuristic self-play; Python {platform.python_version()}, numba {numba.__version__}, "
        f"{os.cpu_count()} cores ({threads} numba threads), load {load:.1f}; one-thread figures per {args.clock} "
        "second, the parallel one per wall second"
    )
    text = header + "\n\n" + markdown_table(rows)
    print("\n" + text)
    out = args.out or Path("runs") / "bench" / f"raspisnoy_heuristic_{time.strftime('%Y%m%d_%H%M%S')}"
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.md").write_text(text + "\n")
    (out / "results.json").write_text(json.dumps({"header": header, "rows": rows}, indent=2))
    print(f"\nresults in {out}")


if __name__ == "__main__":
    main()
