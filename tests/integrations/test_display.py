"""Positions and games display themselves in Jupyter (through IPython's real formatter)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from IPython.core.interactiveshell import InteractiveShell

from adjacency import Game, Position
from adjacency.core.game import Termination
from adjacency.core.svg import position_svg


def mimebundle(obj: object) -> dict[str, object]:
    formatter = InteractiveShell.instance().display_formatter
    assert formatter is not None
    data, _ = formatter.format(obj)  # type: ignore[no-untyped-call]
    return dict(data)


def test_a_position_displays_as_its_svg_board() -> None:
    position = Position.start(5, 6, 7).play("c3")
    bundle = mimebundle(position)
    assert bundle["image/svg+xml"] == position_svg(position)
    ET.fromstring(str(bundle["image/svg+xml"]))  # well-formed XML
    assert bundle["text/plain"] == repr(position)


def test_a_game_displays_its_position_marks_players_result_and_moves() -> None:
    game = Game.new(4, 4, 2, x_name="Ada <3", o_name="Bob")
    for move in ("c2", "b3", "c1", "a3"):
        game.play(move)
    html = str(mimebundle(game)["text/html"])
    svg = html[html.index("<svg") : html.index("</svg>") + len("</svg>")]
    assert (
        svg.strip()
        == position_svg(game.position, last="a3", converted=game.positions[-2].flips("a3")).strip()
    )
    assert "last move" in svg and "converted" in svg  # a3 converts a2
    assert "Ada &lt;3" in html and "Ada <3" not in html
    assert "1. c2 b3 2. c1 a3" in html
    x, o = game.position.score
    assert f"{x} - {o}" in html and game.result_token in html and "normal" in html


def test_an_empty_and_a_forfeited_game_display_too() -> None:
    game = Game.new()
    assert "no moves yet" in str(mimebundle(game)["text/html"])
    game.play("c3")
    game.forfeit("o", Termination.TIME_FORFEIT, "took 6s")
    html = str(mimebundle(game)["text/html"])
    assert "1-0" in html and "time forfeit: took 6s" in html
