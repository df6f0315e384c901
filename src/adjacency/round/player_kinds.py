"""Who plays a side of a game in play, and what that changes for the game: the rules
both servers' drivers take per seat, written once.

A seat is played by one of four kinds of player (:class:`Kind`):

* a **person**, whose moves come from a page (the browser game's people, the league's
  people);
* a **connected** bot, a program on someone else's machine whose moves come over a
  connection (the league's bots with a token, ``adjacency connect``);
* a **house** bot, a built-in bot whose moves the server computes itself (the league's
  house bots in worker processes, every bot of the browser game in its turn threads);
* a **hosted** bot, a team's uploaded code that the server runs in the sandbox (the
  league's teams with an accepted version).

Which kind a seat has is the server's business (each reads it from its own stored
player: the browser game's ``human``/``bot``, the league's member kind and whether the
team is hosted in that game); what the kind *means* is written here, as properties of
:class:`Kind`, and no driver repeats it:

* :attr:`Kind.server_plays`: the server computes the moves (house, hosted); no client
  is asked for them, told of the game or heard for that seat;
* :attr:`Kind.clock_from_ask`: its clock runs from the moment it is asked (a person, a
  connected bot: the server cannot see them think); a side the server plays is charged
  only while its move is being computed (never while it waits for a slot, a pace, a
  page to watch it);
* :attr:`Kind.illegal_forfeits`: a bot's answer that is not a legal move loses by
  illegal move (:func:`~.moves.answer`); a person's is refused and nothing changes
  (:func:`~.moves.play`);
* :attr:`Kind.chooses_end`: only a person resigns or aborts, takes a move back
  (:func:`takes_back`) or holds a seat a rematch is offered for; a bot's game ends by
  its moves and its clock;
* :attr:`Kind.paced`: a bot's move may be held for a pace (a bot-vs-bot game watched
  at a viewing speed); a person's is never held, and only a bot rests between games;
* :attr:`Kind.always_present`: the server's own players are always there; a
  connected bot is there while connected (absent, it is not paired and loses an event
  game), a person while their page is there (the league's play page: a person absent
  from an event game loses it; the browser game's people are there while they ask).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

from ..core import COLORS, Color
from .state import Round


class Kind(enum.Enum):
    """The kind of player in a seat; see the module docstring for what each implies."""

    PERSON = "person"
    CONNECTED = "connected"
    HOUSE = "house"
    HOSTED = "hosted"

    @property
    def is_person(self) -> bool:
        """Whether a person plays the seat (every other kind is a bot)."""
        return self is Kind.PERSON

    @property
    def server_plays(self) -> bool:
        """Whether the server computes the seat's moves (house and hosted bots): no
        client is asked for them, told of the game, or heard for the seat."""
        return self in (Kind.HOUSE, Kind.HOSTED)

    @property
    def clock_from_ask(self) -> bool:
        """Whether the seat's clock runs from the moment it is asked for its move (a
        person, a connected bot); else only while the server computes its move."""
        return not self.server_plays

    @property
    def illegal_forfeits(self) -> bool:
        """Whether an answer that is not a legal move loses the game by illegal move
        (every bot); a person's is refused, changing nothing."""
        return not self.is_person

    @property
    def chooses_end(self) -> bool:
        """Whether the seat may resign, abort, take a move back or be offered a rematch
        (a person only: a bot's game ends by its moves and its clock)."""
        return self.is_person

    @property
    def paced(self) -> bool:
        """Whether the seat's moves may be held for a pace and the seat rests between
        games (every bot; a person is never held back)."""
        return not self.is_person

    @property
    def always_present(self) -> bool:
        """Whether the seat is always there to play (the server's own players); a
        connected bot is there only while connected, a person while their page is."""
        return self.server_plays

    @property
    def needs_connection(self) -> bool:
        """Whether the seat plays only while its connection is open (a connected bot)."""
        return self is Kind.CONNECTED


Kinds = Mapping[Color, Kind]
"""Who plays each side of a game."""


def people(seats: Kinds) -> list[Color]:
    """The sides a person plays, X first."""
    return [c for c in COLORS if seats[c].is_person]


def clock_runs(kind: Kind, computing: bool) -> bool:
    """Whether the clock of the side to move, of ``kind``, runs now; ``computing``:
    whether the server is computing its move (only asked of a side it plays)."""
    return kind.clock_from_ask or computing


def takes_back(state: Round, seats: Kinds, sides: tuple[Color, ...] | None = None) -> int | None:
    """How many moves remain when the last move of a side that chooses (a person's, of
    ``sides`` if given) is taken back, with every reply after it; ``None`` when no such
    move was played (then there is nothing to take back)."""
    chosen = [c for c in COLORS if seats[c].chooses_end and (sides is None or c in sides)]
    for i in range(len(state.moves) - 1, -1, -1):
        if state.positions[i].turn in chosen:
            return i
    return None
