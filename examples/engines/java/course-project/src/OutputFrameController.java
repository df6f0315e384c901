import javafx.fxml.FXML;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;

/**
 * The game window: an 8x8 grid of buttons whose texts are "X", "O" or "", X's block at the
 * bottom left and O's at the top right. A person clicks an empty square; a bot's side is
 * played by {@link Bot} as soon as it is that side's turn. A round is a move of each side;
 * after the last round, the side with more squares wins (needs JavaFX).
 */
public class OutputFrameController {
    private static final int ROW = 8;
    private static final int COL = 8;

    @FXML
    private GridPane gameBoard;
    @FXML
    private Label roundsLeftLabel;
    @FXML
    private Label turnLabel;
    @FXML
    private Label scoreLabel;

    private final Button[][] buttons = new Button[ROW][COL];
    private final Bot bot = new Bot();
    private String playerX;
    private String playerO;
    private boolean xIsBot;
    private boolean oIsBot;
    private boolean xTurn;
    private int roundsLeft;
    private int movesThisRound;

    @FXML
    private void initialize() {
        for (int i = 0; i < ROW; i++) {
            for (int j = 0; j < COL; j++) {
                Button button = new Button();
                button.setPrefSize(48, 48);
                int row = i;
                int col = j;
                button.setOnAction(event -> clicked(row, col));
                buttons[i][j] = button;
                gameBoard.add(button, j, i);
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

    /** Set the game up from the input window and, when a bot moves first, play its move. */
    void start(String playerX, String playerO, boolean xIsBot, boolean oIsBot, int rounds, boolean oFirst) {
        this.playerX = playerX;
        this.playerO = playerO;
        this.xIsBot = xIsBot;
        this.oIsBot = oIsBot;
        this.xTurn = !oFirst;
        this.roundsLeft = rounds;
        show();
        moveBotIfItsTurn();
    }

    private void clicked(int i, int j) {
        if (roundsLeft == 0 || botToMove() || !buttons[i][j].getText().isEmpty()) {
            return;
        }
        place(i, j);
        moveBotIfItsTurn();
    }

    private boolean botToMove() {
        return xTurn ? xIsBot : oIsBot;
    }

    private void moveBotIfItsTurn() {
        while (roundsLeft > 0 && botToMove()) {
            int[] move = bot.move(buttons, roundsLeft, xTurn);
            place(move[0], move[1]);
        }
    }

    /** Put the side to move's mark on (i, j), turn the other side's neighbours, pass the turn. */
    private void place(int i, int j) {
        String mover = xTurn ? "X" : "O";
        String other = xTurn ? "O" : "X";
        buttons[i][j].setText(mover);
        int[][] around = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int[] d : around) {
            int a = i + d[0];
            int b = j + d[1];
            if (a >= 0 && a < ROW && b >= 0 && b < COL && buttons[a][b].getText().equals(other)) {
                buttons[a][b].setText(mover);
            }
        }
        xTurn = !xTurn;
        if (++movesThisRound == 2) {
            movesThisRound = 0;
            roundsLeft--;
        }
        show();
        if (roundsLeft == 0) {
            int x = count("X");
            int o = count("O");
            String result = x == o ? "It is a draw" : (x > o ? playerX : playerO) + " wins";
            new Alert(Alert.AlertType.INFORMATION, result + ": " + x + " - " + o).show();
        }
    }

    private int count(String mark) {
        int n = 0;
        for (Button[] row : buttons) {
            for (Button button : row) {
                n += button.getText().equals(mark) ? 1 : 0;
            }
        }
        return n;
    }

    private void show() {
        roundsLeftLabel.setText(String.valueOf(roundsLeft));
        turnLabel.setText((xTurn ? playerX + " (X)" : playerO + " (O)") + " to move");
        scoreLabel.setText("X " + count("X") + " - O " + count("O"));
    }
}
