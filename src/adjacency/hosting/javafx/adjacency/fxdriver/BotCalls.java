package adjacency.fxdriver;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When the program called its team's bot at a move, as the course's window times a move: from
 * the skeleton's call of the team's bot to its return. A thread of the driver's samples the
 * program's threads' stacks every {@link #PERIOD_MS} ms while a move is awaited, and notes
 * whether a frame of the team's bot is on one of them ({@link Calls}).
 *
 * <p>The team's bot is a class of the team's (not Java's, JavaFX's or the driver's) that is
 * named for a bot ({@link Calls#botNamed}), itself, a class it is nested in, or a class or
 * interface it extends or implements ({@code MinimaxBot extends Bot}, {@code GeneticBot
 * implements BotBase}), and is not a thread, a JavaFX task or service (the plumbing that calls a
 * bot, and a bot-versus-bot loop that sleeps between moves), a node or an application. A thread
 * with such a frame anywhere on its stack is in a call of the bot, running or not: a bot that
 * sleeps, or waits on its own search's threads, is still being called, as the course's window
 * would time it.
 *
 * <p>Sampling costs the program's sandbox a little CPU (its stacks are read: about 0.2 ms for
 * every thread's, 0.04 ms for the one thread in the bot, which is read alone while it stays
 * there); the driver tells its own threads' CPU on the protocol ({@link #cpuNanos}).
 */
final class BotCalls {
    /** The sampling period: each end of a call is seen within it. */
    static final long PERIOD_MS = 10;
    /** The most class files of the class path looked at for a bot (a project has a few hundred). */
    private static final int MOST_CLASSES = 20_000;
    private static final Path PROC = Path.of("/proc");

    private final Calls calls = new Calls();
    private final Map<String, Boolean> bots = new ConcurrentHashMap<>();
    private final ClassLoader loader = ClassLoader.getSystemClassLoader();
    private final Object lock = new Object();
    private boolean sampling;
    private volatile long cpu;
    /** The thread last seen in a call of the bot (the sampling thread's own), or null. */
    private Thread inBot;
    /** The sandbox's threads' waits for a CPU when the call in progress was first seen, or null. */
    private Map<String, Long> waitsAtCall;
    /** The waits for a CPU within this move's calls ({@link #waitedNanos}). */
    private long waited;

    /** Start the sampling thread (a daemon that samples only between {@link #begin} and {@link #end}). */
    static BotCalls start() {
        BotCalls sampler = new BotCalls();
        Thread thread = new Thread(sampler::run, "fxdriver-bot-calls");
        thread.setDaemon(true);
        thread.start();
        return sampler;
    }

    /** A move begins: the calls of the last one forgotten, the sampling on. */
    void begin() {
        calls.clear();
        synchronized (lock) {
            waited = 0;
            if (waitsAtCall != null) waitsAtCall = Waits.read(PROC); // a call in progress goes on
            sampling = true;
            lock.notifyAll();
        }
    }

    /** The move has been read: the sampling off (a call still in progress has its waits to now). */
    void end() {
        synchronized (lock) {
            sampling = false;
            if (waitsAtCall != null) {
                Map<String, Long> now = Waits.read(PROC);
                waited += Waits.longest(waitsAtCall, now);
                waitsAtCall = now;
            }
        }
    }

    /**
     * The nanoseconds of this move's calls of the bot in which it was held up waiting for a
     * CPU: for each call, the longest wait of one thread of the sandbox ({@link Waits}), the
     * rule the server keeps for a whole move. The server takes them off the span, never more
     * than the span less the move's CPU.
     */
    long waitedNanos() {
        synchronized (lock) {
            return waited;
        }
    }

    /**
     * The nanoseconds in {@code [from, to]} of the last move in which the team's bot was being
     * called, or -1 where the samples cannot tell ({@link Calls#within}).
     */
    long within(long from, long to) {
        return calls.within(from, to);
    }

    /** The CPU time the sampling thread has used, in ns. */
    long cpuNanos() {
        return cpu;
    }

    private void run() {
        var threads = ManagementFactory.getThreadMXBean();
        if (hasBot()) calls.botKnown();
        cpu = threads.getCurrentThreadCpuTime();
        try {
            while (true) {
                synchronized (lock) {
                    while (!sampling) lock.wait();
                }
                boolean now = called();
                calls.sample(System.nanoTime(), now);
                synchronized (lock) {
                    if (now && waitsAtCall == null) {
                        waitsAtCall = Waits.read(PROC);
                    } else if (!now && waitsAtCall != null) {
                        waited += Waits.longest(waitsAtCall, Waits.read(PROC));
                        waitsAtCall = null;
                    }
                }
                cpu = threads.getCurrentThreadCpuTime();
                Thread.sleep(PERIOD_MS);
            }
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whether the team's classes (the folders of the class path) hold its bot: each class
     * loaded, not initialized (none of the team's code runs), and judged by the rule. Where
     * they do, a move in which no sample saw the bot called had a call shorter than a period.
     */
    private boolean hasBot() {
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            Path root = Path.of(entry);
            if (entry.isEmpty() || !Files.isDirectory(root)) continue;
            try (Stream<Path> files = Files.walk(root, 32)) {
                boolean found = files.filter(file -> file.toString().endsWith(".class")).limit(MOST_CLASSES)
                        .map(file -> root.relativize(file).toString())
                        .filter(name -> !name.contains("-")) // module-info, package-info
                        .map(name -> name.substring(0, name.length() - ".class".length()).replace(File.separatorChar, '.'))
                        .anyMatch(name -> bots.computeIfAbsent(name, this::isBot));
                if (found) return true;
            } catch (IOException | java.io.UncheckedIOException unreadable) {
                // a folder it cannot read holds nothing it can load either
            }
        }
        return false;
    }

    /**
     * Whether a thread of the program has a frame of the team's bot on its stack now. The
     * thread last seen in the bot is read alone while it stays there (one thread's stack, not
     * a pause of them all); every thread's stack is read otherwise.
     */
    private boolean called() {
        Thread last = inBot;
        if (last != null && last.isAlive() && inBot(last.getStackTrace())) return true;
        inBot = null;
        for (Map.Entry<Thread, StackTraceElement[]> entry : Thread.getAllStackTraces().entrySet()) {
            if (entry.getKey().getName().startsWith("fxdriver")) continue;
            if (inBot(entry.getValue())) {
                inBot = entry.getKey();
                return true;
            }
        }
        return false;
    }

    /** Whether {@code frames} hold a frame of the team's bot. */
    private boolean inBot(StackTraceElement[] frames) {
        for (StackTraceElement frame : frames) {
            String name = frame.getClassName();
            if (!Threads.platform(name) && bots.computeIfAbsent(name, this::isBot)) return true;
        }
        return false;
    }

    /** Whether the team's class named {@code binaryName} is the team's bot (see the class's rule). */
    private boolean isBot(String binaryName) {
        Class<?> type;
        try {
            type = Class.forName(binaryName, false, loader);
        } catch (ClassNotFoundException | LinkageError notFound) {
            return false; // a hidden class (a lambda's), or one of another loader
        }
        if (Thread.class.isAssignableFrom(type) || javafx.concurrent.Worker.class.isAssignableFrom(type)
                || javafx.scene.Node.class.isAssignableFrom(type) || javafx.application.Application.class.isAssignableFrom(type)) {
            return false;
        }
        for (Class<?> at = type; at != null; at = at.getEnclosingClass()) {
            if (named(at)) return true;
        }
        return false;
    }

    /** Whether {@code type}, a class it extends or an interface it implements is named for a bot. */
    private static boolean named(Class<?> type) {
        for (Class<?> at = type; at != null && at != Object.class; at = at.getSuperclass()) {
            if (Calls.botNamed(at.getSimpleName())) return true;
            for (Class<?> face : at.getInterfaces()) {
                if (named(face)) return true;
            }
        }
        return false;
    }
}
