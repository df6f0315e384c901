package javafx.scene.control;

/**
 * Stands in for JavaFX's {@code Button}, the cell type of the course's game window, so that a
 * course bot compiles and runs unchanged without JavaFX: the text ("X", "O" or "") is the
 * state, and the look-and-feel calls bots make on cells are accepted and do nothing.
 */
public class Button {
    private String text;
    private String style = "";
    private String id;
    private boolean disable;

    public Button() {
        this("");
    }

    public Button(String text) {
        this.text = text == null ? "" : text;
    }

    public String getText() {
        return text;
    }

    public void setText(String text) {
        this.text = text == null ? "" : text;
    }

    public boolean isDisable() {
        return disable;
    }

    public boolean isDisabled() {
        return disable;
    }

    public void setDisable(boolean disable) {
        this.disable = disable;
    }

    public String getStyle() {
        return style;
    }

    public void setStyle(String style) {
        this.style = style == null ? "" : style;
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    @Override
    public String toString() {
        return "Button[text=" + text + "]";
    }
}
