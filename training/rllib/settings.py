"""What the RLlib backend makes of a training config: the keys it maps, and the ones it refuses.

The config is the MaskablePPO trainer's (``training.config``, same keys and
checks). RLlib's PPO (new API stack) honours it this way:

=========================  ==================================================================
config key                 RLlib
=========================  ==================================================================
game, options, seed        the env (``LeagueEnv`` or the batched source); ``debugging(seed=)``
total_timesteps            learner decisions (the ``learner`` module's sampled steps)
n_envs                     envs in all, split evenly over the env runners
                           (``num_envs_per_env_runner``; with 0 runners all sample in the driver)
ppo.n_steps                ``rollout_fragment_length``; ``n_steps × n_envs`` is
                           ``train_batch_size_per_learner`` (env steps: snapshot seats' decisions count)
ppo.batch_size, n_epochs   ``minibatch_size``, ``num_epochs``
ppo.learning_rate          ``lr`` (a ``{start, end}`` schedule: piecewise linear over
                           ``total_timesteps`` env steps)
ppo.ent_coef               ``entropy_coeff`` (schedule alike)
ppo.gamma, gae_lambda      ``gamma``, ``lambda_``
ppo.clip_range             ``clip_param`` (the value loss unclipped, as SB3's default)
ppo.vf_coef                ``vf_loss_coeff``
ppo.max_grad_norm          ``grad_clip`` by global norm
ppo.net_arch, activation   the ``MaskedMLPModule`` (SB3's layout and initialisation)
torch_threads              ``torch.set_num_threads`` in the driver (the learner)
reward_scale               in the env, on the learner's rewards (logs in game units)
opponents.*                the league (``LeagueEnv``): scripted agents, snapshots as RLModules
eval.*, checkpoint_every,  the trainer, as the MaskablePPO trainer does them
keep_checkpoints, init_from, name, description
=========================  ==================================================================

Refused, with the reason (``RllibConfigError``): ``ppo.target_kl`` (SB3 stops an
update early past it; RLlib's ``kl_target`` tunes a KL penalty instead),
``ppo.normalize_advantage: false`` (RLlib always standardises advantages, over
the whole train batch rather than per minibatch), ``pretrain`` (imitation is the
MaskablePPO trainer's: pretrain there and start from its policy with
``init_from``), ``workers`` other than 0 and ``vec_env: dummy`` with env runners
(RLlib's env runners take their place: ``--env-runners``), an ``n_envs`` that
the env runners cannot share evenly. The KL penalty of RLlib's PPO is off
(``use_kl_loss=False``), as MaskablePPO has none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pokerzoo.envs.engine.options import ConfigError

ENV_SOURCES = ("aec", "batched")


class RllibConfigError(ConfigError):
    """A training config (or option) the RLlib backend cannot honour; the message says which and why."""


def check(cfg: Mapping[str, Any], env_runners: int, env_source: str = "aec") -> None:
    """Refuse what RLlib cannot do as the config says (module docstring); nothing is built before this passes."""
    if not isinstance(env_runners, int) or isinstance(env_runners, bool) or not 0 <= env_runners <= 1024:
        raise RllibConfigError(f"--env-runners must be an integer in 0..1024, got {env_runners!r}")
    if env_source not in ENV_SOURCES:
        raise RllibConfigError(f"env source {env_source!r}: expected one of {', '.join(ENV_SOURCES)}")
    p = cfg["ppo"]
    refusals = []
    if cfg.get("engine") == "batched":
        refusals.append(
            "engine: batched is the batched self-play trainer's (its league: keys are not RLlib's); the RLlib "
            "backend trains engine: aec configs (set engine: aec; --env-source batched samples them from the "
            "batched engine)"
        )
    if p["target_kl"] is not None:
        refusals.append(
            "ppo.target_kl: MaskablePPO stops an update early past it, RLlib's kl_target tunes a KL penalty "
            "instead; set it to null"
        )
    if not p["normalize_advantage"]:
        refusals.append("ppo.normalize_advantage: false is not available (RLlib always standardises advantages)")
    if cfg["pretrain"]["teacher"] is not None:
        refusals.append(
            "pretrain: imitation runs only on the MaskablePPO backend; pretrain there and start this run from "
            "its policy with init_from: RUN"
        )
    if cfg["workers"] != 0:
        refusals.append(f"workers: {cfg['workers']}: RLlib's env runners take their place (--env-runners N)")
    if cfg["vec_env"] == "dummy" and env_runners:
        refusals.append("vec_env: dummy asks for all envs in this process; give --env-runners 0 (the default)")
    if env_runners and cfg["n_envs"] % env_runners:
        refusals.append(f"n_envs: {cfg['n_envs']} cannot be shared evenly by {env_runners} env runners")
    if env_source == "batched":
        refusals += _batched_refusals(cfg)
    if refusals:
        raise RllibConfigError("training config, --backend rllib: " + "; ".join(refusals))


def _batched_refusals(cfg: Mapping[str, Any]) -> list[str]:
    """The batched env source plays the other seats with the batched engine's opponents only."""
    # Deferred: importing the batched engine is cheap, but only this source needs it.
    from pokerzoo.envs.batched import BATCHED_GAMES

    out = []
    if cfg["game"] not in BATCHED_GAMES:
        out.append(f"--env-source batched: {cfg['game']} has no batched engine (batched: {', '.join(BATCHED_GAMES)})")
    opp = cfg["opponents"]
    available = batched_opponents(cfg["game"])
    if len(opp["scripted"]) != 1 or next(iter(opp["scripted"])) not in available:
        out.append(
            f"--env-source batched: scripted opponents {sorted(opp['scripted'])}: the batched source seats one "
            f"scripted agent that has a batched port, for {cfg['game']}: {', '.join(available)} "
            "(e.g. opponents.scripted: {random: 1})"
        )
    if opp["self_play"] and opp["snapshot_every"]:
        out.append("--env-source batched: self-play snapshots need the AEC source (opponents.self_play: 0)")
    return out


def batched_opponents(game: str) -> list[str]:
    """The scripted agents the batched source can seat in ``game``'s other seats: those with a batched port."""
    # Deferred: the ports' table imports the game's compiled agents, and only this source needs it.
    from pokerzoo.agents.batched import batched_agents

    return list(batched_agents(game))


def envs_per_runner(cfg: Mapping[str, Any], env_runners: int) -> int:
    return cfg["n_envs"] // max(env_runners, 1)


def schedule(value: float | Mapping[str, float], total: int) -> float | list[list[float]]:
    """A constant, or RLlib's piecewise-linear ``[[0, start], [total, end]]`` for ``{start, end}``."""
    if isinstance(value, Mapping):
        return [[0, value["start"]], [total, value["end"]]]
    return value


def env_config(cfg: Mapping[str, Any]) -> dict[str, Any]:
    """What ``LeagueEnv`` (and the batched source) are built from."""
    opp = cfg["opponents"]
    return {
        "game": cfg["game"],
        "options": dict(cfg["options"]),
        "scripted": dict(opp["scripted"]),
        "self_play": opp["self_play"] if opp["snapshot_every"] else 0.0,
        "latest_share": opp["latest_share"],
        "max_snapshots": opp["max_snapshots"],
        "reward_scale": cfg["reward_scale"],
    }


def model_config(cfg: Mapping[str, Any], deterministic: bool = False) -> dict[str, Any]:
    p = cfg["ppo"]
    return {"net_arch": p["net_arch"], "activation": p["activation"], "deterministic": deterministic}


def uses_snapshots(cfg: Mapping[str, Any]) -> bool:
    opp = cfg["opponents"]
    return bool(opp["self_play"] and opp["snapshot_every"])
