"""The recipe read from a dry run's form (:func:`~adjacency.hosting.fx_recipe.recipe_for`),
on forms as the driver writes them: defaults are what the window shows, a blank,
placeholder or person option is never a bot, a game mode never has the program play
itself, and a control is named as the window shows it whatever its case, spaces and
trailing colon. The forms' windows themselves are read by the driver in
``test_fx_programs.py`` and ``test_fx_league.py``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjacency.hosting.fx_recipe import ChoiceError, recipe_for
from adjacency.hosting.java_build import BuildFailed

Control = dict[str, object]


def control(kind: str, id: str, label: str, options: list[str], value: str | None) -> Control:
    return {"kind": kind, "id": id, "label": label, "options": options, "value": value}


def form(*boxes: Control, path: list[str] | None = None) -> dict[str, object]:
    """A one-window form: a name field, the rounds, ``boxes``, a first-mover check box
    and a start button."""
    return {
        "title": "Game",
        "path": ["Start"] if path is None else path,
        "controls": [
            control("text", "nameX", "Player X name:", [], ""),
            control("combo", "rounds", "Number of rounds:", ["2", "4", "28"], "28"),
            *boxes,
            control("check", "firstBox", "Bot moves first", [], "false"),
            control("button", "start", "Start", [], None),
        ],
    }


@pytest.mark.parametrize("blank", ["", " ", "--", "-- choose a bot --", "Select...", "Pilih"])
def test_a_blank_or_placeholder_shown_plays_the_first_real_bot_and_says_so(blank: str) -> None:
    box = control("combo", "botType", "Bot:", [blank, "Minimax", "Local", "Genetic"], blank)
    recipe = recipe_for(form(box))
    assert dict(recipe.settings)["botType"] == "Minimax"
    assert recipe.describe() == (
        "plays Minimax as O; your form also offers Local, Genetic: choose on your page"
    )


@pytest.mark.parametrize("shown", ["Minimax", "Local", "Genetic"])
def test_the_option_the_window_shows_is_the_default(shown: str) -> None:
    box = control("combo", "botType", "Bot", ["Minimax", "Local", "Genetic"], shown)
    assert recipe_for(form(box)).describe() == f"plays {shown} as O"


def test_an_unselected_box_plays_its_first_real_bot() -> None:
    box = control("combo", "botType", "Bot", ["Minimax", "Local"], None)
    assert recipe_for(form(box)).describe().startswith("plays Minimax as O; your form also")


@pytest.mark.parametrize(
    ("shown", "played", "mark"),
    [
        ("Bot vs Bot", "Human vs Bot", "O"),
        ("Human vs Human", "Human vs Bot", "O"),
        ("Bot vs Human", "Bot vs Human", "X"),
    ],
)
def test_a_mode_never_has_the_program_play_itself(shown: str, played: str, mark: str) -> None:
    modes = ["Bot vs Bot", "Human vs Human", "Human vs Bot", "Bot vs Human"]
    recipe = recipe_for(form(control("combo", "mode", "Mode", modes, shown)))
    assert dict(recipe.settings)["mode"] == played and recipe.bot_mark == mark


def test_a_first_window_s_mode_buttons_press_the_one_with_one_bot_side() -> None:
    seen = form(path=["Bot vs Bot", "Start"])
    menu = [
        control("button", "b", "Bot vs Bot", [], None),
        control("button", "h", "Human vs Bot", [], None),
    ]
    controls = seen["controls"]
    assert isinstance(controls, list)
    for c in controls:
        c["window"] = 1
    seen["controls"] = [*[dict(c, window=0) for c in menu], *controls]
    recipe = recipe_for(seen)
    assert recipe.press == ("Human vs Bot", "Start") and recipe.bot_mark == "O"
    assert recipe.changes(seen)  # pressed otherwise: the dry run looks again


@given(
    st.sampled_from(["", " ", "  "]),
    st.sampled_from(["", ":", " :", ": "]),
    st.sampled_from([str.lower, str.upper, str.title]),
)
def test_a_choice_names_a_control_whatever_its_case_spaces_and_colon(
    before: str, colon: str, case: object
) -> None:
    assert callable(case)
    box = control("combo", "botType", "Bot algorithm:", ["Minimax", "Local Search"], "Minimax")
    recipe = recipe_for(
        form(box), {f"{before}{case('bot algorithm')}{colon}": case("local search")}
    )
    assert dict(recipe.settings)["botType"] == "Local Search"


def test_a_choice_of_what_the_form_lacks_names_what_it_has() -> None:
    box = control("combo", "botType", "Bot:", ["Minimax"], "Minimax")
    with pytest.raises(
        ChoiceError, match=r"no control named 'Robot' \(it has: .*'Bot:' \(botType\)"
    ):
        recipe_for(form(box), {"Robot": "Minimax"})


def test_a_form_with_no_way_to_its_board_is_refused_with_what_the_window_said() -> None:
    box = control("combo", "botType", "Bot", ["Minimax"], "Minimax")
    stuck = dict(form(box, path=[]), stuck="no button of the window 'Game' opened the board")
    with pytest.raises(BuildFailed, match="no button of the window 'Game' opened the board"):
        recipe_for(stuck)
    assert recipe_for(stuck, strict=False).press == ()
