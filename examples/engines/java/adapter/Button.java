/**
 * Stands in for {@code javafx.scene.control.Button}, the cell type of the course's game
 * window: a bot that reads the board with {@code buttons[i][j].getText()} compiles against
 * this class unchanged once its {@code import javafx.scene.control.Button;} line is removed.
 */
public class Button {
    private String text;

    public Button(String text) {
        this.text = text;
    }

    public String getText() {
        return text;
    }

    public void setText(String text) {
        this.text = text;
    }
}
