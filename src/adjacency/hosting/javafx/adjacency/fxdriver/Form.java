package adjacency.fxdriver;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TextField;
import javafx.scene.control.TitledPane;
import javafx.scene.control.Toggle;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.GridPane;

/**
 * A window's form as a person reads it: its controls (text fields, combo and choice boxes
 * with their options, check boxes, buttons), each named by the text a person sees beside it
 * and by its {@code fx:id}, and filled by a recipe. A group of radio buttons (one toggle
 * group) is one choice, as a box is: its options are its buttons' texts, its value the one
 * selected, its name the label before its first button (or before the pane that holds
 * them); a radio button in no group is a check box of its own text. Only what shows counts: a node that is
 * invisible or unmanaged, or under such a parent, is neither a control nor a label (a
 * window that stacks panes and shows one is read as the pane it shows). Every method here
 * runs on the JavaFX thread.
 */
final class Form {
    /** One control: its kind, {@code fx:id}, name, options (combo and choice boxes) and value. */
    record Control(String kind, String id, String label, List<String> options, String value, Node node) {
        /**
         * Whether {@code key} names this control: its name or its fx:id, case, surrounding
         * spaces and a trailing colon aside ({@link Words#plain}).
         */
        boolean named(String key) {
            String k = Words.plain(key);
            return (id != null && Words.plain(id).equals(k)) || (label != null && Words.plain(label).equals(k));
        }

        /** How a message names it: its name as the window shows it, with its fx:id. */
        String shown() {
            if (label != null && !label.isBlank()) return "'" + label.trim() + "'" + (id == null ? "" : " (" + id + ")");
            return id == null ? "a " + kind + " without a name" : "'" + id + "'";
        }

        String json(int window, String firstValue) {
            StringBuilder out = new StringBuilder("{\"kind\": ").append(Json.quote(kind));
            out.append(", \"id\": ").append(Json.quote(id)).append(", \"label\": ").append(Json.quote(label));
            out.append(", \"options\": [");
            for (int i = 0; i < options.size(); i++) out.append(i == 0 ? "" : ", ").append(Json.quote(options.get(i)));
            out.append("], \"value\": ").append(Json.quote(firstValue));
            return out.append(", \"window\": ").append(window).append('}').toString();
        }
    }

    private Form() {}

    /** Every control under {@code root} that shows, in the order of the scene graph. */
    static List<Control> read(Parent root) {
        List<Node> nodes = new ArrayList<>();
        collect(root, nodes);
        Set<Node> showing = Collections.newSetFromMap(new IdentityHashMap<>());
        showing.addAll(nodes);
        List<Control> controls = new ArrayList<>();
        for (Node node : nodes) {
            Control control = describe(node, nodes, showing);
            if (control != null) controls.add(control);
        }
        return controls;
    }

    /** The nodes that show: a hidden or unmanaged node hides all under it. */
    private static void collect(Node node, List<Node> into) {
        if (!node.isVisible() || !node.isManaged()) return;
        into.add(node);
        if (node instanceof Parent parent) {
            for (Node child : parent.getChildrenUnmodifiable()) collect(child, into);
        }
    }

    private static Control describe(Node node, List<Node> all, Set<Node> showing) {
        if (node instanceof RadioButton radio) {
            if (radio.getToggleGroup() == null) {
                String text = radio.getText();
                String label = text != null && !text.isBlank() ? text : labelOf(node, all, showing);
                return new Control("check", node.getId(), label, List.of(), Boolean.toString(radio.isSelected()), node);
            }
            List<RadioButton> group = group(radio, all);
            if (group.isEmpty() || group.get(0) != radio) return null; // the group is read at its first button
            List<String> options = new ArrayList<>();
            String value = null;
            for (RadioButton member : group) {
                options.add(member.getText() == null ? "" : member.getText());
                if (member.isSelected()) value = member.getText();
            }
            String label = labelOf(node, all, showing);
            Parent holder = node.getParent();
            if (label == null && holder != null && onlyRadios(holder)) label = labelOf(holder, all, showing);
            if (label == null) label = String.join(" / ", options);
            return new Control("combo", null, label, options, value, node);
        }
        if (node instanceof CheckBox box) {
            String text = box.getText();
            String label = text != null && !text.isBlank() ? text : labelOf(node, all, showing);
            return new Control("check", node.getId(), label, List.of(), Boolean.toString(box.isSelected()), node);
        }
        if (node instanceof Button button) {
            return new Control("button", node.getId(), button.getText(), List.of(), null, node);
        }
        if (node instanceof TextField field) {
            String label = labelOf(node, all, showing);
            if (label == null) label = field.getPromptText();
            return new Control("text", node.getId(), label, List.of(), field.getText(), node);
        }
        if (node instanceof ComboBox<?> box) {
            List<String> options = new ArrayList<>();
            for (Object item : box.getItems()) options.add(String.valueOf(item));
            String label = labelOf(node, all, showing);
            if (label == null) label = box.getPromptText();
            Object value = box.getValue();
            return new Control("combo", node.getId(), label, options, value == null ? null : value.toString(), node);
        }
        if (node instanceof ChoiceBox<?> box) {
            List<String> options = new ArrayList<>();
            for (Object item : box.getItems()) options.add(String.valueOf(item));
            Object value = box.getValue();
            return new Control("combo", node.getId(), labelOf(node, all, showing), options, value == null ? null : value.toString(), node);
        }
        return null;
    }

    /**
     * The radio buttons of {@code radio}'s toggle group among {@code all} (the nodes that
     * show, in the order of the scene graph, as {@link #read} collects them).
     */
    private static List<RadioButton> group(RadioButton radio, List<Node> all) {
        ToggleGroup toggles = radio.getToggleGroup();
        List<RadioButton> members = new ArrayList<>();
        for (Node node : all) {
            if (node instanceof RadioButton other && other.getToggleGroup() == toggles) members.add(other);
        }
        return members;
    }

    /** Whether {@code parent}'s controls are radio buttons only (a pane that holds a group). */
    private static boolean onlyRadios(Parent parent) {
        boolean any = false;
        for (Node child : parent.getChildrenUnmodifiable()) {
            if (child instanceof RadioButton) any = true;
            else if (child instanceof javafx.scene.control.Control && !(child instanceof Label)) return false;
        }
        return any;
    }

    /**
     * The text a person reads beside {@code node}, among the labels that show: the label
     * that names it ({@code labelFor}); else in a grid, the nearest label before it in its
     * row, else the nearest above it in its column; else the nearest label before it among
     * its siblings; else the title of the titled pane it is in.
     */
    static String labelOf(Node node, List<Node> all, Set<Node> showing) {
        for (Node other : all) {
            if (other instanceof Label label && label.getLabelFor() == node) return label.getText();
        }
        Parent parent = node.getParent();
        if (parent == null) return null;
        if (parent instanceof GridPane) {
            int row = index(GridPane.getRowIndex(node)), column = index(GridPane.getColumnIndex(node));
            Label inRow = null, inColumn = null;
            int rowBest = -1, columnBest = -1;
            for (Node other : parent.getChildrenUnmodifiable()) {
                if (!(other instanceof Label label) || !showing.contains(other)) continue;
                int r = index(GridPane.getRowIndex(other)), c = index(GridPane.getColumnIndex(other));
                if (r == row && c < column && c > rowBest) {
                    inRow = label;
                    rowBest = c;
                }
                if (c == column && r < row && r > columnBest) {
                    inColumn = label;
                    columnBest = r;
                }
            }
            if (inRow != null) return inRow.getText();
            if (inColumn != null && !controlBetween(parent, column, columnBest, row, showing)) return inColumn.getText();
        } else {
            List<Node> siblings = parent.getChildrenUnmodifiable();
            for (int i = siblings.indexOf(node) - 1; i >= 0; i--) {
                Node other = siblings.get(i);
                if (!showing.contains(other)) continue;
                if (other instanceof Label label) return label.getText();
                if (!(other instanceof Parent) || other instanceof javafx.scene.control.Control) break;
            }
        }
        for (Parent up = parent; up != null; up = up.getParent()) {
            if (up instanceof TitledPane pane && pane.getText() != null && !pane.getText().isBlank()) return pane.getText();
        }
        return null;
    }

    /** Whether a control that shows sits in {@code column} between rows {@code above} and {@code row}. */
    private static boolean controlBetween(Parent grid, int column, int above, int row, Set<Node> showing) {
        for (Node other : grid.getChildrenUnmodifiable()) {
            if (!showing.contains(other) || other instanceof Label || !(other instanceof javafx.scene.control.Control)) continue;
            int r = index(GridPane.getRowIndex(other)), c = index(GridPane.getColumnIndex(other));
            if (c == column && r > above && r < row) return true;
        }
        return false;
    }

    private static int index(Integer value) {
        return value == null ? 0 : value;
    }

    /** The control {@code key} names among {@code controls} (a box before a button), or null. */
    static Control lookup(List<Control> controls, String key) {
        for (Control control : controls) if (!control.kind().equals("button") && control.named(key)) return control;
        for (Control control : controls) if (control.named(key)) return control;
        return null;
    }

    /** The control {@code key} names among {@code controls}, or an error naming what there is. */
    static Control find(List<Control> controls, String key) {
        Control found = lookup(controls, key);
        if (found != null) return found;
        throw new Failure("the window has no control named '" + key + "' (it has: " + names(controls) + ")");
    }

    /** The controls as a message names them. */
    static String names(List<Control> controls) {
        StringBuilder names = new StringBuilder();
        for (Control control : controls) names.append(names.length() == 0 ? "" : ", ").append(control.shown());
        return names.toString();
    }

    /**
     * Set {@code control} to {@code value}: a text, an option (by its text), true or false.
     * A check box is clicked as a person clicks it (its action runs), where it must change.
     */
    static void set(Control control, String value) {
        Node node = control.node();
        if (node instanceof TextField field) {
            field.setText(value);
        } else if (node instanceof RadioButton radio && radio.getToggleGroup() != null) {
            String wanted = Words.plain(control.options().get(option(control, value)));
            for (Toggle toggle : radio.getToggleGroup().getToggles()) {
                if (toggle instanceof RadioButton other && other.getText() != null && Words.plain(other.getText()).equals(wanted)) {
                    if (!other.isSelected()) other.fire(); // as a person clicks it: its action runs
                    return;
                }
            }
            throw new Failure("'" + value + "' is no longer a button of " + control.shown());
        } else if (node instanceof RadioButton radio) { // in no group: a check box of its own
            boolean wanted = Boolean.parseBoolean(value.trim());
            if (wanted && !radio.isSelected()) radio.fire();
            else if (!wanted && radio.isSelected()) radio.setSelected(false); // a click cannot clear it
        } else if (node instanceof CheckBox box) {
            if (box.isSelected() != Boolean.parseBoolean(value.trim())) box.fire();
        } else if (node instanceof ComboBox<?> box) {
            box.getSelectionModel().select(option(control, value));
        } else if (node instanceof ChoiceBox<?> box) {
            box.getSelectionModel().select(option(control, value));
        } else {
            throw new Failure("the control " + control.shown() + " cannot be set");
        }
    }

    /** The index of the option {@code value} names: its text ({@link Words#plain}), or its number (rounds). */
    static int option(Control control, String value) {
        String wanted = Words.plain(value);
        List<String> options = control.options();
        for (int i = 0; i < options.size(); i++) {
            if (Words.plain(options.get(i)).equals(wanted)) return i;
        }
        if (wanted.matches("[0-9]+")) {
            for (int i = 0; i < options.size(); i++) {
                String digits = options.get(i).replaceAll("[^0-9]+", " ").trim();
                if (digits.equals(wanted)) return i;
            }
        }
        throw new Failure("'" + value + "' is not an option of " + control.shown() + " (its options: " + options + ")");
    }
}
