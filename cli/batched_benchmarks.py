"""Speed of the batched engine beside the scalar env and the reference libraries, in one run.

* ``batched_steps_per_second``: agent-steps/s of uniformly random legal play
  on ``batched.make(name, N)``, the observation and the mask of every row built
  at every step by the kernel, the random choice itself compiled
  (``rng.uniform_legal_actions`` over the whole mask), serial or parallel;
* ``openspiel_observer_steps_per_second``: OpenSpiel's C++ game with its
  Observer API (``make_observation`` then ``set_from`` at every decision);
* ``maskable_ppo_collection_rate``: env steps/s of sb3-contrib MaskablePPO's
  ``collect_rollouts`` through ``BatchedVecEnv`` (policy forward passes,
  masks, rollout buffer: everything a training run does between updates);
* ``batched_speed_rows``: the table ``benchmarks/batched_speed.py`` and
  ``pokerzoo bench batched`` print: the batched engine for N in {1, 64, 1024,
  8192} serial (one core) and parallel on 1 and on all threads, beside the
  game's AEC env, PettingZoo's ``texas_holdem_v4`` and OpenSpiel's ``oh_hell``;
* ``scripted_agent_rows``: for a game with a batched scripted agent
  (``agents.batched.batched_agents``), its decisions/s beside the scalar agent's, on the
  same states (``scripted_agent_rates``).

Figures from one run compare with each other, not with other machines.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numba
import numpy as np
import torch
from pettingzoo.classic import texas_holdem_v4
from sb3_contrib import MaskablePPO

from pokerzoo.agents.batched import ported_agents
from pokerzoo.agents.registry import make_agent
from pokerzoo.cli.benchmarks import CLOCKS, _rate, aec_steps_per_second, openspiel_random_play_rate
from pokerzoo.envs import canonical, env_module
from pokerzoo.envs.batched import make, rng
from pokerzoo.envs.batched.core import PARALLEL_MIN_ROWS
from pokerzoo.envs.batched.opponents import PolicyOpponent
from pokerzoo.envs.batched.sb3 import BatchedVecEnv

SIZES = (1, 64, 1024, 8192)


def batched_steps_per_second(
    name: str,
    num_envs: int,
    seconds: float = 2.0,
    *,
    parallel: bool = False,
    threads: int | None = None,
    copy: bool = False,
    clock: str = "wall",
    seed: int = 0,
    options: dict | None = None,
) -> float:
    """Agent-steps/s of random legal play on ``num_envs`` rows (``threads``: numba threads for ``parallel``).

    ``copy=False`` hands the env's buffers back (the kernel still writes every
    row's observation and mask); ``copy=True`` adds the copies ``step`` makes by default.
    """
    env = make(name, num_envs, parallel=parallel, copy=copy, **(options or {}))
    saved = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        env.reset(seed=seed)
        words = rng.words_from_seed(seed + 1)[None, :].copy()
        actions = np.empty(num_envs, dtype=np.int64)

        def one_step() -> int:
            rng.uniform_legal_actions(words, env.mask, actions)
            env.step(actions)
            return num_envs

        for _ in range(3):  # warm-up: load the kernels, touch the buffers
            one_step()
        return _rate(_batch_of(one_step, num_envs), seconds, clock)
    finally:
        numba.set_num_threads(saved)


def _batch_of(step: Callable[[], int], num_envs: int) -> Callable[[], int]:
    """Several steps per timing round when rows are few, so the clock is read rarely."""
    reps = max(1, 4096 // num_envs)

    def steps() -> int:
        return sum(step() for _ in range(reps))

    return steps


def openspiel_observer_steps_per_second(
    name: str = "oh_hell", seconds: float = 2.0, seed: int = 0, clock: str = "wall"
) -> float:
    """OpenSpiel (C++) random play, the acting player's observation built through its Observer API every step.

    The observation is the game's default observer if it has one, else its
    information state (oh_hell's only tensor: ``IIGObservationType(perfect_recall=True)``).
    """
    # Deferred: OpenSpiel is an optional reference library (the dev extra)
    import pyspiel
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(name)
    observation = make_observation(game) or make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    return openspiel_random_play_rate(game, observation.set_from, seconds, seed, clock)


def maskable_ppo_collection_rate(
    name: str,
    num_envs: int,
    *,
    opponents: str = "random",
    n_steps: int = 32,
    rounds: int = 3,
    torch_threads: int | None = 1,
    options: dict | None = None,
    seed: int = 0,
) -> float:
    """Env steps/s (wall) of MaskablePPO's ``collect_rollouts`` through ``BatchedVecEnv`` (no training step).

    ``opponents``: ``"random"`` (uniform random) or ``"snapshot"`` (a frozen copy
    of the learner's own policy, its network run on all waiting rows at once).
    Games with one seat have no opponents and ignore it. ``torch_threads``:
    torch's intra-op threads while collecting (None: torch's default); one
    thread is the default because torch's thread pool collapses on a shared
    machine (measured on the 2-core development machine under load: 46,000
    env steps/s with one thread, 6,700 with two).
    """
    venv = BatchedVecEnv(name, num_envs, seed=seed, **(options or {}))
    model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=num_envs * n_steps, seed=seed, device="cpu")
    if opponents == "snapshot":
        snapshot = PolicyOpponent.snapshot(model)
        venv.seats.opponents = [snapshot]
    elif opponents != "random":
        raise ValueError(f"opponents={opponents!r}: expected 'random' or 'snapshot'")
    saved_threads = torch.get_num_threads()
    if torch_threads is not None:
        torch.set_num_threads(torch_threads)
    try:
        _, callback = model._setup_learn(total_timesteps=num_envs * n_steps * (rounds + 1))
        callback.on_training_start(locals(), globals())
        model.collect_rollouts(venv, callback, model.rollout_buffer, n_rollout_steps=n_steps)  # warm-up
        start = time.perf_counter()
        for _ in range(rounds):
            model.collect_rollouts(venv, callback, model.rollout_buffer, n_rollout_steps=n_steps)
        return rounds * n_steps * num_envs / (time.perf_counter() - start)
    finally:
        torch.set_num_threads(saved_threads)


def batched_speed_rows(
    name: str = "caribbean_stud",
    *,
    sizes: Iterable[int] = SIZES,
    seconds: float = 2.0,
    threads: int | None = None,
    references: bool = True,
    ppo_envs: Iterable[int] = (256, 1024),
    options: dict | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[dict]:
    """The batched table, one row per measurement (see the module docstring); ``threads`` defaults to all.

    Columns: ``agent-steps/s`` is wall-clock; ``per CPU second`` counts this
    process's CPU time instead (steadier on a shared machine; single-thread rows only).
    """
    options = options or {}
    all_threads = threads or numba.config.NUMBA_NUM_THREADS
    module = env_module(name)
    env_name = module.raw_env.metadata["name"]
    rows: list[dict] = []

    def add(engine: str, n: int, threads_used: int | str, wall: float, cpu: float | None = None) -> None:
        row = {"engine": engine, "N": n, "threads": threads_used, "agent-steps/s": wall, "per CPU second": cpu}
        rows.append(row)
        if progress is not None:
            progress(f"{engine} N={n}")

    def both_clocks(measure: Callable[..., float]) -> tuple[float, float]:
        return measure(clock="wall"), measure(clock="cpu")

    def batched(n: int, **kw) -> Callable[..., float]:
        return lambda clock: batched_steps_per_second(name, n, seconds, clock=clock, options=options, **kw)

    for n in sizes:
        add(f"batched {env_name} serial", n, 1, *both_clocks(batched(n)))
        for t in sorted({1, all_threads}):
            add(f"batched {env_name} parallel", n, t, batched(n, parallel=True, threads=t)("wall"))
    add(f"batched {env_name} serial, copy=True", 1024, 1, *both_clocks(batched(1024, copy=True)))
    aec = module.raw_env(**options)
    aec_steps_per_second(aec, min(seconds, 0.5))  # warm-up
    aec_rate = both_clocks(lambda clock: aec_steps_per_second(aec, seconds, clock=clock))
    add(f"pokerzoo {env_name} raw AEC env", 1, 1, *aec_rate)
    if references:
        texas = texas_holdem_v4.raw_env()
        add(
            "pettingzoo texas_holdem_v4 raw",
            1,
            1,
            *both_clocks(lambda clock: aec_steps_per_second(texas, seconds, clock=clock)),
        )
        with contextlib.suppress(ImportError):
            add(
                "openspiel oh_hell (C++, Observer API)",
                1,
                1,
                *both_clocks(lambda clock: openspiel_observer_steps_per_second("oh_hell", seconds, clock=clock)),
            )
    kinds = ("random", "snapshot") if aec.num_players > 1 else ("none (one seat)",)
    for n in ppo_envs:
        for kind in kinds:
            opponents = "snapshot" if kind == "snapshot" else "random"
            rate = maskable_ppo_collection_rate(name, n, opponents=opponents, options=options)
            add(f"MaskablePPO collect_rollouts, BatchedVecEnv {env_name}, opponents: {kind}", n, "torch 1", rate)
    return rows


def _scalar_twins(opponent, name: str, agent_seed: int, row: int, players: int) -> list:
    """The scalar agents deciding as ``opponent`` does in ``row``, one per seat: its ``scalar_twin(row, seat)``
    where it has one (a generator per seat), else the registry's agent seeded as the port seeds that row
    (``agent_seed + row``), one agent for every seat."""
    if hasattr(opponent, "scalar_twin"):
        return [opponent.scalar_twin(row, seat) for seat in range(players)]
    return [make_agent(canonical(name), opponent.name, seed=agent_seed + row)] * players


def scripted_agent_rates(
    name: str,
    rows: int = 1024,
    steps: int = 24,
    *,
    agent: str | None = None,
    variant: Mapping[str, Any] | None = None,
    seconds: float = 2.0,
    clock: str = "cpu",
    threads: int | None = None,
    options: dict | None = None,
    seed: int = 0,
    scalar: bool = True,
) -> dict[str, float]:
    """Decisions/s of a game's batched scripted agent and of its scalar original, deciding the same states.

    ``agent`` names the port (``agents.batched.batched_agents``; default the
    game's first), ``variant`` its constructor's extra arguments. A serial
    batched env plays ``steps`` steps of the batched agent's self-play in
    ``rows`` rows (only its ``act`` timed, on ``clock``), a parallel one
    (``threads``, default all; wall clock) replays them and must decide the
    same, then scalar envs replay the first rows' recorded actions, the
    scalar twins (``_scalar_twins``) timed at every state and required to
    choose the recorded action, until ``seconds`` of its clock are spent (at
    least one row). Each side runs alone, so neither evicts the other's data
    from the caches. Keys: ``serial``, ``parallel``, and with ``scalar``
    (a variant that decides differently from the scalar agent, such as
    Perico's fast sampler, measures without it) ``scalar`` and
    ``scalar_decisions`` (how many the scalar side made).
    """
    options = dict(options or {})
    ports = ported_agents(name)
    cls = ports[agent or next(iter(ports))]
    variant = dict(variant or {})
    agent_seed = seed + 1000
    opponent = cls(seed=agent_seed, **variant)
    spent: dict[str, float] = {}
    recorded = np.empty((steps, rows), dtype=np.int64)
    saved = numba.get_num_threads()
    for kind, parallel in (("serial", False), ("parallel", True)):
        now = CLOCKS["wall" if parallel else clock]
        env = make(name, rows, parallel=parallel, copy=False, **options)
        env.reset(seed=seed)
        opponent.seed(agent_seed)
        if parallel and threads is not None:
            numba.set_num_threads(threads)
        try:
            warm = make(name, rows, parallel=parallel, copy=False, **options)
            warm.reset(seed=seed + 10**6)
            cls(seed=0, **variant).act(warm, warm.all_rows)  # loads the decision kernel
            spent[kind] = 0.0
            for t in range(steps):
                start = now()
                actions = opponent.act(env, env.all_rows)
                spent[kind] += now() - start
                if parallel and not np.array_equal(actions, recorded[t]):
                    raise AssertionError(f"step {t}: the parallel batched agent decided differently")
                recorded[t] = actions
                env.step(actions)
        finally:
            numba.set_num_threads(saved)
    rates = {"serial": rows * steps / spent["serial"], "parallel": rows * steps / spent["parallel"]}
    if not scalar:
        return rates
    now = CLOCKS[clock]
    spent["scalar"] = 0.0
    decisions = 0
    raw_env = env_module(name).raw_env
    opponent.seed(agent_seed)
    for i in range(rows):
        scalar = raw_env(**options)
        scalar.reset(seed=seed + i)
        twins = _scalar_twins(opponent, name, agent_seed, i, scalar.game.num_players)
        for t in range(steps):
            game = scalar.game
            player = game.current_player
            view, mask = game.view(player), game.legal_mask()
            start = now()
            action = twins[player].act(view, mask, game)
            spent["scalar"] += now() - start
            decisions += 1
            if action != recorded[t, i]:
                raise AssertionError(f"row {i}, step {t}: scalar agent {action}, batched {recorded[t, i]}")
            scalar.step(action)
            if scalar.game.is_over:
                scalar.reset()
        if spent["scalar"] >= seconds:
            break
    return {**rates, "scalar": decisions / spent["scalar"], "scalar_decisions": float(decisions)}


def scripted_agent_rows(
    name: str,
    *,
    sizes: Iterable[int] = (64, 1024),
    steps: int = 24,
    seconds: float = 2.0,
    clock: str = "cpu",
    threads: int | None = None,
    options: dict | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[dict]:
    """The scripted-agent table (empty for a game without a batched scripted agent).

    For each port of the game (``agents.batched.batched_agents``) and each of
    its ``benchmark_variants`` (default: its defaults; the first must decide
    as the scalar agent, which is timed on its states): the scalar agent,
    then the batched one serial and on all threads for each N (all threads
    from ``PARALLEL_MIN_ROWS`` rows: fewer decide on the serial loop), with
    the ratio to the scalar agent's decisions/s.
    """
    all_threads = threads or numba.config.NUMBA_NUM_THREADS
    rows: list[dict] = []
    for agent, cls in ported_agents(name).items():
        scalar_rate = None
        for variant in getattr(cls, "benchmark_variants", ({},)):
            label = cls.__name__ + "".join(f", {k}={v!r}" for k, v in variant.items())
            for n in sizes:
                rates = scripted_agent_rates(
                    name, n, steps, agent=agent, variant=variant, seconds=seconds, clock=clock,
                    threads=all_threads, options=options, scalar=scalar_rate is None,
                )  # fmt: skip
                if scalar_rate is None:
                    scalar_rate = rates["scalar"]
                    rows.append(
                        {"agent": f"{agent} (scalar, agents registry)", "N": 1, "threads": 1,
                         "decisions/s": scalar_rate, "clock": clock, "vs scalar": "1.0x",
                         "decisions timed": int(rates["scalar_decisions"])}
                    )  # fmt: skip
                for kind, t, clk in (("serial", 1, clock), ("parallel", all_threads, "wall")):
                    if kind == "parallel" and n < PARALLEL_MIN_ROWS:
                        continue  # fewer rows than this decide on the serial loop anyway
                    rows.append(
                        {"agent": f"{label} (batched, {kind})", "N": n, "threads": t,
                         "decisions/s": rates[kind], "clock": clk, "vs scalar": f"{rates[kind] / scalar_rate:.1f}x",
                         "decisions timed": n * steps}
                    )  # fmt: skip
                if progress is not None:
                    progress(f"{label} N={n}")
    return rows
