"""Write a hand history (or a tournament's --record file) as one self-contained HTML viewer, and open it.

Example: ``pokerzoo view runs/perico.jsonl --open``.

Every game is replayed through the rules and drawn step by step, with the
table as each seat saw it (other seats' hidden cards face down) or with all
cards, the narration of each action, running rewards and, where the record
holds them, each decision's legal actions with the agent's probabilities or
search values. A file of several games lists them, filterable by agent and
outcome. The page needs no network: open it from disk in any current browser.
"""

from __future__ import annotations

import argparse
import webbrowser
from pathlib import Path

from tqdm import tqdm

from pokerzoo.evaluation import viewer


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="hand-history file (JSON lines) written by --record or pokerzoo serve")
    parser.add_argument("--out", metavar="HTML", help="page to write (default: FILE with .html)")
    parser.add_argument("--open", action="store_true", help="open the page in the default browser")
    parser.add_argument("--lines", type=int, nargs="+", metavar="LINE", help="only these lines of the file")
    parser.add_argument("--agent", metavar="AGENT", help="only games where this agent sits")
    parser.add_argument(
        "--max-games",
        type=int,
        default=viewer.DEFAULT_MAX_GAMES,
        metavar="N",
        help=f"at most N games in the page (default {viewer.DEFAULT_MAX_GAMES})",
    )
    parser.add_argument(
        "--seat",
        type=int,
        nargs="+",
        metavar="SEAT",
        help="only these seats' viewpoints (default: every seat)",
    )
    parser.add_argument(
        "--no-all-cards",
        dest="all_cards",
        action="store_false",
        help="leave out the all-cards viewpoint: the page then holds only what the chosen seats saw",
    )


def run(args: argparse.Namespace) -> int:
    bar = tqdm(unit="game", desc="view", leave=False, disable=None)
    try:
        page, shown, total = viewer.write(
            args.file,
            args.out,
            lines=args.lines,
            agent=args.agent,
            seats=args.seat,
            all_cards=args.all_cards,
            max_games=args.max_games,
            on_game=lambda _: bar.update(1),
        )
    finally:
        bar.close()
    more = f" of {total} (raise --max-games for more)" if total > shown else ""
    print(f"viewer: {page} ({shown} game{'s' if shown != 1 else ''}{more}, {page.stat().st_size / 1e6:.2f} MB)")
    if args.open:
        webbrowser.open(Path(page).resolve().as_uri())
    return 0
