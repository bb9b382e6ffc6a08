// BFS per line that marks boards in a visited array indexed by the board read as a 9-digit number (blank = 9): a 10^9-byte array, far over 256 MiB -> MLE.
#include <cstdio>
#include <iostream>
#include <queue>
#include <string>
#include <vector>
#include <algorithm>

static const int POW10[9] = {100000000, 10000000, 1000000, 100000, 10000, 1000, 100, 10, 1};
static const char LETTER[4] = {'u', 'd', 'l', 'r'};

static int target(int pos, int d) {
    switch (d) {
        case 0: return pos >= 3 ? pos - 3 : -1;
        case 1: return pos < 6 ? pos + 3 : -1;
        case 2: return pos % 3 ? pos - 1 : -1;
        default: return pos % 3 != 2 ? pos + 1 : -1;
    }
}

static int digitAt(int code, int pos) { return code / POW10[pos] % 10; }

static std::string solve(int start) {
    const int goal = 123456789;
    std::vector<char> visited(1000000000, 0);  // one byte per 9-digit number
    std::vector<int> order, from;
    std::vector<char> via;
    order.push_back(start), from.push_back(-1), via.push_back(0);
    visited[start] = 1;
    for (size_t head = 0; head < order.size(); head++) {
        int s = order[head];
        if (s == goal) {
            std::string path;
            for (int i = (int)head; from[i] >= 0; i = from[i]) path += via[i];
            std::reverse(path.begin(), path.end());
            return path;
        }
        int blank = 0;
        while (digitAt(s, blank) != 9) blank++;
        for (int d = 0; d < 4; d++) {
            int to = target(blank, d);
            if (to < 0) continue;
            int moved = digitAt(s, to);
            int t = s + (moved - 9) * POW10[blank] + (9 - moved) * POW10[to];
            if (visited[t]) continue;
            visited[t] = 1;
            order.push_back(t), from.push_back((int)head), via.push_back(LETTER[d]);
        }
    }
    return "unsolvable";
}

int main() {
    std::vector<std::string> tokens;
    std::string tok;
    while (std::cin >> tok) tokens.push_back(tok);
    for (size_t i = 0; i + 9 <= tokens.size(); i += 9) {
        int code = 0;
        for (int k = 0; k < 9; k++) code = code * 10 + (tokens[i + k] == "x" ? 9 : tokens[i + k][0] - '0');
        puts(solve(code).c_str());
    }
    return 0;
}
