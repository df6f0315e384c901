"""The league API's bodies of a team's submitted code: its versions and their verdicts,
an upload's answer, the games a version played, and the choices of a program played
through its own window (they make the OpenAPI schema beside :mod:`.models`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from .models import GameSummary

SubmissionStatus = Literal["received", "building", "accepted", "refused"]


class SubmissionOut(BaseModel):
    """One version of a team's submitted code, as the team and the teacher see it."""

    version: int = Field(description="the team's own count: 1 for its first upload")
    sha256: str = Field(
        description="the kept zip's SHA-256, in hex: the upload repacked with its kept "
        "files only, the zip a download gives"
    )
    size: int = Field(description="the kept zip's size in bytes")
    filename: str
    status: SubmissionStatus = Field(
        description="received (waiting to be built), building, accepted (it plays) or refused"
    )
    detail: str = Field(description="why it was refused, or what the build said")
    created: float = Field(description="when it was uploaded (Unix time)")
    decided: float | None = Field(description="when it was accepted or refused")
    games: int = Field(0, description="finished games this version played (the server ran it)")
    points: float = Field(0.0, description="its points in them: 1 a win, 1/2 a draw")
    program: bool = Field(
        False, description="a program played through its own window, with a window to show"
    )
    window: bool = Field(
        False,
        description="a picture of its program's input window is kept (window.png): an "
        "accepted program's, or a refused one's that opened its window",
    )
    board: bool = Field(
        False,
        description="a picture of its program's board at the failed move of its check is "
        "kept (board.png)",
    )
    output: bool = Field(
        False,
        description="its program's last output at its check's failed move is kept "
        "(output.txt): a refused version's prints and traces, at most 64 KiB",
    )
    uploaded_sha256: str | None = Field(
        None, description="the SHA-256 of the zip as its team sent it (none: not noted)"
    )
    uploaded_size: int | None = Field(None, description="its size in bytes")


class VersionGame(GameSummary):
    """A game a team's version played, as its team sees it: its end told whole, and
    whether a picture of the program's board and its last output at its failure are
    kept."""

    board: bool = Field(
        False,
        description="a picture of the team's program's board at its failed move is kept "
        "(games/ID/board.png)",
    )
    output: bool = Field(
        False,
        description="the team's program's last output (its standard error's last 64 KiB) "
        "at its failed move is kept (games/ID/output.txt)",
    )


class Submitted(BaseModel):
    """An upload's answer: the version it is (``new`` false: the same kept files were
    already that version, nothing was stored)."""

    name: str
    new: bool
    same_bytes: bool = Field(
        True,
        description="with new false, whether the zip sent is the very bytes that version "
        "received; false: another zip keeping the same files (what else it held left out)",
    )
    submission: SubmissionOut


class FormControl(BaseModel):
    """A control of a program's input window that its team chooses."""

    name: str = Field(description="how a choice names it: its fx:id, else its label")
    label: str = Field(description="its label as the window shows it")
    options: list[str] = Field(description="its options (true and false for a check box)")
    chosen: str = Field(description="the option this version plays with")


class ProgramForm(BaseModel):
    """A version played through its own window: the choice it plays with and the controls
    of its input window the team may choose (the rounds and who moves first are the
    league's, set for each game)."""

    choice: str = Field(description="the choice in words: plays Bot Minimax as O")
    controls: list[FormControl]


ChoiceText = Annotated[str, StringConstraints(min_length=1, max_length=200)]
"""A control's name or an option, as a team's choice gives it."""


class ChoiceIn(BaseModel):
    """Another choice in a program's window: control name -> option; the rest as before."""

    choose: dict[ChoiceText, ChoiceText] = Field(max_length=64)


class Submissions(BaseModel):
    """A team's versions, newest first."""

    name: str
    submissions: list[SubmissionOut]
