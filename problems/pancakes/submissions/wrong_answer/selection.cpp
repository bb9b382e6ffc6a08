// Pancakes, wrong: the textbook method. For each size from n down, flip the
// largest pancake not yet in place to the top, then down into its place (at
// most 2n-3 flips). Valid answers, but usually far longer than the fewest.
#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
    int n, s[20];
    while (scanf("%d", &n) == 1) {
        for (int i = 0; i < n; i++) scanf("%d", &s[i]);
        std::vector<int> flips;
        for (int size = n; size >= 2; size--) {
            int at = std::find(s, s + n, size) - s;
            if (at == size - 1) continue;
            if (at > 0) {
                std::reverse(s, s + at + 1);
                flips.push_back(at + 1);
            }
            std::reverse(s, s + size);
            flips.push_back(size);
        }
        for (size_t i = 0; i < flips.size(); i++) printf(i ? " %d" : "%d", flips[i]);
        printf("\n");
    }
}
