"""The terminal play loop of ``pokerzoo play``: a human in one seat, agents in the others, games in turn.

The human is ``pokerzoo.agents.human.HumanAgent`` reading the terminal; this
module seats it, draws the session's seeds (so a session can be replayed),
narrates the other seats' moves as the human may see them
(``public_action_name``), prints results, and writes hand histories.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

import numpy as np

from pokerzoo.agents.base import Agent
from pokerzoo.agents.human import HumanAgent, HumanQuit
from pokerzoo.agents.registry import make_agent
from pokerzoo.envs import game_class
from pokerzoo.envs.engine.game import Game
from pokerzoo.evaluation import history
from pokerzoo.evaluation.tournament import env_name


def result_table(labels: Sequence[str], rewards: np.ndarray, totals: np.ndarray | None = None) -> str:
    """The end-of-game table: seat, player, this game's reward (and the session total)."""
    header = "| seat | player | reward |" + (" session total |" if totals is not None else "")
    rule = "|---|---|---|" + ("---|" if totals is not None else "")
    lines = [header, rule]
    for seat, label in enumerate(labels):
        row = f"| {seat} | {label} | {rewards[seat]:+g} |"
        if totals is not None:
            row += f" {totals[seat]:+g} |"
        lines.append(row)
    return "\n".join(lines)


@dataclass
class Seating:
    """One human seat and agents in the others, validated, with the session seed every game derives from.

    Shared by the terminal (``play_session``) and the browser (``pokerzoo serve``),
    so both check the same things and deal the same games from the same seed.
    """

    name: str
    cls: type[Game]
    config: dict
    num_players: int
    seat: int
    specs: dict[int, str]  # seat -> agent spec, for the seats the agents play
    agents: dict[int, Agent]
    labels: list[str]  # "you" for the human seat, the agent spec for the others
    session_seed: int

    @classmethod
    def make(
        cls,
        game_name: str,
        config: dict | None,
        seat: int,
        opponents: Sequence[str],
        seed: int | None,
    ) -> Seating:
        config = dict(config or {})
        name = env_name(game_name)
        game_cls = game_class(name)
        n = game_cls(seed=0, **config).num_players  # validates the options before anything else
        if not 0 <= seat < n:
            raise ValueError(f"--seat {seat} is not a seat of {name}: seats are 0..{n - 1}")
        others = [s for s in range(n) if s != seat]
        if others and not opponents:
            raise ValueError(f"{name} has {n} seats: give at least one opponent agent")
        for spec in opponents:
            make_agent(name, spec)  # an unknown agent is an error even where no seat needs it
        specs = {s: opponents[i % len(opponents)] for i, s in enumerate(others)}
        agents: dict[int, Agent] = {s: make_agent(name, spec) for s, spec in specs.items()}
        labels = [("you" if s == seat else f"{specs[s]}") for s in range(n)]
        session_seed = seed if seed is not None else int(np.random.SeedSequence().entropy % 2**63)
        return cls(name, game_cls, config, n, seat, specs, agents, labels, session_seed)

    def new_game(self, g: int) -> Game:
        """Game ``g`` of the session (0-based), with every agent reseeded for it."""
        game_seed = int(np.random.SeedSequence([self.session_seed, g]).generate_state(1, np.uint64)[0] >> 1)
        for s, agent in self.agents.items():
            agent.seed(int(np.random.SeedSequence([self.session_seed, g, s]).generate_state(1)[0]))
        return self.cls(seed=game_seed, **self.config)

    def record(self, game: Game, names: Sequence[str], details: Sequence[dict | None]) -> dict:
        """The hand history of a game of this session (the human's seat noted as ``human_seat``)."""
        return history.make_record(
            game, self.name, self.config, self.labels, {"human_seat": self.seat}, names, details
        )


def play_session(
    game_name: str,
    config: dict | None = None,
    *,
    seat: int = 0,
    opponents: Sequence[str] = ("random",),
    seed: int | None = None,
    games: int = 1,
    input: TextIO | None = None,
    output: TextIO | None = None,
    record: str | None = None,
) -> int:
    """Play ``games`` games with a human in ``seat``; returns an exit status (0 when every game finished).

    The other seats are filled with ``opponents`` in turn (agent specs, as for
    ``evaluate``). Games are seeded from ``seed`` (random when None), so a
    session can be replayed; ``record`` writes every game to a hand-history file.
    """
    out = output if output is not None else sys.stdout
    human = HumanAgent(input, out)
    table = Seating.make(game_name, config, seat, opponents, seed)
    if games < 1:
        raise ValueError(f"--games must be at least 1, got {games}")
    name, n, specs, agents, labels = table.name, table.num_players, table.specs, table.agents, table.labels
    others = sorted(specs)
    human.say(f"pokerzoo play {name}: you are seat {seat} of {n} (session seed {table.session_seed})")
    if n > 1:
        human.say("opponents: " + ", ".join(f"seat {s} {specs[s]}" for s in others))
    elif opponents and tuple(opponents) != ("random",):
        human.say("(one-seat game: the opponents given are not used)")
    writer = history.HistoryWriter(record) if record else None
    totals = np.zeros(n)
    status = 0
    try:
        for g in range(games):
            game = table.new_game(g)
            human.say(f"\n=== game {g + 1} of {games} (seed {game.seed}) ===")
            names: list[str] = []
            details: list[dict | None] = []
            try:
                _play_one(game, seat, human, agents, labels, names, details)
            except HumanQuit as exc:
                human.say(f"game abandoned ({exc}).")
                status = 1
                break
            rewards = game.total_rewards
            totals += rewards
            human.say("\n" + game.render(seat))
            human.say(f"\nGame over{' (ended by a safety cap)' if game.is_truncated else ''}. Result:")
            human.say(result_table(labels, rewards, totals if games > 1 else None))
            if writer is not None:
                writer.write(table.record(game, names, details))
    finally:
        if writer is not None:
            writer.close()
            human.say(f"hand histories written to {record} ({writer.count} games)")
    return status


def _play_one(
    game: Game,
    seat: int,
    human: HumanAgent,
    agents: dict[int, Agent],
    labels: Sequence[str],
    names: list[str],
    details: list[dict | None],
) -> None:
    while not game.is_over:
        p = game.current_player
        mask = game.legal_mask()
        if p == seat:
            human.say("\n" + game.render(seat))
            action = human.act(game.view(p), mask, game)
            details.append(None)
        else:
            action = int(agents[p].act(game.view(p), mask, game))
            details.append(agents[p].decision_details())
        name = game.action_name(action)
        announced = game.public_action_name(action, seat)
        names.append(name)
        game.apply(action)
        if p != seat:
            human.say(f"  seat {p} ({labels[p]}): {announced}")
        rewards = game.take_rewards()
        if np.any(rewards != 0):
            paid = [f"seat {s} ({labels[s]}) {r:+g}" for s, r in enumerate(rewards) if r]
            human.say("  rewards: " + ", ".join(paid))
