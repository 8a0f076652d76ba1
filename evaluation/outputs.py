"""Report folders and files written whole or not at all, and destinations checked before any work.

A long evaluation that fails while writing its report must not leave a
half-written folder that looks like a result. Everything is written under a
temporary name beside the destination and renamed into place at the end (a
rename within one folder is atomic); a failure removes the temporary copy.
``check_destination`` runs before the first game, so a bad ``--out`` fails in
a second, not after the tournament.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path


def _staging(path: Path, what: str) -> Path:
    return path.with_name(f".{path.name}.{what}-{os.getpid()}")


def check_destination(path: str | Path, *, folder: bool, option: str = "--out") -> Path:
    """``path`` can be written: its parent is (or can be made) a writable folder, and it is of the right kind.

    Raises ``ValueError`` naming the option and the problem; creates missing parent folders.
    """
    path = Path(path).expanduser()
    try:
        if path.exists() and path.is_dir() != folder:
            raise ValueError(f"{option} {path}: exists and is {'not ' if folder else ''}a folder")
        parent = path.parent
        parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocker = next((p for p in [path.parent, *path.parent.parents] if p.exists() and not p.is_dir()), path.parent)
        raise ValueError(f"{option} {path}: {blocker} is a file, not a folder") from None
    except OSError as exc:
        raise ValueError(f"{option} {path}: cannot create its folder ({exc.strerror or exc})") from None
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"{option} {path}: the folder {parent} is not writable")
    return path


@contextlib.contextmanager
def whole_folder(path: str | Path) -> Iterator[Path]:
    """Yield a temporary folder to write into; on success it replaces ``path``, on failure it is removed."""
    path = Path(path)
    check_destination(path, folder=True)
    tmp = _staging(path, "tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        yield tmp
        old = _staging(path, "old")
        if path.exists():
            os.replace(path, old)
        try:
            os.replace(tmp, path)
        except OSError:
            if old.exists():
                os.replace(old, path)
            raise
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def commit_file(tmp: Path, path: Path) -> None:
    os.replace(tmp, path)


def staging_file(path: str | Path) -> Path:
    """The temporary name a whole-or-nothing file is written under before ``commit_file``."""
    return _staging(Path(path), "tmp")
