"""The server's log writes a traceback once a minute per kind: a client making the server
fail the same way in a loop costs one traceback and a count, not megabytes of log."""

from __future__ import annotations

import io
import itertools
import logging

from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.serving.logs import KEPT_LINES, WINDOW, OncePerMinute, RecentLines


def failing_record(
    when: float, message: str = "connection %s failed", kind: type = OSError
) -> logging.LogRecord:
    try:
        raise kind("broken pipe")
    except Exception as exc:  # the record a logger.exception() call makes
        record = logging.LogRecord(
            "adjacency.league.routers.socket", logging.ERROR, __file__, 1, message, ("7",),
            (type(exc), exc, exc.__traceback__),
        )  # fmt: skip
    record.created = when
    return record


def written(records: list[logging.LogRecord]) -> str:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(OncePerMinute())
    for record in records:
        handler.handle(record)
    return out.getvalue()


def test_a_loop_of_one_failure_writes_one_traceback_a_minute_and_counts_the_rest() -> None:
    loop = [failing_record(1000.0 + i * 0.01) for i in range(500)]
    later = failing_record(1000.0 + WINDOW + 1)
    log = written([*loop, later])
    assert log.count("Traceback (most recent call last)") == 2
    assert log.count("connection 7 failed") == 2
    assert "(and 499 more like it since the last one shown)" in log


def test_other_kinds_and_plain_lines_are_never_held_back() -> None:
    plain = logging.LogRecord(
        "adjacency.league", logging.INFO, __file__, 1, "game %d ended", (3,), None
    )
    plain.created = 1000.0
    records = [
        failing_record(1000.0),
        failing_record(1000.1, kind=ValueError),
        failing_record(1000.2, message="write to %s failed"),
        plain,
        plain,
    ]
    log = written(records)
    assert log.count("Traceback") == 3 and log.count("game 3 ended") == 2


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=600, allow_nan=False), min_size=1, max_size=200))
def test_at_most_one_traceback_of_a_kind_in_any_window(times: list[float]) -> None:
    """Whatever the arrival times (in order), two written tracebacks of one kind are at
    least a window apart, and the first of all is always written."""
    times = sorted(times)
    kept = OncePerMinute()
    shown = [t for t in times if kept.filter(failing_record(t))]
    assert shown[0] == times[0]
    assert all(b - a >= WINDOW for a, b in itertools.pairwise(shown))


def test_recent_lines_keep_the_last_500_in_order_and_filter_them() -> None:
    logger = logging.getLogger("adjacency.test-recent")
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    recent = RecentLines()
    logger.addHandler(recent)
    try:
        for n in range(1, KEPT_LINES + 101):
            logger.info("line %d of team-%s", n, "red" if n % 2 else "blue")
        try:
            raise ValueError("the disk is full")
        except ValueError:
            logger.exception("could not store game %d", 7)
    finally:
        logger.removeHandler(recent)
    lines = recent.lines()
    assert len(lines) == KEPT_LINES  # the oldest forgotten first
    assert [line.number for line in lines] == list(range(102, KEPT_LINES + 102))
    assert lines[0].message == "line 102 of team-blue" and lines[0].level == "INFO"
    assert lines[-1].message == "could not store game 7 (ValueError: the disk is full)"
    assert lines[-1].level == "ERROR" and lines[-1].logger == "adjacency.test-recent"
    assert [line.message for line in recent.lines("error")] == [lines[-1].message]
    odd = [n for n in range(102, KEPT_LINES + 101) if n % 2]  # the lines of team-red kept
    assert [line.number for line in recent.lines(text="TEAM-RED")] == odd
    assert recent.lines(text="test-recent") == lines  # the logger's name matches too
    assert recent.lines("warning", "line") == []
