"""Which newer Java a project needs, read from ``javac``'s refusal: :func:`newer_java`.

The server builds with Debian 12's ``javac`` 17; students write for the JDK their IDE
shipped (19, 21 and newer). A source that uses a later Java's language or library fails
to compile here with errors that do not say so: ``try-with-resources not applicable to
variable type (ExecutorService cannot be converted to AutoCloseable)``, ``cannot find
symbol ... method getFirst()``. Those known shapes are read back into what the team
needs to know: which feature, in which file and line, needs which Java. Only errors whose
shape is certain are named; any other error is the team's own, told by ``javac``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SERVER_JAVA = 17
"""The Java the server compiles and runs teams' projects with (Debian 12's)."""

_ERROR = re.compile(r"^(?P<file>[^\s:][^:\n]*\.java):(?P<line>\d+): error: (?P<text>.*)$", re.M)


@dataclass(frozen=True)
class Needs:
    """A source line that needs a newer Java: where (``Bot.java:12``), what, and which."""

    where: str
    feature: str
    java: int


def _feature(text: str, detail: str) -> tuple[str, int] | None:
    """The feature and Java of one error (its first line ``text``, the lines under it
    ``detail``), where its shape is a known one."""
    if "try-with-resources not applicable" in text:
        return _closeable(detail)
    if "cannot find symbol" in text:
        return _library(detail)
    if "patterns in switch statements are a preview feature" in text:
        return "a pattern in a switch (case Integer i ->, standard from Java 21)", 21
    if " a preview feature and " in text:
        feature = re.split(r" (?:is|are) a preview feature", text, maxsplit=1)[0]
        return f"{feature} (a later Java's language: a preview in Java {SERVER_JAVA})", 21
    return None


def _closeable(detail: str) -> tuple[str, int] | None:
    """A resource that is ``AutoCloseable`` only in a later Java."""
    closeable = re.search(r"\((\w+) cannot be converted to AutoCloseable\)", detail)
    kind = closeable.group(1) if closeable else ""
    if kind.endswith(("ExecutorService", "Executor", "ForkJoinPool")):
        return f"an {kind} in try-with-resources (AutoCloseable from Java 19)", 19
    if kind == "HttpClient":
        return "an HttpClient in try-with-resources (AutoCloseable from Java 21)", 21
    return None


SEQUENCED = {"getFirst", "getLast", "removeFirst", "removeLast", "addFirst", "addLast", "reversed"}
"""A list's methods from Java 21 (a sequenced collection; a deque had some before)."""


def _library(detail: str) -> tuple[str, int] | None:
    """A method of the library that a later Java added."""
    symbol = re.search(r"symbol:\s+method (\w+)\(", detail)
    place = re.search(r"location:\s+(?:variable \w+ of type|class|interface)\s+(\S+)", detail)
    if not (symbol and place):
        return None
    method, owner = symbol.group(1), place.group(1)
    if method in SEQUENCED and re.match(r"(?:java\.util\.)?(?:Array)?List\b", owner):
        return f"{owner}.{method}() (a sequenced collection, from Java 21)", 21
    if owner == "Thread" and method in ("ofVirtual", "ofPlatform", "startVirtualThread"):
        return f"Thread.{method}() (virtual threads, from Java 21)", 21
    if owner in ("Math", "StrictMath") and method == "clamp":
        return f"{owner}.clamp() (from Java 21)", 21
    if owner == "StringBuilder" and method == "repeat":
        return "StringBuilder.repeat() (from Java 21)", 21
    return None


def needs(javac_output: str) -> list[Needs]:
    """Every error of ``javac_output`` that a newer Java would accept, in order."""
    found: list[Needs] = []
    matches = list(_ERROR.finditer(javac_output))
    for number, match in enumerate(matches):
        end = matches[number + 1].start() if number + 1 < len(matches) else len(javac_output)
        detail = javac_output[match.end() : end]
        feature = _feature(match["text"], detail)
        if feature is not None:
            name = match["file"].rsplit("/", 1)[-1]
            found.append(Needs(f"{name}:{match['line']}", *feature))
    return found


def newer_java(javac_output: str) -> str | None:
    """One sentence saying which newer Java the sources need and for what (each file and
    line), to put before ``javac``'s own words; ``None`` where no error is of a known
    newer Java's shape."""
    found = needs(javac_output)
    if not found:
        return None
    java = max(n.java for n in found)
    listed = "; ".join(f"{n.where}: {n.feature}" for n in found[:6])
    more = f"; and {len(found) - 6} more" if len(found) > 6 else ""
    return (
        f"its sources need Java {java} or newer, and this server builds and runs them with "
        f"Java {SERVER_JAVA}: {listed}{more}. Write them for Java {SERVER_JAVA} (the "
        "course's skeleton builds with it) and send them again"
    )
