"""Tournaments on the batched engine: any agents, any seating, the scalar tournament's report, thousands of games
at once.

Why: a round-robin of a game's agents at mixed tables is the reading the shipped policies are judged by, and its
intervals need thousands of deals: eight Breed the Heifer agents at five seats cost the scalar harness 2-3 s a
deal on two cores, most of it in agents that have batched ports. Here those agents decide for all the games at
once, and the report is the scalar tournament's, file for file (``report.write_all``: games.csv included, so
``pokerzoo pool`` pools batched and scalar pieces of the same match).

How: every (deal, lineup) is a row of a ``BatchedEnv``, with the scalar tournament's game seed and lineup
(``tournament.DealSeeds``, ``tournament.deal_lineups``: any seating mode, duplicate or not), so a row starts as
the scalar game of its seed. Each row has a **scalar twin**, the reference ``Game`` of the same seed, stepped in
lockstep with the row's actions:

* agents with a batched port (``BatchedOpponent``: ``act(env, rows)``) decide on the rows, all at once;
* scalar agents (an ``Agent``: a search such as ``ismcts`` that has no port) decide on the twins, one decision
  at a time, at the scalar harness's speed: in this process, or with ``workers`` > 1 in that many worker
  processes (each rebuilds the scalar agents from their specs, ``make_agent``, and is sent the twins to decide
  on; a step's decisions are spread over them);
* the twins count the report's tallies with the scalar harness's own ``SeatTallies`` and give the records
  (``tournament.game_record``: rewards, units, bids), so the statistics are the scalar tournament's;
* the twins check the rows as they go: the seat to act must agree at every step, the action must be legal in
  the reference game (an illegal one is refused naming the agent and the legal actions), and every seat's total
  reward must agree at the end. A disagreement is an error naming the seed.

Randomness: batched agents are reseeded per batch of rows (``SeedSequence((seed, batch, agent))``, as in the
batched head-to-head); a scalar agent is reseeded before each of its decisions from its seed for the row
(``DealSeeds``) and the decision's index in the game. Results are a function of (tournament, ``batch_rows``).
Agents that draw no random numbers therefore play exactly the scalar tournament's games (tested); the others
play them in distribution. Scalar agents must decide from (view, mask, game, their generator) alone, which the
registry's agents do: one instance serves all the games at once.
"""

from __future__ import annotations

import multiprocessing as mp
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from tqdm import tqdm

from pokerzoo.agents.base import Agent
from pokerzoo.agents.registry import make_agent
from pokerzoo.envs import game_class
from pokerzoo.envs.batched import kernel_class
from pokerzoo.envs.batched.opponents import BatchedOpponent
from pokerzoo.evaluation.batched import BATCH_ROWS, play_rows, table_config
from pokerzoo.evaluation.processes import sigint_ignored, start_worker
from pokerzoo.evaluation.tournament import (
    ActionKinds,
    DealSeeds,
    GameRecord,
    SeatTallies,
    Tournament,
    TournamentResult,
    deal_lineups,
    game_record,
    illegal_action,
    resolve_seating,
    seatings,
    unique_labels,
)

Player = BatchedOpponent | Agent


class Twins:
    """The scalar twin of every row of a batch: the reference game, its tallies, its seat per agent's seed."""

    def __init__(
        self,
        t: Tournament,
        rows: list[tuple[int, int, tuple[int, ...], DealSeeds]],
        labels: list[str],
        bar: tqdm,
        batch: str = "",
    ):
        cls = game_class(t.game)
        self.bar = bar  # advanced by one for every game that ends; its note says where the batch is
        self.batch = batch
        self.steps = 0
        self.labels = labels
        self.where = [(deal, r, lineup) for deal, r, lineup, _ in rows]
        self.games = [cls(seed=seeds.games[r], **t.config) for _, r, _, seeds in rows]
        self.agent_seeds = [seeds.agents[r] for _, r, _, seeds in rows]
        self.tallies = [SeatTallies(g) for g in self.games]
        self.kinds = ActionKinds(self.games[0].num_actions)

    def step(self, rows: np.ndarray, seats: np.ndarray, actions: np.ndarray) -> None:
        """Apply each live row's action to its twin (``play_rows``'s ``on_step``), checking first that the row and
        the twin have the same seat to act and that the action is legal in the twin."""
        self.steps += 1
        self.bar.set_postfix_str(f"{self.batch}step {self.steps}, {len(rows):,} games playing")
        for row, seat, action in zip(rows.tolist(), seats.tolist(), actions.tolist()):
            game, tally = self.games[row], self.tallies[row]
            p = game.current_player
            if p != seat:
                raise RuntimeError(
                    f"{game.NAME} seed {game.seed}, step {tally.steps}: the batched row has seat {seat} to act, "
                    f"the scalar game seat {p}"
                )
            mask = game.legal_mask()
            phase = game.phase
            if not (0 <= action < mask.size and mask[action]):
                who = self.labels[self.where[row][2][p]]
                raise illegal_action(game, who, p, action, phase, tally.steps)
            tally.add(game, self.kinds, p, phase, mask, action)
            game.apply(action)
            if game.is_over:
                self.bar.update(1)

    def records(self, totals: np.ndarray) -> list[GameRecord]:
        """Every row's record, once all are over; each seat's batched total must be the twin's."""
        out = []
        for row, (game, tally) in enumerate(zip(self.games, self.tallies)):
            deal, r, lineup = self.where[row]
            if not game.is_over or not np.allclose(totals[row], game.total_rewards, rtol=1e-9, atol=1e-9):
                raise RuntimeError(
                    f"{game.NAME} seed {game.seed}: the batched row ended with rewards {totals[row].tolist()}, "
                    f"the scalar game {'is not over' if not game.is_over else game.total_rewards.tolist()}"
                )
            out.append(game_record(game, deal, r, lineup, tally.as_dict()))
        return out


def decide(agent: Agent, game, seed: int) -> int:
    """``agent``'s decision in ``game``, its generator started from ``seed``."""
    agent.seed(seed)
    p = game.current_player
    return int(agent.act(game.view(p), game.legal_mask(), game))


_AGENTS: dict[int, Agent] = {}  # a worker's scalar agents, by their place in the tournament


def _init_worker(game: str, specs: dict[int, str]) -> None:
    start_worker()
    _AGENTS.update({i: make_agent(game, spec) for i, spec in specs.items()})
    start_worker()  # again: building the agents may have loaded torch


def _decide(task: tuple[int, object, int]) -> int:
    index, game, seed = task
    return decide(_AGENTS[index], game, seed)


class ScalarSeats:
    """A scalar agent as a batched opponent: it decides on each asked row's twin, one decision at a time, here
    or spread over ``pool``'s workers (``run_batched_tournament``'s ``workers``)."""

    def __init__(self, agent: Agent, index: int, pool=None, workers: int = 1):
        self.agent = agent
        self.index = index  # the agent's place in the tournament (its seed in ``DealSeeds.agents``)
        self.pool = pool
        self.workers = workers
        self.twins: Twins | None = None

    def seed(self, seed: int | None) -> None:
        """Nothing to do: the agent is reseeded per decision from its row's seed (module docstring)."""

    def act(self, env, rows: np.ndarray) -> np.ndarray:
        twins = self.twins
        assert twins is not None, "ScalarSeats.act before a batch's twins were set"
        seeds = [
            int(np.random.SeedSequence([twins.agent_seeds[row][self.index], twins.tallies[row].steps])
                .generate_state(1, np.uint64)[0] >> 1)
            for row in rows.tolist()
        ]  # fmt: skip
        games = [twins.games[row] for row in rows.tolist()]
        if self.pool is None or len(rows) == 1:
            return np.array([decide(self.agent, g, s) for g, s in zip(games, seeds)], dtype=np.int64)
        tasks = [(self.index, g, s) for g, s in zip(games, seeds)]
        chunk = max(1, len(tasks) // (4 * self.workers))
        return np.array(self.pool.map(_decide, tasks, chunksize=chunk), dtype=np.int64)


def check_players(t: Tournament, players: Sequence[Player]) -> None:
    """TypeError/ValueError naming what a batched tournament cannot play."""
    if len(players) != len(t.agents):
        raise ValueError(f"{len(t.agents)} agent specs but {len(players)} players")
    for label, p in zip(t.agents, players):
        if not isinstance(p, Agent | BatchedOpponent):
            raise TypeError(f"agent {label!r}: {p!r} is neither a scalar Agent nor a batched opponent")
    if t.record:
        raise ValueError("a batched tournament keeps no hand histories; record them with the scalar engine")


def run_batched_tournament(
    t: Tournament,
    players: Sequence[Player],
    *,
    batch_rows: int = BATCH_ROWS,
    progress: bool | None = None,
    workers: int = 1,
    start_method: str = "spawn",
    table: Mapping[str, Any] | None = None,
) -> TournamentResult:
    """Play tournament ``t`` on the batched engine with ``players[i]`` for ``t.agents[i]`` (module docstring): a
    batched opponent, or a scalar ``Agent`` that plays on the twins. Returns the scalar tournament's result.

    ``batch_rows``: games stepped at once (whole deals); ``progress``: a bar over the games, advanced as each
    ends (None: when stderr is a terminal). ``workers``: processes for the scalar agents' decisions (1: this
    process; more: each worker rebuilds them from ``t.agents`` with ``make_agent``, so they must be registry
    specs; the results are the same either way). Workers are spawned: a script that uses more than one must
    call this under ``if __name__ == "__main__":``. ``table``: the options the rows run with, ``t.config`` with
    view-only options turned on for the policies that read them (``batched.table_config``); the twins and the
    report keep ``t.config``, the game played. Raises ValueError naming a game without a batched engine, a bad
    option or size.
    """
    check_players(t, players)
    for name, value in (("batch_rows", batch_rows), ("workers", workers)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name}={value!r}: expected an int >= 1")
    kernel = kernel_class(t.game)
    shown = table_config(t.game, t.config, table)
    num_players = game_class(t.game)(seed=0, **t.config).num_players  # raises ConfigError naming a bad option
    lineups = seatings(len(t.agents), num_players, t.seating)
    mode = resolve_seating(len(t.agents), num_players, t.seating)
    labels = unique_labels(list(t.agents))
    scalar = {i: t.agents[i] for i, p in enumerate(players) if isinstance(p, Agent)}
    pool = None
    if scalar and workers > 1:
        with sigint_ignored():
            pool = mp.get_context(start_method).Pool(workers, initializer=_init_worker, initargs=(t.game, scalar))
    seats = [ScalarSeats(p, i, pool, workers) if i in scalar else p for i, p in enumerate(players)]
    show = sys.stderr.isatty() if progress is None else bool(progress)
    bar = tqdm(
        total=t.deals * len(lineups), unit="game", desc=f"{t.game} batched", disable=not show, dynamic_ncols=True
    )
    bar.set_postfix_str("loading the game's kernels (compiling them the first time)")
    started = time.perf_counter()
    records: list[GameRecord] = []
    per_batch = max(1, batch_rows // len(lineups))
    batches = -(-t.deals // per_batch)
    try:
        for batch, first in enumerate(range(0, t.deals, per_batch)):
            rows = []
            for deal in range(first, min(t.deals, first + per_batch)):
                seeds = DealSeeds.draw(t.seed, deal, len(lineups), len(t.agents), t.duplicate)
                for r, lineup in enumerate(deal_lineups(lineups, mode, t.seed, deal, len(t.agents))):
                    rows.append((deal, r, lineup, seeds))
            twins = Twins(t, rows, labels, bar, f"batch {batch + 1}/{batches}, " if batches > 1 else "")
            for i, p in enumerate(seats):
                if isinstance(p, ScalarSeats):
                    p.twins = twins
                else:
                    p.seed(int(np.random.SeedSequence([t.seed, batch, i]).generate_state(1, np.uint64)[0] >> 1))
            owner = np.array([lineup for _, _, lineup, _ in rows], dtype=np.int64)
            game_seeds = np.array([g.seed for g in twins.games], dtype=np.int64)
            totals, _ = play_rows(kernel, shown, game_seeds, owner, seats, on_step=twins.step)
            records += twins.records(totals)
    finally:
        bar.close()
        for p in seats:
            if isinstance(p, ScalarSeats):
                p.twins = None
        if pool is not None:
            pool.terminate()
    used = workers if pool is not None else 1
    return TournamentResult.of(t, num_players, lineups, records, used, time.perf_counter() - started)


__all__ = ["ScalarSeats", "Twins", "check_players", "run_batched_tournament"]
