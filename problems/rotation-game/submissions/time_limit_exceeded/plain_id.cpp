// Plain iterative deepening with no heuristic pruning (only the undo of the last move is skipped): about 7^depth nodes per board -> TLE.
#include <cstdio>

static const int LINE[8][7] = {
    {0, 2, 6, 11, 15, 20, 22},    {1, 3, 8, 12, 17, 21, 23},
    {10, 9, 8, 7, 6, 5, 4},       {19, 18, 17, 16, 15, 14, 13},
    {23, 21, 17, 12, 8, 3, 1},    {22, 20, 15, 11, 6, 2, 0},
    {13, 14, 15, 16, 17, 18, 19}, {4, 5, 6, 7, 8, 9, 10},
};
static const int INV[8] = {5, 4, 7, 6, 1, 0, 3, 2};
static const int CENTER[8] = {6, 7, 8, 11, 12, 15, 16, 17};

static int board[24];
static char path[64];

static void apply(int m) {
    const int *l = LINE[m];
    int first = board[l[0]];
    for (int i = 0; i < 6; i++) board[l[i]] = board[l[i + 1]];
    board[l[6]] = first;
}

static bool solved() {
    for (int c : CENTER)
        if (board[c] != board[CENTER[0]]) return false;
    return true;
}

static bool dfs(int depth, int bound, int last) {
    if (depth == bound) return solved();
    for (int m = 0; m < 8; m++) {
        if (last >= 0 && m == INV[last]) continue;
        apply(m);
        path[depth] = char('A' + m);
        bool ok = dfs(depth + 1, bound, m);
        apply(INV[m]);
        if (ok) return true;
    }
    return false;
}

int main() {
    while (scanf("%d", &board[0]) == 1 && board[0] != 0) {
        for (int i = 1; i < 24; i++) scanf("%d", &board[i]);
        if (solved()) {
            printf("No moves needed\n%d\n", board[CENTER[0]]);
            continue;
        }
        for (int bound = 1;; bound++) {
            if (dfs(0, bound, -1)) {
                path[bound] = '\0';
                for (int i = 0; i < bound; i++) apply(path[i] - 'A');
                printf("%s\n%d\n", path, board[CENTER[0]]);
                break;
            }
        }
    }
    return 0;
}
