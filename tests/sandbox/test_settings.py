"""The sandbox's limits are checked when made, and each way of ending has its words."""

from __future__ import annotations

import pytest

from adjacency import sandbox
from adjacency.sandbox.limits import describe


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("cpu_seconds", 0),
        ("wall_seconds", -1.0),
        ("wall_seconds", 100_000),
        ("memory_bytes", 0),
        ("processes", 1.5),
        ("open_files", 3),
        ("output_bytes", -5),
    ],
)
def test_a_limit_out_of_range_is_refused_by_name(field: str, value: object) -> None:
    with pytest.raises(sandbox.SandboxError, match=field):
        sandbox.Limits(**{field: value})  # type: ignore[arg-type]


def test_each_reason_is_said_with_its_limit() -> None:
    limits = sandbox.Limits(cpu_seconds=2.5, wall_seconds=30, memory_bytes=64 << 20)
    said = {reason: describe(reason, -9, limits) for reason in sandbox.Reason}
    assert said == {
        sandbox.Reason.EXITED: "was killed by SIGKILL",
        sandbox.Reason.CPU: "used up its CPU time (2.5 s)",
        sandbox.Reason.WALL: "ran past its wall-time cap (30 s)",
        sandbox.Reason.MEMORY: "used more than its memory (64 MiB)",
        sandbox.Reason.OUTPUT: f"wrote more than its output limit ({limits.output_bytes} bytes)",
        sandbox.Reason.ENDED: "was ended by the caller",
    }
    assert describe(sandbox.Reason.EXITED, 3, limits) == "exited with status 3"
