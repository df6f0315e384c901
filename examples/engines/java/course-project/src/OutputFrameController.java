import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;

/**
 * The game window: an 8x8 grid of buttons whose texts are "X", "O" or "", X's block at the
 * bottom left and O's at the top right; the bot plays O (needs JavaFX).
 */
public class OutputFrameController {
    private static final int ROW = 8;
    private static final int COL = 8;

    @FXML
    private GridPane gameBoard;
    @FXML
    private Label roundsLeftLabel;

    private final Button[][] buttons = new Button[ROW][COL];
    private final Bot bot = new Bot();
    private int roundsLeft;

    @FXML
    private void initialize() {
        for (int i = 0; i < ROW; i++) {
            for (int j = 0; j < COL; j++) {
                buttons[i][j] = new Button();
                gameBoard.add(buttons[i][j], j, i);
            }
        }
        buttons[ROW - 2][0].setText("X");
        buttons[ROW - 1][0].setText("X");
        buttons[ROW - 2][1].setText("X");
        buttons[ROW - 1][1].setText("X");
        buttons[0][COL - 2].setText("O");
        buttons[0][COL - 1].setText("O");
        buttons[1][COL - 2].setText("O");
        buttons[1][COL - 1].setText("O");
    }

    private void moveBot() {
        int[] move = bot.move(buttons, roundsLeft, false);
        buttons[move[0]][move[1]].setText("O");
        roundsLeftLabel.setText(String.valueOf(--roundsLeft));
    }
}
