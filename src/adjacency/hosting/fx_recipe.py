"""What a team picks in its program's input window to play a person against its bot: the
:class:`Recipe`, read from the dry run's form (:func:`recipe_for`).

A form is the driver's list of controls, each with its kind (``text``, ``combo``,
``check``, ``button``), its ``fx:id``, its label and its options. The team's choices
(``LABEL=OPTION``, a label or an ``fx:id``) come first; every control they leave is given
a default, shown to the team:

- the rounds (a combo box or field whose name says rounds) are the league's, per game;
- who moves first (a check box or combo box whose name says first) is set per game, so
  that the program's bot moves first exactly when the league's side of the program does;
- a box with a person option (a type per side) takes the person on the first such box and
  the first bot option on the second; a game-mode box (``Person vs Bot``) takes the first
  option with a person and a bot; any other box (a bot type) its first option;
- empty name fields get ``Player 1``, ``Player 2``.

The bot's side is then read from the choice (the side a per-side box or the mode gives
the bot; O where nothing says): the driver reads the bot's moves in the pieces of that
mark, and checks on the board that it is so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .java_build import BuildFailed

PERSON = re.compile(r"(?i)\b(person|human|manusia|orang|pemain|player|you|kamu)\b")
BOT = re.compile(
    r"(?i)(bot|\bai\b|computer|komputer|minimax|alpha|local|search|genetic|random|greedy|hill)"
)
FIRST = re.compile(r"(?i)(first|pertama|duluan|dulu)")
ROUNDS = re.compile(r"(?i)(round|ronde|giliran|turns?\b)")
SIDE = re.compile(r"\b([XO])\b")
PLAY = re.compile(r"(?i)^\s*(play|start|mulai|main|new game)\b")


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

    @property
    def name(self) -> str:
        """How the team and the driver name it: its ``fx:id``, else its label."""
        return self.id or self.label or "?"

    def named(self, key: str) -> bool:
        """Whether ``key`` is its ``fx:id`` or its label (any case)."""
        key = key.strip().lower()
        return key in {(self.id or "").lower(), (self.label or "").lower()}

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
                )
            )
    return out


@dataclass(frozen=True)
class Recipe:
    """How the driver fills the form: ``settings`` (control -> value), the ``rounds``
    control, the ``first`` control with its values for the bot and for the person moving
    first, the mark of the bot's pieces, what the bot is called (``bot``), and the fewest
    rounds the program offers (``None`` for a field: any number), the check's games'."""

    settings: tuple[tuple[str, str], ...]
    rounds: str
    first: tuple[str, str, str] | None
    bot_mark: str
    bot: str
    fewest_rounds: int | None = None

    def driver_args(self) -> list[str]:
        """The driver's options for this recipe."""
        args: list[str] = []
        for key, value in self.settings:
            args += ["--set", key, value]
        args += ["--rounds", self.rounds]
        if self.first is not None:
            args += ["--first", *self.first]
        return [*args, "--bot-mark", self.bot_mark]

    def describe(self) -> str:
        """The choice in a team's words: ``plays Bot Minimax as O``."""
        return f"plays {self.bot} as {self.bot_mark}"

    def as_dict(self) -> dict[str, object]:
        """The recipe as JSON data, as the driver reads it from its argument."""
        return {
            "settings": dict(self.settings),
            "rounds": self.rounds,
            "first": list(self.first) if self.first else None,
            "bot_mark": self.bot_mark,
            "bot": self.bot,
            "fewest_rounds": self.fewest_rounds,
        }


def _option(control: Control, value: str) -> str:
    for option in control.options:
        if option.strip().lower() == value.strip().lower():
            return option
    listed = ", ".join(control.options)
    raise ChoiceError(f"'{value}' is not an option of '{control.name}' (its options: {listed})")


def parse_choices(texts: Sequence[str]) -> dict[str, str]:
    """``LABEL=OPTION`` texts as a mapping; :class:`ChoiceError` for one without ``=``."""
    out = {}
    for text in texts:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            raise ChoiceError(f"a choice is LABEL=OPTION, not {text!r}")
        out[key.strip()] = value.strip()
    return out


def _is_person(option: str) -> bool:
    return bool(PERSON.search(option)) and not BOT.search(option)


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


def recipe_for(form: Mapping[str, object], choices: Mapping[str, str] | None = None) -> Recipe:
    """The recipe for ``form``: the team's ``choices`` (control -> value), then the
    defaults (module docstring). :class:`ChoiceError` for a choice that names no control
    or no option; :class:`~adjacency.hosting.java_build.BuildFailed` for a form with no rounds or no
    Play button."""
    controls = controls_of(form)
    fields = [c for c in controls if c.kind != "button"]
    if not any(c.kind == "button" and c.label and PLAY.search(c.label) for c in controls):
        labels = ", ".join(c.name for c in controls if c.kind == "button") or "none"
        raise BuildFailed(f"the input window has no Play button (its buttons: {labels})")
    rounds = next(
        (
            c
            for c in fields
            if c.kind in ("combo", "text")
            and ROUNDS.search(c.words())
            and not FIRST.search(c.words())
        ),
        None,
    )
    if rounds is None:
        raise BuildFailed("the input window has no control for the number of rounds")
    first = next(
        (c for c in fields if c.kind in ("check", "combo") and FIRST.search(c.words())), None
    )
    chosen: dict[str, str] = {}
    for key, value in (choices or {}).items():
        control = next((c for c in controls if c.named(key)), None)
        if control is None or control.kind == "button":
            names = ", ".join(c.name for c in fields)
            raise ChoiceError(f"the form has no control named '{key}' (it has: {names})")
        if control is rounds or control is first:
            raise ChoiceError(f"'{control.name}' is set by the league for each game")
        if control.kind == "combo":
            value = _option(control, value)
        elif control.kind == "check" and value.lower() not in ("true", "false"):
            raise ChoiceError(f"'{control.name}' is a check box: true or false, not '{value}'")
        chosen[control.name] = value
    boxes = [c for c in fields if c.kind == "combo" and c is not rounds and c is not first]
    per_side = [c for c in boxes if any(_is_person(o) for o in c.options)]
    modes = [c for c in boxes if any(" vs" in o.lower() for o in c.options)]
    per_side = [c for c in per_side if c not in modes]
    settings = dict(chosen)
    player_names = iter(["Player 1", "Player 2", "Player 3", "Player 4"])
    for control in fields:
        if control.name in settings or control is rounds or control is first:
            continue
        if control.kind == "text" and not control.value:
            settings[control.name] = next(player_names, "Player")
        elif control in modes:
            both = [o for o in control.options if _mode_sides(o) is not None]
            if both:
                settings[control.name] = both[0]
        elif control in per_side:
            bots = [o for o in control.options if not _is_person(o)]
            person_taken = any(_is_person(settings.get(c.name, "")) for c in per_side)
            if not person_taken:
                settings[control.name] = next(o for o in control.options if _is_person(o))
            elif bots:
                settings[control.name] = bots[0]
        elif control.kind == "combo" and control.options:
            settings[control.name] = control.options[0]
    bot_mark, bot = "O", "its bot"
    for control in modes:
        sides = _mode_sides(settings.get(control.name, ""))
        if sides is not None:
            bot_mark, bot = sides, settings[control.name]
    bot_boxes = [c for c in per_side if not _is_person(settings.get(c.name, ""))]
    if bot_boxes:
        bot = settings[bot_boxes[0].name]
        side = _side(bot_boxes[0])
        if side is None:
            side = "X" if per_side.index(bot_boxes[0]) == 0 and len(per_side) > 1 else "O"
        bot_mark = side
    elif not modes:
        others = [c for c in boxes if c not in per_side and c.name in settings]
        if others:
            bot = settings[others[0].name]
    first_values = None
    if first is not None:
        bot_first, person_first = _first_values(first, bot_mark)
        first_values = (first.name, bot_first, person_first)
    ordered = tuple((c.name, settings[c.name]) for c in fields if c.name in settings)
    offered = [int(o) for o in (re.sub(r"[^0-9]", "", o) for o in rounds.options) if o]
    fewest = min((n for n in offered if n > 0), default=None)
    return Recipe(ordered, rounds.name, first_values, bot_mark, bot, fewest)


def _mode_sides(option: str) -> str | None:
    """The bot's mark in a game mode (``Person vs Bot``: O), or ``None`` unless the mode
    has exactly one person and one bot."""
    parts = re.split(r"(?i)\s+vs\.?\s+", option)
    if len(parts) != 2:
        return None
    left, right = (not _is_person(p) and bool(BOT.search(p)) for p in parts)
    if left == right:
        return None
    return "X" if left else "O"


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
    bots = [o for o in control.options if BOT.search(o) and not _is_person(o)]
    people = [o for o in control.options if _is_person(o)]
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


def choosable(form: Mapping[str, object], recipe: Recipe) -> list[Choosable]:
    """The controls of ``form`` that a team may choose, in the window's order, each with
    what ``recipe`` chose: every combo box and check box but the rounds and the first
    mover, which the league sets for each game."""
    set_per_game = {recipe.rounds, recipe.first[0] if recipe.first else None}
    chosen = dict(recipe.settings)
    out = []
    for control in controls_of(form):
        if control.name in set_per_game or control.kind not in ("combo", "check"):
            continue
        options = control.options if control.kind == "combo" else ("true", "false")
        if not options:
            continue
        value = chosen.get(control.name, control.value or options[0])
        out.append(Choosable(control.name, control.label or control.name, options, value))
    return out
