"""The training config: every key with its default and check, read from YAML with ``--set`` overrides.

Kept apart from the trainer so that commands, tests and docs can load and
validate a config (and list its keys) without building a single env; every
bad value is rejected here with the key, the value and what is allowed.
"""

from __future__ import annotations

import copy
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from pokerzoo.agents.registry import make_agent
from pokerzoo.envs import env_module
from pokerzoo.envs.engine.options import ConfigError, Option, OptionSet, finite_number
from pokerzoo.envs.registry import GAMES
from pokerzoo.envs.registry import spec as game_spec
from pokerzoo.training.opponents import build_agent
from pokerzoo.training.single_seat import RECORD_CHOICES, SEATS_CHOICES

ACTIVATIONS = ("tanh", "relu")
ENGINES = ("batched", "aec")
BATCHED_DEFAULTS = {"n_envs": 4096, "ppo.n_steps": 16}
AEC_DEFAULTS = {"n_envs": 16, "ppo.n_steps": 512}
AEC_MAX_ENVS = 1024
MAX_ROWS = 1 << 20
MAX_BUFFER_BYTES = 4 * 2**30  # the batched trainer's rollout buffer: refused above (a typo in n_envs, say)


def _schedule(value: Any) -> Any:
    """A constant, or ``{start: a, end: b}`` (linear over the run); returned as a float or that dict."""
    if isinstance(value, Mapping):
        unknown = set(value) - {"start", "end"}
        if unknown or not {"start", "end"} <= set(value):
            raise ValueError("a schedule is a number or {start: A, end: B}")
        a, b = value["start"], value["end"]
        if not all(finite_number(x) and x >= 0 for x in (a, b)):
            raise ValueError("schedule start and end must be finite numbers >= 0")
        return {"start": float(a), "end": float(b)}
    if finite_number(value) and value >= 0:
        return float(value)
    raise ValueError("expected a finite number >= 0 or {start: A, end: B}")


def _layers(value: Any) -> list[int]:
    """Hidden-layer sizes (``ppo.net_arch``'s lists, ``critic.net_arch``)."""
    sizes_ok = isinstance(value, list | tuple) and value and all(
        isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 4096 for n in value
    )
    if not sizes_ok:
        raise ValueError("layer sizes are a non-empty list of ints in 1..4096, e.g. [64, 64]")
    return [int(n) for n in value]


def _net_arch(value: Any) -> Any:
    if isinstance(value, Mapping):
        if set(value) not in ({"pi", "vf"}, {"shared", "pi", "vf"}):
            raise ValueError(
                "net_arch is a list of layer sizes, {pi: [...], vf: [...]} or (engine batched) "
                "{shared: [...], pi: [...], vf: [...]}"
            )
        out = {"pi": _layers(value["pi"]), "vf": _layers(value["vf"])}
        return {"shared": _layers(value["shared"]), **out} if "shared" in value else out
    return _layers(value)


def _optional_positive(value: Any) -> float | None:
    if value is None:
        return None
    if finite_number(value) and value > 0:
        return float(value)
    raise ValueError("expected a finite number > 0 or null")


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


SOURCE_KEYS = {"teacher", "samples", "record", "seats"}


def _sources(value: Any) -> list[dict]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError(f"expected a list of {{teacher, samples, record, seats}} entries, got {value!r}")
    out = []
    for i, entry in enumerate(value):
        if not isinstance(entry, dict) or set(entry) - SOURCE_KEYS or "teacher" not in entry:
            raise ValueError(
                f"entry {i}: expected {{teacher: SPEC, samples: N, record: all|bidding|play, seats: learner|all}}, "
                f"got {entry!r}"
            )
        samples, record = entry.get("samples", 100_000), entry.get("record", "all")
        seats = entry.get("seats", "learner")
        if not isinstance(entry["teacher"], str):
            raise ValueError(f"entry {i}: teacher must be an agent spec, got {entry['teacher']!r}")
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ValueError(f"entry {i}: samples must be an int >= 1, got {samples!r}")
        if record not in RECORD_CHOICES:
            raise ValueError(f"entry {i}: record must be one of {', '.join(RECORD_CHOICES)}, got {record!r}")
        if seats not in SEATS_CHOICES:
            raise ValueError(f"entry {i}: seats must be one of {', '.join(SEATS_CHOICES)}, got {seats!r}")
        out.append({"teacher": entry["teacher"], "samples": samples, "record": record, "seats": seats})
    return out


def _weights(value: Any) -> dict:
    if isinstance(value, list | tuple):
        value = dict.fromkeys(value, 1.0)
    if not isinstance(value, Mapping) or not value:
        raise ValueError("expected {agent: weight, ...} or a list of agent specs")
    out = {}
    for k, w in value.items():
        if not isinstance(k, str) or not finite_number(w) or w < 0:
            raise ValueError(f"opponent {k!r}: weight must be a finite number >= 0")
        out[k] = float(w)
    if sum(out.values()) <= 0:
        raise ValueError("the scripted opponents need a positive total weight")
    return out


TOP = OptionSet(
    Option("name", None, "run name (default: the config file's name)", kind=(str, type(None))),
    Option("game", None, "game to train on, e.g. caribbean_stud", kind=str),
    Option("options", {}, "game options for the training env (the rules as written when empty)", kind=dict),
    Option(
        "seed", 0, "seed of everything (envs, opponents, network initialisation)", kind=int, low=0, high=2**32 - 1
    ),
    Option("total_timesteps", 1_000_000, "learner decisions to train for", kind=int, low=1, high=10**12),
    Option(
        "engine",
        None,
        "batched: PPO over the batched engine, the learner in any number of seats (the default for games with a "
        "batched kernel); aec: MaskablePPO over the PettingZoo env, one seat per env (the default otherwise)",
        choices=(None, *ENGINES),
    ),
    Option(
        "n_envs",
        None,
        "envs stepped together (one policy forward pass per step of all of them): games in process (rows) with "
        f"engine batched (default {BATCHED_DEFAULTS['n_envs']:,}), envs with engine aec (default "
        f"{AEC_DEFAULTS['n_envs']}, at most {AEC_MAX_ENVS})",
        kind=(int, type(None)),
        low=1,
        high=MAX_ROWS,
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
        "kernel_threads",
        1,
        "engine batched: numba threads stepping the env's rows and deciding the batched scripted agents' rows "
        "(1: the serial loops; more: the parallel ones, same games and decisions row for row; 0: all of numba's "
        "threads, one per core)",
        kind=int,
        low=0,
        high=256,
    ),
    Option(
        "reward_scale",
        1.0,
        "constant factor on the learner's rewards (logs stay in game units)",
        kind=float,
        low=1e-9,
    ),
    Option("checkpoint_every", 100_000, "steps between checkpoints (0: only at the end)", kind=int, low=0, high=10**12),
    Option("keep_checkpoints", 2, "checkpoints kept (older ones are deleted)", kind=int, low=1, high=10_000),
    Option("opponents", {}, "opponent league of engine aec (see the opponents section)", kind=dict),
    Option("league", {}, "self-play league of engine batched (see the league section)", kind=dict),
    Option("ppo", {}, "PPO hyperparameters (see the ppo section)", kind=dict),
    Option("critic", {}, "a privileged critic for engine batched (see the critic section)", kind=dict),
    Option("anchor", {}, "a pull toward a scripted agent's actions, engine batched (see the anchor section)",
           kind=dict),
    Option("prior", {}, "a scripted agent the policy plays on top of, engine batched (see the prior section)",
           kind=dict),
    Option("eval", {}, "periodic and final evaluation (see the eval section)", kind=dict),
    Option("pretrain", {}, "imitation of a teacher agent before PPO (see the pretrain section)", kind=dict),
    Option(
        "init_from",
        None,
        "start from this policy's weights (a policy file, a checkpoint folder or a run folder) instead of "
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


def _member_list(value: Any) -> list[str]:
    if not isinstance(value, list | tuple) or not all(isinstance(x, str) and x for x in value):
        raise ValueError("expected a list of agent names, e.g. [random, heuristic] (may be empty)")
    if len(set(value)) != len(value):
        raise ValueError("an agent is listed twice")
    return list(value)


def _weights(value: Any) -> dict[str, float]:
    """``league.weights``: {name: finite weight >= 0}, the weights not all zero (or {}: PFSP)."""
    if not isinstance(value, Mapping) or not all(isinstance(k, str) and k for k in value):
        raise ValueError("expected a mapping {member: weight}, e.g. {equity: 2, random: 1} ({} for PFSP)")
    bad = [k for k, w in value.items() if isinstance(w, bool) or not finite_number(w) or w < 0]
    if bad:
        raise ValueError(f"weight of {bad[0]!r} is {value[bad[0]]!r}; expected a finite number >= 0")
    if value and not any(value.values()):
        raise ValueError("every weight is 0; give at least one member a weight > 0")
    return {k: float(w) for k, w in value.items()}


LEAGUE = OptionSet(
    Option(
        "self_play",
        0.5,
        "probability that a game seats the learner in every seat (parameter sharing); the other games seat it in "
        "one random seat and one league member, drawn by prioritised fictitious self-play, in all the others",
        kind=float,
        low=0,
        high=1,
    ),
    Option(
        "mixed",
        0.0,
        "share of the games against a member that seat the learner in half the seats (2 of 4, 2 or 3 of 5: the "
        "evaluation's mixed tables) and the member in the others, instead of the learner in one seat",
        kind=float,
        low=0,
        high=1,
    ),
    Option(
        "mixed_members",
        [],
        "the members a mixed table seats, drawn among them by their weights (e.g. only the agent the "
        "head-to-head evaluation meets); []: the member the game drew, any of them",
        convert=_member_list,
    ),
    Option(
        "varied",
        0.0,
        "share of the other games against the league that seat a member drawn by PFSP in each opponent seat "
        "separately (the round-robin's tables: opponents of different strength at one table), instead of one "
        "member in all of them",
        kind=float,
        low=0,
        high=1,
    ),
    Option(
        "scripted",
        ["random"],
        "league members besides the snapshots: batched scripted agents (random, the game's batched agents), "
        "shipped policies (ppo) or policy:PATH",
        convert=_member_list,
    ),
    Option("snapshot_every", 10, "PPO updates between snapshots joining the league (0: none)", kind=int, low=0,
           high=10**9),
    Option("max_snapshots", 10, "snapshots kept in the league (the oldest leaves)", kind=int, low=1, high=1000),
    Option(
        "snapshot_deterministic",
        False,
        "snapshots (and policy members) play their most likely action instead of sampling (a member named "
        "NAME@sample samples all the same)",
        kind=bool,
    ),
    Option(
        "pfsp_power",
        2.0,
        "member weights f(p) = (1 - p)^power of the learner's win rate p against each (AlphaStar's hard PFSP: 2; "
        "0: uniform)",
        kind=float,
        low=0,
        high=100,
    ),
    Option(
        "pfsp_halflife",
        10.0,
        "PPO updates after which a game counts half in a member's win rate (the memory of the estimate)",
        kind=float,
        low=0.01,
        high=10**9,
    ),
    Option(
        "weights",
        {},
        "fixed drawing weights instead of PFSP: {member: weight} for every scripted member, and 'snapshots' for "
        "the snapshots together (shared evenly); a member's share of the draws is its weight over the sum. For "
        "tables of a chosen make-up, which PFSP's win rates (confounded by the table a game is played at) do "
        "not give ({}: PFSP)",
        convert=_weights,
    ),
)


PPO = OptionSet(
    Option(
        "n_steps",
        None,
        f"steps per env per rollout (default {BATCHED_DEFAULTS['ppo.n_steps']} with engine batched, where a step "
        f"is one decision in every row; {AEC_DEFAULTS['ppo.n_steps']} with engine aec)",
        kind=(int, type(None)),
        low=1,
        high=1_000_000,
    ),
    Option("batch_size", 1024, "minibatch size", kind=int, low=2, high=100_000_000),
    Option("n_epochs", 4, "passes over each rollout", kind=int, low=1, high=10_000),
    Option("learning_rate", 3e-4, "Adam step size: a number or {start, end} (linear)", convert=_schedule),
    Option("ent_coef", 0.01, "entropy bonus: a number or {start, end} (linear)", convert=_schedule),
    Option("gamma", 0.99, "discount", kind=float, low=0, high=1),
    Option("gae_lambda", 0.95, "GAE lambda", kind=float, low=0, high=1),
    Option("clip_range", 0.2, "PPO clip range", kind=float, low=1e-6, high=10),
    Option("vf_coef", 0.5, "value-loss weight", kind=float, low=0),
    Option("max_grad_norm", 0.5, "gradient clipping norm", kind=float, low=0),
    Option("target_kl", None, "early stop of an update past this KL (null: none)", convert=_optional_positive),
    Option("normalize_advantage", True, "normalise advantages per minibatch", kind=bool),
    Option(
        "net_arch",
        [64, 64],
        "hidden layers: [64, 64], {pi: [...], vf: [...]}, or with engine batched {shared: [...], pi: [...], "
        "vf: [...]} (layers shared by actor and critic first)",
        convert=_net_arch,
    ),
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
    Option("deals", 200, "deals per periodic evaluation and baseline", kind=int, low=1, high=10**9),
    Option("baselines", ["random"], "agents to evaluate against periodically", convert=_agent_list),
    Option("final_deals", 2000, "deals per baseline in the final evaluation", kind=int, low=1, high=10**9),
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
    Option(
        "periodic_engine",
        "scalar",
        "what plays the periodic evaluations: scalar (the tournament harness, any agent) or batched "
        "(pokerzoo.evaluation.batched: the same deals and statistics on the batched engine, thousands of deals "
        "a second, for batched agents: e.g. equity(sampler=fast), policies); the final evaluation is scalar",
        choices=("scalar", "batched"),
    ),
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
    Option("samples", 100_000, "teacher decisions recorded (spread over the envs)", kind=int, low=1, high=10**10),
    Option(
        "record",
        "all",
        "which of the teacher's decisions count as samples: all, bidding (the game's bidding phases) or play",
        choices=RECORD_CHOICES,
    ),
    Option(
        "seats",
        "learner",
        "whose decisions are recorded: learner (the teacher in the learner's seat against the opponent pool) "
        "or all (the teacher in every seat, every seat recorded: n times the data for the same work)",
        choices=SEATS_CHOICES,
    ),
    Option(
        "extra_sources",
        [],
        "more teachers whose decisions join the imitation data, each {teacher, samples, record, seats}: e.g. a "
        "slow search agent's bids and many cheap play decisions of a heuristic",
        convert=_sources,
    ),
    Option("epochs", 4, "passes over the recorded decisions", kind=int, low=1, high=10_000),
    Option("batch_size", 1024, "minibatch size", kind=int, low=1, high=100_000_000),
    Option("learning_rate", 1e-3, "Adam step size of the imitation", kind=float, low=0),
    Option("value", True, "also fit the critic to the teacher's returns", kind=bool),
)


CRITIC = OptionSet(
    Option(
        "privileged",
        False,
        "an asymmetric actor-critic: the advantages come from a second critic that also sees what the seat "
        "cannot (the other seats' hidden cards, who leads now: envs/batched/privileged.py); the actor and the "
        "policy file are unchanged. Engine batched, games whose kernel gives those features",
        kind=bool,
    ),
    Option("net_arch", [256, 256], "hidden layers of the privileged critic", convert=_layers),
    Option(
        "learning_rate",
        None,
        "Adam step size of the privileged critic: a number or {start, end} (linear); null: ppo.learning_rate's",
        convert=lambda v: None if v is None else _schedule(v),
    ),
    Option(
        "warmup_updates",
        0,
        "PPO updates at the start in which only the critics learn and the actor stays exactly as it is: a new "
        "privileged critic fits the returns before its advantages move the actor (needs privileged: true)",
        kind=int,
        low=0,
        high=10**9,
    ),
)


ANCHOR = OptionSet(
    Option(
        "agent",
        None,
        "a batched agent (named as a league member: equity(sampler=fast), heuristic, ppo, policy:PATH) whose "
        "action at every learner decision the actor is pulled toward: the PPO loss adds coef times the "
        "cross-entropy of the policy to that action (AlphaStar's KL to its supervised policy, for a "
        "deterministic agent). Keeps a fine-tuned policy near a robust one while it learns (null: no anchor)",
        kind=(str, type(None)),
    ),
    Option(
        "coef",
        0.0,
        "weight of the anchor's cross-entropy in the actor's loss: a number or {start, end} (linear); > 0 "
        "exactly when agent is given",
        convert=_schedule,
    ),
)


PRIOR = OptionSet(
    Option(
        "agent",
        None,
        "a scripted agent of the game (a registry spec: equity, heuristic) the policy plays on top of, a "
        "residual policy: the network reads the observation and the one-hot of that agent's action, and weight "
        "times the one-hot is added to its logits, so a new network starts as the agent and learns where to "
        "differ. The policy file keeps the prior; every player of the file asks the agent first (null: none)",
        kind=(str, type(None)),
    ),
    Option(
        "batched",
        None,
        "the prior's batched port, where the policy plays in batch (training, league, batched matches): e.g. "
        "equity(sampler=fast) for equity (null: agent itself)",
        kind=(str, type(None)),
    ),
    Option(
        "weight",
        3.0,
        "the logit added to the prior's action (0: the prior's action is an input only; init_from a policy "
        "without a prior then starts the run as exactly that policy)",
        kind=float,
        low=0,
        high=100,
    ),
)


SECTIONS = {"opponents": OPPONENTS, "league": LEAGUE, "ppo": PPO, "critic": CRITIC, "anchor": ANCHOR,
            "prior": PRIOR, "eval": EVAL, "pretrain": PRETRAIN}  # fmt: skip
# What each engine does not use: a non-default value there is an error naming the engine that uses it.
AEC_ONLY = ("workers", "vec_env", "opponents", "pretrain")
BATCHED_ONLY = ("league", "kernel_threads", "critic", "anchor", "prior")


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
            raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{path}: not a text file ({exc.reason} at byte {exc.start})") from None
        except (yaml.YAMLError, RecursionError) as exc:
            raise ConfigError(f"{path}: not valid YAML: {' '.join(str(exc).split())}") from None
        except OSError as exc:
            raise ConfigError(f"{path}: cannot be read ({exc.strerror or exc})") from None
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
    _check_engine(cfg)
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

    try:
        module = env_module(cfg["game"])
    except ValueError as exc:  # an unknown game: the message names the games
        raise ConfigError(f"training config, game: {exc}") from None
    cfg["game"] = module.raw_env.metadata["name"]
    game_cls = module.raw_env.game_class
    try:
        trained = game_cls(seed=0, **cfg["options"])
    except ConfigError as exc:
        raise ConfigError(f"training config, options: {exc}") from None
    for key in ("options", "final_options"):
        given = cfg["eval"][key]
        try:
            evaluated = game_cls(seed=0, **(cfg["eval"]["options"] if given is None else given))
        except ConfigError as exc:
            raise ConfigError(f"training config, eval.{key}: {exc}") from None
        _check_same_sizes(cfg, f"eval.{key}", evaluated, trained)

    for spec in cfg["opponents"]["scripted"]:
        try:
            build_agent(cfg["game"], spec)
        except (ValueError, FileNotFoundError) as exc:
            raise ConfigError(f"training config, opponents: agent {spec!r}: {exc}") from None
    pre = cfg["pretrain"]
    if pre["extra_sources"] and pre["teacher"] is None:
        raise ConfigError("training config, pretrain: extra_sources need a main teacher (pretrain.teacher)")
    teachers = [pre["teacher"]] if pre["teacher"] is not None else []
    for teacher in teachers + [x["teacher"] for x in pre["extra_sources"]]:
        try:
            build_agent(cfg["game"], teacher)
        except (ValueError, FileNotFoundError) as exc:
            raise ConfigError(f"training config, pretrain: teacher {teacher!r}: {exc}") from None
    e = cfg["eval"]
    if e["periodic_engine"] == "batched":
        _check_batched_baselines(cfg)
    scalar = (e["baselines"] if e["periodic_engine"] == "scalar" else []) + (e["final_baselines"] or e["baselines"])
    specs = list(dict.fromkeys(baseline_spec(b) for b in scalar))  # the tournaments' agents, each built once
    if e["composite_baseline"]:
        specs.append(e["composite_baseline"])
    for spec in specs:
        try:
            make_agent(cfg["game"], spec)
        except (ValueError, FileNotFoundError) as exc:
            raise ConfigError(f"training config: agent {spec!r}: {exc}") from None


def _check_same_sizes(cfg: dict, where: str, evaluated, trained) -> None:
    """The evaluations play the trained policy in games of ``where``'s options: refused up front (not after the
    run) when their observation or action sizes are not the training env's, which the policy could not play."""
    sizes = (evaluated.observation_size, evaluated.num_actions)
    if sizes != (trained.observation_size, trained.num_actions):
        raise ConfigError(
            f"training config, {where}: {cfg['game']} with these options has {sizes[1]} actions and observations "
            f"of {sizes[0]}, the training env (options {cfg['options']}) {trained.num_actions} and "
            f"{trained.observation_size}: the trained policy could not play there; set {where} to options with "
            f"the training env's sizes, e.g. {where}: {cfg['options']}"
        )


def _check_batched_baselines(cfg: dict) -> None:
    """``eval.periodic_engine: batched``: the game has a batched engine and every periodic baseline is a batched
    agent (built once here, so a bad name stops the run before its folder is made)."""
    # Deferred: the batched match loads torch and the game's kernels; only configs that ask for it pay that.
    from pokerzoo.training.selfplay.league import batched_agent, table_options

    if game_spec(cfg["game"]).batched is None:
        raise ConfigError(
            f"training config, eval.periodic_engine: batched, but {cfg['game']} has no batched kernel; use scalar"
        )
    for baseline in cfg["eval"]["baselines"]:
        spec = baseline_spec(baseline)
        try:
            batched_agent(cfg["game"], table_options(cfg["game"], cfg["eval"]["options"], [spec]), spec)
        except (ValueError, FileNotFoundError) as exc:
            raise ConfigError(f"training config, eval.baselines (periodic_engine batched): {exc}") from None


def _check_engine(cfg: dict) -> None:
    """Resolve ``engine`` and the defaults that depend on it; refuse keys the chosen engine does not use."""
    batched_kernel = game_spec(cfg["game"]).batched is not None
    given = cfg["engine"]
    engine = given or ("batched" if batched_kernel else "aec")
    if engine == "batched" and not batched_kernel:
        have = [g for g, declared in GAMES.items() if declared.batched]
        raise ConfigError(
            f"training config: engine: batched, but {cfg['game']} has no batched kernel yet (batched games: "
            f"{', '.join(have)}); use engine: aec"
        )
    cfg["engine"] = engine
    defaults = BATCHED_DEFAULTS if engine == "batched" else AEC_DEFAULTS
    if cfg["n_envs"] is None:
        cfg["n_envs"] = defaults["n_envs"]
    if cfg["ppo"]["n_steps"] is None:
        cfg["ppo"]["n_steps"] = defaults["ppo.n_steps"]
    unused, other = (AEC_ONLY, "aec") if engine == "batched" else (BATCHED_ONLY, "batched")
    for key in unused:
        default = SECTIONS[key].defaults() if key in SECTIONS else TOP.options[key].default
        if cfg[key] != default:
            raise ConfigError(
                f"training config: {key} is a key of engine {other}; this config trains with engine {engine}"
                f"{'' if given else ' (the default for ' + cfg['game'] + ')'}: "
                f"remove {key} or set engine: {other}"
            )
    if engine == "aec" and isinstance(cfg["ppo"]["net_arch"], dict) and "shared" in cfg["ppo"]["net_arch"]:
        raise ConfigError(
            "training config, ppo: net_arch.shared (layers shared by actor and critic) is for engine batched; "
            "SB3's MlpPolicy (engine aec) keeps them apart"
        )
    if engine == "aec" and cfg["n_envs"] > AEC_MAX_ENVS:
        raise ConfigError(
            f"training config: n_envs={cfg['n_envs']} is out of range for engine aec; expected int in 1..{AEC_MAX_ENVS}"
        )
    p = cfg["ppo"]
    if p["batch_size"] > p["n_steps"] * resolve_n_envs(cfg):
        raise ConfigError(
            f"training config, ppo: batch_size {p['batch_size']} exceeds a rollout of "
            f"n_steps × n_envs = {p['n_steps'] * resolve_n_envs(cfg)} steps"
        )
    if engine == "batched":
        _check_league(cfg)
        _check_critic(cfg)
        _check_anchor(cfg)
        _check_prior(cfg)
        _check_table(cfg)
        _check_buffer_size(cfg)


def _check_league(cfg: dict) -> None:
    # Deferred: the league module imports the batched opponents (numba), which only this engine needs.
    from pokerzoo.training.selfplay.league import member_opponent, table_options

    for name in cfg["league"]["scripted"]:
        try:
            member_opponent(cfg["game"], table_options(cfg["game"], cfg["options"], [name]), name)
        except (ValueError, FileNotFoundError) as exc:
            raise ConfigError(f"training config, league: member {name!r}: {exc}") from None
    league = cfg["league"]
    strangers = [m for m in league["mixed_members"] if m not in league["scripted"]]
    if strangers:
        raise ConfigError(f"training config, league.mixed_members: {strangers[0]!r} is not a scripted member "
                          f"({', '.join(league['scripted'])})")  # fmt: skip
    if league["mixed_members"] and not league["mixed"]:
        raise ConfigError("training config, league.mixed_members without mixed tables (league.mixed: 0); "
                          "give mixed > 0 or remove mixed_members")  # fmt: skip
    weights = league["weights"]
    if weights:
        members = set(league["scripted"]) | ({"snapshots"} if league["snapshot_every"] else set())
        unknown = sorted(set(weights) - members)
        missing = sorted(members - set(weights))
        if unknown or missing:
            raise ConfigError(
                "training config, league.weights: "
                + (f"{unknown[0]!r} is not a member" if unknown else f"no weight for {missing[0]!r}")
                + f"; the weights name exactly the members: {', '.join(sorted(members))}"
                + (" (snapshots: when snapshot_every > 0)" if "snapshots" in members or "snapshots" in unknown else "")
            )
        if not any(weights[name] for name in league["scripted"]):
            raise ConfigError(
                "training config, league.weights: every scripted member weighs 0; snapshots join only after "
                "snapshot_every updates, so give a scripted member a weight > 0"
            )


def _check_critic(cfg: dict) -> None:
    # Deferred: the batched kernels' modules (numba) are for engine batched only, as in _check_league.
    from pokerzoo.envs import batched
    from pokerzoo.envs.batched.core import GameKernel

    critic = cfg["critic"]
    if critic["warmup_updates"] and not critic["privileged"]:
        raise ConfigError(
            f"training config, critic: warmup_updates={critic['warmup_updates']} fits a new privileged critic "
            "before the actor moves; set critic.privileged: true, or warmup_updates: 0"
        )
    if critic["privileged"] and batched.kernel_class(cfg["game"]).privileged is GameKernel.privileged:
        have = [g for g in batched.BATCHED_GAMES if batched.kernel_class(g).privileged is not GameKernel.privileged]
        raise ConfigError(
            f"training config, critic: privileged: true, but {cfg['game']}'s batched kernel gives no privileged "
            f"features (games that do: {', '.join(have)}); set critic.privileged: false"
        )


def _check_anchor(cfg: dict) -> None:
    """``anchor``: the agent is a batched agent of the game, and a weight is given exactly when an agent is."""
    # Deferred: as in _check_league (numba).
    from pokerzoo.training.selfplay.league import member_opponent, table_options

    anchor = cfg["anchor"]
    coef = anchor["coef"]
    weights = [coef["start"], coef["end"]] if isinstance(coef, Mapping) else [coef]  # each >= 0 (_schedule)
    if anchor["agent"] is None:
        if any(weights):
            raise ConfigError(f"training config, anchor: coef={coef!r} without an agent; name anchor.agent "
                              "(e.g. equity(sampler=fast)) or set coef: 0")  # fmt: skip
        return
    if not any(weights):
        raise ConfigError(f"training config, anchor: agent {anchor['agent']!r} with coef 0 pulls nothing; "
                          "give coef > 0 or remove the agent")  # fmt: skip
    try:
        table = table_options(cfg["game"], cfg["options"], [anchor["agent"]])
        member_opponent(cfg["game"], table, anchor["agent"], deterministic=True)
    except (ValueError, FileNotFoundError) as exc:
        raise ConfigError(f"training config, anchor: agent {anchor['agent']!r}: {exc}") from None


def _check_table(cfg: dict) -> None:
    """One table shows each policy of the league and the anchor what it reads (``league_table_options``; each
    was checked alone above)."""
    # Deferred: as in _check_league (numba).
    from pokerzoo.training.selfplay.league import league_table_options

    try:
        league_table_options(cfg)
    except ValueError as exc:
        raise ConfigError(f"training config, league and anchor: {exc}") from None


def _check_prior(cfg: dict) -> None:
    """``prior``: the agent builds as a scalar agent of the game and its batched port as a batched agent; the
    resolved section (``batched`` filled in) is what the policy files keep (``prior_document``)."""
    # Deferred: as in _check_league (numba).
    from pokerzoo.training.selfplay.league import member_opponent

    prior = cfg["prior"]
    if prior["agent"] is None:
        if prior["batched"] is not None:
            raise ConfigError(f"training config, prior: batched={prior['batched']!r} without an agent; name "
                              "prior.agent (the scalar agent, e.g. equity) or remove batched")  # fmt: skip
        return
    try:
        make_agent(cfg["game"], prior["agent"])
    except (ValueError, FileNotFoundError) as exc:
        raise ConfigError(f"training config, prior: agent {prior['agent']!r}: {exc}") from None
    prior["batched"] = prior_document(cfg)["batched"]
    try:
        member_opponent(cfg["game"], cfg["options"], prior["batched"], deterministic=True)
    except (ValueError, FileNotFoundError) as exc:
        raise ConfigError(f"training config, prior: batched {prior['batched']!r}: {exc}") from None


def prior_document(cfg: Mapping) -> dict | None:
    """The ``prior`` entry of the policy files a run writes (``agents.policy_file``), or None without one."""
    prior = cfg.get("prior") or {}
    if prior.get("agent") is None:
        return None
    return {"agent": prior["agent"], "batched": prior["batched"] or prior["agent"], "weight": prior["weight"]}


def _check_buffer_size(cfg: dict) -> None:
    game = env_module(cfg["game"]).raw_env.game_class(seed=0, **cfg["options"])
    rows, steps = cfg["n_envs"], cfg["ppo"]["n_steps"]
    decisions = rows * (steps + game.num_players)
    size = decisions * (4 * game.observation_size + game.num_actions + 64)
    if size > MAX_BUFFER_BYTES:
        raise ConfigError(
            f"training config: a rollout of n_envs × ppo.n_steps = {rows:,} × {steps} decisions of "
            f"{game.observation_size} observation entries needs {size / 2**30:.1f} GiB of buffer, more than the "
            f"{MAX_BUFFER_BYTES / 2**30:.0f} GiB allowed; lower n_envs or ppo.n_steps"
        )


def baseline_spec(baseline: str | dict) -> str:
    return baseline if isinstance(baseline, str) else baseline["agent"]


def baseline_deals(baseline: str | dict, default: int) -> int:
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


def rollout_size(cfg: Mapping) -> int:
    """Learner steps per PPO rollout: ``n_steps`` in each of the ``n_envs`` envs."""
    return cfg["ppo"]["n_steps"] * resolve_n_envs(cfg)


def trained_steps(cfg: Mapping, done: int = 0) -> int:
    """The steps a run will have made at its end: PPO collects whole rollouts, so the total rounds up.

    With engine batched a rollout's learner decisions depend on who is to act
    in each row, so the run ends at the first rollout past ``total_timesteps``
    (less than one rollout more); this returns ``total_timesteps`` then.
    """
    if cfg.get("engine") == "batched":
        return max(cfg["total_timesteps"], done)
    remaining = max(cfg["total_timesteps"] - done, 0)
    return done + -(-remaining // rollout_size(cfg)) * rollout_size(cfg)


def rounding_note(cfg: Mapping, done: int = 0) -> str | None:
    """What to tell the user when ``total_timesteps`` is not a whole number of rollouts (None when it is)."""
    if cfg.get("engine") == "batched":
        if done >= cfg["total_timesteps"]:
            return None
        return (
            f"note: the run stops at the first rollout end past {cfg['total_timesteps']:,} learner decisions "
            f"(a rollout is n_steps × n_envs = {cfg['ppo']['n_steps']} × {resolve_n_envs(cfg):,} steps, the "
            "learner's decisions among them)"
        )
    end = trained_steps(cfg, done)
    if end == max(cfg["total_timesteps"], done):
        return None
    return (
        f"note: total_timesteps {cfg['total_timesteps']:,} rounds up to {end:,}: PPO collects whole rollouts of "
        f"n_steps × n_envs = {cfg['ppo']['n_steps']} × {resolve_n_envs(cfg)} = {rollout_size(cfg):,} steps"
    )


def load_run_config(run_dir: str | Path) -> dict:
    """The config of run folder ``run_dir`` (its ``config.yaml``), validated.

    A run folder from before the batched trainer has no ``engine`` key: it was
    trained with engine aec, whatever the default for its game is now.
    """
    path = Path(run_dir) / "config.yaml"
    if not path.is_file():
        raise FileNotFoundError(f"{run_dir} is not a training run folder (no config.yaml)")
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError, RecursionError) as exc:
        raise ConfigError(f"{path}: not a readable YAML config ({' '.join(str(exc).split())[:200]})") from None
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{path}: a training config is a YAML mapping (key: value)")
    return load_config({**raw, "engine": raw.get("engine") or "aec"})


def default_run_dir(cfg: Mapping) -> Path:
    return Path("runs", "train", f"{cfg['name']}-{time.strftime('%Y%m%d-%H%M%S')}")
