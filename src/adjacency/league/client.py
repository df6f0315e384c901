"""``adjacency connect``: play for a league account from the bot author's machine.

One WebSocket connection to the server (docs/league.md, "The protocol"); for each
``your_turn`` the local bot (any spec, most usefully ``cmd:./my_engine``, which
speaks the engine protocol through :mod:`adjacency.bots.external`) is asked for a
move within the budget the server gives, and the move is sent back. A bot that fails
(its program crashed, answered junk or overran its budget) is reported at once
(``failed``, with its own words, the last lines of its stderr for a ``cmd:`` bot, also
printed here): the server ends that game as a crash, an illegal move or a time loss
then, not when the whole clock has run out.

After a network drop the client reconnects with exponential back-off (0.5 s doubling
to 30 s, with jitter), and the server sends it its games in play again. It gives up
(:class:`ConnectError`, exit status 3) when the first connection fails
:data:`FIRST_TRIES` times in a row (nothing listens there, no such host), or when no
connection has worked for :data:`GIVE_UP_AFTER` seconds after a drop. A game the
server aborted (it stopped, or restarted after a crash: ``game_end`` with termination
``aborted``) has its engine closed, so no ``cmd:`` process outlives its game. With
``games``, the client says it is ``leaving`` once it has started its last game, so the
server starts no new ladder game for it, and leaves when its games in play are over.

Final answers end the client at once, as retrying would not help
(:class:`~.store.LeagueError`: one line, exit status 2): a refused token (401/403), an
address that answers but is no league (any other refusal of the handshake: a wrong
path or port), a certificate that does not verify, an ``http://`` URL for a TLS
server, or an ``https://`` URL for a server without TLS.

TLS: ``wss://`` (or an ``https://`` URL) verifies the server's certificate against
the system's authorities, or ``cafile`` for a private one.
"""

from __future__ import annotations

import json
import random
import socket
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..bots import Bot, BotFailure, Limit, make_bot
from ..core import Position
from ..core.errors import AdjacencyRuntimeError
from ..core.text import quote
from .live import ABORTED
from .paths import CONNECT_PATH
from .store import LeagueError

NETWORK_MARGIN = 0.05
"""Seconds of the server's budget kept for the answer's trip back."""
MAX_MESSAGE = 1 << 20
BACKOFF_START = 0.5
BACKOFF_MAX = 30.0
FIRST_TRIES = 5
"""Failed attempts at the first connection before the client gives up (about 15 s of
back-off: a server that is starting is up by then; nothing listening is a wrong URL)."""
GIVE_UP_AFTER = 600.0
"""Seconds without a working connection, after a drop, before the client gives up
(a server restart takes far less)."""
RETRIED_STATUSES = frozenset({429, 500, 502, 503, 504})
"""Handshake refusals that a later try may pass (over a rate, a server or proxy that is
starting or busy); every other status is final."""


PLAIN_SERVER = ("WRONG_VERSION_NUMBER", "RECORD_LAYER_FAILURE", "HTTP_REQUEST")
"""OpenSSL's reasons for a TLS handshake answered in plain HTTP (an https:// URL for a
server without TLS): final, as a retry would meet the same server."""


class ConnectError(AdjacencyRuntimeError):
    """The league server could not be reached or closed the connection (retried)."""


def speaks_tls(host: str, port: int, timeout: float = 5.0) -> bool:
    """Whether the server at ``host:port`` completes a TLS handshake (not verified: this
    only tells a plain-HTTP URL for a TLS server apart from a broken server)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    try:
        with (
            socket.create_connection((host, port), timeout=timeout) as raw,
            context.wrap_socket(raw, server_hostname=host or None),
        ):
            return True
    except (OSError, ValueError):
        return False


def connect_url(url: str) -> str:
    """The WebSocket URL of a league server given as ``http(s)://`` or ``ws(s)://``."""
    parts = urlsplit(url.strip())
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme.lower())
    if scheme is None or not parts.netloc:
        raise LeagueError(
            f"league URL {quote(url)}: expected http://HOST:PORT, https://..., ws:// or wss://"
        )
    path = parts.path.rstrip("/")
    if not path.endswith(CONNECT_PATH):
        path += CONNECT_PATH
    return urlunsplit((scheme, parts.netloc, path, "", ""))


@dataclass
class LeagueClient:
    """Plays for one account until ``games`` games have ended (``None``: forever)."""

    url: str
    token: str
    spec: str
    cafile: str | None = None
    seed: int | None = None
    games: int | None = None
    announce: Callable[[str], None] = print
    sleep: Callable[[float], None] = time.sleep
    ended: int = 0
    _idle: list[Bot] = field(default_factory=list)
    _playing: dict[int, Bot] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.ws_url = connect_url(self.url)
        make_bot(self.spec, seed=self.seed).close()  # a bad spec fails now (BotError)

    def _ssl(self) -> ssl.SSLContext | None:
        if not self.ws_url.startswith("wss:"):
            return None
        return ssl.create_default_context(cafile=self.cafile)

    def run(self) -> int:
        """Connect, play, reconnect after drops; return after ``games`` games. Raises
        :class:`ConnectError` when the server cannot be reached (:data:`FIRST_TRIES`
        failed first tries, or :data:`GIVE_UP_AFTER` seconds without a connection after
        a drop) and :class:`~.store.LeagueError` for a final refusal."""
        delay = BACKOFF_START
        welcomed_once = False
        failures = 0
        last_working = time.monotonic()
        try:
            while not self._done():
                problem = "the server closed the connection before welcoming it"
                try:
                    if self._session():
                        welcomed_once, failures, delay = True, 0, BACKOFF_START
                        last_working = time.monotonic()
                        problem = ""
                except ConnectError as exc:
                    problem = str(exc)
                    said = "could not connect" if not welcomed_once else "connection lost"
                    self.announce(f"{said}: {exc}")
                if problem:
                    failures += 1
                    if not welcomed_once and failures >= FIRST_TRIES:
                        raise ConnectError(
                            f"gave up after {failures} tries: {problem}; check the league's "
                            f"URL ({self.url}) and that its server is running"
                        )
                    if welcomed_once and time.monotonic() - last_working > GIVE_UP_AFTER:
                        raise ConnectError(
                            f"gave up: no connection for {GIVE_UP_AFTER:g} s: {problem}"
                        )
                if self._done():
                    break
                wait = delay * (0.5 + random.random())
                self.announce(f"reconnecting in {wait:.1f} s")
                self.sleep(wait)
                delay = min(BACKOFF_MAX, delay * 2)
        finally:
            for bot in [*self._idle, *self._playing.values()]:
                bot.close()
        return 0

    def _done(self) -> bool:
        """Whether ``games`` games have ended and none is left in play."""
        return self.games is not None and self.ended >= self.games and not self._playing

    def _leaving(self) -> bool:
        """Whether the games started so far reach ``games``: the server is told (once)
        to start no new ladder game for this bot."""
        return self.games is not None and self.ended + len(self._playing) >= self.games

    def _session(self) -> bool:
        """One connection; return whether it got as far as the welcome."""
        from websockets.exceptions import (
            ConnectionClosed,
            InvalidMessage,
            InvalidStatus,
            WebSocketException,
        )
        from websockets.sync.client import connect

        welcomed = False
        told_leaving = False
        try:
            with connect(
                self.ws_url,
                additional_headers={"Authorization": f"Bearer {self.token}"},
                ssl=self._ssl(),
                max_size=MAX_MESSAGE,
                open_timeout=10,
                user_agent_header="adjacency-connect",
            ) as ws:
                for raw in ws:
                    message = json.loads(raw)
                    if not isinstance(message, dict):
                        continue
                    if message.get("type") == "welcome":
                        welcomed = True
                        self.announce(f"connected as {message.get('name')}")
                    answers = [self.handle(message)]
                    if welcomed and not told_leaving and self._leaving():
                        told_leaving = True
                        answers.append({"type": "leaving"})
                    try:
                        for answer in answers:
                            if answer is not None:
                                ws.send(json.dumps(answer))
                    except ConnectionClosed:  # read what came before the close
                        continue  # (a game_end for the game just answered)
                    if self._done():
                        return welcomed
        except InvalidStatus as exc:
            status = exc.response.status_code
            try:
                detail = json.loads(exc.response.body or b"{}").get("detail", "")
            except ValueError:
                detail = ""
            if status in (401, 403) and detail:
                raise LeagueError(f"the league refused this token ({status}: {detail})") from None
            if status not in RETRIED_STATUSES:
                raise LeagueError(
                    f"no league answers at {self.ws_url} (the server there answered "
                    f"{status}{': ' + detail if detail else ''}): give the league's address, "
                    "as its front page shows it, e.g. http://HOST:PORT/"
                ) from None
            raise ConnectError(f"the server answered {status} {detail}".strip()) from None
        except ConnectionClosed as exc:
            raise ConnectError(f"closed ({exc.rcvd.code if exc.rcvd else 'no code'})") from None
        except ssl.SSLCertVerificationError as exc:
            raise LeagueError(
                f"the server's TLS certificate was not accepted ({exc.verify_message}): "
                "pass its authority's certificate with --cafile FILE, and check that the "
                "certificate names the address you connect to (subjectAltName)"
            ) from None
        except ssl.SSLError as exc:
            if exc.reason in PLAIN_SERVER:
                raise LeagueError(
                    f"the server at {self._address()} does not speak TLS: "
                    "use an http:// (or ws://) URL"
                ) from None
            raise ConnectError(f"TLS: {exc}") from None
        except InvalidMessage as exc:
            if self.ws_url.startswith("ws:") and speaks_tls(*self._host_port()):
                raise LeagueError(
                    f"the server at {self._address()} speaks TLS: use an https:// (or wss://) URL"
                ) from None
            raise ConnectError(f"{type(exc).__name__}: {exc}") from None
        except ConnectionRefusedError:
            raise ConnectError(
                f"nothing listens at {self._address()} (connection refused)"
            ) from None
        except socket.gaierror as exc:
            raise ConnectError(f"no host {self._host_port()[0]!r}: {exc.strerror}") from None
        except (OSError, WebSocketException, TimeoutError) as exc:
            raise ConnectError(f"{type(exc).__name__}: {exc}") from None
        return welcomed

    def _host_port(self) -> tuple[str, int]:
        parts = urlsplit(self.ws_url)
        return parts.hostname or "", parts.port or (443 if parts.scheme == "wss" else 80)

    def _address(self) -> str:
        return urlsplit(self.ws_url).netloc

    def _bot(self, game: int) -> Bot:
        bot = self._playing.get(game)
        if bot is None:
            bot = self._idle.pop() if self._idle else make_bot(self.spec, seed=self.seed)
            bot.new_game()
            self._playing[game] = bot
        return bot

    def handle(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """Act on one server message; return the answer to send, if any."""
        kind = message.get("type")
        game = message.get("game")
        if kind == "game_start" and isinstance(game, int):
            self._bot(game)
            self.announce(
                f"game {game}: playing {message.get('color')} against {message.get('opponent')}"
            )
        elif kind == "your_turn" and isinstance(game, int):
            bot = self._bot(game)
            budget = float(message.get("budget") or 1.0)
            position = Position.from_fen(str(message["fen"]))
            try:
                move = bot.choose_move(position, Limit(time=max(0.02, budget - NETWORK_MARGIN)))
            except Exception as exc:  # the local bot failed: the server is told at once
                return self._failed(game, bot, exc)
            return {"type": "move", "game": game, "move": move}
        elif kind == "game_end" and isinstance(game, int):
            done = self._playing.pop(game) if game in self._playing else None
            if done is not None and message.get("termination") == ABORTED:
                done.close()  # an aborted game's engine may be mid-search: never reuse it
            elif done is not None:
                self._idle.append(done)
            self.ended += 1
            self.announce(
                f"game {game} ended: {message.get('result') or 'no result'} "
                f"({message.get('termination')}) {message.get('detail') or ''}".rstrip()
            )
        elif kind == "error":
            self.announce(f"server: {message.get('detail')}")
        return None

    def _failed(self, game: int, bot: Bot, exc: Exception) -> dict[str, Any]:
        """The ``failed`` message for a bot that could not move in ``game``, said here
        too (with a ``cmd:`` bot's last stderr lines, which its failure quotes); its
        engine is closed (a new one plays the next game)."""
        if isinstance(exc, BotFailure):
            termination, words = exc.termination.value, exc.detail
        else:  # a bug of a py: bot, or an engine that could not restart
            termination, words = "disconnection", f"{type(exc).__name__}: {exc}"
        self.announce(f"game {game}: the bot failed ({termination}): {words}")
        self._playing.pop(game, None)
        bot.close()
        return {"type": "failed", "game": game, "termination": termination, "detail": words}
