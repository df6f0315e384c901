"""The league API against its own OpenAPI schema (schemathesis, against a running
server): generated requests, valid and invalid, never get a 5xx, an undocumented
status or a body that does not match the schema."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from schemathesis.specs.openapi.checks import positive_data_acceptance

from league_helpers import add_member, make_league, thread_server
from web_helpers import check_conformance

EXAMPLES = 10
"""Generated requests per operation (bounded: the run takes a few seconds)."""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "house-random", "house", "random")
    add_member(db, "bot1")
    with thread_server(db, house_games=False) as url:
        yield url, schemathesis.openapi.from_url(f"{url}/openapi.json")


@pytest.mark.slow
def test_every_league_operation_conforms_to_its_schema(served: tuple[str, Any]) -> None:
    url, schema = served
    checked = []
    for result in schema.get_all_operations():
        operation = result.ok()
        # A schema cannot say which names exist or which moves are legal: such
        # schema-valid requests are answered 4xx (documented) with the reason.
        check_conformance(url, operation, EXAMPLES, [positive_data_acceptance])
        checked.append(f"{operation.method.upper()} {operation.path}")
    assert "GET /api/league/standings" in checked and "POST /api/league/people" in checked
