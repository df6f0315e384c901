"""Every line the server reads from a driven program is parsed as untrusted: the
program's own code shares the JVM with the driver and may write on its standard output
what it likes (docs/javafx-driver.md). Whatever it writes, the picture parts
(:class:`~adjacency.hosting.fx_run.Pictures`) and the dry run's form
(:func:`~adjacency.hosting.fx_recipe.recipe_for`) either take it within their bounds or
refuse it in words: nothing raises anything else, nothing kept is larger than its
bound."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.hosting.fx_recipe import ChoiceError, recipe_for
from adjacency.hosting.fx_run import BOARD_PNG, MAX_PICTURE, PNG, Pictures
from adjacency.hosting.java_build import BuildFailed

JSON: Any = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=60, deadline=None)
@given(
    lines=st.lists(
        st.one_of(
            st.text(max_size=200),
            st.builds(lambda rest: f"{BOARD_PNG} {rest}", st.text(max_size=200)),
            st.builds(
                lambda k, n, body: f"{BOARD_PNG} {k}/{n} {body}",
                st.integers(-3, 5),
                st.integers(-3, 5),
                st.text(alphabet="AQgw=+/x", max_size=60),
            ),
        ),
        max_size=20,
    )
)
def test_any_info_line_is_taken_or_left_within_the_pictures_bounds(lines: list[str]) -> None:
    pictures = Pictures()
    for line in lines:
        assert isinstance(pictures.heard(line), bool)
    assert pictures.last is None or (
        pictures.last.startswith(PNG) and len(pictures.last) <= MAX_PICTURE
    )


@settings(max_examples=60, deadline=None)
@given(
    form=st.one_of(
        JSON,
        st.fixed_dictionaries(
            {
                "title": JSON,
                "controls": st.lists(
                    st.dictionaries(
                        st.sampled_from(["name", "kind", "label", "options", "value", "text"]),
                        JSON,
                        max_size=6,
                    ),
                    max_size=6,
                ),
            }
        ),
    ),
    choices=st.dictionaries(st.text(max_size=8), st.text(max_size=8), max_size=3),
)
def test_any_form_a_program_sends_is_read_or_refused_in_words(form: Any, choices: Any) -> None:
    try:
        recipe_for(form if isinstance(form, dict) else {"controls": form}, choices)
    except (BuildFailed, ChoiceError) as refused:
        assert str(refused)
