"""The response schemas both apps share: the error body."""

from __future__ import annotations

from pydantic import BaseModel, Field


class FieldError(BaseModel):
    """One problem of a malformed request (422), for pages to translate."""

    field: str = Field(description="the dotted path of the field (x.name); empty: the whole body")
    code: str = Field(
        description="missing, unknown_field, too_small, too_big, not_above, not_below, "
        "too_long, too_short, too_many_items, too_few_items, bad_format, not_allowed, "
        "not_integer, not_number, not_boolean, not_text, not_object, not_list, bad_json, "
        "too_deep or invalid"
    )
    params: dict[str, str | int] = Field(
        default_factory=dict,
        description="limit: the bound a code names (the accepted values of not_allowed)",
    )


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
    errors: list[FieldError] = Field(
        default_factory=list,
        description="a malformed request's (422) problems, one per field; empty otherwise",
    )


class DetailMeaning(BaseModel):
    """How a game (or a challenge) ended, as the code and params stored with it; the
    English ``detail`` is rendered from them
    (:func:`adjacency.serving.details.detail_fields`)."""

    detail_code: str | None = Field(
        default=None,
        description="the stored code of how it ended (e.g. resigned, clock-connected), "
        "which pages render as their catalogue's detail.<code>; null when the detail is "
        "empty or an engine's own words",
    )
    detail_params: dict[str, str] = Field(
        default_factory=dict, description="values the code's translated message fills in"
    )
