"""``adjacency connect``: play for a league account from the bot author's machine.

One WebSocket connection to the server (docs/league.md, "The protocol"); for each
``your_turn`` the local bot (any spec, most usefully ``cmd:./my_engine``, which
speaks the engine protocol through :mod:`adjacency.bots.external`) is asked for a
move within the budget the server gives, and the move is sent back. After a
network drop the client reconnects with exponential back-off (0.5 s doubling to
30 s, with jitter), and the server sends it its games in play again. A game the
server aborted (it stopped, or restarted after a crash: ``game_end`` with termination
``aborted``) has its engine closed, so no ``cmd:`` process outlives its game. A refused
token (401/403) ends the client: retrying would not help; so does a certificate that
does not verify, an ``http://`` URL for a TLS server, or an ``https://`` URL for a
server without TLS (:class:`~.store.LeagueError`: one line, exit status 2).

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

from ..bots import Bot, Limit, make_bot
from ..core import Position
from ..core.errors import AdjacencyRuntimeError
from ..core.text import quote
from .live import ABORTED
from .store import LeagueError

CONNECT_PATH = "/api/league/connect"
NETWORK_MARGIN = 0.05
"""Seconds of the server's budget kept for the answer's trip back."""
MAX_MESSAGE = 1 << 20
BACKOFF_START = 0.5
BACKOFF_MAX = 30.0


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
        """Connect, play, reconnect after drops; return after ``games`` games."""
        delay = BACKOFF_START
        try:
            while self.games is None or self.ended < self.games:
                try:
                    if self._session():
                        delay = BACKOFF_START
                except ConnectError as exc:
                    self.announce(f"connection lost: {exc}")
                if self.games is not None and self.ended >= self.games:
                    break
                wait = delay * (0.5 + random.random())
                self.announce(f"reconnecting in {wait:.1f} s")
                self.sleep(wait)
                delay = min(BACKOFF_MAX, delay * 2)
        finally:
            for bot in [*self._idle, *self._playing.values()]:
                bot.close()
        return 0

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
                    answer = self.handle(message)
                    if answer is not None:
                        try:
                            ws.send(json.dumps(answer))
                        except ConnectionClosed:  # read what came before the close
                            continue  # (a game_end for the game just answered)
                    if self.games is not None and self.ended >= self.games:
                        return welcomed
        except InvalidStatus as exc:
            status = exc.response.status_code
            try:
                detail = json.loads(exc.response.body or b"{}").get("detail", "")
            except ValueError:
                detail = ""
            if status in (401, 403):
                raise LeagueError(f"the league refused this token ({status}: {detail})") from None
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
            except Exception as exc:  # the local bot failed: the server flags the game
                self.announce(f"game {game}: the bot failed: {type(exc).__name__}: {exc}")
                del self._playing[game]
                bot.close()
                return None
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
