// The C++ starter kit: an engine for the adjacency engine protocol (docs/protocol.md).
//
// One file of standard C++17 and its library. It keeps the position as a grid of
// characters, reads one command per line and answers `go` with the empty square whose
// gain (the piece placed and the opponent's orthogonal neighbours it converts) minus the
// opponent's best gain in reply is largest: a two-ply search, which any board up to 26
// files answers at once. Replace choose() with your own search; keep the rest.
//
// Build: g++ -std=c++17 -O2 -Wall -Wextra -o engine main.cpp
// Play:  adjacency move 'cmd:./engine'        (the league builds it with g++ -O2)

#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Board {
    int rows = 8;
    int cols = 8;
    char side = 'x';
    std::vector<std::string> grid;  // grid[rank][file]; rank 0 is rank 1

    static char other(char color) { return color == 'x' ? 'o' : 'x'; }

    bool inside(int rank, int file) const {
        return rank >= 0 && rank < rows && file >= 0 && file < cols;
    }

    void start(int r, int c, char first) {
        rows = r;
        cols = c;
        side = first;
        grid.assign(rows, std::string(cols, '.'));
        for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 2; ++j) {
                grid[i][j] = 'x';
                grid[rows - 1 - i][cols - 1 - j] = 'o';
            }
        }
    }

    // Position text's board ("6oo/6oo/8/8/8/8/xx6/xx6") and side; false if malformed.
    bool read(const std::string& text, const std::string& to_move) {
        std::vector<std::string> ranks(1);
        for (char ch : text) {
            if (ch == '/') {
                ranks.emplace_back();
            } else if (ch >= '1' && ch <= '9') {
                ranks.back().append(static_cast<std::size_t>(ch - '0'), '.');
            } else if (ch == 'x' || ch == 'o') {
                ranks.back().push_back(ch);
            } else {
                return false;
            }
        }
        for (const std::string& rank : ranks) {
            if (rank.size() != ranks[0].size() || rank.empty() || rank.size() > 26) return false;
        }
        grid.assign(ranks.rbegin(), ranks.rend());
        rows = static_cast<int>(grid.size());
        cols = static_cast<int>(grid[0].size());
        side = to_move == "o" ? 'o' : 'x';
        return true;
    }

    int gain(int rank, int file, char mover) const {
        static const int steps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        int won = 1;
        for (const auto& step : steps) {
            int r = rank + step[0], f = file + step[1];
            if (inside(r, f) && grid[r][f] == other(mover)) ++won;
        }
        return won;
    }

    void place(int rank, int file) {
        static const int steps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        grid[rank][file] = side;
        for (const auto& step : steps) {
            int r = rank + step[0], f = file + step[1];
            if (inside(r, f) && grid[r][f] == other(side)) grid[r][f] = side;
        }
        side = other(side);
    }

    // Plays a square's name ("c3"); false if it is no empty square of the board.
    bool play(const std::string& name) {
        if (name.size() < 2 || name[0] < 'a') return false;
        int file = name[0] - 'a';
        int rank = 0;
        for (std::size_t i = 1; i < name.size(); ++i) {
            if (name[i] < '0' || name[i] > '9' || rank > 100) return false;
            rank = rank * 10 + (name[i] - '0');
        }
        --rank;
        if (!inside(rank, file) || grid[rank][file] != '.') return false;
        place(rank, file);
        return true;
    }

    // The opponent's best gain after this side plays (rank, file).
    int reply(int rank, int file) const {
        Board after = *this;
        after.place(rank, file);
        int best = 0;
        for (int r = 0; r < rows; ++r) {
            for (int f = 0; f < cols; ++f) {
                if (after.grid[r][f] == '.') best = std::max(best, after.gain(r, f, after.side));
            }
        }
        return best;
    }
};

struct Choice {
    std::string move;  // empty: no empty square
    int score = 0;
};

// The bot: the square with the best gain less the opponent's best reply.
Choice choose(const Board& board) {
    Choice best;
    int top = -1000;
    for (int r = 0; r < board.rows; ++r) {
        for (int f = 0; f < board.cols; ++f) {
            if (board.grid[r][f] != '.') continue;
            int value = board.gain(r, f, board.side) - board.reply(r, f);
            if (value > top) {
                top = value;
                best.move = std::string(1, static_cast<char>('a' + f)) + std::to_string(r + 1);
                best.score = value * 100;
            }
        }
    }
    return best;
}

void position(Board& board, std::istringstream& words) {
    std::string word;
    words >> word;
    if (word == "fen") {
        std::string text, side, plies;
        words >> text >> side >> plies;
        if (!board.read(text, side)) std::cout << "info string error: bad position text\n";
        words >> word;
    } else {
        int rows = 8, cols = 8;
        char first = 'x';
        std::string value;
        while (words >> word && word != "moves") {
            words >> value;
            if (word == "rows") rows = std::stoi("0" + value);
            if (word == "cols") cols = std::stoi("0" + value);
            if (word == "first") first = value == "o" ? 'o' : 'x';
        }
        if (rows < 4 || rows > 26 || cols < 4 || cols > 26) rows = cols = 8;
        board.start(rows, cols, first);
    }
    while (words >> word) {
        if (!board.play(word)) std::cout << "info string error: illegal move " << word << "\n";
    }
}

void answer(const Choice& choice) {
    if (choice.move.empty()) {
        std::cout << "bestmove (none)" << std::endl;
        return;
    }
    std::cout << "info depth 2 score " << choice.score << " pv " << choice.move << "\n";
    std::cout << "bestmove " << choice.move << std::endl;
}

}  // namespace

int main() {
    Board board;
    board.start(8, 8, 'x');
    bool waiting = false;  // a `go infinite` answered only at `stop`
    Choice pending;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream words(line);
        std::string command;
        if (!(words >> command)) continue;
        if (command == "aep") {
            std::cout << "id name greedy2 (C++)\nid author the adjacency project\naepok" << std::endl;
        } else if (command == "isready") {
            std::cout << "readyok" << std::endl;
        } else if (command == "position") {
            position(board, words);
        } else if (command == "go") {
            pending = choose(board);
            waiting = line.find("infinite") != std::string::npos;
            if (!waiting) answer(pending);
        } else if (command == "stop") {
            if (waiting) answer(pending);
            waiting = false;
        } else if (command == "quit") {
            break;
        }
    }
    return 0;
}
