package adjacency.kit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;

/**
 * The test mode of {@code Main --rules}: each input line is the arguments of a protocol
 * {@code position} command ("startpos rows 5 cols 6 moves c3 d4" or "fen ... moves ...");
 * each output line is "ok FEN X O MOVES" (the position text, both scores, the legal moves
 * joined by commas or "-") or "error" when the position or a move is illegal.
 */
final class Rules {
    private Rules() {
    }

    static void run(BufferedReader in, PrintStream out) throws IOException {
        String line;
        while ((line = in.readLine()) != null) {
            String answer;
            try {
                Board board = Main.parsePosition(line.strip().split("[ \t]+"));
                int[] score = board.score();
                String moves = String.join(",", board.legalMoves());
                answer = "ok " + board.fen().replace(' ', ';') + " " + score[0] + " " + score[1] + " "
                        + (moves.isEmpty() ? "-" : moves);
            } catch (IllegalArgumentException e) {
                answer = "error";
            }
            out.print(answer + "\n");
        }
        out.flush();
    }
}
