"""The cores a server lends to teams' programs (:class:`adjacency.hosting.slots.Slots`),
shared by the event loop's games and the builder's threads: never more holders than
slots, every asker served in the order asked, a cancelled wait neither keeps a slot nor
loses one, and the default leaves the server its own core."""

from __future__ import annotations

import asyncio
import threading
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.hosting.slots import SERVER_CORES, Slots, default_slots


def test_the_default_leaves_the_server_its_core() -> None:
    assert default_slots(1) == 1
    assert default_slots(2) == 1
    assert default_slots(16) == 16 - SERVER_CORES


@settings(max_examples=20, deadline=None)
@given(count=st.integers(1, 3), threads=st.integers(0, 5), tasks=st.integers(0, 5))
def test_threads_and_tasks_never_hold_more_than_the_slots(
    count: int, threads: int, tasks: int
) -> None:
    slots = Slots(count)
    inside = 0
    most = 0
    served: list[str] = []
    lock = threading.Lock()

    def work(name: str) -> None:
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
        time.sleep(0.002)
        with lock:
            inside -= 1
            served.append(name)

    def in_thread(name: str) -> None:
        with slots.hold():
            work(name)

    async def in_task(name: str) -> None:
        async with slots:
            await asyncio.to_thread(work, name)

    async def everyone() -> None:
        started = [threading.Thread(target=in_thread, args=(f"t{i}",)) for i in range(threads)]
        for thread in started:
            thread.start()
        await asyncio.gather(*(in_task(f"a{i}") for i in range(tasks)))
        for thread in started:
            await asyncio.to_thread(thread.join)

    asyncio.run(everyone())
    assert sorted(served) == sorted(
        [f"t{i}" for i in range(threads)] + [f"a{i}" for i in range(tasks)]
    )
    assert most <= count and slots.most <= count
    assert slots.held == 0


def test_a_cancelled_wait_keeps_no_slot_and_the_next_asker_gets_it() -> None:
    async def scene() -> list[str]:
        slots = Slots(1)
        order: list[str] = []
        release = asyncio.Event()

        async def holder() -> None:
            async with slots:
                order.append("holder")
                await release.wait()

        async def asker(name: str) -> None:
            async with slots:
                order.append(name)

        first = asyncio.ensure_future(holder())
        await asyncio.sleep(0.01)
        cancelled = asyncio.ensure_future(asker("cancelled"))
        second = asyncio.ensure_future(asker("second"))
        await asyncio.sleep(0.01)
        cancelled.cancel()
        release.set()
        await asyncio.gather(first, second, return_exceptions=True)
        assert cancelled.cancelled()
        assert slots.held == 0
        return order

    assert asyncio.run(scene()) == ["holder", "second"]


def test_the_slots_are_served_in_the_order_asked() -> None:
    slots = Slots(1)
    order: list[int] = []
    with slots.hold():
        started = []
        for number in range(4):
            thread = threading.Thread(target=lambda n=number: _take(slots, order, n))
            thread.start()
            started.append(thread)
            while len(slots._waiters) < number + 1:  # queued before the next asks
                time.sleep(0.001)
    for thread in started:
        thread.join()
    assert order == [0, 1, 2, 3]


def _take(slots: Slots, order: list[int], number: int) -> None:
    with slots.hold():
        order.append(number)
