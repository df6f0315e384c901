"""What is rated and how fast members play: the league's rules for people and ratings.

Why (docs/league.md, "What is rated"): anyone may join as a person, so a person's
games cannot move ratings until the league has reason to believe the person is
real. Without this rule a student could join eight throwaway people, lose on time
with each against their own bot and buy it 180 rating points in a minute. So:

* A person is **provisional** (not yet *established*) until they have finished
  :attr:`LeagueRules.established_games` games against as many different opponents
  that were established themselves when the game ended (bots, house bots,
  established people), or the admin approved them (``adjacency league approve
  NAME``); with ``people="approved"`` only the admin's approval establishes a
  person. A game with a provisional person is played and stored but rates nobody:
  neither side's rating changes (:meth:`LeagueRules.established`).
* Games between provisional people prove nothing: otherwise six throwaway people
  resigning to each other made each other established in 18 seconds, then resigned
  to their author's bot for +224 rating points. Only the admin adds bots, so a
  person is established by games against the league's bots (or people the league
  trusts already). The store counts them as each game ends (its ``proofs`` table,
  :func:`~adjacency.league.members.add_proof`), so asking whether a
  person is established reads a few rows, never their games.
* A rated game against a member whose Glicko-2 deviation is still above
  :data:`PROVISIONAL_RD` (a new bot, a freshly established person) moves the other
  side's rating by at most :data:`PROVISIONAL_CHANGE` points (:func:`rate`), so a
  stream of new opponents cannot be farmed either.

Bots and house bots are added by the admin and are established from the start.

:func:`rate` is the one rating step of the league: the store applies it when a game
ends and again when it recomputes every rating from the stored games, so the two
always agree. The rules are stored in the league's file (``meta``) and may change
between runs of the server; a game's ratedness is decided when it ends and stored
with it, so a later change never rewrites history.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..core.errors import InvalidSettingsError
from ..ratings.glicko import Glicko, rate_game

PEOPLE = ("open", "approved")
"""How people become established: by playing (``open``) or only by the admin's approval."""
ESTABLISHED_GAMES = 5
"""The default number of finished games, against as many different opponents, after
which a person's games are rated."""
MIN_GAME = 2.0
"""The default shortest time, in seconds, from a game's start until its bots may start
another game (a class default: instant bots otherwise play 20 games a second)."""
PEOPLE_EXPIRE_DAYS = 7.0
"""The default number of days after which a person who never played is deleted."""

PROVISIONAL_RD = 110.0
"""A Glicko-2 deviation above which a rating is provisional (lichess's rule of thumb)."""
PROVISIONAL_CHANGE = 10.0
"""The most rating points a game against a provisional opponent moves a rating by."""


class Progress(str):
    """A person's ratedness in a sentence (English), with a stable ``code`` (``rated``,
    ``needs_approval``, ``needs_games``) and the ``params`` its sentence names, which
    the people's page words in its language."""

    code: str
    params: dict[str, int]

    def __new__(cls, text: str, code: str, params: dict[str, int] | None = None) -> Progress:
        """The sentence ``text`` carrying ``code`` and ``params``."""
        made = super().__new__(cls, text)
        made.code = code
        made.params = dict(params or {})
        return made


@dataclass(frozen=True)
class LeagueRules:
    """The league's rules for people and pace; stored in its file, changeable per run."""

    people: str = "open"
    """``open``: a person is established after :attr:`established_games` games against
    as many opponents (or the admin's approval); ``approved``: only by approval."""
    established_games: int = ESTABLISHED_GAMES
    min_game: float = MIN_GAME
    """Seconds from a game's start before its bots (not people) may start another game."""
    people_expire_days: float = PEOPLE_EXPIRE_DAYS
    """Days after which a person who joined and never played is deleted (0: never), so
    join spam does not accumulate."""

    def __post_init__(self) -> None:
        if self.people not in PEOPLE:
            raise InvalidSettingsError(f"people {self.people!r} is not one of {', '.join(PEOPLE)}")
        if isinstance(self.established_games, bool) or not 0 <= self.established_games <= 100:
            raise InvalidSettingsError(
                f"established games must be 0 to 100, got {self.established_games!r}"
            )
        if not 0 <= self.min_game <= 3600:
            raise InvalidSettingsError(
                f"minimum game length must be 0 to 3600 s, got {self.min_game!r}"
            )

        if not 0 <= self.people_expire_days <= 3650:
            raise InvalidSettingsError(
                f"people expire after 0 to 3650 days, got {self.people_expire_days!r}"
            )

    def established(self, approved: bool, games: int, opponents: int) -> bool:
        """Whether a person with ``games`` finished games against ``opponents`` different
        members, each established as its game ended (and the admin's approval or not),
        is established."""
        if approved:
            return True
        if self.people == "approved":
            return False
        return min(games, opponents) >= self.established_games

    def progress(self, approved: bool, games: int, opponents: int) -> Progress:
        """What a person is told about their games' ratedness (with a code for pages)."""
        if self.established(approved, games, opponents):
            return Progress("your games are rated", "rated")
        if self.people == "approved":
            return Progress(
                "your games are unrated until the league's admin approves you", "needs_approval"
            )
        n, so_far = self.established_games, min(games, opponents)
        return Progress(
            f"your games are unrated until you have played {n} games against {n} "
            f"different opponents ({so_far} so far)",
            "needs_games",
            {"count": n, "so_far": so_far},
        )

    def to_dict(self) -> dict[str, Any]:
        """The rules as JSON-ready values (:meth:`from_dict` reads them back)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LeagueRules:
        """The rules :meth:`to_dict` wrote; missing keys take their defaults."""
        default = cls()
        return cls(
            people=str(data.get("people", default.people)),
            established_games=int(data.get("established_games", default.established_games)),
            min_game=float(data.get("min_game", default.min_game)),
            people_expire_days=float(data.get("people_expire_days", default.people_expire_days)),
        )


def _limited(before: Glicko, after: Glicko, opponent: Glicko) -> Glicko:
    if opponent.rd <= PROVISIONAL_RD:
        return after
    change = max(-PROVISIONAL_CHANGE, min(PROVISIONAL_CHANGE, after.rating - before.rating))
    return Glicko(before.rating + change, after.rd, after.volatility)


def rate(x: Glicko, o: Glicko, x_points: float) -> tuple[Glicko, Glicko]:
    """Both players after one rated game (Glicko-2, :func:`~adjacency.ratings.glicko.rate_game`),
    each rating change limited to :data:`PROVISIONAL_CHANGE` points when the opponent's
    deviation is above :data:`PROVISIONAL_RD`."""
    new_x, new_o = rate_game(x, o, x_points)
    return _limited(x, new_x, o), _limited(o, new_o, x)
