"""The self-play league: who fills the seats the learner does not, and how often each member is drawn.

Members are batched opponents (``act(env, rows)``, ``seed(seed)``;
``pokerzoo.envs.batched.opponents``):

* scripted ones: ``random`` (every game) and the game's batched scripted agents
  (``pokerzoo.agents.batched.batched_agents``: Raspisnoy's ``heuristic``,
  Heifer's ``equity``, ...), named as the scalar agents they port, with
  arguments as agent specs write them (``equity(sampler=fast)``);
* frozen policies: snapshots of the learner (``add_snapshot``), shipped
  policies (``ppo``) and ``policy:PATH``, each played by the actor of its
  policy file on all its rows at once, the way the learner's network runs
  (``frozen.FrozenPolicy``: the first layer over the nonzero observation
  entries, logits of the legal actions only).

**Prioritised fictitious self-play** (AlphaStar's PFSP): the league keeps, per
member, the learner's results against it over recent games (a game won counts
1, drawn 1/2, lost 0; older games fade with ``pfsp_halflife`` updates) and
draws members with weights f(p) = (1 - p)^``pfsp_power`` of the estimated win
rate p = (wins + 1) / (games + 2): the members the learner does worst against
come up most; a fresh member starts at p = 1/2. With fixed ``weights``
({member: weight}, the snapshots sharing theirs) the draws follow those
instead: a table of a chosen make-up, since the win rate against a member
also depends on who else sits at the table.

Members that leave (the oldest snapshot beyond ``max_snapshots``) are no longer
drawn but keep playing the games they sit in until those end (``prune``).
Every member's randomness is reseeded from the run's seed at each rollout
(``reseed``), so a checkpoint needs only the league's description
(``state_dict``), whatever kind of member it holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pokerzoo.agents.batched import batched_agents
from pokerzoo.agents.policy import (
    SAMPLE_SUFFIX,
    building_prior,
    check_observation,
    load_policy_net,
    resolve_policy_path,
    shipped_policies,
    trained_game,
)
from pokerzoo.agents.registry import parse_call, refuse_unknown_arguments
from pokerzoo.envs import game_class
from pokerzoo.envs.registry import spec as game_spec
from pokerzoo.training.selfplay.frozen import FrozenPolicy

POLICY_PREFIX = "policy:"


def member_opponent(game: str, options: Mapping[str, Any], member: str, *, deterministic: bool = False):
    """The batched opponent a league entry names (see the module docstring); ValueError naming the choices."""
    scripted = batched_agents(game)
    name, kwargs = parse_call(member)
    if name in scripted:
        return _scripted_member(game, member, name, scripted[name], kwargs)
    path = policy_path(game, member)
    if path is not None:
        return policy_opponent(game, options, path, deterministic=deterministic)
    shipped = shipped_policies(game)
    raise ValueError(
        f"{member!r} is not a batched agent of {game_spec(game).env_id}; league members and batched matches "
        f"take: {', '.join(scripted)} (batched scripted agents), {', '.join(shipped) or 'no'} shipped policies, "
        "or policy:PATH"
    )


def policy_path(game: str, member: str) -> Path | None:
    """The policy file a league entry or batched agent spec names (a shipped name or ``policy:PATH``, with or
    without ``@sample``), None for any other agent."""
    member = member.removesuffix(SAMPLE_SUFFIX)
    shipped = shipped_policies(game)
    if member in shipped:
        return shipped[member]
    if member.startswith(POLICY_PREFIX):
        return resolve_policy_path(member[len(POLICY_PREFIX) :])
    return None


def table_options(game: str, options: Mapping[str, Any], specs: Iterable[str]) -> dict[str, Any]:
    """The options a batched table of the agents ``specs`` runs with: ``options``, with the view-only options
    (``Option.view_only``) of each policy among the agents whose observation the table's does not begin with.

    Why: a batched policy reads the table's own observation arrays (``frozen.FrozenPolicy``), so a policy
    trained to read Breed the Heifer's ``action_counts`` needs a table that writes them. Such an option changes
    no rule, so the games are those of ``options``. The other policies read the observation's first entries,
    which are what they were trained on (``agents.policy.check_observation``); scripted agents do not read it.
    The scalar engine needs none of this: there each policy encodes its view itself (``PolicyAgent._encode``).
    Raises ValueError naming a policy that such options alone would show what it reads, but the table cannot:
    two policies trained with different such options, where no table shows both.
    """
    cls = game_class(game)
    view_only = [o.name for o in cls.OPTIONS if o.view_only]
    table = dict(options)
    if not view_only:
        return table
    trained = {}
    for spec in specs:
        path = policy_path(game, spec)
        if path is not None:
            trained[spec] = cls.OPTIONS.validate(dict(load_policy_net(path).meta.get("options") or {}))
    for theirs in trained.values():
        table = _widened(cls, view_only, table, theirs) or table
    for spec, theirs in trained.items():
        if _widened(cls, view_only, table, theirs) is not None:
            shown = ", ".join(f"{n}={table.get(n, cls.OPTIONS.options[n].default)!r}" for n in view_only)
            wanted = ", ".join(f"{n}={theirs[n]!r}" for n in view_only)
            raise ValueError(
                f"{spec} was trained with {wanted}, and a batched table of {game_spec(game).env_id} that shows the "
                f"other policies what they read has {shown}; play them with --engine scalar, where each policy "
                "encodes its own view"
            )
    return table


def league_table_options(cfg: Mapping[str, Any]) -> dict[str, Any]:
    """The options the rows of a batched training run (config ``cfg``) run with: its ``options`` and what the
    policies of its league and its anchor read (``table_options``). The learner and its snapshots read the
    observation's first entries, those of the run's own options (``loop.SelfPlay``)."""
    anchor = cfg["anchor"]["agent"]
    return table_options(cfg["game"], cfg["options"], [*cfg["league"]["scripted"], *([anchor] if anchor else [])])


def _widened(cls: Any, view_only: list[str], table: dict[str, Any], trained: Mapping[str, Any]) -> dict | None:
    """``table`` with the view-only options of a policy trained with ``trained``, where ``table`` does not show
    it what it reads and that would; else None (it is shown already, or its sizes differ, which
    ``check_observation`` names)."""
    own = {**table, **{name: trained[name] for name in view_only}}
    return own if not _shows(cls, table, trained) and _shows(cls, own, trained) else None


def _shows(cls: Any, table: Mapping[str, Any], trained: Mapping[str, Any]) -> bool:
    """Whether a table of options ``table`` shows a policy trained with ``trained`` what it reads: the table's
    observation begins with the policy's."""
    return cls(seed=0, **table).observation_schema.starts_with(cls(seed=0, **trained).observation_schema)


def has_batched_port(game: str, spec: str) -> bool:
    """Whether agent spec ``spec`` names a batched opponent (``batched_agent`` builds it): a batched scripted
    agent, a shipped policy or ``policy:PATH``, ``@sample`` or not. Agents without one (searches such as
    ``ismcts``) play a batched tournament on its scalar twins instead."""
    member = spec.removesuffix(SAMPLE_SUFFIX)
    name, _ = parse_call(member)
    return name in batched_agents(game) or member in shipped_policies(game) or member.startswith(POLICY_PREFIX)


def batched_agent(game: str, options: Mapping[str, Any], spec: str):
    """The batched opponent an agent spec names outside a league (a batched match): a member's name, where a
    policy may end in ``@sample`` to sample instead of taking its most likely action, as in the scalar registry."""
    sample = spec.endswith(SAMPLE_SUFFIX)
    return member_opponent(game, options, spec.removesuffix(SAMPLE_SUFFIX), deterministic=not sample)


def _scripted_member(game: str, member: str, name: str, cls: Any, kwargs: dict[str, Any]):
    """A batched scripted agent built with the arguments its entry gives (``equity(sampler=fast)``); a ValueError
    naming the entry and the agent's arguments for an unknown key or a bad value."""
    where = f"league member {member!r} of {game_spec(game).env_id}"
    refuse_unknown_arguments(where, name, cls, kwargs)
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: {exc}") from None


def policy_opponent(game: str, options: Mapping[str, Any], path: str | Path, *, deterministic: bool) -> FrozenPolicy:
    """The actor of policy file ``path`` as a batched opponent (the learner's fast path: ``frozen.py``), checked
    against the game's sizes."""
    net = load_policy_net(path)
    live = game_class(game)(seed=0, **options)
    trained_with = dict(net.meta.get("options") or {})
    check_observation(trained_game(net, path, game), live, f"policy {path} (trained with options {trained_with})")
    prior = None
    if net.prior is not None:  # a residual policy: its prior's batched port decides first
        with building_prior(path, net.prior["batched"]):
            prior = member_opponent(game, options, net.prior["batched"], deterministic=True)
    return FrozenPolicy(net, deterministic=deterministic, prior=prior)


@dataclass
class Member:
    id: int
    name: str  # shown in logs: "random", "heuristic", "snapshot@40960"
    source: str  # what rebuilds it: a scripted name, a shipped policy name, or policy:PATH
    opponent: Any
    wins: float = 0.0  # decayed: games won + half the games drawn
    games: float = 0.0  # decayed
    played: int = 0  # games in all (not decayed)
    active: bool = True  # drawn for new games
    snapshot: bool = False

    @property
    def win_rate(self) -> float:
        return (self.wins + 1.0) / (self.games + 2.0)


class League:
    """The members and their PFSP statistics (see the module docstring)."""

    def __init__(self, game: str, options: Mapping[str, Any], settings: Mapping[str, Any]):
        self.game = game
        self.options = dict(options)
        self.settings = dict(settings)
        self.members: dict[int, Member] = {}
        self.next_id = 0
        for name in self.settings["scripted"]:
            self._add(name, name, snapshot=False)

    # ------------------------------------------------------------------ membership
    def _plays_most_likely(self, source: str) -> bool:
        """Whether a policy member takes its most likely action: ``snapshot_deterministic``, except that a member
        named ``NAME@sample`` always samples, as the spec says in a batched match."""
        return bool(self.settings["snapshot_deterministic"]) and not source.endswith(SAMPLE_SUFFIX)

    def _add(self, name: str, source: str, *, snapshot: bool) -> Member:
        opponent = member_opponent(self.game, self.options, source, deterministic=self._plays_most_likely(source))
        member = Member(self.next_id, name, source, opponent, snapshot=snapshot)
        self.members[member.id] = member
        self.next_id += 1
        return member

    def add_member(self, name: str, opponent: Any) -> Member:
        """A prebuilt batched opponent joins (from code; ``state_dict`` cannot rebuild it: no source)."""
        member = Member(self.next_id, name, "", opponent)
        self.members[member.id] = member
        self.next_id += 1
        return member

    def add_snapshot(self, path: Path, step: int) -> Member:
        """A frozen copy of the learner joins; the oldest snapshot beyond ``max_snapshots`` stops being drawn."""
        member = self._add(f"snapshot@{step}", f"{POLICY_PREFIX}{Path(path).resolve()}", snapshot=True)
        snapshots = [m for m in self.active() if m.snapshot]
        for old in snapshots[: max(0, len(snapshots) - self.settings["max_snapshots"])]:
            old.active = False
        return member

    def prune(self, in_use: np.ndarray) -> None:
        """Forget members that left the league and sit in no game any more (``in_use``: member ids seated)."""
        seated = set(np.unique(in_use).tolist())
        for mid in [m.id for m in self.members.values() if not m.active and m.id not in seated]:
            del self.members[mid]

    def active(self) -> list[Member]:
        return [m for m in self.members.values() if m.active]

    def opponent(self, member_id: int):
        return self.members[member_id].opponent

    # ------------------------------------------------------------------ PFSP
    def weights(self) -> np.ndarray:
        """The drawing probabilities of the active members, in ``active()`` order: PFSP's, or the fixed
        ``weights`` of the settings (the snapshots sharing theirs evenly)."""
        members = self.active()
        if not members:
            return np.zeros(0)
        fixed = self.settings.get("weights") or {}
        if fixed:
            snapshots = sum(m.snapshot for m in members)
            f = np.array([fixed.get("snapshots", 0.0) / snapshots if m.snapshot else fixed.get(m.name, 0.0)
                          for m in members])  # fmt: skip
            if not f.sum() > 0:
                raise ValueError(f"league weights {fixed}: no active member has a weight > 0")
        else:
            f = np.array([(1.0 - m.win_rate) ** self.settings["pfsp_power"] for m in members])
        return f / f.sum()

    def draw(self, rng: np.random.Generator, k: int, among: Sequence[str] = ()) -> np.ndarray:
        """Member ids for ``k`` new games, drawn by the weights (PFSP's or the fixed ones); with ``among``
        (member names: a scripted member's is its entry) only those members, by their weights renormalised."""
        members = self.active()
        ids = np.array([m.id for m in members], dtype=np.int64)
        weights = self.weights()
        if among:
            weights = np.where([m.name in among for m in members], weights, 0.0)
            if not weights.sum() > 0:
                raise ValueError(f"none of {list(among)} is an active member with a weight > 0")
            weights = weights / weights.sum()
        return ids[rng.choice(len(members), size=k, p=weights)]

    def record(self, member_ids: np.ndarray, outcomes: np.ndarray) -> None:
        """The learner's results (1 won, 0.5 drawn, 0 lost) of finished games against these members."""
        for mid in np.unique(member_ids).tolist():
            sel = member_ids == mid
            member = self.members[mid]
            member.wins += float(outcomes[sel].sum())
            member.games += float(sel.sum())
            member.played += int(sel.sum())

    def decay(self) -> None:
        """One PPO update passes: every result so far counts ``0.5 ** (1 / pfsp_halflife)`` as much."""
        keep = 0.5 ** (1.0 / self.settings["pfsp_halflife"])
        for m in self.members.values():
            m.wins *= keep
            m.games *= keep

    def reseed(self, seed: int, rollout: int) -> None:
        """Each member's generator restarts from (seed, rollout, member id)."""
        for m in self.members.values():
            entropy = [seed, 0x1EA6, rollout, m.id]
            m.opponent.seed(int(np.random.SeedSequence(entropy).generate_state(1, np.uint64)[0] >> 1))

    def table(self) -> list[dict]:
        """Per active member: name, games played, estimated win rate, drawing probability."""
        return [
            {"name": m.name, "games": m.played, "win_rate": m.win_rate, "weight": float(w)}
            for m, w in zip(self.active(), self.weights())
        ]

    # ------------------------------------------------------------------ checkpoints
    def state_dict(self) -> dict:
        fields = ("id", "name", "source", "wins", "games", "played", "active", "snapshot")
        return {"next_id": self.next_id, "members": [{k: getattr(m, k) for k in fields} for m in self.members.values()]}

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        self.members = {}
        for entry in state["members"]:
            det = self._plays_most_likely(entry["source"])
            opponent = member_opponent(self.game, self.options, entry["source"], deterministic=det)
            member = Member(opponent=opponent, **entry)
            self.members[member.id] = member
        self.next_id = int(state["next_id"])
