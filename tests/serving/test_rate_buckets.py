"""The rate limiter's cost stays flat: idle buckets are forgotten, drained ones are swept
only as often as they double, so many drained buckets do not tax every call."""

from __future__ import annotations

from adjacency.serving.limits import RateLimiter


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_ten_thousand_drained_buckets_cost_each_later_call_amortized_constant_work() -> None:
    clock = Clock()
    rates = RateLimiter(burst=1, clock=clock)
    for n in range(10_000):  # each address spends its only token: a drained bucket
        assert rates.allow(f"10.0.{n // 256}.{n % 256}", "create", 1.0)
    assert rates.kept() == 10_000  # drained within the minute: every bucket is still needed
    before = rates.examined
    for n in range(10_000):
        assert rates.allow(f"10.1.{n // 256}.{n % 256}", "create", 1.0)
    # 10,000 calls examined at most a few times 20,000 buckets in all (O(1) each), where
    # a sweep on every call beyond 10,000 buckets would examine about 10^8
    assert rates.examined - before <= 4 * 20_000


def test_buckets_of_idle_clients_are_forgotten_and_a_flood_is_still_refused() -> None:
    clock = Clock()
    rates = RateLimiter(burst=2, clock=clock)
    for n in range(5_000):
        rates.allow(f"idle-{n}", "move", 60.0)
        rates.allow(f"idle-{n}", "move", 60.0)
    assert not rates.allow("idle-0", "move", 60.0)  # drained: refused
    clock.now += 60.0  # every one of them has refilled
    for n in range(20_000):
        assert rates.allow(f"new-{n}", "move", 60.0)
    assert rates.kept() == 20_000  # the idle clients' buckets are gone, the new ones kept
    assert rates.allow("new-1", "move", 60.0)
    assert not rates.allow("new-1", "move", 60.0)  # a kept bucket still limits
