"""The report cards as the pages and the exports give them (:mod:`.report_card`): a
team's versions' cards side by side (:func:`team_cards`), every team's as CSV rows beside
the grading sheet (:func:`csv_rows`, :func:`as_csv`) and as a printable page in the
teacher's language (:func:`printable`).

A card is asked of the :class:`~.card_worker.CardKeeper`, which answers at once (with the
card made before from the same games, kept in the league file across restarts): a
version whose card is being made is listed ``computing`` (its row empty), one that has
played no rated or event game ``no-games``. Each position named carries its text
(``fen``); :func:`board_link` makes it a link to the web app's analysis board, which takes
a position in its address (``/?fen=``), where the league knows the board's address.
"""

from __future__ import annotations

import csv
import html
import io
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ...core.text import spreadsheet_text
from ...serving.details import message
from .card_worker import CardKeeper
from .report_card import MARKS, PHASES, SUMMARY, games_of_version, summary

if TYPE_CHECKING:  # pragma: no cover
    from ..league_file import LeagueStore
    from ..store.records import Member

STATES = ("ready", "computing", "no-games")
"""A version's card: made, being made, or nothing to make it from."""


def team_cards(store: LeagueStore, keeper: CardKeeper, member: Member) -> list[dict[str, Any]]:
    """Each accepted version of ``member``, oldest first: ``version``, ``state`` (one
    of :data:`STATES`), ``card`` (the whole card, ``None`` unless ready) and ``summary``
    (its row of :data:`~.report_card.SUMMARY`, ``None`` unless ready)."""
    found = []
    for submission in sorted(store.submissions.versions(member.id), key=lambda s: s.version):
        if submission.status != "accepted":
            continue
        games = games_of_version(store, member.id, submission.id)
        made = keeper.card(submission.id, submission.version, games, store) if games else None
        state = "no-games" if not games else "ready" if made is not None else "computing"
        found.append(
            {
                "version": submission.version,
                "state": state,
                "card": made,
                "summary": None if made is None else summary(made),
            }
        )
    return found


def csv_rows(store: LeagueStore, keeper: CardKeeper) -> list[dict[str, Any]]:
    """One row per team and accepted version, teams in the order they were added: the
    team, the card's state and its :data:`~.report_card.SUMMARY` (empty unless ready)."""
    rows = []
    for member in store.members.members():
        if member.kind != "bot" or member.removed:
            continue
        for entry in team_cards(store, keeper, member):
            row = dict.fromkeys(SUMMARY) | (entry["summary"] or {"version": entry["version"]})
            rows.append({"team": member.name, "state": entry["state"], **row})
    return rows


FIELDS = ("team", "state", *SUMMARY)
"""The CSV's columns."""


def as_csv(rows: list[dict[str, Any]]) -> str:
    """``rows`` as CSV under :data:`FIELDS`: an empty cell for ``None``, every cell made
    safe for a spreadsheet (:func:`~adjacency.core.text.spreadsheet_text`), as the
    grading sheet's."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(FIELDS)
    for row in rows:
        writer.writerow(
            [spreadsheet_text("" if row.get(k) is None else str(row[k])) for k in FIELDS]
        )
    return out.getvalue()


def board_link(board: str | None, fen: str | None) -> str | None:
    """The analysis board's address at position ``fen`` (``board``: the web app's
    address), ``None`` without either."""
    if not board or not fen:
        return None
    return f"{board.rstrip('/')}/?fen={quote(fen, safe='')}"


def _t(lang: str, key: str, **params: object) -> str:
    return html.escape(message(f"card.{key}", {k: str(v) for k, v in params.items()}, lang))


def _figure(value: object, board: str | None, fen: str | None, escaped: bool = False) -> str:
    """``value`` shown (HTML already where ``escaped``), linked to ``fen``'s position on
    the board where there is one."""
    text = "–" if value is None else str(value) if escaped else html.escape(str(value))
    link = board_link(board, fen)
    return text if link is None else f'<a href="{html.escape(link)}">{text}</a>'


def _move(point: dict[str, Any], board: str | None, lang: str) -> str:
    words = _t(
        lang,
        "move",
        game=point["game"],
        ply=point["ply"],
        move=point["move"],
        best=point["best"] or "–",
        loss=point["loss"],
    )
    return _figure(words, board, point["fen"], escaped=True)


COUNTS = dict(zip(("inaccuracies", "mistakes", "blunders"), MARKS, strict=True))
"""The summary's count columns and the marks they count."""


def column_position(made: dict[str, Any], name: str) -> str | None:
    """The position a card's summary figure ``name`` links to: the accuracy to the move
    that lost most, a phase's accuracy to its move that lost most, a count to its first
    such move, the lost games to the move that lost the first of them, the seconds to
    the slowest move; ``None`` for the others (and where there is no such move)."""
    if name == "accuracy":
        worst = [p["worst"] for p in made["phases"].values() if p["worst"] is not None]
        return str(max(worst, key=lambda w: w["loss"])["fen"]) if worst else None
    if name == "lost_games":
        first = next((lost["move"] for lost in made["losses"] if lost["move"]), None)
        return None if first is None else str(first["fen"])
    if name in PHASES:
        worst = made["phases"][name]["worst"]
        return None if worst is None else str(worst["fen"])
    if name in COUNTS:
        first = next((m for m in made["marks"] if m["mark"] == COUNTS[name]), None)
        return None if first is None else str(first["fen"])
    if name == "seconds" and made["time"]["slowest"]:
        return made["time"]["slowest"]["fen"]  # type: ignore[no-any-return]
    return None


def printable(teams: dict[str, list[dict[str, Any]]], lang: str, board: str | None) -> str:
    """The report cards of ``teams`` (name to :func:`team_cards`) as one HTML page to
    print, in ``lang`` (``en`` or ``id``): per team, its versions side by side, then each
    ready card's marked moves, lost games and time, each figure linked to its position
    on the analysis board (``board``: its address, ``None``: no links)."""
    parts = [
        "<!doctype html>",
        f'<html lang="{html.escape(lang)}"><head><meta charset="utf-8">',
        f"<title>{_t(lang, 'title')}</title>",
        "<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;"
        "margin:.5em 0}th,td{border:1px solid #999;padding:.2em .5em;text-align:right}"
        "th:first-child,td:first-child{text-align:left}section{break-inside:avoid-page}"
        "@media print{a{color:inherit;text-decoration:none}}</style></head><body>",
        f"<h1>{_t(lang, 'title')}</h1><p>{_t(lang, 'about')}</p>",
    ]
    for team, cards in teams.items():
        parts.append(f"<section><h2>{html.escape(team)}</h2>")
        if not cards:
            parts.append(f"<p>{_t(lang, 'none')}</p></section>")
            continue
        heads = "".join(f"<th>{_t(lang, 'col.' + name)}</th>" for name in SUMMARY)
        parts.append(f"<table><thead><tr>{heads}</tr></thead><tbody>")
        for entry in cards:
            made = entry["card"]
            if made is None:
                state = _t(lang, f"state.{entry['state']}")
                parts.append(
                    f'<tr><td>{entry["version"]}</td><td colspan="{len(SUMMARY) - 1}">'
                    f"{state}</td></tr>"
                )
                continue
            row = entry["summary"]
            cells = [
                f"<td>{_figure(row[name], board, column_position(made, name))}</td>"
                for name in SUMMARY
            ]
            parts.append(f"<tr>{''.join(cells)}</tr>")
        parts.append("</tbody></table>")
        for entry in cards:
            if entry["card"] is not None:
                parts.append(_details(entry["card"], lang, board))
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _details(made: dict[str, Any], lang: str, board: str | None) -> str:
    """One ready card's marked moves, lost games and time."""
    out = [f"<h3>{_t(lang, 'version', version=made['version'])}</h3><ul>"]
    for point in made["marks"]:
        out.append(f"<li>{_t(lang, 'mark.' + point['mark'])}: {_move(point, board, lang)}</li>")
    out.append("</ul><ul>")
    for lost in made["losses"]:
        how = (
            _move(lost["move"], board, lang)
            if lost["move"] is not None
            else _t(lang, "lost-by", termination=lost["termination"] or "–")
        )
        head = _t(lang, "lost", game=lost["game"], opponent=lost["opponent"])
        out.append(f"<li>{head}: {how}</li>")
    out.append("</ul>")
    time = made["time"]
    share = "–" if time["share"] is None else f"{time['share'] * 100:.0f}%"
    out.append(
        "<p>"
        + _t(
            lang,
            "time",
            moves=time["moves"],
            seconds=time["charged"],
            allowed="–" if time["allowed"] is None else time["allowed"],
            share=share,
        )
        + "</p>"
    )
    return "".join(out)
