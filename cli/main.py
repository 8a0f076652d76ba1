"""The ``pokerzoo`` command and its subcommands (``list``, ``evaluate``, ``play``, ``view``, ``policy``, ...).

Each subcommand lives in its own module exposing ``add_arguments(parser)`` and
``run(args) -> int``; this file only wires them up, so a command's module can
be imported and tested on its own. Only the module of the command being run is
imported (``pokerzoo list`` must not pay for torch, ~3 s, that ``train`` needs),
so every command module imports what it uses at its top.

A user error (a bad option, a missing or unreadable file, a refused policy or
checkpoint) ends with one line on stderr and exit status 2, never a traceback;
Ctrl-C ends any command with status 130, its worker processes included.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import shlex
import sys

# name -> (module, one-line help)
COMMANDS = {
    "list": ("pokerzoo.cli.list_games", "list the games, their options and agents"),
    "bench": ("pokerzoo.cli.bench", "measure env agent-steps/s and hand evaluations/s"),
    "compile": ("pokerzoo.cli.compile", "compile and cache the batched engine's kernels ahead of use"),
    "evaluate": ("pokerzoo.cli.evaluate", "play a tournament between agents and report"),
    "pool": ("pokerzoo.cli.pool", "pool tournaments of the same match on different seeds into one report"),
    "play": ("pokerzoo.cli.play", "play a game in the terminal against agents"),
    "replay": ("pokerzoo.cli.replay", "replay a recorded hand history through the rules"),
    "view": ("pokerzoo.cli.view", "write a hand history as a self-contained HTML viewer"),
    "serve": ("pokerzoo.cli.serve", "play a game in the browser against agents (local web server)"),
    "train": ("pokerzoo.cli.train", "train a policy from a YAML config (batched self-play PPO or MaskablePPO)"),
    "demo": ("pokerzoo.cli.demo", "the main demonstration (what `make demo` runs)"),
    "policy": ("pokerzoo.cli.policy", "convert an SB3 zip into a code-free policy, show one, or average checkpoints"),
}


def help_text(doc: str) -> str:
    """A module docstring as terminal help: reST's double backticks and ``::`` markers dropped, lines kept."""
    text = re.sub(r"``([^`]+)``", r"\1", doc.strip())
    return re.sub(r"::$", ":", text, flags=re.M)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command; the arguments of ``command`` only (None: of all of them)."""
    parser = argparse.ArgumentParser(prog="pokerzoo", description=help_text(__doc__.splitlines()[0]))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, (module_name, help_str) in COMMANDS.items():
        if command is not None and name != command:
            sub.add_parser(name, help=help_str)
            continue
        module = importlib.import_module(module_name)
        p = sub.add_parser(
            name,
            help=help_str,
            description=help_text(module.__doc__ or help_str),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def _command_of(argv: list[str]) -> str | None:
    """The subcommand named in ``argv`` (its first word that is not an option), if it is one."""
    first = next((a for a in argv if not a.startswith("-")), None)
    return first if first in COMMANDS else None


def one_line(exc: BaseException) -> str:
    """An error as one line: its message with the whitespace runs (newlines included) collapsed."""
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    command = _command_of(argv)
    prefix = f"pokerzoo {command}" if command else "pokerzoo"
    try:
        args = build_parser(command or "").parse_args(argv)
        args.command_line = shlex.join(["pokerzoo", *argv])  # what reports record, to redo them
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        print(f"{prefix}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`pokerzoo list | head`): stop quietly, as Unix tools do. Python would
        # otherwise complain again when it flushes stdout at exit, so stdout now points at /dev/null.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    except (ValueError, OSError) as exc:  # user errors: bad values, refused or missing files, bad paths
        print(f"{prefix}: error: {one_line(exc)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
