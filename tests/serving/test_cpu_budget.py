"""The CPU budget's own bookkeeping (the web app's fair queue,
``tests/web/test_cpu_budget.py``, tests it through the server): charges are the CPU
seconds the work's threads used (their own clocks), the window slides, a visitor who
never comes back is forgotten, and the queue ranks by the share of a budget used, then
by arrival."""

from __future__ import annotations

import threading
import time

from adjacency.serving.cpu_budget import SWEEP_EVERY, CpuBudget
from adjacency.system.cpu_meter import carried


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def burn(seconds: float) -> None:
    """Run on this thread's CPU until its clock advanced ``seconds``."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_a_ticket_is_charged_the_cpu_its_threads_used_not_the_time_it_held_its_core() -> None:
    budget = CpuBudget(cores=2, window=60.0, per_browser=10.0, per_address=30.0)
    busy = budget.enter(("address a",), "busy")
    before = time.thread_time()
    with busy.measured():
        inner = time.thread_time()
        burn(0.2)
        ran = time.thread_time() - inner
        assert budget.usage("address a") >= ran  # charged as it runs
        spent = time.thread_time() - inner
    outer = time.thread_time() - before
    busy.done()
    assert spent <= budget.usage("address a") <= outer  # its thread's CPU clock

    waiting = budget.enter(("address w",), "waiting")
    woken = threading.Event()
    before = time.thread_time()
    with waiting.measured():
        woken.wait(0.3)  # a search waiting on its page: it holds its core, runs nothing
    outer = time.thread_time() - before
    waiting.done()
    assert budget.usage("address w") <= outer  # what its thread ran: next to nothing


def test_a_search_is_charged_the_cpu_of_its_helper_threads_too() -> None:
    budget = CpuBudget(cores=1, window=60.0, per_browser=10.0, per_address=30.0)
    ticket = budget.enter(("address a",), "two threads")
    helper_cpu: list[float] = []

    def helper() -> None:
        start = time.thread_time()
        burn(0.1)
        helper_cpu.append(time.thread_time() - start)

    with ticket.measured():
        main_start = time.thread_time()
        thread = threading.Thread(target=carried(helper))  # as the engine starts its helpers
        thread.start()
        burn(0.1)
        thread.join()
        main_cpu = time.thread_time() - main_start
    ticket.done()
    assert budget.usage("address a") >= main_cpu + helper_cpu[0]


def test_charges_slide_out_of_the_window_and_idle_visitors_are_forgotten() -> None:
    clock = Clock()
    budget = CpuBudget(cores=1, window=60.0, per_browser=10.0, per_address=30.0, clock=clock)
    ticket = budget.enter(("address a", "browser b"), "bot")
    assert ticket.running
    with ticket.measured():
        burn(0.05)
    ticket.done()
    charged = budget.usage("browser b")
    assert charged >= 0.05 and budget.usage("address a") == charged
    clock.now += 61.0
    assert budget.usage("browser b") == 0.0  # the window slid past it
    for n in range(3 * SWEEP_EVERY):  # visitors who come once and never again
        once = budget.enter((f"address {n}",), "hint")
        clock.now += 0.01
        once.done()
        clock.now += 61.0
    assert budget.clients() <= SWEEP_EVERY  # swept: memory follows the window's visitors


def test_a_core_goes_to_the_smallest_share_of_a_budget_and_over_budget_last() -> None:
    clock = Clock()
    budget = CpuBudget(cores=1, window=60.0, per_browser=0.05, per_address=1.0, clock=clock)
    spent = budget.enter(("browser h",), "h before")
    with spent.measured():
        burn(0.06)
    spent.done()  # browser h: over its 0.05 CPU seconds
    holder = budget.enter(("address a",), "a first")
    with holder.measured():
        burn(0.02)  # address a: about 2% of its budget so far
    over = budget.enter(("browser h",), "h")  # the earliest waiting, but over its budget
    greedy = budget.enter(("address a",), "a again")
    fresh = budget.enter(("address f",), "f")
    assert budget.queued() == ["h", "a again", "f"]
    holder.done()
    assert fresh.running and not greedy.running  # 0% before 5%
    fresh.done()
    assert greedy.running and not over.running  # within its budget before over it
    greedy.done()
    assert over.running  # no one else waits: the core is not left idle
    over.done()
    assert [label for label, _ in budget.granted] == ["h before", "a first", "f", "a again", "h"]
