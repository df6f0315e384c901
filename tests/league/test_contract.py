"""The league API against its own OpenAPI schema (schemathesis, against a running
server): generated requests, valid and invalid, never get a 5xx, an undocumented
status or a body that does not match the schema."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from schemathesis.specs.openapi.checks import positive_data_acceptance

from adjacency.league.event_models import EventSummary, EventTable
from adjacency.league.event_results.event_views import table as event_table
from adjacency.league.league_file import LeagueStore
from league_helpers import add_member, get, make_league, thread_server, wait_until
from web_helpers import check_conformance

EXAMPLES = 10
"""Generated requests per operation (bounded: the run takes a few seconds)."""

schemathesis.serializer.alias("application/zip", "application/octet-stream")
"""An upload's body (a team's zip) is bytes: generated as any binary body is."""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "house-random", "house", "random")
    add_member(db, "bot1")
    with thread_server(db, house_games=False) as url:
        yield url, schemathesis.openapi.from_url(f"{url}/openapi.json", timeout=60)


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
    assert "POST /api/league/submissions" in checked  # a binary body, generated too


EVENT_MODELS = {
    "/api/league/events": "EventSummary",
    "/api/league/events/{name}": "EventTable",
}


def test_the_event_api_is_described_by_its_models_and_answers_by_them(tmp_path: Path) -> None:
    """The OpenAPI schema names the event API's response models, and the answers for a
    finished round robin (standings, crosstable, rounds: every field filled) validate
    against the schema (schemathesis) and round-trip through the models unchanged."""
    db = tmp_path / "league.db"
    make_league(db, rows=4, cols=4, rounds=4)
    for name in ("r1", "r2", "r3"):
        add_member(db, name, "house", "random")
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, ["r1", "r2", "r3"])
    with thread_server(db, house_games=False) as url:
        with LeagueStore(db) as store:
            store.events.start("friday")
        wait_until(
            lambda: get(f"{url}/api/league/events/friday")["event"]["status"] == "finished",
            50,
            "the event to finish",
        )
        schema = schemathesis.openapi.from_url(f"{url}/openapi.json", timeout=60)
        spec = get(f"{url}/openapi.json")
        for path, model in EVENT_MODELS.items():
            answer = spec["paths"][path]["get"]["responses"]["200"]["content"]
            assert model in json.dumps(answer["application/json"]["schema"]), path
            assert model in spec["components"]["schemas"]
            operation = schema[path]["GET"]
            case = operation.Case(path_parameters={"name": "friday"} if "{" in path else {})
            case.call_and_validate(base_url=url, timeout=30)
        files = spec["paths"]["/api/league/events/{name}/{file}"]["get"]["responses"]["200"]
        assert {"text/csv", "application/json", "text/plain"} <= set(files["content"])

        listed = get(f"{url}/api/league/events")
        assert [EventSummary.model_validate(e).model_dump(mode="json") for e in listed] == listed
        table = get(f"{url}/api/league/events/friday")
        assert EventTable.model_validate(table).model_dump(mode="json") == table
        with LeagueStore(db) as store:  # the models change nothing, not even 2 into 2.0
            events = store.events
            direct = event_table(store, events.named("friday"))
        assert json.dumps({**table, "live": [], "changed": 0}, sort_keys=True) == json.dumps(
            {**direct, "live": [], "changed": 0}, sort_keys=True
        )
        assert len(table["standings"]) == 3 and len(table["rounds"]) == 3
        assert all(row["elo"] is not None for row in table["standings"])
