package adjacency.kit;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Runs a {@link Bot} over the engine protocol (docs/protocol.md) on standard input and output.
 *
 * <pre>
 * java -cp build adjacency.kit.Main alphabeta            # or greedy: the kit's own bots
 * java -cp build adjacency.kit.Main MyBot                # a class that implements Bot
 * java -cp build adjacency.kit.Main pkg.Bot 2 minimax    # a course bot and its arguments
 * java -cp build adjacency.kit.Main --inspect [CLASS ARGS...]  # which course bots, called how
 * java -cp build adjacency.kit.Main --rules              # test mode: positions in, facts out
 * </pre>
 *
 * Standard output carries protocol lines only: anything else printed with System.out goes
 * to standard error. The bot thinks in a thread of its own, so that {@code isready} and
 * {@code stop} are answered at once. The answer is always the bot's own: the runner never
 * plays a move for it, so a bot that has not returned when its time is up loses on time.
 */
public final class Main {
    /** Share of the move's time the bot is told it may use (the rest covers the start of the JVM's answer and the pipe). */
    static final double AIM = 0.85;
    static final long BARE_GO_MILLIS = 5000;

    private final PrintStream out;
    private final Bot bot;
    private final String name;
    private Board position = Board.start(8, 8, 28, 'x');
    private Search current;

    /** One {@code go}: its deadline, whether it is infinite, the bot's answer once it has one. */
    private static final class Search {
        Deadline deadline;
        Board board;
        boolean infinite;
        boolean stopRequested;
        boolean answered;
        boolean returned;
        long budget;
        long started = System.nanoTime();
        String result;
        String reported; // the move of the last info line sent
    }

    Main(Bot bot, String name, PrintStream out) {
        this.bot = bot;
        this.name = name;
        this.out = out;
    }

    public static void main(String[] args) throws IOException {
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err); // a stray System.out.println must not break the protocol
        String choice = args.length > 0 ? args[0] : "alphabeta";
        List<String> rest = args.length > 1 ? Arrays.asList(args).subList(1, args.length) : List.of();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        if (choice.equals("--rules")) {
            Rules.run(in, protocol);
            return;
        }
        if (choice.equals("--inspect")) {
            System.exit(Inspect.run(rest, protocol));
            return;
        }
        Main main = new Main(makeBot(choice, rest), choice, protocol);
        String line;
        while ((line = in.readLine()) != null) {
            try {
                if (!main.handle(line)) {
                    break;
                }
            } catch (RuntimeException e) { // a bug must not end the session: report it, go on
                e.printStackTrace();
                main.error("internal error on " + quote(line) + ": " + e);
            }
        }
        main.quit();
        System.exit(0);
    }

    /**
     * "greedy", "alphabeta", a class that implements Bot, or a course bot (a class with
     * {@code int[] move(...)}, played by {@link CourseBot} with {@code args}).
     */
    static Bot makeBot(String choice, List<String> args) {
        switch (choice) {
            case "greedy":
                return new GreedyBot();
            case "alphabeta":
                return new AlphaBetaBot();
            default:
                try {
                    Class<?> type = Class.forName(choice);
                    if (Bot.class.isAssignableFrom(type)) {
                        return (Bot) type.getDeclaredConstructor().newInstance();
                    }
                    return CourseBot.of(type, args);
                } catch (ReflectiveOperationException | IllegalArgumentException | LinkageError e) {
                    System.err.println("no bot '" + choice + "' (greedy, alphabeta, a class implementing adjacency.kit.Bot, or a course bot with int[] move(...)): " + e.getMessage());
                    System.exit(2);
                    return null;
                }
        }
    }

    synchronized void send(String line) {
        out.print(line + "\n");
        out.flush();
    }

    void error(String text) {
        send("info string error: " + text);
    }

    static String quote(String line) {
        String text = line.strip();
        return "'" + (text.length() > 80 ? text.substring(0, 80) + "..." : text) + "'";
    }

    /** Handles one line from the controller; false once the session should end. */
    boolean handle(String line) {
        String[] tokens = line.strip().split("[ \t]+");
        if (tokens.length == 0 || tokens[0].isEmpty()) {
            return true;
        }
        List<String> words = Arrays.asList("aep", "isready", "setoption", "newgame", "position", "go", "stop", "quit");
        int at = 0;
        while (at < tokens.length && !words.contains(tokens[at])) {
            at++; // unknown leading tokens are skipped: "joho isready" is "isready"
        }
        if (at == tokens.length) {
            error("unknown command " + quote(line));
            return true;
        }
        String[] args = Arrays.copyOfRange(tokens, at + 1, tokens.length);
        switch (tokens[at]) {
            case "aep":
                send("id name " + name + " (Java kit)");
                send("id author the adjacency project");
                send("aepok");
                break;
            case "isready":
                send("readyok");
                break;
            case "setoption":
                error("this engine has no options: " + quote(line));
                break;
            case "newgame":
                if (current == null) {
                    bot.newGame();
                }
                break;
            case "position":
                try {
                    position = parsePosition(args);
                } catch (IllegalArgumentException e) {
                    error(quote(line) + ": " + e.getMessage());
                }
                break;
            case "go":
                go(line, args);
                break;
            case "stop":
                stop();
                break;
            default: // quit
                return false;
        }
        return true;
    }

    /** The arguments of {@code position} ("startpos ..." or "fen ...") as a board. */
    static Board parsePosition(String[] args) {
        List<String> list = Arrays.asList(args);
        int at = list.indexOf("moves");
        List<String> head = at < 0 ? list : list.subList(0, at);
        List<String> moves = at < 0 ? List.of() : list.subList(at + 1, list.size());
        Board board;
        if (!head.isEmpty() && head.get(0).equals("fen")) {
            if (head.size() < 4) {
                throw new IllegalArgumentException("position fen needs the board, the side and the plies left");
            }
            board = Board.fromFen(head.get(1), head.get(2), head.get(3));
        } else if (!head.isEmpty() && head.get(0).equals("startpos")) {
            int rows = 8;
            int cols = 8;
            int rounds = -1;
            char first = 'x';
            for (int i = 1; i + 1 < head.size(); i += 2) {
                String value = head.get(i + 1);
                switch (head.get(i)) {
                    case "rows": rows = Board.parseNumber(value, "rows"); break;
                    case "cols": cols = Board.parseNumber(value, "cols"); break;
                    case "rounds": rounds = Board.parseNumber(value, "rounds"); break;
                    case "first":
                        if (!value.equals("x") && !value.equals("o")) {
                            throw new IllegalArgumentException("first must be x or o, not '" + value + "'");
                        }
                        first = value.charAt(0);
                        break;
                    default: break; // unknown tokens are ignored
                }
            }
            board = Board.start(rows, cols, rounds < 0 ? Board.mostRounds(rows, cols) : rounds, first);
        } else {
            throw new IllegalArgumentException("expected startpos or fen");
        }
        for (String move : moves) {
            board = board.play(move);
        }
        return board;
    }

    private synchronized void go(String line, String[] args) {
        if (current != null) {
            error("go ignored while searching; send 'stop' first");
            return;
        }
        long movetime = -1;
        long clock = -1;
        int depth = Integer.MAX_VALUE;
        boolean infinite = false;
        boolean limited = false;
        try {
            for (int i = 0; i < args.length; i++) {
                String word = args[i];
                if (word.equals("infinite")) {
                    infinite = true;
                    continue;
                }
                if (!List.of("movetime", "depth", "nodes", "xtime", "otime").contains(word)) {
                    continue; // unknown tokens are ignored
                }
                int value = Board.parseNumber(i + 1 < args.length ? args[++i] : "", word);
                switch (word) {
                    case "movetime": movetime = value; break;
                    case "depth": depth = Math.max(1, value); limited = true; break;
                    case "nodes": break; // not counted by this kit: a bare go's time applies
                    default: // xtime, otime
                        if (word.charAt(0) == position.turn) clock = value;
                        break;
                }
            }
        } catch (IllegalArgumentException e) {
            error(quote(line) + ": " + e.getMessage());
            return;
        }
        if (position.isOver()) {
            error("the game is over in '" + position.fen() + "'; no move to make");
            send("bestmove (none)");
            return;
        }
        long budget; // milliseconds the answer must come within; -1: no limit
        if (movetime >= 0) {
            budget = movetime;
        } else if (infinite) {
            budget = -1;
        } else if (clock >= 0) {
            long movesLeft = Math.max(1, (position.pliesLeft + 1) / 2);
            budget = Math.min(clock / movesLeft, clock * 8 / 10);
        } else {
            budget = limited ? -1 : BARE_GO_MILLIS;
        }
        Search search = new Search();
        search.board = position;
        search.infinite = infinite;
        search.budget = budget;
        search.deadline = new Deadline(budget < 0 ? -1 : (long) (budget * AIM), depth, text -> {
            synchronized (this) {
                if (!search.answered) {
                    send(text);
                    search.reported = text.substring(text.lastIndexOf(' ') + 1);
                }
            }
        });
        current = search;
        Thread thread = new Thread(() -> {
            String move = null;
            try {
                move = bot.move(search.board, search.deadline);
            } catch (RuntimeException | StackOverflowError e) {
                // A bot that throws has crashed: the controller scores the game so and shows
                // the last lines of standard error (this stack trace), not a stand-in move.
                System.err.println("the bot failed: " + e);
                e.printStackTrace();
                System.err.flush();
                Runtime.getRuntime().halt(1);
            }
            finish(search, move);
        }, "search");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * {@code quit} or the end of input. A search with a time budget still answers with the bot's
     * own move if the bot returns within that budget (so a piped {@code go} then {@code quit}
     * shows what the bot plays); one without a budget is stopped now. Nothing is answered for
     * a bot that has not returned by then.
     */
    private synchronized void quit() {
        if (current != null && current.budget < 0) {
            stop();
        }
        while (current != null) {
            long left = current.budget < 0 ? 0 : current.budget - (System.nanoTime() - current.started) / 1_000_000L;
            if (left <= 0) {
                if (current.budget >= 0) {
                    System.err.println("the bot had not answered within its " + current.budget + " ms at quit");
                }
                return;
            }
            try {
                wait(left); // finish() notifies once the answer is sent
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Tells the bot to stop (its deadline has passed); it answers when it returns. */
    private synchronized void stop() {
        if (current != null) {
            current.stopRequested = true;
            current.deadline.stop();
            if (current.returned) {
                finish(current, current.result);
            }
        }
    }

    /**
     * Ends a search with exactly one {@code bestmove}: the bot's own answer. An infinite
     * search keeps an early answer until {@code stop}. When the last {@code info} line the
     * bot reported named another move, an {@code info string} line says which move is sent,
     * so that the last line describes the answer.
     */
    private synchronized void finish(Search search, String move) {
        if (search.answered) {
            return;
        }
        search.returned = true;
        search.result = move;
        if (search.infinite && !search.stopRequested) {
            return;
        }
        String answer = move;
        if (!isLegal(search.board, answer)) {
            // the bot's own answer goes out as it is: the controller judges it illegal
            System.err.println("the bot answered '" + answer + "', not an empty square");
            String token = String.valueOf(answer).replaceAll("\\s+", "");
            answer = token.isEmpty() ? "(none)" : token.substring(0, Math.min(32, token.length()));
        }
        search.answered = true;
        search.deadline.stop();
        current = null;
        if (search.reported != null && !search.reported.equals(answer)) {
            send("info string the bot answers " + answer + ", not the last reported pv " + search.reported);
        }
        send("bestmove " + answer);
        notifyAll(); // a quit waiting for this answer
    }

    static boolean isLegal(Board board, String move) {
        if (move == null) {
            return false;
        }
        try {
            board.play(move);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
