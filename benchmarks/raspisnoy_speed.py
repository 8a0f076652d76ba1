"""Raspisnoy poker env speed beside PettingZoo's texas_holdem_v4 and OpenSpiel's oh_hell, in one process.

Agent-steps/s of uniformly random legal play through the AEC env with
``env.last()`` every step (raw env and the wrapped ``env()``), for the
``classic`` (whole game) and ``single`` (training) schedules, plus decisions/s
of the bare ``Game``. OpenSpiel's oh_hell (C++) is played the same way from
Python, building the acting player's information-state tensor every step (chance
nodes, i.e. dealing, are not counted as steps), when ``open_spiel`` is installed.

Rates are per second of this process's CPU time (``--clock cpu``, default), so
that a busy shared machine does not distort them, or of wall time (``--clock wall``).

    .venv/bin/python benchmarks/raspisnoy_speed.py [--seconds 3] [--players 4] [--clock cpu|wall]
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable

import numpy as np

from pokerzoo.envs import raspisnoy_poker_v0
from pokerzoo.training.benchmarks import markdown_table

CLOCK: Callable[[], float] = time.process_time


def rate(episode: Callable[[], int], seconds: float) -> float:
    done, start = 0, CLOCK()
    while True:
        done += episode()
        elapsed = CLOCK() - start
        if elapsed >= seconds:
            return done / elapsed


def aec_rate(env, seconds: float, seed: int = 0) -> float:
    """Random legal play through an AEC env, ``env.last()`` every step; counts steps of live agents."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)

    def episode() -> int:
        steps = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            steps += 1
        env.reset()
        return steps

    return rate(episode, seconds)


def game_rate(config: dict, seconds: float) -> float:
    rng = np.random.default_rng(0)
    seeds = iter(range(10**9))

    def episode() -> int:
        game = raspisnoy_poker_v0.Game(seed=next(seeds), **config)
        while not game.is_over:
            legal = np.flatnonzero(game.legal_mask())
            game.apply(int(legal[rng.integers(legal.size)]))
        return len(game.history)

    return rate(episode, seconds)


def openspiel_rate(name: str, seconds: float) -> float:
    import pyspiel

    game = pyspiel.load_game(name)
    rng = np.random.default_rng(0)
    kind = game.get_type()
    tensor = "observation_tensor" if kind.provides_observation_tensor else "information_state_tensor"

    def episode() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            getattr(state, tensor)(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            steps += 1
        return steps

    return rate(episode, seconds)


def main() -> None:
    global CLOCK
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = parser.parse_args()
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    s = args.seconds
    from pettingzoo.classic import texas_holdem_v4

    rows = [
        {
            "env": "pettingzoo texas_holdem_v4",
            "raw": aec_rate(texas_holdem_v4.raw_env(), s),
            "wrapped": aec_rate(texas_holdem_v4.env(), s),
        }
    ]
    name = f"oh_hell(players={args.players})"
    try:
        rows.append(
            {"env": f"openspiel {name} (C++ from Python, tensor per step)", "raw": openspiel_rate(name, s)}
        )
    except ImportError:
        rows.append({"env": "openspiel oh_hell: not installed (pip install open_spiel)"})
    for schedule in ("classic", "single"):
        config = {"num_players": args.players, "schedule": schedule}
        rows.append(
            {
                "env": f"pokerzoo raspisnoy_poker_v0 {args.players}p {schedule}",
                "raw": aec_rate(raspisnoy_poker_v0.raw_env(**config), s),
                "wrapped": aec_rate(raspisnoy_poker_v0.env(**config), s),
                "game": game_rate(config, s),
            }
        )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, "
        f"load {load:.1f}; agent-steps per {args.clock} second, {s:g} s per figure\n"
    )
    print(markdown_table(rows, ["env", "raw", "wrapped", "game"]))


if __name__ == "__main__":
    main()
