package adjacency.fxdriver;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLongArray;
import javafx.scene.Node;
import javafx.scene.control.Button;

/**
 * One game on the program's board: the opponent's moves fired on its buttons, the bot's
 * moves read from them, and the board told (its marks on standard error, its picture on the
 * protocol) where the program fails or hangs.
 *
 * <p>The program's board and the protocol's are the same or a half-turn apart: the protocol's
 * X starts bottom-left, and when the program's bot plays the side whose pieces start in the
 * other corner, each square is turned by half a turn (row r, column c is row 7-r, column 7-c).
 * Nothing answers for the program: a board that does not change gets no answer (the
 * controller's clock decides), and a change that no legal move explains is answered with the
 * square the program marked.
 */
final class Game {
    private static final long POLL_MS = Windows.POLL_MS;
    private static final long CALL_MS = Windows.CALL_MS;
    private static final long STUCK_MS = Windows.STUCK_MS;
    private static final long PICTURE_MS = 2000;
    /**
     * How long the board holds still at the bot's turn, the program idle, before a button of
     * the board's window that moves its bot ({@link Words#botButton}) is pressed, as its
     * person would.
     */
    static final long IDLE_MS = 1200;
    /** The CPU time the program's threads may use in {@link #IDLE_MS} and still be idle. */
    static final long IDLE_CPU_NS = 80_000_000L;
    /** Largest picture sent, in bytes of PNG (the server keeps none larger). */
    private static final int MAX_PICTURE = 256 * 1024;

    private final Protocol protocol;
    private final boolean pictures;
    private final Button[][] board;
    private final int botSide;
    private final String botMark;
    private final String opponentMark;
    private final boolean halfTurn;
    /** The position as the program's board last showed it, in the protocol's terms. */
    private int[] model = Rules.start();
    /** A picture was sent at a wait already (one a game). */
    private boolean pictured;
    /** The board's marks as the driver last read them (a window that no longer answers: its last). */
    private volatile String[] lastSeen;
    /** The opponent's last move fired on the board (-1: none yet), and the board before it. */
    private int opponentMove = -1;
    private int[] beforeOpponent = model;
    /**
     * When each square of the program's board (its own order) first changed its mark since
     * the move began ({@link System#nanoTime}; 0: not since), set by listeners on the
     * squares' text, on the JavaFX thread, as the program sets them.
     */
    private final AtomicLongArray firstChange = new AtomicLongArray(Rules.N * Rules.N);
    /** Whether the listeners of {@link #firstChange} are on the board. */
    private volatile boolean watching;
    /** The last move's span in seconds ({@link #span}), or -1. */
    private double span = -1;
    /** The seconds of {@link #span} in which the program waited for a CPU ({@link #spanWaited}), or -1. */
    private double spanWaited = -1;
    /** When the program called its team's bot (sampled while a move is awaited). */
    private final BotCalls calls;

    private Game(Protocol protocol, boolean pictures, Button[][] board, int botSide, String botMark, String opponentMark, boolean halfTurn,
            BotCalls calls) {
        this.protocol = protocol;
        this.calls = calls;
        this.pictures = pictures;
        this.board = board;
        this.botSide = botSide;
        this.botMark = botMark;
        this.opponentMark = opponentMark;
        this.halfTurn = halfTurn;
    }

    /**
     * The game of {@code setup}, the bot to move: the windows followed to the board, each
     * filled for it (the rounds, who moves first), then the board's corners checked against
     * the bot's mark. {@code started} is handed the board as soon as it shows, so that a
     * crash from then on can tell it. {@code calls} samples the program's calls of its bot.
     */
    static Game begin(Options options, Protocol protocol, Windows windows, Setup setup, BotCalls calls,
            java.util.function.Consumer<Game> started)
            throws InterruptedException {
        int pieces = 0;
        for (int cell : setup.cells()) if (cell != 0) pieces++;
        int played = pieces - 8;
        int rounds = (played + setup.left()) / 2;
        int firstSide = played % 2 == 0 ? setup.side() : 3 - setup.side();
        int botSide = setup.side();
        boolean botFirst = botSide == firstSide;
        String botMark = options.sides != null ? (botFirst ? "X" : "O") : options.botMark; // X moves first in such a program
        Button[][] board = windows.follow(rounds, botFirst, 60_000);
        Game shown = new Game(protocol, options.pictures, board, botSide, botMark, "", false, calls);
        started.accept(shown);
        String[] marks = shown.read();
        String bottomLeft = marks[(Rules.N - 1) * Rules.N], topRight = marks[Rules.N - 1];
        if (bottomLeft.isEmpty() || topRight.isEmpty() || bottomLeft.equals(topRight)) {
            throw new Failure("the board's corners show '" + bottomLeft + "' and '" + topRight + "': not the start of a game");
        }
        if (!botMark.equals(bottomLeft) && !botMark.equals(topRight)) {
            throw new Failure("the bot's mark '" + botMark + "' is on neither corner (they show '" + bottomLeft + "' and '" + topRight + "')");
        }
        String opponentMark = botMark.equals(bottomLeft) ? topRight : bottomLeft;
        boolean halfTurn = botMark.equals(bottomLeft) != (botSide == 1);
        Game game = new Game(protocol, options.pictures, board, botSide, botMark, opponentMark, halfTurn, calls);
        game.watch();
        started.accept(game);
        System.err.println("fxdriver: plays " + rounds + " rounds, the bot's mark " + botMark + " as " + (botSide == 1 ? "X" : "O")
                + (botFirst ? ", moving first" : ", moving second") + (halfTurn ? ", the board a half-turn apart" : ""));
        return game;
    }

    /**
     * The bot's move in the game's position {@code asked}: the opponent's move that leads
     * there from the program's board fired on its button, then the bot's move read.
     */
    int answer(int[] asked) throws InterruptedException {
        int[] before = model;
        for (int i = 0; i < firstChange.length(); i++) firstChange.set(i, 0);
        long askedAt = System.nanoTime();
        calls.begin();
        int fired = -1;
        if (!Arrays.equals(asked, model)) {
            int opponent = Rules.explain(model, asked, 3 - botSide, true);
            if (opponent < 0) {
                // one sentence of under 200 characters: the protocol's client cuts a longer line
                throw new Failure("the game's position is not one move of the opponent from the program's board: " + Rules.show(asked));
            }
            opponentMove = opponent;
            beforeOpponent = model;
            fire(opponent);
            fired = opponent;
            before = asked;
        }
        int move;
        try {
            move = awaitMove(before);
        } finally {
            calls.end(); // the sampling off whatever happened
        }
        model = Rules.place(before, move, botSide);
        span = span(fired, move, askedAt);
        return move;
    }

    /**
     * The seconds the program's bot took at the last move, as the course's window times it:
     * the time in which the program was calling its team's bot ({@link BotCalls}), from the
     * program's showing the opponent's move (its mark's first change on the square), or from
     * the driver's asking where the bot moves without one, to its showing its bot's move (that
     * square's first change). The program's handling of the opponent's click, a pause its
     * window makes before it calls its bot, and the driver's reading after are not in it.
     * Where the samples cannot tell (the program has no class named for a bot, and no thread
     * was seen in one), the whole time between the two marks. -1 where even that cannot be
     * told (the squares are not watched, or a change was not seen in that order): the
     * server's clock then stands alone. The server never charges less than the CPU the
     * program's sandbox used.
     */
    double span() {
        return span;
    }

    /**
     * The seconds of the last move's {@link #span} in which the program was held up waiting
     * for a CPU, where the span is its calls of its bot ({@link BotCalls#waitedNanos}); -1
     * otherwise (the server then takes the whole move's waits).
     */
    double spanWaited() {
        return spanWaited;
    }

    private double span(int fired, int move, long askedAt) {
        spanWaited = -1;
        if (!watching) return -1;
        long from = fired < 0 ? askedAt : firstChange.get(own(fired));
        long to = firstChange.get(own(move));
        if (from == 0 || to == 0 || to < from) return -1;
        long called = calls.within(from, to);
        if (called < 0) return (to - from) / 1e9;
        spanWaited = calls.waitedNanos() / 1e9;
        return called / 1e9;
    }

    /** The program's own index of the protocol's square {@code square} (the half-turn applied). */
    private int own(int square) {
        return halfTurn ? Rules.N * Rules.N - 1 - square : square;
    }

    /** Listen to the squares' marks ({@link #firstChange}); a window that does not answer is not watched. */
    private void watch() throws InterruptedException {
        try {
            Fx.patiently(() -> {
                for (int i = 0; i < Rules.N * Rules.N; i++) {
                    int square = i;
                    board[i / Rules.N][i % Rules.N].textProperty().addListener(
                            (text, was, now) -> firstChange.compareAndSet(square, 0, System.nanoTime()));
                }
                return null;
            }, CALL_MS * 8);
            watching = true;
        } catch (TimeoutException busy) {
            System.err.println("fxdriver: the board's squares are not watched (its window did not answer); its moves are timed by the server's clock");
        }
    }

    /** The board's marks (on the JavaFX thread, waiting while it is busy). */
    private String[] read() throws InterruptedException {
        long began = System.currentTimeMillis();
        boolean said = false;
        while (true) {
            try {
                String[] marks = Fx.call(() -> Screen.marks(board), CALL_MS);
                lastSeen = marks;
                return marks;
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
            int[] now = cells(read());
            if (now[square] != 0) return;
            Windows.closeAlerts();
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
        long cpuAt = Threads.programCpu();
        long cpuSince = began;
        while (true) {
            if (!said && System.currentTimeMillis() - began > STUCK_MS) {
                stuck("the program's bot has not moved");
                protocol.thinking(STUCK_MS / 1000 + " s into its move"); // heard where a stop never comes
                said = true;
            }
            int[] now = cells(read());
            if (Arrays.equals(now, before)) {
                Windows.closeAlerts();
                long at = System.currentTimeMillis();
                if (!pressed && at - cpuSince >= IDLE_MS) {
                    long cpu = Threads.programCpu();
                    boolean idle = cpu - cpuAt < IDLE_CPU_NS;
                    cpuAt = cpu;
                    cpuSince = at;
                    Button button = idle ? botButton(board) : null;
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
            int[] again = cells(read());
            if (!Arrays.equals(now, again)) continue; // still being drawn
            int move = Rules.explain(before, now, botSide, true);
            if (move >= 0) return move;
            int occupied = Rules.explain(before, now, botSide, false);
            if (occupied >= 0) {
                System.err.println("fxdriver: the program's bot marked " + Rules.name(occupied) + ", a square that was not empty");
                show(true);
                return occupied;
            }
            String diagonal = diagonal(before, now);
            if (diagonal != null) throw new Failure(diagonal);
            // one sentence of under 200 characters: the protocol's client cuts a longer line
            throw new Failure("the program's board changed in a way no single move of its bot explains; before, it was " + Rules.show(before));
        }
    }

    /**
     * Where the program's board {@code now}, which no move of the game's rules explains from
     * {@code before}, is what a window that flips diagonal neighbours shows: the rule
     * difference in the team's words ({@link Rules#diagonalWords}), for the bot's own move
     * or for the opponent's move the driver fired (the program turned that move's diagonal
     * neighbours, with or without its bot's answer after it); else null.
     */
    private String diagonal(int[] before, int[] now) {
        int own = Rules.explainEight(before, now, botSide);
        if (own >= 0) return Rules.diagonalWords("its bot's move at", before, own, botSide);
        if (opponentMove < 0) return null;
        int[] shown = Rules.placeEight(beforeOpponent, opponentMove, 3 - botSide);
        if (Arrays.equals(shown, Rules.place(beforeOpponent, opponentMove, 3 - botSide))) return null; // it turned no diagonal
        boolean answered = Arrays.equals(shown, now) || Rules.explain(shown, now, botSide, true) >= 0
                || Rules.explainEight(shown, now, botSide) >= 0;
        return answered ? Rules.diagonalWords("the opponent's move at", beforeOpponent, opponentMove, 3 - botSide) : null;
    }

    /**
     * The button a person would press to have the bot move ({@link Words#botButton} of the
     * enabled buttons of {@code board}'s window that are not squares), or null: none, or the
     * JavaFX thread busy (the program is not waiting then).
     */
    static Button botButton(Button[][] board) {
        try {
            return Fx.call(() -> {
                Set<Node> squares = Collections.newSetFromMap(new IdentityHashMap<>());
                for (Button[] row : board) squares.addAll(Arrays.asList(row));
                List<Button> others = new ArrayList<>();
                List<String> texts = new ArrayList<>();
                for (Form.Control control : Form.read(board[0][0].getScene().getRoot())) {
                    if (!(control.node() instanceof Button button) || squares.contains(button) || button.isDisabled()) continue;
                    others.add(button);
                    texts.add(button.getText());
                }
                int chosen = Words.botButton(texts);
                return chosen < 0 ? null : others.get(chosen);
            }, CALL_MS);
        } catch (TimeoutException busy) {
            return null;
        }
    }

    /**
     * A move the program has not made after {@link Windows#STUCK_MS}: where its JavaFX thread
     * is, said once, so that a window that hangs tells the team its file and line (or that
     * the thread waits in JavaFX itself).
     */
    private void stuck(String waiting) {
        String where = Threads.javafxThread();
        if (where != null) System.err.println("fxdriver: " + waiting + " for " + STUCK_MS / 1000 + " s; " + where);
        show(!pictured); // a picture at the first wait of a game only (each is sent)
        pictured = true;
    }

    /**
     * The program's board as its window shows it: its picture (with {@code --pictures}, on the
     * protocol, before the words, where {@code withPicture}) and, on standard error (among the
     * last lines a loss keeps), a line a row from the window's top, its own marks, "." for an
     * empty square; where the window does not answer the look, the board as the driver last
     * read it, or that it did not answer. Called from the JavaFX thread
     * itself (a crash in the program's handler), it looks at once.
     */
    void show(boolean withPicture) {
        if (withPicture) picture();
        try {
            rows("its board as its window shows it, top row first:", Fx.now(() -> Screen.marks(board), CALL_MS));
        } catch (TimeoutException busy) {
            String[] last = lastSeen;
            if (last == null) {
                System.err.println("fxdriver: its board could not be read: its window does not answer");
            } else {  // its JavaFX thread is held (ending the JVM from a handler, say)
                rows("its board as its window last showed it, top row first:", last);
            }
        }
        System.err.flush();
    }

    /** {@code heading}, then the board of {@code marks}, a line a row, on standard error. */
    private static void rows(String heading, String[] marks) {
        System.err.println("fxdriver: " + heading);
        for (int r = 0; r < Rules.N; r++) {
            StringBuilder row = new StringBuilder("fxdriver:   ");
            for (int c = 0; c < Rules.N; c++) {
                String mark = marks[r * Rules.N + c];
                row.append(c == 0 ? "" : " ").append(mark.isEmpty() ? "." : mark);
            }
            System.err.println(row);
        }
    }

    /**
     * The game window's picture, sent on the protocol ({@link Protocol#picture}); nothing if
     * it cannot be taken, or is larger than {@link #MAX_PICTURE}.
     */
    private void picture() {
        if (!pictures) return;
        try {
            byte[] png = Fx.now(() -> Screen.png(board[0][0].getScene()), PICTURE_MS);
            if (png.length > MAX_PICTURE) {
                System.err.println("fxdriver: no picture of its board: " + png.length + " bytes, over " + MAX_PICTURE);
                return;
            }
            protocol.picture(png);
        } catch (TimeoutException busy) {
            System.err.println("fxdriver: no picture of its board: its window does not answer");
        } catch (Exception | Error failed) {
            System.err.println("fxdriver: no picture of its board: " + failed);
        }
    }
}
