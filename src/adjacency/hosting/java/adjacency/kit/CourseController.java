package adjacency.kit;

import javafx.scene.control.Button;

/**
 * What a course bot may read from the course's game window, without the window: the build
 * replaces the project's own {@code OutputFrameController} (which needs JavaFX) with a
 * one-line subclass of this class in the same package, so that bots taking the controller
 * compile unchanged. The runner sets the state before every move; the bot reads it.
 *
 * <p>The state is held in {@code public static} fields named as the course's skeleton
 * names them, so that it reads the same whichever way a project made its controller's
 * fields reachable: a bot that reads {@code OutputFrameController.buttons} (a project
 * whose window declares {@code public static Button[][] buttons}) and one that reads
 * {@code controller.buttons} or {@code controller.getButtons()} of the controller it is
 * given all compile and see the board. A runner plays one bot in one game at a time, so
 * one copy of the state is all there is. The getters are those public course bots call;
 * several spellings of one fact are offered because projects differ. The board's row 0
 * is the top of the window.
 */
public class CourseController {
    public static Button[][] buttons = new Button[0][0];
    public static int roundsLeft;
    public static int playerXScore;
    public static int playerOScore;
    public static boolean isBotFirst;
    public static boolean playerXTurn;

    /** Sets the state the bot reads; the runner calls it before each move. */
    public static void adjacencyUpdate(Button[][] buttons, int roundsLeft, int[] score, boolean botFirst, boolean xTurn) {
        CourseController.buttons = buttons;
        CourseController.roundsLeft = roundsLeft;
        CourseController.playerXScore = score[0];
        CourseController.playerOScore = score[1];
        CourseController.isBotFirst = botFirst;
        CourseController.playerXTurn = xTurn;
    }

    public Button[][] getButtons() {
        return buttons;
    }

    public Button[][] getBoard() {
        return buttons;
    }

    public int getRoundsLeft() {
        return roundsLeft;
    }

    public int getPlayerXScore() {
        return playerXScore;
    }

    public int getPlayerOScore() {
        return playerOScore;
    }

    public int getXScore() {
        return playerXScore;
    }

    public int getOScore() {
        return playerOScore;
    }

    /** Whether the bot (the side to move) moved first in the game. */
    public boolean isBotFirst() {
        return isBotFirst;
    }

    public boolean getIsBotFirst() {
        return isBotFirst;
    }

    public boolean isPlayerXTurn() {
        return playerXTurn;
    }

    public boolean getPlayerXTurn() {
        return playerXTurn;
    }
}
