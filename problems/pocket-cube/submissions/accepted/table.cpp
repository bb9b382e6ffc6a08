// Pocket cube: the distance of every position in a table (3,674,160 of
// them: 7! places of the corners that move times 3^6 twists), by a
// breadth-first search from the solved cube over two coordinates with move
// tables; then each case walks down the table, taking the first move in the
// order U U2 U' R R2 R' F F2 F' that brings it one closer.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

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
static const int moving[7] = {0, 1, 2, 3, 4, 5, 7};  // DBL (6) never moves

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

static int permIndex(const Cube &c) {
    int r = 0;
    for (int i = 0; i < 7; i++) {
        int smaller = 0;
        for (int j = i + 1; j < 7; j++) smaller += c.piece[moving[j]] < c.piece[moving[i]];
        r = r * (7 - i) + smaller;
    }
    return r;
}

static int oriIndex(const Cube &c) {
    int r = 0;
    for (int i = 0; i < 6; i++) r = r * 3 + c.ori[moving[i]];
    return r;
}

static Cube fromIndices(int perm, int ori) {
    Cube c;
    int digits[7];
    for (int i = 6; i >= 0; i--) digits[i] = perm % (7 - i), perm /= 7 - i;
    std::vector<int> left = {0, 1, 2, 3, 4, 5, 7};
    for (int i = 0; i < 7; i++) c.piece[moving[i]] = left[digits[i]], left.erase(left.begin() + digits[i]);
    c.piece[6] = 6, c.ori[6] = 0;
    int sum = 0;
    for (int i = 5; i >= 0; i--) c.ori[moving[i]] = ori % 3, sum += ori % 3, ori /= 3;
    c.ori[7] = (3 - sum % 3) % 3;
    return c;
}

static int permMove[5040][9], oriMove[729][9];
static std::vector<signed char> dist(5040 * 729, -1);

int main() {
    for (int p = 0; p < 5040; p++)
        for (int m = 0; m < 9; m++) permMove[p][m] = permIndex(turn(fromIndices(p, 0), m / 3, m % 3 + 1));
    for (int o = 0; o < 729; o++)
        for (int m = 0; m < 9; m++) oriMove[o][m] = oriIndex(turn(fromIndices(0, o), m / 3, m % 3 + 1));
    std::vector<int> frontier = {0}, next;
    dist[0] = 0;
    for (int d = 0; !frontier.empty(); d++) {
        next.clear();
        for (int s : frontier)
            for (int m = 0; m < 9; m++) {
                int t = permMove[s / 729][m] * 729 + oriMove[s % 729][m];
                if (dist[t] < 0) dist[t] = d + 1, next.push_back(t);
            }
        frontier.swap(next);
    }
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
        int s = permIndex(c) * 729 + oriIndex(c);
        std::string out;
        while (dist[s] > 0) {
            for (int m = 0; m < 9; m++) {
                int t = permMove[s / 729][m] * 729 + oriMove[s % 729][m];
                if (dist[t] == dist[s] - 1) {
                    if (!out.empty()) out += ' ';
                    out += names[m];
                    s = t;
                    break;
                }
            }
        }
        puts(out.c_str());
    }
}
