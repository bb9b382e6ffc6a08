// Time limit exceeded: hill climbing on the pieces in place, which never
// ends: from most positions the best move leads back and forth.
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>
#include <iostream>

static const int NC = 20;
static const char *faces = "URFDLB";
static const int opposite[6] = {3, 4, 5, 0, 1, 2};
static const int mod[NC] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3};
static const int facelet[NC][3] = {{5, 10, -1}, {7, 19, -1}, {3, 37, -1}, {1, 46, -1}, {32, 16, -1}, {28, 25, -1}, {30, 43, -1}, {34, 52, -1}, {23, 12, -1}, {21, 41, -1}, {50, 39, -1}, {48, 14, -1}, {8, 9, 20}, {6, 18, 38}, {0, 36, 47}, {2, 45, 11}, {29, 26, 15}, {27, 44, 24}, {33, 53, 42}, {35, 17, 51}};
static const char *colours[NC] = {"UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR", "URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB"};
// Per face, a quarter turn in state form: cell i receives the piece of cell perm[f][i], its twist raised by twist[f][i].
static const int perm[6][NC] = {{3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 15, 12, 13, 14, 16, 17, 18, 19},
    {8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0, 16, 13, 14, 12, 19, 17, 18, 15},
    {0, 9, 2, 3, 4, 8, 6, 7, 1, 5, 10, 11, 13, 17, 14, 15, 12, 16, 18, 19},
    {0, 1, 2, 3, 5, 6, 7, 4, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 16},
    {0, 1, 10, 3, 4, 5, 9, 7, 8, 2, 6, 11, 12, 14, 18, 15, 16, 13, 17, 19},
    {0, 1, 2, 11, 4, 5, 6, 10, 8, 9, 3, 7, 12, 13, 15, 19, 16, 17, 14, 18}};
static const int twist[6][NC] = {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 1, 1, 0, 0, 2},
    {0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 2, 0, 0, 2, 1, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 2, 1, 0},
    {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 2, 0, 0, 2, 1}};

struct Move { std::string name; int face; int p[NC], t[NC]; };
static std::vector<Move> moves;

struct State { unsigned char piece[NC], ori[NC]; };

static State apply(const State &s, const Move &m) {
    State n;
    for (int i = 0; i < NC; i++) {
        n.piece[i] = s.piece[m.p[i]];
        n.ori[i] = (s.ori[m.p[i]] + m.t[i]) % mod[i];
    }
    return n;
}

static std::vector<int> path;

static int inPlace(const State &s) {
    int n = 0;
    for (int i = 0; i < NC; i++) n += s.piece[i] == i && s.ori[i] == 0;
    return n;
}

// Hill climbing: the move that leaves the most pieces in place, until the
// cube is solved. From most positions the best move leads back and forth
// (or round a short cycle), so this never ends.
static void climb(State s) {
    while (inPlace(s) < NC) {
        int best = -1, bestN = -1;
        for (int k = 0; k < (int)moves.size(); k++) {
            int n = inPlace(apply(s, moves[k]));
            if (n > bestN) best = k, bestN = n;
        }
        path.push_back(best);
        s = apply(s, moves[best]);
    }
}

static State read(const std::string &line) {
    State s;
    for (int i = 0; i < NC; i++) {
        int k = mod[i];
        for (int j = 0; j < NC; j++) {
            if (mod[j] != k) continue;
            for (int t = 0; t < k; t++) {
                bool ok = true;
                for (int c = 0; c < k; c++)
                    if (line[facelet[i][(t + c) % k]] != colours[j][c]) ok = false;
                if (ok) s.piece[i] = j, s.ori[i] = t;
            }
        }
    }
    return s;
}

int main() {
    // Per face, in order: a quarter turn (U), a half turn (U2), a quarter
    // turn back (U').
    const char *suffix[3] = {"", "2", "'"};
    for (int f = 0; f < 6; f++) {
        int q[NC], u[NC];
        for (int i = 0; i < NC; i++) q[i] = i, u[i] = 0;
        for (int r = 0; r < 3; r++) {
            Move m;
            m.name = std::string(1, faces[f]) + suffix[r];
            m.face = f;
            for (int i = 0; i < NC; i++) {
                m.p[i] = q[perm[f][i]];
                m.t[i] = (u[perm[f][i]] + twist[f][i]) % mod[i];
            }
            for (int i = 0; i < NC; i++) q[i] = m.p[i], u[i] = m.t[i];
            moves.push_back(m);
        }
    }
    std::string line, out;
    while (std::getline(std::cin, line)) {
        if (line.size() < 54) continue;
        State s = read(line);
        path.clear();
        climb(s);
        std::string ans;
        for (int m : path) { if (!ans.empty()) ans += " "; ans += moves[m].name; };
        out += ans + "\n";
    }
    fputs(out.c_str(), stdout);
}
