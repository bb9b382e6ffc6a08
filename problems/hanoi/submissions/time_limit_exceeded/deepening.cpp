// Tower of Hanoi, too slow: iterative deepening over move sequences with
// no memory of the arrangements seen. Ten discs need hundreds of moves at
// some five legal moves a step (never undoing the last): 5^300 nodes.
#include <cstdio>
#include <vector>

static int n, pegs[10], goal[10];
static std::vector<int> path;

static bool solved() {
    for (int k = 0; k < n; k++)
        if (pegs[k] != goal[k]) return false;
    return true;
}

static int top(int p) {
    for (int k = 0; k < n; k++)
        if (pegs[k] == p) return k;
    return n;
}

static bool dfs(int depth, int last) {
    if (solved()) return true;
    if (depth == 0) return false;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            int k = top(a);
            if (a == b || k == n || top(b) < k || b * 3 + a == last) continue;
            pegs[k] = b;
            path.push_back(a * 3 + b);
            if (dfs(depth - 1, a * 3 + b)) return true;
            path.pop_back();
            pegs[k] = a;
        }
    return false;
}

int main() {
    while (scanf("%d", &n) == 1) {
        for (int k = 0; k < n; k++) scanf("%d", &pegs[k]), pegs[k]--;
        for (int k = 0; k < n; k++) scanf("%d", &goal[k]), goal[k]--;
        path.clear();
        for (int d = 0; !dfs(d, -1); d++) path.clear();
        for (size_t i = 0; i < path.size(); i++) printf(i ? " %d%d" : "%d%d", path[i] / 3 + 1, path[i] % 3 + 1);
        printf("\n");
    }
}
