// Wrong answer: ida.cpp (accepted) with the moves tried last first (R R' U U' L L' B B'
// backwards): its answers are as short as can be, but not the first of
// them in the order.
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>
#include <iostream>
#include <unordered_map>

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

static uint64_t key(const State &s) {
    uint64_t k = 0;
    for (int i = 0; i < NC; i++) {
        if ((i == 0)) continue;
        k = k * NC + s.piece[i];
        k = k * mod[i] + s.ori[i];
    }
    return k;
}

static const int DEPTH = 6;  // the table from the solved puzzle reaches this far
static std::unordered_map<uint64_t, int> dist;
static int moves = 0;        // the moves the search turns: tips left out
static std::vector<int> path;

static int h(const State &s) {
    auto it = dist.find(key(s));
    return it == dist.end() ? DEPTH + 1 : it->second;
}

// Iterative deepening A*: the table's distance, or DEPTH+1 beyond it,
// never overestimates. Trying the moves in their order, the first
// sequence found at the optimal length is the smallest; two moves about
// one axis in a row are never optimal (they make one move or none).
static bool search(const State &s, int g, int bound, int last) {
    int e = h(s);
    if (g + e > bound) return false;
    if (e == 0) return true;
    for (int k = 0; k < moves; k++) {
        int m = moves - 1 - k;
        if (m / 2 == last) continue;
        path.push_back(m);
        if (search(apply(s, m), g + 1, bound, m / 2)) return true;
        path.pop_back();
    }
    return false;
}

int main() {
    moves = 2 * NM;
    if (false) moves = NM;  // the first half: the big moves
    State goal;
    for (int i = 0; i < NC; i++) goal.piece[i] = i, goal.ori[i] = 0;
    std::vector<State> cur{goal}, next;
    dist[key(goal)] = 0;
    for (int d = 1; d <= DEPTH; d++) {
        next.clear();
        for (const State &s : cur)
            for (int m = 0; m < moves; m++) {
                State n = apply(s, m);
                if (dist.emplace(key(n), d).second) next.push_back(n);
            }
        cur.swap(next);
    }
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
        path.clear();
        for (int bound = h(s); !search(s, 0, bound, -1); bound++) {
        }
        std::vector<std::string> out;
        for (int m : path) out.push_back(moveName(m));
        for (size_t i = 0; i < out.size(); i++) printf("%s%s", i ? " " : "", out[i].c_str());
        printf("\n");
    }
}
