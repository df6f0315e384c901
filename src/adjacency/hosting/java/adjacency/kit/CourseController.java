package adjacency.kit;

import javafx.scene.control.Button;

/**
 * What a course bot may read from the course's game window, without the window: the build
 * replaces the project's own {@code OutputFrameController} (which needs JavaFX) with a
 * one-line subclass of this class in the same package, so that bots taking the controller
 * compile unchanged. The runner sets the state before every move; the bot reads it.
 *
 * <p>The getters are those public course bots call; several spellings of one fact are
 * offered because projects differ. The board's row 0 is the top of the window.
 */
public class CourseController {
    private Button[][] buttons = new Button[0][0];
    private int roundsLeft;
    private int playerXScore;
    private int playerOScore;
    private boolean botFirst;
    private boolean playerXTurn;

    /** Sets the state the bot reads; the runner calls it before each move. */
    public final void adjacencyUpdate(Button[][] buttons, int roundsLeft, int[] score, boolean botFirst, boolean xTurn) {
        this.buttons = buttons;
        this.roundsLeft = roundsLeft;
        this.playerXScore = score[0];
        this.playerOScore = score[1];
        this.botFirst = botFirst;
        this.playerXTurn = xTurn;
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
        return botFirst;
    }

    public boolean getIsBotFirst() {
        return botFirst;
    }

    public boolean isPlayerXTurn() {
        return playerXTurn;
    }

    public boolean getPlayerXTurn() {
        return playerXTurn;
    }
}
