"""Human play in the terminal: scripted sessions (bad input included) finish a game of each kind."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import time
from typing import ClassVar

import numpy as np
import pytest

from pokerzoo.agents.human import HumanAgent, HumanQuit, format_moves, parse_move
from pokerzoo.cli.terminal_play import play_session
from pokerzoo.evaluation import history
from pokerzoo.evaluation.tournament import installed_games

GAMES = installed_games()
MOVE = re.compile(r"\[(\d+)\] (.+?)(?=\s{2,}\[|$)")


# --------------------------------------------------------------------------- reading a move
NAMES = {0: "fold", 1: "raise", 4: "play As", 5: "play Ks", 7: "bid 2", 8: "bid 12"}
LEGAL = [0, 1, 4, 5, 7, 8]


@pytest.mark.parametrize(
    "typed, action",
    [("1", 1), (" 0 ", 0), ("raise", 1), ("RAISE", 1), ("Fol", 0), ("play   as", 4), ("As", 4), ("ks", 5),
     ("bid 2", 7), ("12", 8), ("2", 7), ("bid 1", 8), ("#1", 1), ("(As)", 4), ("play, Ks", 5), ("٥", 5)],
)  # fmt: skip
def test_parse_move_accepts_numbers_names_and_unique_parts(typed, action):
    """A number is a move's id or the number its name ends with ("12" for "bid 12": no move 12 is legal)."""
    assert parse_move(typed, LEGAL, NAMES, 20) == (action, "")


@pytest.mark.parametrize(
    "typed, message",
    [("", "please type a move"), ("play", "ambiguous: 2 legal moves begin with it"),
     ("3", "move 3 is not legal"), ("99", "there is no move 99; moves are numbered 0..19"),
     ("check", "'check' is not a legal move"), ("-3", "there is no move -3"), ("²", "'²' is not a legal move"),
     ("#2", "move 2 is not legal"), ("1-", "'1-' is not a legal move"), ("①", "'①' is not a legal move")],
)  # fmt: skip
def test_parse_move_explains_bad_input(typed, message):
    got, why = parse_move(typed, LEGAL, NAMES, 20)
    assert got is None and message in why
    assert typed == "" or "legal" in why or "ambiguous" in why


def test_format_moves_wraps():
    text = format_moves(list(range(40)), {a: f"play card {a}" for a in range(40)}, width=60)
    assert all(len(line) <= 60 for line in text.splitlines())
    assert [int(m.group(1)) for line in text.splitlines() for m in MOVE.finditer(line.strip())] == list(
        range(40)
    )


def test_human_agent_asks_again_until_a_legal_move_and_stops_at_end_of_input():
    from pokerzoo.envs import game_class

    game = game_class("caribbean_stud")(seed=1)
    out = io.StringIO()
    agent = HumanAgent(io.StringIO("xyz\n?\n7\nraise\n"), out)
    assert agent.act(game.view(0), game.legal_mask(), game) == 1
    text = out.getvalue()
    assert "'xyz' is not a legal move; legal: 0:fold, 1:raise" in text
    assert "there is no move 7; moves are numbered 0..1" in text
    assert text.count("[0] fold") == 2  # listed, then listed again for "?"
    agent = HumanAgent(io.StringIO("nonsense\n"), io.StringIO())
    with pytest.raises(HumanQuit, match="input ended"):
        agent.act(game.view(0), game.legal_mask(), game)
    with pytest.raises(HumanQuit, match="quit"):
        HumanAgent(io.StringIO("quit\n"), io.StringIO()).act(game.view(0), game.legal_mask(), game)


# --------------------------------------------------------------------------- whole sessions
class ScriptedPlayer(io.TextIOBase):
    """Stands in for a person at the keyboard: reads the moves the session printed and answers.

    Before every real move it types one piece of bad input (cycling through
    kinds of mistakes), then a legal move, alternately by number and by name.
    """

    BAD: ClassVar[list[str]] = ["", "definitely not a move", "99999", "?"]

    def __init__(self, transcript: io.StringIO, seed: int = 0):
        self.transcript = transcript
        self.rng = np.random.default_rng(seed)
        self.turn = 0
        self.pending_bad = True
        self.moves_made = 0

    def readable(self) -> bool:
        return True

    def readline(self, size: int = -1) -> str:
        text = self.transcript.getvalue()
        listing = text[text.rfind("legal moves:") :]
        found = {int(m.group(1)): m.group(2).strip() for line in listing.splitlines()[1:]
                 for m in MOVE.finditer(line.strip())}  # fmt: skip
        moves = sorted(found.items())
        assert moves, "the session asked for a move without listing the legal moves"
        if self.pending_bad:
            self.pending_bad = False
            return self.BAD[self.turn % len(self.BAD)] + "\n"
        self.pending_bad = True
        self.turn += 1
        self.moves_made += 1
        action, name = moves[self.rng.integers(len(moves))]
        by_name = self.turn % 2 == 0 and sum(n.lower() == name.lower() for _, n in moves) == 1
        return (name if by_name else str(action)) + "\n"


@pytest.mark.parametrize("game", GAMES)
def test_scripted_session_finishes_a_game_of_each_kind(game, tmp_path):
    out = io.StringIO()
    player = ScriptedPlayer(out, seed=3)
    record = tmp_path / "play.jsonl"
    status = play_session(
        game, seat=0, opponents=["random"], seed=12, input=player, output=out, record=str(record)
    )
    text = out.getvalue()
    assert status == 0, text[-2000:]
    assert "Game over" in text and "| 0 | you |" in text
    assert player.moves_made >= 1
    assert "please type a move" in text  # the first bad input: an empty line
    if player.moves_made >= 2:
        assert "'definitely not a move' is not a legal move" in text
    # the recorded game replays, and its seats name the human
    ((line, rec),) = list(history.read(record))
    assert rec["seats"][0] == "you" and rec["human_seat"] == 0
    assert history.replay(rec, line).ok


def test_recorded_sessions_keep_the_agents_decision_details(tmp_path):
    out = io.StringIO()
    record = tmp_path / "play.jsonl"
    status = play_session(
        "perico", {"target_score": 1}, seat=1, opponents=["ppo"], seed=4, input=ScriptedPlayer(out, seed=1),
        output=out, record=str(record),
    )  # fmt: skip
    assert status == 0
    ((line, rec),) = list(history.read(record))
    from pokerzoo.envs import game_class

    game = game_class("perico")(seed=rec["seed"], **rec["config"])
    for action, detail in zip(rec["actions"], rec["decisions"], strict=True):
        if game.current_player == 1:
            assert detail is None, "the human's moves carry no details"
        else:
            assert detail["kind"] == "probabilities" and set(detail["actions"]) == set(game.legal_actions())
        game.apply(action)
    assert history.replay(rec, line).ok


@pytest.mark.parametrize("game", [g for g in GAMES if g != "caribbean_stud_v0"])
def test_session_from_another_seat(game):
    from pokerzoo.envs import game_class

    n = game_class(game)(seed=0).num_players
    out = io.StringIO()
    status = play_session(game, seat=n - 1, seed=1, input=ScriptedPlayer(out), output=out)
    assert status == 0
    assert f"| {n - 1} | you |" in out.getvalue()


def test_session_rejects_bad_arguments():
    with pytest.raises(ValueError, match=r"--seat 1 is not a seat of caribbean_stud_v0: seats are 0\.\.0"):
        play_session("caribbean_stud", seat=1, input=io.StringIO(), output=io.StringIO())
    with pytest.raises(ValueError, match="unknown agent"):
        play_session("caribbean_stud", opponents=["ghost"], input=io.StringIO(), output=io.StringIO())


def test_session_with_several_games_keeps_a_running_total():
    out = io.StringIO()
    status = play_session(
        "caribbean_stud", {"boxes": 2}, seed=4, games=3, input=ScriptedPlayer(out), output=out
    )
    text = out.getvalue()
    assert status == 0 and text.count("Game over") == 3 and "session total" in text
    assert "=== game 3 of 3" in text


def _cli(args: list[str], stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pokerzoo.cli.main", *args],
        input=stdin, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_pokerzoo_play_with_input_piped_in():
    """The real command, a typed session: bad input of every kind, then fold / raise by name and number."""
    typed = "\nhello\n7\n0\nRAISE\nrai\n"
    proc = _cli(["play", "caribbean_stud", "--config", "boxes=3", "--seed", "5"], typed)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Caribbean stud" in out  # the ansi rendering of the table
    assert "[0] fold" in out and "[1] raise" in out
    assert "please type a move" in out
    assert "'hello' is not a legal move; legal: 0:fold, 1:raise" in out
    assert "there is no move 7" in out
    assert out.count("you play: fold") == 1 and out.count("you play: raise") == 2
    assert "Game over" in out and "| 0 | you |" in out
    assert "session seed 5" in out


def _answer(listing_text: str, turn: int, rng: np.random.Generator) -> str:
    """A typed line for the latest move listing: a mistake on even turns, else a legal number or name."""
    listing = listing_text[listing_text.rfind("legal moves:") :]
    found = {int(m.group(1)): m.group(2).strip() for line in listing.splitlines()[1:]
             for m in MOVE.finditer(line.strip())}  # fmt: skip
    assert found, "asked for a move without listing the legal moves"
    if turn % 2 == 0:
        return ScriptedPlayer.BAD[(turn // 2) % len(ScriptedPlayer.BAD)]
    action, name = sorted(found.items())[rng.integers(len(found))]
    unique = list(found.values()).count(name) == 1
    return name if unique and turn % 4 == 1 else str(action)


@pytest.mark.parametrize("game", GAMES)
def test_pokerzoo_play_with_input_piped_in_for_every_game(game):
    """The real command over pipes: each prompt is answered after reading it, bad input first every time."""
    import os
    import select

    proc = subprocess.Popen(
        [sys.executable, "-m", "pokerzoo.cli.main", "play", game, "--seed", "3"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=False,
    )  # fmt: skip
    rng = np.random.default_rng(0)
    out, turn, deadline = b"", 0, time.monotonic() + 120
    try:
        while True:
            ready, _, _ = select.select([proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, f"no output for too long; last output: {out[-500:]!r}"
            chunk = os.read(proc.stdout.fileno(), 1 << 16)
            if not chunk:
                break
            out += chunk
            if out.endswith(b"your move> "):
                line = _answer(out.decode(), turn, rng)
                proc.stdin.write((line + "\n").encode())
                proc.stdin.flush()
                turn += 1
        assert proc.wait(timeout=30) == 0, proc.stderr.read().decode()[-2000:]
    finally:
        if proc.poll() is None:
            proc.kill()
    text = out.decode()
    assert "Game over" in text and "| 0 | you |" in text
    assert "please type a move" in text and turn >= 2


def test_pokerzoo_play_ends_cleanly_when_input_runs_out():
    proc = _cli(["play", "caribbean_stud", "--seed", "5"], "what\n")
    assert proc.returncode == 1
    assert "game abandoned (input ended)" in proc.stdout
    assert "Traceback" not in proc.stderr


# --------------------------------------------------------------------------- friction found by new users
def test_a_number_that_is_both_a_move_and_the_end_of_another_moves_name_is_asked_about():
    """Caribbean stud with antes 1, 2, 5 lists "[2] ante 1  [3] ante 2  [4] ante 5": typing 2 must not
    play ante 1 behind the user's back."""
    names = {2: "ante 1", 3: "ante 2", 4: "ante 5"}
    got, why = parse_move("2", [2, 3, 4], names, 5)
    assert got is None and "2 is ambiguous" in why and "'ante 2' ends with 2" in why and "#2" in why
    assert parse_move("#2", [2, 3, 4], names, 5) == (2, "")
    assert parse_move("ante 2", [2, 3, 4], names, 5) == (3, "")
    assert parse_move("5", [2, 3, 4], names, 5) == (4, "")  # no move 5: the ante of 5


@pytest.mark.skipif("perico_v0" not in GAMES, reason="Perico not installed")
def test_perico_exchanges_are_typed_with_their_cards_without_the_parentheses():
    from pokerzoo.envs import game_class

    game = game_class("perico")(seed=1)
    legal = game.legal_actions()
    names = {a: game.action_name(a) for a in legal}
    three = next(a for a in legal if names[a].count(" ") == 4)  # "exchange slots i,j,k (c1 c2 c3)"
    cards = names[three].split("(")[1].rstrip(")")
    for typed in (f"exchange {cards}", f"({cards})", f"exchange {' '.join(reversed(cards.split()))}",
                  f"Exchange {cards.upper()}"):  # fmt: skip
        assert parse_move(typed, legal, names, game.num_actions) == (three, ""), typed


def test_bad_input_at_the_prompt_asks_again_non_ascii_digits_and_unreadable_bytes_included():
    game = "caribbean_stud"
    raw = io.BytesIO("²\n٣٣\n\n①\nfoo\n\xff\n".encode() + b"\xff\xfe\n" + b"raise\n" * 50)
    text = io.TextIOWrapper(raw, encoding="utf-8")
    out = io.StringIO()
    assert play_session(game, {}, seed=3, input=text, output=out) == 0
    transcript = out.getvalue()
    assert "'²' is not a legal move" in transcript and "there is no move 33" in transcript
    assert "'\ufffd\ufffd' is not a legal move" in transcript and "Game over" in transcript
