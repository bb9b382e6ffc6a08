// Tower of Hanoi, wrong: shortest, but not the smallest. Per case, breadth-first search from the goal
// over the 3^n arrangements (moves can be undone, so distances to the goal
// are distances from it), then from the start the LAST move, in the
// order 12 13 21 23 31 32, that brings the goal one move closer.
#include <cstdio>
#include <cstring>
#include <vector>

static int n, pw[11];

// top returns the smallest disc on peg p (0-based) of arrangement s, or n.
static int top(int s, int p) {
    for (int k = 0; k < n; k++)
        if (s / pw[k] % 3 == p) return k;
    return n;
}

// step makes move a->b on s; -1 when it cannot be made.
static int step(int s, int a, int b) {
    int k = top(s, a);
    if (k == n || top(s, b) < k) return -1;
    return s + (b - a) * pw[k];
}

int main() {
    pw[0] = 1;
    for (int i = 1; i <= 10; i++) pw[i] = pw[i - 1] * 3;
    static signed char dist[59049];
    static int queue[59049];
    while (scanf("%d", &n) == 1) {
        int start = 0, goal = 0, x;
        for (int k = 0; k < n; k++) scanf("%d", &x), start += (x - 1) * pw[k];
        for (int k = 0; k < n; k++) scanf("%d", &x), goal += (x - 1) * pw[k];
        std::vector<int> d(pw[n], -1);
        int head = 0, tail = 0;
        d[goal] = 0, queue[tail++] = goal;
        while (head < tail) {
            int s = queue[head++];
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    if (a == b) continue;
                    int t = step(s, a, b);
                    if (t >= 0 && d[t] < 0) d[t] = d[s] + 1, queue[tail++] = t;
                }
        }
        (void)dist;
        int s = start;
        bool first = true;
        while (d[s] > 0) {
            bool moved = false;
            for (int a = 2; a >= 0 && !moved; a--)
                for (int b = 2; b >= 0 && !moved; b--) {
                    if (a == b) continue;
                    int t = step(s, a, b);
                    if (t >= 0 && d[t] == d[s] - 1) {
                        printf(first ? "%d%d" : " %d%d", a + 1, b + 1);
                        first = false, s = t, moved = true;
                    }
                }
        }
        printf("\n");
    }
}
