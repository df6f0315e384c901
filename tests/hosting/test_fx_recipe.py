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

from adjacency.hosting.fx_recipe import (
    LONG_PERSON_WORDS,
    MOVES_FIRST,
    MOVES_FIRST_LABEL,
    NO_FIRST,
    ChoiceError,
    as_refused,
    choosable,
    is_person,
    one_slip,
    recipe_for,
)
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


@pytest.mark.parametrize(
    "label", ["Player 1 Algorithm (optional):", "Bot X (only for Bot vs Bot)", "Bot X (opsional)"]
)
def test_an_optional_box_keeps_what_the_window_shows(label: str) -> None:
    """Beside the bot's box, a box its label calls optional (or relevant only where
    another choice makes it so) is left as the window shows it, as a person leaves it:
    the league never makes that side a bot too."""
    algorithms = ["", "Minimax", "Local Search"]
    optional = control("combo", "algorithmX", label, algorithms, "")
    bot = control("combo", "algorithmO", "Player 2 Algorithm:", algorithms, "")
    recipe = recipe_for(form(optional, bot))
    assert "algorithmX" not in dict(recipe.settings)
    assert dict(recipe.settings)["algorithmO"] == "Minimax"
    assert recipe.describe().startswith("plays Minimax as O")


def test_a_refused_version_is_never_invited_to_choose_on_its_page() -> None:
    """What else the form offers, and the invitation to choose, belong to an accepted
    version's verdict; a refused one's label says what it played, and its refusal what
    to do."""
    box = control("combo", "botType", "Bot:", ["", "Minimax", "Local", "Genetic"], "")
    label = f"program Main, {recipe_for(form(box)).describe()}"
    assert as_refused(label) == "program Main, plays Minimax as O"
    plain_label = f"program Main, {recipe_for(form(box), {'Bot': 'Local'}).describe()}"
    assert as_refused(plain_label) == plain_label == "program Main, plays Local as O"


@pytest.mark.parametrize("shown", ["Local", "Genetic"])
def test_where_no_bot_is_an_adversarial_search_the_window_s_is_played(shown: str) -> None:
    box = control("combo", "botType", "Bot", ["Local", "Genetic"], shown)
    assert recipe_for(form(box)).describe() == f"plays {shown} as O"


ADVERSARIAL_NAMES = ["Minimax", "MinMax", "Min-Max", "minimax bot", "Alpha-Beta", "Adversarial"]
OTHER_BOTS = ["Local", "Local Search", "Genetic", "Hill Climbing", "Random Move"]


@given(
    st.sampled_from(ADVERSARIAL_NAMES),
    st.lists(st.sampled_from(OTHER_BOTS), min_size=1, max_size=3, unique=True),
    st.data(),
)
def test_a_box_of_bots_plays_its_adversarial_search_whatever_it_opens_on(
    adversarial: str, others: list[str], data: st.DataObject
) -> None:
    """A box (or radio group) offering bots by name, one an adversarial search, plays
    that search wherever it stands and whichever bot the window opens on, saying so where
    it passed over another; the team's choice of any option is what plays."""
    options = data.draw(st.permutations([adversarial, *others]))
    shown = data.draw(st.sampled_from(options))
    box = control("combo", "botType", "Bot algorithm:", options, shown)
    recipe = recipe_for(form(box))
    assert dict(recipe.settings)["botType"] == adversarial
    told = recipe.describe()
    if shown == adversarial:
        assert told == f"plays {adversarial} as O"
    else:
        assert told == (
            f"plays {adversarial} as O; your window opens on {shown} and offers "
            f"{', '.join(options)}: the league plays {adversarial}, the course's "
            "adversarial search; choose another on your page"
        )
        assert as_refused(told) == f"plays {adversarial} as O"
    chosen = data.draw(st.sampled_from(options))
    assert recipe_for(form(box), {"bot algorithm": chosen}).describe() == f"plays {chosen} as O"


def test_a_person_side_box_plays_the_adversarial_search_over_the_bot_it_shows() -> None:
    """A box per side: the first takes the person, the second the adversarial search it
    offers, though it opens on another bot."""
    types = ["Human", "Local Search", "Minimax", "Genetic"]
    recipe = recipe_for(
        form(
            control("combo", "typeX", "Player X:", types, "Human"),
            control("combo", "typeO", "Player O:", types, "Genetic"),
        )
    )
    assert (dict(recipe.settings)["typeX"], dict(recipe.settings)["typeO"]) == ("Human", "Minimax")
    assert recipe.opened_on == "Genetic" and recipe.window_bots == tuple(types[1:])


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


def first_by(first: Control | None, *boxes: Control) -> dict[str, object]:
    """The form of ``boxes`` whose first-mover check box is ``first`` instead (``None``:
    it has none)."""
    seen = form(*boxes)
    controls = seen["controls"]
    assert isinstance(controls, list)
    seen["controls"] = [
        c if c["id"] != "firstBox" else first
        for c in controls
        if c["id"] != "firstBox" or first is not None
    ]
    return seen


def unread_first(*boxes: Control) -> dict[str, object]:
    """A form whose first-mover check box says so in words the reading does not know
    (``AI starts``), beside ``boxes``."""
    return first_by(control("check", "aiStarts", "AI starts", [], "false"), *boxes)


def test_a_team_names_the_control_that_says_who_moves_first() -> None:
    box = control("combo", "botType", "Bot", ["Minimax", "Local"], "Minimax")
    with pytest.raises(BuildFailed, match="has no control that says who moves first"):
        recipe_for(unread_first(box))
    recipe = recipe_for(unread_first(box), {"Who moves first:": "ai starts"})
    assert recipe.first == ("aiStarts", "true", "false")
    assert "--first" in recipe.driver_args() and "aiStarts" not in dict(recipe.settings)
    chooser = [c for c in choosable(unread_first(box), recipe) if c.name == MOVES_FIRST]
    assert [(c.options, c.chosen) for c in chooser] == [((NO_FIRST, "AI starts"), "AI starts")]


def test_a_team_says_no_control_says_who_moves_first() -> None:
    """A check box taken for the first mover that is not: with ``none``, the league puts
    the bot on the side that must move (a box per player), and the box is the team's."""
    people = ["Human", "Minimax"]
    x_box = control("combo", "playerX", "Player X", people, "Human")
    o_box = control("combo", "playerO", "Player O", people, "Minimax")
    read = recipe_for(form(x_box, o_box))
    assert read.first is not None and read.sides is None
    recipe = recipe_for(form(x_box, o_box), {MOVES_FIRST: NO_FIRST})
    assert recipe.first is None
    assert recipe.sides == ("playerX", "playerO", "Minimax", "Human")
    assert "firstBox" in [c.name for c in choosable(form(x_box, o_box), recipe)]


@pytest.mark.parametrize("named", ["Number of rounds", "Start", "Level"])
def test_who_moves_first_names_a_check_box_or_box_and_nothing_else(named: str) -> None:
    box = control("combo", "botType", "Bot", ["Minimax"], "Minimax")
    with pytest.raises(
        ChoiceError, match=r"names a check box or box of the form.*'Bot' \(botType\)"
    ):
        recipe_for(form(box), {MOVES_FIRST: named})


def test_the_control_read_as_who_moves_first_is_not_chosen_as_a_value() -> None:
    box = control("combo", "botType", "Bot", ["Minimax"], "Minimax")
    with pytest.raises(ChoiceError, match=f"set by the league for each game.*'{MOVES_FIRST}='"):
        recipe_for(form(box), {"Bot moves first": "true"})


def test_a_refused_form_offers_its_shown_values_and_who_moves_first() -> None:
    """A form no recipe fills (no control says who moves first) still offers its boxes,
    as the window showed them, and the choice of who moves first."""
    box = control("combo", "botType", "Bot", ["", "Minimax"], "")
    offered = {c.name: (c.options, c.chosen) for c in choosable(unread_first(box), None)}
    assert offered == {
        "botType": (("", "Minimax"), ""),
        "aiStarts": (("true", "false"), "false"),
        MOVES_FIRST: ((NO_FIRST, "AI starts"), NO_FIRST),
    }


def test_the_page_offers_labels_and_only_what_the_league_plays() -> None:
    """Who moves first lists the controls that can say it, each as its window labels it
    (a choice of that label names it: :meth:`Control.named`), never a control's id, a
    box of bots only or a check box that makes both sides bots; a mode box offers only
    the modes with one bot side, and a check box of two bots is not offered at all."""
    mode = control("combo", "gameMode", "Mode:", ["Human vs Bot", "Bot vs Bot", "Human vs Human"],
                   "Human vs Bot")  # fmt: skip
    bots = control("combo", "botType", "Bot:", ["Minimax", "Local"], "Minimax")
    both = control("check", "allBotMode", "Bot vs Bot?", [], "false")
    seen = unread_first(mode, bots, both)
    recipe = recipe_for(seen, {MOVES_FIRST: "AI starts"})
    offered = {c.name: (c.label, c.options, c.chosen) for c in choosable(seen, recipe)}
    assert offered == {
        "gameMode": ("Mode:", ("Human vs Bot",), "Human vs Bot"),
        "botType": ("Bot:", ("Minimax", "Local"), "Minimax"),
        MOVES_FIRST: (MOVES_FIRST_LABEL, (NO_FIRST, "AI starts"), "AI starts"),
    }
    again = recipe_for(seen, {MOVES_FIRST: offered[MOVES_FIRST][2]})  # as the page sends it
    assert again.first == recipe.first


def test_two_controls_of_one_label_are_offered_by_their_ids() -> None:
    first = control("check", "xFirst", "First", [], "false")
    other = control("check", "oFirst", "First", [], "false")
    offered = {c.name: c.options for c in choosable(first_by(None, first, other), None)}
    assert offered[MOVES_FIRST] == (NO_FIRST, "xFirst", "oFirst")


@pytest.mark.parametrize(
    ("options", "shown", "looked"),
    [
        (["", "2", "4", "28"], "", "2"),
        (["Choose", "2 rounds", "4 rounds"], "Choose", "2 rounds"),
        (["2", "4", "28"], None, "2"),
        (["2", "4", "28"], "28", None),
    ],
)
def test_a_dry_run_fills_rounds_the_window_shows_blank(
    options: list[str], shown: str | None, looked: str | None
) -> None:
    """A window whose rounds box shows no number refuses its start button (as a person's
    Play would be refused): the dry run sets the fewest it offers, each game its own."""
    seen = form()
    controls = seen["controls"]
    assert isinstance(controls, list)
    controls[1] = control("combo", "rounds", "Number of rounds:", options, shown)
    recipe = recipe_for(seen)
    assert recipe.look_rounds == looked
    assert ("rounds" in recipe.look_args()) == (looked is not None)
    assert "rounds" not in dict(recipe.settings)


@pytest.mark.parametrize(
    ("options", "played"),
    [
        (["", "Hill Climbing", "Minimax", "Genetic"], "Minimax"),
        (["", "Local Search", "Alpha-Beta Pruning", "Genetic"], "Alpha-Beta Pruning"),
        (["", "Simulated Annealing Bot", "Min-Max Bot"], "Min-Max Bot"),
        (["", "Local Search", "Genetic"], "Local Search"),
    ],
)
def test_where_the_window_shows_no_bot_an_adversarial_search_plays(
    options: list[str], played: str
) -> None:
    recipe = recipe_for(form(control("combo", "botType", "Bot", options, "")))
    others = [o for o in options if o and o != played]
    assert recipe.describe() == (
        f"plays {played} as O; your form also offers {', '.join(others)}: choose on your page"
    )


def test_a_box_named_first_that_cannot_say_who_moves_first_gives_way() -> None:
    """A "First bot type" box (bots only) is no first-mover control where a check box
    that says so follows it; alone, it is refused naming its options."""
    first_bot = control("combo", "bot1Type", "First Bot Type:", ["Minimax", "Genetic"], "Minimax")
    recipe = recipe_for(form(first_bot))
    assert recipe.first == ("firstBox", "true", "false")
    assert dict(recipe.settings)["bot1Type"] == "Minimax"
    with pytest.raises(BuildFailed, match="cannot tell which option of 'bot1Type'"):
        recipe_for(first_by(None, first_bot))


def slips(a: str, b: str) -> int:
    """The optimal-string-alignment distance of ``a`` and ``b`` by its dynamic programme:
    an oracle written apart from :func:`~adjacency.hosting.fx_recipe.one_slip`."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


@given(
    st.sampled_from(LONG_PERSON_WORDS) | st.text("abhmnu", max_size=7),
    st.text("abhmnuxy", max_size=8),
)
def test_one_slip_is_a_distance_of_exactly_one(target: str, word: str) -> None:
    assert one_slip(word, target) == (slips(word, target) == 1)


@given(st.sampled_from(LONG_PERSON_WORDS), st.data())
def test_a_person_word_with_one_slip_is_a_person(word: str, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, len(word) - 1))
    slipped = data.draw(
        st.sampled_from(
            [
                word[:k] + word[k + 1 :],  # a letter left out
                word[:k] + "q" + word[k:],  # one added
                word[:k] + "q" + word[k + 1 :],  # one changed
                word[:k] + word[k + 1 : k + 2] + word[k] + word[k + 2 :],  # two swapped
            ]
        )
    )
    assert is_person(slipped.capitalize()) or slipped == word


def test_a_person_option_misspelt_is_still_the_person_of_a_box_per_player() -> None:
    """A box per player whose person option is misspelt (``hman``): the person goes on
    one box and the bot on the other, as a person reading the window would; no box is
    left with the program playing itself."""
    people = ["hman", "bot minimax", "bot genetic"]
    x_box = control("combo", "player1Type", "Player 1", people, "bot minimax")
    o_box = control("combo", "player2Type", "Player 2", people, "bot minimax")
    recipe = recipe_for(form(x_box, o_box))
    assert sorted(dict(recipe.settings)[b] for b in ("player1Type", "player2Type")) == [
        "bot minimax",
        "hman",
    ]
    assert recipe.bot == "bot minimax"


MODES = ["Human vs Bot", "Bot vs Human"]
"""A game mode box's options: the bot plays O in the first, X in the second."""


@pytest.mark.parametrize(
    ("label", "mode", "values"),
    [
        ("X moves first", "Human vs Bot", ("false", "true")),
        ("X moves first", "Bot vs Human", ("true", "false")),
        ("O moves first", "Human vs Bot", ("true", "false")),
        ("O moves first", "Bot vs Human", ("false", "true")),
    ],
)
def test_a_check_box_naming_a_mark_moves_the_bot_first_where_that_is_its_mark(
    label: str, mode: str, values: tuple[str, str]
) -> None:
    """``X moves first`` ticked moves the bot first only where the bot plays X: the
    recipe's values make the bot, then the person, move first."""
    modes = control("combo", "mode", "Mode", MODES, mode)
    recipe = recipe_for(first_by(control("check", "markFirst", label, [], "false"), modes))
    assert recipe.bot_mark == ("O" if mode == "Human vs Bot" else "X")
    assert recipe.first == ("markFirst", *values)
    args = recipe.driver_args()
    at = args.index("--first")
    assert args[at : at + 4] == ["--first", "markFirst", *values]


@pytest.mark.parametrize(
    ("options", "mode", "values"),
    [
        (["X", "O"], "Human vs Bot", ("O", "X")),
        (["X", "O"], "Bot vs Human", ("X", "O")),
        (["Player X", "Player O"], "Human vs Bot", ("Player O", "Player X")),
        (["Human", "Computer"], "Human vs Bot", ("Computer", "Human")),
        (["Computer", "Human"], "Bot vs Human", ("Computer", "Human")),
    ],
)
def test_a_box_saying_who_goes_first_by_mark_or_by_player_moves_the_bot_by_its_option(
    options: list[str], mode: str, values: tuple[str, str]
) -> None:
    modes = control("combo", "mode", "Mode", MODES, mode)
    box = control("combo", "firstMover", "Who goes first", options, options[0])
    recipe = recipe_for(first_by(box, modes))
    assert recipe.first == ("firstMover", *values)
    assert "firstMover" not in dict(recipe.settings)  # set for each game, not once


def test_a_box_saying_first_in_options_that_name_no_side_is_refused_naming_them() -> None:
    box = control("combo", "firstColour", "First colour", ["Red", "Blue"], "Red")
    with pytest.raises(BuildFailed, match=r"cannot tell which option of 'firstColour'.*Red, Blue"):
        recipe_for(first_by(box))


@pytest.mark.parametrize(
    ("x_label", "o_label"),
    [("Player X", "Player O"), ("Player 1", "Player 2"), ("Player one", "Player two")],
)
@pytest.mark.parametrize("o_listed_first", [False, True])
def test_where_no_control_says_who_moves_first_x_does_and_the_bot_takes_the_side_to_move(
    x_label: str, o_label: str, o_listed_first: bool
) -> None:
    """With a box per player and nothing saying who moves first, X moves first: X's box
    (by its mark or its number, wherever the window lists it) gets the bot when it must
    move first, O's when it must move second, each game."""
    people = ["Human", "Minimax"]
    x_box = control("combo", "sideA", x_label, people, "Human")
    o_box = control("combo", "sideB", o_label, people, "Minimax")
    boxes = (o_box, x_box) if o_listed_first else (x_box, o_box)
    recipe = recipe_for(first_by(None, *boxes))
    assert recipe.first is None
    assert recipe.sides == ("sideA", "sideB", "Minimax", "Human")
    assert recipe.describe() == "plays Minimax as X when it moves first, as O when it moves second"
    assert {"sideA", "sideB"}.isdisjoint(dict(recipe.settings))  # each game sets them


def test_a_form_with_no_first_mover_and_no_box_per_player_is_refused() -> None:
    box = control("combo", "botType", "Bot", ["Minimax", "Local"], "Minimax")
    with pytest.raises(BuildFailed, match=r"cannot let its bot move first or second.*'Bot'"):
        recipe_for(first_by(None, box))
