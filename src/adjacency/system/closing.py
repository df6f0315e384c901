"""Objects that a ``with`` block closes: :class:`Closing`."""

from __future__ import annotations

from typing import Any, Self


class Closing:
    """A mixin for an object that holds something to release (threads, processes, a
    connection): ``with obj:`` gives ``obj`` and calls its ``close()`` when the block
    ends, however it ends (an exception still propagates). The class defines ``close``;
    closing twice should do nothing the second time."""

    def close(self) -> None:
        """Release what the object holds; it is unusable afterwards."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
