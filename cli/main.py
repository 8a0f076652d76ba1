"""The ``pokerzoo`` command and its subcommands (``list``, ``evaluate``, ``play``, ``view``, ``serve``, ...).

Each subcommand lives in its own module exposing ``add_arguments(parser)`` and
``run(args) -> int``; this file only wires them up, so a command's module can
be imported and tested on its own. Only the module of the command being run is
imported (``pokerzoo list`` must not pay for torch, ~3 s, that ``train`` needs),
so every command module imports what it uses at its top.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# name -> (module, one-line help)
COMMANDS = {
    "list": ("pokerzoo.cli.list_games", "list the games, their options and agents"),
    "bench": ("pokerzoo.cli.bench", "measure env agent-steps/s and hand evaluations/s"),
    "evaluate": ("pokerzoo.cli.evaluate", "play a tournament between agents and report"),
    "play": ("pokerzoo.cli.play", "play a game in the terminal against agents"),
    "replay": ("pokerzoo.cli.replay", "replay a recorded hand history through the rules"),
    "view": ("pokerzoo.cli.view", "write a hand history as a self-contained HTML viewer"),
    "serve": ("pokerzoo.cli.serve", "play a game in the browser against agents (local web server)"),
    "train": ("pokerzoo.cli.train", "train a MaskablePPO policy from a YAML config"),
    "demo": ("pokerzoo.cli.demo", "the main demonstration (what `make demo` runs)"),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command; the arguments of ``command`` only (None: of all of them)."""
    parser = argparse.ArgumentParser(prog="pokerzoo", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, (module_name, help_text) in COMMANDS.items():
        if command is not None and name != command:
            sub.add_parser(name, help=help_text)
            continue
        module = importlib.import_module(module_name)
        p = sub.add_parser(name, help=help_text, description=(module.__doc__ or help_text).strip())
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def _command_of(argv: list[str]) -> str | None:
    """The subcommand named in ``argv`` (its first word that is not an option), if it is one."""
    first = next((a for a in argv if not a.startswith("-")), None)
    return first if first in COMMANDS else None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    command = _command_of(argv)
    args = build_parser(command or "").parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except (ValueError, FileNotFoundError) as exc:
        print(f"pokerzoo {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`pokerzoo list | head`): stop quietly, as Unix tools do. Python would
        # otherwise complain again when it flushes stdout at exit, so stdout now points at /dev/null.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
