/*
 * A greedy engine in C for the adjacency engine protocol (docs/protocol.md).
 *
 * Plays the empty square that wins the most squares now: the piece placed plus
 * the opponent's orthogonal neighbours it converts; ties go to the first square
 * in a1, b1, ..., a2, ... order. Standard C99 and the C library only.
 *
 * Build:  gcc -std=c99 -O2 -Wall -Wextra -o greedy_engine greedy_engine.c
 *         (a league compiles it with gcc -std=c11 -O2: it is the C starter kit)
 * Play:   adjacency move 'cmd:./greedy_engine'   (or cmd:[dir=...] ./greedy_engine)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDE 8
#define MAX_TOKENS 512

static char grid[MAX_SIDE][MAX_SIDE]; /* grid[rank][file], rank 0 = rank 1 */
static int rows = 8, cols = 8;
static char side = 'x';

static char other(char color) { return color == 'x' ? 'o' : 'x'; }

static void start_position(int r, int c, char first) {
    rows = r;
    cols = c;
    side = first;
    memset(grid, '.', sizeof grid);
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 2; j++) {
            grid[i][j] = 'x';
            grid[rows - 1 - i][cols - 1 - j] = 'o';
        }
    }
}

/* "6oo/6oo/8/8/8/8/xx6/xx6" with the side to move; returns 0 on malformed text. */
static int parse_fen(const char *board, const char *to_move) {
    int rank_count = 1;
    for (const char *p = board; *p; p++) rank_count += *p == '/';
    if (rank_count > MAX_SIDE) return 0;
    memset(grid, '.', sizeof grid);
    int rank = rank_count - 1, file = 0, width = 0;
    for (const char *p = board; *p; p++) {
        if (*p == '/') {
            width = file;
            rank--;
            file = 0;
        } else if (*p >= '1' && *p <= '8') {
            file += *p - '0';
        } else if ((*p == 'x' || *p == 'o') && file < MAX_SIDE) {
            grid[rank][file++] = *p;
        } else {
            return 0;
        }
    }
    rows = rank_count;
    cols = width ? width : file;
    side = to_move[0] == 'o' ? 'o' : 'x';
    return 1;
}

static int square_index(const char *name, int *rank, int *file) {
    *file = name[0] - 'a';
    *rank = atoi(name + 1) - 1;
    return *file >= 0 && *file < cols && *rank >= 0 && *rank < rows;
}

static const int STEPS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

static int gain(int rank, int file, char mover) {
    int won = 1;
    for (int k = 0; k < 4; k++) {
        int r = rank + STEPS[k][0], f = file + STEPS[k][1];
        if (r >= 0 && r < rows && f >= 0 && f < cols && grid[r][f] == other(mover)) won++;
    }
    return won;
}

static void play(const char *name) {
    int rank, file;
    if (!square_index(name, &rank, &file) || grid[rank][file] != '.') return;
    grid[rank][file] = side;
    for (int k = 0; k < 4; k++) {
        int r = rank + STEPS[k][0], f = file + STEPS[k][1];
        if (r >= 0 && r < rows && f >= 0 && f < cols && grid[r][f] == other(side)) grid[r][f] = side;
    }
    side = other(side);
}

static void go(void) {
    int best = -1, best_rank = 0, best_file = 0;
    for (int r = 0; r < rows; r++) {
        for (int f = 0; f < cols; f++) {
            if (grid[r][f] == '.' && gain(r, f, side) > best) {
                best = gain(r, f, side);
                best_rank = r;
                best_file = f;
            }
        }
    }
    if (best < 0) {
        printf("bestmove (none)\n");
    } else {
        printf("info depth 1 score %d\n", best * 100);
        printf("bestmove %c%d\n", 'a' + best_file, best_rank + 1);
    }
}

static void position(char **tokens, int count) {
    int i = 1;
    if (count > 1 && strcmp(tokens[1], "fen") == 0 && count >= 5) {
        if (!parse_fen(tokens[2], tokens[3])) printf("info string error: bad position text\n");
        i = 5;
    } else {
        int r = 8, c = 8;
        char first = 'x';
        for (i = 2; i + 1 < count && strcmp(tokens[i], "moves") != 0; i += 2) {
            if (strcmp(tokens[i], "rows") == 0) r = atoi(tokens[i + 1]);
            if (strcmp(tokens[i], "cols") == 0) c = atoi(tokens[i + 1]);
            if (strcmp(tokens[i], "first") == 0) first = tokens[i + 1][0];
        }
        if (r < 4 || r > MAX_SIDE || c < 4 || c > MAX_SIDE) r = c = 8;
        start_position(r, c, first);
    }
    for (; i < count; i++) {
        if (strcmp(tokens[i], "moves") != 0) play(tokens[i]);
    }
}

int main(void) {
    static char line[65536];
    char *tokens[MAX_TOKENS];
    start_position(8, 8, 'x');
    while (fgets(line, sizeof line, stdin)) {
        int count = 0;
        for (char *t = strtok(line, " \t\r\n"); t && count < MAX_TOKENS; t = strtok(NULL, " \t\r\n"))
            tokens[count++] = t;
        if (count == 0) continue;
        if (strcmp(tokens[0], "aep") == 0) {
            printf("id name greedy (C)\nid author the adjacency project\naepok\n");
        } else if (strcmp(tokens[0], "isready") == 0) {
            printf("readyok\n");
        } else if (strcmp(tokens[0], "position") == 0) {
            position(tokens, count);
        } else if (strcmp(tokens[0], "go") == 0) {
            go();
        } else if (strcmp(tokens[0], "quit") == 0) {
            break;
        }
        fflush(stdout);
    }
    return 0;
}
