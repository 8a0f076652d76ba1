"""Play a game in the browser against agents: a small local web server.

Example: ``pokerzoo serve perico --opponents heuristic ppo --open``.

You play one seat (``--seat``) against agent specs in the others, used in
turn as in ``pokerzoo play``, with the same legal-move rules and messages:
click a move, or type its number, its name or a unique part of it. The
server listens on 127.0.0.1 (only this machine) unless ``--host`` says
otherwise. Every finished game is appended to the ``--record`` file, which
``pokerzoo view`` and ``pokerzoo replay`` read. Stop it with Ctrl-C.
"""

from __future__ import annotations

import argparse
import sys
import time
import webbrowser
from pathlib import Path

from pokerzoo.cli import web_play
from pokerzoo.cli.arguments import port
from pokerzoo.cli.play import add_table_arguments
from pokerzoo.evaluation.tournament import env_name, parse_config_pairs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_table_arguments(parser)
    parser.add_argument(
        "--record", metavar="FILE", help="hand-history file the games are appended to (default runs/serve/...)"
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=port, default=8000, help="port (default 8000; 0 picks a free one)")
    parser.add_argument("--open", action="store_true", help="open the page in the default browser")
    parser.add_argument("--verbose", action="store_true", help="log every request")


def run(args: argparse.Namespace) -> int:
    name = env_name(args.game)
    record = args.record or str(Path("runs", "serve", f"{name}-{time.strftime('%Y%m%d-%H%M%S')}.jsonl"))
    try:
        server, session = web_play.make_server(
            name,
            parse_config_pairs(args.config),
            opponents=args.opponents,
            seat=args.seat,
            seed=args.seed,
            record=record,
            host=args.host,
            port=args.port,
            quiet=not args.verbose,
        )
    except OSError as exc:
        raise ValueError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    host, port = server.server_address[:2]
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{port}/"
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: listening on {args.host}: other machines can reach this game", file=sys.stderr)
    print(f"pokerzoo serve {name}: you are seat {args.seat} (session seed {session.table.session_seed})")
    print(f"open {url} ; games are saved to {record} ; Ctrl-C stops")
    if args.open:
        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    print(f"{session.saved} game{'s' if session.saved != 1 else ''} saved to {record}")
    return 0
