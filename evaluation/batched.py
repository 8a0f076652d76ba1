"""Duplicate head-to-head matches on the batched engine: two agents over tens of thousands of deals in seconds.

Why: in a game whose results spread widely a comparison needs many deals to
resolve. In Breed the Heifer a deal's paired difference has a standard
deviation near 10 chips, so ±0.15 takes some 17,000 deals, which the scalar
harness plays at about 25 deals a second on one core; the batched engine
plays them (against the batched ``equity`` bettor) in about a minute. Training
runs use it to tell checkpoints apart.

It is the scalar harness's match, played on batched rows:

* the same deals and seatings as ``pokerzoo evaluate`` with two agents
  (duplicate deals, ``tournament.seatings`` rotations): the row of lineup r of
  deal d is seeded with the tournament's game seed of that deal
  (``tournament.DealSeeds``), so every deal starts with the cards the scalar
  tournament deals it (``pokerzoo.envs.batched``: a row plays exactly the
  scalar game of its seed);
* the same statistics (``report``): per deal, each agent's reward per
  seat-game, their paired difference with a Student-t interval, win shares.

Deterministic agents (Raspisnoy's heuristic, a policy's most likely action)
therefore play exactly the scalar tournament's games (tested). Agents that draw
random numbers draw them from their own batched generators, so their games
match the scalar ones in distribution, not draw for draw.

The agents are batched opponents (``envs.batched.opponents``: ``act(env,
rows)``, ``seed``), given with their labels. The layers above build them from
specs (``training.selfplay.league.batched_agent``: what a self-play league can
hold, the game's batched scripted agents with their arguments such as
``equity(sampler=fast)``, shipped policy names and ``policy:PATH``, ``@sample``
for a policy that samples), as the trainers' periodic evaluations do.

``pokerzoo evaluate --engine batched`` plays the batched *tournament* instead
(``evaluation.batched_tournament``: any agents, any seating, the scalar
report with its tallies, a scalar twin checking every game), on this module's
row loop (``play_rows``). The head-to-head here keeps no twins: with cheap
agents it is three to four times faster, which the periodic evaluations want.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from tqdm import tqdm

from pokerzoo.envs.batched import kernel_class
from pokerzoo.envs.batched.core import BatchedEnv
from pokerzoo.envs.batched.opponents import BatchedOpponent
from pokerzoo.envs.registry import canonical
from pokerzoo.evaluation.report import LEVEL, Estimate, mean_ci
from pokerzoo.evaluation.tournament import MAX_STEPS, DealSeeds, seatings

BATCH_ROWS = 16_384  # rows (games) stepped together: large enough that the agents' per-call cost vanishes


@dataclass(frozen=True)
class HeadToHead:
    """The result of ``head_to_head``: per agent reward and win share per game, and their paired difference."""

    game: str
    agents: tuple[str, str]
    deals: int
    seed: int
    config: dict[str, Any]
    seatings: list[tuple[int, ...]]
    reward_per_game: tuple[Estimate, Estimate]
    win_rate: tuple[Estimate, Estimate]
    difference: Estimate  # agents[0] - agents[1], reward per game, paired by deal
    truncated_games: int
    seconds: float
    level: float = LEVEL

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, in the shape of the scalar report's agents and paired differences."""
        return {
            "game": self.game,
            "engine": "batched",
            "config": self.config,
            "deals": self.deals,
            "games": self.deals * len(self.seatings),
            "seatings": [list(s) for s in self.seatings],
            "duplicate": True,
            "seed": self.seed,
            "level": self.level,
            "seconds": round(self.seconds, 3),
            "truncated_games": self.truncated_games,
            "agents": [
                {"agent": a, "reward_per_game": r.to_dict(), "win_rate": w.to_dict()}
                for a, r, w in zip(self.agents, self.reward_per_game, self.win_rate)
            ],
            "paired_differences": [
                {"a": self.agents[0], "b": self.agents[1], "deals": self.deals, "difference": self.difference.to_dict()}
            ],
        }

    def markdown(self) -> str:
        lvl = f"{self.level:.0%}"
        d = self.difference
        lines = [
            f"## {self.game}: {self.agents[0]} vs {self.agents[1]} (batched engine)",
            "",
            f"{self.deals:,} duplicate deals × {len(self.seatings)} seatings, seed {self.seed}, {self.seconds:.1f} s",
            "",
            f"| agent | reward/game ({lvl} CI) | win rate |",
            "|---|---|---|",
        ]
        for a, r, w in zip(self.agents, self.reward_per_game, self.win_rate):
            lines.append(f"| {a} | {r.mean:+.3f} ± {r.half_width:.3f} | {w.mean:.3f} |")
        lines += ["", f"{self.agents[0]} − {self.agents[1]}: **{d.mean:+.3f} ± {d.half_width:.3f}** a game"]
        if self.truncated_games:
            lines.append(f"\n{self.truncated_games} games were cut by the engine's safety cap")
        return "\n".join(lines)


def check_match(labels: Sequence[str], deals: int, seed: int, batch_rows: int = BATCH_ROWS) -> None:
    """ValueError naming what ``head_to_head`` cannot play: not two agents, a size below 1, a negative seed."""
    if len(labels) != 2:
        raise ValueError(f"a batched head-to-head takes exactly two agents, got {len(labels)}: {list(labels)}")
    for name, value, low in (("deals", deals, 1), ("batch_rows", batch_rows, 1), ("seed", seed, 0)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
            raise ValueError(f"{name}={value!r}: expected an int >= {low}")


def table_config(game: str, config: Mapping[str, Any], table: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options the rows of a match of ``config`` run with: ``table`` (None: ``config``), which may differ
    from ``config`` only by view-only options (``Option.view_only``: what the seats are shown, never a rule;
    ``training.selfplay.league.table_options`` turns them on for the policies that read them). ValueError
    naming any other option that differs."""
    if table is None:
        return dict(config)
    options = kernel_class(game).game_class.OPTIONS
    given, shown = options.validate(dict(config)), options.validate(dict(table))
    changed = sorted(name for name in given if given[name] != shown[name] and not options.options[name].view_only)
    if changed:
        raise ValueError(
            f"the table's options may add only what the seats are shown to the game's ({dict(config)}); "
            f"these change the rules: {', '.join(f'{n}={shown[n]!r}' for n in changed)}"
        )
    return dict(table)


def head_to_head(
    game: str,
    agents: Sequence[tuple[str, BatchedOpponent]],
    *,
    deals: int,
    seed: int = 0,
    config: Mapping[str, Any] | None = None,
    batch_rows: int = BATCH_ROWS,
    progress: bool | None = False,
    table: Mapping[str, Any] | None = None,
) -> HeadToHead:
    """Agents ``agents[0]`` and ``agents[1]``, (label, batched opponent) pairs, over ``deals`` duplicate deals on
    the batched engine (module doc).

    ``batch_rows``: games stepped at once (whole deals, every seating of a deal
    in one batch); the agents are reseeded per batch, so results are a function
    of (seed, deals, batch_rows). ``progress``: a bar over the deals (None: when
    stderr is a terminal). ``table``: the options the rows run with, ``config``
    with view-only options turned on for the policies that read them
    (``table_config``); the result keeps ``config``, the game played.
    Raises ValueError naming a bad agent, option or size.
    """
    labels = [label for label, _ in agents]
    check_match(labels, deals, seed, batch_rows)
    env_id = canonical(game)
    config = dict(config or {})
    kernel = kernel_class(env_id)
    shown = table_config(env_id, config, table)
    players_cls = kernel.game_class
    num_players = players_cls.from_config(players_cls.OPTIONS.validate(config), seed=0).num_players
    lineups = seatings(2, num_players, "rotations")
    show = sys.stderr.isatty() if progress is None else bool(progress)
    bar = tqdm(total=deals, unit="deal", desc=f"{env_id} head-to-head", disable=not show)
    bar.set_postfix_str("loading the game's kernels (compiling them the first time)")
    started = time.perf_counter()
    try:
        players = [player for _, player in agents]
        per_batch = max(1, batch_rows // len(lineups))
        reward = np.zeros((2, deals))
        games = np.zeros((2, deals))
        wins = np.zeros((2, deals))
        truncated = 0
        for batch, first in enumerate(range(0, deals, per_batch)):
            chunk = np.arange(first, min(deals, first + per_batch))
            for i, p in enumerate(players):
                p.seed(int(np.random.SeedSequence([seed, batch, i]).generate_state(1, np.uint64)[0] >> 1))
            seeds, owner = match_rows(seed, chunk, lineups)
            totals, cut = play_rows(kernel, shown, seeds, owner, players)
            truncated += cut
            deal_of = np.repeat(chunk, len(lineups))
            shares = _win_shares(totals)
            for i in range(2):
                mine = owner == i
                np.add.at(reward[i], deal_of, (totals * mine).sum(axis=1))
                np.add.at(games[i], deal_of, mine.sum(axis=1))
                np.add.at(wins[i], deal_of, (shares * mine).sum(axis=1))
            bar.set_postfix_str("")
            bar.update(chunk.size)
    finally:
        bar.close()
    per_game = reward / games
    return HeadToHead(
        game=env_id,
        agents=(labels[0], labels[1]),
        deals=deals,
        seed=seed,
        config=config,
        seatings=lineups,
        reward_per_game=(mean_ci(per_game[0]), mean_ci(per_game[1])),
        win_rate=tuple(mean_ci(wins[i] / games[i]).clipped(0.0, 1.0) for i in range(2)),
        difference=mean_ci(per_game[0] - per_game[1]),
        truncated_games=truncated,
        seconds=time.perf_counter() - started,
    )


def match_rows(seed: int, deals: np.ndarray, lineups) -> tuple[np.ndarray, np.ndarray]:
    """The head-to-head's rows: one per (deal, lineup), each deal's lineups replaying its one game seed; the game
    seed and the agent per seat of every row."""
    seeds = np.repeat([DealSeeds.draw(seed, int(d), len(lineups), 2, True).games[0] for d in deals], len(lineups))
    return seeds, np.tile(np.array(lineups, dtype=np.int64), (len(deals), 1))


OnStep = Callable[[np.ndarray, np.ndarray, np.ndarray], None]


def play_rows(
    kernel, config, seeds: np.ndarray, owner: np.ndarray, players, on_step: OnStep | None = None
) -> tuple[np.ndarray, int]:
    """One game per row, of game seed ``seeds[row]``, with agent ``players[owner[row, seat]]`` in each seat, all
    played to the end together; each seat's total reward and the number of games cut by the engine's cap.

    ``on_step(rows, seats, actions)``, when given, sees every step's live rows, the seat to act in each and its
    chosen action before the env applies them (the batched tournament steps its scalar twins with it; raising
    there stops the play)."""
    # copy=False: only the rewards of each step are read, at once; the agents read the env's own arrays
    env = BatchedEnv(kernel, len(seeds), copy=False, **config)
    env.reset(seed=[int(s) for s in seeds])
    totals = env.start_rewards.copy()
    live = np.ones(len(seeds), dtype=bool)
    actions = np.zeros(len(seeds), dtype=np.int64)
    truncated = 0
    for _ in range(MAX_STEPS):
        rows = np.flatnonzero(live)
        if rows.size == 0:
            break
        acting = env.current_player[rows]
        who = owner[rows, acting]
        for i, agent in enumerate(players):
            mine = rows[who == i]
            if mine.size:
                actions[mine] = agent.act(env, mine)
        if on_step is not None:
            on_step(rows, acting, actions[rows])
        _, _, rewards, done, info = env.step(actions[rows], rows)
        totals[rows] += rewards[rows]
        ended = rows[done[rows]]
        truncated += int(info["truncated"][ended].sum())
        live[ended] = False
    else:
        raise RuntimeError(f"{len(np.flatnonzero(live))} games still running after {MAX_STEPS:,} steps")
    return totals, truncated


def _win_shares(totals: np.ndarray) -> np.ndarray:
    """Per row and seat, as ``tournament.win_shares``: 1/k for each of k tied leaders (one seat: 1 if it won)."""
    if totals.shape[1] == 1:
        return (totals > 0).astype(np.float64)
    top = totals == totals.max(axis=1, keepdims=True)
    return top / top.sum(axis=1, keepdims=True)


__all__ = ["BATCH_ROWS", "HeadToHead", "check_match", "head_to_head", "match_rows", "play_rows", "table_config"]
