// Loops each move count over 0..2 instead of 0..3: answers that need some move three times are never found (an empty line is printed) -> WA.
#include <cstdio>

static const char *MOVES[9] = {"ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"};

int main() {
    int dial[9];
    for (int i = 0; i < 9; i++) scanf("%d", &dial[i]);
    int effect[9][9] = {};  // effect[move][dial]
    for (int m = 0; m < 9; m++)
        for (const char *p = MOVES[m]; *p; p++) effect[m][*p - 'A'] = 1;

    int best[9] = {}, bestTotal = 100;
    int c[9];
    for (c[0] = 0; c[0] < 3; c[0]++)
    for (c[1] = 0; c[1] < 3; c[1]++)
    for (c[2] = 0; c[2] < 3; c[2]++)
    for (c[3] = 0; c[3] < 3; c[3]++)
    for (c[4] = 0; c[4] < 3; c[4]++)
    for (c[5] = 0; c[5] < 3; c[5]++)
    for (c[6] = 0; c[6] < 3; c[6]++)
    for (c[7] = 0; c[7] < 3; c[7]++)
    for (c[8] = 0; c[8] < 3; c[8]++) {
        int total = 0;
        for (int m = 0; m < 9; m++) total += c[m];
        if (total >= bestTotal) continue;
        bool ok = true;
        for (int d = 0; d < 9 && ok; d++) {
            int v = dial[d];
            for (int m = 0; m < 9; m++) v += c[m] * effect[m][d];
            ok = v % 4 == 0;
        }
        if (ok) {
            bestTotal = total;
            for (int m = 0; m < 9; m++) best[m] = c[m];
        }
    }
    for (int m = 0; m < 9; m++)
        for (int k = 0; k < best[m]; k++) printf("%d ", m + 1);
    printf("\n");
    return 0;
}
