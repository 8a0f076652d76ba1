"""One RLlib training run in a run folder: the MaskablePPO trainer's layout, RLlib's PPO underneath.

``RllibTrainer(cfg, run_dir, env_runners=N, address=ADDR).train()`` (what
``pokerzoo train CONFIG --backend rllib`` runs) or ``RllibTrainer.resume(run_dir).train()``.
Between two PPO iterations (``algo.train()``: sample, then update), in the
MaskablePPO trainer's order, it takes a snapshot of the learner into the
league, evaluates through the evaluation harness and writes a checkpoint.
The run folder gets what the MaskablePPO trainer writes: ``config.yaml``,
``progress.csv`` and ``tb/`` (SB3's logger: the same CSV columns where a value
exists in both, ``time/total_timesteps`` being learner decisions),
``evals.csv``, ``checkpoints/``, ``snapshots/`` (policy files), ``final/``
(``policy.json`` + ``policy.safetensors``, ``report.md``/``report.json`` and the
learning curve, by ``training.final_report``); plus ``rllib.json`` (the backend
and its settings, which ``--resume`` reads) and ``rllib/`` (RLlib's own log dir,
where its ``~/ray_results`` would be).

**Checkpoints without pickles.** RLlib's ``Algorithm.save_to_path`` writes
``class_and_ctor_args.pkl`` and the components' state as pickles (cloudpickle;
``use_msgpack`` still pickles the constructor and, through msgpack-numpy, object
arrays), and ``restore_from_path`` unpickles them. This trainer never writes or
reads those files. A checkpoint ``checkpoints/step_<N>/`` holds RLlib's state as
``Algorithm.get_state()`` returns it (the learner group's modules and Adam
state, the env runners' counters and connector states, the metrics logger
that drives the schedules), which is plain data (arrays, numbers, strings),
saved as ``state.pt`` and read with ``torch.load(weights_only=True)``; the
learner's policy as a policy file (``policy.json``, what ``policy:RUN`` plays
while the run is unfinished); and ``checkpoint.json`` (format, step, SHA-256 of
each file, written last). ``--resume`` rebuilds the algorithm from
``config.yaml`` and ``rllib.json`` and puts that state back with
``Algorithm.set_state``; the league's snapshots come back from the snapshot
policy files. Unlike the MaskablePPO trainer's, the resume is not bit-exact:
the envs start fresh games (RLlib's env runners keep episodes in flight that
its state does not hold).
"""

from __future__ import annotations

import copy
import json
import logging
import os
import shutil
import time
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import torch
import yaml
from ray.rllib.algorithms.ppo import PPO, PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from tqdm import tqdm

from pokerzoo.agents.policy_file import read_policy, sha256_of, write_policy
from pokerzoo.envs import game_class
from pokerzoo.evaluation.distributed import connect
from pokerzoo.evaluation.history import to_jsonable
from pokerzoo.training import checkpoint as ckpt
from pokerzoo.training.config import baseline_deals, baseline_spec, load_config
from pokerzoo.training.final_report import evaluate_pair, write_final_report
from pokerzoo.training.policy_export import (
    init_policy_weights,
    load_policy_weights,
    mlp_architecture,
    policy_document,
)
from pokerzoo.training.resume import append_rows, make_logger, prepare_run_folder
from pokerzoo.training.rllib import settings
from pokerzoo.training.rllib.checkpoint import FILES, FORMAT, latest_checkpoint, read
from pokerzoo.training.rllib.env import LEARNER, SAMPLE_SECONDS, LeagueEnv, TimedEnvRunner, module_of, snapshot_module
from pokerzoo.training.rllib.modules import ActorCritic, MaskedMLPModule

logging.getLogger("ray.rllib").setLevel(logging.ERROR)  # its notes on the API stack are not the user's business

BACKEND_FILE = "rllib.json"
NET_PREFIX = "net."  # the module's torch attribute holding the ActorCritic


class RunPPO(PPO):
    """RLlib's PPO with its log dir in the run folder (``Trainable`` would make one in ``~/ray_results``)."""

    logdir: ClassVar[str] = ""

    def _setup_logdir(self) -> None:
        self._logdir = RunPPO.logdir or os.path.join(os.getcwd(), "rllib")
        os.makedirs(self._logdir, exist_ok=True)


def algorithm_config(cfg: dict, env_runners: int, env_source: str) -> PPOConfig:
    """The PPO config a training config maps to (``settings`` says what maps to what)."""
    p = cfg["ppo"]
    total = cfg["total_timesteps"]
    modules = {LEARNER: RLModuleSpec(module_class=MaskedMLPModule, model_config=settings.model_config(cfg))}
    if settings.uses_snapshots(cfg):
        det = cfg["opponents"]["snapshot_deterministic"]
        for k in range(cfg["opponents"]["max_snapshots"]):
            modules[snapshot_module(k)] = RLModuleSpec(
                module_class=MaskedMLPModule, model_config=settings.model_config(cfg, det)
            )
    runner_cls: type = TimedEnvRunner
    if env_source == "batched":
        # Deferred: the batched source imports the batched engine (numba) only when asked for.
        from pokerzoo.training.rllib.batched import BatchedEnvRunner

        runner_cls = BatchedEnvRunner
    config = (
        PPOConfig()
        .environment(env=LeagueEnv, env_config=settings.env_config(cfg), disable_env_checking=True)
        .env_runners(
            num_env_runners=env_runners,
            num_envs_per_env_runner=settings.envs_per_runner(cfg, env_runners),
            rollout_fragment_length=p["n_steps"],
            episodes_to_numpy=False,
            env_runner_cls=runner_cls,
        )
        .training(
            train_batch_size_per_learner=p["n_steps"] * cfg["n_envs"],
            minibatch_size=p["batch_size"],
            num_epochs=p["n_epochs"],
            lr=settings.schedule(p["learning_rate"], total),
            entropy_coeff=settings.schedule(p["ent_coef"], total),
            gamma=p["gamma"],
            lambda_=p["gae_lambda"],
            clip_param=p["clip_range"],
            vf_clip_param=float("inf"),
            vf_loss_coeff=p["vf_coef"],
            grad_clip=p["max_grad_norm"],
            grad_clip_by="global_norm",
            use_kl_loss=False,
        )
        .multi_agent(policies=set(modules), policy_mapping_fn=module_of, policies_to_train=[LEARNER])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=modules))
        .learners(num_learners=0)
        .debugging(seed=cfg["seed"], log_level="ERROR")
        .reporting(metrics_num_episodes_for_smoothing=100)
    )
    config.algo_class = RunPPO
    return config


class RllibTrainer:
    """See the module docstring."""

    def __init__(
        self,
        cfg: dict,
        run_dir: str | Path,
        *,
        env_runners: int = 0,
        address: str | None = None,
        env_source: str = "aec",
        verbose: bool = False,
        progress: bool | None = None,
    ):
        settings.check(cfg, env_runners, env_source)
        self.cfg = cfg
        self.run_dir = Path(run_dir)
        self.env_runners = env_runners
        self.address = address
        self.env_source = env_source
        self.verbose = verbose
        self.progress = progress
        self.algo: PPO | None = None
        self.logger = None
        self.state: dict[str, Any] = {
            "steps": 0,  # learner decisions sampled
            "env_steps": 0,
            "iterations": 0,
            "snapshots": [],  # [{"slot": k, "path": policy file}], oldest first
            "snapshots_taken": 0,
            "wall_seconds": 0.0,
            "collect_seconds": 0.0,
            "collect_steps": 0,
            "resumes": 0,
        }
        self._checkpoint: ckpt.Checkpoint | None = None
        self._resume_state: dict | None = None
        self.skipped_checkpoints: list[tuple[str, str]] = []

    # ------------------------------------------------------------------ set-up
    @classmethod
    def is_rllib_run(cls, run_dir: str | Path) -> bool:
        return (Path(run_dir) / BACKEND_FILE).is_file()

    @classmethod
    def resume(
        cls,
        run_dir: str | Path,
        *,
        total_timesteps: int | None = None,
        env_runners: int | None = None,
        address: str | None = None,
        **kw: Any,
    ) -> RllibTrainer:
        """Continue the run in ``run_dir`` from its newest intact checkpoint (``env_runners``: None keeps the run's)."""
        run_dir = Path(run_dir)
        if not (run_dir / "config.yaml").is_file():
            raise FileNotFoundError(f"{run_dir} is not a training run folder (no config.yaml)")
        if not cls.is_rllib_run(run_dir):
            raise ValueError(f"{run_dir} is not an RLlib run (no {BACKEND_FILE}); resume it without --backend rllib")
        backend = json.loads((run_dir / BACKEND_FILE).read_text())
        cfg = load_config(yaml.safe_load((run_dir / "config.yaml").read_text()))
        if total_timesteps is not None:
            cfg["total_timesteps"] = total_timesteps
        runners = backend["env_runners"] if env_runners is None else env_runners
        trainer = cls(cfg, run_dir, env_runners=runners, address=address, env_source=backend["env_source"], **kw)
        found, trainer.skipped_checkpoints = ckpt.intact_to_resume(run_dir, read)
        trainer._checkpoint = found
        return trainer

    # ------------------------------------------------------------------ the run
    def train(self) -> dict:
        """Train to ``total_timesteps`` learner decisions (from the checkpoint when resuming); the final report."""
        torch.set_num_threads(self.cfg["torch_threads"])
        self.run_dir.mkdir(parents=True, exist_ok=True)
        resume_step = None
        if self._checkpoint is not None:
            resume_step = self._checkpoint.step
            self.state = copy.deepcopy(self._checkpoint.state["trainer"])
            self.state["resumes"] += 1
        prepare_run_folder(self.run_dir, self.cfg, resume_step)
        (self.run_dir / BACKEND_FILE).write_text(
            json.dumps({"backend": "rllib", "env_runners": self.env_runners, "env_source": self.env_source}) + "\n"
        )
        private = {} if self.address else {"num_cpus": _local_cpus(self.env_runners)}
        ray, started = connect(self.address, "--address", **private)
        try:
            self._build()
            if resume_step is not None:
                self._restore(self._checkpoint)
            elif self.cfg["init_from"] is not None:
                self.init_weights(self.cfg["init_from"])
            self.logger = make_logger(self.run_dir, resume_step, self.verbose)
            self._loop()
            self.logger.close()
        finally:
            if self.algo is not None:
                self.algo.stop()
            if started:
                ray.shutdown()
        return self.finish()

    def _build(self) -> None:
        RunPPO.logdir = str((self.run_dir / "rllib").resolve())
        self.algo = algorithm_config(self.cfg, self.env_runners, self.env_source).build_algo()

    def _loop(self) -> None:
        cfg, s = self.cfg, self.state
        every = {
            "snapshot": cfg["opponents"]["snapshot_every"] if settings.uses_snapshots(cfg) else 0,
            "eval": cfg["eval"]["every"],
            "checkpoint": cfg["checkpoint_every"],
        }
        nxt = {k: _after(s["steps"], v) for k, v in every.items()}
        if every["eval"] and cfg["eval"]["at_start"] and s["steps"] == 0:
            nxt["eval"] = 0
        start, wall0 = time.perf_counter(), s["wall_seconds"]
        bar = tqdm(total=cfg["total_timesteps"], initial=min(s["steps"], cfg["total_timesteps"]), unit="step",
                   desc=f"train {cfg['name']} (rllib)", disable=(None if self.progress is None else not self.progress),
                   dynamic_ncols=True, leave=False)  # fmt: skip
        try:
            while True:
                n = s["steps"]
                s["wall_seconds"] = wall0 + time.perf_counter() - start
                if n >= cfg["total_timesteps"]:
                    break
                if n >= nxt["snapshot"]:
                    self.snapshot()
                    nxt["snapshot"] = _after(n, every["snapshot"])
                if n >= nxt["eval"]:
                    self.evaluate(n)
                    nxt["eval"] = _after(n, every["eval"])
                if n >= nxt["checkpoint"]:
                    self.checkpoint()
                    nxt["checkpoint"] = _after(n, every["checkpoint"])
                result = self.algo.train()
                self._record(result, wall0 + time.perf_counter() - start)
                bar.update(min(s["steps"], cfg["total_timesteps"]) - min(n, cfg["total_timesteps"]))
        finally:
            bar.close()
        s["wall_seconds"] = wall0 + time.perf_counter() - start
        latest = latest_checkpoint(self.run_dir)
        if latest is None or latest.name != f"step_{s['steps']:012d}":
            self.checkpoint()

    def _record(self, result: dict, wall: float) -> None:
        """One iteration's numbers into the state and progress.csv / TensorBoard (game units)."""
        s, runners = self.state, result.get("env_runners", {})
        learned = int(runners.get("num_module_steps_sampled", {}).get(LEARNER, 0))
        env_steps = int(runners.get("num_env_steps_sampled", 0))
        # Seconds in sample(), summed over the env runners, which sample side by side.
        sampling = float(runners.get(SAMPLE_SECONDS, 0.0)) / max(self.env_runners, 1)
        s["steps"] += learned
        s["env_steps"] += env_steps
        s["iterations"] += 1
        s["collect_seconds"] += sampling
        s["collect_steps"] += env_steps
        stats = result.get("learners", {}).get(LEARNER, {})
        returns = runners.get("module_episode_returns_mean", {}).get(LEARNER)
        lengths = runners.get("agent_steps", {}).get(LEARNER)
        log = self.logger.record
        if returns is not None:
            log("rollout/ep_rew_mean", float(returns) / self.cfg["reward_scale"])
        if lengths is not None:
            log("rollout/ep_len_mean", float(lengths))
        for key, name in (("policy_loss", "train/policy_gradient_loss"), ("vf_loss", "train/value_loss"),
                          ("vf_explained_var", "train/explained_variance"),
                          ("default_optimizer_learning_rate", "train/learning_rate"),
                          ("curr_entropy_coeff", "train/ent_coef_now")):  # fmt: skip
            if key in stats:
                log(name, float(stats[key]))
        if "entropy" in stats:
            log("train/entropy_loss", -float(stats["entropy"]))
        log("time/iterations", s["iterations"])
        log("time/env_steps", s["env_steps"])
        log("time/collect_steps_per_s", round(env_steps / max(sampling, 1e-9), 1))
        log("time/steps_per_s", round(s["steps"] / max(wall, 1e-9), 1))
        log("time/wall_seconds", round(wall, 1))
        log("time/total_timesteps", s["steps"])
        self.logger.dump(s["steps"])

    # ------------------------------------------------------------------ weights
    def learner_net(self) -> ActorCritic:
        """A copy of the learner module's network (on the CPU, in the driver)."""
        weights = self.algo.learner_group.get_weights(module_ids=[LEARNER])[LEARNER]
        net = _empty_net(self.cfg)
        net.load_state_dict({k[len(NET_PREFIX):]: torch.as_tensor(np.asarray(v)) for k, v in weights.items()})
        return net

    def _set_module_weights(self, module_id: str, net: ActorCritic) -> None:
        weights = {NET_PREFIX + k: v.detach().cpu().numpy() for k, v in net.state_dict().items()}
        self.algo.learner_group.set_weights({module_id: weights})
        self.algo.env_runner_group.sync_weights(
            from_worker_or_learner_group=self.algo.learner_group, policies=[module_id], inference_only=True
        )

    def save_policy(self, path: Path, steps: int, extra: dict | None = None, net: ActorCritic | None = None) -> Path:
        net = net or self.learner_net()
        document = {**policy_document(self.cfg, steps, extra), "architecture": mlp_architecture(net)}
        tensors = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in net.state_dict().items()}
        return write_policy(path, document, tensors)

    def init_weights(self, source: str | Path) -> Path:
        """Start the learner from the policy file of ``source`` (a policy, a checkpoint or a run folder); its
        observation may be a beginning of this run's (``policy_export.extra_inputs``: zero weights for the rest)."""
        net = _empty_net(self.cfg)
        game = game_class(self.cfg["game"])(seed=0, **self.cfg["options"])
        path = init_policy_weights(net, source, self.cfg, (game.observation_size, game.num_actions))
        self._set_module_weights(LEARNER, net)
        self.state["init_from"] = str(path)
        return path

    # ------------------------------------------------------------------ snapshots, evaluations, checkpoints
    def snapshot(self) -> Path:
        """Freeze the learner into the next snapshot slot (oldest replaced) and tell every env the league."""
        s, steps = self.state, self.state["steps"]
        slots = self.cfg["opponents"]["max_snapshots"]
        slot = s["snapshots_taken"] % slots
        net = self.learner_net()
        path = self.save_policy(self.run_dir / "snapshots" / f"step_{steps:012d}.json", steps, net=net)
        self._set_module_weights(snapshot_module(slot), net)
        kept = [x for x in s["snapshots"] if x["slot"] != slot]
        s["snapshots"] = [*kept, {"slot": slot, "path": str(path.resolve())}]
        s["snapshots_taken"] += 1
        self._tell_league()
        return path

    def _tell_league(self) -> None:
        filled = [x["slot"] for x in self.state["snapshots"]]
        self.algo.env_runner_group.foreach_env_runner(lambda runner: _set_league(runner, filled))

    def evaluate(self, steps: int) -> list[dict]:
        """Periodic evaluation of the learner against ``eval.baselines``; rows go to evals.csv and the logs."""
        e = self.cfg["eval"]
        path = self.save_policy(self.run_dir / "evals" / f"step_{steps:012d}.json", steps)
        rows = []
        for baseline in e["baselines"]:
            result = evaluate_pair(self.cfg, f"policy:{path.resolve()}", baseline_spec(baseline),
                                   baseline_deals(baseline, e["deals"]), workers=e["workers"])  # fmt: skip
            row = {"timesteps": steps, **result["row"]}
            rows.append(row)
            self.logger.record(f"eval/{row['baseline']}/difference", row["difference"])
            self.logger.record(f"eval/{row['baseline']}/learned", row["learned"])
        append_rows(self.run_dir / "evals.csv", rows)
        path.unlink()
        path.with_suffix(".safetensors").unlink()
        return rows

    def checkpoint(self) -> Path:
        """RLlib's whole state as plain data, the learner's policy file and a manifest (module docstring)."""
        steps = self.state["steps"]
        root = self.run_dir / "checkpoints"
        final, tmp = root / f"step_{steps:012d}", root / f".tmp_step_{steps:012d}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        self.save_policy(tmp / "policy.json", steps)
        state = {"format": FORMAT, "algorithm": self.algo.get_state(), "trainer": copy.deepcopy(self.state)}
        torch.save(ckpt.encode(state), tmp / "state.pt")
        manifest = {"format": FORMAT, "step": steps, "files": {name: sha256_of(tmp / name) for name in FILES}}
        (tmp / ckpt.MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        ckpt.commit(tmp, final)
        pointer, pointer_tmp = root / "latest", root / ".latest.tmp"
        pointer_tmp.write_text(final.name + "\n")
        os.replace(pointer_tmp, pointer)
        kept = sorted(p for p in root.iterdir() if p.is_dir() and p.name.startswith("step_"))
        for old in kept[: -self.cfg["keep_checkpoints"]]:
            shutil.rmtree(old, ignore_errors=True)
        return final

    def _restore(self, found: ckpt.Checkpoint) -> None:
        """Put a checkpoint's RLlib state into the freshly built algorithm; the league from its snapshot files."""
        self.algo.set_state(found.state["algorithm"])
        self.algo.env_runner_group.sync_weights(from_worker_or_learner_group=self.algo.learner_group,
                                                inference_only=True)  # fmt: skip
        for entry in self.state["snapshots"]:
            net = _empty_net(self.cfg)
            _load_net(net, entry["path"], f"snapshot {entry['path']}")
            self._set_module_weights(snapshot_module(entry["slot"]), net)
        self._tell_league()

    # ------------------------------------------------------------------ the end
    def finish(self) -> dict:
        """The final policy (the newest checkpoint's) and the final report (``RUN/final``)."""
        final = self.run_dir / "final"
        final.mkdir(parents=True, exist_ok=True)
        found = read(latest_checkpoint(self.run_dir))
        policy = read_policy(found.policy)
        document = policy_document(self.cfg, found.step, {"train_summary": self.throughput(), "backend": "rllib"})
        write_policy(final / "policy.json", {**document, "architecture": policy.document["architecture"]},
                     policy.tensors)  # fmt: skip
        (final / "config.yaml").write_text(yaml.safe_dump(to_jsonable(self.cfg), sort_keys=False))
        return write_final_report(self.cfg, self.run_dir, final / "policy.json", self.throughput(),
                                  progress=self.progress)  # fmt: skip

    def throughput(self) -> dict:
        s = self.state
        return {
            "timesteps": int(s["steps"]),
            "env_steps": int(s["env_steps"]),
            "wall_seconds": round(s["wall_seconds"], 1),
            "collect_seconds": round(s["collect_seconds"], 1),
            "env_steps_per_second_collecting": round(s["collect_steps"] / s["collect_seconds"], 1)
            if s["collect_seconds"] > 0
            else None,
            "env_steps_per_second_overall": round(s["env_steps"] / s["wall_seconds"], 1)
            if s["wall_seconds"] > 0
            else None,
            "n_envs": self.cfg["n_envs"],
            "workers": self.env_runners,
            "vec_env": f"rllib ({self.env_source} env source, {self.env_runners} env runners)",
            "backend": "rllib",
            "resumes": s["resumes"],
            "pretrain": None,
            "init_from": s.get("init_from"),
        }


# --------------------------------------------------------------------------- helpers
def _after(done: int, every: int) -> float:
    return (done // every + 1) * every if every else float("inf")


def _local_cpus(env_runners: int) -> int:
    """CPUs of a private local Ray: the machine's, or one per env runner where they ask for more."""
    return max(os.cpu_count() or 1, env_runners)


def _empty_net(cfg: dict) -> ActorCritic:
    game = game_class(cfg["game"])(seed=0, **cfg["options"])
    return ActorCritic(game.observation_size, game.num_actions, cfg["ppo"]["net_arch"], cfg["ppo"]["activation"])


def _load_net(net: ActorCritic, path: str | Path, what: str) -> None:
    """A policy file's weights into ``net`` (the names and shapes checked: SB3's layout, this run's shape)."""
    load_policy_weights(net, path, what)


def _set_league(runner: Any, filled: list[int]) -> None:
    """On an env runner: every sub-env's league (an env runner without envs, the driver's with runners, has none)."""
    env = getattr(runner, "env", None)
    for sub in getattr(env, "envs", None) or []:
        target = getattr(sub, "unwrapped", sub)
        if hasattr(target, "set_league"):
            target.set_league(filled)
