"""Every sandbox is started from one thread that lives as long as the process:
:func:`popen`.

bubblewrap's ``--die-with-parent`` asks the kernel to kill the sandbox when its parent
dies, and the kernel means the parent *thread* (``PR_SET_PDEATHSIG``): a sandbox started
from a short-lived thread (a request's worker, a game's thread that ends before the
game) would be killed the moment that thread ends. So :func:`popen` hands the start to
one daemon thread that never ends; the sandbox then dies only with the process, which is
what ``--die-with-parent`` is for (a server killed with SIGKILL leaves nothing running).
"""

from __future__ import annotations

import queue
import subprocess
import threading
from concurrent.futures import Future
from typing import Any

_requests: queue.Queue[tuple[dict[str, Any], Future[subprocess.Popen[bytes]]]] = queue.Queue()
_lock = threading.Lock()
_thread: threading.Thread | None = None


def popen(**kwargs: Any) -> subprocess.Popen[bytes]:
    """``subprocess.Popen(**kwargs)``, run in the spawning thread; raises what it raises."""
    global _thread
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=_serve, name="sandbox-spawner", daemon=True)
            _thread.start()
    future: Future[subprocess.Popen[bytes]] = Future()
    _requests.put((kwargs, future))
    return future.result()


def _serve() -> None:
    while True:
        kwargs, future = _requests.get()
        try:
            future.set_result(subprocess.Popen(**kwargs))
        except BaseException as exc:  # handed to the caller, whatever it is
            future.set_exception(exc)
