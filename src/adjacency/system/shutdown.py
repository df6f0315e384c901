"""A process that ends at once when its work is done: :func:`skip_final_collection`.

When a Python process exits, the interpreter clears every module and runs the
garbage collector over every object left; with the engine's kernels loaded (numba and
LLVM: hundreds of thousands of objects) that costs about 0.2 s of CPU on a quiet
machine, and well over a second on a loaded one, after the command has already said
everything it had to (``adjacency engine`` after ``quit``, ``adjacency solve`` after
Ctrl-C printed "interrupted"). A controller waiting for the engine to exit, or a
person waiting for the prompt, waits for that collection, not for the work.

The collection frees nothing the operating system would not free anyway, so the
command line skips it: an exit handler moves every object to the collector's
permanent generation (:func:`gc.freeze`), which no collection examines. The
handlers registered before it (a pool's shutdown, a database's close) still run
after it, as usual; what is lost is only the finalizers of objects in reference
cycles at exit, which Python never promised to run.
"""

from __future__ import annotations

import atexit
import gc

_registered: list[bool] = []


def skip_final_collection() -> None:
    """Make this process skip the garbage collection of its exit (see the module notes);
    idempotent. For processes whose objects need no finalizer at exit: the command line's."""
    if not _registered:
        _registered.append(True)
        atexit.register(gc.freeze)
