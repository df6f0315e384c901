package adjacency.fxdriver;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import javafx.application.Application;
import javafx.scene.control.Button;

/**
 * Plays a team's own JavaFX program through its own window, in the program's JVM, and speaks
 * the engine protocol (docs/protocol.md, {@link Protocol}).
 *
 * <p>{@code Driver [options] -- MAIN [ARGS]} starts the team's class {@code MAIN} as the student
 * ran it (its {@code main}, or {@code Application.launch} for an Application without one). At
 * the first {@code go} it follows the program's windows as a person does until the board
 * shows (8x8 buttons of one grid: {@link Windows}), then fires the opponent's moves on the
 * board's buttons and reads the bot's moves from it ({@link Game}). Nothing answers for the
 * program: a crash, an error alert or a window that cannot be driven ends the driver with the
 * reason on standard error and exit status 1.
 *
 * <p>Options ({@link Options}): {@code --set KEY VALUE} (a control by its name or fx:id: a
 * text, an option, true or false), {@code --rounds KEY}, {@code --first KEY BOT PERSON} (the
 * values that make the bot, or the person, move first), {@code --sides XKEY OKEY BOT PERSON}
 * (for a program whose X always moves first and that has a box per player: the bot goes on
 * X's box when it moves first, on O's when it moves second, the person on the other; its mark
 * is then the side's), {@code --press KEY} (the button to press in the next window, once for
 * each window in turn), {@code --bot-mark TEXT} (the mark the bot's pieces show, default O),
 * {@code --dry-run} (write the form and a picture of the input window on the protocol, as
 * the lines {@code form BASE64-JSON} and {@code window BASE64-PNG}, then exit: {@link
 * Windows#form}), {@code --pictures} (send a PNG picture of the game window on the protocol at
 * a failure and at the first move that hangs, as {@code info string board-png K/N BASE64}
 * lines), {@code --fds} (the protocol on descriptors 3 and 4: {@link Protocol}). Nothing is
 * written to a file: the program's sandbox has no folder of the server's to write.
 *
 * <p>The driver is a named module ({@code adjacency.fxdriver}) that exports and opens no
 * package, started with the team's classes on the class path: the team's code cannot name its
 * classes nor reach its fields by reflection. Its protocol channel is opened before the team's
 * class is loaded, and its handler of uncaught exceptions is installed after the team's class
 * has been initialized (its static code has run), just before its {@code main} is called.
 */
public final class Driver {
    private final Options options;
    private final Protocol protocol;
    private final Windows windows;
    /** The sampler of the program's calls of its bot ({@link Game#span}). */
    private final BotCalls calls = BotCalls.start();
    /** The game once its board showed (a crash tells its board), else null. */
    private volatile Game game;
    private volatile boolean quitting;

    private Driver(Options options, Protocol protocol) {
        this.options = options;
        this.protocol = protocol;
        this.windows = new Windows(options, protocol);
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (Failure failure) {
            System.err.println("fxdriver: " + failure.getMessage());
            System.exit(2);
            return;
        }
        Protocol protocol;
        try {
            protocol = Protocol.open(options.fds);
        } catch (IOException failed) {
            System.err.println("fxdriver: the protocol's descriptors cannot be opened: " + failed.getMessage());
            System.exit(2);
            return;
        }
        System.setOut(System.err); // the program's own prints never reach the protocol
        Driver driver = new Driver(options, protocol);
        Class<?> main;
        try {
            main = Class.forName(options.mainClass); // the team's static code runs here
        } catch (ClassNotFoundException | LinkageError failed) {
            driver.crashed(Thread.currentThread(), failed);
            return;
        }
        Thread.setDefaultUncaughtExceptionHandler(driver::crashed);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (driver.quitting) return;
            System.err.println("fxdriver: the program ended the JVM");
            Game shown = driver.game;
            if (shown != null) shown.show(false); // the board it ended on, among its last lines
        }, "fxdriver-exit"));
        driver.startProgram(main);
        if (options.dryRun) {
            driver.dryRun();
        } else {
            driver.serve();
        }
    }

    /** The team's main class started as the student ran it, on a thread of its own. */
    private void startProgram(Class<?> main) {
        Method entry;
        try {
            entry = main.getMethod("main", String[].class);
            if (!Modifier.isStatic(entry.getModifiers())) entry = null;
        } catch (NoSuchMethodException none) {
            entry = null;
        }
        if (entry == null && !Application.class.isAssignableFrom(main)) {
            fail(options.mainClass + " has no main method and is not a JavaFX Application");
        }
        Method chosen = entry;
        Thread thread = new Thread(() -> {
            try {
                if (chosen != null) {
                    chosen.invoke(null, (Object) options.programArgs);
                } else {
                    @SuppressWarnings("unchecked")
                    Class<? extends Application> app = (Class<? extends Application>) main;
                    Application.launch(app, options.programArgs);
                }
            } catch (InvocationTargetException e) {
                crashed(Thread.currentThread(), e.getCause());
            } catch (Exception e) {
                crashed(Thread.currentThread(), e);
            }
        }, "main");
        thread.start();
    }

    /**
     * The program crashed: told in its own frames ({@link Threads#crashLines}), its board as
     * the crash left it where a game had begun, then exit status 1. A throw in the handler of
     * a button pressed on trial ends nothing ({@link Windows#trialError}).
     */
    private void crashed(Thread thread, Throwable error) {
        if (windows.trialError(thread, error)) return;
        for (String line : Threads.crashLines(thread.getName(), error)) System.err.println(line);
        Game shown = game;
        if (shown != null) shown.show(true);
        System.err.flush();
        quitting = true;
        Runtime.getRuntime().halt(1);
    }

    private static void fail(String message) {
        System.err.println("fxdriver: " + message);
        System.err.flush();
        Runtime.getRuntime().halt(1);
    }

    private void dryRun() throws InterruptedException {
        Button[][] board = windows.follow(null, null, 30_000);
        if (board != null) {
            windows.watch(board);
            windows.seeBot(board);
        }
        protocol.send("form " + windows.form());
        protocol.send("window " + java.util.Base64.getEncoder().encodeToString(windows.formPicture()));
        quitting = true;
        Runtime.getRuntime().halt(0);
    }

    // ---------------------------------------------------------------- the protocol

    private void serve() throws Exception {
        String line;
        Thread search = null;
        Setup asked = null; // the last position: read by the next go, on this thread
        while ((line = protocol.read()) != null) {
            String[] words = line.trim().split("\\s+");
            switch (words[0]) {
                case "aep" -> {
                    // The handshake waits for the input window: starting the program is
                    // not charged to its first move.
                    if (windows.firstWindow(60_000) == null) fail("no window with a button opened within 60 s");
                    protocol.send("id name " + options.mainClass);
                    protocol.send("id author the team, through its own window");
                    protocol.send("aepok");
                }
                case "isready" -> protocol.send("readyok");
                case "position" -> {
                    try {
                        asked = Setup.parse(words);
                    } catch (Failure failure) {
                        fail(failure.getMessage());
                    }
                }
                case "go" -> {
                    // The move before has sent its bestmove but its thread may not have
                    // ended yet: the next go comes as soon as the opponent answers (a house
                    // bot at once), so wait for it rather than drop this go.
                    if (search != null) search.join(1_000);
                    if (search != null && search.isAlive()) {
                        protocol.send("info string error: go while searching");
                    } else {
                        Setup setup = asked; // handed to the search thread as it starts
                        search = new Thread(() -> answer(setup), "fxdriver-go");
                        search.setDaemon(true);
                        search.start();
                    }
                }
                case "stop" -> {
                    // Nothing answers for the program; where its clock ran out, the
                    // protocol hears where its JavaFX thread was (its prints may bury a
                    // line on standard error).
                    if (search != null && search.isAlive()) protocol.thinking("at its clock's end");
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

    /** The bot's move in {@code setup}, sent as {@code bestmove}, the game begun at the first. */
    private void answer(Setup setup) {
        long cpuBefore = Threads.ownCpu(), callsCpuBefore = calls.cpuNanos();
        try {
            if (setup == null) throw new Failure("go before any position");
            Game playing = game;
            if (playing == null) playing = Game.begin(options, protocol, windows, setup, calls, begun -> game = begun);
            int move = playing.answer(setup.cells());
            long driverCpu = Threads.ownCpu() - cpuBefore + calls.cpuNanos() - callsCpuBefore;
            protocol.send("info string driver cpu " + driverCpu / 1000 + " us");
            double span = playing.span();
            if (span >= 0) {
                String line = String.format(java.util.Locale.ROOT, "info string %s %.4f", Protocol.SPAN, span);
                double waited = playing.spanWaited();
                if (waited >= 0) line += String.format(java.util.Locale.ROOT, " %s %.4f", Protocol.WAITED, waited);
                protocol.send(line);
            }
            protocol.send("bestmove " + Rules.name(move));
        } catch (Failure failure) {
            Game shown = game;
            if (shown != null) shown.show(true);
            fail(failure.getMessage());
        } catch (InterruptedException e) {
            fail("interrupted");
        }
    }
}
