// One BFS from the centre over "which 8 cells hold digit d" (C(24,8) = 735471 states) serves all digits; the answer is built letter by letter from the distance table; ~0.03 s -> AC.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <string>
#include <algorithm>

static const int LINE[8][7] = {
    {0, 2, 6, 11, 15, 20, 22},    {1, 3, 8, 12, 17, 21, 23},
    {10, 9, 8, 7, 6, 5, 4},       {19, 18, 17, 16, 15, 14, 13},
    {23, 21, 17, 12, 8, 3, 1},    {22, 20, 15, 11, 6, 2, 0},
    {13, 14, 15, 16, 17, 18, 19}, {4, 5, 6, 7, 8, 9, 10},
};
static const int CENTER[8] = {6, 7, 8, 11, 12, 15, 16, 17};

// perm[m][c] = the cell whose content moves into cell c under move m
static int perm[8][24];
// part[m][k][b] = image of byte k of a mask holding value b
static uint32_t part[8][3][256];

static uint32_t move(int m, uint32_t s) {
    return part[m][0][s & 255] | part[m][1][(s >> 8) & 255] | part[m][2][s >> 16];
}

int main() {
    for (int m = 0; m < 8; m++) {
        for (int c = 0; c < 24; c++) perm[m][c] = c;
        for (int i = 0; i < 6; i++) perm[m][LINE[m][i]] = LINE[m][i + 1];
        perm[m][LINE[m][6]] = LINE[m][0];
        // bit src of the old mask lands on bit dst where perm[m][dst] == src
        for (int k = 0; k < 3; k++)
            for (int b = 0; b < 256; b++) {
                uint32_t out = 0;
                for (int dst = 0; dst < 24; dst++) {
                    int src = perm[m][dst];
                    if (src / 8 == k && (b >> (src % 8) & 1)) out |= 1u << dst;
                }
                part[m][k][b] = out;
            }
    }
    uint32_t goal = 0;
    for (int c : CENTER) goal |= 1u << c;
    std::vector<uint8_t> dist(1u << 24, 255);
    std::vector<uint32_t> queue;
    queue.reserve(735471);
    dist[goal] = 0;
    queue.push_back(goal);
    for (size_t head = 0; head < queue.size(); head++) {
        uint32_t s = queue[head];
        for (int m = 0; m < 8; m++) {
            uint32_t t = move(m, s);
            if (dist[t] == 255) {
                dist[t] = dist[s] + 1;
                queue.push_back(t);
            }
        }
    }

    int board[24];
    while (scanf("%d", &board[0]) == 1 && board[0] != 0) {
        for (int i = 1; i < 24; i++) scanf("%d", &board[i]);
        uint32_t mask[4] = {0, 0, 0, 0};
        for (int c = 0; c < 24; c++) mask[board[c]] |= 1u << c;
        int best = 255;
        for (int d = 1; d <= 3; d++) best = std::min(best, (int)dist[mask[d]]);
        if (best == 0) {
            printf("No moves needed\n%d\n", board[CENTER[0]]);
            continue;
        }
        bool alive[4] = {false, false, false, false};
        for (int d = 1; d <= 3; d++) alive[d] = dist[mask[d]] == best;
        std::string answer;
        for (int left = best; left > 0; left--) {
            for (int m = 0; m < 8; m++) {
                bool any = false;
                for (int d = 1; d <= 3; d++)
                    if (alive[d] && dist[move(m, mask[d])] == left - 1) any = true;
                if (!any) continue;
                answer += char('A' + m);
                for (int d = 1; d <= 3; d++) {
                    if (!alive[d]) continue;
                    mask[d] = move(m, mask[d]);
                    alive[d] = dist[mask[d]] == left - 1;
                }
                break;
            }
        }
        int digit = 1;
        while (!alive[digit]) digit++;
        printf("%s\n%d\n", answer.c_str(), digit);
    }
    return 0;
}
