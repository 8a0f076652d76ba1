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
  model with its optimiser, the global RNG states, every env's full state
  (game in progress, generators, opponents), the last observations, the
  logger's pending values and its own counters. ``--resume RUN`` after a
  kill restores all of it, truncates the logs to the checkpoint, and continues
  with the very same numbers an uninterrupted run would have produced (tested);
* **periodic evaluation** against the baselines through the evaluation harness
  (``pokerzoo.training.evaluate``: duplicate deals, paired differences with
  95% intervals), written to ``RUN/evals.csv`` and TensorBoard. Snapshots and
  evaluations run inside a saved-and-restored RNG context, so switching them
  on or off does not change the training itself;
* **final report** (``RUN/final``): the policy (``policy.zip``, loadable with
  ``policy:RUN`` or ``MaskablePPO.load``), a table against every final baseline,
  composites that separate bidding from play (learned bidder + scripted player,
  scripted bidder + learned player) where the game has both kinds of
  decision, throughput and wall time, and the learning-curve plot.

Rewards reach the learner multiplied by ``reward_scale`` (a constant, so the
optimum is unchanged; it only conditions the value loss). Every figure in the
logs and reports is in the game's own units.
"""

from __future__ import annotations

import contextlib
import copy
import csv
import json
import math
import os
import pickle
import random
import shlex
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import yaml
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecEnvWrapper

from pokerzoo.envs.engine.options import ConfigError, Option, OptionSet
from pokerzoo.training.vec_env import WorkerVecEnv

# --------------------------------------------------------------------------- configuration
ACTIVATIONS = ("tanh", "relu")


def _schedule(value: Any) -> Any:
    """A constant, or ``{start: a, end: b}`` (linear over the run); returned as a float or that dict."""
    if isinstance(value, Mapping):
        unknown = set(value) - {"start", "end"}
        if unknown or not {"start", "end"} <= set(value):
            raise ValueError("a schedule is a number or {start: A, end: B}")
        a, b = value["start"], value["end"]
        if not all(isinstance(x, int | float) and not isinstance(x, bool) and x >= 0 for x in (a, b)):
            raise ValueError("schedule start and end must be numbers >= 0")
        return {"start": float(a), "end": float(b)}
    if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
        return float(value)
    raise ValueError("expected a number >= 0 or {start: A, end: B}")


def _net_arch(value: Any) -> Any:
    def layers(x):
        if not isinstance(x, list | tuple) or not x or not all(isinstance(n, int) and 1 <= n <= 4096 for n in x):
            raise ValueError("layer sizes are a non-empty list of ints in 1..4096, e.g. [64, 64]")
        return [int(n) for n in x]

    if isinstance(value, Mapping):
        if set(value) != {"pi", "vf"}:
            raise ValueError("net_arch is a list of layer sizes or {pi: [...], vf: [...]}")
        return {"pi": layers(value["pi"]), "vf": layers(value["vf"])}
    return layers(value)


def _optional_positive(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    raise ValueError("expected a number > 0 or null")


def _agent_list(value: Any) -> list:
    """Baselines: agent specs, or ``{agent: SPEC, deals: N}`` to give one its own number of deals."""
    if not isinstance(value, list | tuple) or not value:
        raise ValueError("expected a non-empty list of agent specs")
    out = []
    for item in value:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, Mapping) and set(item) <= {"agent", "deals"} and isinstance(item.get("agent"), str):
            deals = item.get("deals")
            if deals is not None and not (isinstance(deals, int) and deals >= 1):
                raise ValueError(f"deals for {item['agent']!r} must be a positive integer")
            out.append({"agent": item["agent"], "deals": deals})
        else:
            raise ValueError(f"expected an agent spec or {{agent: SPEC, deals: N}}, got {item!r}")
    return out


def _weights(value: Any) -> dict:
    if isinstance(value, list | tuple):
        value = dict.fromkeys(value, 1.0)
    if not isinstance(value, Mapping) or not value:
        raise ValueError("expected {agent: weight, ...} or a list of agent specs")
    out = {}
    for k, w in value.items():
        if not isinstance(k, str) or not isinstance(w, int | float) or isinstance(w, bool) or w < 0:
            raise ValueError(f"opponent {k!r}: weight must be a number >= 0")
        out[k] = float(w)
    if sum(out.values()) <= 0:
        raise ValueError("the scripted opponents need a positive total weight")
    return out


TOP = OptionSet(
    Option("name", None, "run name (default: the config file's name)", kind=(str, type(None))),
    Option("game", None, "game to train on, e.g. caribbean_stud", kind=str),
    Option("options", {}, "game options for the training env (the rules as written when empty)", kind=dict),
    Option("seed", 0, "seed of everything (envs, opponents, network initialisation)", kind=int, low=0),
    Option("total_timesteps", 1_000_000, "learner decisions to train for", kind=int, low=1),
    Option(
        "n_envs",
        16,
        "envs stepped together (one policy forward pass per step of all of them)",
        kind=int,
        low=1,
        high=1024,
    ),
    Option("workers", 0, "worker processes the envs are split over (0: one per core)", kind=int, low=0, high=256),
    Option(
        "vec_env",
        "subproc",
        "subproc: envs in worker processes; dummy: all in this process",
        choices=("subproc", "dummy"),
    ),
    Option("torch_threads", 1, "torch threads of the learner process", kind=int, low=1, high=64),
    Option(
        "reward_scale",
        1.0,
        "constant factor on the learner's rewards (logs stay in game units)",
        kind=float,
        low=1e-9,
    ),
    Option("checkpoint_every", 100_000, "steps between checkpoints (0: only at the end)", kind=int, low=0),
    Option("keep_checkpoints", 2, "checkpoints kept (older ones are deleted)", kind=int, low=1),
    Option("opponents", {}, "opponent league (see the opponents section)", kind=dict),
    Option("ppo", {}, "MaskablePPO hyperparameters (see the ppo section)", kind=dict),
    Option("eval", {}, "periodic and final evaluation (see the eval section)", kind=dict),
    Option("pretrain", {}, "imitation of a teacher agent before PPO (see the pretrain section)", kind=dict),
    Option(
        "init_from",
        None,
        "start from this policy's weights (a policy .zip, a checkpoint folder or a run folder) instead of "
        "random ones; the network shape and the game must match",
        kind=(str, type(None)),
    ),
    Option("description", "", "free text shown in the report", kind=str),
)

OPPONENTS = OptionSet(
    Option("scripted", {"random": 1.0}, "scripted opponents and their weights", convert=_weights),
    Option("self_play", 0.0, "weight shared by the learner's frozen snapshots", kind=float, low=0),
    Option(
        "latest_share",
        0.5,
        "share of the self-play weight given to the newest snapshot",
        kind=float,
        low=0,
        high=1,
    ),
    Option("max_snapshots", 5, "snapshots kept in the league", kind=int, low=1, high=100),
    Option("snapshot_every", 100_000, "steps between snapshots (0: no self-play)", kind=int, low=0),
    Option(
        "snapshot_deterministic",
        False,
        "snapshots play their most likely action instead of sampling",
        kind=bool,
    ),
)

PPO = OptionSet(
    Option("n_steps", 512, "steps per env per rollout", kind=int, low=1),
    Option("batch_size", 1024, "minibatch size", kind=int, low=2),
    Option("n_epochs", 4, "passes over each rollout", kind=int, low=1),
    Option("learning_rate", 3e-4, "Adam step size: a number or {start, end} (linear)", convert=_schedule),
    Option("ent_coef", 0.01, "entropy bonus: a number or {start, end} (linear)", convert=_schedule),
    Option("gamma", 0.99, "discount", kind=float, low=0, high=1),
    Option("gae_lambda", 0.95, "GAE lambda", kind=float, low=0, high=1),
    Option("clip_range", 0.2, "PPO clip range", kind=float, low=1e-6, high=10),
    Option("vf_coef", 0.5, "value-loss weight", kind=float, low=0),
    Option("max_grad_norm", 0.5, "gradient clipping norm", kind=float, low=0),
    Option("target_kl", None, "early stop of an update past this KL (null: none)", convert=_optional_positive),
    Option("normalize_advantage", True, "normalise advantages per minibatch", kind=bool),
    Option("net_arch", [64, 64], "hidden layers: [64, 64] or {pi: [...], vf: [...]}", convert=_net_arch),
    Option("activation", "tanh", "hidden-layer activation", choices=ACTIVATIONS),
)

EVAL = OptionSet(
    Option("every", 100_000, "steps between evaluations (0: only the final one)", kind=int, low=0),
    Option(
        "at_start",
        True,
        "also evaluate a new run before its first PPO update (the start of the learning curve, after any "
        "imitation or init_from); needs every > 0",
        kind=bool,
    ),
    Option("deals", 200, "deals per periodic evaluation and baseline", kind=int, low=1),
    Option("baselines", ["random"], "agents to evaluate against periodically", convert=_agent_list),
    Option("final_deals", 2000, "deals per baseline in the final evaluation", kind=int, low=1),
    Option(
        "final_baselines",
        None,
        "baselines of the final evaluation (default: baselines)",
        convert=lambda v: None if v is None else _agent_list(v),
    ),
    Option(
        "composites",
        "auto",
        "evaluate learned-bidder/learned-player composites: auto, true, false",
        choices=("auto", True, False),
    ),
    Option(
        "composite_baseline",
        None,
        "the scripted agent the composites pair with (default: last baseline)",
        kind=(str, type(None)),
    ),
    Option("options", {}, "game options of the periodic evaluations (default: the rules as written)", kind=dict),
    Option(
        "final_options",
        None,
        "game options of the final evaluation (default: the same as options)",
        kind=(dict, type(None)),
    ),
    Option("seed", 20_260_000, "tournament seed", kind=int, low=0),
    Option("workers", 1, "worker processes for periodic evaluations (0: all cores)", kind=int, low=0),
    Option("final_workers", 0, "worker processes for the final evaluation (0: all cores)", kind=int, low=0),
)

PRETRAIN = OptionSet(
    Option(
        "teacher",
        None,
        "agent whose decisions the policy imitates before PPO (null: no pretraining)",
        kind=(str, type(None)),
    ),
    Option("samples", 100_000, "teacher decisions recorded (spread over the envs)", kind=int, low=1),
    Option("epochs", 4, "passes over the recorded decisions", kind=int, low=1),
    Option("batch_size", 1024, "minibatch size", kind=int, low=1),
    Option("learning_rate", 1e-3, "Adam step size of the imitation", kind=float, low=0),
    Option("value", True, "also fit the critic to the teacher's returns", kind=bool),
)

SECTIONS = {"opponents": OPPONENTS, "ppo": PPO, "eval": EVAL, "pretrain": PRETRAIN}


def _validate(options: OptionSet, given: Mapping, where: str) -> dict:
    try:
        return options.validate(dict(given))
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def load_config(source: str | Path | Mapping, overrides: Mapping[str, Any] | None = None) -> dict:
    """Read (YAML path or dict), apply dotted ``overrides`` (``{"ppo.n_steps": 64}``), validate.

    Every unknown key and bad value is an error naming it; the game options and
    every agent named (opponents, baselines) are checked against the game.
    """
    if isinstance(source, str | Path):
        path = Path(source)
        if not path.is_file():
            raise FileNotFoundError(f"training config {str(path)!r} not found")
        try:
            raw = yaml.safe_load(path.read_text()) or {}
        except yaml.YAMLError as exc:
            raise ConfigError(f"{path}: not valid YAML: {exc}") from None
        default_name = path.stem
    else:
        raw, default_name = copy.deepcopy(dict(source)), None
    if not isinstance(raw, Mapping):
        raise ConfigError("a training config is a YAML mapping (key: value)")
    raw = dict(raw)
    for key, value in (overrides or {}).items():
        _set_dotted(raw, key, value)
    cfg = _validate(TOP, raw, "training config")
    if cfg["game"] is None:
        raise ConfigError("training config: 'game' is required, e.g. game: caribbean_stud")
    for section, options in SECTIONS.items():
        cfg[section] = _validate(options, cfg[section], f"training config, section {section}")
    cfg["name"] = cfg["name"] or default_name or cfg["game"]
    _check_against_game(cfg)
    return cfg


def _set_dotted(raw: dict, key: str, value: Any) -> None:
    parts = key.split(".")
    node = raw
    for part in parts[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise ConfigError(f"override {key}: {part} is not a section")
    node[parts[-1]] = value


def _check_against_game(cfg: dict) -> None:
    from pokerzoo.agents.registry import make_agent
    from pokerzoo.envs import env_module

    module = env_module(cfg["game"])  # unknown game: ValueError naming the games
    cfg["game"] = module.raw_env.metadata["name"]
    game_cls = module.raw_env.game_class
    try:
        game_cls(seed=0, **cfg["options"])
    except ConfigError as exc:
        raise ConfigError(f"training config, options: {exc}") from None
    for key in ("options", "final_options"):
        try:
            game_cls(seed=0, **(cfg["eval"][key] or {}))
        except ConfigError as exc:
            raise ConfigError(f"training config, eval.{key}: {exc}") from None
    from pokerzoo.training.opponents import build_agent

    for spec in cfg["opponents"]["scripted"]:
        try:
            build_agent(cfg["game"], spec)
        except (ValueError, FileNotFoundError) as exc:
            raise ConfigError(f"training config, opponents: agent {spec!r}: {exc}") from None
    if cfg["pretrain"]["teacher"] is not None:
        try:
            build_agent(cfg["game"], cfg["pretrain"]["teacher"])
        except (ValueError, FileNotFoundError) as exc:
            raise ConfigError(f"training config, pretrain: teacher {cfg['pretrain']['teacher']!r}: {exc}") from None
    specs = [_spec(b) for b in cfg["eval"]["baselines"] + (cfg["eval"]["final_baselines"] or [])]
    if cfg["eval"]["composite_baseline"]:
        specs.append(cfg["eval"]["composite_baseline"])
    for spec in specs:
        try:
            make_agent(cfg["game"], spec)
        except (ValueError, FileNotFoundError) as exc:
            raise ConfigError(f"training config: agent {spec!r}: {exc}") from None
    p = cfg["ppo"]
    if p["batch_size"] > p["n_steps"] * resolve_n_envs(cfg):
        raise ConfigError(
            f"training config, ppo: batch_size {p['batch_size']} exceeds a rollout of "
            f"n_steps × n_envs = {p['n_steps'] * resolve_n_envs(cfg)} steps"
        )


def _spec(baseline: str | dict) -> str:
    return baseline if isinstance(baseline, str) else baseline["agent"]


def _deals(baseline: str | dict, default: int) -> int:
    return default if isinstance(baseline, str) or baseline.get("deals") is None else baseline["deals"]


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def resolve_n_envs(cfg: Mapping) -> int:
    return cfg["n_envs"]


def resolve_workers(cfg: Mapping) -> int:
    return min(cfg["workers"] or available_cores(), cfg["n_envs"])


# --------------------------------------------------------------------------- envs
def make_env_fn(cfg: Mapping, snapshots: list[str] | None = None) -> Callable:
    """A picklable factory of one training env (what each worker process builds)."""
    game, options, opp = cfg["game"], dict(cfg["options"]), dict(cfg["opponents"])
    snapshots = list(snapshots or [])

    def make():
        from pokerzoo.training.opponents import OpponentPool
        from pokerzoo.training.single_seat import SingleSeatEnv

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


def _env_states(venv) -> list[bytes]:
    return venv.env_method("get_state")


def _restore_env_states(venv, states: list[bytes], masks: np.ndarray | None) -> None:
    if len(states) != venv.num_envs:
        raise ValueError(f"checkpoint has {len(states)} env states, the run has {venv.num_envs} envs")
    for i, state in enumerate(states):
        venv.env_method("set_state", state, indices=[i])
    inner = getattr(venv, "venv", venv)
    if masks is not None and hasattr(inner, "set_masks"):
        inner.set_masks(masks)


# --------------------------------------------------------------------------- RNG and logs
def rng_state() -> dict:
    import torch

    return {"torch": torch.get_rng_state(), "numpy": np.random.get_state(), "python": random.getstate()}


def set_rng_state(state: dict) -> None:
    import torch

    torch.set_rng_state(state["torch"])
    np.random.set_state(state["numpy"])
    random.setstate(state["python"])


@contextlib.contextmanager
def rng_preserved() -> Iterator[None]:
    """Run side work (snapshots, evaluations) without moving the training's global RNGs."""
    state = rng_state()
    try:
        yield
    finally:
        set_rng_state(state)


def truncate_csv(path: Path, column: str, last: float) -> None:
    """Keep the rows of ``path`` whose ``column`` is <= ``last`` (the logs of a resumed run)."""
    if not path.is_file():
        return
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    if not rows:
        return
    header, body = rows[0], rows[1:]
    if column not in header:
        return
    k = header.index(column)
    keep = [r for r in body if k < len(r) and r[k] != "" and float(r[k]) <= last]
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(keep)


def _make_logger(run_dir: Path, resume_step: int | None, verbose: bool):
    from stable_baselines3.common import logger as sb3_logger

    class ResumableCSV(sb3_logger.CSVOutputFormat):
        """SB3's CSV writer, continuing an existing file (its header and rows) instead of overwriting it."""

        def __init__(self, filename: str):
            exists = os.path.isfile(filename) and os.path.getsize(filename) > 0
            self.file = open(filename, "r+" if exists else "w+")  # noqa: SIM115 - closed by the logger
            self.keys = []
            if exists:
                header = self.file.readline().rstrip("\n")
                self.keys = header.split(",") if header else []
                self.file.seek(0, os.SEEK_END)
            self.separator = ","
            self.quotechar = '"'

    formats = [ResumableCSV(str(run_dir / "progress.csv"))]
    try:
        tb = sb3_logger.TensorBoardOutputFormat(str(run_dir / "tb"))
        if resume_step is not None:  # events after the checkpoint belong to the killed run: discard them
            from torch.utils.tensorboard import SummaryWriter

            tb.writer.close()
            tb.writer = SummaryWriter(log_dir=str(run_dir / "tb"), purge_step=resume_step + 1)
        formats.append(tb)
    except AssertionError:  # tensorboard not installed: CSV only
        pass
    if verbose:
        formats.append(sb3_logger.HumanOutputFormat(sys.stdout))
    return sb3_logger.Logger(folder=str(run_dir), output_formats=formats)


# --------------------------------------------------------------------------- saving policies
def policy_meta(cfg: Mapping, steps: int, extra: Mapping | None = None) -> dict:
    from pokerzoo.envs import game_class

    game = game_class(cfg["game"])(seed=0, **cfg["options"])
    return {
        "format": 1,
        "game": cfg["game"],
        "config": _jsonable(cfg["options"]),
        "observation_size": int(game.observation_size),
        "num_actions": int(game.num_actions),
        "timesteps": int(steps),
        "run": cfg["name"],
        **dict(extra or {}),
    }


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=list))


def save_policy(model, path: Path, meta: Mapping) -> Path:
    """Save a play-only copy of ``model`` (no optimiser state, no rollout data); MaskablePPO.load reads it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    optimizer = model.policy.optimizer
    model.policy.optimizer = type(optimizer)(model.policy.parameters(), **optimizer.defaults)
    had_meta = hasattr(model, "pokerzoo")
    old_meta = getattr(model, "pokerzoo", None)
    model.pokerzoo = dict(meta)
    tmp = path.with_name(path.name + ".tmp.zip")
    try:
        model.save(
            str(tmp),
            exclude=[
                "ep_info_buffer",
                "ep_success_buffer",
                "_last_obs",
                "_last_episode_starts",
                "_last_original_obs",
                "pokerzoo_run",
            ],
        )
        os.replace(tmp, path)
    finally:
        model.policy.optimizer = optimizer
        if had_meta:
            model.pokerzoo = old_meta
        else:
            del model.pokerzoo
    return path


# --------------------------------------------------------------------------- the trainer
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

    # ------------------------------------------------------------------ set-up
    @classmethod
    def resume(cls, run_dir: str | Path, *, total_timesteps: int | None = None, **kw) -> Trainer:
        run_dir = Path(run_dir)
        cfg_path = run_dir / "config.yaml"
        if not cfg_path.is_file():
            raise FileNotFoundError(f"{run_dir} is not a training run folder (no config.yaml)")
        cfg = load_config(yaml.safe_load(cfg_path.read_text()))
        if total_timesteps is not None:
            cfg["total_timesteps"] = total_timesteps
        trainer = cls(cfg, run_dir, **kw)
        latest = trainer.latest_checkpoint()
        if latest is None:
            raise FileNotFoundError(f"{run_dir} has no checkpoint to resume from")
        trainer._resume_from = latest
        return trainer

    def latest_checkpoint(self) -> Path | None:
        pointer = self.run_dir / "checkpoints" / "latest"
        if not pointer.is_file():
            return None
        path = self.run_dir / "checkpoints" / pointer.read_text().strip()
        return path if (path / "model.zip").is_file() and (path / "state.pkl").is_file() else None

    def _policy_kwargs(self) -> dict:
        import torch.nn as nn

        p = self.cfg["ppo"]
        act = {"tanh": nn.Tanh, "relu": nn.ReLU}[p["activation"]]
        arch = p["net_arch"]
        return {
            "net_arch": dict(arch) if isinstance(arch, dict) else {"pi": list(arch), "vf": list(arch)},
            "activation_fn": act,
        }

    def _lr(self):
        from stable_baselines3.common.utils import ConstantSchedule, LinearSchedule

        lr = self.cfg["ppo"]["learning_rate"]
        return LinearSchedule(lr["start"], lr["end"], 1.0) if isinstance(lr, dict) else ConstantSchedule(lr)

    def ent_coef_at(self, steps: int) -> float:
        ent = self.cfg["ppo"]["ent_coef"]
        if not isinstance(ent, dict):
            return ent
        done = min(max(steps / self.cfg["total_timesteps"], 0.0), 1.0)
        return ent["start"] + done * (ent["end"] - ent["start"])

    def _new_model(self):
        from sb3_contrib import MaskablePPO

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
        import torch

        torch.set_num_threads(self.cfg["torch_threads"])
        self.run_dir.mkdir(parents=True, exist_ok=True)
        resume_step = None
        if self._resume_from is not None:
            with open(self._resume_from / "state.pkl", "rb") as fh:
                saved = pickle.load(fh)
            resume_step = saved["num_timesteps"]
            self.state = saved["trainer"]
            self.state["resumes"] += 1
            saved_cfg = yaml.safe_load((self.run_dir / "config.yaml").read_text())
            if saved_cfg.get("total_timesteps") != self.cfg["total_timesteps"]:  # --timesteps on resume
                saved_cfg["total_timesteps"] = self.cfg["total_timesteps"]
                (self.run_dir / "config.yaml").write_text(yaml.safe_dump(saved_cfg, sort_keys=False))
            truncate_csv(self.run_dir / "progress.csv", "time/total_timesteps", resume_step)
            truncate_csv(self.run_dir / "evals.csv", "timesteps", resume_step)
        else:
            if (self.run_dir / "checkpoints").exists():
                raise ValueError(f"{self.run_dir} already holds a run; use --resume {self.run_dir} or another --out")
            (self.run_dir / "config.yaml").write_text(yaml.safe_dump(_jsonable(self.cfg), sort_keys=False))

        self.venv = build_vec_env(self.cfg, self.state["snapshots"])
        try:
            if resume_step is None:
                self.model = self._new_model()
                if self.cfg["init_from"] is not None:
                    self.init_weights(self.cfg["init_from"])
                if self.cfg["pretrain"]["teacher"] is not None:
                    self.pretrain()
            else:
                self._load_checkpoint(saved)
            self.model.set_logger(_make_logger(self.run_dir, resume_step, self.verbose))
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
        finally:
            self.venv.close()
        return self.finish()

    def _load_checkpoint(self, saved: dict) -> None:
        from sb3_contrib import MaskablePPO

        self.model = MaskablePPO.load(
            str(self._resume_from / "model.zip"),
            env=self.venv,
            device="cpu",
            custom_objects={"learning_rate": self._lr(), "lr_schedule": self._lr()},
        )
        _restore_env_states(self.venv, saved["envs"], saved.get("masks"))
        self.model._last_obs = saved["last_obs"]
        self.model._last_episode_starts = saved["last_episode_starts"]
        self.model.ep_info_buffer = saved["ep_info_buffer"]
        self.model.ep_success_buffer = saved["ep_success_buffer"]
        set_rng_state(saved["rng"])

    def init_weights(self, source: str | Path) -> Path:
        """Copy the policy weights of ``source`` into the new model: fine-tuning a trained policy.

        A run folder means its final policy (or, unfinished, its latest
        checkpoint); a checkpoint folder its ``model.zip``. Only the weights are
        taken: optimiser, schedules and step count start afresh, so a run that
        continues another under a different league or rate is a new run with
        its own report.
        """
        from sb3_contrib import MaskablePPO

        path = resolve_policy_file(source)
        other = MaskablePPO.load(str(path), device="cpu")
        mine = self.model.policy
        if other.observation_space.shape != mine.observation_space.shape or other.action_space != mine.action_space:
            raise ValueError(
                f"init_from {str(source)!r}: its policy has observation shape {other.observation_space.shape} and "
                f"{other.action_space}; this run's game gives {mine.observation_space.shape} and {mine.action_space}"
            )
        try:
            mine.load_state_dict(other.policy.state_dict())
        except RuntimeError as exc:
            raise ValueError(
                f"init_from {str(source)!r}: its network does not match ppo.net_arch/activation of this run: {exc}"
            ) from None
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
        import torch

        p, ppo = self.cfg["pretrain"], self.cfg["ppo"]
        start = time.perf_counter()
        n_envs = resolve_n_envs(self.cfg)
        per_env = -(-p["samples"] // n_envs)
        seeds = [_seed_of(self.cfg["seed"], 0xBC, i) for i in range(n_envs)]
        parts = _call_each(self.venv, "teacher_rollout", [(p["teacher"], per_env, s) for s in seeds])
        obs = np.concatenate([d["obs"] for d in parts])
        masks = np.concatenate([d["masks"] for d in parts])
        actions = np.concatenate([d["actions"] for d in parts])
        returns = (
            np.concatenate([_discounted(d["rewards"], d["dones"], ppo["gamma"]) for d in parts])
            * self.cfg["reward_scale"]
        )
        collect = time.perf_counter() - start

        policy = self.model.policy
        policy.set_training_mode(True)
        opt = torch.optim.Adam(policy.parameters(), lr=p["learning_rate"])
        t_obs, t_masks = torch.as_tensor(obs), torch.as_tensor(masks)
        t_actions, t_returns = torch.as_tensor(actions), torch.as_tensor(returns, dtype=torch.float32)
        n = len(actions)
        for _ in range(p["epochs"]):
            order = torch.randperm(n)
            for i in range(0, n, p["batch_size"]):
                idx = order[i : i + p["batch_size"]]
                logits, values = _logits_and_values(policy, t_obs[idx], t_masks[idx])
                loss = torch.nn.functional.cross_entropy(logits, t_actions[idx])
                if p["value"]:
                    loss = loss + ppo["vf_coef"] * torch.nn.functional.mse_loss(values, t_returns[idx])
                opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(policy.parameters(), ppo["max_grad_norm"] or 1e9)
                opt.step()
        policy.set_training_mode(False)
        with torch.no_grad():
            agree, value_err = 0, 0.0
            for i in range(0, n, 8192):
                logits, values = _logits_and_values(policy, t_obs[i : i + 8192], t_masks[i : i + 8192])
                agree += int((logits.argmax(1) == t_actions[i : i + 8192]).sum())
                value_err += float(((values - t_returns[i : i + 8192]) ** 2).sum())
        summary = {
            "teacher": p["teacher"],
            "samples": int(n),
            "episodes": int(sum(d["dones"].sum() for d in parts)),
            "teacher_reward_per_decision": float(np.concatenate([d["rewards"] for d in parts]).mean()),
            "epochs": p["epochs"],
            "agreement": agree / n,
            "value_mse": value_err / n,
            "collect_seconds": round(collect, 1),
            "seconds": round(time.perf_counter() - start, 1),
        }
        self.state["pretrain"] = summary
        self.state["wall_seconds"] += time.perf_counter() - start
        return summary

    # ------------------------------------------------------------------ checkpoints and snapshots
    def checkpoint(self) -> Path:
        """Save everything needed to continue exactly from here (called between an update and a rollout)."""
        model = self.model
        steps = model.num_timesteps
        root = self.run_dir / "checkpoints"
        final = root / f"step_{steps:012d}"
        tmp = root / f".tmp_step_{steps:012d}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        model.save(
            str(tmp / "model.zip"),
            exclude=["ep_info_buffer", "ep_success_buffer", "_last_obs", "_last_episode_starts"],
        )
        inner = getattr(self.venv, "venv", self.venv)
        state = {
            "num_timesteps": steps,
            "rng": rng_state(),
            "envs": _env_states(self.venv),
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
        with open(tmp / "state.pkl", "wb") as fh:
            pickle.dump(state, fh, protocol=pickle.HIGHEST_PROTOCOL)
        shutil.rmtree(final, ignore_errors=True)
        os.replace(tmp, final)
        pointer = root / "latest"
        pointer_tmp = root / ".latest.tmp"
        pointer_tmp.write_text(final.name + "\n")
        os.replace(pointer_tmp, pointer)
        kept = sorted(p for p in root.iterdir() if p.is_dir() and p.name.startswith("step_"))
        for old in kept[: -self.cfg["keep_checkpoints"]]:
            shutil.rmtree(old, ignore_errors=True)
        return final

    def snapshot(self) -> Path:
        """Freeze the current policy into the opponent league."""
        steps = self.model.num_timesteps
        path = save_policy(
            self.model, self.run_dir / "snapshots" / f"step_{steps:012d}.zip", policy_meta(self.cfg, steps)
        )
        self.state["snapshots"].append(str(path.resolve()))
        keep = self.cfg["opponents"]["max_snapshots"]
        self.state["snapshots"] = self.state["snapshots"][-keep:]
        self.venv.env_method("add_snapshot", str(path.resolve()))
        return path

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, steps: int) -> list[dict]:
        """Periodic evaluation of the current policy against ``eval.baselines``; rows go to evals.csv."""
        e = self.cfg["eval"]
        path = save_policy(self.model, self.run_dir / "evals" / f"step_{steps:012d}.zip", policy_meta(self.cfg, steps))
        rows = []
        for baseline in e["baselines"]:
            result = evaluate_pair(
                self.cfg,
                f"policy:{path.resolve()}",
                _spec(baseline),
                _deals(baseline, e["deals"]),
                workers=e["workers"],
            )
            row = {"timesteps": steps, **result["row"]}
            rows.append(row)
            self.model.logger.record(f"eval/{row['baseline']}/difference", row["difference"])
            self.model.logger.record(f"eval/{row['baseline']}/learned", row["learned"])
        _append_rows(self.run_dir / "evals.csv", rows)
        path.unlink()  # the rows keep the numbers; snapshots keep policies worth keeping
        return rows

    def finish(self) -> dict:
        """Save the final policy and write the final report (``RUN/final``)."""
        from sb3_contrib import MaskablePPO

        final = self.run_dir / "final"
        final.mkdir(parents=True, exist_ok=True)
        model = self.model
        if model is None:
            model = MaskablePPO.load(str(self.latest_checkpoint() / "model.zip"), device="cpu")
        steps = model.num_timesteps
        meta = policy_meta(self.cfg, steps, {"train_summary": self.throughput()})
        save_policy(model, final / "policy.zip", meta)
        (final / "config.yaml").write_text(yaml.safe_dump(_jsonable(self.cfg), sort_keys=False))
        return write_final_report(
            self.cfg, self.run_dir, final / "policy.zip", self.throughput(), progress=self.progress
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


def resolve_policy_file(source: str | Path) -> Path:
    """The policy zip that ``source`` names: a .zip, a checkpoint folder, or a run folder (final, else latest)."""
    path = Path(source)
    candidates = [path] if path.suffix == ".zip" else [path / "model.zip", path / "final" / "policy.zip"]
    pointer = path / "checkpoints" / "latest"
    if path.suffix != ".zip" and pointer.is_file():
        candidates.append(path / "checkpoints" / pointer.read_text().strip() / "model.zip")
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(
        f"init_from {str(source)!r}: no policy there (looked for {', '.join(str(c) for c in candidates)})"
    )


def _seed_of(*entropy: int) -> int:
    return int(np.random.SeedSequence(list(entropy)).generate_state(1, np.uint64)[0] >> 1)


def _call_each(venv: VecEnv, method: str, args_per_env: list[tuple]) -> list[Any]:
    """Call ``method`` on every env with its own arguments (in parallel where the envs live in workers)."""
    inner = getattr(venv, "venv", venv)
    if isinstance(inner, WorkerVecEnv):
        return inner.call_each(method, args_per_env)
    return [inner.env_method(method, *args, indices=[i])[0] for i, args in enumerate(args_per_env)]


def _discounted(rewards: np.ndarray, dones: np.ndarray, gamma: float) -> np.ndarray:
    """Discounted return from every step to its episode's end (an unfinished last episode counts as ended)."""
    out = np.zeros(len(rewards), dtype=np.float64)
    running = 0.0
    for t in range(len(rewards) - 1, -1, -1):
        running = rewards[t] + (0.0 if dones[t] else gamma * running)
        out[t] = running
    return out


def _logits_and_values(policy, obs, masks):
    """The actor's masked logits and the critic's values of an SB3 actor-critic policy, differentiably."""
    features = policy.extract_features(obs)
    if isinstance(features, tuple):  # separate actor and critic feature extractors
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    else:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    logits = policy.action_net(latent_pi).masked_fill(~masks, -1e8)
    return logits, policy.value_net(latent_vf).squeeze(-1)


def _append_rows(path: Path, rows: list[dict]) -> None:
    if not rows:
        return
    exists = path.is_file() and path.stat().st_size > 0
    with open(path, "a", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        if not exists:
            w.writeheader()
        w.writerows(rows)


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
        from tqdm import tqdm

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


# --------------------------------------------------------------------------- evaluation through the harness
def evaluate_pair(
    cfg: Mapping,
    learned: str,
    baseline: str,
    deals: int,
    *,
    workers: int = 1,
    seed: int | None = None,
    out_dir: Path | None = None,
    progress: bool | None = False,
    label: str = "learned",
    options: Mapping | None = None,
) -> dict:
    """A duplicate-deal tournament ``[learned, baseline]`` through the harness; the paired difference row."""
    from pokerzoo.training import report
    from pokerzoo.training.evaluate import Tournament, run_tournament

    e = cfg["eval"]
    t = Tournament(
        game=cfg["game"],
        agents=(learned, baseline),
        deals=deals,
        seed=e["seed"] if seed is None else seed,
        config=dict(e["options"] if options is None else options),
    )
    result = run_tournament(t, workers=workers, progress=progress)
    summary = report.summarize(result)
    if out_dir is not None:
        report.write_all(result, out_dir, summary)
    a, b = summary["agents"]
    diff = summary["paired_differences"][0]["difference"]
    unit = summary["unit"]
    per_unit = f"reward_per_{unit}" if unit else None
    row = {
        "learner": label,
        "baseline": baseline,
        "deals": deals,
        "games": len(result.records),
        "learned": a["reward_per_game"]["mean"],
        "baseline_reward": b["reward_per_game"]["mean"],
        "difference": diff["mean"],
        "difference_low": diff["low"],
        "difference_high": diff["high"],
        "learned_win_rate": a["win_rate"]["mean"],
        "baseline_win_rate": b["win_rate"]["mean"],
        "learned_per_unit": a.get(per_unit, {}).get("mean") if per_unit else None,
        "seconds": summary["seconds"],
    }
    return {"row": row, "summary": summary}


def _decision_split(summary: dict) -> tuple[int, int]:
    a = summary["agents"][0]
    return a["bidding_decisions"], a["play_decisions"]


def write_final_report(
    cfg: Mapping, run_dir: Path, policy: Path, throughput: Mapping, *, progress: bool | None = None
) -> dict:
    """The final evaluation (every final baseline, composites), learning curve, report.md, report.json."""
    from pokerzoo.envs import game_class

    e = cfg["eval"]
    final = run_dir / "final"
    learned = f"policy:{policy.resolve()}"
    baselines = e["final_baselines"] or e["baselines"]
    final_options = e["options"] if e["final_options"] is None else e["final_options"]
    rows, summaries = [], {}
    for b in baselines:
        spec = _spec(b)
        res = evaluate_pair(
            cfg,
            learned,
            spec,
            _deals(b, e["final_deals"]),
            workers=e["final_workers"],
            out_dir=final / f"vs_{_slug(spec)}",
            progress=progress,
            options=final_options,
        )
        rows.append(res["row"])
        summaries[spec] = res["summary"]

    composites = []
    bidding_phases = game_class(cfg["game"]).BIDDING_PHASES
    split = _decision_split(next(iter(summaries.values())))
    want = e["composites"]
    if want == "auto":
        want = bool(bidding_phases) and split[0] > 0 and split[1] > 0
    if want:
        partner = e["composite_baseline"] or _spec(baselines[-1])
        deals = next((_deals(b, e["final_deals"]) for b in baselines if _spec(b) == partner), e["final_deals"])
        for label, spec in (
            ("learned bidder + scripted player", f"{learned}+{partner}"),
            ("scripted bidder + learned player", f"{partner}+{learned}"),
        ):
            res = evaluate_pair(
                cfg,
                spec,
                partner,
                deals,
                workers=e["final_workers"],
                out_dir=final / f"composite_{_slug(label)}",
                progress=progress,
                label=label,
                options=final_options,
            )
            composites.append(res["row"])

    curve = final / "learning_curve.png"
    plot_learning_curve(run_dir, curve)
    report = {
        "run": cfg["name"],
        "game": cfg["game"],
        "policy": str(policy),
        "throughput": dict(throughput),
        "decisions": {"bidding": split[0], "play": split[1]},
        "final": rows,
        "composites": composites,
        "eval_options": _jsonable(final_options),
        "commands": _read_lines(run_dir / "commands.txt"),
        "eval_seed": e["seed"],
        "unit": next(iter(summaries.values()))["unit"],
    }
    (final / "report.json").write_text(json.dumps(report, indent=2, default=str) + "\n")
    (final / "report.md").write_text(final_markdown(cfg, report))
    return report


def _read_lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.is_file() else []


def evaluate_command(report: Mapping, row: Mapping, learned: str) -> str:
    """The ``pokerzoo evaluate`` command that replays one final tournament."""
    words = ["pokerzoo", "evaluate", report["game"], "--agents", learned, row["baseline"]]
    words += ["--games", str(row["deals"]), "--seed", str(report["eval_seed"])]
    if report["eval_options"]:
        words += ["--config", *(f"{k}={json.dumps(v)}" for k, v in report["eval_options"].items())]
    return " ".join(shlex.quote(w) for w in words)


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text).strip("_")[:60]


def _fmt(mean: float | None, low: float | None = None, high: float | None = None) -> str:
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return "n/a"
    if low is None or high is None:
        return f"{mean:+.4f}"
    return f"{mean:+.4f} ± {(high - low) / 2:.4f}"


def final_markdown(cfg: Mapping, report: Mapping) -> str:
    tp = report["throughput"]
    lines = [
        f"# {report['run']}: MaskablePPO on {report['game']}",
        "",
        cfg.get("description") or "",
        "",
        f"Trained {tp['timesteps']:,} learner steps in {tp['wall_seconds'] / 60:.1f} min wall time "
        f"({tp['n_envs']} envs in {tp['workers'] or 'no'} worker processes); env steps/s while collecting: "
        f"{tp['env_steps_per_second_collecting']}, overall (with updates and evaluations): "
        f"{tp['env_steps_per_second_overall']}; resumed {tp['resumes']} time(s).",
        "",
        *(_init_lines(tp.get("init_from"))),
        *(_pretrain_lines(tp.get("pretrain"))),
        f"## Final evaluation (duplicate deals, seed {report['eval_seed']}, reward per game, 95% CI)",
        "",
        "| learned vs | deals | learned | baseline | paired difference | above zero |",
        "|---|---|---|---|---|---|",
    ]
    for r in report["final"]:
        above = "yes" if r["difference_low"] is not None and r["difference_low"] > 0 else "no"
        lines.append(
            f"| `{r['baseline']}` | {r['deals']} | {_fmt(r['learned'])} | {_fmt(r['baseline_reward'])} | "
            f"{_fmt(r['difference'], r['difference_low'], r['difference_high'])} | {above} |"
        )
    if report["composites"]:
        lines += [
            "",
            "## Bidding and play separated (composites against the scripted agent)",
            "",
            "| agent | vs | deals | paired difference | above zero |",
            "|---|---|---|---|---|",
        ]
        for r in report["composites"]:
            above = "yes" if r["difference_low"] is not None and r["difference_low"] > 0 else "no"
            lines.append(
                f"| {r['learner']} | `{r['baseline']}` | {r['deals']} | "
                f"{_fmt(r['difference'], r['difference_low'], r['difference_high'])} | {above} |"
            )
    policy_spec = f"policy:{report['policy']}"
    lines += ["", "Reproduce a row with the evaluation harness, e.g.:", "", "```"]
    lines += [evaluate_command(report, r, policy_spec) for r in report["final"]]
    lines += ["```"]
    if report.get("commands"):
        lines += ["", "Training command(s) of this run:", "", "```"]
        lines += [c.split(" ", 2)[-1] for c in report["commands"]]
        lines += ["```"]
    if report["eval_options"]:
        lines += [
            "",
            "Evaluation options: " + ", ".join(f"`{k}={v!r}`" for k, v in report["eval_options"].items()),
        ]
    lines += [
        "",
        f"Learner decisions in the first final tournament: {report['decisions']['bidding']:,} bidding, "
        f"{report['decisions']['play']:,} play.",
        "",
        "![learning curve](learning_curve.png)",
        "",
        "Per-baseline harness reports (report.md, games.csv, means.png) are in the `vs_*` folders.",
    ]
    return "\n".join(lines) + "\n"


def _init_lines(source: str | None) -> list[str]:
    if not source:
        return []
    return [f"Started from the weights of `{source}` (fine-tuning; see `init_from` in the config).", ""]


def _pretrain_lines(p: Mapping | None) -> list[str]:
    if not p:
        return []
    return [
        f"Kick-started by imitating `{p['teacher']}` on {p['samples']:,} of its decisions in the learner's "
        f"seat ({p['episodes']:,} episodes, {p['epochs']} epochs, {p['seconds']:.0f} s): the imitation "
        f"chose the teacher's action {100 * p['agreement']:.1f}% of the time; PPO trained from there.",
        "",
    ]


def plot_learning_curve(run_dir: Path, path: Path) -> None:
    """Paired difference against each baseline over training (95% band), and the training reward."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    evals = _read_csv(run_dir / "evals.csv")
    progress = _read_csv(run_dir / "progress.csv")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    ax = axes[0]
    by_baseline: dict[str, list[dict]] = {}
    for r in evals:
        by_baseline.setdefault(r["baseline"], []).append(r)
    for name, rs in by_baseline.items():
        x = np.array([float(r["timesteps"]) for r in rs])
        m = np.array([_float(r["difference"]) for r in rs])
        lo = np.array([_float(r["difference_low"]) for r in rs])
        hi = np.array([_float(r["difference_high"]) for r in rs])
        ax.plot(x, m, marker="o", label=f"vs {name}")
        ax.fill_between(x, lo, hi, alpha=0.2)
    ax.axhline(0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("learner steps")
    ax.set_ylabel("paired difference, reward/game")
    ax.set_title("learned − baseline (95% CI)", fontsize=10)
    if by_baseline:
        ax.legend(fontsize=8)
    ax = axes[1]
    xs = [_float(r.get("time/total_timesteps")) for r in progress]
    ys = [_float(r.get("rollout/ep_rew_mean")) for r in progress]
    pts = [(x, y) for x, y in zip(xs, ys) if not (math.isnan(x) or math.isnan(y))]
    if pts:
        ax.plot(*zip(*pts), lw=1)
    ax.set_xlabel("learner steps")
    ax.set_ylabel("mean episode reward (last 100 episodes)")
    ax.set_title("training reward (against the training opponents)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _read_csv(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def _float(x: Any) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def default_run_dir(cfg: Mapping) -> Path:
    return Path("runs", "train", f"{cfg['name']}-{time.strftime('%Y%m%d-%H%M%S')}")


# --------------------------------------------------------------------------- shipping a policy
def ship_policy(run_dir: str | Path, name: str = "ppo", dest: Path | None = None) -> Path:
    """Copy a finished run's policy into ``training/policies/<game>/<name>.zip`` with its provenance.

    Beside the zip: ``<name>.yaml`` (the run's config), ``<name>.json`` (the
    training command(s), throughput and wall time, and the final evaluation
    with the ``pokerzoo evaluate`` command of each row, rewritten for the
    shipped name) and the folder's ``README.md`` (regenerated).
    """
    from pokerzoo.training.policy_agent import POLICY_DIR

    run = Path(run_dir)
    report_path = run / "final" / "report.json"
    if not report_path.is_file():
        raise FileNotFoundError(f"{run} has no final report (final/report.json): finish the run first")
    report = json.loads(report_path.read_text())
    cfg = yaml.safe_load((run / "config.yaml").read_text())
    short = report["game"].removesuffix("_v0")
    folder = (dest or POLICY_DIR) / short
    folder.mkdir(parents=True, exist_ok=True)
    init = folder / "__init__.py"
    if not init.exists():
        init.write_text(f'"""The trained policies shipped for {short} (see README.md here)."""\n')
    shutil.copyfile(run / "final" / "policy.zip", folder / f"{name}.zip")
    (folder / f"{name}.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    rows = []
    for r in report["final"] + report["composites"]:
        row = dict(r)
        learner = (
            name
            if r["learner"] == "learned"
            else (f"{name}+{r['baseline']}" if r["learner"].startswith("learned bidder") else f"{r['baseline']}+{name}")
        )
        row["learner"] = learner
        row["command"] = evaluate_command(report, row, learner)
        rows.append(row)
    meta = {
        "name": name,
        "game": report["game"],
        "run": report["run"],
        "training_commands": [c.split(" ", 2)[-1] for c in _read_lines(run / "commands.txt")],
        "throughput": report["throughput"],
        "eval_seed": report["eval_seed"],
        "eval_options": report["eval_options"],
        "unit": report["unit"],
        "evaluation": rows,
    }
    (folder / f"{name}.json").write_text(json.dumps(meta, indent=2) + "\n")
    _write_policies_readme(folder)
    return folder / f"{name}.zip"


def _write_policies_readme(folder: Path) -> None:
    lines = [f"# Shipped policies: {folder.name}", ""]
    for meta_path in sorted(folder.glob("*.json")):
        m = json.loads(meta_path.read_text())
        tp = m["throughput"]
        lines += [
            f"## `{m['name']}`",
            "",
            f"MaskablePPO, {tp['timesteps']:,} learner steps in {tp['wall_seconds'] / 60:.0f} min wall time "
            f"({tp['n_envs']} envs, {tp['workers'] or 'no'} worker processes; env steps/s while collecting "
            f"{tp['env_steps_per_second_collecting']}). Config: `{m['name']}.yaml`. Produced by:",
            "",
            "```",
            *m["training_commands"],
            "```",
            "",
            f"Evaluation (evaluation harness, duplicate deals, seed {m['eval_seed']}, reward per game, 95% CI):",
            "",
            "| agent | vs | deals | agent's reward | baseline's | paired difference |",
            "|---|---|---|---|---|---|",
        ]
        for r in m["evaluation"]:
            lines.append(
                f"| `{r['learner']}` | `{r['baseline']}` | {r['deals']} | {_fmt(r['learned'])} | "
                f"{_fmt(r['baseline_reward'])} | {_fmt(r['difference'], r['difference_low'], r['difference_high'])} |"
            )
        lines += ["", "Commands:", "", "```", *(r["command"] for r in m["evaluation"]), "```", ""]
        for extra in m.get("further_evaluations", []):
            # Evaluations made after shipping (more deals, a fresh seed), recorded in the .json with their commands.
            lines += [f"Further evaluation: {extra['why']}", "", "| vs | deals | paired difference |", "|---|---|---|"]
            for r in extra["rows"]:
                diff = _fmt(r["difference"], r["difference_low"], r["difference_high"])
                lines.append(f"| `{r['baseline']}` | {r['deals']} | {diff} |")
            lines += ["", "```", *(r["command"] for r in extra["rows"]), "```", ""]
    (folder / "README.md").write_text("\n".join(lines))
