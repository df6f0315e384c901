package adjacency.fxdriver;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The driver's side of the engine protocol (docs/protocol.md): its lines in and out, the
 * pictures it sends in parts, and where the program thinks, said as an {@code info string}.
 *
 * <p>Only the driver speaks. The channel is opened before the team's class is loaded and is
 * held in a named module that opens no package, so the team's code can reach it neither by
 * {@code System.out} (the program's prints go to standard error) nor by reflection. With
 * {@code --fds} the protocol is off the JVM's standard descriptors altogether: the launch
 * hands it on descriptors 3 (out) and 4 (in), with standard output on standard error and
 * standard input empty, so a program that writes to the JVM's own standard output
 * ({@code FileDescriptor.out}) writes to standard error, and Java gives the team's code no
 * way to name another descriptor ({@code /proc/self/fd} cannot open the server's pipes, which
 * are another user's). What stays open to a program set on it is the JDK's unsupported memory
 * access ({@code sun.misc.Unsafe}, which JavaFX itself requires): a line sent through it is
 * its code's answer, as any bot's is, judged by the same referee and clock.
 */
final class Protocol {
    /** The first word of the {@code info string} that says, at a stop, where the program is thinking. */
    static final String WHERE = "javafx-thread";
    /**
     * The first word of the {@code info string} sent before a {@code bestmove}: the seconds the
     * program's bot took at that move, timed inside the JVM ({@link Game#span}).
     */
    static final String SPAN = "bot-span";
    /**
     * The word after a {@link #SPAN}'s seconds, then the seconds of the span in which the
     * program waited for a CPU ({@link Game#spanWaited}): {@code bot-span 0.1234 waited
     * 0.0100}. Without it, the server takes the whole move's waits off the span.
     */
    static final String WAITED = "waited";
    /** Characters of base64 a protocol line carries (the server reads lines of 64 KiB). */
    static final int PART = 32 * 1024;
    /** The descriptors the launch hands the protocol on with {@code --fds}. */
    static final int OUT_FD = 3, IN_FD = 4;

    private final PrintStream out;
    private final BufferedReader in;

    private Protocol(OutputStream out, InputStream in) {
        this.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        this.in = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    /**
     * The protocol's channel: on descriptors {@link #OUT_FD} and {@link #IN_FD} where
     * {@code fds}, else on the JVM's standard output and input (a person running the driver
     * by hand). Called before anything of the team's runs.
     */
    static Protocol open(boolean fds) throws IOException {
        if (fds) return new Protocol(new FileOutputStream(descriptor(OUT_FD)), new FileInputStream(descriptor(IN_FD)));
        return new Protocol(new FileOutputStream(FileDescriptor.out), new FileInputStream(FileDescriptor.in));
    }

    /**
     * The JVM's descriptor {@code fd}. Java names none but 0, 1 and 2, and {@code
     * /proc/self/fd} cannot open a pipe of the server's (another user's): the launch opens
     * {@code java.io} to this module alone ({@code --add-opens
     * java.base/java.io=adjacency.fxdriver}), never to the team's classes.
     */
    private static FileDescriptor descriptor(int fd) throws IOException {
        try {
            java.lang.reflect.Constructor<FileDescriptor> make = FileDescriptor.class.getDeclaredConstructor(int.class);
            make.setAccessible(true);
            return make.newInstance(fd);
        } catch (ReflectiveOperationException | RuntimeException closed) {
            throw new IOException("descriptor " + fd + ": " + closed, closed);
        }
    }

    /** The next line the server sent, or null at its end. */
    String read() throws IOException {
        return in.readLine();
    }

    /** Send {@code line} whole (lines of several threads never interleave). */
    synchronized void send(String line) {
        out.println(line);
        out.flush();
    }

    /** Send {@code png} as {@code info string board-png K/N BASE64} lines of at most {@link #PART} characters. */
    void picture(byte[] png) {
        String text = Base64.getEncoder().encodeToString(png);
        int parts = (text.length() + PART - 1) / PART;
        for (int k = 0; k < parts; k++) {
            String part = text.substring(k * PART, Math.min(text.length(), (k + 1) * PART));
            send("info string board-png " + (k + 1) + "/" + parts + " " + part);
        }
    }

    /**
     * Say where the program is thinking now ({@link Threads#programThread}), {@code when} in
     * words ("at its clock's end"), where a thread runs its code: the server adds the line to
     * a lost move's words as it comes.
     */
    void thinking(String when) {
        String where = Threads.programThread();
        if (where != null) send("info string " + WHERE + " " + when + ", " + where);
    }
}
