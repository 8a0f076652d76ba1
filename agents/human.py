"""The human agent: a person choosing moves typed on a text stream (the terminal, or a test's pipe).

Input and output are plain text streams (stdin/stdout by default) so that a
test, or a script, can pipe a whole session in and read the transcript back.
The human sees the table through ``game.render(seat)``, which shows only what
that seat may know, and the legal moves listed by action number and name.

A move is typed as:

* its number (the action id, the same number the env's ``step`` takes), or the number
  its name ends with ("2" for "ante 2"; a number that is both, for two moves, is asked
  about, and "#2" always means the id);
* its name, case, spacing and punctuation ignored ("raise", "Bid 2");
* a unique beginning of a name ("rai"), its last words ("As" for "play As"), or some of
  its words ("exchange 2c Js" for "exchange slots 0,3 (2c Js)");
* ``?`` or ``help`` lists the moves again; ``quit`` ends the session.

Anything else is answered with what was wrong and the question is asked
again; end of input ends the session cleanly (exit status 1).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from typing import TextIO

import numpy as np

from pokerzoo.agents.base import Agent
from pokerzoo.envs.engine.game import Game, View

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("?", "help", "h")


class HumanQuit(Exception):
    """The human ended the session (``quit`` or end of input)."""


_PUNCTUATION = str.maketrans({c: " " for c in "()[]{},;:"})


def _norm(text: str) -> str:
    """Lower case, punctuation as spaces, single spaces: "Exchange slots 0,2 (2c Js)" -> "exchange slots 0 2 2c js"."""
    return " ".join(text.lower().translate(_PUNCTUATION).split())


def _ambiguous(text: str, found: Sequence[int], names: dict[int, str], how: str) -> tuple[None, str]:
    shown = ", ".join(f"{a}:{names[a]}" for a in found[:12]) + (" ..." if len(found) > 12 else "")
    return None, f"{text.strip()!r} is ambiguous: {len(found)} legal moves {how} it ({shown}); be more precise"


def parse_move(
    text: str, legal: Sequence[int], names: dict[int, str], num_actions: int
) -> tuple[int | None, str]:
    """Read one typed move: ``(action, "")`` or ``(None, why it is not a legal move)``.

    A number is the move's id, or the number a move's name ends with ("2" for "ante 2"); when it is both,
    for different moves, the answer asks which ("#2" always means the id). Words match a name exactly,
    by its beginning, by its end, or as a set of its words ("exchange 2c Js" for
    "exchange slots 0,3 (2c Js)"), each rule only when it names a single move.
    """
    typed = _norm(text)
    if not typed:
        return None, "please type a move: its number or its name (? lists them)"
    by_id = typed.startswith("#")
    number = typed[1:].strip() if by_id else typed
    if number.lstrip("-").isdecimal() and number.count("-") <= 1 and not number.endswith("-"):
        k = int(number)
        ending = [a for a in legal if _norm(names[a]).split()[-1:] == [str(k)] and a != k]
        if k in legal and (by_id or not ending):
            return k, ""
        if k in legal:
            return None, (
                f"{k} is ambiguous: move [{k}] is {names[k]!r}, and {names[ending[0]]!r} ends with {k}; "
                f"type the name, or #{k} for move [{k}]"
            )
        if not by_id and len(ending) == 1:
            return ending[0], ""
        if 0 <= k < num_actions:
            return None, f"move {k} is not legal now; legal: {_short_list(legal, names)}"
        return (
            None,
            f"there is no move {k}; moves are numbered 0..{num_actions - 1}; legal: {_short_list(legal, names)}",
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
            return _ambiguous(text, found, names, how)
    words = Counter(typed.split())
    extra = {a: sum((Counter(normalized[a].split()) - words).values()) for a in legal
             if not words - Counter(normalized[a].split())}  # fmt: skip
    if extra:
        fewest = min(extra.values())
        found = [a for a in extra if extra[a] == fewest]
        if len(found) == 1:
            return found[0], ""
        return _ambiguous(text, found, names, "hold the words of")
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
        reconfigure = getattr(self.input, "reconfigure", None)
        if reconfigure is not None:  # bytes that are not text become U+FFFD: a wrong move, asked again
            reconfigure(errors="replace")

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
            try:
                line = self.input.readline()
            except UnicodeDecodeError:
                self.say("that line is not readable text; type the move again")
                continue
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
