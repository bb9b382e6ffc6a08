// Time limit exceeded: hill climbing on the pieces in place, which never
// ends: from most positions the best move leads back and forth.
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>
#include <iostream>

static const int NC = 14, NM = 4, NF = 30;
static const char *base[NM] = {"R", "U", "L", "B"};
static const int setOf[NC] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2};
static const int mod[NC] = {3, 3, 3, 3, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1};
static const int facelet[NC][3] = {{4, 5, 11}, {19, 9, 28}, {0, 20, 26}, {15, 24, 13}, {1, 25, 6}, {16, 14, 8}, {18, 29, 23}, {3, 10, 21}, {2, -1, -1}, {7, -1, -1}, {12, -1, -1}, {17, -1, -1}, {22, -1, -1}, {27, -1, -1}};
static const char *colours[NC] = {"WRG", "YRB", "WOB", "YOG", "WBR", "YGR", "YBO", "WGO", "W", "R", "G", "Y", "O", "B"};
// Per base move, state form: cell i receives the piece of cell perm[i], its twist raised by twist[i].
static const int perm[NM][NC] = {{0, 1, 2, 3, 5, 6, 4, 7, 8, 11, 10, 13, 12, 9},
    {0, 1, 2, 3, 6, 5, 7, 4, 13, 9, 10, 11, 8, 12},
    {0, 1, 2, 3, 4, 7, 5, 6, 8, 9, 12, 10, 11, 13},
    {0, 3, 1, 2, 4, 5, 6, 7, 8, 9, 10, 12, 13, 11}};
static const int twist[NM][NC] = {{0, 1, 0, 0, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 1, 0, 2, 0, 2, 2, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 1, 0, 2, 2, 2, 0, 0, 0, 0, 0, 0},
    {0, 2, 2, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}};


struct State { unsigned char piece[NC], ori[NC]; };

// Move m of the list (base move m/2, turned once or twice: m' is the base
// move made twice, a third of a turn the other way).
static State apply(const State &s, int m) {
    State c = s;
    for (int t = 0; t <= m % 2; t++) {
        State n;
        for (int i = 0; i < NC; i++) {
            int j = perm[m / 2][i];
            n.piece[i] = c.piece[j];
            n.ori[i] = (c.ori[j] + twist[m / 2][i]) % mod[i];
        }
        c = n;
    }
    return c;
}

static std::string moveName(int m) { return std::string(base[m / 2]) + (m % 2 ? "'" : ""); }

// The key of a state, without the cells SKIP leaves out: three bits a
// piece (its cell within its set) and two an orientation.
static int firstOfSet[NC];
static uint64_t key(const State &s) {
    uint64_t k = 1;
    for (int i = 0; i < NC; i++) {
        if ((i == 0)) continue;
        k = k << 3 | (uint64_t)(s.piece[i] - firstOfSet[s.piece[i]]);
        if (mod[i] > 1) k = k << 2 | (uint64_t)s.ori[i];
    }
    return k;
}

// The number of cells that hold their own piece untwisted.
static int solvedCells(const State &s) {
    int n = 0;
    for (int i = 0; i < NC; i++) n += s.piece[i] == i && s.ori[i] == 0;
    return n;
}

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        State s;
        for (int i = 0; i < NC; i++) {
            int k = mod[i];
            s.piece[i] = 0, s.ori[i] = 0;
            for (int j = 0; j < NC; j++) {
                if (setOf[j] != setOf[i]) continue;
                for (int t = 0; t < k; t++) {
                    bool ok = true;
                    for (int c = 0; c < k; c++)
                        if (line[facelet[i][(t + c) % k]] != colours[j][c]) ok = false;
                    if (ok) s.piece[i] = j, s.ori[i] = t;
                }
            }
        }
        // Hill climbing: always the move that leaves the most cells
        // solved (the first of them in the order). Far from solved it
        // turns one piece back and forth for ever.
        std::vector<std::string> out;
        while (solvedCells(s) < NC) {
            int best = -1, bestScore = -1;
            for (int m = 0; m < 2 * NM; m++) {
                int sc = solvedCells(apply(s, m));
                if (sc > bestScore) best = m, bestScore = sc;
            }
            s = apply(s, best);
            if (out.size() < 1000) out.push_back(moveName(best));
        }
        for (size_t i = 0; i < out.size(); i++) printf("%s%s", i ? " " : "", out[i].c_str());
        printf("\n");
    }
}
