package adjacency.fxdriver;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The driver's own test of what it computes without a window: {@link Rules}, {@link Setup},
 * {@link Options}, {@link Words}, {@link Json}, {@link Threads}' reading of frames, {@link Waits} and {@link Calls}. It
 * needs the JDK alone: these classes and this one compile and run without JavaFX.
 *
 * <p>{@code SelfTest} runs its checks and prints {@code fxdriver self-test: N checks passed in
 * T ms} (exit 0), or the first that failed (exit 1). {@code SelfTest --positions} reads
 * {@code position} commands, one a line, and answers each with the board, side and plies left
 * ({@code BOARD SIDE LEFT} as {@link Rules#show}, {@code x} or {@code o}), or {@code error:
 * WHY}; {@code SelfTest --plain} answers each line with its {@link Words#plain} form; {@code
 * SelfTest --names} prints the 64 squares' names in the cells' order: the server's test
 * compares them with its own rules.
 */
public final class SelfTest {
    private int checks;

    private SelfTest() {}

    public static void main(String[] args) throws Exception {
        String mode = args.length == 0 ? "" : args[0];
        switch (mode) {
            case "--positions" -> answerLines(SelfTest::position);
            case "--plain" -> answerLines(Words::plain);
            case "--names" -> {
                for (int square = 0; square < Rules.N * Rules.N; square++) System.out.println(Rules.name(square));
            }
            default -> {
                long began = System.nanoTime();
                SelfTest test = new SelfTest();
                try {
                    test.run();
                } catch (AssertionError failed) {
                    System.out.println("fxdriver self-test: FAILED after " + test.checks + " checks: " + failed.getMessage());
                    System.exit(1);
                }
                long millis = (System.nanoTime() - began) / 1_000_000;
                System.out.println("fxdriver self-test: " + test.checks + " checks passed in " + millis + " ms");
            }
        }
    }

    private interface Answer {
        String to(String line);
    }

    private static void answerLines(Answer answer) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        for (String line; (line = in.readLine()) != null; ) out.append(answer.to(line)).append('\n');
        System.out.print(out);
        System.out.flush();
    }

    private static String position(String line) {
        try {
            Setup setup = Setup.parse(line.trim().split("\\s+"));
            return Rules.show(setup.cells()) + " " + (setup.side() == 1 ? "x" : "o") + " " + setup.left();
        } catch (Failure failure) {
            return "error: " + failure.getMessage();
        }
    }

    private void check(boolean holds, String what) {
        checks++;
        if (!holds) throw new AssertionError(what);
    }

    private void equal(Object got, Object wanted, String what) {
        check(java.util.Objects.equals(got, wanted), what + ": got " + got + ", wanted " + wanted);
    }

    private void refused(Runnable work, String says, String what) {
        try {
            work.run();
        } catch (Failure failure) {
            check(failure.getMessage().contains(says), what + ": said '" + failure.getMessage() + "', not '" + says + "'");
            return;
        }
        check(false, what + ": not refused");
    }

    private void run() {
        names();
        rules();
        setups();
        options();
        words();
        json();
        frames();
        waits();
        calls();
    }

    /**
     * {@link Calls}: the names of the team's bots, and the time of the calls inside a span,
     * on drawn samples against the same time counted sample by sample.
     */
    private void calls() {
        for (String bot : new String[] {"Bot", "MinimaxBot", "BotBase", "botGA", "LocalSearchBOT", "GA2Bot"}) {
            check(Calls.botNamed(bot), bot + " names a bot");
        }
        for (String not : new String[] {"OutputFrameController", "BotController", "BotFactory", "BotProvider", "botButton", "Minimax", "Main", "Robot"}) {
            check(!Calls.botNamed(not), not + " names no bot");
        }
        Calls none = new Calls();
        none.sample(10, false);
        equal(none.within(0, 100), -1L, "never seen, no bot named: the samples cannot tell");
        none.botKnown();
        equal(none.within(0, 100), 0L, "a bot named but never seen: its calls were shorter than a period");
        Calls calls = new Calls();
        calls.sample(10, false);
        calls.sample(20, true);
        calls.sample(30, true);
        calls.sample(40, false);
        calls.sample(50, true);
        equal(calls.within(0, 100), 20L + 50L, "a call closed and one in progress to the span's end");
        equal(calls.within(25, 55), 15L + 5L, "the calls clipped to the span");
        calls.clear();
        equal(calls.within(0, 100), 100L, "a call in progress goes on after a clear, from the span's start");
        calls.sample(60, false);
        calls.clear();
        equal(calls.within(0, 100), 0L, "seen before, not in this move: none");
        Random random = new Random(17);
        for (int round = 0; round < 300; round++) {
            Calls drawn = new Calls();
            int n = 1 + random.nextInt(40);
            boolean[] state = new boolean[n];
            long[] at = new long[n];
            long t = random.nextInt(5);
            for (int i = 0; i < n; i++) {
                t += 1 + random.nextInt(7);
                at[i] = t;
                state[i] = random.nextInt(3) == 0;
                drawn.sample(at[i], state[i]);
            }
            long from = random.nextInt((int) t + 5), to = from + random.nextInt((int) t + 5);
            boolean seen = false;
            long counted = 0; // unit by unit: called from a sample that saw it up to the next sample's time
            for (long unit = from; unit < to; unit++) {
                boolean in = false;
                for (int i = 0; i < n && at[i] <= unit; i++) in = state[i];
                if (in) counted++;
            }
            for (boolean s : state) seen |= s;
            equal(drawn.within(from, to), seen ? counted : -1L, "drawn samples, round " + round);
        }
    }

    /** {@link Waits}: a schedstat line's run delay, the longest growth of one thread's, this JVM's own threads read. */
    private void waits() {
        equal(Waits.runDelay("1200 3400 5\n"), 3400L, "a schedstat line's second figure");
        equal(Waits.runDelay("garbage"), -1L, "a line that is not one");
        java.util.Map<String, Long> before = java.util.Map.of("1/1", 100L, "1/2", 50L);
        java.util.Map<String, Long> after = java.util.Map.of("1/1", 400L, "1/2", 1050L, "1/3", 700L);
        equal(Waits.longest(before, after), 1000L, "the longest thread's wait, not the sum");
        equal(Waits.longest(after, after), 0L, "no wait since");
        java.util.Map<String, Long> own = Waits.read(java.nio.file.Path.of("/proc"));
        check(!own.isEmpty() && own.values().stream().allMatch(delay -> delay >= 0), "this JVM's threads read: " + own.size());
    }

    private void names() {
        equal(Rules.name(Rules.square("a1")), "a1", "a1's name");
        equal(Rules.square("a1"), 56, "a1 is the bottom-left cell");
        equal(Rules.square("h8"), 7, "h8 is the top-right cell");
        equal(Rules.square("H8"), 7, "a name's letter in capitals");
        for (int square = 0; square < Rules.N * Rules.N; square++) {
            equal(Rules.square(Rules.name(square)), square, "the name of cell " + square + " names it");
        }
        for (String wrong : new String[] {"", "a", "a0", "a9", "i1", "`1", "a10", "11"}) {
            equal(Rules.square(wrong), -1, "'" + wrong + "' names no square");
        }
    }

    private void rules() {
        int[] start = Rules.start();
        equal(Rules.show(start), "......oo/......oo/......../......../......../......../xx....../xx......", "the start");
        int[] after = Rules.place(start, Rules.square("c2"), 2);
        equal(Rules.show(after), "......oo/......oo/......../......../......../......../xoo...../xx......", "o on c2 turns b2, its one neighbour of x");
        // no diagonal turns, and the board's edge
        int[] corner = Rules.place(start, Rules.square("c3"), 2);
        equal(Rules.show(corner), "......oo/......oo/......../......../......../..o...../xx....../xx......", "c3 touches x diagonally only");
        Random random = new Random(7);
        for (int game = 0; game < 200; game++) {
            int[] cells = Rules.start();
            int side = 1;
            for (int ply = 0; ply < 40; ply++) {
                List<Integer> empty = new ArrayList<>();
                for (int square = 0; square < cells.length; square++) if (cells[square] == 0) empty.add(square);
                if (empty.isEmpty()) break;
                int square = empty.get(random.nextInt(empty.size()));
                int[] next = Rules.place(cells, square, side);
                equal(Rules.explain(cells, next, side, true), square, "the move that made a position explains it");
                check(Rules.explain(cells, next, 3 - side, true) < 0, "no move of the other side explains it");
                int changed = 0;
                for (int i = 0; i < cells.length; i++) if (cells[i] != next[i]) changed++;
                check(changed >= 1 && changed <= 5, "a move changes its square and at most its four neighbours");
                cells = next;
                side = 3 - side;
            }
        }
        check(Rules.explain(start, start, 1, true) < 0, "no move explains an unchanged board");
        // a window that flips diagonal neighbours: its move told as the rule difference
        int[] eight = Rules.placeEight(start, Rules.square("c3"), 2);
        equal(Rules.show(eight), "......oo/......oo/......../......../......../..o...../xo....../xx......", "o on c3 turns b2 diagonally");
        check(Rules.explain(start, eight, 2, true) < 0, "the game's rules do not explain a diagonal turn");
        equal(Rules.explainEight(start, eight, 2), Rules.square("c3"), "a diagonal turn is explained as one");
        check(Rules.explainEight(start, corner, 2) < 0, "a move that turns no diagonal is no rule difference");
        equal(Rules.diagonalWords("its bot's move at", start, Rules.square("c3"), 2),
                "your window flips diagonal neighbours: its bot's move at c3 turned b2, which touches c3 only diagonally; "
                        + "the course's rules flip only the four orthogonal ones",
                "the rule difference in words");
        int[] ringed = new int[Rules.N * Rules.N];
        for (String square : new String[] {"c3", "e3", "c5", "e5"}) ringed[Rules.square(square)] = 1;
        check(("fxdriver: " + Rules.diagonalWords("the opponent's move at", ringed, Rules.square("d4"), 2)).length() < 200,
                "the longest rule difference fits the protocol client's line");
        equal(Rules.diagonallyTurned(Rules.start(), Rules.square("c3"), 1), List.of(), "no piece of o diagonal to c3");
        equal(Rules.diagonallyTurned(Rules.start(), Rules.square("c3"), 2), List.of("b2"), "b2 is diagonal to c3");
        int[] occupied = start.clone();
        occupied[Rules.square("b2")] = 2;
        occupied[Rules.square("a2")] = 2;
        occupied[Rules.square("b1")] = 2;
        equal(Rules.explain(start, occupied, 2, false), Rules.square("b2"), "o on x's b2 explains it where taken squares count");
        equal(Rules.explain(start, occupied, 2, true), -1, "but not as a move on an empty square");
    }

    private void setups() {
        Setup start = Setup.parse("position startpos".split(" "));
        equal(Arrays.toString(start.cells()), Arrays.toString(Rules.start()), "startpos is the start");
        equal(start.side(), 1, "x moves first by default");
        equal(start.left(), 56, "28 rounds by default");
        Setup moved = Setup.parse("position startpos rounds 4 first o moves c3 f6".split(" "));
        equal(moved.side(), 2, "o first, two moves: o to move");
        equal(moved.left(), 6, "4 rounds less two moves");
        Setup fen = Setup.parse("position fen 6oo/6oo/8/8/8/8/xx6/xx6 o 7 moves g6".split(" "));
        equal(fen.side(), 1, "after o's move, x");
        equal(fen.left(), 6, "one ply less");
        equal(Rules.show(fen.cells()), "......oo/......oo/......o./......../......../......../xx....../xx......", "the fen's move");
        refused(() -> Setup.parse("position startpos rows 6 cols 6".split(" ")), "is 6x6", "a board other than 8x8");
        refused(() -> Setup.parse("position fen 7oo/6oo/8/8/8/8/xx6/xx6 x 8".split(" ")), "8x8", "a rank too long");
        refused(() -> Setup.parse("position fen 5oo/6oo/8/8/8/8/xx6/xx6 x 8".split(" ")), "8x8", "a rank too short");
        refused(() -> Setup.parse("position fen 6oo/8/8/8/8/xx6/xx6 x 8".split(" ")), "8x8", "seven ranks");
        refused(() -> Setup.parse("position fen 6oq/6oo/8/8/8/8/xx6/xx6 x 8".split(" ")), "cannot read: 'q'", "a piece of no side");
        refused(() -> Setup.parse("position fen 6oo/6oo/8/8/8/8/xx6/xx6 z 8".split(" ")), "a side", "a side of none");
        refused(() -> Setup.parse("position startpos rounds many".split(" ")), "a number", "rounds not a number");
        refused(() -> Setup.parse("position startpos moves a1".split(" ")), "cannot play: a1", "a move on a taken square");
        refused(() -> Setup.parse("position startpos moves z9".split(" ")), "cannot play: z9", "a move off the board");
    }

    private void options() {
        Options options = Options.parse(new String[] {
            "--set", "Player 1", "Ann", "--rounds", "Rounds", "--first", "First", "true", "false",
            "--press", "Play", "--press", "Start", "--bot-mark", " x ", "--pictures", "--fds", "--", "game.Main", "one", "two"});
        equal(options.settings.toString(), "{Player 1=Ann}", "--set");
        equal(options.roundsKey, "Rounds", "--rounds");
        equal(Arrays.toString(options.first), "[First, true, false]", "--first");
        equal(options.presses.toString(), "[Play, Start]", "--press, in turn");
        equal(options.botMark, "X", "--bot-mark, trimmed in capitals");
        check(options.pictures && options.fds && !options.dryRun, "the flags");
        equal(options.mainClass, "game.Main", "the main class");
        equal(Arrays.toString(options.programArgs), "[one, two]", "the program's arguments");
        Options sides = Options.parse(new String[] {"--sides", "X", "O", "Bot", "Human", "--dry-run", "--", "Main"});
        equal(Arrays.toString(sides.sides), "[X, O, Bot, Human]", "--sides");
        check(sides.dryRun && sides.first == null && sides.botMark.equals("O"), "a dry run's defaults");
        refused(() -> Options.parse(new String[] {"--play", "Go", "--", "Main"}), "unknown option --play", "an unknown option");
        refused(() -> Options.parse(new String[] {"--set", "Name"}), "--set needs 2 values", "an option without its values");
        refused(() -> Options.parse(new String[] {"--pictures"}), "usage:", "no main class");
        refused(() -> Options.parse(new String[] {"--pictures", "--"}), "usage:", "no main class after --");
    }

    private void words() {
        equal(Words.plain("  Player O :: "), "player o", "plain: spaces, colons and case aside");
        equal(Words.plain(":"), "", "plain: a colon alone");
        equal(Words.botButton(List.of("End Game", "Play New Game", "Next")), 2, "the only button that neither ends nor restarts");
        equal(Words.botButton(List.of("Next", "Move Bot")), 1, "a button that names the bot, before another");
        equal(Words.botButton(List.of("Hint", "Next")), -1, "never one of several unnamed");
        equal(Words.botButton(List.of("Restart vs bot")), -1, "never one that restarts, even naming the bot");
        equal(Words.botButton(List.of("Giliran Komputer")), 0, "Indonesian: the computer's turn");
        equal(Words.botButton(Arrays.asList((String) null)), 0, "a button without text, alone");
        equal(Words.botButton(List.of("Keluar", "Ulang")), -1, "Indonesian: exit and again");
        equal(Words.trialOrder(List.of(false, false, false)).toString(), "[2, 1, 0]", "from the last to the first");
        equal(Words.trialOrder(List.of(false, true, false)).toString(), "[1, 2, 0]", "the default button first");
    }

    private void json() {
        equal(Json.quote(null), "null", "null");
        equal(Json.quote("a\"b\\c\nd\te\u0001"), "\"a\\\"b\\\\c\\nd\\te\\u0001\"", "escapes");
    }

    private void frames() {
        StackTraceElement[] frames = {
            new StackTraceElement("javafx.scene.control.Button", "fire", "Button.java", 1),
            new StackTraceElement("adjacency.fxdriver.Game", "answer", "Game.java", 2),
            new StackTraceElement("game.MiniMax", "search", "MiniMax.java", 130),
            new StackTraceElement("java.lang.Thread", "run", "Thread.java", 3),
        };
        equal(Threads.ownFrame(frames).getFileName(), "MiniMax.java", "the team's first frame");
        IllegalStateException cause = new IllegalStateException("lost");
        cause.setStackTrace(new StackTraceElement[] {frames[2]});
        RuntimeException wrapper = new RuntimeException("Exception in Application start method", cause);
        wrapper.setStackTrace(new StackTraceElement[] {frames[0], frames[3]});
        List<String> lines = Threads.crashLines("main", wrapper);
        equal(lines.get(1), "\t(2 frames of Java and JavaFX left out)", "the platform's frames left out");
        equal(lines.get(2), "fxdriver: caused by java.lang.IllegalStateException: lost at MiniMax.java:130", "the cause, at its own frame");
        equal(lines.get(lines.size() - 1), "fxdriver: the program crashed: java.lang.IllegalStateException: lost at MiniMax.java:130", "where");
    }
}
