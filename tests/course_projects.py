"""Course-shaped Java projects for the build's tests, written here (no real team's code):
the shapes of public course projects (the JavaFX skeleton's window classes, bots in the
default package or in packages, each constructor and ``move`` signature seen), each bot
small and deterministic so that a test can tell its moves from any other's.

Every bot checks the facts it is given against the board (its mark, the scores, the
rounds left, who moved first) and throws if one is wrong: a wrong binding is a crash in
the match, not a silent pass. The board's row 0 is the top of the window.
"""

from __future__ import annotations

from adjacency.core import Position

Project = dict[str, str]

SCAN_TOP = """
        for (int i = 0; i < b.length; i++)
            for (int j = 0; j < b[i].length; j++)
                if (b[i][j].getText().equals("")) return new int[] {i, j};
        return null;"""
"""The first empty square from the window's top-left corner (row by row)."""

SCAN_BOTTOM = """
        for (int i = b.length - 1; i >= 0; i--)
            for (int j = b[i].length - 1; j >= 0; j--)
                if (b[i][j].getText().isEmpty()) return new int[] {i, j};
        return null;"""
"""The first empty square from the window's bottom-right corner."""

COUNT = """
        int x = 0, o = 0;
        for (Button[] row : b) for (Button cell : row) {
            if (cell.getText().equals("X")) x++;
            if (cell.getText().equals("O")) o++;
        }
        String toMove = (x + o - 8) % 2 == 0 ? "X" : "O";"""
"""``x``, ``o``: the marks on the board; ``toMove``: whose turn it is (X moves first)."""


def fail_unless(condition: str) -> str:
    return f'\n        if (!({condition})) throw new IllegalStateException("wrong facts");'


CONTROLLER = """{head}import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;

/** The window (needs JavaFX): the build replaces it with the kit's stand-in. */
public class OutputFrameController {{
    @FXML private GridPane gameBoard;
    @FXML private Label roundsLeftLabel;
    private final Button[][] buttons = new Button[8][8];
    private int roundsLeft;
    private boolean isBotFirst;

    public Button[][] getButtons() {{ return buttons; }}
    public int getRoundsLeft() {{ return roundsLeft; }}
    public boolean isBotFirst() {{ return isBotFirst; }}
}}
"""

APPLICATION = """{package}
import javafx.application.Application;
import javafx.fxml.FXMLLoader;
import javafx.scene.Scene;
import javafx.stage.Stage;

public class Main extends Application {{
    @Override
    public void start(Stage stage) throws Exception {{
        stage.setScene(new Scene(FXMLLoader.load(getClass().getResource("InputFrame.fxml"))));
        stage.show();
    }}

    public static void main(String[] args) {{ launch(args); }}
}}
"""

INPUT_FRAME = """{package}
import javafx.collections.FXCollections;
import javafx.fxml.FXML;
import javafx.scene.control.ComboBox;

public class InputFrameController {{
    @FXML private ComboBox<String> numberOfRounds;

    @FXML
    private void initialize() {{
        numberOfRounds.setItems(FXCollections.observableArrayList("", "2", "4", "28"));
    }}
}}
"""


def controller(package: str) -> str:
    return CONTROLLER.format(head=f"package {package};\n\n" if package else "")


def window(package: str) -> Project:
    """The skeleton's JavaFX classes (Main, InputFrameController) of ``package``."""
    head = f"package {package};\n" if package else ""
    folder = "src/" + (package.replace(".", "/") + "/" if package else "")
    return {
        folder + "Main.java": APPLICATION.format(package=head),
        folder + "InputFrameController.java": INPUT_FRAME.format(package=head),
    }


UNPACKAGED: Project = {
    "src/Bot.java": "import javafx.scene.control.Button;\n\npublic class Bot {\n"
    "    public int[] move(Button[][] b, int roundsLeft, int playerOScore, int playerXScore,"
    " boolean playerXTurn) {"
    + COUNT
    + fail_unless(
        "x == playerXScore && o == playerOScore && roundsLeft >= 1"
        ' && playerXTurn == toMove.equals("X")'
    )
    + SCAN_TOP
    + "\n    }\n}\n",
    "src/OutputFrameController.java": controller(""),
    **window(""),
}
"""Default package; ``Bot()``; ``move(Button[][], int roundsLeft, int playerOScore, int
playerXScore, boolean playerXTurn)``."""

PLAYER_STRING: Project = {
    "src/bots/Bot.java": "package bots;\n\nimport javafx.scene.control.Button;\n\n"
    "public class Bot {\n    private final String player;\n\n"
    "    public Bot(String player) { this.player = player; }\n\n"
    "    public int[] move(Button[][] b, int roundsLeft) {"
    + COUNT
    + fail_unless("player.equals(toMove) && roundsLeft >= 1")
    + SCAN_TOP
    + "\n    }\n}\n",
}
"""Package ``bots``; ``Bot(String player)``; ``move(Button[][], int roundsLeft)``."""

ALGORITHM: Project = {
    "src/ai/search/Bot.java": "package ai.search;\n\nimport javafx.scene.control.Button;\n\n"
    "public class Bot {\n    private final int algorithm;\n    private final char self, enemy;\n\n"
    "    public Bot(int algorithm, char self, char enemy) {\n"
    "        this.algorithm = algorithm; this.self = self; this.enemy = enemy;\n    }\n\n"
    "    public int[] move(Button[][] b, int roundsLeft, boolean isBotFirst) {"
    + COUNT
    + fail_unless(
        "String.valueOf(self).equals(toMove) && enemy != self && isBotFirst == (self == 'X')"
    )
    + "\n        if (algorithm == 2) return bottom(b);"
    + fail_unless("algorithm == 1")
    + SCAN_TOP
    + "\n    }\n\n    private static int[] bottom(Button[][] b) {"
    + SCAN_BOTTOM
    + "\n    }\n}\n",
}
"""Package ``ai.search``; ``Bot(int algorithm, char self, char enemy)`` (the algorithm from
the command line: 1 scans from the top, 2 from the bottom); ``move(Button[][], int
roundsLeft, boolean isBotFirst)``."""

CONTROLLER_MOVE: Project = {
    "src/controllers/OutputFrameController.java": controller("controllers"),
    "src/bot/Bot.java": "package bot;\n\nimport controllers.OutputFrameController;\n\n"
    "public abstract class Bot {\n    protected String playerString;\n\n"
    "    public abstract int[] move(OutputFrameController of);\n}\n",
    "src/bot/LocalSearchBot.java": "package bot;\n\nimport controllers.OutputFrameController;\n"
    "import javafx.scene.control.Button;\n\npublic class LocalSearchBot extends Bot {\n"
    "    public LocalSearchBot(String playerString) { this.playerString = playerString; }\n\n"
    "    @Override\n    public int[] move(OutputFrameController of) {\n"
    "        Button[][] b = of.getButtons();"
    + COUNT
    + fail_unless(
        "playerString.equals(toMove) && of.getRoundsLeft() >= 1"
        ' && of.isBotFirst() == playerString.equals("X")'
    )
    + SCAN_TOP
    + "\n    }\n}\n",
    **window("controllers"),
}
"""Packages ``controllers`` and ``bot``; an abstract ``Bot``, ``LocalSearchBot(String
playerString)`` with ``move(OutputFrameController)``."""

CONTROLLER_CONSTRUCTOR: Project = {
    "src/game/OutputFrameController.java": controller("game"),
    "src/game/Bot.java": "package game;\n\nimport javafx.scene.control.Button;\n\n"
    "public class Bot {\n    private final OutputFrameController controller;\n\n"
    "    public Bot(OutputFrameController controller) { this.controller = controller; }\n\n"
    "    public int[] move() {\n        Button[][] b = controller.getButtons();"
    + COUNT
    + fail_unless("x == controller.getPlayerXScore() && o == controller.getPlayerOScore()")
    + SCAN_TOP
    + "\n    }\n}\n",
}
"""Package ``game``; ``Bot(OutputFrameController)`` kept by the bot; ``move()``."""

STATIC_CONTROLLER = """package controllers;

import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.layout.GridPane;

/** The window (needs JavaFX), its state made reachable as many teams make it: static. */
public class OutputFrameController {
    @FXML private GridPane gameBoard;
    public static Button[][] buttons = new Button[8][8];
    public static int roundsLeft;
    public static boolean playerXTurn;
}
"""

STATIC_BUTTONS: Project = {
    "src/controllers/OutputFrameController.java": STATIC_CONTROLLER,
    "src/ai/Bot.java": "package ai;\n\nimport controllers.OutputFrameController;\n"
    "import javafx.scene.control.Button;\n\npublic class Bot {\n"
    "    public int[] move() {\n        Button[][] b = OutputFrameController.buttons;"
    + COUNT
    + fail_unless(
        "OutputFrameController.roundsLeft >= 1"
        ' && OutputFrameController.playerXTurn == toMove.equals("X")'
    )
    + SCAN_TOP
    + "\n    }\n}\n",
    **window("controllers"),
}
"""Packages ``controllers`` and ``ai``: the window's ``public static Button[][] buttons``
(and rounds left, whose turn) read by the bot as ``OutputFrameController.buttons``;
``Bot()``, ``move()``."""

TWO_BOTS: Project = {
    "src/bots/Bot.java": "package bots;\n\nimport javafx.scene.control.Button;\n\n"
    "public abstract class Bot {\n    public abstract int[] move(Button[][] b);\n}\n",
    "src/bots/TopBot.java": "package bots;\n\nimport javafx.scene.control.Button;\n\n"
    "public class TopBot extends Bot {\n    @Override\n    public int[] move(Button[][] b) {"
    + SCAN_TOP
    + "\n    }\n}\n",
    "src/bots/BottomBot.java": "package bots;\n\nimport javafx.scene.control.Button;\n\n"
    "public class BottomBot extends Bot {\n    @Override\n    public int[] move(Button[][] b) {"
    + SCAN_BOTTOM
    + "\n    }\n}\n",
}
"""Package ``bots``: two bots (``TopBot``, ``BottomBot``) under an abstract ``Bot``."""

MANIFEST_BOTTOM = '{"class": "bots.BottomBot", "args": []}\n'

SLOW: Project = {
    "src/Bot.java": "import javafx.scene.control.Button;\n\npublic class Bot {\n"
    "    public int[] move(Button[][] buttons) {\n"
    "        try { Thread.sleep(Long.MAX_VALUE); } catch (InterruptedException e) { }\n"
    "        return new int[] {0, 0};\n    }\n}\n",
}
"""A bot that never returns: it must lose on time, never be answered for."""

BINARIES: dict[str, bytes | str] = {
    "lib/javafx-sdk-17.0.2/lib/javafx.controls.jar": b"PK\x03\x04 not a real jar",
    "lib/javafx-sdk-17.0.2/bin/glass.dll": b"MZ\x90\x00 not a real library",
    "lib/javafx-sdk-17.0.2/lib/libprism_es2.so": b"\x7fELF not a real library",
    "doc/Laporan Tubes 1.pdf": b"%PDF-1.4 not a real report",
    "img/screenshot.png": b"\x89PNG\r\n\x1a\n not a real image",
    "out/production/Tubes/Bot.class": b"\xca\xfe\xba\xbe not a real class",
    "src/InputFrame.fxml": "<?xml version='1.0'?><AnchorPane/>",
    "src/module-info.java": "module tubes {\n    requires javafx.controls;\n}\n",
    ".idea/misc.xml": "<project/>",
}
"""What a team's folder holds beside its sources: the JavaFX SDK's jars and native
libraries, the report, screenshots, IntelliJ's class files, the FXML, a module file."""


def first_empty(position: Position, from_top: bool = True) -> str:
    """The square the bots above play: the first empty one scanning from the window's
    top-left (rank 8, file a first) or from its bottom-right."""
    empty = set(position.legal_moves())
    files = "abcdefgh"[: position.board.cols]
    ranks = range(position.board.rows, 0, -1) if from_top else range(1, position.board.rows + 1)
    order = files if from_top else files[::-1]
    return next(f"{f}{r}" for r in ranks for f in order if f"{f}{r}" in empty)
