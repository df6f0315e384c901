"""Helpers for the web tests: a bot that thinks until told to stop, waiting, live servers,
and for the browser tests the client they share with their pages, API calls and tabs."""

from __future__ import annotations

import json
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar
from urllib.request import Request, urlopen

from adjacency.bots import Bot, Search, Thinking
from adjacency.core import Position
from adjacency.serving.binding import bind
from adjacency.web.limits import Limits
from adjacency.web.seats import CLIENT_COOKIE
from hang_guard import guard
from oracles import exact_value, move_values


class PatientBot(Bot):
    """Thinks until stopped (or out of time), then plays its first legal move.

    Lets tests control exactly when a bot answers, without relying on timing.
    """

    instances: ClassVar[list[PatientBot]] = []

    def __init__(self) -> None:
        super().__init__()
        self.spec = "patient"
        self.started = threading.Event()
        self.stops = 0
        PatientBot.instances.append(self)

    def _choose(self, position: Position, search: Search) -> str:
        self.started.set()
        search.publish(Thinking(depth=1, score=0.5, nodes=1, pv=(position.legal_moves()[0],)))
        while not search.should_stop():
            time.sleep(0.005)
        self.started.clear()
        return position.legal_moves()[0]

    def stop(self) -> None:
        self.stops += 1
        super().stop()


def wait_until(
    predicate: Callable[[], Any],
    timeout: float = 30.0,
    what: str = "condition",
    every: float = 0.02,
) -> Any:
    """Poll ``predicate`` every ``every`` seconds until it returns something truthy; fail
    after ``timeout`` seconds. A look that asks a server for much (every game of a
    member, the standings) is better made a few times a second: each look is the
    server's work, taken from the games the test waits for.

    The timeout only guards against a hang; no test asserts on how fast anything is.
    Beside other work it is stretched by the machine's load (:func:`hang_guard.guard`).
    """
    deadline = time.monotonic() + guard(timeout)
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(every)


HUMAN = {"kind": "human", "name": "Ann"}
"""A person's player entry for new games."""
SMALL = {"rows": 4, "cols": 4, "rounds": 2}
"""The smallest board and game the tests play."""


def events(response: Any) -> Iterator[tuple[str, Any]]:
    """Parse server-sent events from a streaming ``httpx`` response: ``(event, data)``."""
    name = None
    for line in response.iter_lines():
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: ") and name:
            yield name, json.loads(line[6:])
            name = None


def check_conformance(url: str, operation: Any, examples: int, excluded: list[Any]) -> None:
    """Schemathesis against one OpenAPI ``operation`` of the server at ``url``: at most
    ``examples`` generated requests (valid and invalid, reproducible), each answer checked
    (no 5xx, a documented status, a body matching the schema) except the ``excluded``
    checks."""
    from hypothesis import HealthCheck, given, settings

    @given(case=operation.as_strategy())
    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def check(case: Any) -> None:
        case.call_and_validate(base_url=url, timeout=30, excluded_checks=excluded)

    check()


@contextmanager
def uvicorn_thread(app: Any, what: str = "the server", **config: Any) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on a 127.0.0.1 port the OS picked; yields its
    base URL. The test binds the socket and hands it to uvicorn (``sockets=``), so no
    other process can take the port between. ``config`` adds uvicorn options (the
    league's WebSocket settings)."""
    import uvicorn

    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            # No logging.config.dictConfig: it closes every handler in the process, and a
            # handler made under an earlier test's capture (absl's, once OpenSpiel was
            # imported) would close the capture's stream of the whole test run with it.
            log_config=None,
            timeout_graceful_shutdown=1,
            **config,
        )
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        wait_until(lambda: server.started, 30, f"{what} to start")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@contextmanager
def live_server(db: Path, grace: float = 10.0, **options: Any) -> Iterator[str]:
    """The web app in a real uvicorn server in a thread (:func:`uvicorn_thread`)."""
    from adjacency.web.app import create_app

    with uvicorn_thread(create_app(db, grace=grace, **options)) as url:
        yield url


def a_game_with_mistakes() -> tuple[Position, list[str], list[int]]:
    """A 4x4, 4-round game of random moves, and the plies whose mover lost value."""
    rng = random.Random(3)
    position, moves, losses = Position.start(4, 4, 4), [], []
    while not position.is_over:
        move = rng.choice(position.legal_moves())
        child = position.play(move)
        before = exact_value(position)
        after = move_values(position)[move]
        losses.append(before - after)
        moves.append(move)
        position = child
    return Position.start(4, 4, 4), moves, [i + 1 for i, loss in enumerate(losses) if loss > 0]


CLIENT = secrets.token_urlsafe(16)
"""The client id a test run's API calls (:func:`api`) and pages (:func:`new_tab`) share, so
the pages hold the seats of the games the API made."""
JOURNEY_LIMITS = Limits(analyses=4, analyses_per_client=4)
"""The limits of a browser module's server (its ``LIVE_SERVER``) whose journeys analyse:
every tab of a test run is one browser to the server (:data:`CLIENT`), and an analysis
whose tab has closed may still be winding down, slowly on a loaded machine, when the next
test's page starts its own. The server leaves that browser room for the analyses a
module's tests have running at once, so none is refused (429) for a machine's slowness;
the limits themselves are tested by the tests that set them (tests/web/test_analysis.py,
test_fair_slots.py). The other limits are the defaults: a module that needs another sets
its own (``dataclasses.replace(JOURNEY_LIMITS, ...)``)."""
BROWSER_TIMEOUT = 30_000
"""Playwright's default timeout in the browser tests' tabs (ms)."""
LAPTOP = {"width": 1366, "height": 768}
"""A tab's window unless told otherwise: the audit's laptop."""


def api(
    server: str, method: str, path: str, body: dict[str, Any] | None = None, **more: str
) -> Any:
    """Call the web app's API as :data:`CLIENT` (``more``: further headers); the JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Cookie": f"{CLIENT_COOKIE}={CLIENT}", **more}
    request = Request(server + path, data=data, method=method, headers=headers)
    with urlopen(request, timeout=60) as response:
        return json.loads(response.read() or b"null")


def new_tab(browser: Any, server: str, client: str | None = CLIENT, **options: Any) -> Any:
    """A page in a fresh context of ``browser`` (``options``: the context's, under the
    tests' CSP bypass; the window :data:`LAPTOP` unless given) holding ``client``'s
    cookie (None: another device); it records console errors and uncaught exceptions in
    its ``console_errors`` list."""
    from browser_helpers import UNDER_TEST

    options.setdefault("viewport", LAPTOP)
    context = browser.new_context(**{**UNDER_TEST, **options})
    if client is not None:
        context.add_cookies([{"name": CLIENT_COOKIE, "value": client, "url": server}])
    context.set_default_timeout(BROWSER_TIMEOUT)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    tab.console_errors = errors
    return tab


def shown_plies(tab: Any, count: int) -> None:
    """Wait until the move list of the play page in ``tab`` shows ``count`` plies."""
    tab.wait_for_function(f"document.querySelectorAll('#moves button').length === {count}")


def drawn_shapes(tab: Any) -> list[tuple[str, str, str | None]]:
    """The arrows and circles in the play page's overlay (shapes.js), sorted: (kind,
    from, to), ``to`` None for a circle."""
    return sorted(
        (kind, start, end)
        for kind, start, end in tab.eval_on_selector_all(
            ".shapes .shape",
            "els => els.map((e) => [e.classList.contains('arrow') ? 'arrow' : 'circle',"
            " e.dataset.from, e.dataset.to || null])",
        )
    )
