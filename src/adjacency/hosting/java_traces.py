"""A Java program's stack traces read for its team: :func:`team_cause`.

A team's program that fails writes stack traces on its standard error: the JVM's own
(``Exception in thread "main" java.lang.NullPointerException: ...``, then ``at`` frames,
``Caused by:`` chains, ``... 5 more``), ``printStackTrace``'s (the same without the
thread), and the JavaFX driver's (``fxdriver: an exception in thread "...": ...``, the
team's frames with the platform's counted). What a student needs of them is one thing:
the first exception whose frames are the team's own, with its file and line: the cause.
A wrapper of the platform (``InvocationTargetException``, ``LoadException``) is not the
cause, its innermost cause with the team's frames is; a second trace after it (a
follow-on exception, the platform tripping over what the first left) is not either.

A frame is the team's unless its class is the platform's (:data:`PLATFORM`: Java, JavaFX,
the JDK, and this package's own kit and driver) or it runs in a named module (the team's
classes run on the class path). Pure functions of text, so that any trace shape can be
tried without a JVM.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

PLATFORM = ("java.", "javax.", "javafx.", "jdk.", "sun.", "com.sun.", "adjacency.")
"""Packages whose frames are never the team's."""

_FRAME = re.compile(
    r"^\s*at\s+(?:(?P<module>[\w.$-]+(?:@[\w.+-]*)?)/)?(?P<where>[\w$.<>]+)\((?P<source>[^()]*)\)\s*$"
)
_ELIDED = re.compile(r"^\s*(?:\.\.\. \d+ more|\(\d+ frames? of .* left out\))\s*$")
_TYPE = r"(?:[a-z_$][\w$]*\.)+[A-Za-z_$][\w$]*|[A-Z][\w$]*(?:Exception|Error|Throwable)"
_HEADER = re.compile(
    r"^\s*(?P<lead>Exception in thread \"[^\"]*\"\s+|Caused by:\s+|Suppressed:\s+"
    r"|(?:fxdriver: )?an exception in thread \"[^\"]*\":\s+)?"
    rf"(?P<type>{_TYPE})(?::\s?(?P<message>.*))?$"
)

_SUMMARY = re.compile(
    rf"^\s*(?:fxdriver: )?(?P<lead>caused by|the program crashed:)\s+(?P<type>{_TYPE})"
    r"(?::\s?(?P<message>.*?))?(?: at (?P<source>[\w$.-]+\.java:\d+))?\s*$"
)
"""The driver's own lines: ``caused by TYPE: MESSAGE at FILE:LINE`` (a cause, its frames
left out but the team's innermost), and ``the program crashed: ...`` (its account of the
cause it already told: no trace of its own)."""


@dataclass(frozen=True)
class Frame:
    """One ``at`` line: ``where`` (``pkg.Class.method``; ``""`` where only the file and
    line are told), its ``source`` (``Bot.java:12``, ``Native Method``), and the
    ``module`` it runs in (``None`` on the class path)."""

    where: str
    source: str
    module: str | None = None

    @property
    def own(self) -> bool:
        """Whether the frame is the team's (see the module docstring)."""
        return self.module is None and not self.where.startswith(PLATFORM)

    def __str__(self) -> str:
        return f"at {self.where}({self.source})" if self.where else f"at {self.source}"


HINTS = (
    (
        "java.lang.IllegalStateException",
        "Not on FX application thread",
        "JavaFX lets only its own thread change a window: your code changed it from the "
        "thread '{thread}'; make that change inside Platform.runLater(...)",
    ),
    (
        "java.lang.StackOverflowError",
        "",
        "a method of yours called itself without end, or deeper than Java's stack allows: "
        "the frames below repeat where",
    ),
)
"""The mistakes course programs make whose exception says little to a student: the
exception's type, words its message holds, and what it means (``{thread}``: the thread
the message names)."""


@dataclass(frozen=True)
class Thrown:
    """One exception of a trace: its ``type``, ``message`` (``""`` for none), frames, and
    whether it is a ``Caused by:`` of the one before it (``cause``)."""

    type: str
    message: str
    frames: tuple[Frame, ...] = field(default=())
    cause: bool = False

    @property
    def own_frames(self) -> tuple[Frame, ...]:
        """Its frames that are the team's, innermost first."""
        return tuple(f for f in self.frames if f.own)

    def hint(self) -> str | None:
        """What the exception means for a student, where it is one of the mistakes the
        course's programs make (:data:`HINTS`), else ``None``.

        >>> print(Thrown("java.lang.IllegalStateException",
        ...              "Not on FX application thread; currentThread = pool-2-thread-1").hint())
        ... # doctest: +ELLIPSIS
        JavaFX lets only its own thread change a window: ... thread 'pool-2-thread-1'; ...
        >>> print(Thrown("java.lang.StackOverflowError", "").hint())  # doctest: +ELLIPSIS
        a method of yours called itself without end, or deeper than Java's stack allows: ...
        """
        for kind, words, told in HINTS:
            if self.type == kind and words in self.message:
                thread = re.search(r"currentThread = (\S+)", self.message)
                return told.format(thread=thread.group(1) if thread else "another one")
        return None

    def headline(self) -> str:
        """``type: message`` (or the type alone), with the file and line of its innermost
        frame of the team's where it has one."""
        said = f"{self.type}: {self.message}" if self.message else self.type
        own = self.own_frames
        return f"{said}, at {own[0].source}" if own else said


def traces(lines: Iterable[str]) -> list[list[Thrown]]:
    """The stack traces in ``lines``, in order, each a chain (the thrown exception, then
    its causes); a header followed by no frame is no trace (a message that names an
    exception is not one)."""
    found: list[list[Thrown]] = []
    chain: list[Thrown] | None = None
    current: dict[str, object] | None = None
    frames: list[Frame] = []

    def close() -> None:
        nonlocal current, frames
        if current is not None and chain is not None and frames:
            chain.append(Thrown(str(current["type"]), str(current["message"]), tuple(frames),
                                bool(current["cause"])))  # fmt: skip
        current, frames = None, []

    for line in lines:
        frame = _FRAME.match(line)
        if frame is not None and current is not None:
            frames.append(Frame(frame["where"], frame["source"], frame["module"]))
            continue
        if _ELIDED.match(line) and current is not None:
            continue
        close()
        summary = _SUMMARY.match(line)
        if summary is not None:
            chain = _follow(_told(summary), chain, found)
            continue
        header = _HEADER.match(line)
        if header is None:
            chain = None
            continue
        lead = header["lead"] or ""
        follows = lead.startswith(("Caused by", "Suppressed"))
        if not follows or chain is None:
            chain = []
            found.append(chain)
        current = {"type": header["type"], "message": (header["message"] or "").strip(),
                   "cause": follows}  # fmt: skip
    close()
    return [c for c in found if c]


def _follow(
    told: Thrown | None, chain: list[Thrown] | None, found: list[list[Thrown]]
) -> list[Thrown] | None:
    """The chain after a driver's line telling ``told`` (``None``: it ends the chain);
    a cause told with no chain before it starts one in ``found``."""
    if told is None:
        return None
    if chain is None:
        chain = []
        found.append(chain)
    chain.append(told)
    return chain


def _told(summary: re.Match[str]) -> Thrown | None:
    """The cause a driver's ``caused by`` line tells (its frame the file and line where
    it names them); ``None`` for its account of a crash, which tells no new cause."""
    if summary["lead"] != "caused by":
        return None
    frames = (Frame("", summary["source"]),) if summary["source"] else ()
    return Thrown(summary["type"], (summary["message"] or "").strip(), frames, cause=True)


def team_cause(lines: Sequence[str]) -> Thrown | None:
    """The team's cause in ``lines`` (a program's standard error): in the first trace that
    has any frame of the team's, its innermost exception with one (a wrapper's cause is
    the cause); ``None`` where no trace has a frame of the team's."""
    for chain in traces(lines):
        own = [thrown for thrown in chain if thrown.own_frames]
        if own:
            return own[-1]
    return None
