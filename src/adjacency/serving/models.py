"""The response schemas both apps share: the error body."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ErrorMessage(BaseModel):
    """The body of an error response: what was wrong."""

    detail: str = Field(description="what was wrong with the request (English)")
    code: str = Field(
        default="bad_request",
        description="a stable name of the error (e.g. not_your_turn, not_found) that pages "
        "translate; the detail says the same in English",
    )
    params: dict[str, str | int] = Field(
        default_factory=dict, description="values the code's translated message fills in"
    )


class DetailMeaning(BaseModel):
    """What a game's (or a challenge's) English ``detail`` says, for pages in other
    languages (:func:`adjacency.core.details.detail_fields`)."""

    detail_code: str | None = Field(
        default=None,
        description="a stable name of the detail's sentence (e.g. resigned, clock-connected) "
        "that pages translate as detail.<code>; null when the detail is empty or an "
        "engine's own words",
    )
    detail_params: dict[str, str] = Field(
        default_factory=dict, description="values the code's translated message fills in"
    )
