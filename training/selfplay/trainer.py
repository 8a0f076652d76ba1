"""``SelfPlayTrainer``: a run of the batched self-play learner, with the MaskablePPO trainer's run folder.

``pokerzoo train CONFIG`` runs it for configs with ``engine: batched`` (the
default for games with a batched kernel). Around ``SelfPlay`` (the learner:
``pokerzoo.training.selfplay.loop``) it keeps the run folder the other trainer
keeps, in the same order at the boundary between an update and the next
rollout (the one point where nothing is half done):

1. **snapshot** every ``league.snapshot_every`` updates: the policy as a
   policy file in ``RUN/snapshots/`` joins the league (numpy actor);
2. **evaluation** every ``eval.every`` learner decisions (and at the start):
   tournaments through the evaluation harness on the scalar games, the policy
   as a ``PolicyAgent`` (``RUN/evals.csv``, TensorBoard ``eval/...``);
3. **checkpoint** every ``checkpoint_every`` decisions
   (``pokerzoo.training.selfplay.checkpoint``): ``--resume RUN`` after a kill
   (even ``kill -9``) restores it, cuts ``progress.csv``, ``evals.csv`` and
   TensorBoard back to it, and goes on with the very numbers an uninterrupted
   run gives (tested: identical weights).

Then one rollout and one PPO update, logged to ``progress.csv`` and ``RUN/tb``
(SB3's metric names where they mean the same, plus ``league/...`` and
``time/...``: end-to-end learner decisions per second of wall and of CPU
time). The final report (``RUN/final``) is the other trainer's
(``pokerzoo.training.final_report``): the policy, the tournaments against
the final baselines, report.md/report.json and learning_curve.png.
"""

from __future__ import annotations

import copy
import math
import shutil
import time
from pathlib import Path
from typing import Any

import torch
import yaml
from tqdm import tqdm

from pokerzoo.evaluation.history import to_jsonable
from pokerzoo.training import checkpoint as ckpt
from pokerzoo.training.config import load_run_config
from pokerzoo.training.final_report import periodic_evaluation, write_final_report
from pokerzoo.training.policy_export import init_policy_weights, load_policy_weights, policy_document, save_policy
from pokerzoo.training.resume import (
    make_logger,
    prepare_run_folder,
    rng_preserved,
    rng_state,
    set_rng_state,
)
from pokerzoo.training.selfplay import checkpoint as sp_ckpt
from pokerzoo.training.selfplay.loop import SelfPlay
from pokerzoo.training.selfplay.network import split_arch

ALGORITHM = "PPO on the batched engine (self-play league, PFSP)"


class SelfPlayTrainer:
    """One run in ``run_dir``: ``SelfPlayTrainer(cfg, run_dir).train()``, or ``.resume(run_dir).train()``."""

    def __init__(self, cfg: dict, run_dir: str | Path, *, verbose: bool = False, progress: bool | None = None):
        self.cfg = cfg
        self.run_dir = Path(run_dir)
        self.verbose = verbose
        self.progress = progress
        self.loop: SelfPlay | None = None
        self.logger = None
        self.state: dict[str, Any] = {
            "wall_seconds": 0.0,
            "cpu_seconds": 0.0,
            "loop_wall_seconds": 0.0,
            "loop_cpu_seconds": 0.0,
            "collect_seconds": 0.0,
            "resumes": 0,
            "snapshots": [],
        }
        self._resume_from: Path | None = None
        self._checkpoint: sp_ckpt.SelfPlayCheckpoint | None = None
        self.skipped_checkpoints: list[tuple[str, str]] = []

    # ------------------------------------------------------------------ set-up
    @classmethod
    def resume(cls, run_dir: str | Path, *, total_timesteps: int | None = None, **kw) -> SelfPlayTrainer:
        run_dir = Path(run_dir)
        cfg = load_run_config(run_dir)
        if total_timesteps is not None:
            cfg["total_timesteps"] = total_timesteps
        trainer = cls(cfg, run_dir, **kw)
        found, trainer.skipped_checkpoints = ckpt.intact_to_resume(run_dir, sp_ckpt.read)
        trainer._resume_from = found.path
        trainer._checkpoint = found
        return trainer

    def _bar(self, initial: int) -> tqdm:
        return tqdm(
            total=self.cfg["total_timesteps"],
            initial=initial,
            unit="decision",
            unit_scale=True,
            desc=f"train {self.cfg['name']}",
            disable=(None if self.progress is None else not self.progress),
            dynamic_ncols=True,
            leave=False,
        )

    # ------------------------------------------------------------------ the run
    def train(self) -> dict:
        """Train to ``total_timesteps`` learner decisions (from the checkpoint when resuming); the final report."""
        cfg = self.cfg
        torch.set_num_threads(cfg["torch_threads"])
        self.run_dir.mkdir(parents=True, exist_ok=True)
        found = self._checkpoint
        resume_step = None if found is None else found.step
        if found is not None:
            self.state = copy.deepcopy(found.state["trainer"])
            self.state["resumes"] += 1
        prepare_run_folder(self.run_dir, cfg, resume_step)
        bar = self._bar(resume_step or 0)
        bar.set_postfix_str("loading the game's kernels (compiling them the first time)")
        wall0, cpu0 = time.perf_counter(), time.process_time()
        base_wall, base_cpu = self.state["wall_seconds"], self.state["cpu_seconds"]

        def tally() -> None:
            self.state["wall_seconds"] = base_wall + time.perf_counter() - wall0
            self.state["cpu_seconds"] = base_cpu + time.process_time() - cpu0

        try:
            self.loop = SelfPlay(cfg)
            if found is None:
                if cfg["init_from"] is not None:
                    self.init_weights(cfg["init_from"])
                self.loop.start()
            else:
                self._load(found)
            self.logger = make_logger(self.run_dir, resume_step, self.verbose)
            if found is not None:
                saved = found.state["logger"]
                self.logger.name_to_value.update(saved["values"])
                self.logger.name_to_count.update(saved["counts"])
                self.logger.name_to_excluded.update(saved["excluded"])
            bar.set_postfix_str("")
            due = _Due(cfg, self.loop)
            loop = self.loop
            while True:
                tally()
                self._boundary(due)
                if loop.timesteps >= cfg["total_timesteps"]:
                    break
                before = loop.timesteps
                figures = loop.iterate()
                self._tally(figures)
                tally()
                self._log(figures)
                bar.update(loop.timesteps - before)
                bar.set_postfix_str(self._postfix(figures))
            if ckpt.candidates(self.run_dir)[:1] != [self._checkpoint_dir(loop.timesteps)]:
                self.checkpoint()
        finally:
            bar.close()
            if self.logger is not None:
                self.logger.close()
        return self.finish()

    def _tally(self, figures: dict[str, float]) -> None:
        s = self.state
        s["loop_wall_seconds"] += figures["time/collect_seconds"] + figures["time/update_seconds"]
        s["loop_cpu_seconds"] += figures["time/collect_cpu_seconds"] + figures["time/update_cpu_seconds"]
        s["collect_seconds"] += figures["time/collect_seconds"]

    def _load(self, found: sp_ckpt.SelfPlayCheckpoint) -> None:
        loop = self.loop
        load_policy_weights(loop.model, found.policy, "checkpoint policy")
        if (found.critic is None) != (loop.critic is None):
            has = "has no privileged critic" if found.critic is None else "has a privileged critic"
            raise ckpt.CheckpointError(
                f"{found.path.name} {has}; this run's config says critic.privileged: {loop.critic is not None}"
            )
        if loop.critic is not None:
            try:
                loop.critic.load_state_dict(found.critic)
            except RuntimeError as exc:
                first = str(exc).strip().splitlines()[0]
                raise ckpt.CheckpointError(f"{found.path.name}: its privileged critic does not fit ({first})") from None
        loop.optimizer.load_state_dict(found.optimizer)
        try:
            loop.load_state_dict(found.state["loop"], found.arrays)
        except (ValueError, KeyError) as exc:
            raise ckpt.CheckpointError(f"{found.path.name} does not fit this run's config: {exc}") from None
        set_rng_state(found.state["rng"])

    def init_weights(self, source: str | Path) -> Path:
        """Start from the weights of policy ``source`` (a policy file, a checkpoint folder or a run folder).

        Its observation may be a beginning of this run's (options that append
        pieces, such as Breed the Heifer's ``action_counts``): the new entries
        start with zero weights, so the run starts as exactly that policy.
        """
        loop = self.loop
        path = init_policy_weights(loop.model, source, self.cfg, (loop.observation_size, loop.env.num_actions))
        self.state["init_from"] = str(path)
        return path

    # ------------------------------------------------------------------ between an update and a rollout
    def _boundary(self, due: _Due) -> None:
        loop = self.loop
        finished = loop.timesteps >= self.cfg["total_timesteps"]
        if loop.updates >= due.snapshot and not finished:  # a snapshot at the end would play no game
            with rng_preserved():
                self.snapshot()
            due.snapshot = due.after(loop.updates, self.cfg["league"]["snapshot_every"])  # only with 2+ seats
        if loop.timesteps >= due.eval:
            with rng_preserved():
                self.evaluate(loop.timesteps)
            due.eval = due.after(loop.timesteps, self.cfg["eval"]["every"])
        if loop.timesteps >= due.checkpoint:
            self.checkpoint()
            due.checkpoint = due.after(loop.timesteps, self.cfg["checkpoint_every"])

    def snapshot(self) -> Path:
        """The current policy joins the league as a frozen member."""
        steps = self.loop.timesteps
        path = save_policy(
            self.loop.model, self.run_dir / "snapshots" / f"step_{steps:012d}.json", policy_document(self.cfg, steps)
        )
        self.loop.league.add_snapshot(path, steps)
        self.state["snapshots"].append(str(path.resolve()))
        return path

    def evaluate(self, steps: int) -> list[dict]:
        """Tournaments of the current policy against ``eval.baselines``; rows go to evals.csv and TensorBoard."""
        rows = periodic_evaluation(self.cfg, self.run_dir, self.loop.model, steps)
        for row in rows:
            self.logger.record(f"eval/{row['baseline']}/difference", row["difference"])
            self.logger.record(f"eval/{row['baseline']}/learned", row["learned"])
        return rows

    def _checkpoint_dir(self, steps: int) -> Path:
        return self.run_dir / "checkpoints" / f"step_{steps:012d}"

    def checkpoint(self) -> Path:
        """Save everything needed to continue exactly from here."""
        loop = self.loop
        steps = loop.timesteps
        final = self._checkpoint_dir(steps)
        tmp = final.with_name(f".tmp_{final.name}")
        shutil.rmtree(tmp, ignore_errors=True)
        data, arrays = loop.state_dict()
        state = {
            "step": steps,
            "loop": data,
            "rng": rng_state(),
            "logger": {
                "values": dict(self.logger.name_to_value),
                "counts": dict(self.logger.name_to_count),
                "excluded": dict(self.logger.name_to_excluded),
            },
            "trainer": copy.deepcopy(self.state),
        }
        sp_ckpt.write(tmp, model=loop.model, optimizer=loop.optimizer, document=policy_document(self.cfg, steps),
                      state=state, arrays=arrays, critic=loop.critic)  # fmt: skip
        return ckpt.publish(tmp, final, self.cfg["keep_checkpoints"])

    # ------------------------------------------------------------------ logs
    def _log(self, figures: dict[str, float]) -> None:
        loop, s = self.loop, self.state
        record = self.logger.record
        for key, value in figures.items():
            record(key, value)
        collector = loop.collector
        if collector.episode_returns:
            record("rollout/ep_rew_mean", sum(collector.episode_returns) / len(collector.episode_returns))
        if collector.league_returns:
            record("rollout/ep_rew_mean_league", sum(collector.league_returns) / len(collector.league_returns))
        table = loop.league.table() if loop.env.num_players > 1 else []
        if table:
            record("league/members", len(table))
            record("league/snapshots", sum(m.snapshot for m in loop.league.active()))
            record("league/min_win_rate", min(m["win_rate"] for m in table))
            for m in table:
                if not m["name"].startswith("snapshot@"):  # fixed names only: columns that do not grow
                    # SB3's CSV writer joins the keys with commas unquoted: a member's arguments
                    # (``equity(sampler=fast, stop_z=3)``) are written with semicolons instead
                    name = m["name"].replace(",", ";")
                    record(f"league/{name}/win_rate", m["win_rate"])
                    record(f"league/{name}/weight", m["weight"])
        loop_seconds = figures["time/collect_seconds"] + figures["time/update_seconds"]
        loop_cpu = figures["time/collect_cpu_seconds"] + figures["time/update_cpu_seconds"]
        decisions = figures["rollout/decisions"]
        record("time/total_timesteps", loop.timesteps)
        record("time/games", loop.games)
        record("time/loop_steps_per_s", round(decisions / max(loop_seconds, 1e-9), 1))
        record("time/loop_cpu_steps_per_s", round(decisions / max(loop_cpu, 1e-9), 1))
        record("time/collect_steps_per_s", round(decisions / max(figures["time/collect_seconds"], 1e-9), 1))
        record("time/steps_per_s", round(loop.timesteps / max(s["wall_seconds"], 1e-9), 1))
        record("time/wall_seconds", round(s["wall_seconds"], 1))
        record("time/cpu_seconds", round(s["cpu_seconds"], 1))
        self.logger.dump(loop.timesteps)

    @staticmethod
    def _postfix(figures: dict[str, float]) -> str:
        seconds = figures["time/collect_seconds"] + figures["time/update_seconds"]
        return f"{figures['rollout/decisions'] / max(seconds, 1e-9):,.0f} decisions/s"

    # ------------------------------------------------------------------ the end
    def finish(self) -> dict:
        """Save the final policy and write the final report (``RUN/final``)."""
        final = self.run_dir / "final"
        final.mkdir(parents=True, exist_ok=True)
        steps = self.loop.timesteps
        document = policy_document(self.cfg, steps, {"train_summary": self.throughput()})
        save_policy(self.loop.model, final / "policy.json", document)
        (final / "config.yaml").write_text(yaml.safe_dump(to_jsonable(self.cfg), sort_keys=False))
        return write_final_report(
            self.cfg, self.run_dir, final / "policy.json", self.throughput(), progress=self.progress
        )

    def throughput(self) -> dict:
        s, loop, cfg = self.state, self.loop, self.cfg
        steps = loop.timesteps if loop is not None else 0
        shared, pi, vf = split_arch(cfg["ppo"]["net_arch"])

        def rate(seconds: float) -> float | None:
            return round(steps / seconds, 1) if seconds > 0 else None

        return {
            "engine": "batched",
            "algorithm": ALGORITHM,
            "timesteps": int(steps),
            "updates": loop.updates if loop is not None else 0,
            "games": loop.games if loop is not None else 0,
            "wall_seconds": round(s["wall_seconds"], 1),
            "cpu_seconds": round(s["cpu_seconds"], 1),
            "collect_seconds": round(s["collect_seconds"], 1),
            "learner_steps_per_second": rate(s["loop_wall_seconds"]),
            "learner_steps_per_second_cpu": rate(s["loop_cpu_seconds"]),
            "env_steps_per_second_collecting": rate(s["collect_seconds"]),
            "env_steps_per_second_overall": rate(s["wall_seconds"]),
            "n_envs": cfg["n_envs"],
            "workers": 0,
            "torch_threads": cfg["torch_threads"],
            "kernel_threads": cfg["kernel_threads"],
            "network": {"shared": shared, "pi": pi, "vf": vf, "activation": cfg["ppo"]["activation"]},
            "privileged_critic": cfg["critic"]["net_arch"] if cfg["critic"]["privileged"] else None,
            "league": loop.league.table() if loop is not None and loop.env.num_players > 1 else [],
            "resumes": s["resumes"],
            "pretrain": None,
            "init_from": s.get("init_from"),
        }


class _Due:
    """When the next snapshot (in updates), evaluation and checkpoint (in learner decisions) are due."""

    def __init__(self, cfg: dict, loop: SelfPlay):
        # a game of one seat has no one for a snapshot to play against
        every = cfg["league"]["snapshot_every"] if loop.env.num_players > 1 else 0
        self.snapshot = self.after(loop.updates, every)
        ev = cfg["eval"]
        if ev["every"] and ev["at_start"] and loop.timesteps == 0:
            self.eval: float = 0
        else:
            self.eval = self.after(loop.timesteps, ev["every"])
        self.checkpoint = self.after(loop.timesteps, cfg["checkpoint_every"])

    @staticmethod
    def after(count: int, every: int) -> float:
        return math.inf if not every else (count // every + 1) * every
