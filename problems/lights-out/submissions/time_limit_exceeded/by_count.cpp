// Lights Out, never ends: tries every set of 0 presses, then of 1, 2, ... in
// ascending order, so the first set that clears the board is the answer.
// Right where an answer exists, but on a board that no press set clears it
// tries every size again from 0, forever. (It counted on to 26, 27, ...
// presses before: k overflowed after 1.3 s here, and the negative count
// recursed past chosen[] into a crash, RTE on a machine fast enough.)
#include <cstdio>

static int start[25], chosen[32];
static int masks[25];

static bool readBoard() {
    for (int r = 0; r < 5; r++) {
        char line[64];
        if (scanf("%63s", line) != 1) return false;
        for (int c = 0; c < 5; c++) start[5 * r + c] = line[c] - '0';
    }
    return true;
}

// pick chooses k more presses from first on, keeping lit as the lights.
static bool pick(int first, int k, int depth, int lit) {
    if (k == 0) return lit == 0;
    for (int p = first; p <= 25 - k; p++) {
        chosen[depth] = p;
        if (pick(p + 1, k - 1, depth + 1, lit ^ masks[p])) return true;
    }
    return false;
}

int main() {
    for (int p = 0; p < 25; p++) {
        int r = p / 5, c = p % 5;
        masks[p] = 1 << p;
        if (r > 0) masks[p] |= 1 << (p - 5);
        if (r < 4) masks[p] |= 1 << (p + 5);
        if (c > 0) masks[p] |= 1 << (p - 1);
        if (c < 4) masks[p] |= 1 << (p + 1);
    }
    while (readBoard()) {
        int lit = 0;
        for (int i = 0; i < 25; i++) lit |= start[i] << i;
        int k = 0;
        while (!pick(0, k, 0, lit)) k = (k + 1) % 26;
        for (int i = 0; i < k; i++) printf(i ? " %d" : "%d", chosen[i] + 1);
        printf("\n");
        fflush(stdout);
    }
}
