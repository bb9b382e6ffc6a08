// Fifteen-puzzle, too slow: iterative deepening without a heuristic (the
// blank never steps straight back). A board about 50 moves from the goal
// needs some 2.13^50 nodes, about 10^16: no machine finishes a test.
#include <cstdio>
#include <string>

static int board[16], blankAt;
static char path[128];
static const char names[4] = {'D', 'L', 'R', 'U'};
static const int delta[4] = {4, -1, 1, -4};

static bool can(int b, int m) {
    switch (m) {
    case 0: return b < 12;
    case 1: return b % 4 != 0;
    case 2: return b % 4 != 3;
    default: return b >= 4;
    }
}

static bool solved() {
    for (int i = 0; i < 15; i++)
        if (board[i] != i + 1) return false;
    return true;
}

static bool dfs(int g, int depth, int last) {
    if (g == depth) return solved();
    for (int m = 0; m < 4; m++) {
        if ((last >= 0 && m == 3 - last) || !can(blankAt, m)) continue;
        int from = blankAt, to = blankAt + delta[m];
        board[from] = board[to];
        board[to] = 0;
        blankAt = to;
        path[g] = names[m];
        bool ok = dfs(g + 1, depth, m);
        blankAt = from;
        board[to] = board[from];
        board[from] = 0;
        if (ok) return true;
    }
    return false;
}

int main() {
    int cells[16];
    while (true) {
        for (int i = 0; i < 16; i++)
            if (scanf("%d", &cells[i]) != 1) return 0;
        int inv = 0, b = 0, perm[16];
        for (int i = 0; i < 16; i++) {
            perm[i] = cells[i] ? cells[i] : 16;
            if (!cells[i]) b = i;
        }
        for (int i = 0; i < 16; i++)
            for (int j = i + 1; j < 16; j++) inv += perm[i] > perm[j];
        if ((inv + (3 - b / 4) + (3 - b % 4)) % 2) {
            puts("unsolvable");
            continue;
        }
        for (int i = 0; i < 16; i++) board[i] = cells[i];
        blankAt = b;
        for (int depth = 0;; depth++)
            if (dfs(0, depth, -1)) {
                path[depth] = 0;
                break;
            }
        puts(path);
        fflush(stdout);
    }
}
