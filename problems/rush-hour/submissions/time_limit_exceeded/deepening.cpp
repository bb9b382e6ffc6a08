// Rush Hour, too slow: iterative deepening over move sequences with no
// memory of the positions seen. A lot that needs 49 moves, some 20 moves
// a step: 20^49 nodes; and a lot with no way out is searched forever.
#include <cstdio>
#include <string>
#include <vector>

char g[6][8];
std::vector<std::string> path;

static bool out() { return g[2][4] == 'A' && g[2][5] == 'A'; }

static bool dfs(int depth) {
    if (out()) return true;
    if (depth == 0) return false;
    for (char v = 'A'; v <= 'P'; v++)
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 6; c++) {
                if (g[r][c] != v) continue;
                bool across = (c + 1 < 6 && g[r][c + 1] == v) || (c > 0 && g[r][c - 1] == v);
                if ((across && c > 0 && g[r][c - 1] == v) || (!across && r > 0 && g[r - 1][c] == v)) continue;
                int len = 1;
                while (across ? c + len < 6 && g[r][c + len] == v : r + len < 6 && g[r + len][c] == v) len++;
                const char *dirs = across ? "LR" : "DU";
                for (int w = 0; w < 2; w++) {
                    int step = (dirs[w] == 'L' || dirs[w] == 'U') ? -1 : 1;
                    char save[6][8];
                    for (int d = 1;; d++) {
                        int x = step < 0 ? (across ? c : r) - d : (across ? c : r) + len - 1 + d;
                        if (x < 0 || x >= 6 || (across ? g[r][x] : g[x][c]) != '.') break;
                        for (int i = 0; i < 6; i++) for (int j = 0; j < 8; j++) save[i][j] = g[i][j];
                        for (int i = 0; i < len; i++) { if (across) g[r][c + i] = '.'; else g[r + i][c] = '.'; }
                        for (int i = 0; i < len; i++) { if (across) g[r][c + i + step * d] = v; else g[r + i + step * d][c] = v; }
                        path.push_back(std::string(1, v) + dirs[w] + std::to_string(d));
                        if (dfs(depth - 1)) return true;
                        path.pop_back();
                        for (int i = 0; i < 6; i++) for (int j = 0; j < 8; j++) g[i][j] = save[i][j];
                    }
                }
            }
    return false;
}

int main() {
    for (int r = 0; r < 6; r++) scanf("%7s", g[r]);
    for (int d = 0; !dfs(d); d++) path.clear();
    for (size_t i = 0; i < path.size(); i++) printf("%s%s", path[i].c_str(), i + 1 < path.size() ? " " : "\n");
    if (path.empty()) printf("\n");
}
