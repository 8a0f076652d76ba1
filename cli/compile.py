"""Compile and cache the batched engine's kernels ahead of use: every batched game, its batched scripted agents.

Examples:

    pokerzoo compile                        # every batched game, one process
    pokerzoo compile --jobs 2               # the games shared by two processes (what `make test` runs first)
    pokerzoo compile --games raspisnoy_poker perico

A machine compiles each kernel once and loads it from numba's cache afterwards
(under a second; ``envs/batched/compile.py`` says where the cache lives). The
first compile is minutes of CPU in all (Perico, Raspisnoy and Mexican poker
with their scripted agents take 1-2 minutes each), and every process that
meets a cold cache pays it again: two test workers, or the env runners of a
cluster, would each compile the same kernels. Compiling once beforehand (on an
image build, or before the test suite) spends that time once, shared over
``--jobs`` processes. For each game it builds the serial and the parallel row
loop and each batched scripted agent's (``agents.batched.batched_agents``),
and has each of the game's own scalar scripted agents decide once (those that
run on compiled code, such as Breed the Heifer's ``equity``, compile it
then), then prints the CPU seconds it took and the cache folder.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import numpy as np
from tqdm import tqdm

from pokerzoo.agents.batched import ported_agents
from pokerzoo.cli.arguments import jobs
from pokerzoo.cli.benchmarks import markdown_table
from pokerzoo.envs import canonical, game_class
from pokerzoo.envs.batched import BATCHED_GAMES, make
from pokerzoo.envs.batched.compile import CACHE_DIR
from pokerzoo.envs.batched.core import PARALLEL_MIN_ROWS
from pokerzoo.envs.registry import spec


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", nargs="+", metavar="GAME", help="batched games to compile (default: all)")
    parser.add_argument("--jobs", type=jobs, default=1, help="processes sharing the games (default 1)")


def compile_game(name: str) -> dict:
    """Build ``name``'s serial and parallel row loops and its batched agents' (compiled, or loaded from the cache)."""
    cpu, wall = time.process_time(), time.perf_counter()
    agents = ported_agents(name)
    for parallel in (False, True):
        env = make(name, PARALLEL_MIN_ROWS, parallel=parallel)  # enough rows for the parallel loops to run
        _, mask, _ = env.reset(seed=0)
        env.step(np.array([np.flatnonzero(m)[0] for m in mask]))
        for cls in agents.values():
            cls(seed=0).act(env, env.all_rows)
    decide_once_each(name)
    return {
        "game": name,
        "batched agents": ", ".join(agents) or "-",
        "CPU s": round(time.process_time() - cpu, 1),
        "wall s": round(time.perf_counter() - wall, 1),
    }


def decide_once_each(name: str) -> None:
    """Each of the game's own scalar scripted agents (not ``random``, not the searches) decides the first
    decision of a game: those whose decisions run on compiled kernels load or compile them here."""
    game = game_class(name)(seed=0)
    for constructor in spec(name).agents_module().AGENTS.values():
        constructor(seed=0).act(game.view(game.current_player), game.legal_mask(), game)


def games_to_compile(names: list[str] | None) -> list[str]:
    if not names:
        return list(BATCHED_GAMES)
    out = []
    for name in names:
        game = canonical(name)
        if game not in BATCHED_GAMES:
            raise ValueError(f"{name!r} has no batched kernel; batched games: {', '.join(BATCHED_GAMES)}")
        out.append(game)
    return out


def run(args: argparse.Namespace) -> int:
    games = games_to_compile(args.games)
    rows = []
    with tqdm(total=len(games), desc="compile", unit="game") as bar:
        if args.jobs == 1 or len(games) == 1:
            for game in games:
                rows.append(compile_game(game))
                bar.update()
        else:
            # spawn: numba's threading layer must not be inherited half-started by a fork
            with ProcessPoolExecutor(min(args.jobs, len(games)), mp_context=get_context("spawn")) as pool:
                for row in pool.map(compile_game, games):
                    rows.append(row)
                    bar.update()
    print(markdown_table(rows, fmt="{:,.1f}"))
    print(f"kernels cached in {CACHE_DIR}")
    return 0
