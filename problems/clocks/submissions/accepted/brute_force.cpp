// Tries every count 0..3 of each of the nine moves (4^9 combinations) and keeps the fewest moves; prints them ascending with a trailing space like the original -> AC.
#include <cstdio>

static const char *MOVES[9] = {"ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"};

int main() {
    int dial[9];
    for (int i = 0; i < 9; i++) scanf("%d", &dial[i]);
    int effect[9][9] = {};  // effect[move][dial]
    for (int m = 0; m < 9; m++)
        for (const char *p = MOVES[m]; *p; p++) effect[m][*p - 'A'] = 1;

    int best[9] = {}, bestTotal = 100;
    int cnt[9];
    for (int code = 0; code < (1 << 18); code++) {
        int total = 0;
        for (int m = 0; m < 9; m++) {
            cnt[m] = (code >> (2 * m)) & 3;
            total += cnt[m];
        }
        if (total >= bestTotal) continue;
        bool ok = true;
        for (int d = 0; d < 9 && ok; d++) {
            int v = dial[d];
            for (int m = 0; m < 9; m++) v += cnt[m] * effect[m][d];
            ok = v % 4 == 0;
        }
        if (ok) {
            bestTotal = total;
            for (int m = 0; m < 9; m++) best[m] = cnt[m];
        }
    }
    for (int m = 0; m < 9; m++)
        for (int k = 0; k < best[m]; k++) printf("%d ", m + 1);
    printf("\n");
    return 0;
}
