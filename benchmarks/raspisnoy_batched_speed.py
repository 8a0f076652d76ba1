"""Batched Raspisnoy poker speed beside the AEC env and OpenSpiel's C++ oh_hell, and the batched heuristic's.

    .venv/bin/python benchmarks/raspisnoy_batched_speed.py [--seconds 2] [--players 4] [--clock cpu|wall]
        [--schedule classic] [--sizes 1 64 1024 8192] [--heuristic-rows 2048] [--out DIR]

Table 1, agent-steps/s of uniformly random legal play with the acting
player's observation and legal mask built at every step:

* ``batched.make("raspisnoy_poker", N)`` for each N, on one thread (the
  serial row loop: what ``NUMBA_NUM_THREADS=1`` gives) and on all of numba's
  threads (``parallel=True``), the actions drawn by the compiled
  ``rng.uniform_legal_actions`` from the env's mask; ``copy=False`` (the env
  hands out its own buffers, as the adapters use it);
* the AEC ``raw_env`` with the same options (``env.last()`` every step);
* OpenSpiel's oh_hell (C++, called from Python) with the same number of
  players, writing the acting player's tensor through its Observer API
  (``make_observation``; oh_hell's observer is the perfect-recall one, 4,644
  floats for 4 players). Its chance nodes (the deal) are not counted.

Table 2, decisions/s of the Raspisnoy heuristic on the same states of
heuristic self-play from the same seeds (by default with the ``single``
schedule, so the rows hold every deal kind and size at once: with
``classic`` they would all be in the same deal): the batched
``HeuristicOpponent.act`` over all rows (serial and parallel), and the
scalar ``HeuristicAgent.act`` on every row's state (its view built outside
the timing), which must choose the same actions; only the decisions are
timed.

``--clock cpu`` (default) counts this process's CPU time, steadier on a shared
machine; the parallel rows always count wall time (CPU time adds the
threads up). The first line says how long loading (or, with an empty
``NUMBA_CACHE_DIR``, compiling) the kernels took. Tables go to the terminal
and, as Markdown and JSON, to the run folder printed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation
from tqdm import tqdm

from pokerzoo.agents.batched.raspisnoy_poker import HeuristicOpponent
from pokerzoo.agents.raspisnoy_poker import HeuristicAgent
from pokerzoo.cli.benchmarks import CLOCKS, _rate, aec_steps_per_second, markdown_table
from pokerzoo.envs import batched, raspisnoy_poker_v0
from pokerzoo.envs.batched import rng


def batched_random_play(n: int, parallel: bool, config: dict) -> Callable[[], int]:
    env = batched.make("raspisnoy_poker", n, parallel=parallel, copy=False, **config)
    env.reset(seed=0)
    words = rng.words_from_seed(1)[None, :].copy()
    actions = np.empty(n, dtype=np.int64)

    def step() -> int:
        rng.uniform_legal_actions(words, env.mask, actions)
        env.step(actions)
        return n

    step()  # the first call loads the action kernel
    return step


def openspiel_observer_play(players: int, seed: int = 0) -> Callable[[], int]:
    game = pyspiel.load_game("oh_hell", {"players": players})
    observation = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    rand = np.random.default_rng(seed)

    def episode() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rand.integers(len(outcomes))][0])
                continue
            observation.set_from(state, state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rand.integers(len(legal))])
            steps += 1
        return steps

    return episode


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


def load_seconds(config: dict) -> float:
    """Seconds to make a batched env, reset it, step it and let the heuristic decide: the kernels' load or compile."""
    start = time.perf_counter()
    for parallel in (False, True):
        env = batched.make("raspisnoy_poker", 2, parallel=parallel, **config)
        env.reset(seed=0)
        env.step(HeuristicOpponent().act(env, env.all_rows))
    return time.perf_counter() - start


def speed_measurements(args: argparse.Namespace, config: dict, threads: int) -> list[tuple[dict, Callable[[], float]]]:
    """(row labels, measure) for every figure of the speed table, in the order they are measured."""
    seconds, clock = args.seconds, args.clock
    out: list[tuple[dict, Callable[[], float]]] = []
    for parallel, count in ((False, 1), (True, threads)):
        for n in args.sizes:
            timer = "wall" if parallel else clock
            measure = lambda n=n, p=parallel, t=timer: _rate(batched_random_play(n, p, config), seconds, t)  # noqa: E731
            out.append(({"engine": f"pokerzoo batched, N={n}", "threads": count}, measure))
    env = raspisnoy_poker_v0.raw_env(**config)
    out.append(
        ({"engine": "pokerzoo raw_env (AEC)", "threads": 1}, lambda: aec_steps_per_second(env, seconds, clock=clock))
    )
    oh_hell = f"openspiel oh_hell, players={args.players} (C++, observer tensor)"
    out.append(
        ({"engine": oh_hell, "threads": 1}, lambda: _rate(openspiel_observer_play(args.players), seconds, clock))
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--schedule", default="classic", help="classic or single")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 64, 1024, 8192], help="batch sizes N")
    parser.add_argument(
        "--heuristic-rows", type=int, default=2048, help="rows (and scalar envs) of the heuristic table"
    )
    parser.add_argument("--heuristic-steps", type=int, default=60, help="steps of the heuristic table")
    parser.add_argument("--heuristic-schedule", default="single", help="schedule of the heuristic table")
    parser.add_argument(
        "--out", type=Path, default=None, help="run folder (default runs/bench/raspisnoy_batched_<time>)"
    )
    args = parser.parse_args()
    config = {"num_players": args.players, "schedule": args.schedule}
    threads = numba.get_num_threads()
    todo = speed_measurements(args, config, threads)
    bar = tqdm(total=2 + len(todo), desc="raspisnoy batched bench", unit="figure")
    bar.set_postfix_str("loading kernels")
    loaded = load_seconds(config)
    bar.update()
    speed = []
    for labels, measure in todo:
        bar.set_postfix_str(f"{labels['engine']}, {labels['threads']} thread(s)")
        speed.append({**labels, "agent-steps/s": measure()})
        bar.update()
    bar.set_postfix_str("heuristics on the same states")
    rows = args.heuristic_rows
    rates = heuristic_rates({**config, "schedule": args.heuristic_schedule}, rows, args.heuristic_steps, args.clock)
    bar.update()
    bar.close()

    for r in speed:
        r["vs oh_hell"] = f"{r['agent-steps/s'] / speed[-1]['agent-steps/s']:.2f}x"  # oh_hell is measured last
    decide = [
        {"agent": "HeuristicAgent.act (scalar)", "threads": 1, "decisions/s": rates["scalar"]},
        {"agent": f"HeuristicOpponent.act (batched), N={rows}", "threads": 1, "decisions/s": rates["serial"]},
        {"agent": f"HeuristicOpponent.act (batched), N={rows}", "threads": threads, "decisions/s": rates["parallel"]},
    ]
    for r in decide:
        r["vs scalar"] = f"{r['decisions/s'] / rates['scalar']:.1f}x"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    header = (
        f"raspisnoy_poker num_players={args.players} schedule={args.schedule}; Python {platform.python_version()}, "
        f"numba {numba.__version__}, {os.cpu_count()} cores ({threads} numba threads), load {load:.1f}; "
        f"one-thread figures per {args.clock} second, the others per wall second; {args.seconds:g} s per figure; "
        f"kernels loaded in {loaded:.1f} s"
    )
    text = "\n\n".join(
        [
            header,
            "Agent-steps/s, random legal play, observation and mask every step",
            markdown_table(speed),
            f"Heuristic decisions/s on the same {rows} x {args.heuristic_steps} states of heuristic self-play "
            f"(schedule={args.heuristic_schedule})",
            markdown_table(decide),
        ]
    )
    print("\n" + text)
    out = args.out or Path("runs") / "bench" / f"raspisnoy_batched_{time.strftime('%Y%m%d_%H%M%S')}"
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.md").write_text(text + "\n")
    (out / "results.json").write_text(
        json.dumps({"header": header, "speed": speed, "heuristic": decide, "load_seconds": loaded}, indent=2)
    )
    print(f"\nresults in {out}")


if __name__ == "__main__":
    main()
