"""Hand histories: one JSON object per game per line, and their replay through the rules.

A game is fully determined by its name, options, seed and the actions taken,
so that is what a history stores; the events and final rewards are stored
too, so that ``replay`` can rebuild the game from the seed, re-apply every
action through the rules (each one checked for legality) and prove that it
reproduces the same events and rewards. A mismatch means the rules changed
since the history was written, or the history was edited, and is reported
with the first point of difference.

Line format (``"format": "pokerzoo.history/2"``)::

    {"format": ..., "game": "caribbean_stud_v0", "config": {...}, "seed": 123,
     "seats": ["rules_of_thumb"], "actions": [1], "action_names": ["raise"],
     "events": [{"type": "deal", ...}, ...], "rewards": [2.0], "steps": 1,
     "over": true, "truncated": false, ...extra (e.g. "deal", "seating"),
     "decisions": [{"kind": "probabilities", "actions": [0, 1], "values": [0.2, 0.8]}]}

``config`` is the options as given (not the validated form), so a history
replays with the same defaults the game then had for options not given.

Versions: ``pokerzoo.history/2`` adds the optional ``decisions`` list, one
entry per action: what the agent said it computed for that decision
(``Agent.decision_details()``: a policy's probabilities, a search's values)
or null. It is written only when some agent said something. Files of
version 1 (no ``decisions``) read and replay unchanged; a line of an unknown
version is an error naming it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from pokerzoo.envs import game_class
from pokerzoo.envs.engine.events import Event
from pokerzoo.envs.engine.game import Game, IllegalActionError
from pokerzoo.evaluation.outputs import check_destination, commit_file, staging_file

FORMAT = "pokerzoo.history/2"
READABLE_FORMATS = ("pokerzoo.history/1", FORMAT)  # every version this code reads and replays
REQUIRED = ("game", "config", "seed", "actions", "events", "rewards")


def to_jsonable(obj: Any) -> Any:
    """Events as plain JSON values: tuples become lists, numpy scalars Python numbers."""
    if isinstance(obj, Event):
        return to_jsonable(obj.to_json())
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return to_jsonable(obj.tolist())
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, str | int | float | bool) or obj is None:
        return obj
    if isinstance(obj, set | frozenset):
        return sorted(to_jsonable(v) for v in obj)
    raise TypeError(f"event value {obj!r} of type {type(obj).__name__} cannot be written to a hand history")


def make_record(
    game: Game,
    env_name: str,
    config: dict,
    seats: Sequence[str],
    extra: dict | None = None,
    action_names: Sequence[str] | None = None,
    decisions: Sequence[dict | None] | None = None,
) -> dict[str, Any]:
    """The history of ``game`` (normally finished): everything needed to replay and verify it.

    ``action_names``: the names as they were when each action was taken (an
    action's name may depend on the state, e.g. "call 4"); without them the
    names are asked of the finished game, which is right for games whose
    names do not change. The names are for reading; replay does not check them.
    ``decisions``: per action, the acting agent's ``decision_details()`` (or
    None); stored only when at least one is not None.
    """
    if game.seed is None:
        raise ValueError("only a seeded game can be recorded: its seed is what replays the shuffles")
    if decisions is not None and len(decisions) != len(game.history):
        raise ValueError(f"{len(decisions)} decision details for {len(game.history)} actions")
    said = decisions is not None and any(d is not None for d in decisions)
    return {
        "format": FORMAT,
        "game": env_name,
        "config": to_jsonable(config),
        "seed": int(game.seed),
        "seats": list(seats),
        **(to_jsonable(extra) if extra else {}),
        "actions": [int(a) for a in game.history],
        "action_names": list(action_names) if action_names is not None else _action_names(game),
        "events": to_jsonable(game.events),
        "rewards": [float(x) for x in game.total_rewards],
        "steps": len(game.history),
        "over": bool(game.is_over),
        "truncated": bool(game.is_truncated),
        **({"decisions": to_jsonable(list(decisions))} if said else {}),
    }


def _action_names(game: Game) -> list[str]:
    return [game.action_name(a) for a in game.history]


def dumps(record: dict) -> str:
    return json.dumps(record, separators=(",", ":"), allow_nan=False)


class HistoryWriter:
    """Appends histories to a JSON-lines file (``with HistoryWriter(path) as w: w.write(record)``).

    ``whole=True`` writes under a temporary name that ``close()`` renames to ``path``, and that
    ``discard()`` (or leaving the ``with`` block on an exception) removes: the file is there complete or
    not at all. Otherwise every game is in the file as soon as it is written (a play session).
    """

    def __init__(self, path: str | Path, append: bool = False, whole: bool = False):
        self.path = check_destination(path, folder=False, option="--record")
        self._target = staging_file(self.path) if whole else self.path
        self._fh: IO[str] = open(self._target, "a" if append else "w")  # noqa: SIM115 (closed by close())
        self.count = 0

    def write(self, record: dict) -> None:
        self._fh.write(dumps(record) + "\n")
        self.count += 1

    def close(self) -> None:
        self._fh.close()
        if self._target != self.path and self._target.exists():
            commit_file(self._target, self.path)

    def discard(self) -> None:
        self._fh.close()
        if self._target != self.path:
            self._target.unlink(missing_ok=True)

    def __enter__(self) -> HistoryWriter:
        return self

    def __exit__(self, kind, *exc) -> None:
        if kind is not None:
            self.discard()
        else:
            self.close()


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_record(record: Any) -> None:
    """A hand history's fields have the types replay needs; ``ValueError`` naming the first that does not."""
    if not isinstance(record, dict) or any(k not in record for k in REQUIRED):
        missing = [k for k in REQUIRED if not isinstance(record, dict) or k not in record]
        raise ValueError(f"not a pokerzoo hand history (missing {', '.join(missing)})")
    checks = (
        ("game", isinstance(record["game"], str), "a game name"),
        ("config", isinstance(record["config"], dict) and all(isinstance(k, str) for k in record["config"]),
         "an object of options"),
        ("seed", _is_int(record["seed"]) and 0 <= record["seed"] < 2**128, "an int >= 0"),
        ("actions", isinstance(record["actions"], list) and all(_is_int(a) for a in record["actions"]),
         "a list of ints"),
        ("events", isinstance(record["events"], list), "a list"),
        ("rewards", isinstance(record["rewards"], list)
         and all(isinstance(r, int | float) and not isinstance(r, bool) for r in record["rewards"]),
         "a list of numbers"),
    )  # fmt: skip
    for key, ok, what in checks:
        if not ok:
            raise ValueError(f"hand history field {key!r} must be {what}, got {str(record[key])[:80]!r}")


def read(path: str | Path) -> Iterator[tuple[int, dict]]:
    """(line number, record) for every non-empty line; a line that is not a history is a clear error."""
    try:
        with open(path, encoding="utf-8", errors="strict") as fh:
            for number, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except (json.JSONDecodeError, RecursionError) as exc:
                    why = f"{exc.msg} at column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else "too deep"
                    raise ValueError(f"{path}:{number}: not a JSON line ({why})") from None
                try:
                    check_record(record)
                except ValueError as exc:
                    raise ValueError(f"{path}:{number}: {exc}") from None
                version = record.get("format", READABLE_FORMATS[0])
                if version not in READABLE_FORMATS:
                    raise ValueError(
                        f"{path}:{number}: hand-history format {str(version)[:40]!r} is not one this pokerzoo "
                        f"reads ({', '.join(READABLE_FORMATS)}); a newer pokerzoo wrote it?"
                    )
                yield number, record
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not a text file of JSON lines ({exc.reason} at byte {exc.start})") from None
    except IsADirectoryError:
        raise ValueError(f"{path} is a folder, not a hand-history file") from None


# --------------------------------------------------------------------------- replay
@dataclass
class ReplayResult:
    ok: bool
    game: str
    seed: int
    steps: int
    message: str = ""
    line: int | None = None
    trace: list[tuple[int | None, int, str]] = field(default_factory=list)  # (player, action, name)
    replayed: Game | None = None

    def describe(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        head = f"{where}{self.game} seed {self.seed}, {self.steps} actions"
        return f"{head}: ok" if self.ok else f"{head}: MISMATCH: {self.message}"


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two JSON values first differ, as ``path: recorded X, replayed Y``."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in b:
                return f"{path}.{k}: recorded {a[k]!r}, missing in the replay"
            if k not in a:
                return f"{path}.{k}: not recorded, replayed {b[k]!r}"
            if a[k] != b[k]:
                return _first_difference(a[k], b[k], f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
        if len(a) != len(b):
            return f"{path}: recorded {len(a)} entries, replayed {len(b)}"
    return f"{path or 'value'}: recorded {a!r}, replayed {b!r}"


def replay(
    record: dict, line: int | None = None, on_action: Callable[[Game, int, int], None] | None = None
) -> ReplayResult:
    """Rebuild the game from seed and options, re-apply the actions, compare events and rewards.

    ``on_action(game, step, action)``, when given, is called before each action
    is applied, with the game as the acting seat faced it: the viewer builds its
    step-by-step table from these calls (and the final state, ``replayed``).
    """
    check_record(record)
    name, seed = record["game"], record["seed"]
    result = ReplayResult(ok=False, game=name, seed=seed, steps=len(record["actions"]), line=line)
    try:
        game = game_class(name)(seed=seed, **record["config"])
    except ValueError as exc:
        result.message = f"cannot rebuild the game: {exc}"
        return result
    result.replayed = game
    for step, action in enumerate(record["actions"]):
        if game.is_over:
            result.message = (
                f"the game ended after {step} actions, but {len(record['actions'])} were recorded"
            )
            return result
        player = game.current_player
        valid = isinstance(action, int) and not isinstance(action, bool) and 0 <= action < game.num_actions
        name = game.action_name(action) if valid else "?"
        if on_action is not None and valid:
            on_action(game, step, action)
        try:
            game.apply(action)
        except IllegalActionError as exc:
            result.message = f"action {step} ({action!r}) is illegal on replay: {exc}"
            return result
        result.trace.append((player, int(action), name))
    events = to_jsonable(game.events)
    if events != record["events"]:
        recorded = record["events"]
        index = next(
            (i for i, (x, y) in enumerate(zip(recorded, events)) if x != y), min(len(recorded), len(events))
        )
        if index < min(len(recorded), len(events)):
            where = _first_difference(recorded[index], events[index], f"events[{index}]")
            kind = recorded[index].get("type") if isinstance(recorded[index], dict) else None
            result.message = f"event {index} ({kind!r}) differs: {where}"
        else:
            result.message = f"{len(recorded)} events recorded, {len(events)} replayed"
        return result
    rewards = [float(x) for x in game.total_rewards]
    if rewards != [float(x) for x in record["rewards"]]:
        result.message = f"final rewards differ: recorded {record['rewards']}, replayed {rewards}"
        return result
    if "over" in record and bool(record["over"]) != game.is_over:
        result.message = f"recorded over={record['over']}, but the replayed game is_over={game.is_over}"
        return result
    result.ok = True
    return result


def replay_file(path: str | Path) -> list[ReplayResult]:
    return [replay(record, line) for line, record in read(path)]
