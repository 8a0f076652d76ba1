"""MaskablePPO training of one masked policy per game, with a self-play league, exact resume and reports.

``pokerzoo train configs/<game>/<name>.yaml`` runs ``Trainer``. What it does, and why:

* **one policy for bidding and play**: the learner's seat is a ``SingleSeatEnv``
  whose actions are the game's whole ``Discrete`` space, masked per decision,
  so predictions, bids, raises, knocks and card play are all one network;
* **opponents**: an ``OpponentPool`` per env mixing scripted agents and frozen
  snapshots of the learner (saved every ``opponents.snapshot_every`` steps);
* **parallel envs**: ``n_envs`` envs split over ``workers`` processes (default:
  one per core) by ``WorkerVecEnv``, or all in-process (``vec_env: dummy``);
* **kick-start** (optional, ``pretrain``): imitate a teacher agent in the
  learner's seat before PPO starts;
* **logs**: TensorBoard (``RUN/tb``) and CSV (``RUN/progress.csv``: SB3's
  metrics per rollout, plus ``time/collect_steps_per_s``, env steps per second
  while collecting, and ``time/steps_per_s`` including the updates);
* **checkpoints with exact resume**: every ``checkpoint_every`` steps, at the
  boundary between a PPO update and the next rollout, the trainer saves the
  policy with its optimiser, the global RNG states, every env's full state
  (game in progress, generators, opponents), the last observations, the
  logger's pending values and its own counters, in formats whose loading runs
  no code (``pokerzoo.training.checkpoint``). ``--resume RUN`` after a kill
  rebuilds the model from the config, restores all of it from the newest
  intact checkpoint (skipping, and naming, corrupt or missing ones), truncates
  the logs to the checkpoint, and continues with the very same numbers an
  uninterrupted run would have produced (tested);
* **periodic evaluation** against the baselines through the evaluation harness
  (``pokerzoo.evaluation.tournament``: duplicate deals, paired differences with
  95% intervals), written to ``RUN/evals.csv`` and TensorBoard. Snapshots and
  evaluations run inside a saved-and-restored RNG context, so switching them
  on or off does not change the training itself;
* **final report** (``RUN/final``): the policy (``policy.json`` + ``policy.safetensors``,
  loadable with ``policy:RUN``), a table against every final baseline,
  composites that separate bidding from play (learned bidder + scripted player,
  scripted bidder + learned player) where the game has both kinds of
  decision, throughput and wall time, and the learning-curve plot.

Rewards reach the learner multiplied by ``reward_scale`` (a constant, so the
optimum is unchanged; it only conditions the value loss). Every figure in the
logs and reports is in the game's own units.
"""

from __future__ import annotations

import copy
import math
import os
import shutil
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn as nn
import yaml
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.utils import ConstantSchedule, LinearSchedule
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecEnvWrapper
from tqdm import tqdm

from pokerzoo.agents.policy_file import read_policy, write_policy
from pokerzoo.evaluation.history import to_jsonable
from pokerzoo.training import checkpoint as ckpt
from pokerzoo.training.config import (
    load_config,
    load_run_config,
    resolve_n_envs,
    resolve_workers,
)
from pokerzoo.training.final_report import periodic_evaluation, write_final_report
from pokerzoo.training.imitation import discounted_returns, fit_to_teacher
from pokerzoo.training.opponents import OpponentPool
from pokerzoo.training.policy_export import init_policy_weights, load_policy_weights, policy_document, save_policy
from pokerzoo.training.resume import (
    env_states,
    make_logger,
    prepare_run_folder,
    restore_env_states,
    rng_preserved,
    rng_state,
    set_rng_state,
)
from pokerzoo.training.single_seat import SingleSeatEnv
from pokerzoo.training.vec_env import WorkerVecEnv

__all__ = ["Trainer", "load_config"]


def make_env_fn(cfg: Mapping, snapshots: list[str] | None = None) -> Callable:
    """A picklable factory of one training env (what each worker process builds)."""
    game, options, opp = cfg["game"], dict(cfg["options"]), dict(cfg["opponents"])
    snapshots = list(snapshots or [])

    def make():

        pool = OpponentPool(
            game,
            opp["scripted"],
            self_play=opp["self_play"] if opp["snapshot_every"] else 0.0,
            latest_share=opp["latest_share"],
            max_snapshots=opp["max_snapshots"],
            snapshots=snapshots,
            snapshot_deterministic=opp["snapshot_deterministic"],
        )
        return SingleSeatEnv(game, options, pool, illegal_action="raise")

    return make


def build_vec_env(cfg: Mapping, snapshots: list[str] | None = None) -> VecEnv:
    n = resolve_n_envs(cfg)
    fns = [make_env_fn(cfg, snapshots) for _ in range(n)]
    if cfg["vec_env"] == "dummy":
        venv: VecEnv = DummyVecEnv(fns)
    else:
        for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
            os.environ.setdefault(var, "1")  # the workers are the parallelism
        venv = WorkerVecEnv(fns, resolve_workers(cfg), start_method="forkserver")
    return ScaledReward(venv, cfg["reward_scale"]) if cfg["reward_scale"] != 1.0 else venv


class ScaledReward(VecEnvWrapper):
    """Multiplies the learner's rewards by a constant (``info['episode']`` keeps game units)."""

    def __init__(self, venv: VecEnv, scale: float):
        super().__init__(venv)
        self.scale = float(scale)

    def reset(self):
        return self.venv.reset()

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        return obs, rewards * self.scale, dones, infos


class Trainer:
    """One run in ``run_dir``: ``Trainer(cfg, run_dir).train()`` or ``Trainer.resume(run_dir).train()``."""

    def __init__(self, cfg: dict, run_dir: str | Path, *, verbose: bool = False, progress: bool | None = None):
        self.cfg = cfg
        self.run_dir = Path(run_dir)
        self.verbose = verbose
        self.progress = progress
        self.model = None
        self.venv = None
        self.state: dict[str, Any] = {
            "snapshots": [],
            "wall_seconds": 0.0,
            "collect_seconds": 0.0,
            "collect_steps": 0,
            "resumes": 0,
        }
        self._resume_from: Path | None = None
        self._checkpoint: ckpt.Checkpoint | None = None
        self.skipped_checkpoints: list[tuple[str, str]] = []

    # ------------------------------------------------------------------ set-up
    @classmethod
    def resume(cls, run_dir: str | Path, *, total_timesteps: int | None = None, **kw) -> Trainer:
        run_dir = Path(run_dir)
        cfg = load_run_config(run_dir)
        if total_timesteps is not None:
            cfg["total_timesteps"] = total_timesteps
        trainer = cls(cfg, run_dir, **kw)
        found, trainer.skipped_checkpoints = ckpt.intact_to_resume(run_dir)
        trainer._resume_from = found.path
        trainer._checkpoint = found
        return trainer

    def latest_checkpoint(self) -> Path | None:
        """The newest checkpoint folder with its manifest (not checked further; ``resume`` checks)."""
        for folder in ckpt.candidates(self.run_dir):
            if (folder / ckpt.MANIFEST).is_file():
                return folder
        return None

    def _policy_kwargs(self) -> dict:

        p = self.cfg["ppo"]
        act = {"tanh": nn.Tanh, "relu": nn.ReLU}[p["activation"]]
        arch = p["net_arch"]
        return {
            "net_arch": dict(arch) if isinstance(arch, dict) else {"pi": list(arch), "vf": list(arch)},
            "activation_fn": act,
        }

    def _lr(self):

        lr = self.cfg["ppo"]["learning_rate"]
        return LinearSchedule(lr["start"], lr["end"], 1.0) if isinstance(lr, dict) else ConstantSchedule(lr)

    def ent_coef_at(self, steps: int) -> float:
        ent = self.cfg["ppo"]["ent_coef"]
        if not isinstance(ent, dict):
            return ent
        done = min(max(steps / self.cfg["total_timesteps"], 0.0), 1.0)
        return ent["start"] + done * (ent["end"] - ent["start"])

    def _new_model(self):

        p = self.cfg["ppo"]
        return MaskablePPO(
            "MlpPolicy",
            self.venv,
            learning_rate=self._lr(),
            n_steps=p["n_steps"],
            batch_size=p["batch_size"],
            n_epochs=p["n_epochs"],
            gamma=p["gamma"],
            gae_lambda=p["gae_lambda"],
            clip_range=p["clip_range"],
            ent_coef=self.ent_coef_at(0),
            vf_coef=p["vf_coef"],
            max_grad_norm=p["max_grad_norm"],
            target_kl=p["target_kl"],
            normalize_advantage=p["normalize_advantage"],
            policy_kwargs=self._policy_kwargs(),
            seed=self.cfg["seed"],
            device="cpu",
            verbose=0,
        )

    # ------------------------------------------------------------------ the run
    def train(self) -> dict:
        """Train to ``total_timesteps`` (from the latest checkpoint when resuming); returns the report."""

        torch.set_num_threads(self.cfg["torch_threads"])
        self.run_dir.mkdir(parents=True, exist_ok=True)
        resume_step = None
        if self._checkpoint is not None:
            saved = self._checkpoint.state
            resume_step = saved["num_timesteps"]
            self.state = saved["trainer"]
            self.state["resumes"] += 1
        prepare_run_folder(self.run_dir, self.cfg, resume_step)

        self.venv = build_vec_env(self.cfg, self.state["snapshots"])
        try:
            if resume_step is None:
                self.model = self._new_model()
                if self.cfg["init_from"] is not None:
                    self.init_weights(self.cfg["init_from"])
                if self.cfg["pretrain"]["teacher"] is not None:
                    self.pretrain()
            else:
                self._load_checkpoint(self._checkpoint)
            self.model.set_logger(make_logger(self.run_dir, resume_step, self.verbose))
            if resume_step is not None:
                self.model.logger.name_to_value.update(saved["logger"]["values"])
                self.model.logger.name_to_count.update(saved["logger"]["counts"])
                self.model.logger.name_to_excluded.update(saved["logger"]["excluded"])
            done = self.model.num_timesteps
            remaining = self.cfg["total_timesteps"] - done
            hooks = _Hooks(self)
            if remaining > 0:
                self.model.learn(
                    total_timesteps=remaining,
                    callback=hooks,
                    reset_num_timesteps=resume_step is None,
                    log_interval=1,
                )
            hooks.finish()
            self.model.logger.close()
        except BaseException:  # Ctrl-C or an error: stop the workers at once, not after their current call
            inner = getattr(self.venv, "venv", self.venv)
            (inner.terminate if isinstance(inner, WorkerVecEnv) else self.venv.close)()
            raise
        self.venv.close()
        return self.finish()

    def _load_checkpoint(self, found: ckpt.Checkpoint) -> None:
        """Rebuild the model from the config and put the checkpoint's weights, optimiser and counters in it."""
        saved = found.state
        self.model = self._new_model()
        load_policy_weights(self.model.policy, found.policy, "checkpoint policy")
        self.model.policy.optimizer.load_state_dict(found.optimizer)
        for key, value in found.model.items():
            setattr(self.model, key, value)
        restore_env_states(self.venv, saved["envs"], saved.get("masks"))
        self.model._last_obs = saved["last_obs"]
        self.model._last_episode_starts = saved["last_episode_starts"]
        self.model.ep_info_buffer = saved["ep_info_buffer"]
        self.model.ep_success_buffer = saved["ep_success_buffer"]
        set_rng_state(saved["rng"])

    def init_weights(self, source: str | Path) -> Path:
        """Copy the policy weights of ``source`` into the new model: fine-tuning a trained policy.

        A run folder means its final policy (or, unfinished, its newest
        checkpoint's); a checkpoint folder its ``policy.json``. Only the weights are
        taken: optimiser, schedules and step count start afresh, so a run that
        continues another under a different league or rate is a new run with
        its own report. The policy's observation may be a beginning of this
        run's (options that append pieces): the new entries start with zero
        weights (``policy_export.extra_inputs``), so the run starts as exactly it.
        """

        mine = self.model.policy
        sizes = (int(np.prod(mine.observation_space.shape)), int(mine.action_space.n))
        path = init_policy_weights(mine, source, self.cfg, sizes)
        self.state["init_from"] = str(path)
        return path

    # ------------------------------------------------------------------ imitation before PPO
    def pretrain(self) -> dict:
        """Kick-start the policy by imitating ``pretrain.teacher`` in the learner's seat (before any PPO step).

        Every env records ``samples / n_envs`` of the teacher's decisions (the
        observation, mask and action the learner would have had, and the
        rewards), in parallel in the workers; then the actor is fitted to the
        teacher's actions (masked cross-entropy) and, with ``value``, the critic
        to the discounted returns (in learner reward units). A fresh Adam is
        used, so PPO starts with its own optimiser state. Only a new run does
        this: a resumed run loads its checkpoint.
        """
        p, ppo = self.cfg["pretrain"], self.cfg["ppo"]
        start = time.perf_counter()
        n_envs = resolve_n_envs(self.cfg)
        # Copies: the per-source counts below belong in the report, not in the run's config.
        sources = [
            {"teacher": p["teacher"], "samples": p["samples"], "record": p["record"], "seats": p["seats"]},
            *(dict(x) for x in p["extra_sources"]),
        ]
        data: dict[str, list[np.ndarray]] = {"obs": [], "masks": [], "actions": [], "returns": [], "rewards": []}
        episodes = 0
        for k, source in enumerate(sources):
            per_env = -(-source["samples"] // n_envs)
            # The main source keeps the seeds of runs made before extra sources existed.
            seeds = [_seed_of(self.cfg["seed"], 0xBC, *([k] if k else []), i) for i in range(n_envs)]
            with self._bar(per_env * n_envs, f"imitation {k + 1}/{len(sources)}: recording {source['teacher']}",
                           "decision") as bar:  # fmt: skip
                parts = _call_each(
                    self.venv,
                    "teacher_rollout",
                    [(source["teacher"], per_env, s, source["record"], source["seats"]) for s in seeds],
                    bar.update,
                )
            for d in parts:
                kept = d["recorded"]
                returns = discounted_returns(d["rewards"], d["dones"], ppo["gamma"]) * self.cfg["reward_scale"]
                data["obs"].append(d["obs"][kept])
                data["masks"].append(d["masks"][kept])
                data["actions"].append(d["actions"][kept])
                data["returns"].append(returns[kept])
                data["rewards"].append(d["rewards"])
                episodes += int(d["dones"].sum())
            source["recorded"] = int(sum(d["recorded"].sum() for d in parts))
        obs, masks, actions, returns = (np.concatenate(data[k]) for k in ("obs", "masks", "actions", "returns"))
        collect = time.perf_counter() - start

        batches = p["epochs"] * -(-len(actions) // p["batch_size"])
        with self._bar(batches, f"imitation: fitting {len(actions):,} decisions", "batch") as bar:
            fit = fit_to_teacher(
                self.model.policy,
                obs,
                masks,
                actions,
                returns,
                p,
                vf_coef=ppo["vf_coef"],
                max_grad_norm=ppo["max_grad_norm"],
                progress=bar.update,
            )
        n = len(actions)
        summary = {
            "teacher": p["teacher"],
            "samples": int(n),
            "sources": sources,
            "episodes": episodes,
            "teacher_reward_per_decision": float(np.concatenate(data["rewards"]).mean()),
            "epochs": p["epochs"],
            "agreement": fit["agreement"],
            "value_mse": fit["value_mse"],
            "collect_seconds": round(collect, 1),
            "seconds": round(time.perf_counter() - start, 1),
        }
        self.state["pretrain"] = summary
        self.state["wall_seconds"] += time.perf_counter() - start
        return summary

    def _bar(self, total: int, desc: str, unit: str) -> tqdm:
        """A progress bar for a long step of the run (shown from its first second, as training's own)."""
        return tqdm(
            total=total,
            desc=desc,
            unit=unit,
            disable=(None if self.progress is None else not self.progress),
            dynamic_ncols=True,
            leave=False,
        )

    # ------------------------------------------------------------------ checkpoints and snapshots
    def checkpoint(self) -> Path:
        """Save everything needed to continue exactly from here (called between an update and a rollout)."""
        model = self.model
        steps = model.num_timesteps
        root = self.run_dir / "checkpoints"
        final = root / f"step_{steps:012d}"
        tmp = root / f".tmp_step_{steps:012d}"
        shutil.rmtree(tmp, ignore_errors=True)
        inner = getattr(self.venv, "venv", self.venv)
        state = {
            "num_timesteps": steps,
            "rng": rng_state(),
            "envs": env_states(self.venv),
            "masks": getattr(inner, "_masks", None),
            "last_obs": model._last_obs,
            "last_episode_starts": model._last_episode_starts,
            "ep_info_buffer": model.ep_info_buffer,
            "ep_success_buffer": model.ep_success_buffer,
            "logger": {
                "values": dict(model.logger.name_to_value),
                "counts": dict(model.logger.name_to_count),
                "excluded": dict(model.logger.name_to_excluded),
            },
            "trainer": copy.deepcopy(self.state),
        }
        ckpt.write(tmp, model=model, document=policy_document(self.cfg, steps), state=state)
        return ckpt.publish(tmp, final, self.cfg["keep_checkpoints"])

    def snapshot(self) -> Path:
        """Freeze the current policy into the opponent league."""
        steps = self.model.num_timesteps
        path = save_policy(
            self.model, self.run_dir / "snapshots" / f"step_{steps:012d}.json", policy_document(self.cfg, steps)
        )
        self.state["snapshots"].append(str(path.resolve()))
        keep = self.cfg["opponents"]["max_snapshots"]
        self.state["snapshots"] = self.state["snapshots"][-keep:]
        self.venv.env_method("add_snapshot", str(path.resolve()))
        return path

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, steps: int) -> list[dict]:
        """Periodic evaluation of the current policy against ``eval.baselines``; rows go to evals.csv."""
        rows = periodic_evaluation(self.cfg, self.run_dir, self.model, steps)
        for row in rows:
            self.model.logger.record(f"eval/{row['baseline']}/difference", row["difference"])
            self.model.logger.record(f"eval/{row['baseline']}/learned", row["learned"])
        return rows

    def finish(self) -> dict:
        """Save the final policy and write the final report (``RUN/final``)."""

        final = self.run_dir / "final"
        final.mkdir(parents=True, exist_ok=True)
        if self.model is not None:
            steps = self.model.num_timesteps
            document = policy_document(self.cfg, steps, {"train_summary": self.throughput()})
            save_policy(self.model, final / "policy.json", document)
        else:  # a resumed trainer asked to finish without training: the newest checkpoint's policy
            found = self._checkpoint or ckpt.read(self.latest_checkpoint() or self.run_dir / "checkpoints")
            policy = read_policy(found.policy)
            document = policy_document(self.cfg, found.step, {"train_summary": self.throughput()})
            write_policy(final / "policy.json", {**document, "architecture": policy.document["architecture"]},
                         policy.tensors)  # fmt: skip
        (final / "config.yaml").write_text(yaml.safe_dump(to_jsonable(self.cfg), sort_keys=False))
        return write_final_report(
            self.cfg, self.run_dir, final / "policy.json", self.throughput(), progress=self.progress
        )

    def throughput(self) -> dict:
        s = self.state
        steps = self.model.num_timesteps if self.model is not None else 0
        return {
            "timesteps": int(steps),
            "wall_seconds": round(s["wall_seconds"], 1),
            "collect_seconds": round(s["collect_seconds"], 1),
            "env_steps_per_second_collecting": round(s["collect_steps"] / s["collect_seconds"], 1)
            if s["collect_seconds"] > 0
            else None,
            "env_steps_per_second_overall": round(steps / s["wall_seconds"], 1) if s["wall_seconds"] > 0 else None,
            "n_envs": resolve_n_envs(self.cfg),
            "workers": resolve_workers(self.cfg) if self.cfg["vec_env"] == "subproc" else 0,
            "vec_env": self.cfg["vec_env"],
            "resumes": s["resumes"],
            "pretrain": s.get("pretrain"),
            "init_from": s.get("init_from"),
        }


def _seed_of(*entropy: int) -> int:
    return int(np.random.SeedSequence(list(entropy)).generate_state(1, np.uint64)[0] >> 1)


def _call_each(
    venv: VecEnv, method: str, args_per_env: list[tuple], progress: Callable[[int], None] | None = None
) -> list[Any]:
    """Call ``method`` on every env with its own arguments (in parallel where the envs live in workers).

    ``progress``, when given, is passed to the method (as ``progress=``) and hears from the workers.
    """
    inner = getattr(venv, "venv", venv)
    if isinstance(inner, WorkerVecEnv):
        return inner.call_each(method, args_per_env, progress)
    extra = {} if progress is None else {"progress": progress}
    return [inner.env_method(method, *args, indices=[i], **extra)[0] for i, args in enumerate(args_per_env)]


class _Hooks(BaseCallback):
    """Everything the trainer does between an update and the next rollout, in a fixed order.

    At ``on_rollout_start`` the previous update is complete and nothing has been
    sampled yet: the one point where model, envs and RNGs form a consistent state.
    Order: entropy coefficient, snapshot, evaluation, checkpoint (so a checkpoint
    holds the league and the logs of its own step).
    """

    def __init__(self, trainer: Trainer):
        super().__init__(verbose=0)
        self.trainer = trainer
        self._t_rollout = 0.0
        self._t_start = 0.0
        self._last_steps = 0
        self._bar = None

    def _on_training_start(self) -> None:

        t = self.trainer
        self._t_start = time.perf_counter()
        self._wall0 = t.state["wall_seconds"]
        self._last_steps = self.model.num_timesteps
        self._bar = tqdm(
            total=t.cfg["total_timesteps"],
            initial=self.model.num_timesteps,
            unit="step",
            desc=f"train {t.cfg['name']}",
            disable=(None if t.progress is None else not t.progress),
            dynamic_ncols=True,
            leave=False,
        )
        self._next = {
            "snapshot": self._after(t.cfg["opponents"]["snapshot_every"] if t.cfg["opponents"]["self_play"] else 0),
            "eval": self._first_eval(),
            "checkpoint": self._after(t.cfg["checkpoint_every"]),
        }

    def _first_eval(self) -> float:
        ev = self.trainer.cfg["eval"]
        if ev["every"] and ev["at_start"] and self.model.num_timesteps == 0:
            return 0
        return self._after(ev["every"])

    def _after(self, every: int) -> float:
        if not every:
            return math.inf
        return (self.model.num_timesteps // every + 1) * every

    def _on_rollout_start(self) -> None:
        t = self.trainer
        n = self.model.num_timesteps
        t.state["wall_seconds"] = self._wall0 + time.perf_counter() - self._t_start
        self.model.ent_coef = t.ent_coef_at(n)
        if n >= self._next["snapshot"]:
            with rng_preserved():
                t.snapshot()
            self._next["snapshot"] = self._after(t.cfg["opponents"]["snapshot_every"])
        if n >= self._next["eval"]:
            with rng_preserved():
                t.evaluate(n)
            self._next["eval"] = self._after(t.cfg["eval"]["every"])
        if n >= self._next["checkpoint"]:
            t.checkpoint()
            self._next["checkpoint"] = self._after(t.cfg["checkpoint_every"])
        self._t_rollout = time.perf_counter()
        self._steps_rollout = n

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        t = self.trainer
        n = self.model.num_timesteps
        dt = time.perf_counter() - self._t_rollout
        t.state["collect_seconds"] += dt
        t.state["collect_steps"] += n - self._steps_rollout
        wall = self._wall0 + time.perf_counter() - self._t_start
        self.logger.record("time/collect_steps_per_s", round((n - self._steps_rollout) / max(dt, 1e-9), 1))
        self.logger.record("time/steps_per_s", round(n / max(wall, 1e-9), 1))
        self.logger.record("time/wall_seconds", round(wall, 1))
        self.logger.record("train/ent_coef_now", self.model.ent_coef)
        if self._bar is not None:
            self._bar.update(n - self._last_steps)
        self._last_steps = n

    def finish(self) -> None:
        """After ``learn``: the final checkpoint (so ``finish`` can be redone) and the tallies."""
        t = self.trainer
        if self._bar is not None:
            self._bar.close()
        if self._t_start:
            t.state["wall_seconds"] = self._wall0 + time.perf_counter() - self._t_start
        # t.model, not self.model: a resume with nothing left to train never starts learn() (no callback init).
        if t.latest_checkpoint() is None or t.latest_checkpoint().name != f"step_{t.model.num_timesteps:012d}":
            t.checkpoint()
