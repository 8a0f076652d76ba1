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
  (``SCRIPTED``), its decisions/s beside its scalar agent's on the same
  states, the second table of the same run.

Figures from one run compare with each other, not with other machines.
"""

from __future__ import annotations

import contextlib
import importlib
import time
from collections.abc import Callable, Iterable

import numba
import numpy as np
import torch
from pettingzoo.classic import texas_holdem_v4
from sb3_contrib import MaskablePPO

from pokerzoo.cli.benchmarks import CLOCKS, _rate, aec_steps_per_second, openspiel_random_play_rate
from pokerzoo.envs import canonical, env_module
from pokerzoo.envs.batched import make, rng
from pokerzoo.envs.batched.core import PARALLEL_MIN_ROWS
from pokerzoo.envs.batched.opponents import PolicyOpponent
from pokerzoo.envs.batched.sb3 import BatchedVecEnv

SIZES = (1, 64, 1024, 8192)
# env id -> (module, class, the variants measured) of a batched scripted agent whose ``scalar_twin(row, seat)`` is
# the scalar agent deciding as it does (the first variant's decisions are checked against the twins')
SCRIPTED: dict[str, tuple[str, str, tuple[dict, ...]]] = {
    "perico_v0": ("pokerzoo.agents.batched.perico", "HeuristicOpponent", ({"sampler": "scalar"}, {"sampler": "fast"})),
}


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


def scripted_agent_rows(
    name: str,
    *,
    rows: int = 512,
    steps: int = 30,
    scalar_rows: int = 24,
    clock: str = "cpu",
    threads: int | None = None,
    options: dict | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[dict]:
    """Decisions/s of the game's batched scripted agent (each variant of ``SCRIPTED``) and of its scalar agent,
    on the same states: heuristic self-play from seeds 0..rows-1.

    Per variant a serial batched env plays ``steps`` steps of self-play in
    ``rows`` rows, the agent deciding every row at every step (only its
    ``act`` timed, per ``clock``), then a parallel env replays them on all
    threads (wall time; it must decide the same). Then ``scalar_rows`` scalar
    envs replay the first variant's recorded actions, the scalar twin of each
    acting seat timed at every decision; it must choose the recorded action.
    Each side runs alone, so neither evicts the other's data from the caches.
    The first row is the seconds it took to load (or compile) the kernels.
    """
    module, cls_name, variants = SCRIPTED[canonical(name)]
    cls = getattr(importlib.import_module(module), cls_name)
    options = options or {}
    all_threads = threads or numba.config.NUMBA_NUM_THREADS
    out: list[dict] = []

    def add(agent: str, n: int, threads_used: int, rate: float) -> None:
        out.append({"agent": agent, "N": n, "threads": threads_used, "decisions/s": rate})
        if progress is not None:
            progress(agent)

    start = time.perf_counter()
    for variant in variants:  # load or compile the decision kernels (serial and parallel)
        for parallel in (False, True):
            warm = make(name, PARALLEL_MIN_ROWS, parallel=parallel, **options)
            warm.reset(seed=0)
            cls(seed=0, **variant).act(warm, warm.all_rows)
    out.append({"agent": "kernels loaded (s)", "N": 0, "threads": 0, "decisions/s": time.perf_counter() - start})
    recorded = None
    for variant in variants:
        label = f"batched {cls_name}({', '.join(f'{a}={b!r}' for a, b in variant.items())})"
        played = np.empty((steps, rows), dtype=np.int64)
        for parallel in (False, True):
            now = CLOCKS["wall" if parallel else clock]
            env = make(name, rows, parallel=parallel, copy=False, **options)
            env.reset(seed=0)
            agent = cls(seed=0, **variant)
            spent = 0.0
            for t in range(steps):
                begin = now()
                actions = agent.act(env, env.all_rows)
                spent += now() - begin
                if parallel and not np.array_equal(actions, played[t]):
                    raise AssertionError(f"{label}, step {t}: the parallel loop decided differently")
                played[t] = actions
                env.step(actions)
            add(label, rows, all_threads if parallel else 1, rows * steps / spent)
        if recorded is None:
            recorded = played
    twins = cls(seed=0, **variants[0])
    now = CLOCKS[clock]
    spent, decided = 0.0, 0
    for r in range(min(scalar_rows, rows)):
        scalar = env_module(name).raw_env(**options)
        scalar.reset(seed=r)
        agents = [twins.scalar_twin(r, p) for p in range(scalar.num_players)]
        for t in range(steps):
            game = scalar.game
            player = game.current_player
            view, mask = game.view(player), game.legal_mask()
            begin = now()
            action = agents[player].act(view, mask)
            spent += now() - begin
            decided += 1
            if action != recorded[t, r]:
                raise AssertionError(f"row {r}, step {t}: scalar agent {action}, batched {recorded[t, r]}")
            scalar.step(action)
            if scalar.game.is_over:
                scalar.reset()
    scalar_rate = decided / spent
    add(f"scalar {type(agents[0]).__name__} (its twin)", 1, 1, scalar_rate)
    for row in out[1:]:
        row["vs scalar"] = f"{row['decisions/s'] / scalar_rate:.1f}x"
    return out
