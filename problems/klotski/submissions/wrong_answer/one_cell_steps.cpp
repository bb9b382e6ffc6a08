// Klotski, wrong: valid but too long. Breadth-first search where a move
// slides a piece one cell: the fewest one-cell steps, each written as a
// move (BD1 BD1 for BD2), so a slide of two cells counts two.
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

static std::string key(const std::string &b) {
    char names[128] = {};
    names['.'] = '.';
    char next = 'a';
    std::string k = b;
    for (char &x : k) {
        if (!names[(int)x]) names[(int)x] = next++;
        x = names[(int)x];
    }
    return k;
}

static bool solved(const std::string &b) { return b[13] != '.' && b[13] == b[14] && b[13] == b[17] && b[13] == b[18]; }

static const char *DIRS = "DLRU";
static const int DR[] = {1, 0, 0, -1}, DC[] = {0, -1, 1, 0};

int main() {
    std::string start;
    for (int r = 0; r < 5; r++) { char row[8]; scanf("%7s", row); start += row; }
    if (solved(start)) { printf("\n"); return 0; }
    std::unordered_map<std::string, std::pair<std::string, std::string>> parent;  // key -> (board before, move)
    parent[key(start)] = {"", ""};
    std::vector<std::string> queue{start};
    for (size_t h = 0; h < queue.size(); h++) {
        std::string b = queue[h];
        for (char p = 'A'; p <= 'J'; p++) {
            std::vector<int> cells;
            for (int i = 0; i < 20; i++) if (b[i] == p) cells.push_back(i);
            if (cells.empty()) continue;
            for (int d = 0; d < 4; d++) {
                std::vector<int> cur = cells;
                for (int dist = 1; dist <= 1; dist++) {
                    std::vector<int> moved;
                    bool ok = true;
                    for (int i : cur) {
                        int r = i / 4 + DR[d], c = i % 4 + DC[d];
                        if (r < 0 || r >= 5 || c < 0 || c >= 4 || (b[r * 4 + c] != '.' && b[r * 4 + c] != p)) { ok = false; break; }
                        moved.push_back(r * 4 + c);
                    }
                    if (!ok) break;
                    std::string nb = b;
                    for (int i : cells) nb[i] = '.';
                    for (int i : moved) nb[i] = p;
                    cur = moved;
                    std::string k = key(nb);
                    if (parent.count(k)) continue;
                    parent[k] = {b, std::string(1, p) + DIRS[d] + std::to_string(dist)};
                    if (solved(nb)) {
                        std::vector<std::string> path;
                        for (std::string x = nb; key(x) != key(start); x = parent[key(x)].first) path.push_back(parent[key(x)].second);
                        for (size_t i = path.size(); i-- > 0;) printf("%s%s", path[i].c_str(), i ? " " : "\n");
                        return 0;
                    }
                    queue.push_back(nb);
                }
            }
        }
    }
    printf("impossible\n");
}
