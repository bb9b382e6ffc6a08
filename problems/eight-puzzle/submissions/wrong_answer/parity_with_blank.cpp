// A* with Manhattan distance, but the solvability test counts inversions with the blank as 9, which flips the parity whenever the blank is on an odd cell -> WA ("unsolvable" for solvable frames).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <queue>
#include <string>
#include <vector>
#include <algorithm>

static int fact[10];
static const char LETTER[4] = {'u', 'd', 'l', 'r'};

static int rankOf(const std::string &p) {
    int r = 0;
    for (int i = 0; i < 9; i++) {
        int smaller = 0;
        for (int j = i + 1; j < 9; j++) smaller += p[j] < p[i];
        r += smaller * fact[8 - i];
    }
    return r;
}

static int target(int pos, int d) {
    switch (d) {
        case 0: return pos >= 3 ? pos - 3 : -1;
        case 1: return pos < 6 ? pos + 3 : -1;
        case 2: return pos % 3 ? pos - 1 : -1;
        default: return pos % 3 != 2 ? pos + 1 : -1;
    }
}

static int manhattan(const std::string &s) {
    int h = 0;
    for (int i = 0; i < 9; i++) {
        if (s[i] == '9') continue;
        int v = s[i] - '1';
        h += abs(i / 3 - v / 3) + abs(i % 3 - v % 3);
    }
    return h;
}

// the blank is written as '9' and counted like a tile
static bool solvable(const std::string &s) {
    int inversions = 0;
    for (int i = 0; i < 9; i++)
        for (int j = i + 1; j < 9; j++) inversions += s[i] > s[j];
    return inversions % 2 == 0;
}

static std::vector<int> bestG(362880), stamp(362880), parent(362880);
static std::vector<char> via(362880);

static std::string solve(const std::string &start, int id) {
    const std::string goal = "123456789";
    typedef std::pair<int, std::string> Item;  // (f, board)
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
    int r0 = rankOf(start);
    stamp[r0] = id, bestG[r0] = 0, parent[r0] = -1;
    open.push({manhattan(start), start});
    while (!open.empty()) {
        Item it = open.top();
        open.pop();
        const std::string s = it.second;
        int r = rankOf(s), g = bestG[r];
        if (it.first != g + manhattan(s)) continue;  // stale entry
        if (s == goal) {
            std::string path;
            for (int x = r; parent[x] >= 0; x = parent[x]) path += via[x];
            std::reverse(path.begin(), path.end());
            return path;
        }
        int blank = (int)s.find('9');
        for (int d = 0; d < 4; d++) {
            int to = target(blank, d);
            if (to < 0) continue;
            std::string t = s;
            std::swap(t[blank], t[to]);
            int tr = rankOf(t);
            if (stamp[tr] == id && bestG[tr] <= g + 1) continue;
            stamp[tr] = id, bestG[tr] = g + 1, parent[tr] = r, via[tr] = LETTER[d];
            open.push({g + 1 + manhattan(t), t});
        }
    }
    return "unsolvable";
}

int main() {
    fact[0] = 1;
    for (int i = 1; i < 10; i++) fact[i] = fact[i - 1] * i;
    std::vector<std::string> tokens;
    std::string tok;
    while (std::cin >> tok) tokens.push_back(tok);
    int id = 0;
    for (size_t i = 0; i + 9 <= tokens.size(); i += 9) {
        std::string s;
        for (int k = 0; k < 9; k++) s += tokens[i + k] == "x" ? '9' : tokens[i + k][0];
        if (!solvable(s))
            puts("unsolvable");
        else
            puts(solve(s, ++id).c_str());
    }
    return 0;
}
