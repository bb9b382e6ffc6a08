// Pocket cube, too slow: iterative deepening over all nine moves without a
// table or a bound, and without pruning a turn of the face just turned. A
// position 11 moves from solved needs some 9^11 (3 * 10^10) nodes.
#include <cstdio>
#include <cstring>
#include <string>

// Corners URF UFL ULB UBR DFR DLF DBL DRB; each one's facelets (numbered
// 0..23: U, R, F, D, L, B, four a face) in clockwise order, U or D first.
static const int facelet[8][3] = {{3, 4, 9}, {2, 8, 17}, {0, 16, 21}, {1, 20, 5},
                                  {13, 11, 6}, {12, 19, 10}, {14, 23, 18}, {15, 7, 22}};
static const char colour[8][4] = {"URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB"};
static const char *names[9] = {"U", "U2", "U'", "R", "R2", "R'", "F", "F2", "F'"};
// A quarter turn: the corner at cyc[i] goes to cyc[i+1], its twist
// increased by the twist of the place it lands on.
static const int cyc[3][4] = {{0, 1, 2, 3}, {4, 0, 3, 7}, {1, 0, 4, 5}};
static const int twist[3][8] = {{0, 0, 0, 0, 0, 0, 0, 0}, {2, 0, 0, 1, 1, 0, 0, 2}, {1, 2, 0, 0, 2, 1, 0, 0}};

struct Cube { int piece[8], ori[8]; };

static Cube turn(Cube c, int face, int times) {
    for (int t = 0; t < times; t++) {
        Cube n = c;
        for (int i = 0; i < 4; i++) {
            int from = cyc[face][i], to = cyc[face][(i + 1) % 4];
            n.piece[to] = c.piece[from];
            n.ori[to] = (c.ori[from] + twist[face][to]) % 3;
        }
        c = n;
    }
    return c;
}

static Cube path[16];
static int moves[16];

static bool solved(const Cube &c) {
    for (int i = 0; i < 8; i++)
        if (c.piece[i] != i || c.ori[i]) return false;
    return true;
}

static bool dfs(int g, int depth) {
    if (g == depth) return solved(path[g]);
    for (int m = 0; m < 9; m++) {
        path[g + 1] = turn(path[g], m / 3, m % 3 + 1);
        moves[g] = m;
        if (dfs(g + 1, depth)) return true;
    }
    return false;
}

int main() {
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        if (strlen(line) < 24) continue;
        Cube c;
        for (int place = 0; place < 8; place++) {
            char got[3];
            for (int k = 0; k < 3; k++) got[k] = line[facelet[place][k]];
            for (int p = 0; p < 8; p++)
                for (int o = 0; o < 3; o++) {
                    bool match = true;
                    for (int j = 0; j < 3; j++) match &= got[(j + o) % 3] == colour[p][j];
                    if (match) c.piece[place] = p, c.ori[place] = o;
                }
        }
        path[0] = c;
        int depth = 0;
        while (!dfs(0, depth)) depth++;
        std::string out;
        for (int i = 0; i < depth; i++) {
            if (i) out += ' ';
            out += names[moves[i]];
        }
        puts(out.c_str());
        fflush(stdout);
    }
}
