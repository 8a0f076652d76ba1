"""Play a duplicate-deal tournament between agents and write the report.

Example:

    pokerzoo evaluate caribbean_stud --agents rules_of_thumb always_raise random --games 5000

Each of the --games deals is played once per seating (the agents rotated or
permuted over the seats) with the same seed, so every agent meets the same
cards. The report (report.md, summary.csv, games.csv, report.json, means.png)
goes to --out, and its Markdown table is printed at the end.

``--engine batched`` plays the same tournament on the batched engine
(``pokerzoo.evaluation.batched_tournament``): the same deals, seatings,
statistics and report files, thousands of games at once. Agents with a
batched port (batched scripted agents with their arguments, policies) decide
for all games together; the others (searches such as ``ismcts``) decide on
each game's scalar twin, one decision at a time, as fast as the scalar harness.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from pokerzoo.cli.arguments import add_pairs, add_progress
from pokerzoo.envs import game_class, spec
from pokerzoo.evaluation import history, report
from pokerzoo.evaluation.outputs import check_destination
from pokerzoo.evaluation.tournament import (
    SEATINGS,
    Tournament,
    parse_config_pairs,
    prepare,
    resolve_workers,
    run_tournament,
    seatings,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game name, e.g. caribbean_stud (with or without _v0)")
    parser.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="AGENT",
        help="agent specs: scripted names, 'bidder+player' composites, 'policy:PATH'",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=200,
        metavar="N",
        help="number of deals; each is played once per seating (default 200)",
    )
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument("--out", metavar="DIR", help="report folder (default runs/evaluate/GAME-seedS-TIME)")
    add_pairs(parser, "--config", "game options, values read as YAML (e.g. boxes=2 'ante_choices=[1,2]')")
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="worker processes (default 0 = all cores); with --engine batched, the processes that decide for the "
        "agents without a batched port",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDR",
        help="play the deals as Ray tasks: on the cluster at ADDR (e.g. 10.0.0.5:6379, or auto), or without "
        "ADDR on a private local Ray; same results as a local run (needs the 'ray' extra)",
    )
    parser.add_argument(
        "--no-duplicate",
        dest="duplicate",
        action="store_false",
        help="give every game its own seed instead of replaying each deal's seed",
    )
    parser.add_argument(
        "--seating",
        choices=SEATINGS,
        default="auto",
        help="how agents are placed on the seats per deal (default auto: permutations when agents = seats <= 3, "
        "shuffled for three or more agents at two or more seats, else rotations; pokerzoo.evaluation.tournament)",
    )
    parser.add_argument(
        "--record", metavar="FILE", help="write every game's hand history to FILE (JSON lines)"
    )
    add_progress(parser)
    parser.add_argument("--no-plot", dest="plot", action="store_false", help="skip the matplotlib figure")
    parser.add_argument(
        "--engine",
        choices=("scalar", "batched"),
        default="scalar",
        help="scalar (default): the tournament harness, deal by deal in --workers processes; batched: the same "
        "tournament on the batched engine, thousands of games at once: agents with a batched port (batched "
        "scripted agents with arguments, e.g. 'equity(sampler=fast)', policies; '@sample' samples) decide for all "
        "games together, the others on each game's scalar twin",
    )


def long_game_note(t: Tournament) -> str | None:
    """A warning when the game's default options make every game long (the demo plays shorter ones)."""
    shorter = {k: v for k, v in spec(t.game).demo_options.items() if k not in t.config}
    if not shorter:
        return None
    defaults = game_class(t.game).OPTIONS.defaults()
    now = ", ".join(f"{k}={defaults[k]!r}" for k in shorter)
    flags = " ".join(f"{k}={v!r}" for k, v in shorter.items())
    return (
        f"note: every game here is {t.game} with {now} (the whole game, long for search agents and policies "
        f"alike); `--config {flags}` plays the shorter games the demo plays"
    )


def tournament_from(args: argparse.Namespace) -> Tournament:
    return Tournament(
        game=args.game,
        agents=tuple(args.agents),
        deals=args.games,
        seed=args.seed,
        config=parse_config_pairs(args.config),
        duplicate=args.duplicate,
        seating=args.seating,
        record=bool(args.record),
    )


def out_folder(args: argparse.Namespace, t: Tournament, engine: str = "") -> Path:
    """--out, checked (a folder that can be written whole), or a fresh folder under runs/evaluate."""
    out = Path(args.out) if args.out else Path(
        "runs", "evaluate", f"{t.game}{engine}-seed{t.seed}-{time.strftime('%Y%m%d-%H%M%S')}"
    )  # fmt: skip
    check_destination(out, folder=True)
    return out


def announce(t: Tournament, lineups: list, engine: str = "") -> None:
    print(
        f"evaluate {t.game}{engine}: {t.deals:,} deals × {len(lineups)} seatings = {t.deals * len(lineups):,} games "
        f"({', '.join(t.agents)})",
        flush=True,
    )
    note = long_game_note(t)
    if note:
        print(note, flush=True)


def write_report(result, out: Path, plot: bool, command: str | None = None, **extra) -> dict:
    """The report's files in ``out``, its table printed, then where it is; ``extra``: added to the summary, and
    ``command``, the command line that played it (``pokerzoo policy record`` quotes it), where it is known."""
    summary = report.summarize(result) | extra | ({"command": command} if command else {})
    paths = report.write_all(result, out, summary, figure=plot)
    print(report.markdown(summary))
    print(f"report: {paths['markdown']} (also {', '.join(p.name for k, p in paths.items() if k != 'markdown')})")
    return paths


def run(args: argparse.Namespace) -> int:
    if args.engine == "batched":
        return run_batched(args)
    t = tournament_from(args)
    # Everything is checked before the first game: where the report and histories go, options, agents.
    out = out_folder(args, t)
    if args.record:
        check_destination(args.record, folder=False, option="--record")
    _, lineups = prepare(t)
    announce(t, lineups)
    writer = history.HistoryWriter(args.record, whole=True) if args.record else None

    def write_histories(records) -> None:
        for rec in records:
            writer.write(rec.history)

    try:
        result = run_tournament(
            t,
            workers=args.workers,
            progress=args.progress,
            on_deal=write_histories if writer is not None else None,
            keep_histories=False,
            ray=args.ray,
        )
    except BaseException:
        if writer is not None:
            writer.discard()
        raise
    write_report(result, out, args.plot, getattr(args, "command_line", None))
    if writer is not None:
        writer.close()
        print(
            f"hand histories: {args.record} ({writer.count} games; "
            f"check with `pokerzoo replay {args.record}`)"
        )
    return 0


# Options of the scalar harness the batched engine has no use for, with the value that means "not given".
SCALAR_ONLY = {"--ray": ("ray", None), "--record": ("record", None)}


def run_batched(args: argparse.Namespace) -> int:
    """``--engine batched``: the tournament on the batched engine (``evaluation.batched_tournament``), its
    report written to --out as the scalar harness writes it."""
    # Deferred: the batched engine plays policies through torch and loads compiled kernels, which scalar
    # evaluations never need.
    from pokerzoo.agents.registry import make_agent
    from pokerzoo.envs.batched import kernel_class
    from pokerzoo.evaluation.batched_tournament import run_batched_tournament
    from pokerzoo.training.selfplay.league import batched_agent, has_batched_port, table_options

    given = [flag for flag, (name, unset) in SCALAR_ONLY.items() if getattr(args, name) != unset]
    if given:
        raise ValueError(
            f"--engine batched plays on this machine and keeps no hand histories; "
            f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for --engine scalar"
        )
    t = tournament_from(args)
    kernel_class(t.game)  # a ValueError naming the batched games, for a game without a batched engine
    out = out_folder(args, t, "-batched")
    probe = game_class(t.game)(seed=0, **t.config)  # a ConfigError naming a bad option
    ported = [has_batched_port(t.game, a) for a in t.agents]
    table = table_options(t.game, t.config, [a for a, p in zip(t.agents, ported) if p])
    players = [batched_agent(t.game, table, a) if p else make_agent(t.game, a) for a, p in zip(t.agents, ported)]
    announce(t, seatings(len(t.agents), probe.num_players, t.seating), " on the batched engine")
    shown = {k: v for k, v in table.items() if t.config.get(k, probe.OPTIONS.options[k].default) != v}
    if shown:
        print(f"the table also shows {', '.join(f'{k}={v!r}' for k, v in shown.items())}, which its policies "
              "were trained to read (no rule changes; the others read what they were trained on)", flush=True)
    scalar = [a for a, p in zip(t.agents, ported) if not p]
    workers = resolve_workers(args.workers, t.deals) if scalar else 1
    if scalar:
        print(f"without a batched port, deciding on the scalar twins one decision at a time (in {workers} "
              f"process{'es' if workers > 1 else ''}): {', '.join(scalar)}", flush=True)  # fmt: skip
    result = run_batched_tournament(t, players, progress=args.progress, workers=workers, table=table)
    write_report(result, out, args.plot, getattr(args, "command_line", None), engine="batched")
    return 0
