"""The play server of ``pokerzoo serve``: one seat played from a browser, agents in the others.

Built on the standard library's ``http.server`` (a threading server, JSON in
and out): the whole API is three routes, so a framework would add
dependencies and start-up time without removing code (the measurement is in
``docs/viewer.md``).

Routes:

* ``GET /``: the page (the scene renderer shared with ``pokerzoo view``, inlined);
* ``GET /api/state``: the table as the human's seat sees it;
* ``POST /api/act`` with ``{"action": 3}`` (an action id) or ``{"move": "raise"}``
  (typed as in ``pokerzoo play``: a number, a name, a unique part of one);
* ``POST /api/new``: deal the next game once this one is over.

Everything a response holds is built for the human's seat only: its scene
(``Game.scene(seat)``), the other seats' moves as announced to it
(``public_action_name``), its own legal moves. No request can see another
seat's hidden cards. A bad request gets a 4xx answer that says what was
wrong (400 malformed, 404 / 405 unknown route or method, 409 not now,
413 too large, 415 not JSON, 422 an illegal move, with the legal ones) and
changes nothing. Every finished game is appended to the session's hand-history
file, which ``pokerzoo view`` and ``pokerzoo replay`` read.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np

from pokerzoo.agents.human import parse_move
from pokerzoo.cli.terminal_play import Seating
from pokerzoo.envs.engine.game import Game
from pokerzoo.evaluation import history
from pokerzoo.evaluation.web import asset

MAX_BODY = 64 * 1024


class RequestError(Exception):
    """A request the session refuses; the session is unchanged."""

    def __init__(self, status: HTTPStatus, message: str, **extra: Any):
        super().__init__(message)
        self.status = status
        self.extra = extra


class PlaySession:
    """The games of one browser player: the state every request reads and changes, behind one lock."""

    def __init__(self, table: Seating, record: str | Path):
        self.table = table
        self.record_path = Path(record)
        self.record_path.parent.mkdir(parents=True, exist_ok=True)
        self.record_path.touch()
        self.saved = 0
        self.totals = np.zeros(table.num_players)
        self.lock = threading.Lock()
        self.index = -1
        self._deal()

    # ------------------------------------------------------------------ game flow
    def _deal(self) -> None:
        self.index += 1
        self.game: Game = self.table.new_game(self.index)
        self.names: list[str] = []
        self.details: list[dict | None] = []
        self.log: list[str] = [f"game {self.index + 1} (seed {self.game.seed}): you are P{self.table.seat}"]
        self.game.take_rewards()
        self._advance()

    def _apply(self, action: int, detail: dict | None) -> None:
        game, seat = self.game, self.table.seat
        p = game.current_player
        announced = "you" if p == seat else f"P{p} ({self.table.labels[p]})"
        said = game.action_name(action) if p == seat else game.public_action_name(action, seat)
        self.names.append(game.action_name(action))
        self.details.append(detail)
        game.apply(action)
        self.log.append(f"{announced}: {said}")
        paid = game.take_rewards()
        if np.any(paid != 0):
            self.log.append("rewards: " + ", ".join(f"P{s} {r:+g}" for s, r in enumerate(paid) if r))

    def _advance(self) -> None:
        """Let the agents play until the human must act or the game is over (then save it)."""
        game, seat = self.game, self.table.seat
        while not game.is_over and game.current_player != seat:
            p = game.current_player
            agent = self.table.agents[p]
            action = int(agent.act(game.view(p), game.legal_mask(), game))
            self._apply(action, agent.decision_details())
        if game.is_over:
            self.totals += game.total_rewards
            with history.HistoryWriter(self.record_path, append=True) as writer:
                writer.write(self.table.record(game, self.names, self.details))
            self.saved += 1
            self.log.append(
                "game over: "
                + ", ".join(f"P{s} {r:+g}" for s, r in enumerate(game.total_rewards))
                + f" (saved to {self.record_path})"
            )

    # ------------------------------------------------------------------ requests
    def state(self) -> dict[str, Any]:
        """What the human's seat may know now, and its legal moves when it is to act."""
        game, seat = self.game, self.table.seat
        mine = not game.is_over and game.current_player == seat
        return {
            "game": self.table.name,
            "number": self.index + 1,
            "seat": seat,
            "labels": self.table.labels,
            "scene": game.scene(seat),
            "your_turn": mine,
            "legal": [[a, game.action_name(a)] for a in game.legal_actions()] if mine else [],
            "log": list(self.log),
            "totals": [float(x) for x in game.total_rewards],
            "session": [float(x) for x in self.totals],
            "over": game.is_over,
            "history": str(self.record_path),
            "saved": self.saved,
        }

    def act(self, body: Any) -> dict[str, Any]:
        """Play the human's move (``{"action": id}`` or ``{"move": text}``), then the agents' moves."""
        if not isinstance(body, dict):
            raise RequestError(HTTPStatus.BAD_REQUEST, 'expected a JSON object: {"action": ID} or {"move": "TEXT"}')
        unknown = sorted(set(body) - {"action", "move"})
        if unknown or len(body) != 1:
            raise RequestError(
                HTTPStatus.BAD_REQUEST,
                'give exactly one of "action" (an action id) or "move" (a typed move)'
                + (f"; unknown field(s): {', '.join(unknown)}" if unknown else ""),
            )
        if "action" in body:
            value = body["action"]
            if isinstance(value, bool) or not isinstance(value, int):
                raise RequestError(HTTPStatus.BAD_REQUEST, f'"action" must be an integer action id, got {value!r}')
            typed = str(value)
        else:
            typed = body["move"]
            if not isinstance(typed, str):
                raise RequestError(HTTPStatus.BAD_REQUEST, f'"move" must be a string, got {typed!r}')
        with self.lock:
            game = self.game
            if game.is_over:
                raise RequestError(HTTPStatus.CONFLICT, "the game is over: POST /api/new deals the next one")
            legal = game.legal_actions()
            names = {a: game.action_name(a) for a in legal}
            action, why = parse_move(typed, legal, names, game.num_actions)
            if action is None:
                raise RequestError(HTTPStatus.UNPROCESSABLE_ENTITY, why, legal=[[a, names[a]] for a in legal])
            self._apply(action, None)
            self._advance()
            return self.state()

    def new(self) -> dict[str, Any]:
        with self.lock:
            if not self.game.is_over:
                raise RequestError(HTTPStatus.CONFLICT, "this game is not over yet: finish it first")
            self._deal()
            return self.state()

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return self.state()


def page() -> str:
    """The play page: the shared renderer and stylesheet, inlined (no network)."""
    return (
        asset("play.html")
        .replace("{{STYLE}}", asset("style.css"))
        .replace("{{SCRIPTS}}", asset("scene.js") + "\n" + asset("play.js"))
    )


class Handler(BaseHTTPRequestHandler):
    """JSON over HTTP for one ``PlaySession`` (set on the class by ``make_server``)."""

    session: PlaySession
    page_text: str
    quiet: bool = True
    server_version = "pokerzoo"

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)

    def _send(self, status: HTTPStatus, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: HTTPStatus, value: dict) -> None:
        self._send(status, json.dumps(value).encode(), "application/json")

    def _error(self, status: HTTPStatus, message: str, **extra: Any) -> None:
        self._json(status, {"error": message, "status": int(status), **extra})

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/":
            self._send(HTTPStatus.OK, self.page_text.encode(), "text/html; charset=utf-8")
        elif path == "/api/state":
            self._json(HTTPStatus.OK, self.session.snapshot())
        elif path in ("/api/act", "/api/new"):
            self._error(HTTPStatus.METHOD_NOT_ALLOWED, f"{path} takes POST")
        else:
            self._error(
                HTTPStatus.NOT_FOUND, f"no such page {path!r}; the routes are /, /api/state, /api/act, /api/new"
            )

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0]
        routes = {"/api/act": self.session.act, "/api/new": lambda _body: self.session.new()}
        if path not in routes:
            if path in ("/", "/api/state"):
                self._error(HTTPStatus.METHOD_NOT_ALLOWED, f"{path} takes GET")
            else:
                self._error(HTTPStatus.NOT_FOUND, f"no such route {path!r}; POST /api/act or /api/new")
            return
        try:
            body = self._body()
            self._json(HTTPStatus.OK, routes[path](body))
        except RequestError as exc:
            self._error(exc.status, str(exc), **exc.extra)

    def _body(self) -> Any:
        kind = self.headers.get("Content-Type", "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            raise RequestError(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send the body as Content-Type: application/json")
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            raise RequestError(HTTPStatus.BAD_REQUEST, "bad Content-Length") from None
        if length > MAX_BODY:
            raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"the body is limited to {MAX_BODY} bytes")
        raw = self.rfile.read(length) if length > 0 else b""
        if not raw.strip():
            return {}
        try:
            return json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RequestError(HTTPStatus.BAD_REQUEST, f"the body is not JSON: {exc}") from None


def make_server(
    game_name: str,
    config: dict | None = None,
    *,
    opponents: Sequence[str] = ("random",),
    seat: int = 0,
    seed: int | None = None,
    record: str | Path,
    host: str = "127.0.0.1",
    port: int = 8000,
    quiet: bool = True,
) -> tuple[ThreadingHTTPServer, PlaySession]:
    """A server (not yet serving: call ``serve_forever``) and its session; ``port=0`` picks a free port."""
    session = PlaySession(Seating.make(game_name, config, seat, opponents, seed), record)
    handler = type("SessionHandler", (Handler,), {"session": session, "page_text": page(), "quiet": quiet})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server, session


@contextmanager
def serving(game_name: str, record: str | Path, **kw: Any) -> Iterator[tuple[str, PlaySession]]:
    """``make_server`` on a free port of 127.0.0.1, served from a thread: ``with serving(...) as (url, session)``.

    For tests and scripts; the server is shut down when the block ends.
    """
    server, session = make_server(game_name, record=record, port=0, **kw)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", session
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
