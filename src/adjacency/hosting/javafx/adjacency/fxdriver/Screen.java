package adjacency.fxdriver;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javafx.collections.ObservableList;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.DialogPane;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.scene.layout.GridPane;
import javafx.stage.Window;
import javax.imageio.ImageIO;

/**
 * What the program shows: its windows, its alerts, its board of 8x8 buttons in a grid, and
 * pictures of them. Every method here runs on the JavaFX thread.
 */
final class Screen {
    static final int SIZE = Rules.N;

    /** An alert: its kind (information, warning, error, confirmation or none) and its text. */
    record Alert(String kind, String text, DialogPane pane) {}

    private Screen() {}

    /** The program's windows that are showing (alerts included). */
    static List<Window> windows() {
        List<Window> showing = new ArrayList<>();
        for (Window window : Window.getWindows()) if (window.isShowing() && window.getScene() != null) showing.add(window);
        return showing;
    }

    /** The alerts showing. */
    static List<Alert> alerts() {
        List<Alert> alerts = new ArrayList<>();
        for (Window window : windows()) {
            if (window.getScene().getRoot() instanceof DialogPane pane) {
                String kind = "none";
                for (String style : pane.getStyleClass()) {
                    if (List.of("information", "warning", "error", "confirmation").contains(style)) kind = style;
                }
                String text = String.join(" ", nonNull(pane.getHeaderText()), nonNull(pane.getContentText())).trim();
                alerts.add(new Alert(kind, text, pane));
            }
        }
        return alerts;
    }

    private static String nonNull(String text) {
        return text == null ? "" : text;
    }

    /** Close {@code alert} as a person would: its OK button (else its first button). */
    static void close(Alert alert) {
        DialogPane pane = alert.pane();
        Node button = pane.lookupButton(ButtonType.OK);
        if (button == null && !pane.getButtonTypes().isEmpty()) button = pane.lookupButton(pane.getButtonTypes().get(0));
        if (button instanceof Button b) {
            b.fire();
        } else {
            pane.getScene().getWindow().hide();
        }
    }

    /** The board: 8x8 buttons of one grid, {@code [row][column]}, row 0 at the top; or null. */
    static Button[][] board() {
        for (Window window : windows()) {
            Button[][] found = board(window.getScene().getRoot());
            if (found != null) return found;
        }
        return null;
    }

    private static Button[][] board(Node node) {
        if (node instanceof GridPane grid) {
            Button[][] cells = cells(grid);
            if (cells != null) return cells;
        }
        if (node instanceof Parent parent) {
            for (Node child : parent.getChildrenUnmodifiable()) {
                Button[][] found = board(child);
                if (found != null) return found;
            }
        }
        return null;
    }

    /** The grid's buttons by their grid indices, when they make exactly an 8x8 block. */
    private static Button[][] cells(GridPane grid) {
        Map<Integer, Button> byCell = new HashMap<>();
        int top = Integer.MAX_VALUE, left = Integer.MAX_VALUE;
        ObservableList<Node> children = grid.getChildren();
        for (Node child : children) {
            Button button = firstButton(child);
            if (button == null) continue;
            int row = index(GridPane.getRowIndex(child)), column = index(GridPane.getColumnIndex(child));
            if (byCell.put(row * 1000 + column, button) != null) return null;
            top = Math.min(top, row);
            left = Math.min(left, column);
        }
        if (byCell.size() != SIZE * SIZE) return null;
        Button[][] cells = new Button[SIZE][SIZE];
        for (int r = 0; r < SIZE; r++) {
            for (int c = 0; c < SIZE; c++) {
                cells[r][c] = byCell.get((top + r) * 1000 + left + c);
                if (cells[r][c] == null) return null;
            }
        }
        return cells;
    }

    private static Button firstButton(Node node) {
        if (node instanceof Button button) return button;
        if (node instanceof Parent parent) {
            for (Node child : parent.getChildrenUnmodifiable()) {
                Button found = firstButton(child);
                if (found != null) return found;
            }
        }
        return null;
    }

    private static int index(Integer value) {
        return value == null ? 0 : value;
    }

    /** The marks on {@code board}, {@code [row * 8 + column]}: its text trimmed, upper case. */
    static String[] marks(Button[][] board) {
        String[] marks = new String[SIZE * SIZE];
        for (int r = 0; r < SIZE; r++) {
            for (int c = 0; c < SIZE; c++) {
                String text = board[r][c].getText();
                marks[r * SIZE + c] = text == null ? "" : text.trim().toUpperCase(java.util.Locale.ROOT);
            }
        }
        return marks;
    }

    /** A picture of {@code scene} as it is drawn, as PNG bytes. */
    static byte[] png(Scene scene) throws IOException {
        WritableImage image = scene.snapshot(null);
        int width = (int) image.getWidth(), height = (int) image.getHeight();
        BufferedImage out = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
        PixelReader pixels = image.getPixelReader();
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) out.setRGB(x, y, pixels.getArgb(x, y));
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        ImageIO.write(out, "png", bytes);
        return bytes.toByteArray();
    }
}
