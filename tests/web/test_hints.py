"""Hint bots are built once per spec and reused, one hint at a time per bot."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient

from adjacency.bots import Bot, Search, Thinking
from adjacency.core import Position
from adjacency.serving.errors import NotNow
from adjacency.web import hints as hints_module
from adjacency.web.app import create_app
from adjacency.web.hints import HintBots
from web_helpers import wait_until

START = Position.start(4, 4, 2)


class CountingBot(Bot):
    """Plays the first legal move; counts its constructions and checks it is never shared.

    While ``gate`` is cleared, a search waits for it (so tests can hold hints in flight).
    """

    built: ClassVar[list[CountingBot]] = []
    gate = threading.Event()

    def __init__(self, spec: str = "counting") -> None:
        super().__init__()
        self.spec = spec
        self.new_games = 0
        self.closed = False
        self.searching = False
        self.shared = False
        CountingBot.built.append(self)

    def new_game(self) -> None:
        self.new_games += 1

    def _choose(self, position: Position, search: Search) -> str:
        assert not self.closed, "a closed bot was used"
        if self.searching:
            self.shared = True
        self.searching = True
        try:
            CountingBot.gate.wait(30)
            move = position.legal_moves()[-1]
            search.publish(Thinking(depth=3, score=1.5, nodes=10, pv=(move,)))
            return move
        finally:
            self.searching = False

    def close(self) -> None:
        self.closed = True


class FailingBot(CountingBot):
    def _choose(self, position: Position, search: Search) -> str:
        raise RuntimeError("broken")


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    CountingBot.built.clear()
    CountingBot.gate.set()
    yield
    CountingBot.gate.set()


class WatchedCondition(threading.Condition):
    """The pool's condition, counting the threads that wait on it (so a test can see
    hints blocked rather than guess how long they take to block)."""

    def __init__(self) -> None:
        super().__init__(threading.Lock())
        self.waiting = 0

    def wait(self, timeout: float | None = None) -> bool:
        self.waiting += 1  # under the lock, as wait is only called holding it
        try:
            return super().wait(timeout)
        finally:
            self.waiting -= 1


def in_flight(count: int) -> None:
    wait_until(
        lambda: sum(b.searching for b in CountingBot.built) == count, what=f"{count} searches"
    )


def in_flight_now() -> int:
    return sum(b.searching for b in CountingBot.built)


def test_two_hints_in_a_row_build_the_bot_once() -> None:
    pool = HintBots(CountingBot)
    first = pool.suggest("counting", START, 1.0)
    second = pool.suggest("counting", START.play("c1"), 1.0)
    assert len(CountingBot.built) == 1
    assert pool.built("counting") == 1
    bot = CountingBot.built[0]
    assert bot.new_games == 1  # the reused bot starts afresh, as a new bot would
    assert first.square == START.legal_moves()[-1]
    assert first.flips == START.flips(first.square)
    assert (first.bot, first.depth, first.score) == ("counting", 3, 1.5)
    assert second.square == START.play("c1").legal_moves()[-1]


def test_each_spec_has_its_own_bots() -> None:
    pool = HintBots(CountingBot)
    pool.suggest("a", START, 1.0)
    pool.suggest("b", START, 1.0)
    pool.suggest("a", START, 1.0)
    assert [b.spec for b in CountingBot.built] == ["a", "b"]


def test_concurrent_hints_use_separate_bots_and_both_answer() -> None:
    pool = HintBots(CountingBot, per_spec=2)
    CountingBot.gate.clear()
    positions = [START, START.play("d2")]
    with ThreadPoolExecutor(2) as executor:
        futures = [executor.submit(pool.suggest, "counting", p, 5.0) for p in positions]
        in_flight(2)  # both hints think at once, each with its own bot
        CountingBot.gate.set()
        answers = [f.result(30) for f in futures]
    assert [a.square for a in answers] == [p.legal_moves()[-1] for p in positions]
    assert len(CountingBot.built) == 2
    assert not any(b.shared for b in CountingBot.built)
    pool.suggest("counting", START, 1.0)  # both are reused now
    assert len(CountingBot.built) == 2


def test_a_hint_beyond_the_limit_waits_for_a_free_bot() -> None:
    pool = HintBots(CountingBot, per_spec=1)
    ready = pool._ready = WatchedCondition()
    CountingBot.gate.clear()
    positions = [START, START.play("d2"), START.play("a4")]
    with ThreadPoolExecutor(3) as executor:
        futures = [executor.submit(pool.suggest, "counting", p, 5.0) for p in positions]
        in_flight(1)
        wait_until(lambda: ready.waiting == 2, what="two hints waiting for the bot")
        assert not any(f.done() for f in futures)
        assert len(CountingBot.built) == 1 and in_flight_now() == 1
        CountingBot.gate.set()
        answers = [f.result(30) for f in futures]
    assert [a.square for a in answers] == [p.legal_moves()[-1] for p in positions]
    assert len(CountingBot.built) == 1
    assert not CountingBot.built[0].shared


def test_a_failing_bot_is_closed_and_replaced() -> None:
    pool = HintBots(FailingBot, per_spec=1)
    with pytest.raises(RuntimeError):
        pool.suggest("failing", START, 1.0)
    assert CountingBot.built[0].closed
    assert pool.built("failing") == 0
    with pytest.raises(RuntimeError):
        pool.suggest("failing", START, 1.0)  # a new bot, not the broken one
    assert len(CountingBot.built) == 2


def test_a_factory_error_frees_the_place() -> None:
    def refuse(spec: str) -> Bot:
        raise ValueError(f"cannot build {spec}")

    pool = HintBots(refuse, per_spec=1)
    for _ in range(2):  # the second would wait forever if the first kept its place
        with pytest.raises(ValueError):
            pool.suggest("x", START, 1.0)
    assert pool.built("x") == 0


def test_close_closes_idle_bots_now_and_borrowed_ones_on_return() -> None:
    pool = HintBots(CountingBot, per_spec=2)
    pool.suggest("counting", START, 1.0)
    idle = CountingBot.built[0]
    CountingBot.gate.clear()
    with ThreadPoolExecutor(2) as executor:
        futures = [executor.submit(pool.suggest, "counting", START, 5.0) for _ in range(2)]
        in_flight(2)
        pool.close()
        assert [b.closed for b in CountingBot.built] == [False, False]  # both are borrowed
        CountingBot.gate.set()
        assert all(f.result(30).square for f in futures)  # hints in flight still answer
    assert idle in CountingBot.built
    assert all(b.closed for b in CountingBot.built)
    assert pool.built("counting") == 0
    with pytest.raises(NotNow, match="shutting down"):
        pool.suggest("counting", START, 1.0)


def test_per_spec_must_be_positive() -> None:
    with pytest.raises(ValueError, match="per_spec"):
        HintBots(CountingBot, per_spec=0)


# --------------------------------------------------------------- through the API


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's hint bots are CountingBots named after the spec they stand for."""
    monkeypatch.setattr(hints_module, "build_bot", lambda spec, seed=None: CountingBot(str(spec)))


def two_people(client: TestClient) -> str:
    body = {
        "x": {"kind": "human", "name": "Ann"},
        "o": {"kind": "human", "name": "Bob"},
        "rows": 4,
        "cols": 4,
        "rounds": 2,
    }
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def test_hints_through_the_api_reuse_one_bot_closed_at_shutdown(
    tmp_path: Path, counted: None
) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3")) as client:
        game = two_people(client)
        answers: list[dict[str, Any]] = []
        for _ in range(2):
            response = client.post(f"/api/games/{game}/hint")
            assert response.status_code == 200, response.text
            answers.append(response.json())
        other = two_people(client)
        assert client.post(f"/api/games/{other}/hint").status_code == 200
        assert len(CountingBot.built) == 1  # three hints in two games, one bot
        assert answers[0] == answers[1]
        assert answers[0]["square"] == START.legal_moves()[-1]
        assert answers[0]["flips"] == START.flips(answers[0]["square"])
        assert not CountingBot.built[0].closed
    assert CountingBot.built[0].closed  # the app's shutdown closed it


def test_concurrent_hints_through_the_api_both_answer(tmp_path: Path, counted: None) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3")) as client:
        games = [two_people(client), two_people(client)]
        client.post(f"/api/games/{games[1]}/moves", json={"square": "c1"})
        CountingBot.gate.clear()
        with ThreadPoolExecutor(2) as executor:
            futures = [executor.submit(client.post, f"/api/games/{g}/hint") for g in games]
            in_flight(2)
            CountingBot.gate.set()
            responses = [f.result(30) for f in futures]
        expected = [START.legal_moves()[-1], START.play("c1").legal_moves()[-1]]
        assert [r.json()["square"] for r in responses] == expected
        assert len(CountingBot.built) == 2
        assert not any(b.shared for b in CountingBot.built)
