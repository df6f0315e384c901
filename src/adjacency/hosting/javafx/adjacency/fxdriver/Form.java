package adjacency.fxdriver;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;

/**
 * The input window's form: its controls read (text fields, combo and choice boxes with their
 * options, check boxes, buttons), each named by its {@code fx:id} and its label, and filled by
 * a recipe. Every method here runs on the JavaFX thread.
 */
final class Form {
    /** One control: its kind, {@code fx:id}, label, options (combo and choice boxes) and value. */
    record Control(String kind, String id, String label, List<String> options, String value, Node node) {
        /** Whether {@code key} names this control (its fx:id or its label, case aside). */
        boolean named(String key) {
            String k = key.trim();
            return (id != null && id.equalsIgnoreCase(k)) || (label != null && label.equalsIgnoreCase(k));
        }

        String json() {
            StringBuilder out = new StringBuilder("{\"kind\": ").append(Json.quote(kind));
            out.append(", \"id\": ").append(Json.quote(id)).append(", \"label\": ").append(Json.quote(label));
            out.append(", \"options\": [");
            for (int i = 0; i < options.size(); i++) out.append(i == 0 ? "" : ", ").append(Json.quote(options.get(i)));
            return out.append("], \"value\": ").append(Json.quote(value)).append('}').toString();
        }
    }

    private Form() {}

    /** Every control under {@code root}, in the order of the scene graph. */
    static List<Control> read(Parent root) {
        List<Node> nodes = new ArrayList<>();
        collect(root, nodes);
        List<Control> controls = new ArrayList<>();
        for (Node node : nodes) {
            Control control = describe(node, nodes);
            if (control != null) controls.add(control);
        }
        return controls;
    }

    private static void collect(Node node, List<Node> into) {
        if (!node.isVisible()) return;
        into.add(node);
        if (node instanceof Parent parent) {
            for (Node child : parent.getChildrenUnmodifiable()) collect(child, into);
        }
    }

    private static Control describe(Node node, List<Node> all) {
        if (node instanceof CheckBox box) {
            return new Control("check", node.getId(), box.getText(), List.of(), Boolean.toString(box.isSelected()), node);
        }
        if (node instanceof Button button) {
            return new Control("button", node.getId(), button.getText(), List.of(), null, node);
        }
        if (node instanceof TextField field) {
            String label = labelOf(node, all);
            if (label == null) label = field.getPromptText();
            return new Control("text", node.getId(), label, List.of(), field.getText(), node);
        }
        if (node instanceof ComboBox<?> box) {
            List<String> options = new ArrayList<>();
            for (Object item : box.getItems()) options.add(String.valueOf(item));
            String label = labelOf(node, all);
            if (label == null) label = box.getPromptText();
            Object value = box.getValue();
            return new Control("combo", node.getId(), label, options, value == null ? null : value.toString(), node);
        }
        if (node instanceof ChoiceBox<?> box) {
            List<String> options = new ArrayList<>();
            for (Object item : box.getItems()) options.add(String.valueOf(item));
            Object value = box.getValue();
            return new Control("combo", node.getId(), labelOf(node, all), options, value == null ? null : value.toString(), node);
        }
        return null;
    }

    /**
     * The label a person reads for {@code node}: the label that names it ({@code labelFor}),
     * else the nearest label before it in its grid row, else the nearest label before it
     * among its siblings.
     */
    static String labelOf(Node node, List<Node> all) {
        for (Node other : all) {
            if (other instanceof Label label && label.getLabelFor() == node) return label.getText();
        }
        Parent parent = node.getParent();
        if (parent == null) return null;
        if (parent instanceof GridPane) {
            int row = index(GridPane.getRowIndex(node)), column = index(GridPane.getColumnIndex(node));
            Label best = null;
            int bestColumn = -1;
            for (Node other : parent.getChildrenUnmodifiable()) {
                if (other instanceof Label label && index(GridPane.getRowIndex(other)) == row) {
                    int c = index(GridPane.getColumnIndex(other));
                    if (c < column && c > bestColumn) {
                        best = label;
                        bestColumn = c;
                    }
                }
            }
            if (best != null) return best.getText();
        }
        List<Node> siblings = parent.getChildrenUnmodifiable();
        for (int i = siblings.indexOf(node) - 1; i >= 0; i--) {
            Node other = siblings.get(i);
            if (other instanceof Label label) return label.getText();
            if (!(other instanceof Parent) || other instanceof javafx.scene.control.Control) break;
        }
        return null;
    }

    private static int index(Integer value) {
        return value == null ? 0 : value;
    }

    /** The control {@code key} names among {@code controls}, or an error naming what there is. */
    static Control find(List<Control> controls, String key) {
        for (Control control : controls) if (!control.kind().equals("button") && control.named(key)) return control;
        for (Control control : controls) if (control.named(key)) return control;
        StringBuilder names = new StringBuilder();
        for (Control control : controls) {
            names.append(names.length() == 0 ? "" : ", ").append(control.id() != null ? control.id() : control.label());
        }
        throw new Failure("the window has no control named '" + key + "' (it has: " + names + ")");
    }

    /** Set {@code control} to {@code value}: a text, an option (by its text), true or false. */
    static void set(Control control, String value) {
        Node node = control.node();
        if (node instanceof TextField field) {
            field.setText(value);
        } else if (node instanceof CheckBox box) {
            box.setSelected(Boolean.parseBoolean(value.trim()));
        } else if (node instanceof ComboBox<?> box) {
            box.getSelectionModel().select(option(control, value));
        } else if (node instanceof ChoiceBox<?> box) {
            box.getSelectionModel().select(option(control, value));
        } else {
            throw new Failure("the control '" + control.label() + "' cannot be set");
        }
    }

    /** The index of the option {@code value} names: its text, or its number (rounds). */
    static int option(Control control, String value) {
        String wanted = value.trim().toLowerCase(Locale.ROOT);
        List<String> options = control.options();
        for (int i = 0; i < options.size(); i++) {
            if (options.get(i).trim().toLowerCase(Locale.ROOT).equals(wanted)) return i;
        }
        if (wanted.matches("[0-9]+")) {
            for (int i = 0; i < options.size(); i++) {
                String digits = options.get(i).replaceAll("[^0-9]+", " ").trim();
                if (digits.equals(wanted)) return i;
            }
        }
        String name = control.id() != null ? control.id() : control.label();
        throw new Failure("'" + value + "' is not an option of '" + name + "' (its options: " + options + ")");
    }
}
