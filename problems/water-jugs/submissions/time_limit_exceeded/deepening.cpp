// Water jugs, too slow: iterative deepening over move sequences with no
// memory of the states seen, and no end for a case without an answer: an
// impossible case is searched deeper and deeper forever.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

int k, cap[3], a[3], target;
std::vector<int> path;

static bool holds() {
    for (int i = 0; i < k; i++) if (a[i] == target) return true;
    return false;
}

static bool dfs(int depth) {
    if (holds()) return true;
    if (depth == 0) return false;
    int save[3];
    memcpy(save, a, sizeof a);
    for (int m = 0; m < 2 * k + k * (k - 1); m++) {
        memcpy(a, save, sizeof a);
        if (m < k) { if (a[m] == cap[m]) continue; a[m] = cap[m]; }
        else if (m < 2 * k) { if (a[m - k] == 0) continue; a[m - k] = 0; }
        else {
            int p = m - 2 * k, i = p / (k - 1), j = p % (k - 1);
            if (j >= i) j++;
            int t = std::min(a[i], cap[j] - a[j]);
            if (t == 0) continue;
            a[i] -= t, a[j] += t;
        }
        path.push_back(m);
        if (dfs(depth - 1)) return true;
        path.pop_back();
    }
    memcpy(a, save, sizeof a);
    return false;
}

int main() {
    while (scanf("%d", &k) == 1) {
        for (int i = 0; i < k; i++) scanf("%d", &cap[i]);
        for (int i = 0; i < k; i++) scanf("%d", &a[i]);
        scanf("%d", &target);
        path.clear();
        for (int d = 0; !dfs(d); d++) path.clear();
        if (path.empty()) { printf("-\n"); continue; }
        for (size_t i = 0; i < path.size(); i++) {
            int m = path[i];
            if (m < k) printf("F%d", m + 1);
            else if (m < 2 * k) printf("E%d", m - k + 1);
            else { int p = m - 2 * k, x = p / (k - 1), y = p % (k - 1); if (y >= x) y++; printf("P%d%d", x + 1, y + 1); }
            printf(i + 1 < path.size() ? " " : "\n");
        }
    }
}
