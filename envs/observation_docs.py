"""The docs' observation tables, generated from each game's observation schema.

Every game's observation table appears in two places: its env module's
docstring (the env's help page, ``help(pokerzoo.envs.<game>_v0)``) and its
rules page ``docs/games/<game>.md``. In both, the table sits between two
marker lines and is written by this tool from ``Game.observation_table()``,
which renders the game's ``Schema``; nobody edits it by hand.

    python -m pokerzoo.envs.observation_docs           # check: list stale files, exit 1 if any
    python -m pokerzoo.envs.observation_docs --write   # rewrite the tables in place

``tests/envs/test_observation_docs.py`` runs the check, so a schema change
without regenerated docs fails the suite. The rules pages exist only in a
source checkout; a regular install checks the help pages alone.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from dataclasses import dataclass
from pathlib import Path

from pokerzoo.envs.registry import GAMES

COMMAND = "python -m pokerzoo.envs.observation_docs --write"
BEGIN = f"<!-- observation table: generated from the schema by `{COMMAND}` -->"
END = "<!-- end of the generated observation table -->"
DOCS = Path(__file__).resolve().parents[1] / "docs" / "games"


@dataclass(frozen=True)
class Target:
    """One file holding one game's generated table."""

    game: str
    path: Path
    table: str

    def current(self) -> str:
        return self.path.read_text(encoding="utf-8")

    def regenerated(self) -> str:
        return replace_table(self.current(), self.table, self.path)


def replace_table(text: str, table: str, where: Path | str = "text") -> str:
    """``text`` with the part between the marker lines replaced by ``table``."""
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        raise ValueError(
            f"{where}: expected one line {BEGIN!r} and one line {END!r} around the observation table, found "
            f"{text.count(BEGIN)} and {text.count(END)}; add them where the table belongs, then run {COMMAND}"
        )
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{table}\n{END}{tail}"


def targets() -> list[Target]:
    """The env module of every registered game, and the rules page of every game but the teaching examples
    (where the checkout has ``docs/``)."""
    out = []
    for env_id, spec in GAMES.items():
        module = spec.env_module()
        table = spec.game_class().observation_table()
        source = inspect.getsourcefile(module)
        if source is None:
            raise FileNotFoundError(f"{env_id}: no source file for {module.__name__}")
        out.append(Target(spec.name, Path(source), table))
        if DOCS.is_dir() and not spec.example:
            page = DOCS / f"{spec.name}.md"
            if not page.is_file():
                raise FileNotFoundError(f"{env_id}: no rules page {page}")
            out.append(Target(spec.name, page, table))
    return out


def stale() -> list[Path]:
    """Files whose table differs from the schema."""
    return [t.path for t in targets() if t.regenerated() != t.current()]


def write() -> list[Path]:
    """Rewrite every stale table; returns the files changed."""
    changed = []
    for t in targets():
        new = t.regenerated()
        if new != t.current():
            t.path.write_text(new, encoding="utf-8")
            changed.append(t.path)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="rewrite the tables instead of checking them")
    args = parser.parse_args(argv)
    if args.write:
        changed = write()
        print("\n".join(f"wrote {p}" for p in changed) or "every observation table is up to date")
        return 0
    old = stale()
    if old:
        print("\n".join(f"stale observation table: {p}" for p in old) + f"\nregenerate with: {COMMAND}")
        return 1
    print("every observation table is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
