package game;

public class Bot {
    private final boolean fromTop;
    private int moves;

    public Bot(String kind) {
        fromTop = kind.equals("Minimax") || kind.equals("Bot Minimax");
    }

    /** The empty square turning the most of the other side's pieces. */
    public int[] move(String[][] b, String me) {
        moves++;
        
        String other = me.equals("X") ? "O" : "X";
        int[] best = null;
        int most = -1;
        for (int k = 0; k < 64; k++) {
            int i = fromTop ? k / 8 : 7 - k / 8, j = fromTop ? k % 8 : 7 - k % 8;
            if (!b[i][j].isEmpty()) continue;
            int turned = 0;
            if (i > 0 && b[i - 1][j].equals(other)) turned++;
            if (i < 7 && b[i + 1][j].equals(other)) turned++;
            if (j > 0 && b[i][j - 1].equals(other)) turned++;
            if (j < 7 && b[i][j + 1].equals(other)) turned++;
            if (turned > most) { most = turned; best = new int[] {i, j}; }
        }
        return best;
    }
}
