"""The API against its own OpenAPI schema (schemathesis, against a running server).

Schemathesis generates requests from the schema (valid and invalid ones, a
bounded number per operation) and checks every answer: no 5xx, the status is
documented, and the body conforms to the documented schema.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from schemathesis.specs.openapi.checks import positive_data_acceptance

from web_helpers import check_conformance, live_server

EXAMPLES = 12
"""Generated requests per operation (bounded: the whole run takes a few seconds)."""
RULES_NOT_IN_THE_SCHEMA = [positive_data_acceptance]
"""Checks left out: a schema cannot say which moves are legal in a position or how many
rounds fit a board of the chosen size, so such schema-valid requests are answered 400
(documented) with the rule that refused them."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    db = tmp_path_factory.mktemp("contract") / "games.sqlite3"
    with live_server(db, grace=0.5) as url:
        yield url, schemathesis.openapi.from_url(f"{url}/openapi.json", timeout=60)


def operations(schema: Any) -> list[Any]:
    found = [result.ok() for result in schema.get_all_operations()]
    streams = ("/events", "/live", "/review")  # event streams that run on (checked elsewhere)
    # lab searches given seconds to spend (up to 12 s a request; test_lab_api.py checks them)
    timed = ("/api/lab/deepening", "/api/lab/engine")
    return [op for op in found if not op.path.endswith(streams) and op.path not in timed]


@pytest.mark.slow
def test_every_operation_conforms_to_its_schema(served: tuple[str, Any]) -> None:
    url, schema = served
    checked = []
    for operation in operations(schema):
        check_conformance(url, operation, EXAMPLES, RULES_NOT_IN_THE_SCHEMA)
        checked.append(f"{operation.method.upper()} {operation.path}")
    assert "POST /api/games" in checked and "POST /api/games/import" in checked


def test_the_schema_documents_what_the_api_does(served: tuple[str, Any]) -> None:
    raw = served[1].raw_schema
    responses = raw["paths"]["/api/games/{game_id}/record"]["get"]["responses"]
    assert "application/json" in responses["404"]["content"]
    record = raw["components"]["schemas"]["ImportRequest"]["properties"]["record"]
    assert record["minLength"] == 1
