"""One self-play learner, without files: the batched env, the network and Adam, the league, collection, PPO.

``SelfPlay(cfg)`` builds everything from a loaded training config (engine
batched; with ``critic.privileged`` a ``PrivilegedCritic`` beside the
network, with ``anchor.agent`` that batched agent, asked for its action at
every learner decision, with ``prior.agent`` the prior's batched port, whose
action at every learner decision the network reads and lifts: a residual
policy); ``start()`` begins the games, each ``iterate()`` is one rollout and
one PPO update, and ``state_dict()`` / ``load_state_dict()`` hold everything
that makes the next iteration what it is (the trainer's checkpoints, the
benchmark). No randomness is kept between iterations except in the env's
rows: the collection's and the update's generators, the league members', the
anchor's and the prior's are derived from the run's seed and the iteration's
number, so the same config and the same state give the same numbers, bit for
bit.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numba
import numpy as np
import torch

from pokerzoo.envs import batched, game_class
from pokerzoo.training.config import prior_document
from pokerzoo.training.selfplay import ppo
from pokerzoo.training.selfplay.buffer import DecisionBuffer
from pokerzoo.training.selfplay.collector import LEARNER, Collector
from pokerzoo.training.selfplay.league import League, league_table_options, member_opponent
from pokerzoo.training.selfplay.network import ActorCritic, PrivilegedCritic

# purposes of the derived generators
START, COLLECT, UPDATE, ROW_SEEDS, ANCHOR, PRIOR = 0x5A, 0xC0, 0x0D, 0xE5, 0xA7, 0x9B
COUNTERS = ("timesteps", "updates", "games", "env_steps")


def derived_seed(*entropy: int) -> int:
    return int(np.random.SeedSequence(list(entropy)).generate_state(1, np.uint64)[0] >> 1)


class SelfPlay:
    """The learner of one config (see the module docstring)."""

    def __init__(self, cfg: Mapping[str, Any]):
        self.cfg = cfg
        p = cfg["ppo"]
        threads = cfg["kernel_threads"] or numba.config.NUMBA_NUM_THREADS  # 0: one per core
        if threads > numba.config.NUMBA_NUM_THREADS:
            raise ValueError(
                f"kernel_threads={threads}: numba has {numba.config.NUMBA_NUM_THREADS} threads on this machine "
                "(NUMBA_NUM_THREADS); give at most that many"
            )
        if threads > 1:  # the parallel loops run on numba's threads (process-wide, as torch's threads are)
            numba.set_num_threads(threads)
        # The rows show what the league's policies read (view-only options, ``league.table_options``); the
        # learner reads the first ``observation_size`` entries of each row, the observation of the run's options.
        table = league_table_options(cfg)
        self.env = batched.make(cfg["game"], cfg["n_envs"], parallel=threads > 1, **table)
        env = self.env
        self.observation_size = game_class(cfg["game"])(seed=0, **cfg["options"]).observation_size
        r = prior_document(cfg)  # the prior the policy files keep, its batched port resolved
        self.prior = None if r is None else member_opponent(cfg["game"], table, r["batched"], deterministic=True)
        inputs = self.observation_size + (env.num_actions if self.prior is not None else 0)  # (the prior's one-hot)
        with torch.random.fork_rng():  # the network's initial weights depend on the seed alone
            torch.manual_seed(cfg["seed"])
            self.model = ActorCritic(inputs, env.num_actions, p["net_arch"], p["activation"])
            c = cfg["critic"]
            self.critic = (
                PrivilegedCritic(self.observation_size, env.privileged_size, c["net_arch"], p["activation"])
                if c["privileged"] else None
            )  # fmt: skip
        self.optimizer = ppo.make_optimizer(self.model, ppo.scheduled(p["learning_rate"], 0.0), self.critic)
        self.league = League(cfg["game"], table, cfg["league"])
        a = cfg["anchor"]
        self.anchor = (
            None if a["agent"] is None else member_opponent(cfg["game"], table, a["agent"], deterministic=True)
        )
        self.buffer = DecisionBuffer(
            env.num_envs, env.num_players, self.observation_size, env.num_actions, env.num_envs * p["n_steps"],
            env.privileged_size if self.critic is not None else 0, anchor=self.anchor is not None,
            prior=self.prior is not None,
        )  # fmt: skip
        self.collector = Collector(
            env, self.model, self.league, self.buffer,
            self_play=cfg["league"]["self_play"], mixed=cfg["league"]["mixed"], varied=cfg["league"]["varied"],
            reward_scale=cfg["reward_scale"], critic=self.critic, anchor=self.anchor,
            prior=self.prior, prior_weight=cfg["prior"]["weight"], mixed_members=cfg["league"]["mixed_members"],
            observation_size=self.observation_size,
        )  # fmt: skip
        self.timesteps = 0  # learner decisions collected
        self.updates = 0
        self.games = 0  # games finished, all rows
        self.env_steps = 0  # rows x steps
        self.last: dict[str, float] = {}

    def generator(self, purpose: int, k: int) -> np.random.Generator:
        return np.random.default_rng(derived_seed(self.cfg["seed"], purpose, k))

    @property
    def done_share(self) -> float:
        return self.timesteps / self.cfg["total_timesteps"]

    def start(self) -> None:
        """The first game of every row; row i's seed is derived from the run's seed (then continues, as ``reset``)."""
        base = derived_seed(self.cfg["seed"], ROW_SEEDS)
        self.collector.start([base + i for i in range(self.env.num_envs)], self.generator(START, 0))

    def iterate(self) -> dict[str, float]:
        """One rollout of ``ppo.n_steps`` steps in every row, then one PPO update on the complete decisions."""
        cfg, p, c, k = self.cfg, self.cfg["ppo"], self.cfg["critic"], self.updates
        frozen = k < c["warmup_updates"]  # the critics' warm-up: the actor stays as it is
        wall0, cpu0 = time.perf_counter(), time.process_time()
        self.league.reseed(cfg["seed"], k)
        if self.anchor is not None:
            self.anchor.seed(derived_seed(cfg["seed"], ANCHOR, k))
        if self.prior is not None:
            self.prior.seed(derived_seed(cfg["seed"], PRIOR, k))
        stats = self.collector.collect(p["n_steps"], self.generator(COLLECT, k))
        self.timesteps += stats.decisions
        self.games += stats.games
        self.env_steps += stats.steps
        wall1, cpu1 = time.perf_counter(), time.process_time()
        batch = self.buffer.batch(p["gamma"], p["gae_lambda"])
        done = self.done_share
        figures = ppo.update(
            self.model,
            self.optimizer,
            batch,
            p,
            learning_rate=ppo.scheduled(p["learning_rate"], done),
            ent_coef=ppo.scheduled(p["ent_coef"], done),
            rng=self.generator(UPDATE, k),
            critic=self.critic,
            actor_frozen=frozen,
            critic_learning_rate=None if c["learning_rate"] is None else ppo.scheduled(c["learning_rate"], done),
            anchor_coef=ppo.scheduled(cfg["anchor"]["coef"], done),
            prior_weight=cfg["prior"]["weight"],
        )
        carried = self.buffer.carry()
        self.league.decay()
        seated = self.collector.controller
        self.league.prune(seated[seated != LEARNER])
        self.updates += 1
        wall2, cpu2 = time.perf_counter(), time.process_time()
        self.last = {
            **figures,
            "train/ent_coef_now": ppo.scheduled(p["ent_coef"], done),
            "train/actor_frozen": float(frozen),
            "train/n_updates": self.updates,
            "rollout/decisions": stats.decisions,
            "rollout/carried_decisions": carried,
            "rollout/games": stats.games,
            "time/collect_seconds": wall1 - wall0,
            "time/update_seconds": wall2 - wall1,
            "time/collect_cpu_seconds": cpu1 - cpu0,
            "time/update_cpu_seconds": cpu2 - cpu1,
        }
        return self.last

    # ------------------------------------------------------------------ checkpoints
    def state_dict(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """(plain data, named numpy arrays) of everything but the network and Adam; between iterations only."""
        arrays = {f"env/{k}": v for k, v in self.env.state_arrays().items()}
        arrays |= {f"buffer/{k}": v for k, v in self.buffer.state_dict().items()}
        collector = self.collector.state_dict()
        for key in ("controller", "game_totals", "returns", "pending", "acted"):
            arrays[f"collector/{key}"] = collector.pop(key)
        data = {
            "counters": {k: int(getattr(self, k)) for k in COUNTERS},
            "collector": collector,
            "league": self.league.state_dict(),
        }
        return data, arrays

    def load_state_dict(self, data: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> None:
        def part(prefix: str) -> dict[str, np.ndarray]:
            return {k[len(prefix) :]: v for k, v in arrays.items() if k.startswith(prefix)}

        self.env.load_state_arrays(part("env/"))
        self.buffer.load_state_dict(part("buffer/"))
        self.collector.load_state_dict({**data["collector"], **part("collector/")})
        self.league.load_state_dict(data["league"])
        for k in COUNTERS:
            setattr(self, k, int(data["counters"][k]))
