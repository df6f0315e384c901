"""What is rated and how fast members play: the league's rules for people and ratings.

Why (docs/league.md, "What is rated"): anyone may join as a person, so a person's
games cannot move ratings until the league has reason to believe the person is
real. Without this rule a student could join eight throwaway people, lose on time
with each against their own bot and buy it 180 rating points in a minute. So:

* A person is **provisional** (not yet *established*) until they have finished
  games against :attr:`LeagueRules.established_games` *distinct vouchers*: people
  who were established themselves when the game ended, counted once per address
  they joined from, except that each approved person counts on their own (a class
  behind one school address is approved by its teacher) and people who joined from
  the person's own address never count. Or the admin (the teacher) approved them
  (``adjacency league approve NAME``, the teacher's page); with
  ``people="approved"`` only the approval establishes a person. A game with a
  provisional person is played and stored but rates nobody: neither side's rating
  changes (:meth:`LeagueRules.established`).
* Only people vouch: a bot plays whoever challenges it, so games against bots prove
  nothing about a person (five puppets that resigned once to each of five league
  bots were established in 30 s, then bought their author's bot +110). Games between
  provisional people prove nothing either (six throwaway people resigning to each
  other bought +224). The roots of trust are approvals; the store counts proving
  games as each game ends (its ``proofs`` table,
  :func:`~adjacency.league.store.members.add_proof`), so asking whether a person is
  established reads their few ``proofs`` rows, never their games.
* A game proves only when it was played (:func:`proves`): a resignation never counts,
  nor a game that did not end on the board before each side made
  :data:`PLAYED_MOVES` moves.
* A rating change needs the loser to have played the game (:func:`rates_loss`): a
  person who lost (or drew) a game that did not end on the board before each side made
  :data:`PLAYED_MOVES` moves rates nobody, so resigning at once, or losing on time
  without a move, buys nothing.
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
"""The default number of distinct vouchers (established people of distinct addresses or
approvals) a person must have played before their games are rated."""
PLAYED_MOVES = 4
"""The fewest moves of their own a person must make in a game for it to prove them, or
for their loss in it to move a rating: fewer is a game not played."""
MIN_GAME = 2.0
"""The default shortest time, in seconds, from a game's start until its bots may start
another game (a class default: instant bots otherwise play 20 games a second)."""
PEOPLE_EXPIRE_DAYS = 7.0
"""The default number of days after which a person who never played is deleted."""

TEAM_VERSIONS = 100
"""The default most versions a team may have stored (the teacher raises it)."""
TEAM_MIB = 256.0
"""The default most MiB a team's stored uploads and build folders may take together."""

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
    """``open``: a person is established after games against :attr:`established_games`
    distinct vouchers (or the admin's approval); ``approved``: only by approval."""
    established_games: int = ESTABLISHED_GAMES
    min_game: float = MIN_GAME
    """Seconds from a game's start before its bots (not people) may start another game."""
    people_expire_days: float = PEOPLE_EXPIRE_DAYS
    """Days after which a person who joined and never played is deleted (0: never), so
    join spam does not accumulate."""
    team_versions: int = TEAM_VERSIONS
    """The most versions a team may have stored: an upload past it is refused
    (:mod:`.http.quota`)."""
    team_mib: float = TEAM_MIB
    """The most MiB a team's stored uploads and build folders may take: an upload once
    they reach it is refused (:mod:`.http.quota`)."""

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

        if isinstance(self.team_versions, bool) or not 1 <= self.team_versions <= 100_000:
            raise InvalidSettingsError(
                f"versions per team must be 1 to 100000, got {self.team_versions!r}"
            )
        if not 0 < self.team_mib <= 1_000_000:
            raise InvalidSettingsError(
                f"MiB per team must be above 0 and at most 1000000, got {self.team_mib!r}"
            )
        if not 0 <= self.people_expire_days <= 3650:
            raise InvalidSettingsError(
                f"people expire after 0 to 3650 days, got {self.people_expire_days!r}"
            )

    def established(self, approved: bool, vouchers: int) -> bool:
        """Whether a person who played ``vouchers`` distinct vouchers (people established
        as the game ended, one per address or approval) and is approved or not, is
        established."""
        if approved:
            return True
        if self.people == "approved":
            return False
        return vouchers >= self.established_games

    def progress(self, approved: bool, vouchers: int) -> Progress:
        """What a person is told about their games' ratedness (with a code for pages)."""
        if self.established(approved, vouchers):
            return Progress("your games are rated", "rated")
        if self.people == "approved":
            return Progress(
                "your games are unrated until the league's admin approves you", "needs_approval"
            )
        n = self.established_games
        return Progress(
            f"your games are unrated until you have played {n} established people "
            f"(of different addresses, or approved) or the league's admin approves you "
            f"({vouchers} so far)",
            "needs_games",
            {"count": n, "so_far": vouchers},
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
            team_versions=int(data.get("team_versions", default.team_versions)),
            team_mib=float(data.get("team_mib", default.team_mib)),
        )


def played(termination: str, plies: int) -> bool:
    """Whether a finished game of ``plies`` moves that ended by ``termination`` was
    played by both sides: it ended on the board (every ply of it played, however short
    the league's games), or each side made at least :data:`PLAYED_MOVES` moves
    (``plies // 2`` is the fewest either side made, whoever moved first)."""
    return termination == "normal" or plies // 2 >= PLAYED_MOVES


def proves(termination: str, plies: int) -> bool:
    """Whether a finished game counts toward a person's establishment: never a
    resignation, and only a game :func:`played`."""
    return termination != "resignation" and played(termination, plies)


def rates_loss(termination: str, plies: int) -> bool:
    """Whether a person who lost or drew a game played it enough for the game to move a
    rating (:func:`played`): resigning at once, or losing on time without playing,
    buys the opponent nothing."""
    return played(termination, plies)


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
