"""Several tournaments of the same match, played on different seeds, pooled into one report.

Why: a search agent costs seconds of a core per deal, so resolving a small
margin takes thousands of deals, played in pieces: one session after another,
on whichever machine is free. Each piece's deals are independent samples of
the same match (other seeds, other cards), so the pieces' deals together are
one larger sample; the report of the pool is the report a single tournament
over all those deals would have written (``summarize`` of the pieces' games,
the deals numbered one after another), with every interval computed over all
of them. The pieces must be the same match: the same game and options, the
same agents in the same order, the same seatings and deal mode. They must
also be different deals: a seed played twice is the same deals twice, which
would narrow the intervals without adding information, so it is refused.

One folder alone is a pool of one: its own deals, re-read with the statistics
``summarize`` computes now (a report written before a section existed, such
as the tablemates matrix, gets it), every figure it had unchanged; a
``games.csv`` from before the tally columns loses its bidding and betting
statistics there, as in any pool.

A piece is a folder ``pokerzoo evaluate`` wrote (``report.json`` and
``games.csv``), on either engine: a batched tournament's report is the scalar
one's, and its games are the same games, so pieces of both engines pool.
``games.csv`` holds every game and seat with the tallies the bidding and
betting statistics count; files written before those columns existed pool
their rewards, and the pooled report then leaves the bidding and betting
statistics out (they would count only some of the games).
"""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass
from pathlib import Path

from pokerzoo.evaluation.report import GAMES_CSV_COLUMNS, GAMES_CSV_TALLIES, summarize
from pokerzoo.evaluation.tournament import GameRecord, TournamentResult

SAME = ("game", "config", "agents_given", "seatings", "seating", "duplicate", "num_players", "unit")  # must agree


@dataclass
class Piece:
    """One tournament read back from its folder."""

    folder: Path
    summary: dict  # its report.json
    records: list[GameRecord]
    tallies: bool  # whether its games.csv has the decision, betting and bid columns


def _refuse(folder: Path, problem: str) -> ValueError:
    return ValueError(f"{folder}: {problem}")


def _number(folder: Path, row: int, column: str, text: str, kind=float):
    try:
        value = kind(text)
    except ValueError:
        raise _refuse(folder, f"games.csv row {row}: {column}={text!r} is not a number") from None
    if kind is float and not math.isfinite(value):
        raise _refuse(folder, f"games.csv row {row}: {column}={text!r} is not finite")
    return value


def _bids(folder: Path, row: int, seat: int, text: str) -> list[tuple[int, int, int]]:
    out = []
    for pair in text.split():
        bid, _, tricks = pair.partition("/")
        out.append((seat, _number(folder, row, "bids", bid, int), _number(folder, row, "bids", tricks, int)))
    return out


def read_piece(folder: str | Path) -> Piece:
    """A tournament folder's report and games, checked: every game has one row per seat, the agents are the
    report's, the deals are 0..deals-1. A clear error names the folder and what is wrong."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder}: not a folder (pool reads the folders pokerzoo evaluate writes)")
    for name in ("report.json", "games.csv"):
        if not (folder / name).is_file():
            why = " (batched head-to-head reports written before the batched tournament have none)" if (
                name == "games.csv") else ""  # fmt: skip
            raise _refuse(folder, f"no {name}: not a folder pokerzoo evaluate wrote{why}")
    try:
        summary = json.loads((folder / "report.json").read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise _refuse(folder, f"report.json is not valid JSON ({exc})") from None
    if not isinstance(summary, dict):
        raise _refuse(folder, "report.json is not an object: not a tournament report")
    if "seating" not in summary and isinstance(summary.get("seatings"), list):
        # a report from before the seating mode was recorded: rotations, or (A = n <= 3) permutations
        permuted = len(summary["seatings"]) > len(summary.get("agents_given", ()))
        summary["seating"] = "permutations" if permuted else "rotations"
    missing = [k for k in (*SAME, "deals", "seed", "agents", "seconds", "workers") if k not in summary]
    if missing:
        raise _refuse(folder, f"report.json lacks {', '.join(missing)}: not a tournament report")
    if "pooled_from" in summary:
        raise _refuse(folder, "is itself a pool; pool its pieces instead")
    labels = [a["agent"] for a in summary["agents"]]
    players, deals = summary["num_players"], summary["deals"]
    with open(folder / "games.csv", newline="") as fh:
        reader = csv.DictReader(fh)
        columns = tuple(reader.fieldnames or ())
        if columns[: len(GAMES_CSV_COLUMNS)] != GAMES_CSV_COLUMNS:
            raise _refuse(folder, f"games.csv has columns {list(columns)}; expected {list(GAMES_CSV_COLUMNS)} first")
        tallies = columns[len(GAMES_CSV_COLUMNS) :] == GAMES_CSV_TALLIES
        rows = list(reader)
    games: dict[tuple[int, int], list[tuple[int, dict]]] = {}
    for n, r in enumerate(rows, start=2):  # row 1 is the header
        key = (_number(folder, n, "deal", r["deal"], int), _number(folder, n, "seating", r["seating"], int))
        games.setdefault(key, []).append((n, r))
    records = []
    for (deal, lineup), seat_rows in games.items():
        seat_rows.sort(key=lambda x: int(x[1]["seat"]))
        n0, first = seat_rows[0]
        if [int(r["seat"]) for _, r in seat_rows] != list(range(players)):
            raise _refuse(folder, f"games.csv: deal {deal}, seating {lineup} has seats "
                                  f"{[r['seat'] for _, r in seat_rows]}; expected 0..{players - 1}")  # fmt: skip
        if not 0 <= deal < deals:
            raise _refuse(folder, f"games.csv row {n0}: deal {deal} is outside 0..{deals - 1} (report.json's deals)")
        seats, bids = [], []
        for n, r in seat_rows:
            if r["agent"] not in labels:
                raise _refuse(folder, f"games.csv row {n}: agent {r['agent']!r} is not one of the report's {labels}")
            seats.append(labels.index(r["agent"]))
            if tallies:
                bids += _bids(folder, n, int(r["seat"]), r["bids"])
        units = first["units"]
        records.append(
            GameRecord(
                deal=deal,
                lineup=lineup,
                seed=_number(folder, n0, "seed", first["seed"], int),
                seats=tuple(seats),
                rewards=tuple(_number(folder, n, "reward", r["reward"]) for n, r in seat_rows),
                win_shares=tuple(_number(folder, n, "win_share", r["win_share"]) for n, r in seat_rows),
                units=None if units == "" else _number(folder, n0, "units", units, int),
                steps=_number(folder, n0, "steps", first["steps"], int),
                truncated=first["truncated"] == "1",
                decisions=tuple(
                    tuple(_number(folder, n, c, r[c], int) for c in GAMES_CSV_TALLIES[:2]) if tallies else (0, 0)
                    for n, r in seat_rows
                ),
                betting=tuple(
                    tuple(_number(folder, n, c, r[c], int) for c in GAMES_CSV_TALLIES[2:6]) if tallies else (0, 0, 0, 0)
                    for n, r in seat_rows
                ),
                bids=tuple(bids),
            )
        )
    if len(records) != summary["games"]:
        raise _refuse(folder, f"games.csv has {len(records)} games; report.json says {summary['games']}")
    return Piece(folder, summary, records, tallies)


def _check_same_match(pieces: list[Piece]) -> None:
    first = pieces[0]
    for piece in pieces[1:]:
        for key in SAME:
            if piece.summary[key] != first.summary[key]:
                raise ValueError(
                    f"{piece.folder} is another match than {first.folder}: its {key} is "
                    f"{piece.summary[key]!r}, where the first has {first.summary[key]!r}"
                )
    seen: dict[int, Path] = {}
    for piece in pieces:
        seed = piece.summary["seed"]
        if seed in seen:
            raise ValueError(
                f"{seen[seed]} and {piece.folder} were both played with seed {seed}: the same deals twice are not "
                "independent samples (pool tournaments of different seeds)"
            )
        seen[seed] = piece.folder
    where: dict[int, Path] = {}
    for piece in pieces:
        for seed in {rec.seed for rec in piece.records}:
            if where.setdefault(seed, piece.folder) != piece.folder:
                raise ValueError(f"{where[seed]} and {piece.folder} share the deal seed {seed}: the same cards twice")


def combine(folders: list[str | Path]) -> tuple[TournamentResult, list[Piece]]:
    """The pieces, read and checked as one match, and their tournament with the deals renumbered one after
    another (not summarized: ``pool`` adds the report, analyses such as ``benchmarks/table_kinds.py`` read the
    games)."""
    if not folders:
        raise ValueError("pool needs at least one tournament folder, got none")
    pieces = [read_piece(f) for f in folders]
    _check_same_match(pieces)
    first = pieces[0].summary
    records, offset = [], 0
    for piece in pieces:
        for rec in piece.records:
            rec.deal += offset
            records.append(rec)
        offset += piece.summary["deals"]
    labels = [a["agent"] for a in first["agents"]]
    result = TournamentResult(
        env_name=first["game"],
        config=first["config"],
        agents=tuple(first["agents_given"]),
        labels=labels,
        num_players=first["num_players"],
        seatings=[tuple(s) for s in first["seatings"]],
        deals=offset,
        seed=first["seed"],
        duplicate=first["duplicate"],
        unit=first["unit"],
        records=records,
        workers=max(p.summary["workers"] for p in pieces),
        seconds=sum(p.summary["seconds"] for p in pieces),
        seating=first["seating"],
    )
    return result, pieces


def pool(folders: list[str | Path]) -> tuple[TournamentResult, dict]:
    """The pooled tournament (the pieces' deals renumbered one after another) and its summary."""
    result, pieces = combine(folders)
    summary = summarize(result)
    summary["seed"] = [p.summary["seed"] for p in pieces]
    summary["pooled_from"] = [
        {"folder": str(p.folder), "seed": p.summary["seed"], "deals": p.summary["deals"], "tallies": p.tallies}
        for p in pieces
    ]
    if not all(p.tallies for p in pieces):
        for agent in summary["agents"]:  # counted in some pieces only: left out rather than undercounted
            for key in ("bidding_decisions", "play_decisions", "bidding", "betting"):
                agent.pop(key, None)
    return result, summary
