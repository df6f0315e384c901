"""Nothing a page, a socket or a request sends runs code, imports a file or reads a path.

The walk: every route of both servers (the browser game with its lab, and the league),
found from their OpenAPI schemas, gets every string it takes (path and query
parameters, and each string field of its JSON body, nested ones too) replaced in turn
by hostile bot specs: a ``cmd:`` program that would create a file, a ``py:`` file whose
module code creates a file, an ``@FILE`` options file, and the engine's path options.
Every other value of the request is a valid one (a real game's id, a real position),
so the hostile string is what the handler sees. After each request no file has
appeared and no planted file was read (its access time, set far before its
modification time, would move on a read). Each parameter that *is* a bot spec (named
``spec``) must also be answered 400 with the gate's reason. The league's bot socket
gets the same strings in every field of every message type.

A new route that takes a spec and skips the gate (:mod:`adjacency.bots.gate`) fails
here: the walk finds it from the schema, whatever the route is called.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from adjacency.client.wire import CONNECT_PATH
from adjacency.league.http.app import create_app as create_league_app
from adjacency.league.http.limits import LeagueLimits
from adjacency.web.app import create_app as create_web_app
from adjacency.web.limits import Limits
from league_helpers import ADMIN, add_member, make_league

FEN = "4oo/4oo/3o2/2x3/xx4/xx4 x 14"
"""A 6x6 position with moves left: the lab's tutorial position."""
OLD = 1_000.0
"""The access time planted files get (1970): a read moves it to now (relatime)."""


@dataclass
class Traps:
    """Files a hostile spec would create or read, in a folder of the test's own."""

    folder: Path

    def __post_init__(self) -> None:
        self.evil = self.folder / "evil.py"
        self.evil.write_text(
            f"open({str(self.folder / 'created-by-py')!r}, 'w').close()\nclass Bot: pass\n"
        )
        self.options = self.folder / "options.json"
        self.options.write_text('{"depth": 1}')
        self.book = self.folder / "book"
        self.book.mkdir()
        (self.book / "any.txt").write_text("")
        self.weights = self.folder / "weights.json"
        self.weights.write_text("{}")
        self.plant()

    def plant(self) -> None:
        for path in (self.evil, self.options, self.book, self.weights):
            os.utime(path, (OLD, path.stat().st_mtime))

    @property
    def created(self) -> Path:
        return self.folder / "created-by-cmd"

    def specs(self) -> list[str]:
        """Hostile specs (a program, a Python file, an options file, two path options)
        and bare paths of the planted files."""
        python = sys.executable
        return [
            f"cmd:{python} -c \"open({str(self.created)!r}, 'w')\"",
            f"cmd:touch {self.created}",
            f"py:{self.evil}:Bot",
            f"alphabeta:@{self.options}",
            f"alphabeta:depth=1,@{self.options}",
            f"engine:book={self.book}",
            f"engine:patterns={self.weights}",
            str(self.options),  # a bare path, where a route might take a file's name
            str(self.weights),
            str(self.book),
        ]

    def untouched(self, where: str) -> None:
        """Assert nothing was created, imported or read; ``where`` names the request."""
        made = sorted(p.name for p in self.folder.iterdir())
        assert made == ["book", "evil.py", "options.json", "weights.json"], (where, made)
        for path in (self.evil, self.options, self.book, self.weights):
            assert path.stat().st_atime == OLD, (where, f"{path.name} was read")


UNTHROTTLED = Limits(creates_per_minute=1e6, moves_per_minute=1e6, burst=10**6)
"""The walk sends hundreds of requests from one client: no rate may answer for the gate."""

REASONS = ("cannot be started", "options file", "names a file of this server")
"""What the gate's refusals say (one of them, by hostile spec)."""


@pytest.fixture
def traps(tmp_path: Path) -> Traps:
    folder = tmp_path / "traps"
    folder.mkdir()
    return Traps(folder)


# ------------------------------------------------------------- the schema walk


def resolve(schema: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with its ``$ref`` (and a nullable ``anyOf``) followed."""
    while True:
        if "$ref" in schema:
            schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
        elif "anyOf" in schema:
            schema = next(s for s in schema["anyOf"] if s.get("type") != "null")
        else:
            return schema


def sample(schema: dict[str, Any], spec: dict[str, Any], name: str, valid: dict[str, Any]) -> Any:
    """A valid value for a field called ``name`` of ``schema``: the test's own (``valid``),
    else the default, an enum's first value, or one within the bounds."""
    if name in valid:
        return valid[name]
    schema = resolve(schema, spec)
    if "default" in schema and schema["default"] is not None:
        return schema["default"]
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        return {
            key: sample(sub, spec, key, valid)
            for key, sub in schema.get("properties", {}).items()
            if key in schema.get("required", [])
        }
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return max(1, schema.get("minimum", 1))
    if kind == "boolean":
        return False
    return "walker"


def string_fields(
    schema: dict[str, Any], spec: dict[str, Any], path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """Every string field of a body schema: its path and the object schema holding it."""
    schema = resolve(schema, spec)
    for key, sub in schema.get("properties", {}).items():
        target = resolve(sub, spec)
        if target.get("type") == "object":
            yield from string_fields(target, spec, (*path, key))
        elif target.get("type") == "string" and "enum" not in target:
            yield (*path, key), schema


def kinds(holder: dict[str, Any], spec: dict[str, Any]) -> list[Any]:
    """The values of a ``kind`` field beside a string field (a player's or a member's
    kind decides whether its ``spec`` is read), else ``[None]``."""
    kind = holder.get("properties", {}).get("kind")
    return list(resolve(kind, spec).get("enum", [None])) if kind else [None]


def put(body: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for key in path[:-1]:
        body = body.setdefault(key, {})
    body[path[-1]] = value


@dataclass
class Walk:
    """One app's walk: its client, its schema, the valid values and the auth header."""

    client: TestClient
    valid: dict[str, Any]
    headers: dict[str, str]

    def requests(self, hostile: str) -> Iterator[tuple[str, bool, str, str, dict[str, Any]]]:
        """Each request with ``hostile`` in one string slot: (where, is_spec, method,
        url, keyword arguments of the client's request)."""
        spec = self.client.app.openapi()  # type: ignore[attr-defined]
        for route, operations in spec["paths"].items():
            for method, operation in operations.items():
                params = operation.get("parameters", [])
                body_schema = (
                    operation.get("requestBody", {})
                    .get("content", {})
                    .get("application/json", {})
                    .get("schema")
                )
                values = {
                    p["name"]: sample(p["schema"], spec, p["name"], self.valid) for p in params
                }
                body = sample(body_schema, spec, "", self.valid) if body_schema else None
                for param in params:
                    if resolve(param["schema"], spec).get("type") not in ("string", None):
                        continue
                    chosen = {**values, param["name"]: hostile}
                    yield self.request(route, method, params, chosen, body, param["name"])
                if body_schema is None:
                    continue
                for path, holder in string_fields(body_schema, spec):
                    for kind in kinds(holder, spec):
                        chosen_body = json.loads(json.dumps(body or {}))
                        if kind is not None:
                            put(chosen_body, (*path[:-1], "kind"), kind)
                        put(chosen_body, path, hostile)
                        found = self.request(
                            route, method, params, values, chosen_body, ".".join(path)
                        )
                        yield (found[0] + (f" (kind {kind})" if kind else ""), *found[1:])

    def request(
        self,
        route: str,
        method: str,
        params: list[dict[str, Any]],
        values: dict[str, Any],
        body: Any,
        slot: str,
    ) -> tuple[str, bool, str, str, dict[str, Any]]:
        url = route
        query: dict[str, Any] = {}
        for param in params:
            value = values[param["name"]]
            if param["in"] == "path":
                url = url.replace("{" + param["name"] + "}", str(value).replace("/", "%2F"))
            elif param["in"] == "query":
                query[param["name"]] = value
        kwargs: dict[str, Any] = {"params": query, "headers": self.headers}
        if body is not None:
            kwargs["json"] = body
        is_spec = slot.rsplit(".", 1)[-1] == "spec"
        return f"{method.upper()} {route} [{slot}]", is_spec, method, url, kwargs


def walk(app_walk: Walk, traps: Traps) -> tuple[int, set[str]]:
    """Send every hostile spec to every slot; the number of requests and the spec slots
    whose answers were checked to be the gate's 400."""
    sent, spec_slots = 0, set()
    for hostile in traps.specs():
        for where, is_spec, method, url, kwargs in app_walk.requests(hostile):
            response = app_walk.client.request(method, url, **kwargs)
            sent += 1
            assert response.status_code < 500, (where, hostile, response.text)
            traps.untouched(f"{where} with {hostile!r}")
            detail = str(response.json().get("detail", "")) if response.content else ""
            if is_spec and any(reason in detail for reason in REASONS):
                assert response.status_code == 400, (where, response.status_code)
                spec_slots.add(where.split(" (kind")[0])
    return sent, spec_slots


# ------------------------------------------------------------------ the two apps


def test_no_route_of_the_web_app_runs_reads_or_imports_what_a_request_names(
    tmp_path: Path, traps: Traps, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with TestClient(create_web_app(tmp_path / "games.sqlite3", limits=UNTHROTTLED)) as client:
        people = {"x": {"kind": "human"}, "o": {"kind": "human"}, "rows": 6, "cols": 6}
        created = client.post("/api/games", json={**people, "rounds": 4})
        assert created.status_code == 201, created.text
        game_id = created.json()["id"]
        valid = {
            "fen": FEN,
            "game_id": game_id,
            "format": "text",
            "x": people["x"],
            "o": people["o"],
        }
        sent, spec_slots = walk(Walk(client, valid, {}), traps)
    assert sent > 100
    # every place the web app takes a bot spec was found and refused by the gate (an
    # invitation is refused before: it is for two people, whose specs are not read)
    assert {
        "POST /api/games [x.spec]",
        "POST /api/games [o.spec]",
        "GET /api/lab/climb [spec]",
        "GET /api/lab/evolution [spec]",
    } <= spec_slots


def test_no_route_of_the_league_runs_reads_or_imports_what_a_request_names(
    tmp_path: Path, traps: Traps, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "walker", "bot")
    unthrottled = LeagueLimits(  # every route is walked many times: no rate may answer 429
        limit_loopback=False, requests_per_minute=1e9, reads_per_minute=1e9, burst=10**6,
        address_burst=10**6, uploads_per_minute=1e9, upload_burst=10**6,
    )  # fmt: skip
    app: FastAPI = create_league_app(db, limits=unthrottled, house_games=False)
    with TestClient(app) as client:
        valid = {"name": "walker", "game_id": 1, "challenge_id": 1, "file": "table.csv"}
        headers = {"Authorization": f"Bearer {ADMIN}"}
        sent, spec_slots = walk(Walk(client, valid, headers), traps)
    assert sent > 50
    assert "POST /api/league/admin/members [spec]" in spec_slots


def test_the_league_bot_socket_takes_no_spec_in_any_message(
    tmp_path: Path, traps: Traps, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "league.db"
    make_league(db)
    token = add_member(db, "socketeer", "bot")
    # every message here is refused: no error count may close the socket before the walk ends
    limits = LeagueLimits(limit_loopback=False, max_errors=10**6, messages_per_minute=1e9)
    app = create_league_app(db, limits=limits, house_games=False)
    fields = ("type", "move", "spec", "name", "detail", "text", "bot", "engine", "reason")
    types = ("hello", "ping", "move", "failed", "resign", "spec", "bot", "setoption")
    with TestClient(app) as client:
        auth = {"Authorization": f"Bearer {token}"}
        with client.websocket_connect(CONNECT_PATH, headers=auth) as socket:
            for hostile in traps.specs():
                pings = 1
                for kind in types:
                    for field in fields:
                        message = {"type": kind, "game": 1, field: hostile}
                        pings += message["type"] == "ping"
                        socket.send_text(json.dumps(message))
                socket.send_text(json.dumps({"type": "ping"}))
                while pings:  # every message before the last ping has been handled
                    pings -= socket.receive_json().get("type") == "pong"
                traps.untouched(f"socket message with {hostile!r}")
