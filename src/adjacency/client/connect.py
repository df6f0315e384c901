"""``adjacency connect``: play for a league account from the bot author's machine.

One WebSocket connection to the server (docs/league.md, "The protocol"); for each
``your_turn`` the local bot (any spec, most usefully ``cmd:./my_engine``, which
speaks the engine protocol through :mod:`adjacency.bots.external`) is asked for a
move within the budget the server gives, and the move is sent back. A bot that fails
(its program crashed, answered junk or overran its budget) is reported at once
(``failed``, with its own words, the last lines of its stderr for a ``cmd:`` bot, also
printed here): the server ends that game as a crash, an illegal move or a time loss
then, not when the whole clock has run out.

After a network drop, a server that closed the connection or a server restart (a
``kill -9`` included) the client reconnects with exponential back-off (0.5 s doubling
to :data:`BACKOFF_MAX`, each wait drawn between half and one and a half times that, so
a restarted server sees it back within the seconds it waits for an event game's
bots), and the server sends it its games in play again. Each
try says one line: what failed, which try comes next and after what wait. Every
connection that gets as far as the server's welcome starts the count again. It gives
up (:class:`ConnectError`, exit status 3) when it has never connected and
:data:`FIRST_TRIES` tries in a row failed (nothing listens there, no such host), or
when it has been connected before, or the league answered with a refusal a later try
may pass (:data:`RETRIED_STATUSES`: its rates, its connection caps), and no connection
has worked for :data:`GIVE_UP_AFTER` seconds since. A refusal the league made is never
the end of the client: the league holds the bot's event games meanwhile. A game the
server aborted (it stopped, or restarted after a crash: ``game_end`` with termination
``aborted``) has its engine closed, so no ``cmd:`` process outlives its game. With
``games``, the client says it is ``leaving`` once it has started its last game, so the
server starts no new ladder game for it, and leaves when its games in play are over.

Final answers end the client at once, as retrying would not help
(:class:`~.wire.LeagueRefused`: one line, exit status 2): a refused token (401/403), an
address that answers but is no league (any other refusal of the handshake: a wrong
path or port), a certificate that does not verify, an ``http://`` URL for a TLS
server, or an ``https://`` URL for a server without TLS.

TLS: ``wss://`` (or an ``https://`` URL) verifies the server's certificate against
the system's authorities, or ``cafile`` for a private one.
"""

from __future__ import annotations

import json
import math
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
from .wire import ABORTED, CONNECT_PATH, LeagueRefused

NETWORK_MARGIN = 0.05
"""Seconds of the server's budget kept for the answer's trip back."""
MAX_MESSAGE = 1 << 20
BACKOFF_START = 0.5
BACKOFF_MAX = 3.0
"""The longest back-off between two tries, before its jitter: a wait is at most 1.5 times it, 4.5 s,
well within the 10 s a restarted league server waits for an event game's bots to connect
(:data:`adjacency.league.play.scheduler.RECONNECT_GRACE`; a bot absent after it loses its
event game at once). A loaded machine does not shorten that wait: it counts only the
time the server's machine could run things, up to three minutes of wall time
(:mod:`adjacency.league.play.machine_time`), as a slow client and a slowly answering
server then wait for a CPU."""
FIRST_TRIES = 5
"""Failed attempts at the first connection before the client gives up (about 6.5 s of
back-off: a server that is starting is up by then; nothing listening is a wrong URL)."""
GIVE_UP_AFTER = 600.0
"""Seconds without a working connection, after a connection that worked ended, before the
client gives up (a server restart takes far less)."""
RETRIED_STATUSES = frozenset({429, 500, 502, 503, 504})
"""Handshake refusals that a later try may pass (over a rate, a server or proxy that is
starting or busy); every other status is final."""


PLAIN_SERVER = ("WRONG_VERSION_NUMBER", "RECORD_LAYER_FAILURE", "HTTP_REQUEST")
"""OpenSSL's reasons for a TLS handshake answered in plain HTTP (an https:// URL for a
server without TLS): final, as a retry would meet the same server."""


class ConnectError(AdjacencyRuntimeError):
    """The league server could not be reached or closed the connection (retried);
    ``answered``: a league answered, refusing the handshake for now
    (:data:`RETRIED_STATUSES`)."""

    def __init__(self, message: str, answered: bool = False) -> None:
        super().__init__(message)
        self.answered = answered


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
        raise LeagueRefused(
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
    clock: Callable[[], float] = time.monotonic
    """The time the give-up rule counts in (seconds; tests give a fake one with ``sleep``)."""
    ended: int = 0
    welcomed: bool = False
    """Whether the current (or last) connection got as far as the server's welcome."""
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
        failed tries before any connection worked, or :data:`GIVE_UP_AFTER` seconds
        without one after a connection that worked) and :class:`~.wire.LeagueRefused`
        for a final refusal."""
        delay = BACKOFF_START
        connected_once = False
        answered = False  # a league answered (a refusal for now): it is there
        tries = 0  # failed tries since the last connection that worked (or the start)
        lost_at = self.clock()
        try:
            while not self._done():
                self.welcomed = False
                try:
                    problem = self._session()
                except ConnectError as exc:
                    problem = str(exc)
                    answered = answered or exc.answered
                just_lost = self.welcomed
                if self.welcomed:  # this connection worked: the count starts again
                    connected_once, tries, delay = True, 0, BACKOFF_START
                    lost_at = self.clock()
                else:
                    tries += 1
                if self._done():
                    break
                if not connected_once and not answered and tries >= FIRST_TRIES:
                    self.announce(f"could not connect: {problem}")
                    raise ConnectError(
                        f"gave up after {tries} tries: {problem}; check the league's "
                        f"URL ({self.url}) and that its server is running"
                    )
                without = self.clock() - lost_at
                if (connected_once or answered) and without >= GIVE_UP_AFTER:
                    self.announce(f"could not reconnect: {problem}")
                    raise ConnectError(f"gave up: no connection for {GIVE_UP_AFTER:g} s: {problem}")
                wait = delay * (0.5 + random.random())
                if just_lost:
                    said = f"connection lost: {problem}; reconnecting in {wait:.1f} s"
                    said += f" (try 1; for up to {GIVE_UP_AFTER:g} s without a connection)"
                elif connected_once or answered:
                    verb = "reconnect" if connected_once else "connect"
                    said = f"could not {verb}: {problem}; try {tries + 1} in {wait:.1f} s"
                    said += f" ({GIVE_UP_AFTER - without:.0f} s left before giving up)"
                else:
                    said = f"could not connect: {problem}; try {tries + 1} of {FIRST_TRIES}"
                    said += f" in {wait:.1f} s"
                self.announce(said)
                self.sleep(wait)
                delay = min(BACKOFF_MAX, delay * 2)
        finally:
            self.close()
        return 0

    def close(self) -> None:
        """Close every bot this client made (their engine processes end); :meth:`run`
        does it when it returns."""
        for bot in [*self._idle, *self._playing.values()]:
            bot.close()
        self._idle.clear()
        self._playing.clear()

    def _done(self) -> bool:
        """Whether ``games`` games have ended and none is left in play."""
        return self.games is not None and self.ended >= self.games and not self._playing

    def _leaving(self) -> bool:
        """Whether the games started so far reach ``games``: the server is told (once)
        to start no new ladder game for this bot."""
        return self.games is not None and self.ended + len(self._playing) >= self.games

    def _session(self) -> str:
        """One connection, until the server closes it or ``games`` are over; return how
        it ended (when it was closed in order) or raise :class:`ConnectError`. Sets
        :attr:`welcomed` when it got as far as the server's welcome (a connection that
        worked, however it ended)."""
        from websockets.exceptions import (
            ConnectionClosed,
            InvalidMessage,
            InvalidStatus,
            WebSocketException,
        )
        from websockets.sync.client import connect

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
                        self.welcomed = True
                        self.announce(f"connected as {message.get('name')}")
                    answers = [self.handle(message)]
                    if self.welcomed and not told_leaving and self._leaving():
                        told_leaving = True
                        answers.append({"type": "leaving"})
                    try:
                        for answer in answers:
                            if answer is not None:
                                ws.send(json.dumps(answer))
                    except ConnectionClosed:  # read what came before the close
                        continue  # (a game_end for the game just answered)
                    if self._done():
                        return "done"
                code = ws.close_code
        except InvalidStatus as exc:
            status = exc.response.status_code
            try:
                detail = json.loads(exc.response.body or b"{}").get("detail", "")
            except ValueError:
                detail = ""
            if status in (401, 403) and detail:
                raise LeagueRefused(f"the league refused this token ({status}: {detail})") from None
            if status not in RETRIED_STATUSES:
                raise LeagueRefused(
                    f"no league answers at {self.ws_url} (the server there answered "
                    f"{status}{': ' + detail if detail else ''}): give the league's address, "
                    "as its front page shows it, e.g. http://HOST:PORT/"
                ) from None
            said = f"the server answered {status} {detail}".strip()
            raise ConnectError(said, answered=True) from None
        except ConnectionClosed as exc:
            if exc.rcvd is None:  # no close frame: the server went away (killed, network)
                raise ConnectError("the connection broke without a close") from None
            closed = f"the server closed the connection ({_code(exc.rcvd.code)})"
            raise ConnectError(closed) from None
        except ssl.SSLCertVerificationError as exc:
            raise LeagueRefused(
                f"the server's TLS certificate was not accepted ({exc.verify_message}): "
                "pass its authority's certificate with --cafile FILE, and check that the "
                "certificate names the address you connect to (subjectAltName)"
            ) from None
        except ssl.SSLError as exc:
            if exc.reason in PLAIN_SERVER:
                raise LeagueRefused(
                    f"the server at {self._address()} does not speak TLS: "
                    "use an http:// (or ws://) URL"
                ) from None
            raise ConnectError(f"TLS: {exc}") from None
        except InvalidMessage as exc:
            if self.ws_url.startswith("ws:") and speaks_tls(*self._host_port()):
                raise LeagueRefused(
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
        if not self.welcomed:
            return f"the server closed the connection ({_code(code)}) before welcoming it"
        return f"the server closed the connection ({_code(code)})"

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
            position = Position.from_fen(str(message["fen"]))
            try:
                move = bot.choose_move(position, self._limit(message, position))
            except Exception as exc:  # the local bot failed: the server is told at once
                return self._failed(game, bot, exc)
            if bot.stand_in:  # its engine said: not the bot's own move; the league counts it
                self.announce(f"game {game}: {move} is a stand-in, not the bot's own move")
                return {"type": "move", "game": game, "move": move, "stand_in": True}
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

    @staticmethod
    def _limit(message: dict[str, Any], position: Position) -> Limit:
        """What the bot is given for a ``your_turn``: the server's suggested ``budget`` as
        the time to use, and the mover's own clock (less :data:`NETWORK_MARGIN`) as the
        only deadline, so the server's clock decides a time loss, never this client."""
        budget = max(0.02, _seconds(message.get("budget"), 1.0) - NETWORK_MARGIN)
        clocks = message.get("clock")
        left = clocks.get(position.turn) if isinstance(clocks, dict) else None
        if left is None:
            return Limit(time=budget)
        return Limit(time=budget, clock=max(budget, _seconds(left, 0.0) - NETWORK_MARGIN))

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


CLOSE_CODES = {1001: "going away", 1008: "policy: too many refused or unread messages",
               1012: "restarting"}  # fmt: skip
"""What the close codes a league server sends mean, for the line a lost connection
prints (docs/league.md, "The protocol")."""


def _code(code: int | None) -> str:
    """A close code for a person: ``1012: restarting``."""
    if code is None:
        return "no code"
    meaning = CLOSE_CODES.get(code)
    return f"{code}: {meaning}" if meaning else str(code)


def _seconds(value: object, default: float) -> float:
    """A number of seconds from a server message (``default`` for anything that is not
    a finite number: the server is trusted for its game, not for its types)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return float(value) if math.isfinite(value) else default
