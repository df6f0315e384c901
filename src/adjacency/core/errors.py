"""The error taxonomy of the whole project (documented in docs/errors.md).

Two roots, in the style of python-chess:

- :class:`AdjacencyError` (a :class:`ValueError`): the *input* is bad (a square
  name, a position, a record, a bot spec, a protocol line, an option). The
  message quotes the offending input (at most :data:`~adjacency.core.text.QUOTE_CHARS`
  characters of it) and says what would have been accepted. Retrying with the
  same input fails the same way. CLI exit status 2; HTTP 400 (or 422).
- :class:`AdjacencyRuntimeError` (a :class:`RuntimeError`): the input was fine
  but something the program depends on failed at run time: an external engine
  crashed, stalled or broke the protocol
  (:class:`~adjacency.protocol.errors.EngineError`), a worker process died
  (:class:`~adjacency.workers.WorkerError`), a database could not be read
  or written (:class:`StoreError`), a bot could not give a
  legal move (:class:`~adjacency.bots.base.BotFailure`). CLI exit status 3; HTTP 503.
"""

from __future__ import annotations


class AdjacencyError(ValueError):
    """Base class of every error raised for bad input (the caller's input is at fault)."""


class _Refusal(AdjacencyError):
    """A refusal a game's detail can name by code: ``code`` (a
    :class:`~adjacency.core.details.DetailCode` value, or ``None``) and the ``params`` its
    message fills in, so a server stores why a move was refused without reading the
    message back."""

    def __init__(
        self, message: str, code: str | None = None, params: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params = dict(params or {})


class InvalidSquareError(_Refusal):
    """A square name that is malformed or lies outside the board."""


class IllegalMoveError(_Refusal):
    """A move that the rules do not allow in the given position."""


class InvalidPositionError(AdjacencyError):
    """Position text (or position parts) that do not describe a legal position."""


class InvalidSettingsError(AdjacencyError):
    """Game settings (board size, rounds, first mover) out of range."""


class InvalidRecordError(AdjacencyError):
    """A game record (text or JSON) that is malformed or does not replay."""


class InputTooLargeError(AdjacencyError):
    """Input beyond a documented size limit (a file, a stream, a line)."""


class AdjacencyRuntimeError(RuntimeError):
    """Base class of run-time failures that are not the input's fault (engine, worker, store)."""


class StoreError(AdjacencyRuntimeError):
    """A database of one of the stores cannot be used (not SQLite, another program's or
    another version's schema, read-only, a full disk, a concurrent writer), or what was
    asked of it is not there (a run that does not exist). Raised by the shared SQLite
    helper :mod:`adjacency.storage` and the five stores built on it."""


def missing_extra(room: str, needs: str, extra: str, missing: ImportError) -> ImportError:
    """The error of importing ``adjacency.ROOM`` without its optional libraries: it says
    what the room ``needs``, which module is ``missing``, and the command that installs
    the extra ``extra``. The room raises it from the original error."""
    from .. import DISTRIBUTION  # the root imports this module first: read it at call time

    return ImportError(
        f"adjacency.{room} needs {needs} ({missing.name} is missing): "
        f"pip install '{DISTRIBUTION}[{extra}]'"
    )
