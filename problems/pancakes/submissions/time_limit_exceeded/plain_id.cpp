// Pancakes, too slow: iterative deepening without a heuristic. A stack of 16
// that needs 15 or more flips costs some 14^15 (about 10^17) nodes.
#include <algorithm>
#include <cstdio>

static int n, s[20], path[64];

static bool sorted() {
    for (int i = 0; i < n; i++)
        if (s[i] != i + 1) return false;
    return true;
}

static bool dfs(int g, int depth, int last) {
    if (g == depth) return sorted();
    for (int k = 2; k <= n; k++) {
        if (k == last) continue;
        std::reverse(s, s + k);
        path[g] = k;
        bool ok = dfs(g + 1, depth, k);
        std::reverse(s, s + k);
        if (ok) return true;
    }
    return false;
}

int main() {
    while (scanf("%d", &n) == 1) {
        for (int i = 0; i < n; i++) scanf("%d", &s[i]);
        int depth = 0;
        while (!dfs(0, depth, 0)) depth++;
        for (int i = 0; i < depth; i++) printf(i ? " %d" : "%d", path[i]);
        printf("\n");
        fflush(stdout);
    }
}
