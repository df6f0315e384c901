"""The sandbox's errors: it cannot start here, or what was asked of it is wrong.

Both are run-time errors (:class:`~adjacency.core.errors.AdjacencyRuntimeError`): the
program to run is not at fault. A caller that meets :class:`SandboxUnavailable`
refuses to run uploaded code at all; it never runs it without the sandbox.
"""

from __future__ import annotations

from ..core.errors import AdjacencyRuntimeError


class SandboxError(AdjacencyRuntimeError):
    """A sandboxed process could not be started as asked (a folder the sandbox's user
    cannot reach, a limit out of range, no free identity)."""


class SandboxUnavailable(SandboxError):
    """The sandbox cannot start on this machine (bubblewrap missing, user namespaces
    disabled). The message is one line that ends with the fix."""
