"""People's challenges on a league server: a person challenges a member, the desk
starts the game at once, queues it for a busy bot, or waits for a person's answer
(:class:`ChallengeDesk`; the challenges themselves, their limits and their book are
:mod:`.challenges`).

Contract, in the server's event loop (one thread, no locks):

* a challenge that cannot be played is refused with :class:`NotNow` (409) and changes
  nothing (:meth:`ChallengeDesk.challenge` lists the reasons); while the store refuses
  writes, with :class:`~adjacency.core.errors.StoreError` (503);
* a bot's queue is served oldest first when the bot is free
  (:meth:`ChallengeDesk.serve_queues`, at each pass of the scheduler), except while it
  plays an event (:attr:`ChallengeDesk.in_events`) or while the ladder may have its next
  game (:attr:`ChallengeDesk.ladder_owed`, at most :data:`LADDER_WAIT` seconds after a
  challenge game);
* after a challenge game with a bot, the person waits :data:`~.challenges.COOLDOWN`
  seconds before challenging that bot again (:meth:`ChallengeDesk.game_ended`);
* in a challenge's game the challenger plays X and O alternately, X first.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping

from ...core.errors import StoreError
from ...serving.details import ended
from ...serving.errors import Forbidden, GameNotFound, NotNow
from ..league_file import LeagueStore, Member
from .challenges import COOLDOWN, MAX_INCOMING, NEWCOMERS, PER_ADDRESS, Challenge, Challenges
from .games import Games
from .live import LiveGame
from .presence import Presence

LADDER_WAIT = 60.0
"""Seconds a bot, after a challenge game, waits for the ladder to pair it before its
queued challenges are served: puppets keeping every bot in challenge games otherwise
met bots that were never free together, and a bot played 10 of 10 games against them."""


class ChallengeDesk:
    """The people's challenges of one league server: made, answered, queued, started."""

    def __init__(
        self,
        store: LeagueStore,
        games: Games,
        presence: Presence,
        wake: Callable[[], None],
    ) -> None:
        """``wake`` runs the scheduler's next pass now (a queued challenge may start)."""
        self.store = store
        self.games = games
        self.presence = presence
        self.wake = wake
        self.challenges = Challenges()
        """People's challenges: waiting for a person's answer, or queued for a busy bot."""
        self.in_events: frozenset[int] = frozenset()
        """The members of the running events at the scheduler's last pass: a challenge to
        one of them is queued until its event is over, never started at once."""
        self.challenge_games: dict[int, tuple[int, int]] = {}
        """The challenge games with a bot in play: ``game: (person, bot)``."""
        self.ladder_owed: dict[int, float] = {}
        """Bots whose last game was a challenge game, and when it ended: the ladder may have
        their next game before their queue is served, waiting up to :data:`LADDER_WAIT`
        for an opponent while one is present (puppets cannot keep a bot playing only them);
        the scheduler prunes it at each pass."""

    def challenge(
        self,
        person: Member,
        opponent: Member,
        address: str | None = None,
        established: bool = True,
    ) -> Challenge:
        """A person's challenge (:mod:`.challenges`): a free bot or house bot with nobody
        queued plays at once (``started``); a busy or resting one, one in a running event
        (the event's games come first) or one whose last game was a challenge game (the
        ladder may have the next) is ``queued`` and served when the scheduler gets to it;
        a person must accept (``waiting``). Raises :class:`NotNow` (409), changing
        nothing, for oneself, while the challenger plays or is in a running event (its
        games come first, as the ladder pauses for it), for a revoked member, a bot
        that is not connected or that the person played less than
        :data:`~.challenges.COOLDOWN` seconds ago, a member with
        :data:`~.challenges.PER_ADDRESS` open challenges from the challenger's
        ``address`` already (``None``: no such limit) or, for a challenger not
        ``established``, :data:`~.challenges.NEWCOMERS` from such people, or a person who is absent,
        playing, or has :data:`~.challenges.MAX_INCOMING` challenges to answer; raises
        :class:`StoreError` (503) while the store refuses writes."""
        now = time.monotonic()
        if self.games.writes.failure is not None:
            raise StoreError("the league cannot store games now (its database refuses writes)")
        if opponent.id == person.id:
            raise NotNow("you cannot play yourself: choose another member", code="play_yourself")
        if not self.games.is_free(person):
            raise NotNow("you are playing a game already", code="playing_already")
        if person.id in self.in_events:
            raise NotNow(
                "you play in an event now: its games come first, challenge after it",
                code="in_event",
            )
        if opponent.revoked:
            raise NotNow(
                f"{opponent.name} is revoked: choose another member",
                code="opponent_revoked",
                params={"name": opponent.name},
            )
        self.challenges.expire(now)  # an unanswered challenge past its time is not open
        if self.challenges.from_address(opponent.id, address, person.id) >= PER_ADDRESS:
            raise NotNow(
                f"{PER_ADDRESS} challenges to {opponent.name} come from your address already: "
                "try later or choose another member",
                code="opponent_crowded",
                params={"name": opponent.name, "count": PER_ADDRESS},
            )
        if not established and self.challenges.from_newcomers(opponent.id, person.id) >= NEWCOMERS:
            raise NotNow(
                f"{NEWCOMERS} challenges to {opponent.name} come from people whose games are "
                "not rated yet: try later or choose another member",
                code="opponent_newcomers",
                params={"name": opponent.name, "count": NEWCOMERS},
            )
        if opponent.kind == "person":
            if (
                opponent.id not in self.presence.present()
                or not self.games.is_free(opponent)
                or opponent.id in self.in_events
            ):
                raise NotNow(
                    f"{opponent.name} is not here or is playing now: try later",
                    code="opponent_busy",
                    params={"name": opponent.name},
                )
            if len(self.challenges.incoming(opponent.id, now)) >= MAX_INCOMING:
                raise NotNow(
                    f"{opponent.name} has {MAX_INCOMING} challenges to answer already",
                    code="opponent_full",
                    params={"name": opponent.name, "count": MAX_INCOMING},
                )
            return self.challenges.add(person, opponent, "waiting", now, address, established)
        if opponent.kind == "bot" and opponent.id not in self.presence.bots_there():
            raise NotNow(
                f"{opponent.name} is not connected now: try another member",
                code="opponent_offline",
                params={"name": opponent.name},
            )
        wait = self.challenges.cooldown(person.id, opponent.id, now)
        if wait > 0:
            seconds = math.ceil(wait)
            raise NotNow(
                f"you played {opponent.name} a moment ago: challenge it again in {seconds} s, "
                "or choose another member",
                code="challenge_cooldown",
                params={"name": opponent.name, "seconds": seconds},
            )
        ahead = self.challenges.queue(opponent.id)
        challenge = self.challenges.add(person, opponent, "queued", now, address, established)
        later = opponent.id in self.in_events or opponent.id in self.ladder_owed
        if not ahead and not later and self.games.is_free(opponent):
            self._start(challenge, now)
        else:
            self.wake()
        return challenge

    def answer(self, person: Member, challenge_id: int, accept: bool) -> Challenge:
        """The challenged person accepts (the game starts, if the challenger is still here
        and free; else the challenge is cancelled) or declines. :class:`GameNotFound` (404)
        for a challenge that is not the person's, :class:`Forbidden` (403) for the
        challenger, :class:`NotNow` (409) for one no longer waiting or while playing."""
        now = time.monotonic()
        self.challenges.expire(now)
        challenge = self.challenges.by_id.get(challenge_id)
        if challenge is None or person.id not in (challenge.challenger.id, challenge.opponent.id):
            raise GameNotFound(f"no challenge {challenge_id} for {person.name}")
        if challenge.opponent.id != person.id:
            raise Forbidden("only the challenged person answers a challenge")
        if challenge.status != "waiting":
            raise NotNow(f"challenge {challenge_id} is {challenge.status}: {challenge.detail.text}")
        if not accept:
            self.challenges.end(challenge, "declined", ended("declined", player=person.name), now)
            return challenge
        if not self.games.is_free(person):
            raise NotNow("you are playing a game already: finish it first", code="playing_already")
        challenger = challenge.challenger
        if challenger.id not in self.presence.present() or not self.games.is_free(challenger):
            detail = ended("challenger-left", player=challenger.name)
            self.challenges.end(challenge, "cancelled", detail, now)
            return challenge
        self._start(challenge, now)
        return challenge

    def _start(self, challenge: Challenge, now: float) -> None:
        """Start a challenge's game: the challenger plays X and O alternately (X first)."""
        person, opponent = challenge.challenger, challenge.opponent
        played = self.store.games.game_count(person.id, aborted=False)
        x, o = (person, opponent) if played % 2 == 0 else (opponent, person)
        opening = self.store.games.pair_count() % len(self.games.settings.openings)
        live = self.games.start_game(x, o, opening)
        challenge.game = live.id
        if opponent.kind != "person":
            self.challenge_games[live.id] = (person.id, opponent.id)
        self.challenges.end(challenge, "started", f"game {live.id}", now)

    def game_ended(self, live: LiveGame) -> None:
        """After a challenge game with a bot: the person waits
        :data:`~.challenges.COOLDOWN` seconds before challenging that bot again, and the
        ladder may have the bot's next game (:attr:`ladder_owed`)."""
        played = self.challenge_games.pop(live.id, None)
        if played is not None:
            person_id, bot_id = played
            self.challenges.cool(person_id, bot_id, time.monotonic() + COOLDOWN)
            self.ladder_owed[bot_id] = time.monotonic()

    def cancel_for_events(self, people: frozenset[int]) -> None:
        """Cancel the queued challenges of ``people`` (members of an event that runs now,
        :attr:`in_events`) as soon as it runs: its games come first, and a place kept in a
        bot's queue would only be lost when the bot is free (detail
        ``challenger-in-event``, which tells them to challenge again after it)."""
        now = time.monotonic()
        for bot_id in self.challenges.queued_bots():
            for challenge in self.challenges.queue(bot_id):
                if challenge.challenger.id in people:
                    detail = ended("challenger-in-event")
                    self.challenges.end(challenge, "cancelled", detail, now)

    def serve_queues(
        self, members: Mapping[int, Member], paused: frozenset[int] = frozenset()
    ) -> None:
        """Start the queued challenges of the bots that are free now, oldest first; a
        challenger whose page stopped asking, or who plays meanwhile, loses its place.
        Bots in ``paused`` (playing an event) keep their queues for later, and so do
        those the ladder may have first (:attr:`ladder_owed`) (a person in a running
        event has no place here: :meth:`cancel_for_events`)."""
        now = time.monotonic()
        present = self.presence.present()
        for bot_id in self.challenges.queued_bots():
            if bot_id in paused or bot_id in self.ladder_owed:
                continue
            for challenge in self.challenges.queue(bot_id):
                bot = members.get(bot_id)
                if bot is None or bot.revoked:
                    self.challenges.end(challenge, "cancelled", ended("bot-revoked"), now)
                    continue
                if not self.games.is_free(bot):
                    break
                person = challenge.challenger
                if person.id not in present:
                    detail = ended("page-stopped")
                    self.challenges.end(challenge, "expired", detail, now)
                elif not self.games.is_free(person):
                    detail = ended("playing-other")
                    self.challenges.end(challenge, "cancelled", detail, now)
                else:
                    self._start(challenge, now)
