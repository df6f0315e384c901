package adjacency.fxdriver;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The way from the program's first window to its board, as a person goes it: in each window
 * the recipe's values are filled (the choices, the game's rounds and who moves first),
 * reading the window again after every value set (a box may show another pane), then the
 * button that leads on is pressed. That button is the one the recipe names for the window
 * ({@code --press}, found by a dry run); where it names none, the window's buttons are
 * pressed in turn ({@link Words#trialOrder}: its default button first, then from its last
 * to its first, the form filled again before each) until one opens the board or another
 * window. A dry run goes the same way and keeps what it saw: each window's controls with
 * the value each showed first, the buttons pressed, and a picture of the window with the
 * most controls to fill ({@link #form}, {@link #formPicture}).
 */
final class Windows {
    static final long POLL_MS = 15;
    static final long CALL_MS = 250;
    static final long STUCK_MS = 3000;
    /**
     * How long a window has to answer the driver's read, fill or picture: seconds of its own,
     * stretched by what its threads waited for a CPU ({@link Fx#patiently}).
     */
    private static final long WINDOW_MS = 10_000;
    /** How long a button pressed on trial has to open a window or the board. */
    private static final long TRIAL_MS = 4000;
    /** How long a button pressed on trial that the program answered otherwise has to open one. */
    private static final long ANSWERED_MS = 600;
    /** The most windows followed before the board. */
    private static final int MAX_WINDOWS = 4;

    /** One window on the way to the board: its controls as they showed, and the button pressed there. */
    private record Step(Window window, List<Form.Control> controls, String pressed) {}

    private final Options options;
    private final Protocol protocol;
    /** The values each control showed when the driver first read it (before it set any). */
    private final Map<Node, String> firstSeen = new IdentityHashMap<>();
    /** The steps from the first window to the board, once followed. */
    private final List<Step> steps = new ArrayList<>();
    /** The picture of the window with the most controls to fill, taken before its button (a dry run's). */
    private byte[] formPicture;
    private int formPictureFields = -1;
    private String formTitle;
    /** Whether a button is pressed on trial (a throw in its handler ends no look: {@link #trialError}). */
    private volatile boolean trying;
    private final List<String> trialErrors = Collections.synchronizedList(new ArrayList<>());
    /** Why a dry run found no way to the board, or null. */
    private String stuck;
    /** Whether the dry run saw the board it opened play both sides by itself ({@link #watch}). */
    private boolean playsItself;
    /** How long a dry run watches the board it opened for a move no click made. */
    private static final long WATCH_MS = 1000;
    /** How long it then watches for the other side's move, once one side moved by itself. */
    private static final long SELF_PLAY_MS = 4000;
    /**
     * How long a dry run waits for the bot's answer to the person's move it made ({@link #seeBot}):
     * seconds of the program's own, stretched by its threads' waits for a CPU ({@link Waits}).
     */
    private static final long ANSWER_MS = 6000;
    /** The mark the bot's own move placed in a dry run ({@link #watch}, {@link #seeBot}), or null: none seen. */
    private String botSeen;
    /** Whether that move came before any person's move (the bot moved first). */
    private boolean botSeenFirst;

    Windows(Options options, Protocol protocol) {
        this.options = options;
        this.protocol = protocol;
    }

    /**
     * Take {@code error}, thrown on {@code thread}, as a button's answer on trial: whether it
     * was one (a handler of a button pressed on trial threw on the JavaFX thread, which goes
     * on, and so does the look), kept in words for the failure that names the window.
     */
    boolean trialError(Thread thread, Throwable error) {
        if (!trying || !thread.getName().equals(Threads.JAVAFX)) return false;
        Throwable cause = Threads.root(error);
        trialErrors.add("it threw " + cause + Threads.at(Threads.ownFrame(cause.getStackTrace())));
        return true;
    }

    /** A window the program shows that is not an alert and has a button that shows, not in {@code seen}. */
    private static Window newWindow(Set<Window> seen) {
        for (Window window : Screen.windows()) {
            if (seen.contains(window) || window.getScene().getRoot() instanceof javafx.scene.control.DialogPane) continue;
            for (Form.Control control : Form.read(window.getScene().getRoot())) {
                if (control.kind().equals("button")) return window;
            }
        }
        return null;
    }

    /** The program's first window with a button, waiting at most {@code waitMillis}; or null. */
    Window firstWindow(long waitMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + waitMillis;
        Set<Window> none = Collections.newSetFromMap(new IdentityHashMap<>());
        while (System.currentTimeMillis() < deadline) {
            if (Fx.started()) {
                Platform.setImplicitExit(false); // the game's last window closing ends no game
                try {
                    Window found = Fx.call(() -> newWindow(none), CALL_MS);
                    if (found != null) return found;
                } catch (TimeoutException busy) {
                    // the program is busy starting: look again
                }
            }
            Thread.sleep(POLL_MS * 2);
        }
        return null;
    }

    /**
     * Follow the program's windows from its first to the board (class comment): each filled
     * by the settings, the {@code rounds} and who moves first ({@code botFirst}) where it has
     * them (null: a dry run sets neither), then its button pressed. The board, null where a
     * dry run found no way to it, or a {@link Failure} saying which window led nowhere.
     */
    Button[][] follow(Integer rounds, Boolean botFirst, long waitMillis) throws InterruptedException {
        Window window = firstWindow(waitMillis);
        if (window == null) throw new Failure("no window with a button opened within " + waitMillis / 1000 + " s");
        Set<Window> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<String> found = new HashSet<>();
        List<String> presses = options.presses;
        for (int k = 0; ; k++) {
            seen.add(window);
            if (k >= MAX_WINDOWS) throw new Failure("the program opened " + MAX_WINDOWS + " windows one after another and no board");
            fill(window, rounds, botFirst, found);
            List<Form.Control> shown = remembered(window);
            List<Form.Control> buttons = new ArrayList<>();
            for (Form.Control control : shown) if (control.kind().equals("button")) buttons.add(control);
            if (k < presses.size()) {
                Form.Control named = Form.lookup(buttons, presses.get(k));
                if (named == null || !named.kind().equals("button")) {
                    throw new Failure("the window '" + title(window) + "' has no button named '" + presses.get(k) + "' (it has: " + Form.names(buttons) + ")");
                }
                buttons = List.of(named);
            } else {
                buttons = trialOrder(buttons);
            }
            if (options.dryRun) picture(window, shown);
            List<String> heard = new ArrayList<>();
            Object next = null;
            String pressed = null;
            for (Form.Control button : buttons) {
                if (next != null) break;
                if (pressed != null) fill(window, rounds, botFirst, found); // a button may have cleared the form
                pressed = button.label() != null && !button.label().isBlank() ? button.label() : button.id();
                List<String> before = values(window);
                trying = options.dryRun || k >= presses.size();
                trialErrors.clear();
                Fx.post(((Button) button.node())::fire);
                next = k < presses.size() && !options.dryRun ? awaitNext(seen) : tryNext(seen, heard, window, before);
                trying = false;
                heard.addAll(trialErrors);
            }
            if (next == null) {
                String why = "no button of the window '" + title(window) + "' opened the board or another window (pressed: "
                        + Form.names(buttons) + (heard.isEmpty() ? "" : "; it said: " + String.join("; ", heard)) + ")";
                if (!options.dryRun) throw new Failure(why);
                steps.add(new Step(window, shown, null)); // the form so far: its recipe may fill what it asked for
                stuck = why;
                return null;
            }
            steps.add(new Step(window, shown, pressed));
            if (next instanceof Button[][] cells) {
                checkFound(rounds, botFirst, found);
                return cells;
            }
            window = (Window) next;
        }
    }

    /** A {@link Failure} where a control the recipe names showed in no window on the way to the board. */
    private void checkFound(Integer rounds, Boolean botFirst, Set<String> found) {
        if (rounds != null && !found.contains(options.roundsKey)) {
            throw new Failure("no window on the way to the board has the control for the number of rounds '" + options.roundsKey + "'");
        }
        if (botFirst != null && options.first != null && !found.contains(options.first[0])) {
            throw new Failure("no window on the way to the board has the control '" + options.first[0] + "' that says who moves first");
        }
        if (!options.dryRun) {
            for (String key : options.settings.keySet()) {
                if (!found.contains(key)) throw new Failure("no window on the way to the board has a control named '" + key + "'");
            }
        }
    }

    /** The buttons in the order they are tried ({@link Words#trialOrder}). */
    private static List<Form.Control> trialOrder(List<Form.Control> buttons) {
        List<Boolean> isDefault = new ArrayList<>();
        for (Form.Control button : buttons) isDefault.add(((Button) button.node()).isDefaultButton());
        List<Form.Control> order = new ArrayList<>();
        for (int index : Words.trialOrder(isDefault)) order.add(buttons.get(index));
        return order;
    }

    /**
     * Fill {@code window}: each setting whose control shows there, then the rounds and who
     * moves first, the form read again after every value set; the keys set are added to
     * {@code found}.
     */
    private void fill(Window window, Integer rounds, Boolean botFirst, Set<String> found) {
        Map<String, String> wanted = new LinkedHashMap<>(options.settings);
        if (rounds != null && options.roundsKey != null) wanted.put(options.roundsKey, Integer.toString(rounds));
        String[] first = options.first, sides = options.sides;
        if (botFirst != null && first != null) wanted.put(first[0], botFirst ? first[1] : first[2]);
        if (botFirst != null && sides != null) {
            wanted.put(sides[0], botFirst ? sides[2] : sides[3]);
            wanted.put(sides[1], botFirst ? sides[3] : sides[2]);
        }
        try {
            Fx.patiently(() -> {
                Set<String> done = new HashSet<>();
                boolean progress = true;
                while (progress) {
                    progress = false;
                    List<Form.Control> controls = Form.read(window.getScene().getRoot());
                    remember(controls);
                    for (Map.Entry<String, String> setting : wanted.entrySet()) {
                        if (done.contains(setting.getKey())) continue;
                        Form.Control control = Form.lookup(controls, setting.getKey());
                        if (control == null || control.kind().equals("button")) continue;
                        Form.set(control, setting.getValue());
                        done.add(setting.getKey());
                        progress = true;
                        break; // read the window again: the value may show another pane
                    }
                }
                found.addAll(done);
                return null;
            }, WINDOW_MS);
        } catch (TimeoutException busy) {
            throw new Failure("the window '" + title(window) + "' did not answer within 10 s of its own");
        }
    }

    private void remember(List<Form.Control> controls) {
        for (Form.Control control : controls) {
            if (!firstSeen.containsKey(control.node())) firstSeen.put(control.node(), control.value()); // null too
        }
    }

    /** The window's controls that show now, each remembered with the value it showed first. */
    private List<Form.Control> remembered(Window window) {
        try {
            return Fx.patiently(() -> {
                List<Form.Control> controls = Form.read(window.getScene().getRoot());
                remember(controls);
                return controls;
            }, WINDOW_MS);
        } catch (TimeoutException busy) {
            throw new Failure("the window '" + title(window) + "' did not answer within 10 s of its own");
        }
    }

    private static String title(Window window) {
        String title = window instanceof Stage stage ? stage.getTitle() : null;
        return title == null ? "untitled" : title;
    }

    /** In a dry run: the picture of the window with the most controls to fill so far. */
    private void picture(Window window, List<Form.Control> shown) {
        int fields = 0;
        for (Form.Control control : shown) if (!control.kind().equals("button")) fields++;
        if (fields <= formPictureFields) return;
        try {
            formPicture = Fx.patiently(() -> Screen.png(window.getScene()), WINDOW_MS);
            formPictureFields = fields;
            formTitle = window instanceof Stage stage ? stage.getTitle() : null;
        } catch (TimeoutException busy) {
            throw new Failure("the window '" + title(window) + "' did not answer within 10 s of its own");
        }
    }

    /** After a known press: the board or a new window, waiting as long as it takes (the clock decides). */
    private Object awaitNext(Set<Window> seen) throws InterruptedException {
        long began = System.currentTimeMillis();
        boolean noted = false;
        while (true) {
            Object next = look(seen);
            if (next != null) return next;
            if (!noted && System.currentTimeMillis() - began > STUCK_MS) {
                // a program may move its bot before it shows its board: where it thinks
                protocol.thinking(STUCK_MS / 1000 + " s after its start button, before its board showed");
                noted = true;
            }
            closeAlerts();
            Thread.sleep(POLL_MS);
        }
    }

    /**
     * After a press on trial: the board or a new window within {@link #TRIAL_MS}, or null;
     * the alerts on the way closed, their words kept in {@code heard}. A press that the
     * program answered otherwise (an alert, or values of {@code window}'s form changed from
     * {@code before}, as a reset does) is given {@link #ANSWERED_MS} more, not the whole wait.
     */
    private Object tryNext(Set<Window> seen, List<String> heard, Window window, List<String> before) throws InterruptedException {
        long deadline = System.currentTimeMillis() + TRIAL_MS;
        int said = heard.size();
        while (System.currentTimeMillis() < deadline) {
            Object next = look(seen);
            if (next != null) return next;
            if (deadline - System.currentTimeMillis() > ANSWERED_MS) {
                List<String> now = values(window);
                if (heard.size() > said || !trialErrors.isEmpty() || (before != null && now != null && !now.equals(before))) {
                    deadline = System.currentTimeMillis() + ANSWERED_MS;
                }
            }
            try {
                heard.addAll(Fx.call(() -> {
                    List<String> texts = new ArrayList<>();
                    for (Screen.Alert alert : Screen.alerts()) {
                        texts.add(alert.kind() + ": " + alert.text());
                        Screen.close(alert);
                    }
                    return texts;
                }, CALL_MS));
            } catch (TimeoutException busy) {
                // busy: look again
            }
            Thread.sleep(POLL_MS);
        }
        return null;
    }

    /** The values of {@code window}'s controls, or null while it is busy. */
    private static List<String> values(Window window) {
        try {
            return Fx.call(() -> {
                List<String> values = new ArrayList<>();
                for (Form.Control control : Form.read(window.getScene().getRoot())) values.add(String.valueOf(control.value()));
                return values;
            }, CALL_MS);
        } catch (TimeoutException busy) {
            return null;
        }
    }

    private static Object look(Set<Window> seen) {
        try {
            return Fx.call(() -> {
                Button[][] cells = Screen.board();
                if (cells != null) return cells;
                return newWindow(seen);
            }, CALL_MS);
        } catch (TimeoutException busy) {
            return null; // busy opening a window: look again
        }
    }

    /** Close the alerts showing, keeping their text on standard error; an error alert fails. */
    static void closeAlerts() {
        try {
            List<String> closed = Fx.call(() -> {
                List<String> texts = new ArrayList<>();
                for (Screen.Alert alert : Screen.alerts()) {
                    texts.add(alert.kind() + ": " + alert.text());
                    if (!alert.kind().equals("error")) Screen.close(alert);
                }
                return texts;
            }, CALL_MS);
            for (String text : closed) {
                System.err.println("fxdriver: the program's alert, " + text);
                if (text.startsWith("error:")) {
                    throw new Failure("the program showed an error alert: " + text.substring(7));
                }
            }
        } catch (TimeoutException busy) {
            // busy: the next look closes them
        }
    }

    /**
     * A dry run's board, just opened, watched without a click ({@link #WATCH_MS}, and
     * {@link #SELF_PLAY_MS} more once a mark gained a piece): where both marks gain
     * pieces, the window plays its two bots against each other, and the form says so (its
     * way to the board none, {@code stuck} the reason in the team's words). A bot that
     * moves first by itself is one side only, and is no such window: its mark is the bot's
     * ({@code bot_seen}). A board first read with more pieces of one mark than of the other
     * (each side starts with as many) was moved on before the driver saw it, by that mark.
     */
    void watch(Button[][] board) throws InterruptedException {
        Map<String, Integer> first = pieces(board);
        if (first == null) return;
        long deadline = System.currentTimeMillis() + WATCH_MS;
        Set<String> gained = new HashSet<>();
        List<Integer> counts = new ArrayList<>(first.values());
        if (counts.size() == 2 && !counts.get(0).equals(counts.get(1))) { // moved before the first look
            String[] marks = first.keySet().toArray(new String[0]);
            gained.add(counts.get(0) > counts.get(1) ? marks[0] : marks[1]);
            deadline += SELF_PLAY_MS;
        }
        while (System.currentTimeMillis() < deadline) {
            Thread.sleep(POLL_MS);
            Map<String, Integer> now = pieces(board);
            if (now == null) continue;
            for (Map.Entry<String, Integer> mark : now.entrySet()) {
                if (mark.getValue() > first.getOrDefault(mark.getKey(), 0) && gained.add(mark.getKey())) {
                    deadline = Math.max(deadline, System.currentTimeMillis() + SELF_PLAY_MS);
                }
            }
            if (gained.size() >= 2) {
                playsItself = true;
                stuck = "your window plays its two bots against each other: after '" + steps.get(steps.size() - 1).pressed()
                        + "' its board moved for both " + String.join(" and ", new java.util.TreeSet<>(gained))
                        + " with no click, so no side is left for the league's opponent; a league game needs a window where a person plays one side";
                return;
            }
        }
        if (gained.size() == 1) { // one side moved by itself: the bot, moving first
            botSeen = gained.iterator().next();
            botSeenFirst = true;
        }
    }

    /**
     * A dry run's board that no mark moved on by itself ({@link #watch}): a person's move
     * made, a click on its first empty square from the top-left (any empty square is a legal
     * move), then the board watched for the bot's answer ({@link #ANSWER_MS}); where the
     * window waits idle at the bot's turn with a button that moves its bot, that button is
     * pressed once, as in a game ({@link Game#botButton}). The mark of a square filled by
     * other than the click is the bot's ({@code bot_seen} of {@link #form}: the side a
     * verdict may name), read on that square, never on the clicked one, which the bot's
     * move may have turned already. A square filled while the click shows nothing is the
     * bot's move too, made first (its window took no click before it).
     */
    void seeBot(Button[][] board) throws InterruptedException {
        if (playsItself || botSeen != null) return;
        String[] before = marks(board);
        if (before == null) return;
        int square = -1;
        for (int i = 0; i < before.length && square < 0; i++) if (before[i].isEmpty()) square = i;
        if (square < 0) return;
        Fx.post(board[square / Rules.N][square % Rules.N]::fire);
        long began = System.currentTimeMillis();
        long cpuSince = began, cpuAt = Threads.programCpu();
        boolean pressed = false;
        Waits waits = new Waits(); // the program's own seconds: its waits for a CPU stretch the wait
        while (System.currentTimeMillis() - began < ANSWER_MS + Math.min((Fx.STRETCH - 1) * ANSWER_MS, waits.longestNanos() / 1_000_000)) {
            Thread.sleep(POLL_MS);
            String[] now = marks(board);
            if (now == null) continue;
            for (int i = 0; i < now.length; i++) {
                if (i == square || !before[i].isEmpty() || now[i].isEmpty()) continue;
                botSeen = now[i]; // its own square: the click's may be turned by it already
                botSeenFirst = now[square].isEmpty();
                return;
            }
            long at = System.currentTimeMillis();
            if (!pressed && !now[square].isEmpty() && at - cpuSince >= Game.IDLE_MS) {
                long cpu = Threads.programCpu();
                boolean idle = cpu - cpuAt < Game.IDLE_CPU_NS;
                cpuAt = cpu;
                cpuSince = at;
                Button button = idle ? Game.botButton(board) : null;
                if (button != null) {
                    Fx.post(button::fire);
                    pressed = true;
                }
            }
        }
    }

    /** The marks of {@code board} (its texts), or null while its window is busy. */
    private static String[] marks(Button[][] board) {
        try {
            return Fx.call(() -> Screen.marks(board), CALL_MS);
        } catch (TimeoutException busy) {
            return null;
        }
    }

    /** The pieces of each mark on {@code board} (its texts), or null while its window is busy. */
    private static Map<String, Integer> pieces(Button[][] board) {
        try {
            return Fx.call(() -> {
                Map<String, Integer> counts = new java.util.TreeMap<>();
                for (String mark : Screen.marks(board)) if (!mark.isEmpty()) counts.merge(mark, 1, Integer::sum);
                return counts;
            }, CALL_MS);
        } catch (TimeoutException busy) {
            return null;
        }
    }

    /**
     * The dry run's form, as base64 of its JSON: the title of the window pictured, the
     * buttons pressed ({@code path}), why no way to the board was found ({@code stuck}),
     * whether the board it opened played both sides by itself ({@code plays_itself}), the
     * mark the bot's own move placed and whether it moved first ({@code bot_seen}: {@code
     * {"mark": "O", "first": false}}, null where it saw none), and
     * every window's controls that showed on the way, each with its window's number and the
     * value it showed first.
     */
    String form() {
        StringBuilder out = new StringBuilder("{\"title\": ").append(Json.quote(formTitle)).append(", \"path\": [");
        int pressed = 0;
        for (Step step : steps) {
            if (step.pressed() != null && !playsItself) out.append(pressed++ == 0 ? "" : ", ").append(Json.quote(step.pressed()));
        }
        out.append("], \"stuck\": ").append(Json.quote(stuck)).append(", \"plays_itself\": ").append(playsItself);
        out.append(", \"bot_seen\": ").append(botSeen == null ? "null"
                : "{\"mark\": " + Json.quote(botSeen) + ", \"first\": " + botSeenFirst + "}");
        out.append(", \"controls\": [");
        boolean any = false;
        for (int k = 0; k < steps.size(); k++) {
            for (Form.Control control : steps.get(k).controls()) {
                out.append(any ? ",\n  " : "\n  ").append(control.json(k, firstSeen.get(control.node())));
                any = true;
            }
        }
        out.append("\n]}\n");
        return Base64.getEncoder().encodeToString(out.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The dry run's picture of the window with the most controls to fill (PNG), or null. */
    byte[] formPicture() {
        return formPicture;
    }
}
