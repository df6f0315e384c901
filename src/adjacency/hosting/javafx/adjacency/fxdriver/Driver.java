package adjacency.fxdriver;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import javafx.scene.Node;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.control.Button;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * Plays a team's own JavaFX program through its own window, in the program's JVM, and speaks
 * the engine protocol (docs/protocol.md) on standard input and output.
 *
 * <p>{@code Driver [options] -- MAIN [ARGS]} starts the team's class {@code MAIN} as the student
 * ran it (its {@code main}, or {@code Application.launch} for an Application without one). At
 * the first {@code go} it follows the program's windows as a person does until the board
 * shows (8x8 buttons of one grid): in each window it fills what the recipe names there (the
 * options: the choices, the game's rounds and who moves first), reading the window again
 * after every value set (a box may show another pane), then presses the button that leads
 * on; from then on it fires the opponent's moves on the board's buttons and reads the bot's
 * moves from it. Nothing answers for the program: a board that does not change gets no answer (the
 * controller's clock decides), a change that no legal move explains is answered with the
 * square the program marked, and a crash, an error alert or a window that cannot be driven
 * ends the driver with the reason on standard error and exit status 1.
 *
 * <p>The program's board and the protocol's are the same or a half-turn apart: the protocol's
 * X starts bottom-left, and when the program's bot plays the side whose pieces start in the
 * other corner, each square is turned by half a turn (row r, column c is row 7-r, column 7-c).
 *
 * <p>The button that leads on is found by what it does, not by its words: the recipe names the
 * one a dry run found ({@code --press}, one a window); where it names none, the window's
 * buttons are pressed in turn (its default button first, then from its last to its first,
 * the form filled again before each) until one opens the board or another window.
 *
 * <p>Options: {@code --set KEY VALUE} (a control by its name or fx:id: a text, an option,
 * true or false), {@code --rounds KEY}, {@code --first KEY BOT PERSON} (the values that make
 * the bot, or the person, move first), {@code --sides XKEY OKEY BOT PERSON} (for a program
 * whose X always moves first and that has a box per player: the bot goes on X's box when
 * it moves first, on O's when it moves second, the person on the other; its mark is then
 * the side's), {@code --press KEY} (the button to press in the next
 * window, once for each window in turn), {@code --bot-mark TEXT} (the mark the bot's
 * pieces show, default O), {@code --dry-run} (write the form and a picture of the input window
 * on standard output, as the lines {@code form BASE64-JSON} and {@code window BASE64-PNG}, then
 * exit; the form holds every window's controls that showed on the way, each with its
 * window's number and the value it showed first, and the buttons pressed, as {@code path}),
 * {@code --pictures} (send a PNG picture of the game window on the protocol at a failure
 * and at the first move that hangs, as {@code info string board-png K/N BASE64} lines, parts of
 * at most {@link #PART} characters). Nothing is written to a file: the program's sandbox has
 * no folder of the server's to write.
 */
public final class Driver {
    private static final long POLL_MS = 15;
    private static final long CALL_MS = 250;
    private static final long STUCK_MS = 3000;
    private static final long PICTURE_MS = 2000;
    /** How long a button pressed on trial has to open a window or the board. */
    private static final long TRIAL_MS = 4000;
    /** How long a button pressed on trial that the program answered otherwise has to open one. */
    private static final long ANSWERED_MS = 600;
    /**
     * How long the board holds still at the bot's turn, the program idle, before a button of
     * the board's window that moves its bot ("Move Bot", or its only other button) is
     * pressed, as its person would.
     */
    private static final long IDLE_MS = 1200;
    /** The CPU time the program's threads may use in {@link #IDLE_MS} and still be idle. */
    private static final long IDLE_CPU_NS = 80_000_000L;
    /** A button that names the bot (its text), and one that ends or restarts a game. */
    private static final java.util.regex.Pattern BOT_BUTTON = java.util.regex.Pattern.compile("(?i)(bot|\\bai\\b|\\bcpu\\b|computer|komputer)");
    private static final java.util.regex.Pattern ENDS_GAME = java.util.regex.Pattern.compile("(?i)(new|end|exit|quit|reset|restart|close|again|baru|keluar|ulang|selesai|tutup)");
    /** The first word of the {@code info string} that says, at a stop, where the program is thinking. */
    static final String WHERE = "javafx-thread";
    /** The most windows followed before the board. */
    private static final int MAX_WINDOWS = 4;
    /** Largest picture sent, in bytes of PNG (the server keeps none larger). */
    private static final int MAX_PICTURE = 256 * 1024;
    /** Characters of base64 a protocol line carries (the server reads lines of 64 KiB). */
    static final int PART = 32 * 1024;

    private final PrintStream protocol;
    private final Map<String, String> settings = new LinkedHashMap<>();
    private String roundsKey;
    private String[] first;
    private String[] sides;
    private final List<String> presses = new ArrayList<>();
    private String botMark = "O";
    private boolean dryRun;
    private boolean pictures;
    private boolean pictured; // a picture was sent at a wait already (one a game)
    private String mainClass;
    private String[] programArgs = new String[0];

    private volatile boolean playing;
    private volatile boolean quitting;
    private int[] position;
    private int sideToMove;
    private int pliesLeft;
    private int[] model;
    private int botSide;
    private boolean halfTurn;
    private boolean gameOver;
    private Button[][] board;
    private String opponentMark;

    private Driver(PrintStream protocol) {
        this.protocol = protocol;
    }

    public static void main(String[] args) throws Exception {
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err); // the program's own prints never reach the protocol
        Driver driver = new Driver(protocol);
        try {
            driver.parse(args);
        } catch (Failure failure) {
            System.err.println("fxdriver: " + failure.getMessage());
            System.exit(2);
        }
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> driver.crashed(thread, error));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (!driver.quitting) System.err.println("fxdriver: the program ended the JVM");
        }));
        driver.startProgram();
        if (driver.dryRun) {
            driver.dryRun();
        } else {
            driver.serve();
        }
    }

    private void parse(String[] args) {
        int i = 0;
        for (; i < args.length && !args[i].equals("--"); i++) {
            String option = args[i];
            int need = switch (option) {
                case "--set" -> 2;
                case "--first" -> 3;
                case "--sides" -> 4;
                case "--dry-run", "--pictures" -> 0;
                case "--rounds", "--press", "--bot-mark" -> 1;
                default -> throw new Failure("unknown option " + option);
            };
            if (i + need >= args.length) throw new Failure(option + " needs " + need + " values");
            switch (option) {
                case "--set" -> settings.put(args[i + 1], args[i + 2]);
                case "--first" -> first = Arrays.copyOfRange(args, i + 1, i + 4);
                case "--sides" -> sides = Arrays.copyOfRange(args, i + 1, i + 5);
                case "--rounds" -> roundsKey = args[i + 1];
                case "--press" -> presses.add(args[i + 1]);
                case "--bot-mark" -> botMark = args[i + 1].trim().toUpperCase(java.util.Locale.ROOT);
                case "--pictures" -> pictures = true;
                default -> dryRun = true;
            }
            i += need;
        }
        if (i + 1 >= args.length) throw new Failure("usage: Driver [options] -- MAIN [ARGS]");
        mainClass = args[i + 1];
        programArgs = Arrays.copyOfRange(args, i + 2, args.length);
    }

    /** The team's main class started as the student ran it, on a thread of its own. */
    private void startProgram() throws Exception {
        Class<?> main = Class.forName(mainClass);
        Method entry = null;
        try {
            entry = main.getMethod("main", String[].class);
            if (!Modifier.isStatic(entry.getModifiers())) entry = null;
        } catch (NoSuchMethodException none) {
            entry = null;
        }
        if (entry == null && !Application.class.isAssignableFrom(main)) {
            throw new Failure(mainClass + " has no main method and is not a JavaFX Application");
        }
        Method chosen = entry;
        Thread thread = new Thread(() -> {
            try {
                if (chosen != null) {
                    chosen.invoke(null, (Object) programArgs);
                } else {
                    @SuppressWarnings("unchecked")
                    Class<? extends Application> app = (Class<? extends Application>) main;
                    Application.launch(app, programArgs);
                }
            } catch (java.lang.reflect.InvocationTargetException e) {
                crashed(Thread.currentThread(), e.getCause());
            } catch (Exception e) {
                crashed(Thread.currentThread(), e);
            }
        }, "main");
        thread.start();
    }

    /**
     * The program crashed: the exception with the team's own frames (Java's, JavaFX's and the
     * driver's left out, so that the team's file and line are among the last lines a
     * controller keeps), then one line saying where, and exit status 1.
     */
    private void crashed(Thread thread, Throwable error) {
        if (trying && thread.getName().equals("JavaFX Application Thread")) {
            // a button pressed on trial threw in its handler: JavaFX goes on, and so does the look
            Throwable cause = error;
            while (cause.getCause() != null && cause.getCause() != cause) cause = cause.getCause();
            StackTraceElement own = teamFrame(cause.getStackTrace());
            trialErrors.add("it threw " + cause + (own == null ? "" : " at " + own.getFileName() + ":" + own.getLineNumber()));
            return;
        }
        System.err.println("fxdriver: an exception in thread \"" + thread.getName() + "\": " + error);
        StackTraceElement where = null;
        int hidden = 0;
        for (StackTraceElement frame : error.getStackTrace()) {
            String name = frame.getClassName();
            if (name.startsWith("java.") || name.startsWith("javafx.") || name.startsWith("com.sun.")
                    || name.startsWith("jdk.") || name.startsWith("sun.") || name.startsWith("adjacency.fxdriver.")) {
                hidden++;
                continue;
            }
            if (where == null) where = frame;
            System.err.println("\tat " + frame);
        }
        if (hidden > 0) System.err.println("\t(" + hidden + " frames of Java and JavaFX left out)");
        Throwable cause = error.getCause();
        for (int depth = 0; cause != null && cause != error && depth < 8; depth++) {
            // "Exception in Application start method" says nothing: its causes say what failed
            StackTraceElement own = teamFrame(cause.getStackTrace());
            System.err.println("fxdriver: caused by " + cause + (own == null ? "" : " at " + own.getFileName() + ":" + own.getLineNumber()));
            if (where == null) where = own;
            error = cause;
            cause = cause.getCause();
        }
        String at = where == null ? "" : " at " + where.getFileName() + ":" + where.getLineNumber();
        System.err.println("fxdriver: the program crashed: " + error + at);
        showBoard(); // its board as the crash left it, where a game had begun
        System.err.flush();
        quitting = true;
        Runtime.getRuntime().halt(1);
    }

    /** The first frame of the team's own code (not Java's, JavaFX's or the driver's), or null. */
    private static StackTraceElement teamFrame(StackTraceElement[] frames) {
        for (StackTraceElement frame : frames) {
            String name = frame.getClassName();
            if (name.startsWith("java.") || name.startsWith("javafx.") || name.startsWith("com.sun.")
                    || name.startsWith("jdk.") || name.startsWith("sun.") || name.startsWith("adjacency.fxdriver.")) {
                continue;
            }
            return frame;
        }
        return null;
    }

    /**
     * A move the program has not made after {@link #STUCK_MS}: where its JavaFX thread is, said
     * once, so that a window that hangs tells the team its file and line (or that the thread
     * waits in JavaFX itself).
     */
    private void stuck(String waiting) {
        String where = javafxThread(true);
        if (where != null) System.err.println("fxdriver: " + waiting + " for " + STUCK_MS / 1000 + " s; " + where);
        showBoard(!pictured); // a picture at the first wait of a game only (each is sent)
        pictured = true;
    }

    /**
     * Send on the protocol where the program is thinking now ({@link #programThread}),
     * {@code when} in words ("at its clock's end"), where a thread runs its code: the
     * server adds the line to a lost move's words as it comes.
     */
    private void noteThinking(String when) {
        String where = programThread();
        if (where != null) send("info string " + WHERE + " " + when + ", " + where);
    }

    /**
     * Where the program is thinking now, in words as a lost move tells it: the JavaFX
     * thread where it runs the program's code ("its JavaFX thread was RUNNABLE in the
     * program at MiniMax.java:130"), else the first other thread of the program's that
     * does, a running one first ("its thread 'pool-2-thread-1' was RUNNABLE in the program
     * at Bot.java:88"); null where no thread runs the program's code.
     */
    private static String programThread() {
        String found = null;
        for (Map.Entry<Thread, StackTraceElement[]> entry : Thread.getAllStackTraces().entrySet()) {
            Thread thread = entry.getKey();
            if (driverThread(thread)) continue;
            StackTraceElement own = teamFrame(entry.getValue());
            if (own == null) continue;
            boolean javafx = thread.getName().equals("JavaFX Application Thread");
            String at = (javafx ? "its JavaFX thread" : "its thread '" + thread.getName() + "'") + " was " + thread.getState()
                    + " in the program at " + own.getFileName() + ":" + own.getLineNumber();
            if (javafx) return at;
            if (found == null || thread.getState() == Thread.State.RUNNABLE && !found.contains(" was RUNNABLE ")) found = at;
        }
        return found;
    }

    /** Whether {@code thread} is the driver's own (its threads, or the one asking), not the program's. */
    private static boolean driverThread(Thread thread) {
        return thread.getName().startsWith("fxdriver") || thread == Thread.currentThread();
    }

    /**
     * Where the JavaFX thread is now, in words: its state and the program's innermost frame
     * ("the JavaFX thread is RUNNABLE in the program at MiniMax.java:130"), with its top
     * frames where {@code top}; null where there is no such thread.
     */
    private static String javafxThread(boolean top) {
        for (Map.Entry<Thread, StackTraceElement[]> entry : Thread.getAllStackTraces().entrySet()) {
            Thread thread = entry.getKey();
            if (!thread.getName().equals("JavaFX Application Thread")) continue;
            StackTraceElement[] frames = entry.getValue();
            StackTraceElement own = teamFrame(frames);
            StringBuilder out = new StringBuilder("the JavaFX thread is ").append(thread.getState());
            if (own != null) out.append(" in the program at ").append(own.getFileName()).append(':').append(own.getLineNumber());
            if (top) {
                out.append(", at ");
                for (int i = 0; i < Math.min(4, frames.length); i++) out.append(i == 0 ? "" : " < ").append(frames[i]);
            }
            return out.toString();
        }
        return null;
    }

    /**
     * The program's board as its window shows it: its picture (with {@code --pictures}, on the
     * protocol, before the words) and, on standard error (among
     * the last lines a loss keeps), a line a row from the window's top, its own marks, "."
     * for an empty square; or that the window did not answer the look. Called from the
     * JavaFX thread itself (a crash in the program's handler), it looks at once.
     */
    private void showBoard() {
        showBoard(true);
    }

    private void showBoard(boolean withPicture) {
        Button[][] cells = board;
        if (cells == null) return;
        if (withPicture) picture(cells);
        try {
            String[] marks = Fx.now(() -> Screen.marks(cells), CALL_MS);
            System.err.println("fxdriver: its board as its window shows it, top row first:");
            for (int r = 0; r < Rules.N; r++) {
                StringBuilder row = new StringBuilder("fxdriver:   ");
                for (int c = 0; c < Rules.N; c++) {
                    String mark = marks[r * Rules.N + c];
                    row.append(c == 0 ? "" : " ").append(mark.isEmpty() ? "." : mark);
                }
                System.err.println(row);
            }
        } catch (TimeoutException busy) {
            System.err.println("fxdriver: its board could not be read: its window does not answer");
        }
        System.err.flush();
    }

    /**
     * The game window's picture, sent on the protocol in parts ({@code info string board-png
     * K/N BASE64}); nothing if it cannot be taken, or is larger than {@link #MAX_PICTURE}.
     */
    private void picture(Button[][] cells) {
        if (!pictures) return;
        try {
            byte[] png = Fx.now(() -> Screen.png(cells[0][0].getScene()), PICTURE_MS);
            if (png.length > MAX_PICTURE) {
                System.err.println("fxdriver: no picture of its board: " + png.length + " bytes, over " + MAX_PICTURE);
                return;
            }
            String text = Base64.getEncoder().encodeToString(png);
            int parts = (text.length() + PART - 1) / PART;
            for (int k = 0; k < parts; k++) {
                String part = text.substring(k * PART, Math.min(text.length(), (k + 1) * PART));
                send("info string board-png " + (k + 1) + "/" + parts + " " + part);
            }
        } catch (TimeoutException busy) {
            System.err.println("fxdriver: no picture of its board: its window does not answer");
        } catch (Exception | Error failed) {
            System.err.println("fxdriver: no picture of its board: " + failed);
        }
    }

    private static void fail(String message) {
        System.err.println("fxdriver: " + message);
        System.err.flush();
        Runtime.getRuntime().halt(1);
    }

    // ---------------------------------------------------------------- the program's windows

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
    private Window firstWindow(long waitMillis) throws InterruptedException {
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

    /** One window on the way to the board: its controls as they showed, and the button pressed there. */
    private record Step(Window window, List<Form.Control> controls, String pressed) {}

    /** The values each control showed when the driver first read it (before it set any). */
    private final Map<Node, String> firstSeen = new IdentityHashMap<>();

    /** The steps from the first window to the board, once followed. */
    private final List<Step> steps = new ArrayList<>();

    /** The picture of the window with the most controls to fill, taken before its button (a dry run's). */
    private byte[] formPicture;
    private int formPictureFields = -1;
    private String formTitle;
    /** Whether a dry run is pressing a button on trial (a throw in its handler ends no look). */
    private volatile boolean trying;
    private final List<String> trialErrors = java.util.Collections.synchronizedList(new ArrayList<>());
    /** Why a dry run found no way to the board, or null. */
    private String stuck;

    /**
     * Follow the program's windows from its first to the board (class comment): each filled
     * by the settings, the {@code rounds} and who moves first ({@code botFirst}) where it has
     * them (null: a dry run sets neither), then its button pressed. The board, or a
     * {@link Failure} saying which window led nowhere.
     */
    private Button[][] follow(Integer rounds, Boolean botFirst, long waitMillis) throws InterruptedException {
        Window window = firstWindow(waitMillis);
        if (window == null) throw new Failure("no window with a button opened within " + waitMillis / 1000 + " s");
        Set<Window> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<String> found = new java.util.HashSet<>();
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
            if (dryRun) picture(window, shown);
            List<String> heard = new ArrayList<>();
            Object next = null;
            String pressed = null;
            for (Form.Control button : buttons) {
                if (next != null) break;
                if (pressed != null) fill(window, rounds, botFirst, found); // a button may have cleared the form
                pressed = button.label() != null && !button.label().isBlank() ? button.label() : button.id();
                List<String> before = values(window);
                trying = dryRun || k >= presses.size();
                trialErrors.clear();
                Fx.post(((Button) button.node())::fire);
                next = k < presses.size() && !dryRun ? awaitNext(seen) : tryNext(seen, heard, window, before);
                trying = false;
                heard.addAll(trialErrors);
            }
            if (next == null) {
                String why = "no button of the window '" + title(window) + "' opened the board or another window (pressed: "
                        + Form.names(buttons) + (heard.isEmpty() ? "" : "; it said: " + String.join("; ", heard)) + ")";
                if (!dryRun) throw new Failure(why);
                steps.add(new Step(window, shown, null)); // the form so far: its recipe may fill what it asked for
                stuck = why;
                return null;
            }
            steps.add(new Step(window, shown, pressed));
            if (next instanceof Button[][] cells) {
                if (rounds != null && !found.contains(roundsKey)) {
                    throw new Failure("no window on the way to the board has the control for the number of rounds '" + roundsKey + "'");
                }
                if (botFirst != null && first != null && !found.contains(first[0])) {
                    throw new Failure("no window on the way to the board has the control '" + first[0] + "' that says who moves first");
                }
                if (!dryRun) {
                    for (String key : settings.keySet()) {
                        if (!found.contains(key)) throw new Failure("no window on the way to the board has a control named '" + key + "'");
                    }
                }
                return cells;
            }
            window = (Window) next;
        }
    }

    /** The buttons in the order they are tried: the default button, then from the last to the first. */
    private static List<Form.Control> trialOrder(List<Form.Control> buttons) {
        List<Form.Control> order = new ArrayList<>(buttons);
        Collections.reverse(order);
        order.sort((a, b) -> Boolean.compare(((Button) b.node()).isDefaultButton(), ((Button) a.node()).isDefaultButton()));
        return order;
    }

    /**
     * Fill {@code window}: each setting whose control shows there, then the rounds and who
     * moves first, the form read again after every value set; the keys set are added to
     * {@code found}.
     */
    private void fill(Window window, Integer rounds, Boolean botFirst, Set<String> found) {
        Map<String, String> wanted = new LinkedHashMap<>(settings);
        if (rounds != null && roundsKey != null) wanted.put(roundsKey, Integer.toString(rounds));
        if (botFirst != null && first != null) wanted.put(first[0], botFirst ? first[1] : first[2]);
        if (botFirst != null && sides != null) {
            wanted.put(sides[0], botFirst ? sides[2] : sides[3]);
            wanted.put(sides[1], botFirst ? sides[3] : sides[2]);
        }
        try {
            Fx.call(() -> {
                Set<String> done = new java.util.HashSet<>();
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
            }, 10_000);
        } catch (TimeoutException busy) {
            throw new Failure("the window '" + title(window) + "' did not answer within 10 s");
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
            return Fx.call(() -> {
                List<Form.Control> controls = Form.read(window.getScene().getRoot());
                remember(controls);
                return controls;
            }, 10_000);
        } catch (TimeoutException busy) {
            throw new Failure("the window '" + title(window) + "' did not answer within 10 s");
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
            formPicture = Fx.call(() -> Screen.png(window.getScene()), 10_000);
            formPictureFields = fields;
            formTitle = window instanceof Stage stage ? stage.getTitle() : null;
        } catch (TimeoutException busy) {
            throw new Failure("the window '" + title(window) + "' did not answer within 10 s");
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
                noteThinking(STUCK_MS / 1000 + " s after its start button, before its board showed");
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

    private Object look(Set<Window> seen) {
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

    private void dryRun() throws Exception {
        follow(null, null, 30_000);
        StringBuilder out = new StringBuilder("{\"title\": ").append(Json.quote(formTitle)).append(", \"path\": [");
        int pressed = 0;
        for (Step step : steps) if (step.pressed() != null) out.append(pressed++ == 0 ? "" : ", ").append(Json.quote(step.pressed()));
        out.append("], \"stuck\": ").append(Json.quote(stuck)).append(", \"controls\": [");
        boolean any = false;
        for (int k = 0; k < steps.size(); k++) {
            for (Form.Control control : steps.get(k).controls()) {
                out.append(any ? ",\n  " : "\n  ").append(control.json(k, firstSeen.get(control.node())));
                any = true;
            }
        }
        out.append("\n]}\n");
        send("form " + Base64.getEncoder().encodeToString(out.toString().getBytes(StandardCharsets.UTF_8)));
        send("window " + Base64.getEncoder().encodeToString(formPicture));
        quitting = true;
        Runtime.getRuntime().halt(0);
    }

    // ---------------------------------------------------------------- the protocol

    private void serve() throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        Thread search = null;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split("\\s+");
            switch (words[0]) {
                case "aep" -> {
                    // The handshake waits for the input window: starting the program is
                    // not charged to its first move.
                    if (firstWindow(60_000) == null) fail("no window with a button opened within 60 s");
                    send("id name " + mainClass);
                    send("id author the team, through its own window");
                    send("aepok");
                }
                case "isready" -> send("readyok");
                case "position" -> setPosition(words);
                case "go" -> {
                    // The move before has sent its bestmove but its thread may not have
                    // ended yet: the next go comes as soon as the opponent answers (a house
                    // bot at once), so wait for it rather than drop this go.
                    if (search != null) search.join(1_000);
                    if (search != null && search.isAlive()) {
                        send("info string error: go while searching");
                    } else {
                        search = new Thread(this::answer, "fxdriver-go");
                        search.setDaemon(true);
                        search.start();
                    }
                }
                case "stop" -> {
                    // Nothing answers for the program; where its clock ran out, the
                    // protocol hears where its JavaFX thread was (its prints may bury a
                    // line on standard error).
                    if (search != null && search.isAlive()) noteThinking("at its clock's end");
                }
                case "quit" -> {
                    quitting = true;
                    Runtime.getRuntime().halt(0);
                }
                default -> {
                    // newgame, setoption: nothing answers for the program
                }
            }
        }
        quitting = true;
        Runtime.getRuntime().halt(0);
    }

    private synchronized void send(String line) {
        protocol.println(line);
        protocol.flush();
    }

    private void setPosition(String[] words) {
        int[] cells;
        int side;
        int left;
        int at;
        if (words.length > 1 && words[1].equals("fen") && words.length >= 5) {
            cells = new int[Rules.N * Rules.N];
            String[] ranks = words[2].split("/");
            if (ranks.length != Rules.N) fail("the program's board is 8x8; the game's is not (" + words[2] + ")");
            for (int r = 0; r < Rules.N; r++) {
                int c = 0;
                for (char ch : ranks[r].toCharArray()) {
                    if (Character.isDigit(ch)) {
                        c += ch - '0';
                    } else {
                        if (c >= Rules.N) fail("the program's board is 8x8; the game's is not (" + words[2] + ")");
                        cells[r * Rules.N + c++] = ch == 'x' ? 1 : 2;
                    }
                }
                if (c != Rules.N) fail("the program's board is 8x8; the game's is not (" + words[2] + ")");
            }
            side = words[3].equals("x") ? 1 : 2;
            left = Integer.parseInt(words[4]);
            at = 5;
        } else {
            cells = Rules.start();
            side = 1;
            int rows = 8, cols = 8, rounds = 28;
            at = 2;
            for (; at + 1 < words.length && !words[at].equals("moves"); at += 2) {
                switch (words[at]) {
                    case "rows" -> rows = Integer.parseInt(words[at + 1]);
                    case "cols" -> cols = Integer.parseInt(words[at + 1]);
                    case "rounds" -> rounds = Integer.parseInt(words[at + 1]);
                    case "first" -> side = words[at + 1].equals("x") ? 1 : 2;
                    default -> { }
                }
            }
            if (rows != Rules.N || cols != Rules.N) fail("the program's board is 8x8; the game's is " + rows + "x" + cols);
            left = 2 * rounds;
        }
        if (at < words.length && words[at].equals("moves")) {
            for (int i = at + 1; i < words.length; i++) {
                int square = Rules.square(words[i]);
                if (square < 0 || cells[square] != 0) fail("a move the driver cannot play: " + words[i]);
                cells = Rules.place(cells, square, side);
                side = 3 - side;
                left--;
            }
        }
        synchronized (this) {
            position = cells;
            sideToMove = side;
            pliesLeft = left;
        }
    }

    // ---------------------------------------------------------------- a move

    private void answer() {
        int[] asked;
        int side;
        int left;
        synchronized (this) {
            asked = position;
            side = sideToMove;
            left = pliesLeft;
        }
        long cpuBefore = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        try {
            if (asked == null) throw new Failure("go before any position");
            if (!playing) begin(asked, side, left);
            int[] before = model;
            if (!Arrays.equals(asked, model)) {
                int opponent = Rules.explain(model, asked, 3 - botSide, true);
                if (opponent < 0) {
                    throw new Failure("the game's position " + Rules.show(asked) + " is not one move of the opponent from the program's board " + Rules.show(model));
                }
                fire(opponent);
                before = asked;
            }
            int move = awaitMove(before);
            model = Rules.place(before, move, botSide);
            long cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            send("info string driver cpu " + (cpu - cpuBefore) / 1000 + " us");
            send("bestmove " + Rules.name(move));
        } catch (Failure failure) {
            showBoard();
            fail(failure.getMessage());
        } catch (InterruptedException e) {
            fail("interrupted");
        }
    }

    /** Follow the windows to the board, each filled for this game: the program's game starts. */
    private void begin(int[] asked, int side, int left) throws InterruptedException {
        int pieces = 0;
        for (int cell : asked) if (cell != 0) pieces++;
        int played = pieces - 8;
        int rounds = (played + left) / 2;
        int firstSide = played % 2 == 0 ? side : 3 - side;
        botSide = side;
        boolean botFirst = botSide == firstSide;
        playing = true;
        if (sides != null) botMark = botFirst ? "X" : "O"; // X moves first in such a program
        board = follow(rounds, botFirst, 60_000);
        String[] marks = read(board);
        String bottomLeft = marks[(Rules.N - 1) * Rules.N], topRight = marks[Rules.N - 1];
        if (bottomLeft.isEmpty() || topRight.isEmpty() || bottomLeft.equals(topRight)) {
            throw new Failure("the board's corners show '" + bottomLeft + "' and '" + topRight + "': not the start of a game");
        }
        if (!botMark.equals(bottomLeft) && !botMark.equals(topRight)) {
            throw new Failure("the bot's mark '" + botMark + "' is on neither corner (they show '" + bottomLeft + "' and '" + topRight + "')");
        }
        opponentMark = botMark.equals(bottomLeft) ? topRight : bottomLeft;
        boolean botBottomLeft = botMark.equals(bottomLeft);
        halfTurn = botBottomLeft != (botSide == 1);
        model = Rules.start();
        System.err.println("fxdriver: plays " + rounds + " rounds, the bot's mark " + botMark + " as " + (botSide == 1 ? "X" : "O")
                + (botFirst ? ", moving first" : ", moving second") + (halfTurn ? ", the board a half-turn apart" : ""));
    }

    /** The board's marks (on the JavaFX thread, waiting while it is busy). */
    private String[] read(Button[][] cells) throws InterruptedException {
        long began = System.currentTimeMillis();
        boolean said = false;
        while (true) {
            try {
                return Fx.call(() -> Screen.marks(cells), CALL_MS);
            } catch (TimeoutException busy) {
                if (!said && System.currentTimeMillis() - began > STUCK_MS) {
                    stuck("the program's window has not answered");
                    said = true;
                }
                Thread.sleep(POLL_MS);
            }
        }
    }

    /** The program's board in the protocol's terms (X 1, O 2, the half-turn applied). */
    private int[] cells(String[] marks) {
        int[] cells = new int[Rules.N * Rules.N];
        for (int i = 0; i < marks.length; i++) {
            int square = halfTurn ? Rules.N * Rules.N - 1 - i : i;
            String mark = marks[i];
            if (mark.isEmpty()) continue;
            if (mark.equals(botMark)) {
                cells[square] = botSide;
            } else if (mark.equals(opponentMark)) {
                cells[square] = 3 - botSide;
            } else {
                int r = i / Rules.N, c = i % Rules.N;
                throw new Failure("the program's square at row " + r + ", column " + c + " shows '" + mark + "', neither player's mark");
            }
        }
        return cells;
    }

    /** Fire the opponent's move on its button, until the program shows it there. */
    private void fire(int square) throws InterruptedException {
        int index = halfTurn ? Rules.N * Rules.N - 1 - square : square;
        Button button = board[index / Rules.N][index % Rules.N];
        long lastFire = System.currentTimeMillis();
        long began = lastFire;
        Fx.post(button::fire);
        boolean told = false;
        boolean said = false;
        while (true) {
            Thread.sleep(POLL_MS);
            if (!said && System.currentTimeMillis() - began > STUCK_MS) {
                stuck("the opponent's move " + Rules.name(square) + " has not shown");
                said = true;
            }
            int[] now = cells(read(board));
            if (now[square] != 0) return;
            closeAlerts();
            if (System.currentTimeMillis() - lastFire > 200) {
                if (!told) {
                    System.err.println("fxdriver: the program has not taken the opponent's move " + Rules.name(square) + " yet; pressing again");
                    told = true;
                }
                lastFire = System.currentTimeMillis();
                Fx.post(button::fire);
            }
        }
    }

    /**
     * The bot's move: the board read until it changes and holds still, then explained. A
     * program that waits idle at its bot's turn (its JavaFX thread answers, its threads use
     * no CPU) with a button to move its bot enabled on the board's window has that button
     * pressed once, as its person would ({@link #botButton}).
     */
    private int awaitMove(int[] before) throws InterruptedException {
        long began = System.currentTimeMillis();
        boolean said = false;
        boolean pressed = false;
        long cpuAt = programCpu();
        long cpuSince = began;
        while (true) {
            if (!said && System.currentTimeMillis() - began > STUCK_MS) {
                stuck("the program's bot has not moved");
                noteThinking(STUCK_MS / 1000 + " s into its move"); // heard where a stop never comes
                said = true;
            }
            int[] now = cells(read(board));
            if (Arrays.equals(now, before)) {
                closeAlerts();
                long at = System.currentTimeMillis();
                if (!pressed && at - cpuSince >= IDLE_MS) {
                    long cpu = programCpu();
                    boolean idle = cpu - cpuAt < IDLE_CPU_NS;
                    cpuAt = cpu;
                    cpuSince = at;
                    Button button = idle ? botButton() : null;
                    if (button != null) {
                        System.err.println("fxdriver: the program waits at its bot's turn; pressing its button '" + button.getText() + "'");
                        Fx.post(button::fire);
                        pressed = true;
                    }
                }
                Thread.sleep(POLL_MS);
                continue;
            }
            Thread.sleep(POLL_MS * 3);
            int[] again = cells(read(board));
            if (!Arrays.equals(now, again)) continue; // still being drawn
            int move = Rules.explain(before, now, botSide, true);
            if (move >= 0) return move;
            int occupied = Rules.explain(before, now, botSide, false);
            if (occupied >= 0) {
                System.err.println("fxdriver: the program's bot marked " + Rules.name(occupied) + ", a square that was not empty");
                showBoard();
                return occupied;
            }
            throw new Failure("the program's board changed from " + Rules.show(before) + " to " + Rules.show(now) + ": no single move of the bot does that");
        }
    }

    /** The CPU time of the program's threads (every thread but the driver's own), in ns. */
    private static long programCpu() {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long total = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (driverThread(thread)) continue;
            long cpu = threads.getThreadCpuTime(thread.getId());
            if (cpu > 0) total += cpu;
        }
        return total;
    }

    /**
     * The button a person would press to have the bot move, or null: none, or the JavaFX
     * thread busy (the program is not waiting then). Of the enabled buttons of the board's
     * window that are not squares and neither end nor restart a game, the first whose text
     * names the bot ("Move Bot", "AI move"), else the only one ("Next", beside the course
     * window's own "End Game" and "Play New Game"); never one of several unnamed.
     */
    private Button botButton() {
        try {
            return Fx.call(() -> {
                Set<Node> squares = Collections.newSetFromMap(new IdentityHashMap<>());
                for (Button[] row : board) squares.addAll(Arrays.asList(row));
                List<Button> left = new ArrayList<>();
                for (Form.Control control : Form.read(board[0][0].getScene().getRoot())) {
                    if (!(control.node() instanceof Button button) || squares.contains(button) || button.isDisabled()) continue;
                    String text = button.getText() == null ? "" : button.getText();
                    if (ENDS_GAME.matcher(text).find()) continue;
                    if (BOT_BUTTON.matcher(text).find()) return button;
                    left.add(button);
                }
                return left.size() == 1 ? left.get(0) : null;
            }, CALL_MS);
        } catch (TimeoutException busy) {
            return null;
        }
    }

    /** Close the alerts showing, keeping their text on standard error; an error alert fails. */
    private void closeAlerts() {
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
}
