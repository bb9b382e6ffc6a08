// Lights Out: light chasing. Once the presses of the top row are chosen, each
// lit cell of a row can only be put out by the press below it; so each of the
// 32 choices for the top row gives one press set, which clears the board when
// the bottom row ends dark. Keep the fewest presses, then the smallest
// ascending list.
#include <cstdio>
#include <vector>

static bool readBoard(int b[5][5]) {
    for (int r = 0; r < 5; r++) {
        char line[64];
        if (scanf("%63s", line) != 1) return false;
        for (int c = 0; c < 5; c++) b[r][c] = line[c] - '0';
    }
    return true;
}

static void press(int b[5][5], int r, int c) {
    const int dr[5] = {0, 1, -1, 0, 0}, dc[5] = {0, 0, 0, 1, -1};
    for (int k = 0; k < 5; k++) {
        int y = r + dr[k], x = c + dc[k];
        if (y >= 0 && y < 5 && x >= 0 && x < 5) b[y][x] ^= 1;
    }
}

int main() {
    int start[5][5];
    while (readBoard(start)) {
        bool any = false;
        std::vector<int> best;
        for (int top = 0; top < 32; top++) {
            int b[5][5];
            for (int r = 0; r < 5; r++)
                for (int c = 0; c < 5; c++) b[r][c] = start[r][c];
            std::vector<int> presses;
            for (int c = 0; c < 5; c++)
                if (top >> c & 1) press(b, 0, c), presses.push_back(c + 1);
            for (int r = 1; r < 5; r++)
                for (int c = 0; c < 5; c++)
                    if (b[r - 1][c]) press(b, r, c), presses.push_back(5 * r + c + 1);
            bool dark = true;
            for (int c = 0; c < 5; c++) dark &= !b[4][c];
            if (!dark) continue;
            // presses come out in ascending order: row by row
            if (!any || presses.size() < best.size() || (presses.size() == best.size() && presses < best))
                best = presses, any = true;
        }
        if (!any) {
            puts("unsolvable");
            continue;
        }
        for (size_t i = 0; i < best.size(); i++) printf(i ? " %d" : "%d", best[i]);
        printf("\n");
    }
}
