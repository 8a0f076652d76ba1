"""Distillation: a policy network fitted to a batched agent's decisions, so a slow agent can sit where speed counts.

Why: a search agent such as Breed the Heifer's ``pimc`` makes about 300
decisions a second on the batched engine; the self-play trainer makes 20,000.
A league that seats the search agent itself runs at the search's speed. A
network that copies its choices plays at the network's speed, so it can fill
thousands of training tables, and it is a policy file like any other
(``policy:PATH``: a league member, an opponent, an evaluation's agent).

The teacher plays at batched tables, each of its seats drawn per game: the
teacher with probability ``teacher_share``, else one of ``tablemates``
uniformly, so its decisions are recorded in the spots other players lead it
into, not only against copies of itself. Every decision of the teacher's
seats is kept (the observation the table writes for that seat, the legal
mask and the action). Then the actor is fitted by masked cross-entropy, as
the MaskablePPO trainer's imitation does (``training.imitation``), and a
held-out share of the decisions says how often the fitted policy's most
likely action is the teacher's.

A stochastic teacher's choices in one spot vary (``pimc`` agrees with itself
on under half of Breed the Heifer's spots): the fit learns their
distribution, and its most likely action (how a policy member plays by
default) is the teacher's most frequent choice, nearer what the teacher
would choose with a larger budget than any one of its noisy decisions. The
critic is not fitted (it keeps ``init_from``'s or its fresh initialisation):
a clone is meant to be played, not trained further as it is.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from pokerzoo.agents.policy import resolve_policy_path, shipped_policies
from pokerzoo.agents.policy_file import read_policy, refuse_to_overwrite, write_policy
from pokerzoo.envs.batched import make
from pokerzoo.envs.registry import canonical
from pokerzoo.training.policy_export import init_policy_weights, mlp_architecture, policy_tensors
from pokerzoo.training.selfplay.league import batched_agent
from pokerzoo.training.selfplay.network import MASKED_LOGIT, ActorCritic

HELD_OUT = 0.05  # the share of the recorded decisions kept out of the fit, to measure agreement on
BATCH_SIZE = 2048


@dataclass(frozen=True)
class Decisions:
    """The teacher's recorded decisions: what its seat saw, what was legal, what it chose (one row each)."""

    obs: np.ndarray  # float32[n, observation_size]
    mask: np.ndarray  # bool[n, num_actions]
    action: np.ndarray  # int64[n]

    def __len__(self) -> int:
        return len(self.action)


@dataclass(frozen=True)
class TeacherTables:
    """Where the teacher is recorded: ``rows`` batched tables of a game with ``options``, each seat the teacher
    with probability ``teacher_share``, else one of ``tablemates`` (batched agent specs), drawn per game; every
    agent and the draws seeded from ``seed`` (the teacher ``seed``, the tablemates ``seed + 1``, ... in order)."""

    teacher: str
    tablemates: tuple[str, ...] = ()
    teacher_share: float = 1.0
    rows: int = 512
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)

    def check(self) -> None:
        """ValueError naming the problem for a bad share, row count or set of tablemates (the specs themselves
        are checked where they are built)."""
        if isinstance(self.rows, bool) or not isinstance(self.rows, int) or self.rows < 1:
            raise ValueError(f"rows={self.rows!r}: expected an int >= 1")
        if not 0.0 < self.teacher_share <= 1.0:
            raise ValueError(
                f"teacher_share={self.teacher_share!r}: expected a share in (0, 1] of the seats the teacher takes"
            )
        if self.teacher_share < 1.0 and not self.tablemates:
            raise ValueError(
                f"teacher_share={self.teacher_share:g} leaves {1 - self.teacher_share:.0%} of the seats to "
                "tablemates, and none are given: name some (e.g. random, the game's scripted agents) or use "
                "teacher_share 1"
            )
        if self.teacher_share == 1.0 and self.tablemates:
            raise ValueError(
                f"tablemates {list(self.tablemates)}: with teacher_share 1 the teacher takes every seat and they "
                "never play; give a teacher_share below 1"
            )
        if self.teacher in self.tablemates:
            raise ValueError(f"tablemates: {self.teacher!r} is the teacher; its seats are drawn by teacher_share")

    def players(self, game: str) -> list:
        """The batched agents, the teacher first, seeded; ValueError naming the choices for a bad spec."""
        players = [batched_agent(game, dict(self.options), spec) for spec in [self.teacher, *self.tablemates]]
        for i, agent in enumerate(players):
            agent.seed(self.seed + i)
        return players


def record_decisions(
    game: str, tables: TeacherTables, decisions: int, progress: Callable[[int], None] | None = None
) -> Decisions:
    """The first ``decisions`` decisions of the teacher at ``tables`` of ``game`` (see the module docstring);
    ValueError naming the problem for a bad count, share or agent spec. The same arguments record the same
    decisions."""
    if isinstance(decisions, bool) or not isinstance(decisions, int) or decisions < 1:
        raise ValueError(f"decisions={decisions!r}: expected an int >= 1")
    tables.check()
    name = canonical(game).removesuffix("_v0")
    players = tables.players(name)
    env = make(name, tables.rows, **tables.options)
    env.reset(seed=tables.seed)
    rng = np.random.default_rng(tables.seed)

    def draw(k: int) -> np.ndarray:  # who owns each seat of k new games: 0 is the teacher
        mine = rng.random((k, env.num_players)) < tables.teacher_share
        others = rng.integers(1, len(players), (k, env.num_players)) if tables.tablemates else 0
        return np.where(mine, 0, others)

    owner = draw(tables.rows)
    obs, masks, actions = [], [], []
    kept = 0
    chosen = np.zeros(tables.rows, dtype=np.int64)
    while kept < decisions:
        live = env.all_rows
        who = owner[live, env.current_player[live]]
        for i, agent in enumerate(players):
            mine = live[who == i]
            if mine.size:
                chosen[mine] = agent.act(env, mine)
        taught = live[who == 0][: decisions - kept]
        obs.append(env.obs[taught].astype(np.float32))
        masks.append(env.mask[taught].astype(bool))
        actions.append(chosen[taught].copy())
        kept += taught.size
        if progress is not None and taught.size:
            progress(int(taught.size))
        _, _, _, done, _ = env.step(chosen, live)
        if done.any():  # the env starts those rows' next games; draw their seats again
            owner[done] = draw(int(done.sum()))
    return Decisions(np.concatenate(obs), np.concatenate(masks), np.concatenate(actions))


def _masked_logits(net: ActorCritic, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    logits, _ = net(obs)
    return logits.masked_fill(~mask, MASKED_LOGIT)


def _check_fit(epochs: int, learning_rate: float) -> None:
    """ValueError naming a bad number of epochs or step size (``distill_policy`` asks before it records)."""
    if isinstance(epochs, bool) or not isinstance(epochs, int) or epochs < 1:
        raise ValueError(f"epochs={epochs!r}: expected an int >= 1")
    if not learning_rate > 0:
        raise ValueError(f"learning_rate={learning_rate!r}: expected a positive step size")


def _held_out(decisions: int) -> int:
    """How many of ``decisions`` recorded decisions the fit holds out (at least one)."""
    return max(1, int(decisions * HELD_OUT))


def fit_actor(
    net: ActorCritic,
    data: Decisions,
    *,
    epochs: int = 12,
    learning_rate: float = 1e-3,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> dict[str, float]:
    """Fit ``net``'s actor to ``data`` (masked cross-entropy, Adam at ``learning_rate`` falling tenfold over the
    epochs), holding out ``HELD_OUT`` of the decisions; how often its most likely action is the teacher's, and its
    cross-entropy, on the held-out and the fitted decisions."""
    _check_fit(epochs, learning_rate)
    if len(data) < 2:
        raise ValueError(f"{len(data)} decision(s): the fit needs at least 2 (one held out)")
    rng = np.random.default_rng(seed)  # the only randomness of the fit: which decisions are held out, the order
    order = rng.permutation(len(data))
    held, fitted = order[: _held_out(len(data))], order[_held_out(len(data)) :]
    obs, mask, action = torch.as_tensor(data.obs), torch.as_tensor(data.mask), torch.as_tensor(data.action)
    actor = [p for name, p in net.named_parameters() if not name.startswith(("value_net", "mlp_extractor.value_net"))]
    opt = torch.optim.Adam(actor, lr=learning_rate)

    def measure(rows: np.ndarray) -> tuple[float, float]:
        with torch.no_grad():
            idx = torch.as_tensor(rows)
            logits = _masked_logits(net, obs[idx], mask[idx])
            agree = (logits.argmax(1) == action[idx]).float().mean()
            return float(agree), float(F.cross_entropy(logits, action[idx]))

    start = measure(held)
    net.train()
    for epoch in range(epochs):
        for group in opt.param_groups:
            group["lr"] = learning_rate * 0.1 ** (epoch / max(epochs - 1, 1))
        shuffled = rng.permutation(fitted)
        for b in range(0, len(shuffled), BATCH_SIZE):
            idx = torch.as_tensor(shuffled[b : b + BATCH_SIZE])
            loss = F.cross_entropy(_masked_logits(net, obs[idx], mask[idx]), action[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            if progress is not None:
                progress(1)
    net.eval()
    held_agree, held_loss = measure(held)
    fit_agree, fit_loss = measure(fitted)
    return {
        "held_out": len(held),
        "held_out_agreement_before": start[0],
        "held_out_agreement": held_agree,
        "held_out_cross_entropy": held_loss,
        "fitted_agreement": fit_agree,
        "fitted_cross_entropy": fit_loss,
    }


def fit_batches(decisions: int, epochs: int) -> int:
    """The minibatches ``fit_actor`` takes over ``decisions`` recorded decisions (for a progress bar)."""
    fitted = decisions - _held_out(decisions)
    return epochs * -(-fitted // BATCH_SIZE)


def _network_of(path: str | Path, what: str) -> tuple[tuple[int, ...], str]:
    """The hidden layers' widths and activation of the policy file ``path`` (``init_from`` ``what``)."""
    try:
        pf = read_policy(resolve_policy_path(path))
    except FileNotFoundError as exc:
        raise FileNotFoundError(f"init_from {what!r}: {exc}") from None
    hidden = pf.actor[:-1]
    return tuple(int(pf.tensors[x.weight].shape[0]) for x in hidden), (hidden[0].activation if hidden else "relu")


def distill_policy(
    game: str,
    tables: TeacherTables,
    out: str | Path,
    *,
    decisions: int,
    net_arch: Sequence[int] | None = None,
    activation: str | None = None,
    init_from: str | None = None,
    epochs: int = 12,
    learning_rate: float = 1e-3,
    force: bool = False,
    progress: Callable[[str, int], Callable[[int], None]] | None = None,
) -> tuple[Path, dict[str, Any]]:
    """Record the teacher at ``tables``, fit a policy to it and write it to ``out`` (NAME.json + NAME.safetensors);
    the path and the summary kept in the document's provenance. Every argument is checked before the slow
    recording starts.

    ``init_from``: a policy file or a shipped policy's name (``ppo``) to start from; ``net_arch`` and
    ``activation`` default to its network's (without one: 128x128, relu). ``progress(label, total)``, when
    given, returns the callback a stage reports its steps to."""
    out = Path(out)
    if out.suffix != ".json":
        raise ValueError(f"out {out}: a policy document is NAME.json (its weights go to NAME.safetensors)")
    refuse_to_overwrite(out, force)
    name, options = canonical(game).removesuffix("_v0"), dict(tables.options)
    probe = make(name, 1, **options)
    start_from = None if init_from is None else shipped_policies(probe.name).get(init_from, init_from)
    widths, act = ((128, 128), "relu") if start_from is None else _network_of(start_from, init_from)
    net_arch, activation = widths if net_arch is None else net_arch, activation or act
    if not net_arch or any(isinstance(w, bool) or not isinstance(w, int) or w < 1 for w in net_arch):
        raise ValueError(f"net_arch={list(net_arch)!r}: expected one or more layer widths >= 1")
    net = ActorCritic(probe.observation_size, probe.num_actions, list(net_arch), activation)
    if start_from is not None:
        cfg = {"game": name, "options": options}
        init_policy_weights(net, start_from, cfg, (probe.observation_size, probe.num_actions))
    _check_fit(epochs, learning_rate)  # record_decisions checks the rest before its first decision

    def bar(label: str, total: int) -> Callable[[int], None] | None:
        return None if progress is None else progress(label, total)

    start = time.perf_counter()
    data = record_decisions(name, tables, decisions, progress=bar(f"recording {tables.teacher}", decisions))
    recorded = time.perf_counter() - start
    fit = fit_actor(net, data, epochs=epochs, learning_rate=learning_rate, seed=tables.seed,
                    progress=bar("fitting", fit_batches(decisions, epochs)))  # fmt: skip
    summary = {
        "teacher": tables.teacher,
        "tablemates": list(tables.tablemates),
        "teacher_share": tables.teacher_share,
        "decisions": len(data),
        "actions": np.bincount(data.action, minlength=probe.num_actions).tolist(),
        "rows": tables.rows,
        "seed": tables.seed,
        "epochs": epochs,
        "learning_rate": learning_rate,
        "init_from": init_from,
        "net_arch": list(net_arch),
        "activation": activation,
        **fit,
        "record_seconds": round(recorded, 1),
        "seconds": round(time.perf_counter() - start, 1),
    }
    document = {
        "game": probe.name,
        "options": options,
        "observation_size": probe.observation_size,
        "num_actions": probe.num_actions,
        "architecture": mlp_architecture(net),
        "provenance": {"run": f"distill {tables.teacher}", "timesteps": 0, "distilled": summary},
    }
    return write_policy(out, document, policy_tensors(net)), summary


__all__ = ["Decisions", "TeacherTables", "distill_policy", "fit_actor", "fit_batches", "record_decisions"]
