"""Course-shaped JavaFX programs for the driver's tests, written here (no real team's code).

Each :class:`Shape` is what a team's repository looks like: an input window from FXML
(two name fields, a rounds combo box, who plays, who moves first, Play and Reset), then a
game window whose board is a ``Button[][]`` of 8x8 in a ``GridPane``, X's pieces starting
bottom-left and O's top-right, an alert at the end. The shapes vary as real projects do:
who plays (a type box per side with a person option, one bot-type box, a game-mode box, or
a fixed bot), who moves first (a check box or a combo box), where the FXML is (beside the
sources, in a folder under ``src``, in a separate ``resources`` root named by an IntelliJ
``.iml``), and where the bot moves (on the JavaFX thread, from a thread, from a timeline, after
a pause the window makes, or at the press of a ``Move Bot`` button).

Every bot is deterministic so that a test can tell its moves from any other's
(:func:`bot_move`): the first choice of each box ("Minimax") takes the empty square that
turns the most pieces, the first such from the window's top-left; the second ("Random",
"Local Search") the same from the bottom-right. The hostile shapes break at the bot's
second move: ``crash`` throws, ``hang`` never returns on the JavaFX thread, ``occupied``
marks the square of one of the opponent's pieces, ``spin`` thinks for 30 s of CPU,
``think-aloud`` too on the JavaFX thread, printing as it goes, and ``sleep`` sleeps in its
bot (at its third move) before it answers.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from adjacency.core import Position

FX_MODULES = "/usr/share/openjfx/lib"


@dataclass(frozen=True)
class Shape:
    """One course project's shape (see the module docstring)."""

    name: str
    who: str = "per_side"  # per_side | bot_type | mode | fixed
    first: str = "check"  # check | combo
    fxml: str = "beside"  # beside | folder | resources
    thread: str = "fx"  # fx | thread | timeline | pause | button | next
    hostile: str = ""  # "" | crash | late-crash | hang | occupied | spin | no-window | ...
    package: str = ""
    form: str = ""  # "": the shapes above; else one of FORMS (form_files)


SHAPES = (
    Shape("per-side", who="per_side", first="check", fxml="beside", thread="fx"),
    Shape(
        "bot-type", who="bot_type", first="combo", fxml="folder", thread="thread", package="game"
    ),
    Shape("mode", who="mode", first="combo", fxml="resources", thread="timeline"),
    Shape("fixed", who="fixed", first="check", fxml="beside", thread="thread", package="app.ui"),
)
"""The shapes that play whole games: every kind of choice, first mover, FXML place and
bot thread at least once."""

HOSTILE = (
    Shape("crashes", hostile="crash"),
    Shape("hangs", hostile="hang"),
    Shape("occupied", hostile="occupied"),
)

WRITES_FILES = Shape("writes", hostile="writes")
"""A program that tries at its start to write a file in every folder but its ``/tmp``."""

LATE_CRASH = Shape("crashes-late", who="bot_type", thread="thread", hostile="late-crash")
"""A program whose bot throws at its third move, from a thread of its own: its check (two
moves a game) passes, a rated game of more rounds is lost there."""

CRASHES_TWICE = Shape("crashes-twice", hostile="crash-twice")
"""A program whose bot catches its own exception at its second move, prints its trace and
returns no square: the window then throws a second exception of its own (a
``NullPointerException`` placing nothing), which is not the cause."""

NEEDS_JAVA_19 = Shape("java-19", hostile="java-19")
"""A program whose bot runs its search in an ``ExecutorService`` closed by
try-with-resources, as on the JDK 19+ of a student's IDE (``AutoCloseable`` from Java 19);
``javac`` 17 refuses it."""

FLOODS = Shape("floods", hostile="flood")
"""A program whose bot prints a stack trace of a caught exception, 16 times, for every
square it tries (megabytes a move), harmless in an IDE: it plays as any other."""

EXITS = Shape("exits", hostile="exits")
"""A program whose bot, at its second move, picks a square of its opponent's, says so
on its standard output and ends the JVM (``System.exit(1)``), as a project's own check
of its bot's answer does."""

DIAGONAL = Shape("diagonal", hostile="diagonal")
"""A program whose window flips all eight neighbours of a move, diagonals included, as
some teams' board code does: a rule difference, refused in those words."""

SPINS = Shape("spins", hostile="spin")
THINKS_ALOUD = (
    Shape("thinks-aloud", hostile="think-aloud"),
    Shape("thinks-aloud-thread", thread="thread", hostile="think-aloud"),
)
"""Bots that think past any clock at their second move, printing as they go (their prints
bury what the driver wrote of them on standard error): on the JavaFX thread, and on a
thread of their own."""
BOT_BUTTON = Shape("bot-button", thread="button")
"""The per-side shape whose bot moves only when its person presses ``Move Bot``, a
button enabled at the bot's turn, as some teams' windows do."""
NEXT_BUTTON = Shape("next-button", thread="next")
"""The per-side shape whose bot moves only when its person presses ``Next``, a word that
does not name the bot, beside the course window's ``End Game`` and ``Play New Game``
(each ends the program here, so a press of either shows)."""
"""A program whose bot thinks for 30 s of CPU at its second move: its clock stops it."""

PAUSE_SECONDS = 2.5
PAUSES = Shape("pauses", thread="pause", hostile="sleep")
"""A program whose window waits :data:`PAUSE_SECONDS` after the opponent's move before it
calls its bot (a ``Timeline``, so that a person sees the move first, as some teams' windows
do), and whose bot, at its third move, sleeps :data:`PAUSE_SECONDS` itself before it
answers."""

FORGES = Shape("forges", hostile="forge")
"""A program that speaks the engine protocol behind its window's back: at its bot's first
three moves it sends ``bestmove a1`` (a square never empty, so a line heard is an illegal
move) by each route a team's code in the driver's JVM might take (:data:`FORGE`), then
plays its bot's move through its window."""

ATTACKS = (
    Shape("no-window", hostile="no-window"),
    Shape("modal", hostile="modal"),
    Shape("displays", hostile="displays"),
)
"""Programs that go for the driver or the machine rather than the game: a window that
never opens, a modal dialog that never closes (at the bot's second move, on the JavaFX
thread), and one that looks for other games' displays and starts one of its own
(``Xvfb :77``) at its first move, throwing if it sees any display but its own."""

PERSON_OPTIONS = ["Person", "Bot Minimax", "Bot Random"]
BOT_OPTIONS = ["Minimax", "Local Search"]
MODE_OPTIONS = ["Person vs Person", "Person vs Bot", "Bot vs Person", "Bot vs Bot"]


def _combo(fx_id: str, label: str, row: int) -> str:
    return (
        f'    <Label text="{label}" GridPane.rowIndex="{row}"/>\n'
        f'    <ComboBox fx:id="{fx_id}" GridPane.rowIndex="{row}" GridPane.columnIndex="1"/>\n'
    )


def _fxml(shape: Shape, controller: str) -> str:
    rows = [
        '    <Label text="Player X name" GridPane.rowIndex="0"/>\n'
        '    <TextField fx:id="nameX" GridPane.rowIndex="0" GridPane.columnIndex="1"/>\n',
        '    <Label text="Player O name" GridPane.rowIndex="1"/>\n'
        '    <TextField fx:id="nameO" GridPane.rowIndex="1" GridPane.columnIndex="1"/>\n',
        _combo("numberOfRounds", "Number of rounds", 2),
    ]
    if shape.who == "per_side":
        rows += [_combo("typeX", "Player X", 3), _combo("typeO", "Player O", 4)]
    elif shape.who == "bot_type":
        rows.append(_combo("botType", "Bot", 3))
    elif shape.who == "mode":
        rows.append(_combo("gameMode", "Game mode", 3))
    row = len(rows)
    if shape.first == "check":
        text = "O moves first" if shape.who in ("per_side", "mode") else "Bot moves first"
        rows.append(f'    <CheckBox fx:id="firstBox" text="{text}" GridPane.rowIndex="{row}"/>\n')
    else:
        rows.append(_combo("firstMover", "First move", row))
    row += 1
    rows.append(
        f'    <HBox spacing="8" GridPane.rowIndex="{row}" GridPane.columnIndex="1">\n'
        '      <Button fx:id="playButton" text="Play" onAction="#play"/>\n'
        '      <Button text="Reset" onAction="#reset"/>\n'
        "    </HBox>\n"
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        "<?import javafx.scene.control.*?>\n<?import javafx.scene.layout.*?>\n"
        f'<GridPane xmlns:fx="http://javafx.com/fxml" fx:controller="{controller}" '
        'hgap="8" vgap="8" style="-fx-padding: 16">\n' + "".join(rows) + "</GridPane>\n"
    )


def _input_controller(shape: Shape, head: str) -> str:
    """The input window's controller: reads the form, opens the game."""
    fields = ["@FXML private TextField nameX;", "@FXML private TextField nameO;"]
    fields.append("@FXML private ComboBox<String> numberOfRounds;")
    init = [
        "for (int i = 2; i <= 28; i += 2) numberOfRounds.getItems().add(String.valueOf(i));",
        'numberOfRounds.setValue("28");',
    ]
    # xBot/oBot: the bot each side plays (null: a person); oFirst: O moves first.
    if shape.who == "per_side":
        fields += ["@FXML private ComboBox<String> typeX;", "@FXML private ComboBox<String> typeO;"]
        options = ", ".join(f'"{o}"' for o in PERSON_OPTIONS)
        init += [f"typeX.getItems().addAll({options});", f"typeO.getItems().addAll({options});"]
        init += ['typeX.setValue("Person");', 'typeO.setValue("Person");']
        who = (
            'String xBot = typeX.getValue().equals("Person") ? null : typeX.getValue();\n'
            '        String oBot = typeO.getValue().equals("Person") ? null : typeO.getValue();'
        )
    elif shape.who == "bot_type":
        fields.append("@FXML private ComboBox<String> botType;")
        init.append("botType.getItems().addAll(" + ", ".join(f'"{o}"' for o in BOT_OPTIONS) + ");")
        who = "String xBot = null;\n        String oBot = botType.getValue();"
    elif shape.who == "mode":
        fields.append("@FXML private ComboBox<String> gameMode;")
        init.append(
            "gameMode.getItems().addAll(" + ", ".join(f'"{o}"' for o in MODE_OPTIONS) + ");"
        )
        init.append('gameMode.setValue("Person vs Person");')
        who = (
            'String[] sides = gameMode.getValue().split(" vs ");\n'
            '        String xBot = sides[0].equals("Bot") ? "Minimax" : null;\n'
            '        String oBot = sides[1].equals("Bot") ? "Minimax" : null;'
        )
    else:
        who = 'String xBot = null;\n        String oBot = "Minimax";'
    if shape.first == "check":
        fields.append("@FXML private CheckBox firstBox;")
        if shape.who in ("per_side", "mode"):
            first = "boolean oFirst = firstBox.isSelected();"
        else:
            first = "boolean oFirst = firstBox.isSelected(); // the bot is O"
    else:
        fields.append("@FXML private ComboBox<String> firstMover;")
        if shape.who in ("per_side", "mode"):
            init += ['firstMover.getItems().addAll("Player X", "Player O");']
            init.append('firstMover.setValue("Player X");')
            first = 'boolean oFirst = firstMover.getValue().equals("Player O");'
        else:
            init += [
                'firstMover.getItems().addAll("Person", "Bot");',
                'firstMover.setValue("Person");',
            ]
            first = 'boolean oFirst = firstMover.getValue().equals("Bot");'
    body = "\n    ".join(fields)
    inits = "\n        ".join(init)
    return f"""{head}import javafx.fxml.FXML;
import javafx.scene.control.Alert;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.TextField;

public class InputController {{
    {body}

    @FXML
    private void initialize() {{
        {inits}
    }}

    @FXML
    private void play() {{
        if (nameX.getText().isBlank() || nameO.getText().isBlank()) {{
            new Alert(Alert.AlertType.ERROR, "Please fill in both names").showAndWait();
            return;
        }}
        {who}
        {first}
        int rounds = Integer.parseInt(numberOfRounds.getValue());
        new GameWindow(rounds, xBot, oBot, oFirst).open();
    }}

    @FXML
    private void reset() {{
        nameX.clear();
        nameO.clear();
    }}
}}
"""


def _bot(shape: Shape, head: str) -> str:
    hostile = {
        "": "",
        "crash": 'if (moves == 2) throw new IllegalStateException("the bot lost its way");',
        "late-crash": 'if (moves == 3) throw new IllegalStateException("the bot lost its way");',
        "hang": (
            "if (moves == 2) while (true) {"
            " try { Thread.sleep(1000); } catch (InterruptedException e) { } }"
        ),
        "occupied": (
            "if (moves == 2) for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++)"
            " if (!b[i][j].isEmpty() && !b[i][j].equals(me)) return new int[] {i, j};"
        ),
        "spin": (
            "if (moves == 2) { long until = System.nanoTime() + 30_000_000_000L;"
            " long n = 0; while (System.nanoTime() < until) n++; if (n < 0) return null; }"
        ),
        "think-aloud": (
            "if (moves == 2) { long until = System.nanoTime() + 30_000_000_000L; long n = 0;"
            " while (System.nanoTime() < until)"
            ' if (++n % 20_000 == 0) System.out.println("tried " + n); }'
        ),
        "crash-twice": (
            'if (moves == 2) try { throw new IllegalStateException("the bot lost its way"); }'
            " catch (IllegalStateException e) { e.printStackTrace(); return null; }"
        ),
        "java-19": (
            "try (java.util.concurrent.ExecutorService pool ="
            " java.util.concurrent.Executors.newSingleThreadExecutor()) {"
            " pool.submit(() -> moves); }"
        ),
        "flood": (
            "for (int k = 0; k < 64; k++) try { if (b[k / 8][k % 8].length() >= 0)"
            ' throw new IllegalStateException("square " + k + " tried"); }'
            " catch (IllegalStateException e) { for (int r = 0; r < 16; r++)"
            " e.printStackTrace(); }"
        ),
        "sleep": (
            f"if (moves == 3) try {{ Thread.sleep({PAUSE_SECONDS * 1000:.0f}); }}"
            " catch (InterruptedException e) { }"
        ),
        "no-window": "",
        "writes": "",
        "diagonal": "",
        "exits": (
            "if (moves == 2) for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++)"
            " if (!b[i][j].isEmpty() && !b[i][j].equals(me)) {"
            ' System.out.println("Bot chose (" + i + ", " + j + "), which is taken");'
            " System.exit(1); }"
        ),
        "forge": "if (moves <= 3) Forge.at(moves);",
        "modal": (
            "if (moves == 2) { javafx.stage.Stage s = new javafx.stage.Stage();"
            " s.initModality(javafx.stage.Modality.APPLICATION_MODAL);"
            ' s.setScene(new javafx.scene.Scene(new javafx.scene.control.Label("thinking")));'
            " s.setOnCloseRequest(e -> e.consume()); s.showAndWait(); }"
        ),
        "displays": (
            "if (moves == 1) { java.io.File[] seen ="
            ' new java.io.File("/tmp/.X11-unix").listFiles();'
            ' String own = "X" + String.valueOf(System.getenv("DISPLAY")).replace(":", "");'
            " if (seen != null) for (java.io.File f : seen) if (!f.getName().equals(own))"
            ' throw new IllegalStateException("saw another display: " + f.getName());'
            ' try { new ProcessBuilder("/usr/bin/Xvfb", ":77", "-nolisten", "tcp").start(); }'
            " catch (java.io.IOException e) { } }"
        ),
    }[shape.hostile]
    return f"""{head}public class Bot {{
    private final boolean fromTop;
    private int moves;

    public Bot(String kind) {{
        fromTop = kind.equals("Minimax") || kind.equals("Bot Minimax");
    }}

    /** The empty square turning the most of the other side's pieces. */
    public int[] move(String[][] b, String me) {{
        moves++;
        {hostile}
        String other = me.equals("X") ? "O" : "X";
        int[] best = null;
        int most = -1;
        for (int k = 0; k < 64; k++) {{
            int i = fromTop ? k / 8 : 7 - k / 8, j = fromTop ? k % 8 : 7 - k % 8;
            if (!b[i][j].isEmpty()) continue;
            int turned = 0;
            if (i > 0 && b[i - 1][j].equals(other)) turned++;
            if (i < 7 && b[i + 1][j].equals(other)) turned++;
            if (j > 0 && b[i][j - 1].equals(other)) turned++;
            if (j < 7 && b[i][j + 1].equals(other)) turned++;
            if (turned > most) {{ most = turned; best = new int[] {{i, j}}; }}
        }}
        return best;
    }}
}}
"""


def _game_window(shape: Shape, head: str) -> str:
    if shape.thread == "fx":
        think = "place(bot.move(marks(), turn));"
    elif shape.thread == "thread":
        think = (
            "String[][] now = marks();\n"
            "        String me = turn;\n"
            "        Thread t = new Thread(() -> {\n"
            "            try { Thread.sleep(20); } catch (InterruptedException e) { return; }\n"
            "            int[] m = bot.move(now, me);\n"
            "            Platform.runLater(() -> place(m));\n"
            "        });\n"
            "        t.setDaemon(true);\n"
            "        t.start();"
        )
    elif shape.thread == "pause":  # the person sees the opponent's move first
        think = (
            "Timeline later = new Timeline(new KeyFrame("
            f"Duration.millis({PAUSE_SECONDS * 1000:.0f}), e -> place(bot.move(marks(), turn))));\n"
            "        later.play();"
        )
    elif shape.thread in ("button", "next"):  # waits for its person to press its button
        think = "moveBot.setDisable(false);"
    else:
        think = (
            "Timeline later = new Timeline(new KeyFrame(Duration.millis(30),"
            " e -> place(bot.move(marks(), turn))));\n"
            "        later.play();"
        )
    show = "show()" if shape.thread in ("timeline", "pause") else "showAndWait()"
    button = shape.thread in ("button", "next")
    label = "Next" if shape.thread == "next" else "Move Bot"
    move_bot = f'    private final Button moveBot = new Button("{label}");\n' if button else ""
    ends = shape.thread == "next"  # the course window's own buttons beside it
    move_bot += (
        '    private final Button endGame = new Button("End Game");\n'
        '    private final Button newGame = new Button("Play New Game");\n'
        if ends
        else ""
    )
    steps = "{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}"
    if shape.hostile == "diagonal":  # the eight neighbours: not the course's rule
        steps = "{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-1, -1}, {-1, 1}, {1, -1}, {1, 1}}"
    panes = "status, moveBot, endGame, newGame, grid" if ends else "status, moveBot, grid"
    panes = panes if button else "status, grid"
    press = (
        "        moveBot.setDisable(true);\n"
        "        moveBot.setOnAction(e -> {\n"
        "            moveBot.setDisable(true);\n"
        "            if (botToMove() != null) place(botToMove().move(marks(), turn));\n"
        "        });\n"
        if button
        else ""
    )
    if ends:
        press += (
            "        endGame.setOnAction(e -> Platform.exit());\n"
            "        newGame.setOnAction(e -> Platform.exit());\n"
        )
    return f"""{head}import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.util.Duration;

public class GameWindow {{
    private final Button[][] buttons = new Button[8][8];
    private final Label status = new Label();
    private final Bot xBot, oBot;
    private int pliesLeft;
    private String turn;
    private boolean thinking;
{move_bot}
    public GameWindow(int rounds, String xBot, String oBot, boolean oFirst) {{
        this.xBot = xBot == null ? null : new Bot(xBot);
        this.oBot = oBot == null ? null : new Bot(oBot);
        this.pliesLeft = 2 * rounds;
        this.turn = oFirst ? "O" : "X";
    }}

    public void open() {{
        GridPane grid = new GridPane();
        for (int i = 0; i < 8; i++) {{
            for (int j = 0; j < 8; j++) {{
                Button cell = new Button();
                cell.setPrefSize(44, 44);
                if (i >= 6 && j <= 1) cell.setText("X");
                if (i <= 1 && j >= 6) cell.setText("O");
                int row = i, col = j;
                cell.setOnAction(e -> clicked(row, col));
                buttons[i][j] = cell;
                grid.add(cell, j, i);
            }}
        }}
{press}        Stage stage = new Stage();
        stage.setTitle("Game Board");
        stage.setScene(new Scene(new VBox(8, {panes})));
        stage.show();
        showStatus();
        if (botToMove() != null) think();
    }}

    private Bot botToMove() {{
        return turn.equals("X") ? xBot : oBot;
    }}

    private void clicked(int i, int j) {{
        if (thinking || pliesLeft == 0 || botToMove() != null) return;
        if (!buttons[i][j].getText().isEmpty()) return;
        place(new int[] {{i, j}});
    }}

    private String[][] marks() {{
        String[][] m = new String[8][8];
        for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) m[i][j] = buttons[i][j].getText();
        return m;
    }}

    private void think() {{
        thinking = true;
        Bot bot = botToMove();
        {think}
    }}

    private void place(int[] m) {{
        thinking = false;
        int i = m[0], j = m[1];
        String other = turn.equals("X") ? "O" : "X";
        buttons[i][j].setText(turn);
        int[][] steps = {steps};
        for (int[] s : steps) {{
            int a = i + s[0], c = j + s[1];
            if (a < 0 || a >= 8 || c < 0 || c >= 8) continue;
            if (buttons[a][c].getText().equals(other)) buttons[a][c].setText(turn);
        }}
        turn = other;
        pliesLeft--;
        showStatus();
        if (pliesLeft == 0) {{
            int x = 0, o = 0;
            for (Button[] row : buttons) for (Button b : row) {{
                if (b.getText().equals("X")) x++;
                if (b.getText().equals("O")) o++;
            }}
            String text = x > o ? "Player X wins" : o > x ? "Player O wins" : "A draw";
            new Alert(Alert.AlertType.INFORMATION, text + " (" + x + " - " + o + ")").{show};
            return;
        }}
        if (botToMove() != null) think();
    }}

    private void showStatus() {{
        status.setText("Rounds left: " + (pliesLeft + 1) / 2 + ", " + turn + " to move");
    }}
}}
"""


WRITES = """for (String where : new String[] {"/out", "/box", "/box/classes", ".", "/", "/etc"}) {
            try {
                java.nio.file.Path file = java.nio.file.Path.of(where, "fill.bin");
                java.nio.file.Files.write(file, new byte[1 << 20]);
            } catch (java.io.IOException | RuntimeException refused) {
                continue;
            }
            throw new IllegalStateException("wrote a file in " + where);
        }"""
"""What the ``writes`` program tries at its start: a file in each folder it might write
besides its private ``/tmp``, throwing if one is written."""


FORGE = """{head}import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;

/** The engine protocol spoken behind the window's back: a move never on the board. */
final class Forge {{
    static final String LINE = "bestmove a1";

    /** At the bot's move {{@code move}}: the JVM's own standard output, the driver's stream
     * by reflection from the handler of uncaught exceptions, the protocol's descriptors by
     * their names under /proc. */
    static void at(int move) {{
        try {{
            switch (move) {{
                case 1 -> {{
                    FileOutputStream own = new FileOutputStream(FileDescriptor.out);
                    PrintStream out = new PrintStream(own, true);
                    out.println(LINE);
                    out.flush();
                }}
                case 2 -> reach(Thread.getDefaultUncaughtExceptionHandler(), 0);
                default -> {{
                    for (int fd = 0; fd <= 4; fd++) {{
                        try (FileOutputStream out = new FileOutputStream("/proc/self/fd/" + fd)) {{
                            out.write((LINE + "\\n").getBytes(StandardCharsets.UTF_8));
                        }} catch (IOException | RuntimeException refused) {{
                            System.err.println("forge: /proc/self/fd/" + fd + ": " + refused);
                        }}
                    }}
                }}
            }}
        }} catch (RuntimeException refused) {{
            System.err.println("forge at move " + move + ": " + refused);
        }}
        try {{
            Thread.sleep(300); // the forged line first
        }} catch (InterruptedException e) {{
            Thread.currentThread().interrupt();
        }}
    }}

    /** Every stream reachable from {{@code value}} by its fields, told the line. */
    static void reach(Object value, int depth) {{
        if (value == null || depth > 3) return;
        if (value instanceof PrintStream stream) {{
            stream.println(LINE);
            stream.flush();
            return;
        }}
        Class<?> type = value.getClass();
        for (; type != null && type != Object.class; type = type.getSuperclass()) {{
            for (Field field : type.getDeclaredFields()) {{
                int modifiers = field.getModifiers();
                if (Modifier.isStatic(modifiers) || field.getType().isPrimitive()) continue;
                try {{
                    field.setAccessible(true);
                    reach(field.get(value), depth + 1);
                }} catch (RuntimeException | IllegalAccessException refused) {{
                    System.err.println("forge: " + field + ": " + refused);
                }}
            }}
        }}
    }}
}}
"""
"""The ``forges`` program's routes to the protocol (:data:`FORGES`)."""


def _main(shape: Shape, head: str, qualified: str) -> str:
    where = {
        "beside": '"InputFrame.fxml"',
        "folder": '"/view/InputFrame.fxml"',
        "resources": '"/InputFrame.fxml"',
    }[shape.fxml]
    return f"""{head}import javafx.application.Application;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.stage.Stage;

public class Main extends Application {{
    @Override
    public void start(Stage stage) throws Exception {{
        {WRITES if shape.hostile == "writes" else ""}
        Parent root = FXMLLoader.load(getClass().getResource({where}));
        stage.setTitle("Adjacency Strategy Game");
        stage.setScene(new Scene(root));
        {"" if shape.hostile == "no-window" else "stage.show();"}
    }}

    public static void main(String[] args) {{
        launch(args);
    }}
}}
"""


IML = """<?xml version="1.0" encoding="UTF-8"?>
<module type="JAVA_MODULE" version="4">
  <component name="NewModuleRootManager" inherit-compiler-output="true">
    <content url="file://$MODULE_DIR$">
      <sourceFolder url="file://$MODULE_DIR$/src" isTestSource="false" />
      <sourceFolder url="file://$MODULE_DIR$/assets" type="java-resource" />
    </content>
  </component>
</module>
"""


def files(shape: Shape) -> dict[str, str]:
    """The project's files (path -> text), as a team's repository holds them."""
    if shape.form:
        return form_files(shape)
    head = f"package {shape.package};\n\n" if shape.package else ""
    folder = "src/" + (shape.package.replace(".", "/") + "/" if shape.package else "")
    prefix = shape.package + "." if shape.package else ""
    out = {
        folder + "Main.java": _main(shape, head, prefix + "Main"),
        folder + "InputController.java": _input_controller(shape, head),
        folder + "GameWindow.java": _game_window(shape, head),
        folder + "Bot.java": _bot(shape, head),
        "README.md": f"# Adjacency ({shape.name})\n\nRun Main.\n",
    }
    if shape.hostile == "forge":
        out[folder + "Forge.java"] = FORGE.format(head=head)
    fxml = _fxml(shape, prefix + "InputController")
    if shape.fxml == "beside":
        out[folder + "InputFrame.fxml"] = fxml
    elif shape.fxml == "folder":
        out["src/view/InputFrame.fxml"] = fxml
    else:
        out["assets/InputFrame.fxml"] = fxml
        out[f"{shape.name}.iml"] = IML
    return out


FORMS = (
    Shape("blank-first", form="blank"),
    Shape("selects-last", form="last"),
    Shape("stacked", form="stacked"),
    Shape("first-window", form="windows"),
    Shape("per-player", form="sides"),
    Shape("bot-never-first", form="second"),
    Shape("unread-first", form="unread"),
    Shape("radios", form="radios"),
)
"""Input forms as real course projects write them, each played from its Download ZIP
(:func:`form_files`; the game window and the bots are the other shapes'):

- ``blank-first``: the bot box and the rounds box start with a blank option and show it
  (``Bot:``, with a colon); the program refuses to play a blank bot or blank rounds.
  The first mover is a check box named by its own text; the start button is
  ``Mainkan``, with ``Reset`` after it.
- ``selects-last``: the bot box (``Bot``, no colon: Local Search, Minimax, Genetic) shows
  its last option, Genetic: the league plays Minimax, the course's adversarial search.
- ``stacked``: a game-mode box whose options name both players, showing ``Human vs
  Human``; three panes stacked in the form's grid, one shown by the mode (its nodes
  hidden and unmanaged), a hidden pane's label in the bot box's row before it; the bot
  box in the ``Human vs Bot`` pane shows no option (the program throws on none).
- ``first-window``: a first window chooses the mode by its buttons (``Human vs Bot``,
  then ``Bot vs Bot``, in which the program plays itself) and opens the input form.
- ``per-player``: a box per player (``Player X:``, ``Player O:``: Human, Minimax, Local
  Search, each showing Human) and no control for who moves first: X always does.
- ``bot-never-first``: a bot box and no control for who moves first: the person, X,
  always does, so its bot can never move first.
- ``unread-first``: a bot box and a check box that lets the bot move first in words the
  reading does not take for it (``AI starts``): the team names it; a check box ``Bot vs
  Bot?`` (``allBotMode``), unchecked, makes X a bot too: a game the league never plays.
- ``radios``: radio buttons instead of boxes, each group a toggle group made in the
  controller: the bot's (``Local Search`` first and selected, then ``Minimax`` and
  ``Genetic``) in the grid's row of ``Bot algorithm:``, and who moves first (``Bot``,
  ``Person``, showing Person) in a pane beside ``Who moves first:``.
"""


TWO_BOTS_FORM = Shape("two-bots", form="bots", thread="timeline")
"""A form of two bot boxes (``Bot X:``, ``Bot O:``: Minimax, Local Search) and no person
side: Play opens the board, where the program's two bots play each other (a move every
30 ms or so), which no league game can be."""


MENU_FORM = Shape("mode-menu", form="menu")
"""A first window that chooses a mode by its buttons (``Bot vs Human``, ``Human vs
Human``), each opening the input form, whose bot's controls name its mark: ``Bot Name
(O):`` and ``Bot Algorithm (O):`` (Minimax, Local Search), with a check box ``Bot moves
first``. The bot always plays O, whatever the mode's words put first."""

ORDER_FORM = Shape("mode-order", form="order")
"""A ``Playing Method:`` box whose options name the same players in both orders
(``Human vs MinMax``, showing, and ``MinMax vs Human``) and no other control for who
moves first: the order is who moves first, the bot always plays O."""


def _form_fxml(shape: Shape, controller: str) -> str:
    """The input form of a :data:`FORMS` shape."""
    rows = [
        '  <Label text="Player X name:" GridPane.rowIndex="0"/>\n'
        '  <TextField fx:id="nameX" GridPane.rowIndex="0" GridPane.columnIndex="1"/>\n'
        '  <Label text="Player O name" GridPane.rowIndex="1"/>\n'
        '  <TextField fx:id="nameO" GridPane.rowIndex="1" GridPane.columnIndex="1"/>\n'
        '  <Label text="Number of rounds: " GridPane.rowIndex="2"/>\n'
        '  <ComboBox fx:id="numberOfRounds" GridPane.rowIndex="2" GridPane.columnIndex="1"/>\n'
    ]
    if shape.form == "stacked":
        hidden = 'visible="false" managed="false"'
        rows.append(
            '  <Label text="Game mode:" GridPane.rowIndex="3"/>\n'
            '  <ComboBox fx:id="gameMode" GridPane.rowIndex="3" GridPane.columnIndex="1"/>\n'
            # the person-vs-person pane: who goes first, by name
            f'  <Label fx:id="whoLabel" text="Who goes first:" GridPane.rowIndex="4" {hidden}/>\n'
            f'  <ComboBox fx:id="whoFirst" GridPane.rowIndex="4" GridPane.columnIndex="1"/>\n'
            # the person-vs-bot pane
            f'  <Label fx:id="algoLabel" text="Bot algorithm:" GridPane.rowIndex="4" {hidden}/>\n'
            f'  <ComboBox fx:id="botAlgorithm" GridPane.rowIndex="4" GridPane.columnIndex="1"'
            f" {hidden}/>\n"
            f'  <CheckBox fx:id="botFirst" text="Bot goes first" GridPane.rowIndex="5" {hidden}/>\n'
            # the bot-vs-bot pane
            f'  <VBox fx:id="botsPane" GridPane.rowIndex="4" {hidden}>\n'
            '    <Label text="Bot X"/>\n    <ComboBox fx:id="botX"/>\n'
            '    <Label text="Bot O"/>\n    <ComboBox fx:id="botO"/>\n'
            "  </VBox>\n"
        )
    elif shape.form == "menu":
        rows.append(
            '  <Label text="Bot Name (O):" GridPane.rowIndex="3"/>\n'
            '  <TextField fx:id="botName" GridPane.rowIndex="3" GridPane.columnIndex="1"/>\n'
            '  <Label text="Bot Algorithm (O):" GridPane.rowIndex="4"/>\n'
            '  <ComboBox fx:id="botAlgorithm" GridPane.rowIndex="4" GridPane.columnIndex="1"/>\n'
            '  <CheckBox fx:id="firstBox" text="Bot moves first" GridPane.rowIndex="5"/>\n'
        )
    elif shape.form == "order":
        rows.append(
            '  <Label text="Playing Method:" GridPane.rowIndex="3"/>\n'
            '  <ComboBox fx:id="playingMethod" GridPane.rowIndex="3" GridPane.columnIndex="1"/>\n'
        )
    elif shape.form == "bots":
        rows.append(
            '  <Label text="Bot X:" GridPane.rowIndex="3"/>\n'
            '  <ComboBox fx:id="botX" GridPane.rowIndex="3" GridPane.columnIndex="1"/>\n'
            '  <Label text="Bot O:" GridPane.rowIndex="4"/>\n'
            '  <ComboBox fx:id="botO" GridPane.rowIndex="4" GridPane.columnIndex="1"/>\n'
        )
    elif shape.form == "sides":
        rows.append(
            '  <Label text="Player X:" GridPane.rowIndex="3"/>\n'
            '  <ComboBox fx:id="typeX" GridPane.rowIndex="3" GridPane.columnIndex="1"/>\n'
            '  <Label text="Player O:" GridPane.rowIndex="4"/>\n'
            '  <ComboBox fx:id="typeO" GridPane.rowIndex="4" GridPane.columnIndex="1"/>\n'
        )
    elif shape.form == "radios":
        rows.append(
            '  <Label text="Bot algorithm:" GridPane.rowIndex="3"/>\n'
            '  <RadioButton fx:id="local" text="Local Search" GridPane.rowIndex="3"'
            ' GridPane.columnIndex="1"/>\n'
            '  <RadioButton fx:id="minimax" text="Minimax" GridPane.rowIndex="3"'
            ' GridPane.columnIndex="2"/>\n'
            '  <RadioButton fx:id="genetic" text="Genetic" GridPane.rowIndex="3"'
            ' GridPane.columnIndex="3"/>\n'
            '  <Label text="Who moves first:" GridPane.rowIndex="4"/>\n'
            '  <HBox spacing="8" GridPane.rowIndex="4" GridPane.columnIndex="1">\n'
            '    <RadioButton fx:id="botFirst" text="Bot"/>\n'
            '    <RadioButton fx:id="personFirst" text="Person"/>\n'
            "  </HBox>\n"
        )
    elif shape.form in ("blank", "last", "windows", "second", "unread"):
        label = "Bot:" if shape.form == "blank" else "Bot"
        rows.append(
            f'  <Label text="{label}" GridPane.rowIndex="3"/>\n'
            '  <ComboBox fx:id="botType" GridPane.rowIndex="3" GridPane.columnIndex="1"/>\n'
        )
        if shape.form == "unread":
            rows.append(
                '  <CheckBox fx:id="aiStarts" text="AI starts" GridPane.rowIndex="4"/>\n'
                '  <CheckBox fx:id="allBotMode" text="Bot vs Bot?" GridPane.rowIndex="5"/>\n'
            )
        elif shape.form != "second":
            rows.append(
                '  <CheckBox fx:id="firstBox" text="Bot moves first" GridPane.rowIndex="4"/>\n'
            )
    rows.append(
        '  <HBox spacing="8" GridPane.rowIndex="6" GridPane.columnIndex="1">\n'
        '    <Button text="Mainkan" onAction="#play"/>\n'
        '    <Button text="Reset" onAction="#reset"/>\n'
        "  </HBox>\n"
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        "<?import javafx.scene.control.*?>\n<?import javafx.scene.layout.*?>\n"
        f'<GridPane xmlns:fx="http://javafx.com/fxml" fx:controller="{controller}" '
        'hgap="8" vgap="8" style="-fx-padding: 16">\n' + "".join(rows) + "</GridPane>\n"
    )


def _per_side(form: str, fields: list[str], init: list[str]) -> str:
    """A box per side (``sides``: Human, Minimax, Local Search; ``bots``: bots only)
    added to the controller's ``fields`` and ``init``; the code that reads the sides."""
    x, o = ("typeX", "typeO") if form == "sides" else ("botX", "botO")
    bots = '"Minimax", "Local Search"'
    options = f'"Human", {bots}' if form == "sides" else bots
    fields += [f"@FXML private ComboBox<String> {x};", f"@FXML private ComboBox<String> {o};"]
    for box in (x, o):
        init.append(f"{box}.getItems().addAll({options});")
        init.append(f"{box}.getSelectionModel().select(0);")
    return (
        f'String xBot = {x}.getValue().equals("Human") ? null : {x}.getValue();\n'
        f'        String oBot = {o}.getValue().equals("Human") ? null : {o}.getValue();\n'
        "        boolean oFirst = false;"
    )


def _form_controller(shape: Shape) -> str:
    """The controller of a :data:`FORMS` shape's input form."""
    fields = [
        "@FXML private TextField nameX;",
        "@FXML private TextField nameO;",
        "@FXML private ComboBox<String> numberOfRounds;",
    ]
    init = [
        "for (int i = 2; i <= 28; i += 2) numberOfRounds.getItems().add(String.valueOf(i));",
        "numberOfRounds.getSelectionModel().selectLast();",
    ]
    if shape.form == "blank":  # the rounds too start blank, as shown
        init = [
            'numberOfRounds.getItems().add("");',
            init[0],
            "numberOfRounds.getSelectionModel().select(0);",
        ]
    if shape.form == "stacked":
        fields += [
            "@FXML private ComboBox<String> gameMode;",
            "@FXML private Label whoLabel;",
            "@FXML private ComboBox<String> whoFirst;",
            "@FXML private Label algoLabel;",
            "@FXML private ComboBox<String> botAlgorithm;",
            "@FXML private CheckBox botFirst;",
            "@FXML private VBox botsPane;",
            "@FXML private ComboBox<String> botX;",
            "@FXML private ComboBox<String> botO;",
        ]
        init += [
            'gameMode.getItems().addAll("Human vs Human", "Human vs Bot", "Bot vs Bot");',
            'whoFirst.getItems().addAll("Player X", "Player O");',
            "whoFirst.getSelectionModel().select(0);",
            'botAlgorithm.getItems().addAll("Minimax", "Local Search");',
            'botX.getItems().addAll("Minimax", "Local Search");',
            'botO.getItems().addAll("Minimax", "Local Search");',
            "botX.getSelectionModel().select(0);",
            "botO.getSelectionModel().select(0);",
            "gameMode.valueProperty().addListener((seen, was, now) -> show(now));",
            'gameMode.getSelectionModel().select("Human vs Human");',
        ]
        who = (
            "String mode = gameMode.getValue();\n"
            '        String xBot = mode.equals("Bot vs Bot") ? botX.getValue() : null;\n'
            '        String oBot = mode.equals("Human vs Bot") ? botAlgorithm.getValue().trim()'
            ' : mode.equals("Bot vs Bot") ? botO.getValue() : null;\n'
            '        boolean oFirst = mode.equals("Human vs Bot") ? botFirst.isSelected()'
            ' : whoFirst.getValue().equals("Player O");'
        )
        extra = """
    private void show(String mode) {
        for (Node n : new Node[] {whoLabel, whoFirst}) pane(n, mode.equals("Human vs Human"));
        boolean bot = mode.equals("Human vs Bot");
        for (Node n : new Node[] {algoLabel, botAlgorithm, botFirst}) pane(n, bot);
        pane(botsPane, mode.equals("Bot vs Bot"));
    }

    private static void pane(Node node, boolean shown) {
        node.setVisible(shown);
        node.setManaged(shown);
    }
"""
    elif shape.form == "radios":
        fields += [
            "@FXML private RadioButton local;",
            "@FXML private RadioButton minimax;",
            "@FXML private RadioButton genetic;",
            "@FXML private RadioButton botFirst;",
            "@FXML private RadioButton personFirst;",
        ]
        init += [
            "ToggleGroup bots = new ToggleGroup();",
            "local.setToggleGroup(bots);",
            "minimax.setToggleGroup(bots);",
            "genetic.setToggleGroup(bots);",
            "local.setSelected(true);",
            "ToggleGroup first = new ToggleGroup();",
            "botFirst.setToggleGroup(first);",
            "personFirst.setToggleGroup(first);",
            "personFirst.setSelected(true);",
        ]
        who = (
            "String xBot = null;\n"
            '        String oBot = minimax.isSelected() ? "Minimax"'
            ' : genetic.isSelected() ? "Genetic" : "Local Search";\n'
            "        boolean oFirst = botFirst.isSelected();"
        )
        extra = ""
    elif shape.form in ("bots", "sides"):
        who = _per_side(shape.form, fields, init)
        extra = ""
    elif shape.form == "menu":
        fields += [
            "@FXML private TextField botName;",
            "@FXML private ComboBox<String> botAlgorithm;",
            "@FXML private CheckBox firstBox;",
        ]
        init += [
            'botAlgorithm.getItems().addAll("Minimax", "Local Search");',
            "botAlgorithm.getSelectionModel().select(0);",
        ]
        who = (
            "String xBot = null;\n"
            "        String oBot = Main.botsOnly ? null : botAlgorithm.getValue();\n"
            "        boolean oFirst = oBot != null && firstBox.isSelected();"
        )
        extra = ""
    elif shape.form == "order":
        fields.append("@FXML private ComboBox<String> playingMethod;")
        init += [
            'playingMethod.getItems().addAll("Human vs MinMax", "MinMax vs Human");',
            "playingMethod.getSelectionModel().select(0);",
        ]
        who = (
            "String xBot = null;\n"
            '        String oBot = "Minimax";\n'
            '        boolean oFirst = playingMethod.getValue().equals("MinMax vs Human");'
        )
        extra = ""
    else:
        fields.append("@FXML private ComboBox<String> botType;")
        if shape.form == "unread":
            fields.append("@FXML private CheckBox aiStarts;")
            fields.append("@FXML private CheckBox allBotMode;")
        elif shape.form != "second":
            fields.append("@FXML private CheckBox firstBox;")
        options = {
            "second": '"Minimax", "Local Search"',
            "blank": '"", "Minimax", "Local Search"',
            "last": '"Local Search", "Minimax", "Genetic"',
            "windows": '"Minimax", "Local Search"',
            "unread": '"Minimax", "Local Search"',
        }[shape.form]
        init.append(f"botType.getItems().addAll({options});")
        init.append(
            "botType.getSelectionModel().selectLast();"
            if shape.form == "last"
            else "botType.getSelectionModel().select(0);"
        )
        if shape.form == "windows":
            who = (
                "String xBot = Main.botsOnly ? botType.getValue() : null;\n"
                "        String oBot = botType.getValue();\n"
                "        boolean oFirst = firstBox.isSelected();"
            )
        else:
            unread = shape.form == "unread"
            both = "allBotMode.isSelected() ? botType.getValue() : " if unread else ""
            who = (
                f"String xBot = {both}null;\n"
                "        String oBot = botType.getValue();\n"
                "        boolean oFirst = "
                + {"second": "false;", "unread": "aiStarts.isSelected();"}.get(
                    shape.form, "firstBox.isSelected();"
                )
            )
        extra = ""
    body = "\n    ".join(fields)
    inits = "\n        ".join(init)
    return f"""import javafx.fxml.FXML;
import javafx.scene.Node;
import javafx.scene.control.Alert;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.VBox;

public class InputController {{
    {body}

    @FXML
    private void initialize() {{
        {inits}
    }}
{extra}
    @FXML
    private void play() {{
        if (nameX.getText().isBlank() || nameO.getText().isBlank()) {{
            new Alert(Alert.AlertType.ERROR, "Please fill in both names").showAndWait();
            return;
        }}
        if (numberOfRounds.getValue() == null || numberOfRounds.getValue().isBlank()) {{
            new Alert(Alert.AlertType.ERROR, "Number of rounds is blank").showAndWait();
            return;
        }}
        {who}
        if (oBot != null && oBot.isEmpty()) {{
            new Alert(Alert.AlertType.ERROR, "Choose player 2").showAndWait();
            return;
        }}
        int rounds = Integer.parseInt(numberOfRounds.getValue());
        new GameWindow(rounds, xBot, oBot, oFirst).open();
    }}

    @FXML
    private void reset() {{
        nameX.clear();
        nameO.clear();
    }}
}}
"""


FIRST_WINDOW = """import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;

public class Menu {
    public static void open(Stage stage) {
        Button human = new Button("Human vs Bot");
        Button bots = new Button("Bot vs Bot");
        human.setOnAction(e -> form(stage, false));
        bots.setOnAction(e -> form(stage, true));
        stage.setTitle("Adjacency");
        stage.setScene(new Scene(new VBox(8, new Label("Choose a game"), human, bots)));
        stage.show();
    }

    private static void form(Stage menu, boolean botsOnly) {
        Main.botsOnly = botsOnly;
        try {
            Parent root = FXMLLoader.load(Menu.class.getResource("InputFrame.fxml"));
            Stage stage = new Stage();
            stage.setTitle("Game settings");
            stage.setScene(new Scene(root));
            stage.show();
            menu.hide();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
"""
"""The first window of the ``first-window`` shape: a mode by its buttons, each opening
the input form."""


MENU_WINDOW = FIRST_WINDOW.replace('"Human vs Bot"', '"Bot vs Human"').replace(
    '"Bot vs Bot"', '"Human vs Human"'
)
"""The first window of the ``mode-menu`` shape: ``Bot vs Human`` opens the form with its
bot, ``Human vs Human`` (``botsOnly`` here meaning no bot) without."""


def form_files(shape: Shape) -> dict[str, str]:
    """The files of a :data:`FORMS` shape (path -> text), as a team's repository holds
    them."""
    if shape.form in ("windows", "menu"):
        main = _main(shape, "", "Main").replace(
            "public class Main extends Application {",
            "public class Main extends Application {\n    static boolean botsOnly;",
        )
        start = main.index("        Parent root")
        end = main.index("    }\n\n    public static void main")
        main = main[:start] + "        Menu.open(stage);\n" + main[end:]
    else:
        main = _main(shape, "", "Main")
    out = {
        "src/Main.java": main,
        "src/InputController.java": _form_controller(shape),
        "src/GameWindow.java": _game_window(shape, ""),
        "src/Bot.java": _bot(shape, ""),
        "src/InputFrame.fxml": _form_fxml(shape, "InputController"),
        "README.md": f"# Adjacency ({shape.name})\n\nRun Main.\n",
    }
    if shape.form in ("windows", "menu"):
        out["src/Menu.java"] = FIRST_WINDOW if shape.form == "windows" else MENU_WINDOW
    return out


def main_class(shape: Shape) -> str:
    return (shape.package + "." if shape.package else "") + "Main"


def write(shape: Shape, folder: Path) -> Path:
    """Write ``shape``'s project under ``folder``; its root."""
    root = folder / shape.name
    for name, text in files(shape).items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def bot_move(position: Position, from_top: bool, half_turn: bool) -> str:
    """The square a shape's bot picks in ``position`` (the league's terms), its window's
    board being the league's (``half_turn`` False) or turned by half a turn."""
    n = position.rows
    me = position.turn.upper()
    cells: list[list[str]] = [["" for _ in range(n)] for _ in range(n)]
    for r in range(n):
        for c in range(n):
            owner = position.piece_at(f"{chr(ord('a') + c)}{n - r}")
            if owner is not None:
                rr, cc = (n - 1 - r, n - 1 - c) if half_turn else (r, c)
                cells[rr][cc] = owner.upper()
    best: tuple[int, int] | None = None
    most = -1
    for k in range(n * n):
        i, j = (k // n, k % n) if from_top else (n - 1 - k // n, n - 1 - k % n)
        if cells[i][j]:
            continue
        turned = sum(
            1
            for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1))
            if 0 <= a < n and 0 <= b < n and cells[a][b] not in ("", me)
        )
        if turned > most:
            most, best = turned, (i, j)
    assert best is not None
    i, j = best
    if half_turn:
        i, j = n - 1 - i, n - 1 - j
    return f"{chr(ord('a') + j)}{n - i}"


SDK_FILES = (
    "javafx-sdk-17.0.2/lib/javafx.controls.jar",
    "javafx-sdk-17.0.2/lib/javafx.fxml.jar",
    "javafx-sdk-17.0.2/bin/prism_sw.dll",
)
"""A stand-in of the JavaFX SDK that teams keep in their repositories (its jars and
native libraries; :func:`download_zip` adds its large web library)."""


def download_zip(
    shape: Shape,
    path: Path,
    sdk_bytes: int = 6 << 20,
    manifest: dict[str, object] | None = None,
    screenshot_bytes: int = 3 << 20,
) -> Path:
    """``shape``'s project as GitHub's Download ZIP: under one top folder, beside the
    JavaFX SDK (a web library of ``sdk_bytes`` zero bytes, stored), IntelliJ's compiled
    classes, the team's report and a large screenshot; none of which is the program. With
    ``manifest``, its ``adjacency-bot.json`` at the top."""
    top = f"{shape.name}-main/"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        if manifest is not None:
            archive.writestr(top + "adjacency-bot.json", json.dumps(manifest))
        for name, text in files(shape).items():
            archive.writestr(top + name, text)
        for name in SDK_FILES:
            archive.writestr(top + name, b"PK\x03\x04 not really a jar" * 64)
        archive.writestr(
            zipfile.ZipInfo(top + "javafx-sdk-17.0.2/bin/jfxwebkit.dll"),
            bytes(sdk_bytes),
            compress_type=zipfile.ZIP_STORED,
        )
        archive.writestr(top + "out/production/game/Main.class", b"\xca\xfe\xba\xbe")
        archive.writestr(top + "Laporan Tugas Besar.pdf", b"%PDF-1.4 " * 4096)
        archive.writestr(
            zipfile.ZipInfo(top + "docs/screenshot.png"),
            b"\x89PNG\r\n\x1a\n" + bytes(screenshot_bytes),
            compress_type=zipfile.ZIP_STORED,
        )
    return path


def assert_board_picture(png: bytes | None) -> None:
    """``png`` is a picture of a game window as JavaFX drew it: a PNG of a window's size,
    drawn (many colours, not one flat fill)."""
    assert png is not None and png.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(io.BytesIO(png)) as image:
        width, height = image.size
        colours = image.convert("RGB").getcolors(maxcolors=1 << 16)
    assert 200 < width < 1280 and 200 < height < 1024, (width, height)
    assert colours is None or len(colours) > 8, colours
