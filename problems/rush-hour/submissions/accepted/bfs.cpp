// Rush Hour, accepted: breadth-first search from the start over the
// vehicles' positions along their lines (three bits each), the moves tried
// in the order of the answers (vehicle letter, then D L R U, then
// distance): the first state found with the red car at the exit ends the
// smallest of the shortest answers.
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

struct Vehicle { char name; bool across; int line, length; };
std::vector<Vehicle> vs;

typedef unsigned long long State;
static int pos(State s, int k) { return s >> (3 * k) & 7; }
static State with(State s, int k, int p) { return s & ~(7ULL << (3 * k)) | (State)p << (3 * k); }

int main() {
    char rows[6][8];
    for (int r = 0; r < 6; r++) scanf("%7s", rows[r]);
    State start = 0;
    int a = -1;
    for (char v = 'A'; v <= 'P'; v++) {
        int r0 = -1, c0 = -1, n = 0, r1 = 0;
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 6; c++)
                if (rows[r][c] == v) { if (n++ == 0) r0 = r, c0 = c; r1 = r; }
        if (n == 0) continue;
        bool across = r0 == r1;
        if (v == 'A') a = vs.size();
        start = with(start, vs.size(), across ? c0 : r0);
        vs.push_back({v, across, across ? r0 : c0, n});
    }
    if (pos(start, a) == 4) { printf("\n"); return 0; }
    std::vector<State> queue{start};
    std::unordered_map<State, std::pair<State, std::string>> parent;
    parent[start] = {start, ""};
    for (size_t h = 0; h < queue.size(); h++) {
        State s = queue[h];
        bool occ[6][6] = {};
        for (size_t k = 0; k < vs.size(); k++)
            for (int i = 0; i < vs[k].length; i++) {
                int p = pos(s, k) + i;
                if (vs[k].across) occ[vs[k].line][p] = true; else occ[p][vs[k].line] = true;
            }
        for (size_t k = 0; k < vs.size(); k++) {
            const Vehicle &v = vs[k];
            int p = pos(s, k);
            const char *dirs = v.across ? "LR" : "DU";
            for (int w = 0; w < 2; w++) {
                int step = (dirs[w] == 'L' || dirs[w] == 'U') ? -1 : 1;
                for (int x = step < 0 ? p - 1 : p + v.length, d = 1; x >= 0 && x < 6; x += step, d++) {
                    if (v.across ? occ[v.line][x] : occ[x][v.line]) break;
                    State t = with(s, k, p + step * d);
                    if (parent.count(t)) continue;
                    char name[8];
                    snprintf(name, sizeof name, "%c%c%d", v.name, dirs[w], d);
                    parent[t] = {s, name};
                    if ((int)k == a && p + step * d == 4) {
                        std::vector<std::string> path;
                        for (State u = t; u != start; u = parent[u].first) path.push_back(parent[u].second);
                        for (size_t i = path.size(); i-- > 0;) printf("%s%s", path[i].c_str(), i ? " " : "\n");
                        return 0;
                    }
                    queue.push_back(t);
                }
            }
        }
    }
    printf("impossible\n");
}
