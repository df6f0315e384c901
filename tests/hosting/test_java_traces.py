"""A Java program's stack traces read for its team (:mod:`adjacency.hosting.java_traces`)
and a failed move told in its team's words (:mod:`adjacency.hosting.team_words`), on
traces of the shapes the JVM, ``printStackTrace`` and the JavaFX driver write (written
here), and on generated ones: the cause is the first trace's innermost exception with a
frame of the team's, whatever noise comes before and whatever trace follows."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.hosting.java_traces import Frame, team_cause, traces
from adjacency.hosting.team_words import STDERR_HEAD, team_words

WRAPPED = "\n".join(
    [
        'Exception in thread "JavaFX Application Thread" java.lang.RuntimeException: '
        "java.lang.reflect.InvocationTargetException",
        "\tat javafx.fxml/javafx.fxml.FXMLLoader$MethodHandler.invoke(FXMLLoader.java:1857)",
        "\tat javafx.base/com.sun.javafx.event.CompositeEventHandler.dispatchBubblingEvent"
        "(CompositeEventHandler.java:86)",
        "\tat java.base/java.lang.Thread.run(Thread.java:840)",
        "Caused by: java.lang.reflect.InvocationTargetException",
        "\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)",
        "\tat java.base/java.lang.reflect.Method.invoke(Method.java:568)",
        "\t... 45 more",
        'Caused by: java.lang.NullPointerException: Cannot invoke "ai.Bot.move(String[][])" '
        'because "this.bot" is null',
        "\tat ui.OutputFrameController.moveBot(OutputFrameController.java:385)",
        "\tat ui.OutputFrameController.onClick(OutputFrameController.java:201)",
        "\t... 52 more",
        'Exception in thread "JavaFX Application Thread" java.lang.IllegalStateException: '
        "Timeline is stopped",
        "\tat ui.OutputFrameController.endOfGame(OutputFrameController.java:410)",
        "\tat javafx.graphics/javafx.animation.Animation.play(Animation.java:1100)",
    ]
)
"""An event handler's exception as the JVM prints it: FXMLLoader's wrapper, reflection's,
the team's NullPointerException, then a follow-on exception of the team's window."""

PRINTED = """\
java.lang.ArrayIndexOutOfBoundsException: Index 8 out of bounds for length 8
\tat Bot.evaluate(Bot.java:77)
\tat Bot.minimax(Bot.java:52)
\tat java.lang.Thread.run(Thread.java:750)
"""
"""``printStackTrace`` of a caught exception, Java 8's frames (no module)."""

DRIVER = """\
fxdriver: plays 2 rounds, the bot's mark O as X, moving first
fxdriver: an exception in thread "Thread-3": java.lang.IllegalStateException: no move left
\tat game.Bot.move(Bot.java:12)
\tat game.GameWindow.lambda$think$1(GameWindow.java:69)
\t(22 frames of Java and JavaFX left out)
fxdriver: the program crashed: java.lang.IllegalStateException: no move left at Bot.java:12
"""
"""The JavaFX driver's account of an uncaught exception."""


def test_a_wrapped_cause_is_the_innermost_with_the_teams_frames() -> None:
    cause = team_cause(WRAPPED.splitlines())
    assert cause is not None
    assert cause.type == "java.lang.NullPointerException"
    assert cause.headline() == (
        'java.lang.NullPointerException: Cannot invoke "ai.Bot.move(String[][])" because '
        '"this.bot" is null, at OutputFrameController.java:385'
    )
    assert [str(f) for f in cause.own_frames] == [
        "at ui.OutputFrameController.moveBot(OutputFrameController.java:385)",
        "at ui.OutputFrameController.onClick(OutputFrameController.java:201)",
    ]
    chains = traces(WRAPPED.splitlines())
    assert [[t.type.rsplit(".", 1)[1] for t in chain] for chain in chains] == [
        ["RuntimeException", "InvocationTargetException", "NullPointerException"],
        ["IllegalStateException"],
    ]


def test_printed_and_driver_traces_name_the_teams_file_and_line() -> None:
    printed = team_cause(PRINTED.splitlines())
    assert printed is not None and printed.headline() == (
        "java.lang.ArrayIndexOutOfBoundsException: Index 8 out of bounds for length 8, "
        "at Bot.java:77"
    )
    driven = team_cause(DRIVER.splitlines())
    assert driven is not None
    assert driven.headline() == "java.lang.IllegalStateException: no move left, at Bot.java:12"
    assert len(driven.frames) == 2  # the driver's count of left-out frames is no frame


SUMMARIZED = """\
fxdriver: an exception in thread "JavaFX Application Thread": java.lang.RuntimeException: \
java.lang.reflect.InvocationTargetException
\t(24 frames of Java and JavaFX left out)
fxdriver: caused by java.lang.reflect.InvocationTargetException
fxdriver: caused by java.lang.NullPointerException: "this.bot" is null at GameWindow.java:375
fxdriver: the program crashed: java.lang.NullPointerException: "this.bot" is null at \
GameWindow.java:375
"""
"""The driver's account of a handler's exception whose frames are all the platform's but
its innermost cause's, which the driver tells by its file and line."""


def test_the_drivers_summarized_causes_name_the_teams_file_and_line() -> None:
    cause = team_cause(SUMMARIZED.splitlines())
    assert cause is not None
    assert cause.headline() == (
        'java.lang.NullPointerException: "this.bot" is null, at GameWindow.java:375'
    )
    assert [str(f) for f in cause.own_frames] == ["at GameWindow.java:375"]
    assert len(traces(SUMMARIZED.splitlines())) == 1  # the crash's account is no new trace
    detail = f"{COMMAND}exited with status 1{STDERR_HEAD}" + "\n".join(
        f"  {line}" for line in SUMMARIZED.splitlines()
    )
    assert team_words(detail) == (
        "the program exited with status 1\n"
        'its cause: java.lang.NullPointerException: "this.bot" is null, at GameWindow.java:375'
    )


def test_no_cause_where_no_frame_is_the_teams_or_no_trace_at_all() -> None:
    platform = [
        'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space',
        "\tat java.base/java.util.Arrays.copyOf(Arrays.java:3512)",
        "\tat javafx.graphics/javafx.scene.Node.fireEvent(Node.java:8879)",
        "\tat adjacency.kit.Main.main(Main.java:40)",
    ]
    assert team_cause(platform) is None and len(traces(platform)) == 1
    named = ["the bot threw java.lang.IllegalStateException: no move", "Bot.java:12 is wrong"]
    assert team_cause(named) is None and traces(named) == []


IDENT = st.from_regex(r"[A-Z][a-z]{1,6}", fullmatch=True)
PLATFORM_CLASSES = st.sampled_from(
    ["java.base/java.lang.Thread", "javafx.graphics/javafx.scene.Node",
     "javafx.base/com.sun.javafx.event.EventUtil", "java.base/jdk.internal.misc.Unsafe"]
)  # fmt: skip


@st.composite
def frame_lines(draw: st.DrawFn) -> tuple[list[str], bool]:
    """Some frames of a thrown exception, and whether any is the team's."""
    lines, own = [], False
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.booleans()):
            name, line = draw(IDENT), draw(st.integers(1, 999))
            lines.append(f"\tat app.{name}.run({name}.java:{line})")
            own = True
        else:
            module, _, where = draw(PLATFORM_CLASSES).partition("/")
            lines.append(f"\tat {module}/{where}.call({where.rsplit('.', 1)[1]}.java:12)")
    return lines, own


@st.composite
def chains(draw: st.DrawFn) -> tuple[list[str], int | None]:
    """A trace (an exception and its causes): its lines and the index in the chain of
    the cause :func:`team_cause` must name (``None``: no frame of the team's)."""
    lines: list[str] = []
    expected = None
    for index in range(draw(st.integers(1, 4))):
        kind = draw(IDENT) + "Exception"
        lead = 'Exception in thread "main" ' if index == 0 else "Caused by: "
        lines.append(f"{lead}pkg.{kind}: number {index}")
        frames, own = draw(frame_lines())
        lines += frames
        if draw(st.booleans()):
            lines.append(f"\t... {draw(st.integers(1, 60))} more")
        if own:
            expected = index
    return lines, expected


NOISE = st.lists(st.sampled_from(["Loading the board", "score 12", "", "moving to 3,4"]))


@settings(deadline=None)  # pure parsing, but a loaded machine's pauses are no failure
@given(NOISE, chains(), st.lists(chains(), max_size=2))
def test_the_cause_is_the_first_traces_innermost_own_exception(
    noise: list[str], first: tuple[list[str], int | None], after: list[tuple[list[str], int | None]]
) -> None:
    """Noise before it, and any trace after it (a follow-on), never change the cause of
    the first trace with a frame of the team's; a first trace without one gives way to
    the next that has one."""
    lines, index = first
    following = [line for chain, _ in after for line in chain]
    cause = team_cause([*noise, *lines, *following])
    if index is not None:
        assert cause is not None and cause.message == f"number {index}"
        assert cause.own_frames and all(f.own for f in cause.own_frames)
        return
    later = next((i for _, i in after if i is not None), None)
    if later is None:
        assert cause is None
    else:
        assert cause is not None and cause.message == f"number {later}"


def test_a_frame_is_the_teams_unless_the_platforms() -> None:
    assert Frame("ui.Game.play", "Game.java:3").own
    assert Frame("Bot.move", "Bot.java:3").own
    assert not Frame("javafx.scene.Node.fireEvent", "Node.java:1").own
    assert not Frame("adjacency.kit.Main.main", "Main.java:1").own
    assert not Frame("app.Thing.run", "Thing.java:1", module="some.module").own


COMMAND = (
    "engine '/bin/sh -c \\'mkfifo /tmp/display; exec /usr/bin/java -cp "
    "/srv/class.db.builds/7-1/classes adjacency.fxdriver.Driver --set nameX "
    "\\'\"\\'\"\\'Player 1\\'\"\\'\"\\' -- Main\\'' "
)


def test_a_failure_is_told_in_the_teams_words() -> None:
    """The client's failure (its command line, the last lines of its standard error)
    becomes: what happened, the team's cause with its frames, the board; nothing of the
    command, the server's folders, the driver's notes or the follow-on exception."""
    board = [
        "fxdriver: its board as its window shows it, top row first:",
        *(f"fxdriver:   {'. ' * 7}." for _ in range(8)),
    ]
    stderr = [*WRAPPED.splitlines(), *board]
    detail = f"while choosing a move, {COMMAND}exited with status 1{STDERR_HEAD}" + "\n".join(
        f"  {line}" for line in stderr
    )
    told = team_words(detail).split("\n")
    assert told[0] == "while choosing a move, the program exited with status 1"
    assert told[1].startswith("its cause: java.lang.NullPointerException: Cannot invoke")
    assert told[1].endswith(", at OutputFrameController.java:385")
    assert told[2] == "    at ui.OutputFrameController.moveBot(OutputFrameController.java:385)"
    assert told[4:] == [line.removeprefix("fxdriver: ") for line in board]
    text = "\n".join(told)
    for never in ("/bin/sh", "/srv", "builds", "IllegalStateException", "fxdriver", "engine"):
        assert never not in text, never


def test_a_failure_without_a_trace_keeps_its_last_lines_and_one_without_stderr_its_words() -> None:
    detail = f"{COMMAND}sent no bestmove within 5s{STDERR_HEAD}  thinking...\n  depth 4"
    assert team_words(detail) == (
        "the program gave no move within 5 s; its last lines:\n  thinking...\n  depth 4"
    )
    plain = f"{COMMAND}exited with status 3 (it wrote nothing to stderr)"
    assert team_words(plain) == "the program exited with status 3 (it wrote nothing to stderr)"
    assert team_words("the answer 'z9' is not a legal move") == (
        "the answer 'z9' is not a legal move"
    )
