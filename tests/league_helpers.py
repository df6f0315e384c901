"""Helpers of the league tests: leagues on disk, servers (a thread or a real process),
``adjacency connect`` processes, JSON over HTTP, and replaying stored games."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

import reaper
from adjacency.bots import Limit, make_bot
from adjacency.bots.referee import play_game
from adjacency.core.record import game_from_text, game_to_text
from adjacency.league.events.event_pairing import round_robin
from adjacency.league.grading.version_digest import make
from adjacency.league.league_file import LeagueStore, StoredGame
from adjacency.league.play.event_runner import EventRunner
from adjacency.league.rules import LeagueRules
from adjacency.league.settings import LeagueSettings
from adjacency.serving.details import ended
from net_helpers import announced_url
from web_helpers import uvicorn_thread
from web_helpers import wait_until as web_wait_until


def wait_until(
    predicate: Callable[[], Any],
    timeout: float = 60.0,
    what: str = "condition",
    every: float = 0.02,
) -> Any:
    """:func:`web_helpers.wait_until` with the league's longer guard: its games run in
    server processes and clients that share the machine's two cores."""
    return web_wait_until(predicate, timeout, what, every)


POLL = 0.25
"""Seconds between two looks of a wait whose look asks the server for much
(:func:`wait_until`'s ``every``)."""


REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
ADMIN = "adjl_admin-token-of-the-tests"
MINIMAL_ENGINE = REPO / "examples" / "engines" / "minimal_engine.py"


def make_league(db: Path, rules: LeagueRules | None = None, **settings: Any) -> None:
    """A new league in ``db`` (6x6, 4 rounds, a 4+0.1 clock unless told otherwise), with
    ``rules`` or the default rules without the class's shortest game (tests play fast)."""
    values: dict[str, Any] = {"rows": 6, "cols": 6, "rounds": 4, "base": 4.0, "increment": 0.1}
    values.update(settings)
    with LeagueStore(db) as store:
        store.meta.create(LeagueSettings(**values), ADMIN)
        store.meta.set_rules(LeagueRules(min_game=0.0) if rules is None else rules)


def add_member(db: Path, name: str, kind: str = "bot", spec: str | None = None) -> str:
    """Add a member; return its token ('' for a house bot)."""
    with LeagueStore(db) as store:
        _, token = store.members.add_member(name, kind, spec)
    return token or ""


def env() -> dict[str, str]:
    environment = dict(os.environ)
    environment["PYTHONFAULTHANDLER"] = "1"  # a hung child's stacks on SIGABRT (Process.kill)
    environment["PYTHONPATH"] = os.pathsep.join([str(SRC), environment.get("PYTHONPATH", "")])
    return environment


@dataclass
class Process:
    """A child process in its own session (so a kill reaches its engine children too)."""

    popen: subprocess.Popen[bytes]
    log: Path

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    @property
    def url(self) -> str:
        """The base address (no final slash) the server announced last in its log
        (:func:`net_helpers.announced_url`): where a server started on port 0 listens."""
        return announced_url(self.text())

    @property
    def port(self) -> int:
        """The port of :attr:`url`."""
        return int(self.url.rsplit(":", 1)[1])

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to the process's group and wait for it; one that outlives 30 s is
        killed (SIGKILL, never left running behind the test) and fails the test. Before
        that it gets SIGABRT, on which :func:`spawn`'s ``PYTHONFAULTHANDLER`` writes every
        thread's stack to its log: the failure shows where the process hung."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, sig)
        try:
            self.popen.wait(30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.popen.pid, signal.SIGABRT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(5)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait(10)
            raise AssertionError(
                f"{self.popen.args!r} did not end within 30 s of signal {sig}; killed. "
                f"The end of its log:\n{self.text()[-6000:]}"
            ) from None

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.kill(signal.SIGTERM)


def spawn(args: list[str], log: Path, extra_env: dict[str, str] | None = None) -> Process:
    environment = env()
    environment.update(extra_env or {})
    handle = log.open("ab")
    popen = subprocess.Popen(
        [sys.executable, "-m", "adjacency", *args],
        stdout=handle,
        stderr=subprocess.STDOUT,
        env=environment,
        start_new_session=True,
    )
    handle.close()
    reaper.started(popen.pid)  # killed with its children when the test ends
    return Process(popen, log)


def start_server(
    db: Path, port: int, log: Path, *extra: str, exempt_loopback: bool = True
) -> Process:
    """``adjacency league serve`` on ``port`` (0: one the OS picks, the server's
    :attr:`Process.url` says which; a port only for a restart on the port a server of
    the test held before); returns once it is ready. The tests' clients
    all run on this machine: its rate limits for them are off unless ``exempt_loopback``
    is false (the tests of the limits). House games play at full speed (``--pace 0``)
    unless ``extra`` gives a pace."""
    exempt = ["--exempt-loopback"] if exempt_loopback else []
    args = ["league", "serve", "--db", str(db), "--port", str(port), "--pace", "0", *exempt]
    args += list(extra)
    process = spawn(args, log)
    before = process.text().count("ready at")
    wait_until(
        lambda: process.text().count("ready at") > before or process.popen.poll() is not None,
        60,
        "the league server to start",
    )
    assert process.popen.poll() is None, process.text()
    return process


def start_client(url: str, token: str, spec: str, log: Path, *extra: str) -> Process:
    """``adjacency connect URL SPEC`` with the token in the environment (not the argv)."""
    return spawn(["connect", url, spec, *extra], log, {"ADJACENCY_LEAGUE_TOKEN": token})


def descendants(process: Process, marker: str) -> set[int]:
    """The pids of ``process``'s descendants whose command line holds ``marker`` (a
    client's ``cmd:`` engines, a server's workers and compilers)."""
    parents: dict[int, int] = {}
    commands: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
        commands[int(entry)] = command
    found: set[int] = set()
    for pid, command in commands.items():
        ancestor = parents.get(pid)
        while ancestor and ancestor != process.popen.pid:
            ancestor = parents.get(ancestor)
        if ancestor == process.popen.pid and marker in command:
            found.add(pid)
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def assert_kept(db: Path, game_id: int, at_least: int) -> None:
    """The aborted game keeps a record of at least ``at_least`` plies, which replays."""
    with LeagueStore(db) as store:
        game = store.games.game(game_id)
    assert game is not None
    assert game.status == "aborted" and game.result is None
    assert game.plies >= at_least > 0 and game.record is not None
    replayed = game_from_text(game.record)  # every move replays legally
    assert len(replayed.moves) == game.plies


@dataclass
class Response:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


def request(
    url: str, method: str = "GET", body: Any = None, token: str | None = None, raw: bool = False
) -> Response:
    """One HTTP request; the answer's status and JSON body (text with ``raw``)."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if data is not None else {}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            payload = answer.read().decode()
            status, answer_headers = answer.status, dict(answer.headers)
    except urllib.error.HTTPError as exc:
        payload = exc.read().decode()
        status, answer_headers = exc.code, dict(exc.headers)
    if raw:
        return Response(status, payload, answer_headers)
    return Response(status, json.loads(payload) if payload else None, answer_headers)


def get(url: str) -> Any:
    answer = request(url)
    assert answer.status == 200, (url, answer)
    return answer.body


def standing(url: str, name: str) -> dict[str, Any]:
    """``name``'s row of the league's standings at ``url``."""
    rows = request(f"{url}/api/league/standings").body
    row: dict[str, Any] = next(r for r in rows if r["name"] == name)
    return row


@contextlib.contextmanager
def thread_server(db: Path, **options: Any) -> Iterator[str]:
    """The league app under uvicorn in a thread on a free port; yields its base URL.
    Without ``limits``, clients on this machine (the tests') are not rate limited; without
    ``builds``, uploads are kept but not built (no builder thread)."""
    from adjacency.league.http.app import create_app
    from adjacency.league.http.limits import LeagueLimits

    limits = options.setdefault("limits", LeagueLimits(limit_loopback=False))
    options.setdefault("builds", False)  # the builder's sandbox: tests/hosting asks for it
    with uvicorn_thread(
        create_app(db, **options),
        "the league server",
        ws="websockets-sansio",
        ws_max_size=limits.max_frame + 1024,
    ) as url:
        yield url


def assert_replays(game: StoredGame) -> None:
    """A stored game's record replays legally with the core and agrees with its row."""
    assert game.record is not None
    replayed = game_from_text(game.record)  # replays every move through Position.play
    position = replayed.start
    for move in replayed.moves:
        assert move.square in position.legal_moves()
        position = position.play(move.square)
    assert replayed.result == game.result
    assert replayed.termination.value == game.termination
    assert len(replayed.moves) == game.plies
    assert replayed.start.fen() == game.opening
    if game.termination == "normal":
        assert position.is_over and list(position.score) == [game.x_score, game.o_score]


def join(url: str, name: str) -> str:
    """Join the league at ``url`` as the person ``name``; their secret."""
    answer = request(f"{url}/api/league/people", "POST", {"name": name})
    assert answer.status == 201, answer
    secret: str = answer.body["secret"]
    return secret


def me(url: str, secret: str) -> dict[str, Any]:
    """What ``/api/league/me`` tells the person holding ``secret``."""
    answer = request(f"{url}/api/league/me", token=secret)
    assert answer.status == 200, answer
    return dict(answer.body)


def challenge(url: str, secret: str, opponent: str) -> Any:
    """The answer to a person's challenge of ``opponent``."""
    return request(f"{url}/api/league/challenge", "POST", {"opponent": opponent}, token=secret)


def play_round_robin(db: str, name: str = "rr") -> None:
    """Play every board of the round robin ``name`` in the store as the server would:
    each board a league pair, each leg a real game (greedy against random) whose record
    is stored."""
    with LeagueStore(db) as store:
        events = store.events
        event = events.named(name)
        members = events.members(event.id)
        settings = store.meta.settings()
        for r, boards in enumerate(round_robin(members)):
            events.add_round(event.id, r, boards, len(settings.openings))
        for board in events.boards(event.id):
            if board.pair_id is None or board.b is None:
                continue
            for leg in (0, 1):
                x, o = (board.a, board.b) if leg == 0 else (board.b, board.a)
                start = settings.opening(0)
                record = play_game(
                    make_bot("greedy", seed=board.id * 2 + leg),
                    make_bot("random", seed=board.id),
                    start,
                    Limit(time=None),
                )
                game_id = store.games.start_game(x, o, start.fen(), board.pair_id, leg)
                store.games.finish_game(game_id, record.result, record.termination.value, "",
                                  game_to_text(record), record.position.score,
                                  len(record.moves), (0.0, 0.0))  # fmt: skip


def upload(
    url: str,
    data: bytes,
    token: str | None,
    path: str = "/api/league/submissions",
    kind: str = "application/zip",
    filename: str = "team.zip",
) -> Response:
    """POST ``data`` as a team's upload (its bot token, or the admin's for ``path`` a
    team's admin route); the status and the JSON answer."""
    headers = {"Content-Type": kind, "X-Filename": filename}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url + path, data=data, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return Response(answer.status, json.loads(answer.read()))
    except urllib.error.HTTPError as exc:
        return Response(exc.code, json.loads(exc.read() or b"null"))


def paused_after_double_absence(db: Path, event: str = "cup") -> tuple[str, str]:
    """A round robin of ``red``, ``ghost`` and ``shade`` whose first round's pair (ghost
    and shade: red has the bye) was absent for both legs, each leg stored as lost by both
    (``absent-both``), and the event paused there by the teacher so nothing more is
    played. Returns the two absent teams' names in board order."""
    make_league(db)
    for name in ("red", "ghost", "shade"):
        add_member(db, name)
    with LeagueStore(db) as store:
        store.events.create(event, "round-robin", None, ["red", "ghost", "shade"])
        started = store.events.start(event)
        EventRunner(store).plan(set())  # pairs round 1
        board = next(b for b in store.events.boards(started.id) if b.b is not None)
        assert board.pair_id is not None and board.b is not None
        a, b = board.a, board.b
        names = {m: store.members.member(m).name for m in (a, b)}
        for leg, (x, o) in enumerate(((a, b), (b, a))):
            game = store.games.start_game(x, o, "6/6/6/6/6/6 x 4", board.pair_id, leg)
            store.games.lose_both(game, ended("absent-both", x=names[x], o=names[o]), "")
        store.events.pause(event)
        assert store.events.absentees(started.id) == {a, b}
    return names[a], names[b]


def ws_connect(url: str, token: str) -> ClientConnection:
    """A bot's WebSocket connection to the league at ``url`` with its ``token``."""
    return connect(
        url.replace("http://", "ws://") + "/api/league/connect",
        additional_headers={"Authorization": f"Bearer {token}"},
        open_timeout=10,
    )


def receive(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` on ``ws`` (others skipped; 30 s at most each)."""
    while True:
        message = json.loads(ws.recv(timeout=30))
        if message["type"] == kind:
            return dict(message)


def project(files: dict[str, str], extra: dict[str, bytes] | None = None) -> bytes:
    """A zip of ``files`` (and ``extra`` entries, never read by the server)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return buffer.getvalue()


def keep(db: Path, team: str, data: bytes, accepted: bool = True, digest: bool = True) -> int:
    """Store ``data`` as ``team``'s next version, decided; its version number. An accepted
    version gets its digest as the builder gives it at acceptance (made here, in this
    thread), unless ``digest`` is false: a version accepted before digests were kept."""
    with LeagueStore(db) as store:
        member = store.members.member_named(team)
        submission, _ = store.submissions.add(member.id, data, "team.zip")
        if accepted and digest:
            store.digests.keep(submission.id, *make(data))
        store.submissions.decide(submission.id, accepted, "" if accepted else "no bot")
    return submission.version
