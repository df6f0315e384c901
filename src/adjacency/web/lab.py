"""Running search-lab requests for the Lab tab: bounded, counted and cancelled with the page.

A lab request (:mod:`adjacency.lab`) runs a real search in a worker thread. The
server holds it to three rules:

* at most ``limits.hints`` lab searches run at once, the same cap as hints (a lab
  search is a hint-sized job: one bot, one position), and ``limits.lab_per_client``
  for one client address and for one browser; one more is 429 at once, so no request
  waits for a slot;
* a search runs at most ``limits.lab_seconds`` (on one thread): then it is stopped
  and answered as it stands, marked incomplete, so no request holds a core for long;
* its sizes are the lab's bounds (:mod:`adjacency.lab.limits`), and a bot spec passes
  the network gate (:func:`~adjacency.bots.gate.admit`: built-in bots only, options
  within the shared-server caps), both 400 with the reason;
* when the page goes away (the client disconnects) or the server stops, the search
  is cancelled (:class:`~adjacency.lab.Cancel`) and its slot comes back as soon as
  the worker thread ends.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import TypeVar

from fastapi import Request

from ..bots import BotError
from ..bots.gate import NetworkSpec, admit
from ..lab import Cancel, LabError
from ..serving.cpu_budget import CpuBudget
from .deps import limited_holders
from .limits import Slots

T = TypeVar("T")

POLL = 0.2
"""Seconds between two checks that the page is still there."""


def checked_spec(spec: str) -> NetworkSpec:
    """``spec`` through the network gate, or :class:`LabError` (400) with its reason."""
    try:
        return admit(spec)
    except BotError as error:
        raise LabError(str(error)) from error


async def run_lab(request: Request, work: Callable[[Cancel], T]) -> T:
    """Run ``work`` in a thread within the lab's slots (the analysis board's counter,
    :class:`~adjacency.web.limits.Slots`); cancel it if the client leaves."""
    slots: Slots = request.app.state.lab_slots
    limits = request.app.state.limits
    client = limited_holders(request)
    engine: CpuBudget = request.app.state.engine
    engine.check(client, "lab searches")
    slots.take(limits.hints, "lab searches", client, limits.lab_per_client)
    ticket = engine.enter(client, "lab")
    stopping: threading.Event = request.app.state.stopping
    cancel = Cancel()
    budget = threading.Timer(limits.lab_seconds, cancel.cancel)  # answers what it has then
    budget.daemon = True

    def run() -> T:
        try:
            while not ticket.wait(POLL):  # its core, in the fair queue
                if cancel.cancelled:
                    break
            budget.start()
            with ticket.measured():  # the CPU it used is charged
                return work(cancel)
        finally:
            budget.cancel()
            ticket.done()
            slots.give(client)

    task = asyncio.ensure_future(asyncio.to_thread(run))
    while True:
        done, _ = await asyncio.wait({task}, timeout=POLL)
        if done:
            return task.result()
        if stopping.is_set() or await request.is_disconnected():
            cancel.cancel()  # the thread ends soon and gives the slot back
            return await task
