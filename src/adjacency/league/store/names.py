"""Member names: what a name may look like, the words no member may take, and look-alikes.

Anyone may join a league as a person by typing a name, so the names are the league's
only defence against impersonation and confusion: a person named
``admin`` or ``house`` poses as the organisers, ``mal1ory`` beside ``mallory`` takes her
challenges, ``..`` or ``play`` makes ``/bot/NAME`` collide with the server's own pages,
and ``-rf`` or ``--help`` is read as an option by ``adjacency league revoke NAME``. The
rule, implemented here once for every way in (people joining over HTTP, ``league
add-bot``, ``add-house``, the admin API):

- **Form** (:func:`check_name`): 1 to :data:`MAX_NAME` characters from ``A-Z a-z 0-9 -
  _ .``, the first a letter or a digit (event names follow the same form).
- **Reserved** (:data:`RESERVED`): ``admin``, ``root``, ``house`` and the like, and every
  word of the league's routes (``api``, ``static``, ``play``, ``bot``, ``event``, ...; a
  test walks the app's routes so a new route cannot be forgotten), compared by skeleton,
  so ``Adm1n`` is refused too.
- **Look-alikes** (:func:`skeleton`, :class:`NameIndex`): a name whose skeleton equals
  an existing member's is refused, naming that member. The skeleton folds case
  (Unicode NFKC, then ``casefold``), the characters that read alike in a sans-serif
  font (``0``/``o``, ``1``/``l``/``i``/``|``, ``5``/``s``, ``2``/``z``, ``8``/``b``,
  ``9``/``g``/``q``), the letter pairs that render as one letter (``rn``/``m``,
  ``vv``/``w``, ``cl``/``d``), and drops the separators ``-``, ``_`` and ``.``
  wherever they are (``bob.`` is ``bob``, ``m.allory`` is ``mallory``, ``a_l_i_c_e``
  is ``alice``, ``Admin.`` is the reserved ``admin``): a dot or an underscore is all
  but invisible in a list of names.

Only new names are checked: members stored under older, looser rules keep their names
and still load, and can still be revoked, rotated and removed by name.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from ...core.errors import AdjacencyError
from ...core.text import quote

MAX_NAME = 32
"""The longest member name."""

NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
"""The characters a name may hold (no spaces: names stay one word on a command line)."""

RESERVED = frozenset(
    {
        # who a name must not pose as
        "admin", "administrator", "root", "house", "server", "system", "league",
        "moderator", "teacher", "anonymous", "null", "none", "undefined", "nobody",
        # the words of the league's routes (pages, API, static files, WebSocket)
        "api", "static", "league-static", "play", "bot", "watch", "event", "events",
        "docs", "openapi.json", "favicon.ico", "people", "me", "challenge", "challenges",
        "accept", "decline", "games", "record", "move", "members", "standings", "pairs",
        "live", "stats", "connect", "revoke", "rotate", "approve", "remove",
    }
)  # fmt: skip
"""Words no member may be named (compared by :func:`skeleton`)."""

_SINGLE = str.maketrans(
    {
        "0": "o",
        "1": "l",
        "i": "l",
        "|": "l",
        "5": "s",
        "2": "z",
        "8": "b",
        "9": "g",
        "q": "g",
        "-": None,
        "_": None,
        ".": None,
    }
)
_PAIRS = str.maketrans({"m": "rn", "w": "vv", "d": "cl"})
"""The letters that two others read as, spelled as those two: expanding each letter on
its own (never contracting pairs, whose overlaps, as in ``vvv``, make the result depend
on the order of replacement) gives one skeleton however the name was written."""


@functools.lru_cache(maxsize=1 << 16)
def skeleton(name: str) -> str:
    """What ``name`` looks like: two names with the same skeleton are too alike to tell
    apart at a glance (see the module docstring). Idempotent: ``skeleton(skeleton(n)) ==
    skeleton(n)``, since no letter a replacement writes is replaced again."""
    return unicodedata.normalize("NFKC", name).casefold().translate(_SINGLE).translate(_PAIRS)


_RESERVED_SKELETONS = {skeleton(word): word for word in RESERVED}


def check_name(name: str, error: type[AdjacencyError]) -> str:
    """``name`` if its form is allowed (1 to :data:`MAX_NAME` of :data:`NAME_CHARS`, the
    first a letter or a digit); else ``error`` saying so."""
    if not 1 <= len(name) <= MAX_NAME or not set(name) <= NAME_CHARS:
        raise error(
            f"name {quote(name)} is not allowed: 1 to {MAX_NAME} characters from A-Z a-z 0-9 - _ ."
        )
    if not name[0].isalnum():
        raise error(f"name {quote(name)} is not allowed: it must start with a letter or a digit")
    return name


def check_not_reserved(name: str, error: type[AdjacencyError]) -> None:
    """Refuse (``error``) a name that is, or looks like, one of :data:`RESERVED`."""
    word = _RESERVED_SKELETONS.get(skeleton(name))
    if word is not None:
        alike = "is" if word == name.lower() else f"looks like {quote(word)}, which is"
        raise error(f"name {quote(name)} {alike} reserved (the league's own word)")


class NameIndex:
    """The skeletons of a league's member names, for refusing look-alikes in O(1)."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._by_skeleton: dict[str, str] = {}
        for name in names:
            self.add(name)

    def add(self, name: str) -> None:
        """Remember ``name`` (a stored member's)."""
        self._by_skeleton.setdefault(skeleton(name), name)

    def discard(self, name: str) -> None:
        """Forget ``name`` (its member was deleted)."""
        if self._by_skeleton.get(skeleton(name)) == name:
            del self._by_skeleton[skeleton(name)]

    def alike(self, name: str) -> str | None:
        """The stored name that ``name`` cannot be told apart from, if any."""
        return self._by_skeleton.get(skeleton(name))
