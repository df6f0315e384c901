"""What a team picks in its program's windows to play a person against its bot: the
:class:`Recipe`, read from the dry run's form (:func:`recipe_for`).

A form is the driver's list of the controls that showed on the way from the program's
first window to its board, each with its kind (``text``, ``combo``, ``check``,
``button``), its ``fx:id``, its name (the text a person sees beside it), its options, the
value it showed first and its window's number; and the button pressed in each window
(``path``: the one the dry run found to open the next window or the board). A control is
named by its name or its ``fx:id``, case, surrounding spaces and a trailing colon aside
(:func:`plain`). The team's choices (``NAME=OPTION``) come first; every control they leave
is given a default, shown to the team:

- the rounds (a combo box or field whose name says rounds) are the league's, per game (a
  dry run sets the fewest offered where the window shows none, as a person would before
  pressing its start button: :attr:`Recipe.look_rounds`);
- who moves first (a check box or combo box whose name says first, one whose options can
  say it before one whose cannot, or the one the team
  names by the choice :data:`MOVES_FIRST`) is set per game, so
  that the program's bot moves first exactly when the league's side of the program does;
  where no control says it, X moves first, and a program with a box per player (a bot
  and a person option) has its bot put on X's box when it must move first and on O's
  when it must move second (:attr:`Recipe.sides`); a program with neither is refused:
  its bot cannot move first (or second) as a game needs;
- a game mode (a box or a button whose options name both players, ``Person vs Bot``)
  is the one the window shows if it has exactly one bot side, else the first that has:
  never one where the program plays itself, nor one without its bot;
- a box whose label says it is optional, or relevant only where another choice makes it
  so (``Player 1 Algorithm (optional):``, ``(only if Player 1 is a bot)``), keeps what
  the window shows, as a person leaves it: it never plays the bot;
- a box with a person option (a type per side) takes the person on the first such box and
  a bot on the second; any other box keeps the option the window shows. A person option
  names a person and no bot, or has a word one slip from a long person word (``hman``,
  as a person reading the window takes it: :func:`is_person`);
- a box that plays the bot never plays a blank, placeholder or person option: where the
  window shows one (or nothing), it takes the first real bot option naming an
  adversarial search (minimax, alpha-beta: the course's bot against a person), else the
  first real bot option, and the recipe says
  what else the form offers (:attr:`Recipe.offers`). Never a random pick;
- a box that offers bots by name, one of them an adversarial search (:data:`ADVERSARIAL`),
  plays that search even where the window opens on another bot (``Local``, ``Minimax``,
  ``Genetic``, opening on ``Genetic``): the course's teams write minimax with alpha-beta,
  local search and genetic bots, and enter the minimax against each other, whatever
  their window happens to open on; the recipe says which it passed over and why
  (:attr:`Recipe.opened_on`), and the team may choose another. A box with no adversarial
  search keeps the bot it shows;
- empty name fields get ``Player 1``, ``Player 2``.

The bot's side is then read from the choice (the side a per-side box or the mode gives
the bot; else the mark the labels of the bot's controls give, ``Bot Algorithm (O):``;
else the mark the bot's own move placed in the dry run; O where nothing says): the driver
reads the bot's moves in the pieces of that mark, and checks on the board that it is so.
A first window of mode buttons that opens a form gives a choice, not marks. A window read
more than one way (a game mode naming the same players in both orders, read as the marks
and as who moves first: :func:`readings`) keeps the way whose bot's own move in the dry
run places the mark it gives (:meth:`Recipe.fits`), and no verdict names a side no such
move confirmed (:attr:`Recipe.seen`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from .java_build import BuildFailed

PERSON = re.compile(r"(?i)\b(person|human|manusia|orang|pemain|player|you|kamu)\b")
LONG_PERSON_WORDS = ("person", "human", "manusia", "pemain", "player")
"""The person words long enough that a word one slip away from one is still read as it
(``hman``, ``humna``, ``playr``), as a person reading the option would."""
BOT = re.compile(
    r"(?i)(bot|\bai\b|computer|komputer|min.?max|alpha|local|search|genetic|random|greedy|hill)"
)
FIRST = re.compile(r"(?i)(first|pertama|duluan|dulu)")
OPTIONAL = re.compile(
    r"(?i)\b(optional|opsional|tidak wajib|boleh kosong)\b"
    r"|\((?:if|only|when|jika|hanya|kalau)\b"
)
"""A label that says its box may be left as it is: optional, or relevant only where
another choice makes it so (``Player 1 Algorithm (optional):``, ``(only for Bot vs
Bot)``); such a box keeps what the window shows, as a person would leave it."""
VS = re.compile(r"(?i)\s+vs\.?\s+")
"""What joins a game mode's two sides (``Person vs Bot``)."""
ROUNDS = re.compile(r"(?i)(round|ronde|giliran|turns?\b)")
SIDE = re.compile(r"\b([XO])\b")
PLACEHOLDER = re.compile(r"(?i)^[\W_]*$|^[\W_]*(choose|select|pick|pilih)\b")
"""An option that stands for no choice: blank, punctuation only, or an invitation to choose."""


def plain(text: str) -> str:
    """A name or an option as it is matched: no case, no surrounding spaces, no trailing
    colon (the driver's ``Form.plain``)."""
    out = text.strip()
    while out.endswith(":"):
        out = out[:-1].strip()
    return out.lower()


class ChoiceError(BuildFailed):
    """A team's choice names no control or no option of its program's form."""


@dataclass(frozen=True)
class Control:
    """One control of the form (as the driver read it)."""

    kind: str
    id: str | None
    label: str | None
    options: tuple[str, ...]
    value: str | None
    window: int = 0

    @property
    def name(self) -> str:
        """How the team and the driver name it: its ``fx:id``, else its label."""
        return self.id or self.label or "?"

    def named(self, key: str) -> bool:
        """Whether ``key`` is its ``fx:id`` or its name (:func:`plain`)."""
        key = plain(key)
        return bool(key) and key in {plain(self.id or ""), plain(self.label or "")}

    @property
    def shown(self) -> str:
        """How a message names it: its name as the window shows it, with its ``fx:id``."""
        if self.label and self.label.strip():
            return f"'{self.label.strip()}'" + (f" ({self.id})" if self.id else "")
        return f"'{self.name}'"

    def words(self) -> str:
        """Its ``fx:id`` and label in one text, for matching words in either."""
        return f"{self.id or ''} {self.label or ''}"


def controls_of(form: Mapping[str, object]) -> list[Control]:
    """The controls of a dry run's ``form``."""
    raw = form.get("controls")
    if not isinstance(raw, list):
        raise BuildFailed("the dry run's form has no controls")
    out = []
    for item in raw:
        if isinstance(item, dict):
            options = item.get("options") or []
            out.append(
                Control(
                    str(item.get("kind")),
                    None if item.get("id") is None else str(item["id"]),
                    None if item.get("label") is None else str(item["label"]),
                    tuple(str(o) for o in options) if isinstance(options, list) else (),
                    None if item.get("value") is None else str(item["value"]),
                    int(window) if isinstance(window := item.get("window"), int) else 0,
                )
            )
    return out


@dataclass(frozen=True)
class Recipe:
    """How the driver fills the form: ``settings`` (control -> value), the ``rounds``
    control, the ``first`` control with its values for the bot and for the person moving
    first, the mark of the bot's pieces, what the bot is called (``bot``), the fewest
    rounds the program offers (``None`` for a field: any number), the check's games',
    the button to press in each window (``press``), and the other bots the form
    ``offers`` where the league chose the bot because the window showed none."""

    settings: tuple[tuple[str, str], ...]
    rounds: str
    first: tuple[str, str, str] | None
    bot_mark: str
    bot: str
    fewest_rounds: int | None = None
    press: tuple[str, ...] = ()
    offers: tuple[str, ...] = ()
    sides: tuple[str, str, str, str] | None = None
    look_rounds: str | None = None
    """The rounds a dry run sets to find its way to the board where the window shows none
    (a blank first option, an empty field: its Play refuses a blank form); each game sets
    its own."""
    opened_on: str | None = None
    """The bot the window opened on where the league played the adversarial search its
    box also offers instead (module docstring), else ``None``."""
    window_bots: tuple[str, ...] = ()
    """That box's bot options as the window lists them, where :attr:`opened_on` is set."""
    reading: str = ""
    """How this recipe reads the window, in a team's words, where it can be read more
    than one way (:func:`readings`): named in a refusal that tried each."""
    seen: bool | None = None
    """Whether the dry run saw the bot's own move place :attr:`bot_mark` (:meth:`fits`):
    ``None`` for a form read before dry runs watched the bot's move; where ``False``, the
    verdict names no side (:meth:`describe`)."""

    def driver_args(self) -> list[str]:
        """The driver's options for this recipe."""
        args: list[str] = []
        for key, value in self.settings:
            args += ["--set", key, value]
        args += ["--rounds", self.rounds]
        if self.first is not None:
            args += ["--first", *self.first]
        if self.sides is not None:
            args += ["--sides", *self.sides]
        for button in self.press:
            args += ["--press", button]
        return [*args, "--bot-mark", self.bot_mark]

    def look_args(self) -> list[str]:
        """The dry run's options to see the windows as this recipe fills them (its
        settings and buttons; the rounds and the first mover are per game, but where a
        box per player takes the bot, the bot is put on O's box and the person on X's, so
        that the dry run sees the bot's own move: :meth:`fits`)."""
        args: list[str] = []
        for key, value in self.settings:
            args += ["--set", key, value]
        if self.look_rounds is not None:
            args += ["--set", self.rounds, self.look_rounds]
        if self.sides is not None:
            x_box, o_box, bot, person = self.sides
            args += ["--set", x_box, person, "--set", o_box, bot]
        for button in self.press:
            args += ["--press", button]
        return args

    def proofs(self) -> list[list[str]]:
        """The dry runs' options that confirm this reading (:meth:`fits`): the look as
        the recipe fills the windows (:meth:`look_args`); for a game mode read as who
        moves first (``A vs B`` as an order), that look with the bot moving first, then
        with the person moving first, so that its bot's mark is seen the same either way."""
        if self.first is None or not self.reading.startswith(ORDER_HEAD):
            return [self.look_args()]
        key, bot_first, person_first = self.first
        return [[*self.look_args(), "--set", key, value] for value in (bot_first, person_first)]

    def fits(self, form: Mapping[str, object]) -> bool | None:
        """Whether the dry run that read ``form`` saw the bot's own move place this
        recipe's mark (and, where that dry run set who moves first, move first or second
        as it was set): ``None`` for a form read before dry runs watched the bot's move,
        ``False`` where it saw no move of the bot."""
        if "bot_seen" not in form:
            return None
        seen = bot_seen(form)
        if seen is None:
            return False
        mark, moved_first = seen
        looked = form.get("look")
        applied = [str(a) for a in looked] if isinstance(looked, list) else []
        expected = self.bot_mark
        if self.sides is not None and _applied(applied, self.sides[1]) == self.sides[2]:
            expected = "O"  # the bot on O's box, X moving first
        if mark != expected:
            return False
        if self.first is not None:
            value = _applied(applied, self.first[0])
            if value is not None and plain(value) in {plain(self.first[1]), plain(self.first[2])}:
                return moved_first == (plain(value) == plain(self.first[1]))
        return True

    def changes(self, form: Mapping[str, object], applied: Sequence[str] = ()) -> bool:
        """Whether this recipe sets a box or check box of ``form`` to another value than
        the window showed and the look's options ``applied`` set, or presses another
        button, or the look found no way to the board: then the windows may show other
        controls, and a dry run looks again."""
        if not _path(form) or list(self.press) != list(_path(form)):
            return True  # no way to the board yet (its fields empty?), or another way
        values = {c.name: c for c in controls_of(form)}
        done = {(applied[i + 1], applied[i + 2]) for i, a in enumerate(applied) if a == "--set"}
        for key, value in self.settings:
            if (key, value) in done:
                continue
            control = values.get(key)
            if control is None:
                return True
            if control.kind in ("combo", "check") and plain(control.value or "") != plain(value):
                return True
        return False

    def describe(self) -> str:
        """The choice in a team's words: ``plays Minimax as O``, and where the league
        chose the bot, what else the form offers."""
        if self.seen is False:
            told = f"plays {self.bot}; {UNSEEN}"
        elif self.sides is not None:
            told = f"plays {self.bot} as X when it moves first, as O when it moves second"
        else:
            told = f"plays {self.bot} as {self.bot_mark}"
        if self.opened_on is not None:
            told += (
                f"{OPENED_HEAD}{self.opened_on} and offers {', '.join(self.window_bots)}: "
                f"the league plays {self.bot}, {ADVERSARIAL_WHY}{OPENED_TAIL}"
            )
        elif self.offers:
            told += f"{OFFERS_HEAD}{', '.join(self.offers)}{OFFERS_TAIL}"
        return told

    def as_dict(self) -> dict[str, object]:
        """The recipe as JSON data, as the driver reads it from its argument."""
        return {
            "settings": dict(self.settings),
            "rounds": self.rounds,
            "first": list(self.first) if self.first else None,
            "bot_mark": self.bot_mark,
            "bot": self.bot,
            "fewest_rounds": self.fewest_rounds,
            "press": list(self.press),
            "offers": list(self.offers),
            "opened_on": self.opened_on,
            "window_bots": list(self.window_bots),
            "sides": list(self.sides) if self.sides else None,
            "look_rounds": self.look_rounds,
            "reading": self.reading,
            "seen": self.seen,
        }


UNSEEN = "its dry run saw no move of its bot, so no side is named for it yet"
"""How :meth:`Recipe.describe` words a reading whose side no move of the bot confirmed."""

ORDER_HEAD = "the game mode as who moves first"
"""How a reading of a game mode's ``A vs B`` as an order begins (:func:`readings`)."""

MARKS_HEAD = "the game mode as the marks"
"""How a reading of a game mode's ``A vs B`` as the players' marks begins."""


def bot_seen(form: Mapping[str, object]) -> tuple[str, bool] | None:
    """The mark the bot's own move placed in the dry run that read ``form`` and whether
    it moved first (the driver's ``bot_seen``), or ``None`` where it saw none."""
    seen = form.get("bot_seen")
    if not isinstance(seen, dict) or not isinstance(seen.get("mark"), str):
        return None
    return str(seen["mark"]).strip().upper(), seen.get("first") is True


def seen_words(form: Mapping[str, object]) -> str:
    """What the dry run that read ``form`` saw of the bot's own move, in a team's words:
    ``its bot's own move placed O, moving first``, or that it saw none."""
    seen = bot_seen(form)
    if seen is None:
        return "no move of its bot showed"
    mark, moved_first = seen
    return f"its bot's own move placed {mark}, moving {'first' if moved_first else 'second'}"


def _applied(args: Sequence[str], key: str) -> str | None:
    """The value the driver's options ``args`` set ``key`` to last, or ``None``."""
    value = None
    for i, arg in enumerate(args[:-2]):
        if arg == "--set" and args[i + 1] == key:
            value = args[i + 2]
    return value


OFFERS_HEAD = "; your form also offers "
OFFERS_TAIL = ": choose on your page"
"""How :meth:`Recipe.describe` tells what else the form offers, and invites a choice."""

OPENED_HEAD = "; your window opens on "
ADVERSARIAL_WHY = "the course's adversarial search"
OPENED_TAIL = "; choose another on your page"
"""How :meth:`Recipe.describe` tells that the league played the adversarial search over
the bot the window opened on (``your window opens on Genetic and offers Local, Minimax,
Genetic: the league plays Minimax, the course's adversarial search; choose another on
your page``), and invites a choice."""

_OFFERS = re.compile(
    f"{re.escape(OFFERS_HEAD)}.*?{re.escape(OFFERS_TAIL)}"
    f"|{re.escape(OPENED_HEAD)}.*?{re.escape(OPENED_TAIL)}"
)


def as_refused(label: str) -> str:
    """A build's ``label`` (with :meth:`Recipe.describe`'s words) for a refused
    version's reason: without what else the form offers and the invitation to choose on
    the page, which only an accepted version's verdict gives (a refused version's next
    step is what its refusal says)."""
    return _OFFERS.sub("", label)


def plays_itself(form: Mapping[str, object]) -> bool:
    """Whether the dry run that read ``form`` saw the board it opened play both sides by
    itself: a window of two bots, with no side for the league's opponent (its ``stuck``
    says so in the team's words, and it has no way to the board)."""
    return form.get("plays_itself") is True


def _way(form: Mapping[str, object], strict: bool) -> list[str]:
    """The buttons of ``form``'s way to the board; :class:`BuildFailed` (its ``stuck``)
    for a form kept without one where ``strict`` (each game finds it otherwise)."""
    path = _path(form)
    if not path and strict and "path" in form:
        stuck = form.get("stuck")
        raise BuildFailed(str(stuck or "the dry run found no button that opens the board"))
    return path


def _path(form: Mapping[str, object]) -> list[str]:
    raw = form.get("path")
    return [str(p) for p in raw] if isinstance(raw, list) else []


def _option(control: Control, value: str) -> str:
    for option in control.options:
        if plain(option) == plain(value):
            return option
    listed = ", ".join(control.options)
    raise ChoiceError(f"'{value}' is not an option of {control.shown} (its options: {listed})")


def parse_choices(texts: Sequence[str]) -> dict[str, str]:
    """``LABEL=OPTION`` texts as a mapping; :class:`ChoiceError` for one without ``=``."""
    out = {}
    for text in texts:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            raise ChoiceError(f"a choice is LABEL=OPTION, not {text!r}")
        out[key.strip()] = value.strip()
    return out


def is_person(option: str) -> bool:
    """Whether ``option`` names a person: a person word (:data:`PERSON`), or a word of
    four letters or more one slip from a long one (:func:`one_slip`), and no bot word."""
    if BOT.search(option):
        return False
    if PERSON.search(option):
        return True
    words = re.findall(r"[a-z]+", option.lower())
    return any(
        one_slip(word, person) for word in words if len(word) >= 4 for person in LONG_PERSON_WORDS
    )


def one_slip(word: str, target: str) -> bool:
    """Whether ``word`` is ``target`` with one letter left out, added, changed, or two
    neighbours swapped (a Damerau-Levenshtein distance of exactly one).

    >>> one_slip("hman", "human"), one_slip("humna", "human"), one_slip("hunan", "human")
    (True, True, True)
    >>> one_slip("human", "human"), one_slip("hm", "human")
    (False, False)
    """
    if word == target or abs(len(word) - len(target)) > 1:
        return False
    if len(word) == len(target):
        diff = [k for k, (a, b) in enumerate(zip(word, target, strict=True)) if a != b]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and word[diff[0]] == target[diff[1]]
            and word[diff[1]] == target[diff[0]]
        )
    short, long = sorted((word, target), key=len)
    k = next((k for k, (a, b) in enumerate(zip(short, long, strict=False)) if a != b), len(short))
    return short[k:] == long[k + 1 :]


def _is_blank(option: str | None) -> bool:
    """Whether ``option`` stands for no choice (none, blank or a placeholder)."""
    return option is None or bool(PLACEHOLDER.search(option))


def _is_bot(option: str | None) -> bool:
    """Whether ``option`` may be a bot: neither blank, a placeholder nor a person."""
    return option is not None and not _is_blank(option) and not is_person(option)


def _shown(control: Control) -> str | None:
    """The option the window shows on ``control`` (as its options spell it), or None."""
    if control.value is None:
        return None
    return next((o for o in control.options if plain(o) == plain(control.value)), None)


def _side(control: Control) -> str | None:
    found = SIDE.search(control.label or "") or SIDE.search((control.id or "")[-1:])
    if found:
        return found.group(1)
    words = control.words().lower()
    if re.search(r"(1|one|pertama)\b", words):
        return "X"
    if re.search(r"(2|two|kedua)\b", words):
        return "O"
    return None


def recipe_for(
    form: Mapping[str, object], choices: Mapping[str, str] | None = None, *, strict: bool = True
) -> Recipe:
    """The recipe for ``form``: the team's ``choices`` (control -> value), then the
    defaults (module docstring), read the first way of :func:`readings` whose side the
    bot's own move confirmed in the dry run that read ``form`` (:meth:`Recipe.fits`),
    else the first way (its :attr:`~Recipe.seen` then says no move confirmed it).
    :class:`ChoiceError` for a choice that names no control or no option (unless not
    ``strict``: a dry run's first look, where a choice may name a control that shows
    only once another is set, kept as it is named, and the way to the board may need
    the fields filled); :class:`~adjacency.hosting.java_build.BuildFailed` for a form
    with no rounds or no way to its board, or that no way reads (each way's reason)."""
    made = readings(form, choices, strict=strict)
    for recipe in made:
        if recipe.fits(form):
            return replace(recipe, seen=True)
    return replace(made[0], seen=made[0].fits(form))


def readings(
    form: Mapping[str, object], choices: Mapping[str, str] | None = None, *, strict: bool = True
) -> list[Recipe]:
    """The ways ``form`` can be read, the likeliest first: one for most forms; for a game
    mode box whose options name the same two players in both orders (``Human vs MinMax``,
    ``MinMax vs Human``) and no other control that says who moves first, its options read
    as the marks (the bot plays the side it is named on) and as who moves first (the bot
    named first moves first, its mark the one the form fixes), the order first where a
    label names the bot's mark (``Bot (O):``). Raises as :func:`recipe_for`; a way that
    cannot be played (no control says who moves first) is left out (:func:`unplayable`),
    and where none is left, :class:`~adjacency.hosting.java_build.BuildFailed` says why
    the first cannot."""
    ways: list[Recipe] = []
    failed: list[str] = []
    for order in (False, True):
        try:
            recipe = _read(form, choices, strict, order)
        except ChoiceError:
            raise
        except BuildFailed as exc:
            if order:
                raise
            failed.append(str(exc))
            continue
        if recipe is not None:
            ways.append(recipe)
    if not ways:
        raise BuildFailed(failed[0])
    if len(ways) == 2 and _label_mark(controls_of(form)) is not None:
        ways.reverse()  # the form fixes the bot's mark: the mode is an order
    return ways


def unplayable(form: Mapping[str, object], choices: Mapping[str, str] | None = None) -> list[str]:
    """The ways of reading ``form`` that :func:`readings` leaves out as unplayable, each
    with why (a game mode read as the marks that leaves no control saying who moves
    first), for a refusal to name beside the ways its dry runs tried."""
    try:
        _read(form, choices, True, False)
    except ChoiceError:
        raise
    except BuildFailed as exc:
        return [str(exc)] if str(exc).startswith(MARKS_HEAD) else []
    return []


def _read(
    form: Mapping[str, object], choices: Mapping[str, str] | None, strict: bool, order: bool
) -> Recipe | None:
    """One way of reading ``form`` (:func:`readings`): a game mode with both orders of its
    players read as who moves first where ``order`` (``None``: it has none), else as the
    marks."""
    controls = controls_of(form)
    path = _way(form, strict)
    fields = [c for c in controls if c.kind != "button"]
    rounds = _rounds_control(fields)
    left = dict(choices or {})
    first = _first_control(fields, rounds, left, strict)
    press = list(path)
    chosen = _team_choices(controls, fields, (rounds, first), left, press, strict)
    _press_one_bot_mode(controls, press, left)
    boxes = _Boxes.of(fields, rounds, first)
    settings, picked = _defaults(fields, (rounds, first), boxes, chosen)
    told_none = any(
        plain(k) == MOVES_FIRST and plain(v) == plain(NO_FIRST) for k, v in (choices or {}).items()
    )
    mirror = _mirror_mode(boxes.modes, chosen) if first is None and not told_none else None
    if order and mirror is None:
        return None
    bot_mark, bot, box = _bot_side(form, controls, boxes, settings, press, order)
    offers: tuple[tuple[str, ...], str | None, tuple[str, ...]] = ((), None, ())
    if box is not None:
        bot = settings[box.name]
        if box.name in picked:
            offers = _offers(box, bot)
    first_values, either, reading = None, None, ""
    if mirror is not None:
        reading = f"{MARKS_HEAD} ('{settings.get(mirror[0].name, '')}': the bot plays {bot_mark})"
    if order and mirror is not None:
        mode, bot_first, person_first = mirror
        settings.pop(mode.name, None)
        first_values = (mode.name, bot_first, person_first)
        bot = bot if box is not None else VS.split(bot_first)[0].strip()
        reading = f"{ORDER_HEAD} ('{bot_first}': the bot moves first, as {bot_mark})"
    elif first is not None:
        first_values = (first.name, *_first_values(first, bot_mark))
    elif (
        len(boxes.per_side) >= 2
        and box in boxes.per_side
        and not any(c.name in chosen for c in boxes.per_side[:2])
    ):
        either = _either_side(boxes.per_side, bot, settings)
    elif strict and path:
        if mirror is not None:
            raise BuildFailed(f"{reading} leaves no control that says who moves first")
        _refuse_no_first(fields)
    ordered = tuple((c.name, settings[c.name]) for c in fields if c.name in settings)
    ordered += tuple((k, v) for k, v in settings.items() if not any(c.name == k for c in fields))
    offered = [int(o) for o in (re.sub(r"[^0-9]", "", o) for o in rounds.options) if o]
    fewest = min((n for n in offered if n > 0), default=None)
    return Recipe(
        ordered,
        rounds.name,
        first_values,
        bot_mark,
        bot,
        fewest,
        tuple(press),
        offers[0],
        either,
        _look_rounds(rounds, fewest),
        offers[1],
        offers[2],
        reading,
    )


def _offers(box: Control, bot: str) -> tuple[tuple[str, ...], str | None, tuple[str, ...]]:
    """For the box whose ``bot`` the league picked: the other bots it offers
    (:attr:`Recipe.offers`), and where the window opened on another bot, that bot and the
    box's bots as the window lists them (:attr:`Recipe.opened_on`,
    :attr:`Recipe.window_bots`)."""
    bots = tuple(o for o in box.options if _is_bot(o))
    shown = _shown(box)
    if shown is not None and _is_bot(shown) and shown != bot:
        return tuple(o for o in bots if o != bot), shown, bots
    return tuple(o for o in bots if o != bot), None, ()


def _bot_side(
    form: Mapping[str, object],
    controls: Sequence[Control],
    boxes: _Boxes,
    settings: Mapping[str, str],
    press: Sequence[str],
    order: bool,
) -> tuple[str, str, Control | None]:
    """The bot's mark, its words and the box that names it: a box per player that takes
    a bot gives its side; else a game mode (:func:`_mode_bot`); where neither gives it, or
    a mode is read as who moves first (``order``), the form's labels
    (:func:`_label_mark`), else the mark the bot's own move placed in the dry run that
    read ``form``, else O."""
    bot_mark, bot, given = _mode_bot(controls, boxes.modes, settings, press)
    bot_boxes = [c for c in boxes.per_side if not is_person(settings.get(c.name, ""))]
    if bot_boxes:
        box: Control | None = bot_boxes[0]
        side = _side(bot_boxes[0])
        if side is None:
            side = (
                "X" if boxes.per_side.index(bot_boxes[0]) == 0 and len(boxes.per_side) > 1 else "O"
            )
        bot_mark, given = side, True
    else:
        box = _bot_box([c for c in boxes.others if c.name in settings], bot_mark)
    if order or not given:  # the marks from the form's labels, else the bot's own move
        seen = bot_seen(form)
        bot_mark = _label_mark(controls) or (seen[0] if seen else None) or "O"
    return bot_mark, bot, box


LABEL_MARK = re.compile(r"\(\s*([XO])\s*\)")
"""A label's mark in brackets (``Bot Algorithm (O):``): the side of the player it names."""


def _label_mark(controls: Sequence[Control]) -> str | None:
    """The bot's mark where the form's labels fix it: the one mark in brackets in the
    labels of its bot's controls (a label with a bot word and no person word, ``Bot
    Name (O):``), or ``None`` where they name none or both."""
    marks = {
        found.group(1)
        for c in controls
        if c.kind != "button" and BOT.search(c.label or "") and not PERSON.search(c.label or "")
        for found in LABEL_MARK.finditer(c.label or "")
    }
    return marks.pop() if len(marks) == 1 else None


def _mirror_mode(
    modes: Sequence[Control], chosen: Mapping[str, str]
) -> tuple[Control, str, str] | None:
    """A game mode box the team did not choose (nor said that none says who moves
    first: :data:`NO_FIRST`) whose options name one bot and one person in both orders
    (``MinMax vs Human``, ``Human vs MinMax``): the box, its option naming the bot
    first, the one naming it second; ``None`` for none."""
    for mode in modes:
        if mode.name in chosen:
            continue
        for option in mode.options:
            if _mode_sides(option) != "X":
                continue
            left, right = VS.split(option)
            mirrored = next(
                (
                    o
                    for o in mode.options
                    if _mode_sides(o) == "O"
                    and [plain(p) for p in VS.split(o)] == [plain(right), plain(left)]
                ),
                None,
            )
            if mirrored is not None:
                return mode, option, mirrored
    return None


def _rounds_control(fields: Sequence[Control]) -> Control:
    """The control that sets the number of rounds (a combo box or field whose name says
    rounds and not first); :class:`BuildFailed` for a form without one."""
    for c in fields:
        if c.kind in ("combo", "text") and ROUNDS.search(c.words()) and not FIRST.search(c.words()):
            return c
    raise BuildFailed("the input window has no control for the number of rounds")


def _first_control(
    fields: Sequence[Control], rounds: Control, choices: dict[str, str], strict: bool
) -> Control | None:
    """The control that says who moves first: the one the team names by the choice
    :data:`MOVES_FIRST` (taken out of ``choices``), else a check box or combo box whose
    name says first, one whose options can say it before one whose cannot (the type of a
    "first bot" gives way); ``None`` for none or the team's :data:`NO_FIRST`."""
    says_first = [c for c in fields if c.kind in ("check", "combo") and FIRST.search(c.words())]
    first = next((c for c in says_first if _tells_first(c)), says_first[0] if says_first else None)
    named_first = next((k for k in choices if plain(k) == MOVES_FIRST), None)
    if named_first is not None:
        try:
            first = _first_named(fields, rounds, choices.pop(named_first))
        except ChoiceError:
            if strict:
                raise  # a first look may not show it yet
    return first


def _team_choices(
    controls: Sequence[Control],
    fields: Sequence[Control],
    set_by_league: tuple[Control, Control | None],
    choices: Mapping[str, str],
    press: list[str],
    strict: bool,
) -> dict[str, str]:
    """The team's ``choices`` as settings by control name; a choice of a button is the
    button pressed in its window (``press``, changed in place). ``set_by_league``: the
    rounds and first-mover controls, which no choice may set."""
    chosen: dict[str, str] = {}
    for key, value in choices.items():
        control = next((c for c in controls if c.named(key)), None)
        if control is not None and control.kind == "button":
            if control.window >= len(press):
                raise ChoiceError(f"{control.shown} is a button, not a choice")
            press[control.window] = control.label or control.name
            continue
        if control is None:
            if not strict:
                chosen[key] = value
                continue
            names = ", ".join(c.shown for c in fields)
            raise ChoiceError(f"the form has no control named '{key}' (it has: {names})")
        chosen[control.name] = _chosen_value(control, value, set_by_league)
    return chosen


def _chosen_value(
    control: Control, value: str, set_by_league: tuple[Control, Control | None]
) -> str:
    """The team's ``value`` for ``control`` as it is set (an option as the box writes
    it, a check box's ``true`` or ``false``); :class:`ChoiceError` for a control the
    league sets or a value the control cannot take."""
    rounds, first = set_by_league
    if control is rounds:
        raise ChoiceError(f"{control.shown} is set by the league for each game")
    if control is first:
        raise ChoiceError(
            f"{control.shown} is set by the league for each game, as the control that "
            f"says who moves first; where it is not, choose '{MOVES_FIRST}=' another "
            f"control or '{NO_FIRST}'"
        )
    if control.kind == "combo":
        return _option(control, value)
    if control.kind == "check":
        if plain(value) not in ("true", "false"):
            raise ChoiceError(f"{control.shown} is a check box: true or false, not '{value}'")
        return value.strip().lower()
    return value


def _press_one_bot_mode(
    controls: Sequence[Control], press: list[str], choices: Mapping[str, str]
) -> None:
    """In each window of mode buttons the team chose none of, press one whose mode has
    exactly one bot side where the pressed one has not (changes ``press``)."""
    chosen_buttons = {plain(k) for k in choices}
    for k, window in enumerate(_mode_windows(controls)):
        if any(b.named(key) for b in window for key in chosen_buttons):
            continue
        named = [b for b in window if b.named(press[k])]
        if named and _mode_sides(named[0].label or "") is None:
            one = next((b for b in window if _mode_sides(b.label or "") is not None), None)
            if one is not None:
                press[k] = one.label or one.name


@dataclass(frozen=True)
class _Boxes:
    """The form's combo boxes other than the rounds and the first mover, by what they
    choose: a game mode (an option names both players), a type per side (a person
    option), or anything else."""

    modes: list[Control]
    per_side: list[Control]
    others: list[Control]

    @classmethod
    def of(cls, fields: Sequence[Control], rounds: Control, first: Control | None) -> _Boxes:
        boxes = [c for c in fields if c.kind == "combo" and c is not rounds and c is not first]
        modes = [c for c in boxes if any(" vs" in o.lower() for o in c.options)]
        per_side = [c for c in boxes if any(is_person(o) for o in c.options) and c not in modes]
        others = [c for c in boxes if c not in modes and c not in per_side]
        return cls(modes, per_side, others)


def _defaults(
    fields: Sequence[Control],
    set_by_league: tuple[Control, Control | None],
    boxes: _Boxes,
    chosen: Mapping[str, str],
) -> tuple[dict[str, str], set[str]]:
    """The settings: the team's ``chosen``, then a default for every control they leave
    (module docstring), and the boxes whose bot the league picked (the window showed
    none)."""
    settings = dict(chosen)
    player_names = iter(["Player 1", "Player 2", "Player 3", "Player 4"])
    picked: set[str] = set()
    for control in fields:
        if control.name in settings or any(control is c for c in set_by_league):
            continue
        if control.kind == "text" and not control.value:
            settings[control.name] = next(player_names, "Player")
            continue
        value, by_league = _default_of(control, boxes, settings)
        if value is not None:
            settings[control.name] = value
        if by_league:
            picked.add(control.name)
    return settings, picked


def _default_of(
    control: Control, boxes: _Boxes, settings: Mapping[str, str]
) -> tuple[str | None, bool]:
    """A box's default (``None``: it keeps what it shows) and whether the league picked
    its bot."""
    shown = _shown(control)
    if OPTIONAL.search(control.label or ""):
        return None, False  # a person leaves an optional box as the window shows it
    if control in boxes.modes:
        single = [o for o in control.options if _mode_sides(o) is not None]
        if shown is not None and _mode_sides(shown) is not None:
            return shown, False
        return (single[0] if single else None), False
    if control in boxes.per_side:
        if not any(is_person(settings.get(c.name, "")) for c in boxes.per_side):
            return next(o for o in control.options if is_person(o)), False
        bots = [o for o in control.options if _is_bot(o)]
        if shown is not None and _is_bot(shown) and not _passes_over(shown, bots):
            return shown, False
        return (_adversarial_first(bots)[0], True) if bots else (None, False)
    if control.kind == "combo" and control.options:
        real = [o for o in control.options if _is_bot(o)]
        if shown is not None and not _is_blank(shown) and not _passes_over(shown, real):
            return shown, False
        return (_adversarial_first(real)[0], True) if real else (None, False)
    return None, False


def _passes_over(shown: str, options: Sequence[str]) -> bool:
    """Whether the league plays another of a box's bot ``options`` than the ``shown``
    one: ``shown`` names a bot (:data:`BOT`) but no adversarial search, and another
    option names one (:data:`ADVERSARIAL`), the course's bot for its teams' games."""
    return (
        bool(BOT.search(shown))
        and not ADVERSARIAL.search(shown)
        and any(ADVERSARIAL.search(o) for o in options)
    )


def _mode_bot(
    controls: Sequence[Control],
    modes: Sequence[Control],
    settings: Mapping[str, str],
    press: Sequence[str],
) -> tuple[str, str, bool]:
    """The bot's mark and words from the game mode set (a box's, then a pressed
    button's), and whether a mode gave the mark; ``("O", "its bot", False)`` where no
    mode says. A mode window that opens a form of its own (a later window with fields)
    gives a choice, not marks: its button gives the words only, the marks are the
    form's."""
    bot_mark, bot, given = "O", "its bot", False
    for control in modes:
        sides = _mode_sides(settings.get(control.name, ""))
        if sides is not None:
            bot_mark, bot, given = sides, settings[control.name], True
    for k, window in enumerate(_mode_windows(controls)):
        pressed = next((b for b in window if b.named(press[k])), None)
        sides = _mode_sides(pressed.label or "") if pressed else None
        if sides is not None:
            bot = press[k]
            if not any(c.kind != "button" and c.window > k for c in controls):
                bot_mark, given = sides, True
    return bot_mark, bot, given


def _either_side(
    per_side: Sequence[Control], bot: str, settings: dict[str, str]
) -> tuple[str, str, str, str]:
    """:attr:`Recipe.sides` of a form where no control says who moves first: X does, so
    the bot goes on the side that must move (the first two per-side boxes, X's first,
    taken out of ``settings``: each game sets them)."""
    x_box, o_box = sorted(per_side[:2], key=lambda c: _side(c) != "X")
    person = next(o for o in x_box.options if is_person(o))
    for control in (x_box, o_box):
        settings.pop(control.name, None)
    return x_box.name, o_box.name, bot, person


def _refuse_no_first(fields: Sequence[Control]) -> None:
    """:class:`BuildFailed`: the program's bot cannot move first or second as a game
    needs."""
    looked = ", ".join(c.shown for c in fields if c.kind in ("check", "combo")) or "none"
    raise BuildFailed(
        "your program cannot let its bot move first or second as a game needs: its "
        "window has no control that says who moves first (a check box or box whose "
        "name says first) and no box per player with a bot and a person "
        f"(its boxes and check boxes: {looked})"
    )


def _look_rounds(rounds: Control, fewest: int | None) -> str | None:
    """What a dry run sets the ``rounds`` control to where the window shows no number in
    it (:attr:`Recipe.look_rounds`): its option of the ``fewest`` rounds, or 2 in a field;
    ``None`` where it shows one."""
    if re.search(r"[1-9]", rounds.value or ""):
        return None
    if rounds.kind == "text":
        return "2"
    return next((o for o in rounds.options if re.sub(r"[^0-9]", "", o) == str(fewest)), None)


MOVES_FIRST = "who moves first"
"""The choice that names the control saying who moves first, where the reading took
another (``who moves first=Bot goes first``), or :data:`NO_FIRST`: the league then sets
that control for each game."""

NO_FIRST = "none: X always moves first"
"""The choice of :data:`MOVES_FIRST` for a window none of whose controls says it."""


def _first_named(fields: Sequence[Control], rounds: Control, name: str) -> Control | None:
    """The control a team's :data:`MOVES_FIRST` choice names: a check box or box of the
    form other than the rounds, or ``None`` for :data:`NO_FIRST`; :class:`ChoiceError`
    for any other."""
    if plain(name) == plain(NO_FIRST):
        return None
    found = next((c for c in fields if c.named(name)), None)
    if found is None or found is rounds or found.kind not in ("check", "combo"):
        names = ", ".join(c.shown for c in _first_candidates(fields, rounds))
        raise ChoiceError(
            f"'{MOVES_FIRST}' names a check box or box of the form, or '{NO_FIRST}', "
            f"not '{name}' (its check boxes and boxes: {names or 'none'})"
        )
    return found


def _first_candidates(fields: Sequence[Control], rounds: Control | None) -> list[Control]:
    """The controls that may say who moves first: the check boxes and boxes but the
    rounds."""
    return [c for c in fields if c.kind in ("check", "combo") and c is not rounds]


ADVERSARIAL = re.compile(r"(?i)min.?max|alpha.?beta|\bab\b|adversarial")
"""An option naming an adversarial search (``Minimax``, ``MinMax``, ``Min-Max``,
``Alpha-Beta``, ``Adversarial``): the course's bot for its teams' games, preferred where
the league picks one and over another bot the window opens on (its local and genetic
searches are exercises)."""


def _adversarial_first(options: Sequence[str]) -> list[str]:
    """``options`` with those naming an adversarial search (:data:`ADVERSARIAL`) first,
    each group in the window's order."""
    return sorted(options, key=lambda o: not ADVERSARIAL.search(o))


def _bot_box(boxes: Sequence[Control], bot_mark: str) -> Control | None:
    """The box that names the bot that plays ``bot_mark``: the one whose name says that
    side, else the first."""
    for box in boxes:
        if _side(box) == bot_mark:
            return box
    return boxes[0] if boxes else None


def _mode_windows(controls: Sequence[Control]) -> list[list[Control]]:
    """For each window that led to another, its buttons (a first window may choose the
    mode by its buttons)."""
    last = max((c.window for c in controls), default=0)
    return [[c for c in controls if c.kind == "button" and c.window == k] for k in range(last)]


def _mode_sides(option: str) -> str | None:
    """The bot's mark in a game mode (``Person vs Bot``: O), or ``None`` unless the mode
    has exactly one person and one bot."""
    parts = VS.split(option)
    if len(parts) != 2:
        return None
    left, right = (not is_person(p) and bool(BOT.search(p)) for p in parts)
    if left == right:
        return None
    return "X" if left else "O"


def _tells_first(control: Control) -> bool:
    """Whether ``control`` can say who moves first: a check box, or a box whose options
    name both marks or both a bot and a person (:func:`_first_values` reads them)."""
    try:
        _first_values(control, "O")
    except BuildFailed:
        return False
    return True


def _first_values(control: Control, bot_mark: str) -> tuple[str, str]:
    """The values of the first-mover control that make the bot, then the person, move
    first."""
    other = "X" if bot_mark == "O" else "O"
    if control.kind == "check":
        side = _side(control)
        if side is not None and not BOT.search(control.words()):
            return ("true", "false") if side == bot_mark else ("false", "true")
        return "true", "false"
    by_mark = {o: SIDE.search(o) for o in control.options}
    bot_options = [o for o, m in by_mark.items() if m and m.group(1) == bot_mark]
    other_options = [o for o, m in by_mark.items() if m and m.group(1) == other]
    if bot_options and other_options:
        return bot_options[0], other_options[0]
    bots = [o for o in control.options if BOT.search(o) and not is_person(o)]
    people = [o for o in control.options if is_person(o)]
    if bots and people:
        return bots[0], people[0]
    raise BuildFailed(
        f"cannot tell which option of '{control.name}' makes the bot move first "
        f"(its options: {', '.join(control.options)})"
    )


@dataclass(frozen=True)
class Choosable:
    """A control of the form that the team chooses (a box or check box the league does
    not set for each game): its ``name`` (as a choice names it), its ``label`` as the
    window shows it, its ``options`` (``true``/``false`` for a check box) and the option
    ``chosen`` by the recipe."""

    name: str
    label: str
    options: tuple[str, ...]
    chosen: str


MOVES_FIRST_LABEL = "Who moves first (the league sets it for each game)"
"""How the page names the :data:`MOVES_FIRST` choice."""


def choosable(form: Mapping[str, object], recipe: Recipe | None) -> list[Choosable]:
    """The controls of ``form`` that a team may choose, in the window's order, each with
    what ``recipe`` chose (the value the window showed where no recipe was made: a
    refused version's form): every combo box and check box but the rounds and the first
    mover, which the league sets for each game, each offering only what the league plays
    (no check box that makes both sides bots, no mode of two bots or two people); then,
    where the window has a check box or box that can say it, :data:`MOVES_FIRST`: which
    of them says who moves first (or :data:`NO_FIRST`), as the recipe read it, each named
    as its window labels it (:func:`_shown_names`)."""
    controls = controls_of(form)
    fields = [c for c in controls if c.kind != "button"]
    if recipe is None:
        rounds = next((c for c in fields if ROUNDS.search(c.words())), None)
        read_first = next(
            (c for c in _first_candidates(fields, rounds) if FIRST.search(c.words())), None
        )
        first = read_first.name if read_first is not None else None
        set_per_game: set[str | None] = {rounds.name if rounds else None, first}
        chosen: dict[str, str] = {}
    else:
        rounds = next((c for c in fields if c.name == recipe.rounds), None)
        first = recipe.first[0] if recipe.first else None
        set_per_game = {recipe.rounds, first}
        set_per_game |= set(recipe.sides[:2] if recipe.sides else ())
        chosen = dict(recipe.settings)
    out = []
    for control in controls:
        if control.name in set_per_game or control.kind not in ("combo", "check"):
            continue
        if control.kind == "check" and _plays_itself(control.words()):
            continue  # never checked: a game of two bots is none the league plays
        options = _played_options(control) if control.kind == "combo" else ("true", "false")
        if not options:
            continue
        value = chosen.get(control.name, control.value or options[0])
        value = value if value in options or control.kind == "check" else options[0]
        out.append(Choosable(control.name, control.label or control.name, options, value))
    offered = [
        c
        for c in _first_candidates(fields, rounds)
        if c.name == first or (_tells_first(c) and not _plays_itself(c.words()) and not _is_mode(c))
    ]
    if offered:
        shown = _shown_names(offered)
        told = shown.get(first, NO_FIRST) if first is not None else NO_FIRST
        out.append(Choosable(MOVES_FIRST, MOVES_FIRST_LABEL, (NO_FIRST, *shown.values()), told))
    return out


def _plays_itself(text: str) -> bool:
    """Whether ``text`` (a control's words or an option) names a game of two bots, which
    the league never plays: ``Bot vs Bot``, ``AI vs AI``, ``allBotMode``."""
    if ALL_BOTS.search(text):
        return True
    parts = VS.split(text)
    return len(parts) == 2 and all(BOT.search(p) and not is_person(p) for p in parts)


def _is_mode(control: Control) -> bool:
    """Whether ``control`` is a game mode's box: an option names two sides (``A vs B``)."""
    return any(VS.search(o) for o in control.options)


ALL_BOTS = re.compile(r"(?i)all.?bots?|bots?.?only|auto.?play")
"""Words of a control that makes every side a bot (``allBotMode``, ``Bots only``)."""


def _played_options(control: Control) -> tuple[str, ...]:
    """The options of a box that the league may play: a game mode's (an option naming
    two sides, ``Person vs Bot``) those with exactly one bot side; every other box's all."""
    return tuple(o for o in control.options if _mode_sides(o) is not None or not VS.search(o))


def _shown_names(controls: Sequence[Control]) -> dict[str, str]:
    """How the page names each of ``controls`` among options: by the label its window
    shows beside it, a team's choice naming a control by it as well as by its ``fx:id``
    (:meth:`Control.named`); by its ``fx:id`` where it has no label or shares one."""
    labels = [(c.label or "").strip() for c in controls]
    return {
        c.name: label if label and labels.count(label) == 1 else c.name
        for c, label in zip(controls, labels, strict=True)
    }
