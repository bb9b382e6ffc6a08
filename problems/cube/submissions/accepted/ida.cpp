// Cube: iterative deepening A* over whole positions, its heuristic a table
// of the positions within 5 moves of solved (621,649 of them), in a hash
// map. The tables below are cube.tws's and puzzle.yaml's: per cell (edge
// or corner place) its stickers in input order and the colours of its
// solved piece; per quarter turn where each cell's piece comes from.
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>
#include <unordered_map>
#include <iostream>

static const int NC = 20, DEPTH = 5;
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

// A position as 100 bits: 5 a cell.
struct Key { uint64_t a, b; bool operator==(const Key &o) const { return a == o.a && b == o.b; } };
struct KeyHash { size_t operator()(const Key &k) const { return k.a * 0x9E3779B97F4A7C15ULL ^ (k.b + (k.a >> 29)); } };
static Key key(const State &s) {
    Key k{0, 0};
    for (int i = 0; i < 10; i++) k.a = k.a << 5 | (s.piece[i] << 2 | s.ori[i]);
    for (int i = 10; i < NC; i++) k.b = k.b << 5 | (s.piece[i] << 2 | s.ori[i]);
    return k;
}

static std::unordered_map<Key, int, KeyHash> dist;

// The table of the positions within DEPTH moves of solved.
static void build() {
    State goal;
    for (int i = 0; i < NC; i++) goal.piece[i] = i, goal.ori[i] = 0;
    dist.reserve(1 << 21);
    dist[key(goal)] = 0;
    std::vector<State> layer{goal};
    for (int d = 1; d <= DEPTH; d++) {
        std::vector<State> next;
        for (const State &s : layer)
            for (const Move &m : moves) {
                State n = apply(s, m);
                if (dist.emplace(key(n), d).second) next.push_back(n);
            }
        layer.swap(next);
    }
}

static int h(const State &s) {
    auto it = dist.find(key(s));
    return it == dist.end() ? DEPTH + 1 : it->second;
}

static std::vector<int> path;

// Iterative deepening A*: the table's distance, or DEPTH+1 beyond it,
// never overestimates. Trying the moves in their order, the first
// sequence found at the optimal length is the smallest. A face is never
// turned twice in a row, and of two opposite faces, which commute, the
// later in the order never comes right before the other.
static bool search(const State &s, int g, int bound, int last) {
    int e = h(s);
    if (g + e > bound) return false;
    if (e == 0) return true;
    int n = moves.size();
    for (int k = 0; k < n; k++) {
        const Move &m = moves[k];
        int f = m.face;
        if (f == last || (last >= 0 && opposite[f] == last && f < last)) continue;
        path.push_back(k);
        if (search(apply(s, m), g + 1, bound, f)) return true;
        path.pop_back();
    }
    return false;
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
    build();
    std::string line, out;
    while (std::getline(std::cin, line)) {
        if (line.size() < 54) continue;
        State s = read(line);
        path.clear();
        int bound = h(s);
        while (!search(s, 0, bound, -1)) bound++;
        std::string ans;
        for (int m : path) { if (!ans.empty()) ans += " "; ans += moves[m].name; };
        out += ans + "\n";
    }
    fputs(out.c_str(), stdout);
}
