"""The response schemas both apps share: the error body."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ErrorMessage(BaseModel):
    """The body of an error response: what was wrong."""

    detail: str = Field(description="what was wrong with the request")
