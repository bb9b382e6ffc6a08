// Fifteen-puzzle, wrong: weighted iterative deepening A*, the pattern
// databases' sum counted twice to find an answer sooner. The heuristic then
// overestimates, and the answers, valid, are often longer than the optimum.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

static const int groups[3][5] = {{1, 2, 3, 4, 7}, {5, 6, 9, 10, 13}, {8, 11, 12, 14, 15}};
static uint8_t pdb[3][1 << 20];
static int groupOf[16], slotOf[16];
static const int weight[5] = {1 << 16, 1 << 12, 1 << 8, 1 << 4, 1};

static void build(int g) {
    std::vector<uint8_t> dist(1 << 24, 255);
    std::deque<uint32_t> q;
    uint32_t key = 0;
    for (int i = 0; i < 5; i++) key += (groups[g][i] - 1) * weight[i];
    uint32_t start = key << 4 | 15;
    dist[start] = 0;
    q.push_back(start);
    memset(pdb[g], 255, sizeof pdb[g]);
    while (!q.empty()) {
        uint32_t u = q.front();
        q.pop_front();
        int d = dist[u], blank = u & 15;
        uint32_t k = u >> 4;
        if (d < pdb[g][k]) pdb[g][k] = d;
        int pos[5];
        for (int i = 0; i < 5; i++) pos[i] = (k / weight[i]) & 15;
        int r = blank / 4, c = blank % 4;
        const int dr[4] = {1, 0, 0, -1}, dc[4] = {0, -1, 1, 0};
        for (int m = 0; m < 4; m++) {
            int nr = r + dr[m], nc = c + dc[m];
            if (nr < 0 || nr > 3 || nc < 0 || nc > 3) continue;
            int to = nr * 4 + nc, who = -1;
            for (int i = 0; i < 5; i++)
                if (pos[i] == to) who = i;
            uint32_t nk = k;
            int w = 0;
            if (who >= 0) {
                nk = k + (blank - to) * weight[who];
                w = 1;
            }
            uint32_t v = nk << 4 | to;
            if (d + w < dist[v]) {
                dist[v] = d + w;
                if (w) q.push_back(v); else q.push_front(v);
            }
        }
    }
}

static int board[16], blankAt, keys[3];
static char path[128];
static int solLen;
static const char names[4] = {'D', 'L', 'R', 'U'};
static const int delta[4] = {4, -1, 1, -4};

static int h() { return 2 * (pdb[0][keys[0]] + pdb[1][keys[1]] + pdb[2][keys[2]]); }

static bool can(int b, int m) {
    switch (m) {
    case 0: return b < 12;
    case 1: return b % 4 != 0;
    case 2: return b % 4 != 3;
    default: return b >= 4;
    }
}

// dfs returns -1 when it found the goal, else the least f over the bound.
static int dfs(int g, int bound, int last) {
    int hh = h();
    if (g + hh > bound) return g + hh;
    if (hh == 0) {
        solLen = g;
        return -1;
    }
    int next = 1 << 30;
    for (int m = 0; m < 4; m++) {
        if (last >= 0 && m == 3 - last) continue;
        if (!can(blankAt, m)) continue;
        int to = blankAt + delta[m], t = board[to], gr = groupOf[t];
        keys[gr] += (blankAt - to) * weight[slotOf[t]];
        board[blankAt] = t;
        board[to] = 0;
        int from = blankAt;
        blankAt = to;
        path[g] = names[m];
        int r = dfs(g + 1, bound, m);
        blankAt = from;
        board[to] = t;
        board[from] = 0;
        keys[gr] -= (from - to) * weight[slotOf[t]];
        if (r < 0) return -1;
        if (r < next) next = r;
    }
    return next;
}

int main() {
    for (int g = 0; g < 3; g++)
        for (int i = 0; i < 5; i++) groupOf[groups[g][i]] = g, slotOf[groups[g][i]] = i;
    bool built = false;
    int cells[16];
    while (true) {
        for (int i = 0; i < 16; i++)
            if (scanf("%d", &cells[i]) != 1) return 0;
        // solvable iff the permutation's parity equals the blank's distance's
        int perm[16], inv = 0;
        for (int i = 0; i < 16; i++) perm[i] = cells[i] == 0 ? 16 : cells[i];
        for (int i = 0; i < 16; i++)
            for (int j = i + 1; j < 16; j++)
                if (perm[i] > perm[j]) inv++;
        int b = 0;
        for (int i = 0; i < 16; i++)
            if (cells[i] == 0) b = i;
        if ((inv + (3 - b / 4) + (3 - b % 4)) % 2) {
            puts("unsolvable");
            continue;
        }
        if (!built) {
            for (int g = 0; g < 3; g++) build(g);
            built = true;
        }
        keys[0] = keys[1] = keys[2] = 0;
        for (int i = 0; i < 16; i++) {
            board[i] = cells[i];
            if (cells[i]) keys[groupOf[cells[i]]] += i * weight[slotOf[cells[i]]];
        }
        blankAt = b;
        int bound = h();
        for (;;) {
            int r = dfs(0, bound, -1);
            if (r < 0) break;
            bound = r;
        }
        path[solLen] = 0;
        puts(path);
        fflush(stdout);
    }
}
