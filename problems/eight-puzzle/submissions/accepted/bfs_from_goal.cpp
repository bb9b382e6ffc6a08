// One BFS from the solved frame over all 9! arrangements (Cantor-ranked) records, for each reachable one, a blank move one step closer; each line just follows it -> AC.
#include <cstdio>
#include <string>
#include <vector>
#include <iostream>
#include <algorithm>

static int fact[10];

// rank of a permutation of 0..8 (0 is the blank) among all 9!
static int rankOf(const char *p) {
    int r = 0;
    for (int i = 0; i < 9; i++) {
        int smaller = 0;
        for (int j = i + 1; j < 9; j++) smaller += p[j] < p[i];
        r += smaller * fact[8 - i];
    }
    return r;
}

static const char DIR[4] = {'u', 'd', 'l', 'r'};
static const char OPPOSITE[4] = {'d', 'u', 'r', 'l'};

// the cell the blank moves to, or -1 when the move leaves the frame
static int target(int pos, int d) {
    switch (d) {
        case 0: return pos >= 3 ? pos - 3 : -1;
        case 1: return pos < 6 ? pos + 3 : -1;
        case 2: return pos % 3 ? pos - 1 : -1;
        default: return pos % 3 != 2 ? pos + 1 : -1;
    }
}

int main() {
    fact[0] = 1;
    for (int i = 1; i < 10; i++) fact[i] = fact[i - 1] * i;

    // toward[r]: the blank move that brings arrangement r one step nearer the goal
    std::vector<char> toward(362880, 0);
    std::vector<std::string> queue;
    const std::string goal = {1, 2, 3, 4, 5, 6, 7, 8, 0};
    queue.reserve(181440);
    queue.push_back(goal);
    toward[rankOf(goal.data())] = '.';
    for (size_t head = 0; head < queue.size(); head++) {
        std::string s = queue[head];
        int blank = (int)(std::find(s.begin(), s.end(), 0) - s.begin());
        for (int d = 0; d < 4; d++) {
            int to = target(blank, d);
            if (to < 0) continue;
            std::string t = s;
            std::swap(t[blank], t[to]);
            int r = rankOf(t.data());
            if (!toward[r]) {
                toward[r] = OPPOSITE[d];  // undoing move d walks back toward the goal
                queue.push_back(t);
            }
        }
    }

    std::string tok;
    std::vector<std::string> tokens;
    while (std::cin >> tok) tokens.push_back(tok);
    std::string out;
    for (size_t i = 0; i + 9 <= tokens.size(); i += 9) {
        std::string s(9, 0);
        for (int k = 0; k < 9; k++) s[k] = tokens[i + k] == "x" ? 0 : tokens[i + k][0] - '0';
        int r = rankOf(s.data());
        if (!toward[r]) {
            out += "unsolvable\n";
            continue;
        }
        while (toward[r] != '.') {
            char c = toward[r];
            int blank = (int)(std::find(s.begin(), s.end(), 0) - s.begin());
            int d = (int)(std::find(DIR, DIR + 4, c) - DIR);
            std::swap(s[blank], s[target(blank, d)]);
            out += c;
            r = rankOf(s.data());
        }
        out += '\n';
    }
    fputs(out.c_str(), stdout);
    return 0;
}
