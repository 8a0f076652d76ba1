"""Tournaments between agents: seat rotation, duplicate deals, worker processes, reproducible results.

A tournament plays ``deals`` deals. A deal is identified by its game seed,
derived from the tournament seed and the deal's index; in duplicate mode
(the default) the same seed is replayed once per *seating*, a seating being
an assignment of the agents to the seats. So every agent meets the same
cards from every seat, and the luck of the deal cancels out of the paired
comparisons (``pokerzoo.evaluation.report``). Without duplicate, every game of
a deal gets its own seed (seats still rotate).

Seatings, with A agents and n seats (lineup r puts agent ``(r + s) % A`` in seat s):

* one-seat games (Caribbean stud): every agent plays every deal alone;
* ``rotations``: A lineups; every agent sits in every seat exactly once per
  deal. With fewer agents than seats the agents repeat around the table;
  with more, A − n of them sit out each lineup;
* ``permutations``: every ordered choice of n distinct agents (needs A ≥ n);
* ``shuffled``: the rotations of an order of the agents drawn afresh for every
  deal (from the tournament seed and the deal). Every agent still sits in
  every seat exactly once per deal, and every two agents share a table, and
  each sits right after the other, equally often in expectation. Plain
  rotations give neither once A ≥ 3: a lineup is a window of n consecutive
  agents of the list, so the seat order follows the list (with A = n every
  agent always sits right after the same one: a Breed the Heifer policy
  measured against its own copy so, five agents on five seats, came out +0.58
  ± 0.27 a hand above it from the seat order alone), and
  with A > n + 1 an agent meets its neighbours in the list most often and
  never those more than n − 1 places away (nine agents on four seats: the
  first never sits with the fifth and sixth); the table's means then depend
  on the order the agents were listed in;
* ``auto`` (default): permutations when A = n ≤ 3 (at most 6 lineups); shuffled
  when A ≥ 3 with n ≥ 2 (where rotations fix who sits after whom); else
  rotations (one seat, or two agents, whose rotations mirror each other).

Duplicate replays the same *seed*: what happens is fixed until the agents'
choices diverge. The first deal of every game is identical; games whose
later chance draws depend on play (draws from a stock, later rounds) see the
same cards only as long as the play consumes the same random numbers.

Reproducibility: the game seed of every game and the seed of every agent in
it are functions of (tournament seed, deal, seating) only, and agents are
reseeded before every game, so the results are identical for any number of
worker processes (workers play whole deals; results are reassembled in deal
order). Agents that keep other state from one game to the next would break
this; the registry's agents do not.

Per-unit means count the game's ``UnitEnd`` events (``pokerzoo.envs.engine.events``;
the registry names the unit: hand, round, deal), and the bidding metrics read
the bids and tricks those events carry. A game that logs no unit is reported per game.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing as mp
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import yaml
from tqdm import tqdm

from pokerzoo.agents.base import Agent
from pokerzoo.agents.registry import agent_names, make_agent
from pokerzoo.envs import ENV_NAMES, game_class
from pokerzoo.envs.engine.events import UnitEnd
from pokerzoo.envs.engine.game import Game
from pokerzoo.envs.registry import canonical, spec
from pokerzoo.evaluation import history
from pokerzoo.evaluation.processes import sigint_ignored, start_worker

MAX_STEPS = 1_000_000  # a game that runs longer than this is a bug in the game or an agent


# --------------------------------------------------------------------------- per-game knowledge
def count_units(game: Game) -> int | None:
    """How many scored units (``UnitEnd`` events) the finished game played, or None when it marks none."""
    n = sum(1 for e in game.events if isinstance(e, UnitEnd))
    return n or None


def read_bids(game: Game) -> tuple[tuple[int, int, int], ...]:
    """(seat, bid, tricks) of every bid in the game, read from its ``UnitEnd`` events; () without bids."""
    return tuple(b for e in game.events if isinstance(e, UnitEnd) for b in e.bid_results())


# --------------------------------------------------------------------------- options and seats
env_name = canonical  # the env id of a game name, with or without _v0


def installed_games() -> list[str]:
    """The registered games whose rules and agents modules are installed (others may be in the works)."""
    out = []
    for name in ENV_NAMES:
        try:
            game_class(name)
            agent_names(name)
        except ModuleNotFoundError:
            continue
        out.append(name)
    return out


def parse_config_pairs(pairs: Sequence[str] | None) -> dict[str, Any]:
    """``["boxes=2", "ante_choices=[1, 2]"]`` -> ``{"boxes": 2, "ante_choices": [1, 2]}`` (YAML values)."""
    config: dict[str, Any] = {}
    for pair in pairs or ():
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"--config expects KEY=VALUE, got {pair!r}")
        try:
            config[key] = yaml.safe_load(text) if text.strip() else ""
        except yaml.YAMLError as exc:
            raise ValueError(f"--config {key}: cannot read value {text!r}: {exc}") from None
    return config


SEATINGS = ("auto", "rotations", "permutations", "shuffled")


def resolve_seating(num_agents: int, num_seats: int, mode: str = "auto") -> str:
    """The seating ``mode`` means for A agents and n seats: ``auto`` resolved (module docstring), others checked."""
    if num_agents < 1:
        raise ValueError("a tournament needs at least one agent")
    if mode not in SEATINGS:
        raise ValueError(f"seating {mode!r}: expected {', '.join(SEATINGS[:-1])} or {SEATINGS[-1]}")
    if mode != "auto":
        return mode
    if num_agents == num_seats and math.factorial(num_seats) <= 6:
        return "permutations"
    return "shuffled" if num_seats >= 2 and num_agents >= 3 else "rotations"


def seatings(num_agents: int, num_seats: int, mode: str = "auto") -> list[tuple[int, ...]]:
    """The lineups (agent index per seat) every deal is played with; see the module docstring.

    ``shuffled`` gives the rotations, which ``deal_lineups`` applies to each deal's own order of the agents.
    """
    mode = resolve_seating(num_agents, num_seats, mode)
    if mode == "permutations":
        if num_agents < num_seats:
            raise ValueError(
                f"seating 'permutations' needs at least as many agents as seats ({num_seats}); "
                f"got {num_agents}: use 'rotations'"
            )
        return list(itertools.permutations(range(num_agents), num_seats))
    return [tuple((r + s) % num_agents for s in range(num_seats)) for r in range(num_agents)]


def deal_lineups(
    lineups: list[tuple[int, ...]], mode: str, seed: int, deal: int, num_agents: int
) -> list[tuple[int, ...]]:
    """The lineups of one deal: ``lineups`` themselves, or with ``shuffled`` the same rotations of the deal's own
    order of the agents (a permutation drawn from ``SeedSequence((seed, deal, SHUFFLE_KEY))``)."""
    if mode != "shuffled":
        return lineups
    order = np.random.default_rng([seed, deal, SHUFFLE_KEY]).permutation(num_agents)
    return [tuple(int(order[i]) for i in lineup) for lineup in lineups]


SHUFFLE_KEY = 0x5EA7  # keeps the order's stream apart from ``DealSeeds``' ``SeedSequence((seed, deal))``


@dataclass(frozen=True)
class DealSeeds:
    """Every seed one deal needs, all drawn from one ``SeedSequence((tournament seed, deal))``.

    A function of the tournament seed and the deal index only, so any worker
    playing the deal plays it identically. In duplicate mode all seatings share
    the deal's game seed; otherwise each seating has its own.
    """

    games: tuple[int, ...]  # game seed per seating
    agents: tuple[tuple[int, ...], ...]  # [seating][agent index] -> agent seed

    @classmethod
    def draw(cls, seed: int, deal: int, seatings: int, agents: int, duplicate: bool) -> DealSeeds:
        words = np.random.SeedSequence([seed, deal]).generate_state(1 + seatings * (1 + agents), np.uint64)
        words = [int(w) >> 1 for w in words]  # 63-bit seeds
        stride = 1 + agents
        games = tuple(words[0] if duplicate else words[1 + r * stride] for r in range(seatings))
        agent_seeds = tuple(tuple(words[2 + r * stride : 2 + r * stride + agents]) for r in range(seatings))
        return cls(games, agent_seeds)


def unique_labels(specs: Sequence[str]) -> list[str]:
    """Agent labels for reports: the spec, with ``#k`` added when the same spec is entered twice."""
    counts: dict[str, int] = {}
    total = {s: specs.count(s) for s in specs}
    labels = []
    for s in specs:
        counts[s] = counts.get(s, 0) + 1
        labels.append(f"{s}#{counts[s]}" if total[s] > 1 else s)
    return labels


# --------------------------------------------------------------------------- one game
@dataclass(slots=True)
class GameRecord:
    """The outcome of one game of a tournament, small enough to send back from a worker."""

    deal: int
    lineup: int
    seed: int
    seats: tuple[int, ...]  # agent index per seat
    rewards: tuple[float, ...]  # total reward per seat
    win_shares: tuple[float, ...]  # per seat: 1/k for each of k tied leaders (one seat: 1 if reward > 0)
    units: int | None
    steps: int
    truncated: bool
    decisions: tuple[tuple[int, int], ...]  # per seat: (bidding-phase decisions, other decisions)
    betting: tuple[tuple[int, int, int, int], ...]  # per seat: fold legal, folded, raise legal, raised
    bids: tuple[tuple[int, int, int], ...] = ()  # (seat, bid, tricks)
    history: dict | None = None


def win_shares(rewards: np.ndarray) -> tuple[float, ...]:
    if rewards.size == 1:
        return (1.0 if rewards[0] > 0 else 0.0,)
    top = rewards == rewards.max()
    return tuple(float(x) for x in top / top.sum())


class ActionKinds:
    """Which actions are folds and which raises (or bets), read from ``action_name`` per (phase, action).

    Per decision the question is "was a fold (a raise) legal, and was it
    taken?"; the answer per (phase, legal mask) is cached, since the same
    masks come back all the time (the cache is emptied when it grows large).
    """

    MAX_CACHED = 20_000

    def __init__(self, num_actions: int):
        self.num_actions = num_actions
        self._phases: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._masks: dict[tuple[str, bytes], tuple[np.ndarray | None, np.ndarray | None]] = {}

    def classify(self, game: Game, phase: str, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(is fold, is raise or bet) per action; filled in for every action legal in ``mask``."""
        arrays = self._phases.get(phase)
        if arrays is None:
            n = self.num_actions
            arrays = (np.zeros(n, bool), np.zeros(n, bool), np.zeros(n, bool))
            self._phases[phase] = arrays
        known, fold, raise_ = arrays
        for a in np.flatnonzero(mask & ~known):
            words = game.action_name(int(a)).lower().replace(":", " ").split()
            fold[a] = "fold" in words
            raise_[a] = "raise" in words or "bet" in words
            known[a] = True
        return fold, raise_

    def legal(self, game: Game, phase: str, mask: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
        """(fold flags if a fold is legal now, else None; raise flags if a raise/bet is legal, else None)."""
        key = (phase, mask.tobytes())
        found = self._masks.get(key)
        if found is None:
            fold, raise_ = self.classify(game, phase, mask)
            found = (fold if (mask & fold).any() else None, raise_ if (mask & raise_).any() else None)
            if len(self._masks) >= self.MAX_CACHED:
                self._masks.clear()
            self._masks[key] = found
        return found


class SeatTallies:
    """What a game's report counts per seat, one decision at a time: ``decisions`` [bidding-phase, other] and
    ``betting`` [fold legal, folded, raise legal, raised], and the game's ``steps``.

    One mechanism for both harnesses: ``play_game`` counts a scalar game with it, and the batched tournament
    (``pokerzoo.evaluation.batched_tournament``) counts each row's scalar twin with it, so their reports agree.
    """

    __slots__ = ("betting", "bidding_phases", "decisions", "steps")

    def __init__(self, game: Game):
        self.bidding_phases = game.BIDDING_PHASES
        self.decisions = [[0, 0] for _ in range(game.num_players)]
        self.betting = [[0, 0, 0, 0] for _ in range(game.num_players)]
        self.steps = 0

    def add(self, game: Game, kinds: ActionKinds, seat: int, phase: str, mask: np.ndarray, action: int) -> None:
        """Count seat ``seat`` choosing legal ``action`` under ``mask`` in ``phase`` (before it is applied)."""
        self.decisions[seat][0 if phase in self.bidding_phases else 1] += 1
        fold, raise_ = kinds.legal(game, phase, mask)
        if fold is not None:
            tally = self.betting[seat]
            tally[0] += 1
            if fold[action]:
                tally[1] += 1
        if raise_ is not None:
            tally = self.betting[seat]
            tally[2] += 1
            if raise_[action]:
                tally[3] += 1
        self.steps += 1

    def as_dict(self) -> dict[str, Any]:
        return {"decisions": self.decisions, "betting": self.betting, "steps": self.steps}


def illegal_action(game: Game, who: str, seat: int, action: int, phase: str, step: int) -> ValueError:
    """The error for an agent's illegal choice: the agent, the seed, the step and phase, the legal actions."""
    name = game.action_name(action) if 0 <= action < game.num_actions else "out of range"
    return ValueError(
        f"agent {who} in seat {seat} chose illegal action {action} ({name}) in {game.NAME} "
        f"seed {game.seed}, step {step}, phase {phase!r}; "
        f"legal: {', '.join(game.legal_action_names())}"
    )


def play_game(
    game: Game,
    agents: Sequence[Agent],
    labels: Sequence[str] | None = None,
    kinds: ActionKinds | None = None,
    names: list[str] | None = None,
    details: list[dict | None] | None = None,
) -> dict[str, Any]:
    """Play ``game`` to the end with ``agents[seat]`` in each seat; returns the per-seat tallies.

    Tallies (``SeatTallies``): ``decisions`` per seat [bidding-phase, other], ``betting`` per seat
    [fold legal, folded, raise legal, raised], ``steps``. An agent choosing an
    illegal action is an error naming the agent, the seed and the step.
    ``names``, when given, receives each action's name as it is taken (for hand histories);
    ``details`` each decision's ``Agent.decision_details()`` (None where the agent says nothing).
    """
    kinds = kinds or ActionKinds(game.num_actions)
    tallies = SeatTallies(game)
    while not game.is_over:
        if tallies.steps >= MAX_STEPS:
            raise RuntimeError(f"{game.NAME} seed {game.seed}: no end after {MAX_STEPS} steps")
        p = game.current_player
        mask = game.legal_mask()
        view = game.view(p)
        phase = view.phase
        action = int(agents[p].act(view, mask, game))
        if not (0 <= action < mask.size and mask[action]):
            raise illegal_action(game, labels[p] if labels else repr(agents[p]), p, action, phase, tallies.steps)
        tallies.add(game, kinds, p, phase, mask, action)
        if names is not None:
            names.append(game.action_name(action))
        if details is not None:
            details.append(agents[p].decision_details())
        game.apply(action)
    return tallies.as_dict()


# --------------------------------------------------------------------------- tournaments
@dataclass(frozen=True)
class Tournament:
    """What to play. ``agents`` are registry specs (scripted, ``bidder+player``, ``policy:PATH``)."""

    game: str
    agents: tuple[str, ...]
    deals: int = 200
    seed: int = 0
    config: dict = field(default_factory=dict)
    duplicate: bool = True
    seating: str = "auto"
    record: bool = False  # keep a hand history of every game (``GameRecord.history``)

    def __post_init__(self):
        object.__setattr__(self, "game", env_name(self.game))
        object.__setattr__(self, "agents", tuple(self.agents))
        if not self.agents:
            raise ValueError("a tournament needs at least one agent (--agents A B ...)")
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 1:
            raise ValueError(f"the number of deals must be a positive integer, got {self.deals!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"the tournament seed must be a non-negative integer, got {self.seed!r}")


@dataclass
class TournamentResult:
    env_name: str
    config: dict
    agents: tuple[str, ...]
    labels: list[str]
    num_players: int
    seatings: list[tuple[int, ...]]
    deals: int
    seed: int
    duplicate: bool
    unit: str | None
    records: list[GameRecord]
    workers: int
    seconds: float
    seating: str = "rotations"  # the seating mode played (``resolve_seating``): ``shuffled`` varies by deal

    @classmethod
    def of(
        cls,
        t: Tournament,
        num_players: int,
        lineups: list[tuple[int, ...]],
        records: list[GameRecord],
        workers: int,
        seconds: float,
    ) -> TournamentResult:
        """The result of tournament ``t`` played with these lineups, whichever engine played its games."""
        return cls(
            env_name=t.game,
            config=dict(t.config),
            agents=t.agents,
            labels=unique_labels(list(t.agents)),
            num_players=num_players,
            seatings=lineups,
            deals=t.deals,
            seed=t.seed,
            duplicate=t.duplicate,
            unit=spec(t.game).unit,
            records=records,
            workers=workers,
            seconds=seconds,
            seating=resolve_seating(len(t.agents), num_players, t.seating),
        )


class DealRunner:
    """Plays whole deals; one lives in every worker process (and one in-process for a single worker)."""

    def __init__(self, t: Tournament, lineups: list[tuple[int, ...]]):
        self.t = t
        self.lineups = lineups
        self.mode = resolve_seating(len(t.agents), len(lineups[0]), t.seating)
        self.cls = game_class(t.game)
        self.labels = unique_labels(list(t.agents))
        self.agents = [make_agent(t.game, spec) for spec in t.agents]
        self.kinds: ActionKinds | None = None

    def play_deal(self, deal: int) -> list[GameRecord]:
        t = self.t
        records = []
        seeds = DealSeeds.draw(t.seed, deal, len(self.lineups), len(self.agents), t.duplicate)
        lineups = deal_lineups(self.lineups, self.mode, t.seed, deal, len(self.agents))
        for r, lineup in enumerate(lineups):
            seed = seeds.games[r]
            game = self.cls(seed=seed, **t.config)
            if self.kinds is None:
                self.kinds = ActionKinds(game.num_actions)
            for i in sorted(set(lineup)):
                self.agents[i].seed(seeds.agents[r][i])
            names: list[str] | None = [] if t.record else None
            details: list[dict | None] | None = [] if t.record else None
            tally = play_game(
                game,
                [self.agents[i] for i in lineup],
                [self.labels[i] for i in lineup],
                self.kinds,
                names,
                details,
            )
            hist = None
            if t.record:
                hist = history.make_record(
                    game,
                    t.game,
                    t.config,
                    [t.agents[i] for i in lineup],
                    extra={"deal": deal, "seating": r},
                    action_names=names,
                    decisions=details,
                )
            records.append(game_record(game, deal, r, lineup, tally, hist))
        return records


def game_record(
    game: Game, deal: int, lineup: int, seats: tuple[int, ...], tally: dict[str, Any], hist: dict | None = None
) -> GameRecord:
    """The record of finished ``game``, lineup ``lineup`` of deal ``deal``, with its ``SeatTallies.as_dict()``."""
    rewards = game.total_rewards
    return GameRecord(
        deal=deal,
        lineup=lineup,
        seed=game.seed,
        seats=tuple(seats),
        rewards=tuple(float(x) for x in rewards),
        win_shares=win_shares(rewards),
        units=count_units(game),
        steps=tally["steps"],
        truncated=bool(game.is_truncated),
        decisions=tuple(tuple(row) for row in tally["decisions"]),
        betting=tuple(tuple(row) for row in tally["betting"]),
        bids=read_bids(game),
        history=hist,
    )


_WORKER: DealRunner | None = None


def _init_worker(t: Tournament, lineups: list[tuple[int, ...]]) -> None:
    global _WORKER
    start_worker()
    _WORKER = DealRunner(t, lineups)
    start_worker()  # again: building the agents may have loaded torch


def _work(deal: int) -> list[GameRecord]:
    assert _WORKER is not None, "worker not initialised"
    return _WORKER.play_deal(deal)


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def prepare(t: Tournament) -> tuple[int, list[tuple[int, ...]]]:
    """Validate everything in this process (options, agent specs) before any worker starts."""
    cls = game_class(t.game)
    probe = cls(seed=0, **t.config)  # raises ConfigError naming a bad option
    for agent_spec in t.agents:
        make_agent(t.game, agent_spec)  # raises ValueError naming an unknown agent
    return probe.num_players, seatings(len(t.agents), probe.num_players, t.seating)


def iter_deals(
    t: Tournament, workers: int | None = None, start_method: str = "spawn", ray: str | None = None
) -> Iterator[list[GameRecord]]:
    """Yield each deal's records in deal order, played by ``workers`` processes (None: all cores),
    or as Ray tasks when ``ray`` is given (a cluster's address; "": a private local Ray)."""
    _, lineups = prepare(t)
    if ray is not None:
        # Deferred: the distributed module builds on this one (DealRunner), and Ray is optional.
        from pokerzoo.evaluation.distributed import iter_ray_deals

        yield from iter_ray_deals(t, lineups, ray or None)
        return
    workers = resolve_workers(workers, t.deals)
    if workers == 1:
        runner = DealRunner(t, lineups)
        for deal in range(t.deals):
            yield runner.play_deal(deal)
        return
    ctx = mp.get_context(start_method)
    # Chunks amortise the pipe for games of a millisecond a deal; kept small against the deal count, since imap
    # yields in deal order and the bar moves only when a chunk is back (a search deal can take a minute of a core:
    # 15-deal chunks left a 240-deal round-robin's bar at zero for a quarter of an hour).
    chunksize = max(1, min(64, t.deals // (workers * 64)))
    with sigint_ignored():
        pool = ctx.Pool(workers, initializer=_init_worker, initargs=(t, lineups))
    with pool:  # leaving the block (an error, Ctrl-C) terminates the workers
        yield from pool.imap(_work, range(t.deals), chunksize=chunksize)


def resolve_workers(workers: int | None, deals: int) -> int:
    if workers is None or workers <= 0:
        workers = available_cores()
    return max(1, min(workers, deals))


def run_tournament(
    t: Tournament,
    *,
    workers: int | None = None,
    progress: bool | None = None,
    on_deal: Callable[[list[GameRecord]], None] | None = None,
    keep_histories: bool = True,
    start_method: str = "spawn",
    ray: str | None = None,
) -> TournamentResult:
    """Play the tournament and return every game's record, in deal order.

    ``workers``: processes (None or 0: all cores; 1: play in this process); ``ray``: play
    the deals as Ray tasks instead (a cluster's address, or "" for a private local Ray;
    ``pokerzoo.evaluation.distributed``), with the same records. Workers
    are spawned, so a script that uses more than one must call this under
    ``if __name__ == "__main__":``.
    ``progress``: a tqdm bar on stderr (None: only when stderr is a terminal).
    ``on_deal`` is called in this process with each deal's records as they
    arrive, in order (the CLI writes hand histories from it); with
    ``keep_histories=False`` the histories are dropped after that call, so a
    long recorded run does not hold them all in memory.
    """
    start = time.perf_counter()
    num_players, lineups = prepare(t)
    used = resolve_workers(workers, t.deals)
    records: list[GameRecord] = []
    bar = tqdm(
        total=t.deals,
        unit="deal",
        desc=t.game,
        disable=(None if progress is None else not progress),
        dynamic_ncols=True,
        leave=False,
    )
    try:
        for deal_records in iter_deals(t, used, start_method, ray):
            if on_deal is not None:
                on_deal(deal_records)
            if not keep_histories:
                for rec in deal_records:
                    rec.history = None
            records.extend(deal_records)
            bar.update(1)
    finally:
        bar.close()
    return TournamentResult.of(t, num_players, lineups, records, used, time.perf_counter() - start)
