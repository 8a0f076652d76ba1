"""Playing a game in the terminal: a human agent reading moves from a text stream, and the play loop.

Input and output are plain text streams (stdin/stdout by default) so that a
test, or a script, can pipe a whole session in and read the transcript back.
The human sees the table through ``game.render(seat)``, which shows only what
that seat may know, and the legal moves listed by action number and name.

A move is typed as:

* its number (the action id, the same number the env's ``step`` takes);
* its name, case and spacing ignored ("raise", "Bid 2");
* a unique beginning of a name ("rai") or its last words ("As" for "play As");
* ``?`` or ``help`` lists the moves again; ``quit`` ends the session.

Anything else is answered with what was wrong and the question is asked
again; end of input ends the session cleanly (exit status 1).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

import numpy as np

from pokerzoo.agents.base import Agent
from pokerzoo.envs.engine.game import Game, View

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("?", "help", "h")


class HumanQuit(Exception):
    """The human ended the session (``quit`` or end of input)."""


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def parse_move(
    text: str, legal: Sequence[int], names: dict[int, str], num_actions: int
) -> tuple[int | None, str]:
    """Read one typed move: ``(action, "")`` or ``(None, why it is not a legal move)``."""
    typed = _norm(text)
    if not typed:
        return None, "please type a move: its number or its name (? lists them)"
    if typed.lstrip("-").isdigit():
        k = int(typed)
        if k in legal:
            return k, ""
        if 0 <= k < num_actions:
            return None, f"move {k} is not legal now; legal: {_short_list(legal, names)}"
        return (
            None,
            f"there is no move {k}; moves are numbered 0..{num_actions - 1}; "
            f"legal: {_short_list(legal, names)}",
        )
    normalized = {a: _norm(names[a]) for a in legal}
    exact = [a for a in legal if normalized[a] == typed]
    if len(exact) == 1:
        return exact[0], ""
    for how, found in (
        ("begin with", [a for a in legal if normalized[a].startswith(typed)]),
        ("end with", [a for a in legal if normalized[a].endswith(" " + typed)]),
    ):
        if len(found) == 1:
            return found[0], ""
        if len(found) > 1:
            shown = ", ".join(f"{a}:{names[a]}" for a in found[:12]) + (" ..." if len(found) > 12 else "")
            return (
                None,
                f"{text.strip()!r} is ambiguous: {len(found)} legal moves {how} it ({shown}); "
                "be more precise",
            )
    return None, f"{text.strip()!r} is not a legal move; legal: {_short_list(legal, names)}"


def _short_list(legal: Sequence[int], names: dict[int, str], limit: int = 12) -> str:
    shown = ", ".join(f"{a}:{names[a]}" for a in legal[:limit])
    return shown + (f" ... ({len(legal)} moves, ? lists them all)" if len(legal) > limit else "")


def format_moves(legal: Sequence[int], names: dict[int, str], width: int = 100) -> str:
    """The legal moves as ``[k] name`` entries packed into lines of at most ``width`` characters."""
    entries = [f"[{a}] {names[a]}" for a in legal]
    col = max(len(e) for e in entries) + 2
    per_line = max(1, width // col)
    lines = []
    for i in range(0, len(entries), per_line):
        lines.append("  " + "".join(e.ljust(col) for e in entries[i : i + per_line]).rstrip())
    return "\n".join(lines)


class HumanAgent(Agent):
    """Asks a person for every decision; ``input``/``output`` are text streams."""

    name = "human"

    def __init__(self, input: TextIO | None = None, output: TextIO | None = None, seed: int | None = None):
        super().__init__(seed)
        self.input = input if input is not None else sys.stdin
        self.output = output if output is not None else sys.stdout

    def say(self, text: str = "") -> None:
        self.output.write(text + "\n")
        self.output.flush()

    def act(self, view: View, mask: np.ndarray, game: Game | None = None) -> int:
        legal = np.flatnonzero(mask).tolist()
        if not legal:
            raise ValueError("the human was asked to act with no legal move")
        names = {a: game.action_name(a) if game is not None else f"action {a}" for a in legal}
        self.say(f"Your move (phase {view.phase}), legal moves:")
        self.say(format_moves(legal, names))
        while True:
            self.output.write("your move> ")
            self.output.flush()
            line = self.input.readline()
            if line == "":
                self.say()
                raise HumanQuit("input ended")
            typed = _norm(line)
            if typed in QUIT_WORDS and not any(_norm(names[a]) == typed for a in legal):
                raise HumanQuit("quit")
            if typed in HELP_WORDS:
                self.say(format_moves(legal, names))
                continue
            action, why = parse_move(line, legal, names, len(mask))
            if action is not None:
                self.say(f"you play: {names[action]}")
                return action
            self.say(why)


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
    from pokerzoo.agents.registry import make_agent
    from pokerzoo.envs import game_class
    from pokerzoo.training import history
    from pokerzoo.training.evaluate import env_name

    config = dict(config or {})
    name = env_name(game_name)
    cls = game_class(name)
    out = output if output is not None else sys.stdout
    human = HumanAgent(input, out)
    probe = cls(seed=0, **config)  # validates the options before anything else
    n = probe.num_players
    if not 0 <= seat < n:
        raise ValueError(f"--seat {seat} is not a seat of {name}: seats are 0..{n - 1}")
    if games < 1:
        raise ValueError(f"--games must be at least 1, got {games}")
    others = [s for s in range(n) if s != seat]
    if others and not opponents:
        raise ValueError(f"{name} has {n} seats: give at least one opponent agent")
    for spec in opponents:
        make_agent(name, spec)  # an unknown agent is an error even where no seat needs it
    specs = {s: opponents[i % len(opponents)] for i, s in enumerate(others)}
    agents: dict[int, Agent] = {s: make_agent(name, spec) for s, spec in specs.items()}
    labels = [("you" if s == seat else f"{specs[s]}") for s in range(n)]
    session_seed = seed if seed is not None else int(np.random.SeedSequence().entropy % 2**63)
    human.say(f"pokerzoo play {name}: you are seat {seat} of {n} (session seed {session_seed})")
    if n > 1:
        human.say("opponents: " + ", ".join(f"seat {s} {specs[s]}" for s in others))
    elif opponents and tuple(opponents) != ("random",):
        human.say("(one-seat game: the opponents given are not used)")
    writer = history.HistoryWriter(record) if record else None
    totals = np.zeros(n)
    status = 0
    try:
        for g in range(games):
            game_seed = int(np.random.SeedSequence([session_seed, g]).generate_state(1, np.uint64)[0] >> 1)
            game = cls(seed=game_seed, **config)
            for s, agent in agents.items():
                agent.seed(int(np.random.SeedSequence([session_seed, g, s]).generate_state(1)[0]))
            human.say(f"\n=== game {g + 1} of {games} (seed {game_seed}) ===")
            names: list[str] = []
            try:
                _play_one(game, seat, human, agents, labels, names)
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
                writer.write(history.make_record(game, name, config, labels, {"human_seat": seat}, names))
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
) -> None:
    while not game.is_over:
        p = game.current_player
        mask = game.legal_mask()
        if p == seat:
            human.say("\n" + game.render(seat))
            action = human.act(game.view(p), mask, game)
        else:
            action = int(agents[p].act(game.view(p), mask, game))
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
