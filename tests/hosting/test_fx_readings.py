"""A window read more than one way, and the bot's own move that decides
(:func:`~adjacency.hosting.fx_recipe.readings`, :meth:`~adjacency.hosting.fx_recipe.Recipe.fits`,
:func:`~adjacency.hosting.fx_kind.look`).

The rules are tested on forms as the driver writes them (its controls, the way to the
board, and ``bot_seen``: the mark the bot's own move placed in the dry run and whether it
moved first), the dry runs answered from those forms; then one real journey a shape, a
course-shaped project written here (:mod:`fx_course_projects`) built by ``javac``, read
by real dry runs under Xvfb in the sandbox and checked by the league's own check, a game
with each colour through its window:

- a mode window that opens a form gives a choice, not marks: the marks are the form's
  (``Bot Algorithm (O):``), else the bot's own move's;
- ``A vs B`` read as who moves first where the form fixes the bot's mark, as the marks
  otherwise; the dry runs confirm the order by the bot's move with each side first;
- no verdict names a side that no move of the bot confirmed, and a window whose bot's
  move fits no reading is refused naming each reading tried.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest

from adjacency.hosting import fx_kind
from adjacency.hosting.fx_build import FxBuild, build_fx
from adjacency.hosting.fx_check import check_driven_program
from adjacency.hosting.fx_recipe import (
    MARKS_HEAD,
    MOVES_FIRST,
    NO_FIRST,
    ORDER_HEAD,
    UNSEEN,
    Recipe,
    readings,
    recipe_for,
)
from adjacency.hosting.fx_run import DryRun, fx_bot
from adjacency.hosting.java_build import BuildFailed
from adjacency.sandbox import check
from fx_course_projects import MENU_FORM, ORDER_FORM, Shape, write
from sandbox_helpers import reachable_folder

Control = dict[str, object]


def control(
    kind: str, id: str | None, label: str, options: list[str], value: str | None, window: int = 0
) -> Control:
    return {
        "kind": kind,
        "id": id,
        "label": label,
        "options": options,
        "value": value,
        "window": window,
    }


def seen(mark: str | None, first: bool = False) -> dict[str, object]:
    """A form's ``bot_seen``: the mark the bot's own move placed, or none seen."""
    return {"bot_seen": None if mark is None else {"mark": mark, "first": first}}


def menu_form(label: str, **extra: object) -> dict[str, object]:
    """A first window of mode buttons (``Bot vs Human``, ``Human vs Human``) whose
    ``Bot vs Human`` opens a form with the bot's box named ``label`` and a check box for
    who moves first."""
    return {
        "path": ["Bot vs Human", "Play"],
        "controls": [
            control("button", None, "Bot vs Human", [], None, 0),
            control("button", None, "Human vs Human", [], None, 0),
            control("text", "nameX", "Player name:", [], "", 1),
            control("combo", "rounds", "Number of rounds:", ["2", "4", "28"], "28", 1),
            control("combo", "algorithm", label, ["Minimax", "Local Search"], "Minimax", 1),
            control("check", "firstBox", "Bot moves first", [], "false", 1),
            control("button", None, "Play", [], None, 1),
        ],
        **extra,
    }


def order_form(*more: Control, **extra: object) -> dict[str, object]:
    """A form whose ``Playing Method:`` names the same players in both orders and no
    other control says who moves first."""
    return {
        "path": ["Play"],
        "controls": [
            control("combo", "rounds", "Number of rounds:", ["2", "4", "28"], "28"),
            control(
                "combo",
                "method",
                "Playing Method:",
                ["Human vs MinMax", "MinMax vs Human"],
                "Human vs MinMax",
            ),
            *more,
            control("button", None, "Play", [], None),
        ],
        **extra,
    }


def test_a_mode_window_that_opens_a_form_gives_a_choice_not_marks() -> None:
    """``Bot vs Human`` opens a form whose bot's box says ``(O)``: the bot plays O (the
    mode's words would put it on X), and the dry run's own move of the bot confirms it."""
    recipe = recipe_for(menu_form("Bot Algorithm (O):", **seen("O")))
    assert (recipe.bot_mark, recipe.bot, recipe.seen) == ("O", "Minimax", True)
    assert recipe.press == ("Bot vs Human", "Play")
    assert recipe.first == ("firstBox", "true", "false")
    assert recipe.describe() == "plays Minimax as O"


@pytest.mark.parametrize("mark", ["X", "O"])
def test_where_no_label_names_the_mark_the_bots_own_move_does(mark: str) -> None:
    """A mode window opening a form whose labels name no mark: the mark is the one the
    bot's own move placed in the dry run, whatever the mode's words put first."""
    recipe = recipe_for(menu_form("Bot Algorithm:", **seen(mark, first=True)))
    assert (recipe.bot_mark, recipe.seen) == (mark, True)


def test_a_mode_in_the_same_form_still_gives_the_marks() -> None:
    """A mode box beside the bot's box in one form is read as before: ``Bot vs Human``
    puts the bot on X."""
    mode = control("combo", "mode", "Mode:", ["Human vs Bot", "Bot vs Human"], "Bot vs Human")
    first = control("check", "firstBox", "Bot moves first", [], "false")
    rounds = control("combo", "rounds", "Rounds:", ["2"], "2")
    form = {"path": ["Play"], "controls": [rounds, mode, first], **seen("X")}
    assert recipe_for(form).bot_mark == "X"


def test_a_vs_b_with_no_first_mover_is_read_as_an_order() -> None:
    """``Human vs MinMax`` and ``MinMax vs Human`` with no control for who moves first:
    read as the marks, the window cannot let its bot move first or second, so the one
    reading is the order, its mark the bot's own move's; its proofs set each order."""
    form = order_form(**seen("O"))
    (only,) = readings(form)
    assert only.reading.startswith(ORDER_HEAD)
    assert only.first == ("method", "MinMax vs Human", "Human vs MinMax")
    assert only.bot_mark == "O" and only.bot == "MinMax"
    assert "method" not in dict(only.settings)  # set for each game
    assert [p[-2:] for p in only.proofs()] == [
        ["method", "MinMax vs Human"],
        ["method", "Human vs MinMax"],
    ]


def test_a_team_that_says_nothing_says_who_moves_first_keeps_the_marks() -> None:
    """The team's own word that no control says who moves first is kept: the mode is
    then read as the marks only, and that window cannot let its bot move first."""
    with pytest.raises(BuildFailed, match="cannot let its bot move first or second"):
        readings(order_form(**seen("O")), {MOVES_FIRST: NO_FIRST})


def test_a_vs_b_is_an_order_first_where_a_label_fixes_the_mark() -> None:
    """With a box per player (a bot and a person each) the marks reading can be played,
    so both readings are made: the marks first, but the order first where a label names
    the bot's mark (``Bot (O):``)."""
    sides = [
        control("combo", "typeX", "Player X:", ["Human", "Minimax"], "Human"),
        control("combo", "typeO", "Player O:", ["Human", "Minimax"], "Human"),
    ]
    unlabelled = readings(order_form(*sides))
    assert [r.reading.split(" (")[0] for r in unlabelled] == [MARKS_HEAD, ORDER_HEAD]
    name = control("text", "botName", "Bot name (O):", [], "")
    labelled = readings(order_form(*sides, name))
    assert [r.reading.split(" (")[0] for r in labelled] == [ORDER_HEAD, MARKS_HEAD]
    assert labelled[0].bot_mark == "O"


@pytest.mark.parametrize(
    ("look", "mark", "first", "fits"),
    [
        ("MinMax vs Human", "O", True, True),
        ("Human vs MinMax", "O", False, True),
        ("MinMax vs Human", "X", True, False),  # the marks, not the order
        ("MinMax vs Human", "O", False, False),  # set to move first, it did not
    ],
)
def test_an_order_fits_only_the_move_it_predicts(
    look: str, mark: str, first: bool, fits: bool
) -> None:
    (order,) = readings(order_form(**seen("O")))
    form = order_form(**seen(mark, first), look=["--set", "method", look])
    assert order.fits(form) is fits


def test_no_verdict_names_a_side_no_move_of_the_bot_confirmed() -> None:
    """A dry run that saw no move of the bot: the verdict names the bot and no side."""
    recipe = recipe_for(menu_form("Bot Algorithm (O):", **seen(None)))
    assert recipe.seen is False
    assert recipe.describe() == f"plays Minimax; {UNSEEN}"
    assert " as O" not in recipe.describe() and " as X" not in recipe.describe()


class Windows:
    """Dry runs answered from forms: each look's options map to what its bot did (the
    form ``base`` with that ``bot_seen``), every look counted."""

    def __init__(self, base: dict[str, object], moves: dict[str | None, Any]) -> None:
        self.base, self.moves = base, moves
        self.looks: list[list[str]] = []

    def dry_run(self, build: FxBuild, out: Path, look: list[str] | None = None) -> DryRun:
        args = list(look or [])
        self.looks.append(args)
        method = args[args.index("method") + 1] if "method" in args else None
        form = {**self.base, "bot_seen": self.moves[method], "look": args}
        return DryRun(form, b"")


def answered(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, windows: Windows
) -> tuple[Recipe, DryRun]:
    monkeypatch.setattr(fx_kind, "dry_run", windows.dry_run)
    monkeypatch.setattr(DryRun, "keep", lambda self, out: None)
    return fx_kind.look(cast(FxBuild, None), tmp_path, {})


def test_the_dry_runs_try_a_reading_and_keep_the_one_the_bots_move_confirms(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The order reading is kept once a dry run with each order saw the bot move first,
    then second, as O; three dry runs in all, within the stated budget."""
    windows = Windows(
        order_form(),
        {
            None: {"mark": "O", "first": False},
            "MinMax vs Human": {"mark": "O", "first": True},
            "Human vs MinMax": {"mark": "O", "first": False},
        },
    )
    recipe, kept = answered(monkeypatch, tmp_path, windows)
    assert recipe.reading.startswith(ORDER_HEAD) and recipe.seen is True
    assert recipe.describe() == "plays MinMax as O"
    assert windows.looks[-1] == kept.form["look"]
    assert windows.looks[-1][-2:] == ["method", "Human vs MinMax"]
    assert len(windows.looks) == 3 <= fx_kind.MAX_LOOKS


def test_a_window_whose_bot_fits_no_reading_is_refused_naming_each(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A window whose bot plays X when it moves first and O when second (the mode's
    marks, and X always first) with nothing else that says who moves first: the order
    reading's dry runs see its mark change, the marks reading leaves no first mover, and
    the refusal names each: what the bot did under the one tried, why the other cannot
    play."""
    windows = Windows(
        order_form(),
        {
            None: {"mark": "O", "first": False},
            "MinMax vs Human": {"mark": "X", "first": True},
            "Human vs MinMax": {"mark": "O", "first": False},
        },
    )
    with pytest.raises(BuildFailed) as refused:
        answered(monkeypatch, tmp_path, windows)
    assert str(refused.value) == (
        "your bot's own move never showed on the side that a reading of your window gives "
        f"it; the readings tried: {ORDER_HEAD} ('MinMax vs Human': the bot moves first, "
        "as O): its bot's own move placed X, moving first; "
        f"{MARKS_HEAD} ('Human vs MinMax': the bot plays O) leaves no control that says "
        "who moves first"
    )


def test_a_bot_never_seen_keeps_the_first_reading_and_names_no_side(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No dry run saw a move of the bot (a bot that moves at a button no one pressed,
    say): nothing contradicts the reading, so it is kept, its verdict naming no side."""
    windows = Windows(order_form(), dict.fromkeys([None, "MinMax vs Human", "Human vs MinMax"]))
    recipe, _ = answered(monkeypatch, tmp_path, windows)
    assert recipe.seen is False and recipe.describe() == f"plays MinMax; {UNSEEN}"


def test_a_bot_seen_once_then_too_slow_for_a_proof_is_not_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The first look saw the bot's move, the order's proofs saw none in time (a loaded
    machine, a slow bot): a dry run without a move neither confirms nor contradicts a
    reading, so the version is kept, its verdict naming no side, never refused for the
    machine's load."""
    windows = Windows(
        order_form(),
        {None: {"mark": "O", "first": False}, "MinMax vs Human": None, "Human vs MinMax": None},
    )
    recipe, _ = answered(monkeypatch, tmp_path, windows)
    assert recipe.seen is False and recipe.describe() == f"plays MinMax; {UNSEEN}"


# ---------------------------------------------------------------- one journey a shape


@pytest.mark.jvm
@pytest.mark.parametrize(
    ("shape", "described"),
    [(MENU_FORM, "plays Minimax as O"), (ORDER_FORM, "plays MinMax as O")],
    ids=["mode-menu", "mode-order"],
)
def test_the_shape_is_read_and_played_with_each_colour(
    fx_tools: None, shape: Shape, described: str
) -> None:
    """The project built, its windows read by real dry runs, its bot's side confirmed by
    its own move, then the league's check: a game with each colour through its window,
    both ended on the board."""
    check()
    with reachable_folder("adjacency-fx-readings-") as folder:
        build = build_fx(write(shape, folder / "project"), folder / "build")
        recipe, _ = fx_kind.look(build, folder / "dry", {})
        assert recipe.seen is True and recipe.describe() == described, recipe
        verdict = check_driven_program(lambda: fx_bot(build, recipe), 20.0, rounds=2)
    assert verdict.accepted, verdict.detail
