"""The form's rules on recorded windows (:mod:`fx_forms`): each course-shaped form
(:data:`~fx_course_projects.SHAPES`, :data:`~fx_course_projects.FORMS`) as the real
driver's dry runs read it, taken through the product's own ``look`` and the league's
build of a program (:func:`~adjacency.hosting.fx_kind.build_fx_submission`, its build and
dry runs answered from the recording), in milliseconds and with no JVM. One rule a test:
the verdict's words, the bot and its side, who moves first, the buttons and the looks
taken. The driver's reading of the windows themselves is checked against the recordings
wherever a real dry run runs (``test_fx_programs.py``, ``test_fx_league.py``), and one
shape is re-recorded whole there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest

from adjacency.hosting.fx_kind import DRY_RUN, NO_CHOICE_PLAYS, RECIPE, kept_form
from adjacency.hosting.fx_recipe import MOVES_FIRST, NO_FIRST, ChoiceError, recipe_for
from adjacency.hosting.java_build import BuildFailed
from fx_course_projects import FORMS, SHAPES
from fx_forms import RECORDED, look_key, read, recorded, submitted

VERDICTS = {
    # a test's id -> the shape, the team's --choose texts, its verdict's words
    "per-side": (
        SHAPES[0],
        (),
        "plays Bot Minimax as O; your form also offers Bot Random: choose on your page",
    ),
    "bot-type": (
        SHAPES[1],
        (),
        "plays Minimax as O; your form also offers Local Search: choose on your page",
    ),
    "bot-type-chosen": (SHAPES[1], ("Bot=Local Search",), "plays Local Search as O"),
    "mode": (SHAPES[2], (), "plays Person vs Bot as O"),
    "fixed": (SHAPES[3], (), "plays its bot as O"),
    "blank-first": (
        FORMS[0],
        (),
        "plays Minimax as O; your form also offers Local Search: choose on your page",
    ),
    # the window opens on another bot: the league plays the course's adversarial search
    "selects-last": (
        FORMS[1],
        (),
        "plays Minimax as O; your window opens on Genetic and offers Local Search, Minimax, "
        "Genetic: the league plays Minimax, the course's adversarial search; choose another "
        "on your page",
    ),
    "stacked": (
        FORMS[2],
        (),
        "plays Minimax as O; your form also offers Local Search: choose on your page",
    ),
    # named as the window shows it but for case, spaces and its trailing colon
    "stacked-chosen": (FORMS[2], (" bot algorithm =local search",), "plays Local Search as O"),
    "first-window": (FORMS[3], (), "plays Minimax as O"),
    # X moves first, always: the bot goes on the side that must move
    "per-player": (
        FORMS[4],
        (),
        "plays Minimax as X when it moves first, as O when it moves second; your form "
        "also offers Local Search: choose on your page",
    ),
    "unread-first-named": (FORMS[6], (f"{MOVES_FIRST}=AI starts",), "plays Minimax as O"),
    "radios": (
        FORMS[7],
        (),
        "plays Minimax as O; your window opens on Local Search and offers Local Search, "
        "Minimax, Genetic: the league plays Minimax, the course's adversarial search; choose "
        "another on your page",
    ),
    # the team chooses the bot its window opens on
    "radios-chosen": (FORMS[7], ("Bot algorithm=Local Search",), "plays Local Search as O"),
}


@pytest.mark.parametrize("case", VERDICTS)
def test_a_form_is_read_as_a_person_reads_it(case: str, tmp_path: Path) -> None:
    """The league's build of each recorded form says what its program plays as a person
    reads the window: the bot the window shows (or the first real one, adversarial
    searches first, where it shows a blank, a placeholder or a person, saying what else
    it offers; the adversarial search where it shows another bot, saying which it
    passed over and why), or the team's choice named as the window shows it, on the side the form
    gives the bot (O where nothing says). It keeps that choice and the driver's options
    beside the build."""
    shape, choose, verdict = VERDICTS[case]
    build = submitted(shape, tmp_path, *choose)
    assert build.label == f"program Main, {verdict}", build.label
    kept = json.loads((tmp_path / "build" / RECIPE).read_text(encoding="utf-8"))
    assert kept["args"] == build.args and kept["choice"] == verdict


def test_every_shape_is_first_looked_at_as_it_shows() -> None:
    """Each shape's first dry run sees the windows as they show (no options); a look
    after it fills them as the recipe would. (A look the recordings lack fails the
    replay itself, naming it.)"""
    for shape in RECORDED:
        if shape in (FORMS[5], FORMS[6]):
            continue  # refused: their own tests
        looks = read(shape).looks
        assert looks[0] == look_key([]), shape.name
        assert set(looks) <= set(recorded(shape)), shape.name


def test_the_first_box_per_side_takes_the_person_and_the_next_its_first_bot() -> None:
    """A type box per side, both showing a person: the first takes the person, the
    second the first bot option, and the check box naming the bot's mark moves it first
    when checked; the rounds box's fewest rounds are the check's."""
    recipe = read(SHAPES[0]).recipe
    settings = dict(recipe.settings)
    assert (settings["typeX"], settings["typeO"]) == ("Person", "Bot Minimax")
    assert recipe.bot_mark == "O" and recipe.first == ("firstBox", "true", "false")
    assert recipe.fewest_rounds == 2 and recipe.rounds == "numberOfRounds"
    assert recipe.press == ("Play",) and recipe.offers == ("Bot Random",)


@pytest.mark.parametrize(
    ("shape", "first"),
    [
        (SHAPES[1], ("firstMover", "Bot", "Person")),  # its options name the bot and a person
        (SHAPES[2], ("firstMover", "Player O", "Player X")),  # its options name the marks
    ],
    ids=["bot-or-person", "marks"],
)
def test_a_box_that_says_who_moves_first_is_set_for_each_game(
    shape: Any, first: tuple[str, str, str]
) -> None:
    """A combo box whose name says first is the league's, set each game: its option
    naming the bot's mark (or the bot) when the bot moves first, the other's when the
    person does; never a setting of the recipe."""
    recipe = read(shape).recipe
    assert recipe.first == first
    assert "firstMover" not in dict(recipe.settings)


def test_a_form_that_plays_nothing_blank_is_looked_at_again_filled() -> None:
    """Rounds and bot boxes showing a blank: the first look finds no way to the board
    (the program refuses a blank form), so the next sets the fewest rounds offered and
    the first real bot, as a person would, and presses ``Mainkan``; the games set their
    own rounds."""
    seen = read(FORMS[0])
    first = recorded(FORMS[0])[look_key([])]
    assert first["path"] == [] and first["stuck"], first
    assert seen.recipe.look_rounds == "2" and seen.recipe.press == ("Mainkan",)
    args = json.loads(seen.looks[1])
    assert args[args.index(seen.recipe.rounds) + 1] == "2", args
    assert seen.recipe.rounds not in dict(seen.recipe.settings)


def test_the_window_a_mode_shows_is_read_only_as_it_shows() -> None:
    """Stacked panes shown by a mode box: the first look reads the pane the window
    shows (``Human vs Human``); the recipe sets the first mode with one bot side and the
    next look reads the pane that mode shows, its bot box and its own first mover, never
    a hidden pane's controls."""
    seen = read(FORMS[2])
    assert json.loads(seen.looks[1])[:8] == [
        *("--set", "nameX", "Player 1", "--set", "nameO", "Player 2"),
        *("--set", "gameMode"),
    ]
    listed = cast(list[dict[str, Any]], seen.form["controls"])
    names = {c["id"]: c["label"] for c in listed}
    assert names["botAlgorithm"] == "Bot algorithm:" and names["botFirst"] == "Bot goes first"
    assert "whoFirst" not in names and "botX" not in names, names
    settings = dict(seen.recipe.settings)
    assert (settings["gameMode"], settings["botAlgorithm"]) == ("Human vs Bot", "Minimax")
    assert seen.recipe.first == ("botFirst", "true", "false")


def test_a_first_window_s_mode_button_with_one_bot_side_is_pressed() -> None:
    """A first window of mode buttons (``Human vs Bot``, ``Bot vs Bot``): the one with
    one bot side is pressed, then the form's start button."""
    recipe = read(FORMS[3]).recipe
    assert recipe.press == ("Human vs Bot", "Mainkan") and recipe.bot_mark == "O"


def test_where_no_control_says_who_moves_first_x_does_and_the_bot_changes_box() -> None:
    """A box per player and no control for who moves first: X always moves first, so
    each game puts the bot on X's box when it must move first and on O's when second,
    the person on the other (:attr:`~adjacency.hosting.fx_recipe.Recipe.sides`)."""
    recipe = read(FORMS[4]).recipe
    assert recipe.first is None
    assert recipe.sides == ("typeX", "typeO", "Minimax", "Human")
    assert "typeX" not in dict(recipe.settings) and "typeO" not in dict(recipe.settings)


def test_a_program_whose_bot_cannot_move_first_is_refused_at_its_dry_run(
    tmp_path: Path,
) -> None:
    """A bot box and no control for who moves first, the person always X: the league's
    build is refused with that sentence and what its window has."""
    with pytest.raises(BuildFailed) as refused:
        submitted(FORMS[5], tmp_path)
    said = str(refused.value)
    assert said.startswith(
        "your program cannot let its bot move first or second as a game needs: its "
        "window has no control that says who moves first"
    ), said
    assert said.endswith(
        "(its boxes and check boxes: 'Number of rounds:' (numberOfRounds), 'Bot' (botType))"
    ), said


def test_a_refused_form_offers_its_team_who_moves_first(tmp_path: Path) -> None:
    """A check box that lets the bot move first in words the reading does not know
    (``AI starts``): refused, its form kept, offering who moves first among its check
    boxes (labels, never a control the league does not play: ``Bot vs Bot?``); a choice
    of what cannot say who moves first is refused in the form's words."""
    with pytest.raises(BuildFailed, match="has no control that says who moves first"):
        submitted(FORMS[6], tmp_path)
    kept = kept_form(tmp_path / "build")
    assert kept is not None and kept.choice == NO_CHOICE_PLAYS
    offered = {c.name: (c.options, c.chosen) for c in kept.controls}
    assert offered[MOVES_FIRST] == ((NO_FIRST, "AI starts"), NO_FIRST)
    assert offered["aiStarts"] == (("true", "false"), "false")
    assert "allBotMode" not in offered
    with pytest.raises(ChoiceError, match="names a check box or box of the form"):
        recipe_for(kept.form, {MOVES_FIRST: "Start"})
    assert (tmp_path / "build" / DRY_RUN / "form.json").is_file()


def test_a_group_of_radio_buttons_is_read_as_one_box() -> None:
    """Radio buttons of one toggle group are one box as the driver reads them: named by
    its grid row's label or its pane's, its options its buttons' texts, its value the one
    selected, no button a control of its own; the group that says who moves first is set
    for each game."""
    seen = read(FORMS[7])
    listed = cast(list[dict[str, Any]], seen.form["controls"])
    boxes = [
        (c["id"], c["label"], c["options"], c["value"]) for c in listed if c["kind"] == "combo"
    ]
    assert boxes[1:] == [
        (None, "Bot algorithm:", ["Local Search", "Minimax", "Genetic"], "Local Search"),
        (None, "Who moves first:", ["Bot", "Person"], "Person"),
    ], listed
    assert not {"minimax", "local", "genetic", "botFirst", "personFirst"} & {
        c["id"] for c in listed
    }
    assert dict(seen.recipe.settings)["Bot algorithm:"] == "Minimax"
    assert seen.recipe.first == ("Who moves first:", "Bot", "Person")
