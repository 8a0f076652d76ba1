"""A hand history as a step-by-step timeline of scenes, one per viewpoint: what the browser viewer shows.

The history is replayed through the rules (``history.replay``, which also
checks it reproduces the recorded outcome); before every action, and once
at the end, each viewpoint gets the table as it knew it (``Game.scene``:
seat ``p`` from ``view(p)`` and the public record, ``"all"`` every card) and
the action's narration as that viewpoint heard it (``public_action_name``,
so Mexican poker's secret predictions stay secret). The actor's own
viewpoint and ``"all"`` also get the legal actions, the action taken and,
where the record holds them, the agent's decision details (probabilities or
search values). A seat's entry never holds a card, an action id or a legal
move that seat could not know: leave ``"all"`` out (``viewpoints``) and the
timeline can be shown to that seat.

Step ``i`` is the state before action ``i``; the last step is the final
state. ``totals`` are the rewards earned so far, ``paid`` the rewards that
arrived since the previous step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from pokerzoo.envs.engine.game import Game
from pokerzoo.evaluation import history

ALL = "all"


def viewpoint_keys(num_players: int, seats: Sequence[int] | None = None, all_cards: bool = True) -> list[str]:
    """The viewpoints of a timeline: the given seats (default every seat), then ``"all"``."""
    chosen = range(num_players) if seats is None else seats
    for s in chosen:
        if not 0 <= s < num_players:
            raise ValueError(f"seat {s} is not a seat of this game: seats are 0..{num_players - 1}")
    return [str(s) for s in chosen] + ([ALL] if all_cards else [])


def _viewer(key: str) -> int | None:
    return None if key == ALL else int(key)


def _amounts(x: np.ndarray) -> list[float]:
    return [float(f"{v:.6g}") for v in x]


def seat_labels(record: dict, num_players: int) -> list[str]:
    seats = list(record.get("seats") or [])
    return [str(seats[s]) if s < len(seats) else f"P{s}" for s in range(num_players)]


def summary(record: dict, line: int | None = None) -> dict[str, Any]:
    """What the game list shows and filters on, read from the record alone (no replay)."""
    rewards = [float(x) for x in record["rewards"]]
    seats = list(record.get("seats") or [])
    if len(rewards) == 1:
        winners = [0] if rewards[0] > 0 else []
        outcome = "win" if rewards[0] > 0 else "loss" if rewards[0] < 0 else "push"
    else:
        top = max(rewards)
        winners = [s for s, r in enumerate(rewards) if r == top]
        outcome = "tie" if len(winners) > 1 else "decided"
    out = {
        "line": line,
        "game": record["game"],
        "seed": str(record["seed"]),  # a string: 63-bit seeds do not fit a JavaScript number
        "seats": seats,
        "rewards": rewards,
        "winners": winners,
        "outcome": outcome,
        "steps": len(record["actions"]),
        "truncated": bool(record.get("truncated", False)),
    }
    for key in ("deal", "seating", "human_seat"):
        if key in record:
            out[key] = record[key]
    return out


def build(
    record: dict,
    line: int | None = None,
    seats: Sequence[int] | None = None,
    all_cards: bool = True,
) -> dict[str, Any]:
    """The timeline of one history (module docstring); ``replay`` says whether it reproduced the record."""
    decisions = record.get("decisions")
    if decisions is not None and len(decisions) != len(record["actions"]):
        raise ValueError(f"line {line}: {len(decisions)} decision entries for {len(record['actions'])} actions")
    steps: list[dict[str, Any]] = []
    keys: list[str] = []
    labels: list[str] = []
    totals: np.ndarray | None = None

    def snapshot(game: Game) -> dict[str, Any]:
        nonlocal totals
        paid = game.take_rewards()
        totals = paid.copy() if totals is None else totals + paid
        return {
            "actor": game.current_player,
            "phase": game.phase,
            "totals": _amounts(totals),
            "paid": _amounts(paid),
            "views": {key: {"scene": game.scene(_viewer(key))} for key in keys},
        }

    def on_action(game: Game, step: int, action: int) -> None:
        if not keys:
            keys.extend(viewpoint_keys(game.num_players, seats, all_cards))
            labels.extend(seat_labels(record, game.num_players))
        entry = snapshot(game)
        actor = game.current_player
        legal = [[a, game.action_name(a)] for a in game.legal_actions()]
        detail = decisions[step] if decisions is not None else None
        for key, view in entry["views"].items():
            viewer = _viewer(key)
            heard = game.action_name(action) if viewer is None else game.public_action_name(action, viewer)
            view["say"] = f"P{actor} ({labels[actor]}): {heard}"
            if viewer is None or viewer == actor:
                view["legal"] = legal
                view["action"] = action
                if detail is not None:
                    view["decision"] = detail
        steps.append(entry)

    result = history.replay(record, line, on_action)
    game = result.replayed
    if game is not None and result.ok:
        if not keys:  # a game with no decision at all
            keys.extend(viewpoint_keys(game.num_players, seats, all_cards))
            labels.extend(seat_labels(record, game.num_players))
        final = snapshot(game)
        truncated = " (ended by a safety cap)" if game.is_truncated else ""
        result_text = "final rewards: " + ", ".join(f"P{s} ({labels[s]}) {r:+g}" for s, r in enumerate(final["totals"]))
        for view in final["views"].values():
            view["say"] = f"game over{truncated}; {result_text}"
        steps.append(final)
    return {
        **summary(record, line),
        "labels": labels,
        "viewpoints": keys,
        "replay": "ok" if result.ok else result.message,
        "steps": steps,
    }
