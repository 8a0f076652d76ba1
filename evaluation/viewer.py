"""The hand-history viewer: one self-contained HTML file for a history or a tournament's record.

Each game is replayed through the rules into a timeline of scenes
(``pokerzoo.evaluation.timeline``); the page inlines the renderer, the
viewer's script and the stylesheet (``pokerzoo.evaluation.web``) and every
game's timeline, gzip-compressed and base64-encoded (a classic Raspisnoy
game is 2,500 steps of five viewpoints: 29 MB of JSON, 0.4 MB packed).
Nothing is fetched: the page's Content-Security-Policy forbids any network
access, so it opens from a file, offline, anywhere.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from pokerzoo.evaluation import history, timeline
from pokerzoo.evaluation.web import asset

DEFAULT_MAX_GAMES = 200


def _script_json(value) -> str:
    """JSON safe inside a <script> element (no ``</script>`` can close it early)."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")


def pack(value) -> str:
    """gzip + base64 of the JSON of ``value``: what the page's ``DecompressionStream`` unpacks."""
    raw = json.dumps(value, separators=(",", ":"), allow_nan=False).encode()
    return base64.b64encode(gzip.compress(raw, compresslevel=6, mtime=0)).decode("ascii")


def page(
    records: Iterable[tuple[int | None, dict]],
    *,
    source: str = "",
    seats: Sequence[int] | None = None,
    all_cards: bool = True,
    max_games: int = DEFAULT_MAX_GAMES,
    keep: Callable[[dict], bool] | None = None,
    on_game: Callable[[int], None] | None = None,
) -> tuple[str, int, int]:
    """The viewer page of ``records`` ((line, record) pairs); returns (html, games shown, games read).

    ``keep(summary)`` filters the games before ``max_games`` applies; the page
    lists every kept game up to ``max_games`` with its whole timeline.
    """
    if max_games < 1:
        raise ValueError(f"--max-games must be at least 1, got {max_games}")
    games, blobs = [], []
    total = 0
    for line, record in records:
        summary = timeline.summary(record, line)
        if keep is not None and not keep(summary):
            continue
        total += 1
        if len(games) >= max_games:
            continue
        tl = timeline.build(record, line, seats, all_cards)
        i = len(games)
        games.append({**summary, "replay": tl["replay"]})
        blobs.append(f'<script type="text/plain" id="pz-blob-{i}">{pack(tl)}</script>')
        if on_game is not None:
            on_game(i)
    meta = {"source": source, "games": games, "total": total}
    title = f"pokerzoo viewer — {source}" if source else "pokerzoo viewer"
    text = (
        asset("viewer.html")
        .replace("{{TITLE}}", html.escape(title))
        .replace("{{STYLE}}", asset("style.css"))
        .replace("{{META}}", _script_json(meta))
        .replace("{{BLOBS}}", "\n".join(blobs))
        .replace("{{SCRIPTS}}", asset("scene.js") + "\n" + asset("viewer.js"))
    )
    return text, len(games), total


def write(
    path: str | Path,
    out: str | Path | None = None,
    *,
    lines: Sequence[int] | None = None,
    agent: str | None = None,
    **kw,
) -> tuple[Path, int, int]:
    """Write the viewer of the history file ``path`` (default next to it, ``.html``); returns (page, shown, kept).

    ``lines``: only these lines of the file; ``agent``: only games where this agent sits.
    """
    path = Path(path)
    wanted = set(lines) if lines else None

    def keep(summary: dict) -> bool:
        if wanted is not None and summary["line"] not in wanted:
            return False
        return agent is None or agent in summary["seats"]

    text, shown, total = page(history.read(path), source=path.name, keep=keep, **kw)
    if total == 0:
        what = "" if wanted is None and agent is None else " matching the filters"
        raise ValueError(f"{path} holds no hand history{what}")
    target = Path(out) if out is not None else path.with_suffix(".html")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target, shown, total
