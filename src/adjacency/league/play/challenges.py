"""People's challenges: waiting for a person's consent, or queued for a busy bot.

Why: a challenge that started a game at once let anyone drag a
person whose page was open into a game, and a challenge to a bot that was playing
(or resting) was refused, so in a busy league a person could never play a bot. So a
challenge is a small state machine the hall's challenge desk
(:meth:`~adjacency.league.play.challenge_desk.ChallengeDesk.challenge`) drives, with these
states:

* ``waiting``: for the challenged person's answer (``accept``/``decline``), at most
  :data:`ANSWER_TIME` seconds; then ``expired``;
* ``queued``: for a bot or house bot to be free; the scheduler serves a bot's queue,
  oldest first, before it pairs the bot again;
* ``started`` (with its ``game``), ``declined``, ``expired``, ``cancelled``: ended.

Each person has at most one open challenge (a new one cancels the previous), and at
most :data:`MAX_INCOMING` challenges wait for one person, so the registry stays
bounded by the number of people; ended challenges are forgotten after
:data:`KEEP_ENDED` seconds (the challenger's page has read the outcome by then).

Puppets (throwaway people on one address, or on several) must not occupy a bot nor
fill a person's challenge slots: at most :data:`PER_ADDRESS` open challenges to one
member come from one address, at most :data:`NEWCOMERS` from people not yet
established whatever their addresses, and after a game against a bot a person waits
:data:`COOLDOWN` seconds before challenging that bot again (the hall also lets the
ladder have a bot's next game after a challenge game, and starts no challenge game
with a bot in an event).
This module keeps the state only (no hall, no store, times given by the caller).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.details import Detail
from ...serving.details import ended
from ..league_file import Member

ANSWER_TIME = 60.0
"""Seconds a challenge waits for the challenged person's answer."""
MAX_INCOMING = 8
"""Challenges that may wait for one person's answer at once."""
KEEP_ENDED = 300.0
"""Seconds an ended challenge can still be read (its outcome)."""
PER_ADDRESS = 2
"""Open challenges (waiting or queued) to one member that may come from one address:
three puppets on one address kept a bot playing only them, and eight filled a
person's :data:`MAX_INCOMING` slots. Two leave a class behind one address room to
queue for a bot together with others' challenges in between."""
NEWCOMERS = 2
"""Open challenges (waiting or queued) to one member that may come from people not yet
established (:mod:`.rules`), whatever their addresses: a person costs nothing to make,
and eight puppets on four addresses kept a bot playing only them and filled a
person's :data:`MAX_INCOMING` slots. The other slots are for established people (a
teacher's approval establishes a class at once)."""
COOLDOWN = 30.0
"""Seconds after a person's game against a bot or house bot ends before the person
may challenge that bot again (others and the ladder get it meanwhile)."""
OPEN = ("waiting", "queued")


@dataclass
class Challenge:
    """One challenge of a person (``challenger``) to another member (``opponent``)."""

    id: int
    challenger: Member
    opponent: Member
    status: str
    created: float
    game: int | None = None
    detail: Detail = field(default_factory=Detail)
    ended: float | None = None
    address: str | None = None
    """The challenger's address (``None``: not limited per address, a client of this
    machine with ``--exempt-loopback``)."""
    established: bool = True
    """Whether the challenger was established when challenging (:data:`NEWCOMERS`)."""

    @property
    def open(self) -> bool:
        """Whether it still waits (for an answer or a free bot)."""
        return self.status in OPEN

    def expires_in(self, now: float) -> float | None:
        """Seconds left for the answer (``waiting`` only)."""
        if self.status != "waiting":
            return None
        return max(0.0, self.created + ANSWER_TIME - now)


class Challenges:
    """The open and recently ended challenges of one league server."""

    def __init__(self) -> None:
        self.by_id: dict[int, Challenge] = {}
        self._next = 1
        self.cooling: dict[tuple[int, int], float] = {}
        """Until when (monotonic) each ``(person, bot)`` may not play again (:data:`COOLDOWN`)."""

    def add(
        self,
        challenger: Member,
        opponent: Member,
        status: str,
        now: float,
        address: str | None = None,
        established: bool = True,
    ) -> Challenge:
        """A new open challenge; the challenger's previous open one is cancelled."""
        self.expire(now)
        for old in self.by_id.values():
            if old.open and old.challenger.id == challenger.id:
                self.end(old, "cancelled", ended("challenged-other"), now)
        challenge = Challenge(
            self._next, challenger, opponent, status, now, address=address, established=established
        )
        self._next += 1
        self.by_id[challenge.id] = challenge
        return challenge

    def end(self, challenge: Challenge, status: str, detail: str | Detail, now: float) -> None:
        """End an open challenge (``started``, ``declined``, ``expired``, ``cancelled``)
        saying why (text alone: words of no code, ``game 12``)."""
        challenge.status, challenge.ended = status, now
        challenge.detail = Detail(detail) if isinstance(detail, str) else detail

    def expire(self, now: float) -> None:
        """Expire the unanswered challenges and forget the long-ended ones."""
        for challenge in list(self.by_id.values()):
            if challenge.status == "waiting" and challenge.expires_in(now) == 0.0:
                name = challenge.opponent.name
                detail = ended("no-answer", player=name, seconds=f"{ANSWER_TIME:g}")
                self.end(challenge, "expired", detail, now)
            if challenge.ended is not None and now - challenge.ended > KEEP_ENDED:
                del self.by_id[challenge.id]
        for pair, until in list(self.cooling.items()):
            if until <= now:
                del self.cooling[pair]

    def from_address(self, opponent_id: int, address: str | None, challenger_id: int) -> int:
        """How many open challenges to ``opponent_id`` come from ``address`` (0 for
        ``None``), leaving out ``challenger_id``'s own (a new challenge cancels it)."""
        if address is None:
            return 0
        return sum(
            1
            for c in self.by_id.values()
            if c.open
            and c.opponent.id == opponent_id
            and c.address == address
            and c.challenger.id != challenger_id
        )

    def from_newcomers(self, opponent_id: int, challenger_id: int) -> int:
        """How many open challenges to ``opponent_id`` come from people who were not
        established, leaving out ``challenger_id``'s own (a new challenge cancels it)."""
        return sum(
            1
            for c in self.by_id.values()
            if c.open
            and c.opponent.id == opponent_id
            and not c.established
            and c.challenger.id != challenger_id
        )

    def cool(self, person_id: int, bot_id: int, until: float) -> None:
        """``person_id`` may not challenge ``bot_id`` again before ``until`` (monotonic)."""
        self.cooling[person_id, bot_id] = until

    def cooldown(self, person_id: int, bot_id: int, now: float) -> float:
        """Seconds before ``person_id`` may challenge ``bot_id`` again (0: now)."""
        return max(0.0, self.cooling.get((person_id, bot_id), now) - now)

    def incoming(self, member_id: int, now: float) -> list[Challenge]:
        """The challenges waiting for ``member_id``'s answer, oldest first."""
        self.expire(now)
        return [
            c for c in self.by_id.values() if c.status == "waiting" and c.opponent.id == member_id
        ]

    def queue(self, member_id: int) -> list[Challenge]:
        """The challenges queued for the bot ``member_id``, oldest first."""
        return [
            c for c in self.by_id.values() if c.status == "queued" and c.opponent.id == member_id
        ]

    def queued_bots(self) -> list[int]:
        """The bots with a queued challenge, in the order of their oldest one."""
        seen: dict[int, None] = {}
        for challenge in self.by_id.values():
            if challenge.status == "queued":
                seen.setdefault(challenge.opponent.id, None)
        return list(seen)

    def position(self, challenge: Challenge) -> int | None:
        """A queued challenge's place in its bot's queue (1: next)."""
        if challenge.status != "queued":
            return None
        return [c.id for c in self.queue(challenge.opponent.id)].index(challenge.id) + 1
