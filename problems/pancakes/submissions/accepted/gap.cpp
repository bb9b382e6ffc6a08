// Pancakes: iterative deepening A* with the gap heuristic (Helmert 2010):
// every pair of neighbours that are not consecutive sizes, the plate under
// the stack counting as size n+1, needs a flip between them. Flips are tried
// from 2 up and never the same twice in a row, so the first answer at the
// optimal depth is the smallest.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

static int n, s[20], path[64], found;

static int gaps() {
    int g = 0;
    for (int i = 0; i < n; i++) g += abs(s[i] - (i + 1 < n ? s[i + 1] : n + 1)) != 1;
    return g;
}

static int dfs(int g, int bound, int last) {
    int h = gaps();
    if (g + h > bound) return g + h;
    if (h == 0) {
        found = g;
        return -1;
    }
    int next = 1 << 30;
    for (int k = 2; k <= n; k++) {
        if (k == last) continue;
        std::reverse(s, s + k);
        path[g] = k;
        int r = dfs(g + 1, bound, k);
        std::reverse(s, s + k);
        if (r < 0) return -1;
        next = std::min(next, r);
    }
    return next;
}

int main() {
    while (scanf("%d", &n) == 1) {
        for (int i = 0; i < n; i++) scanf("%d", &s[i]);
        for (int bound = gaps();;) {
            int r = dfs(0, bound, 0);
            if (r < 0) break;
            bound = r;
        }
        for (int i = 0; i < found; i++) printf(i ? " %d" : "%d", path[i]);
        printf("\n");
        fflush(stdout);
    }
}
