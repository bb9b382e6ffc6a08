// Water jugs, accepted: breadth-first search from the start over the
// jugs' contents, trying the moves in the order F1 F2 F3 E1 E2 E3 P12 P13
// P21 P23 P31 P32. States are queued in the order of their paths, so the
// first state found that holds the target ends the smallest of the
// shortest answers.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int k, cap[3], start[3], target;

struct Move { char kind; int i, j; };

static std::vector<Move> order() {
    std::vector<Move> ms;
    for (int i = 0; i < k; i++) ms.push_back({'F', i, 0});
    for (int i = 0; i < k; i++) ms.push_back({'E', i, 0});
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++)
            if (i != j) ms.push_back({'P', i, j});
    return ms;
}

static int code(const int *a) { return (a[0] * 21 + a[1]) * 21 + (k == 3 ? a[2] : 0); }

static bool apply(const Move &m, const int *a, int *b) {
    memcpy(b, a, sizeof(int) * 3);
    if (m.kind == 'F') { if (a[m.i] == cap[m.i]) return false; b[m.i] = cap[m.i]; }
    if (m.kind == 'E') { if (a[m.i] == 0) return false; b[m.i] = 0; }
    if (m.kind == 'P') {
        int t = std::min(a[m.i], cap[m.j] - a[m.j]);
        if (t == 0) return false;
        b[m.i] -= t, b[m.j] += t;
    }
    return true;
}

static bool holds(const int *a) {
    for (int i = 0; i < k; i++) if (a[i] == target) return true;
    return false;
}

int main() {
    while (scanf("%d", &k) == 1) {
        for (int i = 0; i < k; i++) scanf("%d", &cap[i]);
        for (int i = 0; i < k; i++) scanf("%d", &start[i]);
        scanf("%d", &target);
        if (k == 2) cap[2] = start[2] = 0;
        if (holds(start)) { printf("-\n"); continue; }
        std::vector<Move> ms = order();
        std::vector<int> parent(21 * 21 * 21, -2), via(21 * 21 * 21);
        std::vector<std::vector<int>> queue{{start[0], start[1], start[2]}};
        parent[code(start)] = -1;
        int found = -1;
        for (size_t h = 0; h < queue.size() && found < 0; h++) {
            int b[3];
            for (size_t m = 0; m < ms.size() && found < 0; m++) {
                if (!apply(ms[m], queue[h].data(), b) || parent[code(b)] != -2) continue;
                parent[code(b)] = h, via[code(b)] = m;
                queue.push_back({b[0], b[1], b[2]});
                if (holds(b)) found = queue.size() - 1;
            }
        }
        if (found < 0) { printf("impossible\n"); continue; }
        std::vector<std::string> path;
        for (int s = found; parent[code(queue[s].data())] >= 0; s = parent[code(queue[s].data())]) {
            Move m = ms[via[code(queue[s].data())]];
            char buf[8];
            if (m.kind == 'P') snprintf(buf, sizeof buf, "P%d%d", m.i + 1, m.j + 1);
            else snprintf(buf, sizeof buf, "%c%d", m.kind, m.i + 1);
            path.push_back(buf);
        }
        for (size_t i = path.size(); i-- > 0;) printf("%s%s", path[i].c_str(), i ? " " : "\n");
    }
}
