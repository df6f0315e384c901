"""The CPU budget's own bookkeeping (the web app's fair queue,
``tests/web/test_cpu_budget.py``, tests it through the server): charges are core-seconds
held, the window slides, a visitor who never comes back is forgotten, and the queue
ranks by the share of a budget used, then by arrival."""

from __future__ import annotations

from adjacency.serving.cpu_budget import SWEEP_EVERY, CpuBudget


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_charges_slide_out_of_the_window_and_idle_visitors_are_forgotten() -> None:
    clock = Clock()
    budget = CpuBudget(cores=1, window=60.0, per_browser=10.0, per_address=30.0, clock=clock)
    ticket = budget.enter(("address a", "browser b"), "bot", threads=2)
    assert ticket.running
    clock.now += 3.0
    assert budget.usage("browser b") == 6.0  # running: 3 s on 2 threads so far
    ticket.done()
    assert budget.usage("address a") == budget.usage("browser b") == 6.0
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
    budget = CpuBudget(cores=1, window=60.0, per_browser=10.0, per_address=100.0, clock=clock)
    spent = budget.enter(("browser h",), "h before")
    clock.now += 11.0
    spent.done()  # browser h: 11 of its 10 core-seconds, over its budget
    holder = budget.enter(("address a",), "a first")
    clock.now += 5.0  # address a: 5 of 100 so far
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
